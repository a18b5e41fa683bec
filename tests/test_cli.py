"""The romecore command: listing, simulating, playing in the terminal, benchmarking; one
vocabulary of flags across the commands (with the old spellings warned of), '-' for
standard output, several record files, and tables that fit 80 columns."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import romecore
from romecore import records, tournament
from romecore.cli import main
from romecore.cli.common import OPTION_WAS_O, OUT_WAS_UPPER_O, Renamed, rewrite_renamed

GAME = "great_city_of_rome"
#: A spec longer than an 80-column table leaves its agent column: it must wrap, not be cut.
LONG_SPEC = "mcts:simulations=5,c=1.4,expand=node,cutoff=0,bias=0.5,mix=0"


def run(*args, input=None, env=None):
    return CliRunner(env=env).invoke(main, list(args), input=input, catch_exceptions=False)


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


def test_games_params_shows_each_games_agent_defaults():
    """Every game's GameSpec.agent_defaults, each key=value under its game's line."""
    from romecore.plugins import registry

    out = run("games", "--params").output
    text = " ".join(out.split())  # wrapped lines joined
    for game_id, spec in registry.games().items():
        section = text[text.index(game_id):]
        for agent, defaults in spec.agent_defaults.items():
            shown = ", ".join(f"{k}={v!r}" for k, v in defaults.items())
            assert f"{agent} defaults here: {shown}" in section, (game_id, agent)
    assert "defaults here" not in run("games").output


def _table_rows(output):
    """The table's rows: a slot number, an agent, then numbers."""
    return [line for line in output.splitlines() if line.split(" ")[0].isdigit() and " games" not in line]


def test_simulate_prints_a_results_table():
    out = run("simulate", GAME, "--players", "3", "--games", "6", "--agents", "random", "--no-progress")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert "6 games" in lines[0]
    rows = _table_rows(out.output)
    assert len(rows) == 3
    wins = sum(float(r.split()[2]) for r in rows)
    assert abs(wins - 6) < 1e-9  # every game's win is shared out


def test_simulate_is_reproducible_by_seed():
    a = _table_rows(run("simulate", "-p", "2", "-g", "4", "-s", "5", "--no-progress").output)
    b = _table_rows(run("simulate", "-p", "2", "-g", "4", "-s", "5", "--no-progress").output)
    strip = lambda rows: [r.rsplit(None, 1)[0] for r in rows]  # drop the timing column
    assert len(a) == 2 and strip(a) == strip(b)


def test_simulate_shows_progress_and_writes_replayable_records(tmp_path):
    out = tmp_path / "games.jsonl"
    res = run("simulate", "-p", "2", "-g", "4", "-a", "greedy", "-a", "random", "-o", str(out))
    assert res.exit_code == 0, res.output
    assert "4/4" in res.stderr  # the progress bar, on standard error
    recs = records.read(out)
    assert len(recs) == 4 and [r.agents for r in recs[:2]] == [["greedy", "random"], ["random", "greedy"]]
    assert all(r.finished() and records.replay(r).is_terminal() for r in recs)
    greedy_wins = sum(r.returns[r.agents.index("greedy")] for r in recs)
    (row,) = [r for r in _table_rows(res.stdout) if "greedy" in r]
    assert float(row.split()[2]) == pytest.approx(greedy_wins)  # the table counts the records' games


def test_simulate_out_dash_puts_the_records_on_stdout_and_the_table_on_stderr():
    res = run("simulate", "-p", "2", "-g", "3", "--no-progress", "--out", "-")
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 3 and all(json.loads(line)["kind"] == records.RECORD_KIND for line in lines)
    assert "3 games" in res.stderr and "slot agent" in res.stderr


def test_simulate_rejects_bad_arguments():
    out = CliRunner().invoke(main, ["simulate", "no_such_game"])
    assert out.exit_code != 0 and "no game 'no_such_game'" in out.output
    out = CliRunner().invoke(main, ["simulate", GAME, "--players", "9"])
    assert out.exit_code != 0 and "players" in out.output
    out = CliRunner().invoke(main, ["simulate", GAME, "--agents", "nobody"])
    assert out.exit_code != 0 and "no agent 'nobody'" in out.output
    out = CliRunner().invoke(main, ["simulate", GAME, "-O", "players"])
    assert out.exit_code == 2 and "is not NAME=VALUE" in out.output


def test_play_reprompts_on_bad_input_and_quits_cleanly():
    # nonsense, an out-of-range number, a listing, then quit
    out = run("play", GAME, "--players", "2", "--seed", "3", input="fly\n999\n?\nq\n")
    assert out.exit_code == 0, out.output
    assert "no legal action is named 'fly'" in out.output
    assert "bye" in out.output


def test_play_a_whole_game_by_numbers():
    # a quick opponent: the default one (half a second a move) made this a 30-second test;
    # test_play_by_name seats the default
    out = run("play", GAME, "--players", "2", "--seed", "4", "-a", "ismcts:simulations=30",
              input="0\n" * 400)
    assert out.exit_code == 0, out.output[-2000:]
    assert "scores" in out.output and "returns" in out.output


def test_play_by_name():
    out = run("play", GAME, "--players", "2", "--seat", "1", "--seed", "8", input="draft\nq\n")
    assert out.exit_code == 0
    assert "ambiguous" in out.output or "bye" in out.output


def test_bench_prints_rates():
    out = run("bench", GAME, "--seconds", "0.05")
    assert out.exit_code == 0, out.output
    for key in ("playouts/s", "steps/s", "python step", "clone", "snapshot trip"):
        assert key in out.output


# -- one vocabulary --------------------------------------------------------------------------
def test_option_is_dash_capital_o_everywhere_and_the_old_dash_o_warns():
    """-O/--option NAME=VALUE sets a game option; -o KEY=VALUE, its old spelling, still
    does (a warning on stderr) where -o now means --out, and in bench, which has no output."""
    for args in (["-O", "players=3"], ["--option", "players=3"], ["-Oplayers=3"]):
        res = run("simulate", "-g", "1", "--no-progress", *args)
        assert res.exit_code == 0 and "players=3" in res.stdout and res.stderr == "", res.output
    for cmd in (["simulate", "-g", "1", "--no-progress"], ["bench", "--seconds", "0.01"]):
        res = run(*cmd, "-o", "players=3")
        assert res.exit_code == 0 and "players=3" in res.stdout, res.output
        assert "-o is deprecated" in res.stderr and "use -O" in res.stderr
    res = run("tournament", "-o", "players=2", "-a", "random", "-g", "2", "--backend", "inline",
              "--no-progress", "--out", "-", "--json")
    assert res.exit_code == 0 and "-o is deprecated" in res.stderr, res.output
    assert json.loads(res.stdout)["options"]["players"] == 2


def test_renamed_flags_warn_and_still_work(tmp_path):
    recs = [romecore.match.play_game(romecore.load_game(GAME, players=2),
                                     [romecore.make_agent("random", game=romecore.load_game(GAME, players=2),
                                                          seed=s + i) for i in range(2)], s) for s in (1, 2)]
    path = tmp_path / "g.jsonl"
    records.write(path, recs)
    new = run("export", str(path), "--index", "1", "--out", str(tmp_path / "new.txt"))
    old = run("export", str(path), "--game", "1", "--output", str(tmp_path / "old.txt"))
    assert new.exit_code == old.exit_code == 0 and new.stderr == ""
    assert "--game is deprecated" in old.stderr and "--output is deprecated" in old.stderr
    assert (tmp_path / "old.txt").read_text() == (tmp_path / "new.txt").read_text()
    assert '[Seed "2"]' in (tmp_path / "new.txt").read_text()
    new = run("replay", str(path), "-n", "1", "--no-step")
    old = run("replay", str(path), "--game", "1", "--no-step")
    assert new.stdout == old.stdout and "--game is deprecated" in old.stderr
    new = run("render", "--record", str(path), "--seat", "1", "-o", str(tmp_path / "a.svg"))
    old = run("render", "--record", str(path), "--player", "1", "-o", str(tmp_path / "b.svg"))
    assert new.exit_code == old.exit_code == 0 and "--player is deprecated" in old.stderr
    assert (tmp_path / "a.svg").read_text() == (tmp_path / "b.svg").read_text()
    assert "seat 1's view" in new.stderr


def test_rewrite_leaves_values_and_positionals_alone():
    takes = {"-o", "--out", "-O", "--option", "-a", "--address"}
    renamed = {r.old: r for r in (OPTION_WAS_O, Renamed("--ray-address", "--address"))}
    assert rewrite_renamed(["-o", "a=1", "-o", "out.jsonl", "-oplayers=2"], renamed, takes) == \
        ["-O", "a=1", "-o", "out.jsonl", "-Oplayers=2"]
    assert rewrite_renamed(["-a", "-o", "--ray-address=auto", "--", "-o", "x=1"], renamed, takes) == \
        ["-a", "-o", "--address=auto", "--", "-o", "x=1"]  # -o as -a's value; after --
    upper = {OUT_WAS_UPPER_O.old: OUT_WAS_UPPER_O}
    assert rewrite_renamed(["-O", "shards", "-O", "players=2"], upper, takes) == \
        ["--out", "shards", "-O", "players=2"]


def test_the_same_flag_means_the_same_thing_in_every_command():
    """Each short flag and long spelling names one option across the commands."""
    import click

    meaning = {"-o": "--out", "-O": "--option", "-p": "--players", "-n": "--index", "-s": "--seed",
               "-g": "--games", "-a": "--agents", "-w": "--workers", "-v": "--params", "-e": "--epochs",
               "-q": "--quiet"}
    seen = {}
    for name, cmd in main.commands.items():
        for p in cmd.params:
            if not isinstance(p, click.Option):
                continue
            for short in (o for o in p.opts if len(o) == 2 and o != "-h"):
                longs = [o for o in p.opts if o.startswith("--")]
                assert meaning.get(short) in longs, (name, p.opts)
            for o in p.opts:
                if o.startswith("--"):
                    seen.setdefault(o, set()).add(p.name)
    vocabulary = {"--out": {"out", "out_dir"}, "--option": {"options"}, "--players": {"players"},
                  "--seat": {"seat"}, "--address": {"address"}, "--index": {"number"}}
    for flag, names in vocabulary.items():
        assert seen[flag] <= names, (flag, seen[flag])


# -- '-' and several files -------------------------------------------------------------------
def test_dash_is_stdout_or_none(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    tournament.run(GAME, ["random", "random"], games=2, players=2, backend="inline", out="-")
    res = run("tournament", "-p", "2", "-a", "random", "-g", "2", "--backend", "inline", "--no-progress",
              "-o", "-")
    assert res.exit_code == 0, res.output
    res = run("play", "-p", "2", "--seed", "3", "-a", "random", "-o", "-", input="q\n")
    assert res.exit_code == 0 and "you resign" in res.output and "saved to" not in res.output
    assert list(tmp_path.iterdir()) == []  # no file named '-' (nor any other)
    res = run("render", GAME, "-p", "2", "-o", "-")
    assert res.exit_code == 0 and res.stdout.startswith("<svg")
    path = tmp_path / "g.jsonl"
    run("simulate", "-p", "2", "-g", "2", "--no-progress", "-o", str(path))
    res = run("export", str(path), "-o", "-")
    assert res.exit_code == 0 and res.stdout.startswith(f'[Game "{GAME}"]')
    res = run("ladder", "-p", "2", "-a", "random", "-a", "greedy", "-g", "2", "--backend", "inline",
              "--no-progress", "--games-dir", str(tmp_path / "lg"), "-o", "-")
    assert res.exit_code == 0 and res.stdout.startswith(f"# Ladder: {GAME}"), res.output
    assert "head to head" not in res.stdout  # the Markdown instead of the terminal's tables
    res = run("ladder", "-p", "2", "-a", "random", "-a", "greedy", "--json", "-o", "-")
    assert res.exit_code == 2 and "both write standard output" in res.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["g.jsonl", "lg"]


def test_replay_and_export_take_several_files(tmp_path):
    paths = []
    for k in range(2):
        paths.append(tmp_path / f"g{k}.jsonl")
        run("simulate", "-p", "2", "-g", str(2 + k), "-s", str(10 * k), "--no-progress", "-o", str(paths[-1]))
    res = run("replay", *map(str, paths), "--check")
    assert res.exit_code == 0 and "5 of 5 records of 2 files replay" in res.output, res.output
    res = run("replay", *map(str, paths), "-n", "1", "--no-step")
    assert res.exit_code == 0 and res.output.count("the replay reaches the recorded result") == 2
    assert f"== {paths[1]}, record 1" in res.output
    res = run("export", *map(str, paths), "-n", "1")
    assert res.exit_code == 0 and res.stdout.count("[Game ") == 2
    assert '[Seed "1"]' in res.stdout and '[Seed "11"]' in res.stdout
    res = run("export", *map(str, paths), "--all")
    assert res.stdout.count("[Game ") == 5
    seeds = [line for line in res.stdout.splitlines() if line.startswith("[Seed ")]
    assert seeds == ['[Seed "0"]', '[Seed "1"]', '[Seed "10"]', '[Seed "11"]', '[Seed "12"]']
    res = run("replay", str(paths[0]), "-", "--check", input=paths[1].read_bytes())
    assert res.exit_code == 0 and "5 of 5 records of 2 files" in res.output


def test_render_without_arguments_prints_its_usage():
    res = run("render")
    assert res.exit_code == 2 and "Usage:" in res.output and "render [OPTIONS] [GAME]" in res.output
    assert "<svg" not in res.output
    assert len(res.output) < 3000


# -- 80 columns ------------------------------------------------------------------------------
def _check_80(output):
    lines = output.splitlines()
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    assert "…" not in output  # no cell cut off
    return lines


def test_tournament_table_fits_80_columns_and_explains_its_rating():
    res = run("tournament", "-p", "2", "-a", LONG_SPEC, "-a", "greedy", "-a", "random", "-g", "3",
              "--backend", "inline", "--no-progress", "-o", "-", env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    lines = _check_80(res.stdout)
    assert "".join(line.split("  ")[0] for line in lines if "," in line or "=" in line).replace(" ", "") \
        .find(LONG_SPEC) >= 0  # the spec, wrapped whole
    assert "Elo" in res.stdout and "random = 0" in res.stdout and "Plackett-Luce" in res.stdout
    data = json.loads(run("tournament", "-p", "2", "-a", LONG_SPEC, "-a", "greedy", "-a", "random", "-g", "3",
                          "--backend", "inline", "--no-progress", "-o", "-", "--json").stdout)
    for row in data["rows"]:  # every number of the table is in it whole
        assert f"{row['games']}" in res.stdout and f"{row['win_rate']:.1%}" in res.stdout
        assert f"{row['rating']:.0f}" in res.stdout


def test_ladder_and_simulate_tables_fit_80_columns(tmp_path):
    res = run("ladder", "-p", "2", "-a", "random", "-a", "greedy", "-a", LONG_SPEC, "-g", "2",
              "--backend", "inline", "--no-progress", "--games-dir", str(tmp_path / "g"), env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    _check_80(res.stdout)
    assert "Elo" in res.stdout and "random = 0" in res.stdout and "head to head" in res.stdout
    res = run("simulate", "-p", "3", "-g", "3", "-a", LONG_SPEC, "-a", "random", "--no-progress",
              env={"COLUMNS": "80"})
    assert res.exit_code == 0, res.output
    _check_80(res.stdout)
    res = run("games", "--params", env={"COLUMNS": "80"})
    _check_80(res.stdout)
