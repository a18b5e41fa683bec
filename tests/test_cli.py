"""The romecore command: listing, simulating, playing in the terminal, benchmarking."""

from __future__ import annotations

from click.testing import CliRunner

from romecore.cli import main


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_games_lists_great_city():
    out = run("games")
    assert out.exit_code == 0
    assert "great_city_of_rome" in out.output and "2-4 players" in out.output
    assert "random" in out.output


def test_games_lists_agent_parameters():
    out = run("games", "--params")
    assert out.exit_code == 0, out.output
    assert "    simulations=0 (int):" in out.output     # mcts and ismcts budgets
    assert "    algorithm='paranoid' (str):" in out.output
    assert "simulations=0" not in run("games").output


def test_simulate_prints_a_results_table():
    out = run("simulate", "great_city_of_rome", "--players", "3", "--games", "6", "--agents", "random")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert "6 games" in lines[0]
    rows = [line for line in lines if line.strip().split(" ")[0].isdigit()]
    assert len(rows) == 3
    wins = sum(float(r.split()[2]) for r in rows)
    assert abs(wins - 6) < 1e-9  # every game's win is shared out


def test_simulate_is_reproducible_by_seed():
    a = run("simulate", "-p", "2", "-g", "4", "-s", "5").output.splitlines()[1:]
    b = run("simulate", "-p", "2", "-g", "4", "-s", "5").output.splitlines()[1:]
    strip = lambda rows: [r.rsplit(None, 1)[0] for r in rows]  # drop the timing column
    assert strip(a) == strip(b)


def test_simulate_rejects_bad_arguments():
    out = CliRunner().invoke(main, ["simulate", "no_such_game"])
    assert out.exit_code != 0 and "no game 'no_such_game'" in out.output
    out = CliRunner().invoke(main, ["simulate", "great_city_of_rome", "--players", "9"])
    assert out.exit_code != 0 and "players" in out.output
    out = CliRunner().invoke(main, ["simulate", "great_city_of_rome", "--agents", "nobody"])
    assert out.exit_code != 0 and "no agent 'nobody'" in out.output


def test_play_reprompts_on_bad_input_and_quits_cleanly():
    # nonsense, an out-of-range number, a listing, then quit
    out = run("play", "great_city_of_rome", "--players", "2", "--seed", "3",
              input="fly\n999\n?\nq\n")
    assert out.exit_code == 0, out.output
    assert "no legal action is named 'fly'" in out.output
    assert "bye" in out.output


def test_play_a_whole_game_by_numbers():
    out = run("play", "great_city_of_rome", "--players", "2", "--seed", "4", input="0\n" * 400)
    assert out.exit_code == 0, out.output[-2000:]
    assert "scores" in out.output and "returns" in out.output


def test_play_by_name():
    out = run("play", "great_city_of_rome", "--players", "2", "--seat", "1", "--seed", "8",
              input="draft\nq\n")
    assert out.exit_code == 0
    assert "ambiguous" in out.output or "bye" in out.output


def test_bench_prints_rates():
    out = run("bench", "great_city_of_rome", "--seconds", "0.05")
    assert out.exit_code == 0, out.output
    for key in ("playouts/s", "steps/s", "python step", "clone", "snapshot trip"):
        assert key in out.output
