"""Tournaments: schedule, table, determinism across backends, the results file and
--resume, the Python API and the CLI."""

from __future__ import annotations

import json
import math
import warnings

import pytest
from click.testing import CliRunner

import romecore
from romecore import records, tournament
from romecore.cli import main
from romecore.tournament.schedule import derive_seed, game_seed, lineup
from romecore.tournament.stats import GameSummary, seat_ranks, summarise, wilson_interval

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAME = "great_city_of_rome"


def _game_lines(path):
    """The game records of a results file, without what depends on timing."""
    out = {}
    for rec in records.read(path):
        d = rec.to_dict()
        d.pop("think_seconds")
        d["meta"].pop("attempts", None)
        assert d["meta"]["index"] not in out, "a game was written twice"
        out[d["meta"]["index"]] = d
    return out


def _table(result):
    """The table without its timing column."""
    return [{k: v for k, v in row.items() if k != "seconds_per_move"} for row in result.table]


# -- schedule -----------------------------------------------------------------------------
@pytest.mark.parametrize("agents,seats", [(2, 4), (3, 4), (4, 4), (5, 3), (1, 2)])
def test_each_agent_sits_in_each_seat_equally(agents, seats):
    counts = [[0] * seats for _ in range(agents)]
    for g in range(agents * 3):
        for s, a in enumerate(lineup(g, agents, seats)):
            counts[a][s] += 1
    assert all(c == counts[0][0] for row in counts for c in row)


def test_seeds_are_reproducible_and_distinct():
    assert derive_seed(7, 1, 2) == derive_seed(7, 1, 2)
    seeds = {game_seed(7, i, 1, paired=False) for i in range(10000)}
    assert len(seeds) == 10000 and all(0 <= s < 2**64 for s in seeds)
    assert game_seed(7, 0, 3) == game_seed(7, 2, 3) != game_seed(7, 3, 3)  # paired blocks
    assert game_seed(7, 0, 3) != game_seed(8, 0, 3)


# -- the table ----------------------------------------------------------------------------
def test_wilson_interval():
    lo, hi = wilson_interval(50, 100)
    assert lo < 0.5 < hi and abs((0.5 - lo) - (hi - 0.5)) < 1e-9 and 0.39 < lo < 0.41
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0) and wilson_interval(10, 10)[1] == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_seat_ranks_share_ties():
    assert seat_ranks([0, 1, 0, 0], [10, 20, 15, 15]) == [4, 1, 2, 2]
    assert seat_ranks([0.5, 0.5, 0], [9, 9, 9]) == [1, 1, 3]


def _summary(i, lineup_, returns, scores):
    n = len(lineup_)
    return GameSummary(i, tuple(lineup_), tuple(returns), tuple(scores), (0.0,) * n, (1,) * n)


def test_ratings_rate_ties_as_ties():
    """Two agents that always tie end with equal ratings (a tie counts as both orders,
    equally); a third that always loses falls far below them."""
    games = [_summary(i, [(i + s) % 3 for s in range(3)],
                      [0.5 if (i + s) % 3 < 2 else 0.0 for s in range(3)],
                      [10 if (i + s) % 3 < 2 else 5 for s in range(3)]) for i in range(30)]
    rows = summarise(["a", "b", "c"], ["a", "b", "c"], games)
    assert rows[0].rating == pytest.approx(rows[1].rating)
    assert rows[2].rating < rows[0].rating - 400
    assert [r.wins for r in rows] == [15.0, 15.0, 0.0] and [r.games for r in rows] == [30] * 3
    assert rows[0].win_rate == 0.5 and rows[0].mean_score == 10


def test_forfeits_are_losses_in_wins_interval_and_rating():
    """Agent c forfeits every game (return 0, the others share the win, 0.5 each): it is
    counted in games, forfeits, win rate and interval, its scores are left out of the mean,
    and the other two tie for first (not ranked by the unfinished game's scores)."""
    games = []
    for i in range(30):
        seats = [(i + s) % 3 for s in range(3)]
        c_seat = seats.index(2)
        returns = [0.0 if s == c_seat else 0.5 for s in range(3)]
        scores = [99 if a == 2 else (7 if a == 0 else 3) for a in seats]  # c "leads"
        games.append(GameSummary(i, tuple(seats), tuple(returns), tuple(scores), (0.0,) * 3,
                                 (1,) * 3, c_seat))
    games.append(_summary(30, [0, 1, 2], [0.0, 0.0, 1.0], [1, 1, 5]))  # c wins one played game
    rows = summarise(["a", "b", "c"], ["a", "b", "c"], games)
    a, b, c = rows
    assert [r.forfeits for r in rows] == [0, 0, 30] and [r.games for r in rows] == [31] * 3
    assert (a.wins, b.wins, c.wins) == (15.0, 15.0, 1.0)
    assert (c.win_rate_low, c.win_rate_high) == wilson_interval(1, 31)
    assert c.mean_score == 5 and a.mean_score == 1  # the finished game only
    assert a.rating == pytest.approx(b.rating) and c.rating < a.rating - 200


def test_ratings_are_the_ladders_elo_scale():
    """Two agents, x winning 15 of 20: Bradley-Terry with one virtual drawn game (half a
    win each) puts x at 400 log10(15.5 / 5.5) Elo over y; random, where present, is 0."""
    games = [_summary(i, [i % 2, 1 - i % 2], [1.0, 0.0] if (i % 2 == 0) == (i % 4 != 3) else [0.0, 1.0], [3, 2])
             for i in range(20)]
    x_wins = sum(g.returns[g.lineup.index(0)] for g in games)
    assert x_wins == 15
    rows = summarise(["x", "random"], ["x", "random"], games)
    assert rows[1].rating == 0.0 and rows[1].rating_low == rows[1].rating_high == 0.0
    assert rows[0].rating == pytest.approx(400 * math.log10(15.5 / 5.5), abs=1e-6)
    assert rows[0].rating_low < rows[0].rating < rows[0].rating_high
    rows = summarise(["y", "x"], ["y", "x"], [_summary(g.index, [1 - a for a in g.lineup], g.returns, g.scores)
                                               for g in games])
    assert rows[0].rating == 0.0 and rows[1].rating == pytest.approx(400 * math.log10(15.5 / 5.5), abs=1e-6)


def test_ratings_ignore_completion_order():
    games = [_summary(i, [i % 2, 1 - i % 2], [1.0, 0.0] if i % 3 else [0.0, 1.0], [3, 2])
             for i in range(20)]
    a = summarise(["x", "y"], ["x", "y"], games)
    b = summarise(["x", "y"], ["x", "y"], list(reversed(games)))
    assert a == b


# -- running --------------------------------------------------------------------------------
def test_inline_run_table_adds_up():
    r = tournament.run(GAME, ["random", "random"], games=12, players=3, seed=5, backend="inline")
    assert r.games_played == r.games_this_run == 12 and not r.failures
    assert [row.agent for row in r.rows] == ["random#1", "random#2"]
    assert sum(row.games for row in r.rows) == 12 * 3
    assert sum(row.wins for row in r.rows) == pytest.approx(12.0)  # winners share 1 per game
    assert all(0 <= row.win_rate_low <= row.win_rate <= row.win_rate_high <= 1 for row in r.rows)
    again = tournament.run(GAME, ["random", "random"], games=12, players=3, seed=5, backend="inline")
    assert _table(again) == _table(r)
    other = tournament.run(GAME, ["random", "random"], games=12, players=3, seed=6, backend="inline")
    assert _table(other) != _table(r)


def test_pool_and_inline_give_the_same_games(tmp_path):
    kw = dict(games=10, players=4, seed=11)
    pooled = tournament.run(GAME, ["random", "random", "random"], workers=2,
                            out=str(tmp_path / "pool.jsonl"), **kw)
    inline = tournament.run(GAME, ["random", "random", "random"], backend="inline",
                            out=str(tmp_path / "inline.jsonl"), **kw)
    assert pooled.workers == 2 and pooled.games_played == 10
    assert _game_lines(tmp_path / "pool.jsonl") == _game_lines(tmp_path / "inline.jsonl")
    assert _table(pooled) == _table(inline)
    for rec in records.read(tmp_path / "pool.jsonl"):
        records.replay(rec)  # every line of a results file is a replayable record


def test_results_file_and_resume(tmp_path):
    out = tmp_path / "t.jsonl"
    full = tournament.run(GAME, ["random", "random"], games=16, seed=3, backend="inline")
    tournament.run(GAME, ["random", "random"], games=16, seed=3, backend="inline", out=str(out))
    lines = out.read_bytes().split(b"\n")
    assert json.loads(lines[0])["kind"] == "romecore.tournament" and len(lines) == 18
    # interrupt: keep the header and 6 games, plus half of the 7th line
    out.write_bytes(b"\n".join(lines[:7]) + b"\n" + lines[7][:40])
    with pytest.raises(tournament.TournamentError, match="already exists"):
        tournament.run(GAME, ["random", "random"], games=16, seed=3, backend="inline", out=str(out))
    resumed = tournament.run(GAME, ["random", "random"], games=16, seed=3, workers=2,
                             out=str(out), resume=True)
    assert resumed.games_this_run == 10 and resumed.games_played == 16
    assert sorted(_game_lines(out)) == list(range(16))  # each game once
    assert _table(resumed) == _table(full)
    # nothing left: resuming again plays nothing and changes nothing
    again = tournament.run(GAME, ["random", "random"], games=16, seed=3, backend="inline",
                           out=str(out), resume=True)
    assert again.games_this_run == 0 and _table(again) == _table(full)
    # more games extend the same tournament
    more = tournament.run(GAME, ["random", "random"], games=20, seed=3, backend="inline",
                          out=str(out), resume=True)
    assert more.games_this_run == 4 and sorted(_game_lines(out)) == list(range(20))


def test_resume_refuses_another_tournament(tmp_path):
    out = str(tmp_path / "t.jsonl")
    tournament.run(GAME, ["random", "random"], games=2, seed=3, backend="inline", out=out)
    for change in (dict(seed=4), dict(players=3), dict(agents=["random", "random", "random"])):
        kw = dict(agents=["random", "random"], games=2, seed=3, backend="inline", out=out,
                  resume=True)
        kw.update(change)
        with pytest.raises(tournament.TournamentError, match="another tournament"):
            tournament.run(GAME, **kw)
    with open(out, "ab") as f:
        f.write(b'{"kind":"romecore.record","version":1}\n')
    with pytest.raises(tournament.TournamentError, match="bad game record"):
        tournament.run(GAME, ["random", "random"], games=2, seed=3, backend="inline", out=out, resume=True)
    (tmp_path / "junk.jsonl").write_text("hello\n")
    with pytest.raises(tournament.TournamentError, match="not a romecore tournament"):
        tournament.run(GAME, ["random", "random"], games=2, backend="inline",
                       out=str(tmp_path / "junk.jsonl"), resume=True)


def test_start_state_and_bad_arguments():
    game = romecore.load_game(GAME, players=2)
    start = game.new_initial_state(seed=2)
    start.resolve_chance()
    r = tournament.run(game, ["random", "random"], games=4, backend="inline", start=start)
    assert r.games_played == 4
    with pytest.raises(romecore.AgentSpecError):
        tournament.run(GAME, ["no_such_agent"], games=1, backend="inline")
    with pytest.raises(romecore.UnknownGameError):
        tournament.run("no_such_game", ["random"], games=1, backend="inline")
    with pytest.raises(ValueError):
        tournament.run(GAME, ["random"], games=1, backend="carrier-pigeon")
    with pytest.raises(ValueError):
        tournament.run(game, ["random"], games=1, players=3)


def test_ray_backend_without_ray_says_how_to_get_it(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # as if not installed
    with pytest.raises(tournament.TournamentError, match=r"romecore\[ray\]"):
        tournament.run(GAME, ["random"], games=1, backend="ray")


def test_default_lineup_is_installed_and_plays():
    from romecore.tournament.defaults import default_lineup

    game = romecore.load_game(GAME)
    specs, games = default_lineup(game)
    assert len(specs) >= 2 and games > 0
    r = tournament.run(GAME, games=1, players=2, backend="inline")
    assert [row.spec for row in r.rows] == specs and r.games_played == 1


def test_pool_from_a_script_without_a_main_guard(tmp_path):
    """Workers are fresh interpreters that never import the caller's __main__."""
    import subprocess
    import sys

    script = tmp_path / "plain.py"
    script.write_text("import warnings; warnings.simplefilter('ignore')\n"
                      "from romecore import tournament\n"
                      f"r = tournament.run({GAME!r}, ['random', 'random'], games=4, workers=2)\n"
                      "print('played', r.games_played)\n")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "played 4"


# -- CLI ------------------------------------------------------------------------------------
def test_cli_out_in_a_missing_folder_is_a_one_line_error(tmp_path):
    res = CliRunner().invoke(main, ["tournament", GAME, "-p", "2", "-a", "random", "-g", "2",
                                    "--backend", "inline", "--no-progress",
                                    "--out", str(tmp_path / "no" / "such" / "t.jsonl")])
    assert res.exit_code == 1 and res.exception is not None
    assert isinstance(res.exception, SystemExit)  # click's error, not a traceback
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1
    assert "cannot write the results file" in res.output and "No such file" in res.output


def test_cli_json_keeps_stdout_clean(tmp_path):
    """Whatever is printed while the games run (here by an agent) goes to stderr; stdout
    is the JSON alone."""
    import subprocess
    import sys

    (tmp_path / "noisy_plugin.py").write_text(
        "import os, romecore\n"
        "from romecore.spec import AgentSpec\n"
        "class Noisy:\n"
        "    spec = 'noisy'\n"
        "    def __init__(self, game=None, seed=None): pass\n"
        "    def step(self, state):\n"
        "        print('chatter'); os.write(1, b'raw chatter\\n')\n"
        "        return state.legal_actions()[0]\n"
        "@romecore.hookimpl\n"
        "def romecore_agents():\n"
        "    return [AgentSpec('noisy', Noisy, {})]\n")
    args = [sys.executable, "-W", "ignore", "-c", "from romecore.cli import main; main()",
            "tournament", GAME, "-p", "2", "-a", "noisy", "-a", "random", "-g", "2",
            "--backend", "inline", "--out", "-", "--json", "--plugin", "noisy_plugin"]
    res = subprocess.run(args, capture_output=True, text=True, timeout=120, cwd=tmp_path,
                         env={**__import__("os").environ, "PYTHONPATH": str(tmp_path)})
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["games_played"] == 2
    assert "raw chatter" in res.stderr and "chatter" in res.stderr
def test_cli_tournament_resume_and_replay(tmp_path):
    out = str(tmp_path / "cli.jsonl")
    runner = CliRunner()
    args = ["tournament", GAME, "-p", "2", "-a", "random", "-a", "random", "-g", "6",
            "-w", "2", "--seed", "9", "--out", out, "--no-progress"]
    res = runner.invoke(main, args)
    assert res.exit_code == 0, res.output
    assert "random#1" in res.output and "win %" in res.output and "Elo" in res.output
    assert "random#1 = 0" in res.output  # the caption says what the ratings are
    assert "forfeits" not in res.output  # a column only when some game was forfeited
    res = runner.invoke(main, args)
    assert res.exit_code != 0 and "--resume" in res.output
    res = runner.invoke(main, args + ["--resume", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["games_played"] == 6 and data["games_this_run"] == 0
    assert {row["agent"] for row in data["rows"]} == {"random#1", "random#2"}

    res = runner.invoke(main, ["replay", out, "--index", "2", "--no-step"])
    assert res.exit_code == 0, res.output
    assert "reaches the recorded result" in res.output and "player 1:" in res.output
    res = runner.invoke(main, ["replay", out, "--check"])
    assert res.exit_code == 0 and "6 of 6 records replay" in res.output
    res = runner.invoke(main, ["replay", out, "-n", "99"])
    assert res.exit_code != 0 and "holds 6 records" in res.output


def test_cli_default_results_file(tmp_path, monkeypatch):
    import os

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    args = ["tournament", GAME, "-p", "2", "-a", "random", "-a", "random", "-g", "2",
            "--backend", "inline", "--no-progress"]
    res = runner.invoke(main, args)
    assert res.exit_code == 0, res.output
    made = [f for f in os.listdir(".") if f.startswith(GAME) and f.endswith(".jsonl")]
    assert len(made) == 1 and f"results in {made[0]}" in res.output.replace("\n", "")
    assert len(records.read(made[0])) == 2
    res = runner.invoke(main, args + ["--resume"])
    assert res.exit_code != 0 and "--resume needs --out" in res.output
    res = runner.invoke(main, args + ["--resume", "--overwrite", "--out", made[0]])
    assert res.exit_code != 0 and "exclude each other" in res.output


def test_cli_replay_steps_and_refuses_tampering(tmp_path):
    game = romecore.load_game(GAME, players=2)
    from romecore.match import play_game

    rec = play_game(game, [romecore.make_agent("random", game=game, seed=i) for i in range(2)], 4)
    path = tmp_path / "one.msgpack"
    records.write(path, [rec])
    runner = CliRunner()
    res = runner.invoke(main, ["replay", str(path), "--step"], input="\n3\nb\nc\n")
    assert res.exit_code == 0, res.output
    assert "reaches the recorded result" in res.output
    res = runner.invoke(main, ["replay", str(path), "--step"], input="q\n")
    assert res.exit_code == 0 and "reaches" not in res.output
    rec.scores = [s + 1 for s in rec.scores]
    records.write(path, [rec])
    res = runner.invoke(main, ["replay", str(path), "--no-step"])
    assert res.exit_code != 0 and "differ from the record" in res.output
    res = runner.invoke(main, ["replay", str(path), "--check"])
    assert res.exit_code == 1 and "0 of 1 records" in res.output
    (tmp_path / "bad.jsonl").write_text("{nope\n")
    res = runner.invoke(main, ["replay", str(tmp_path / "bad.jsonl")])
    assert res.exit_code != 0 and "not JSON" in res.output


def test_cli_interrupted_then_resumed(tmp_path):
    """Ctrl-C in the middle of a pool tournament, then --resume: every game once, and the
    same table as an uninterrupted run."""
    import os
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "int.jsonl"
    # 2,000 random games last a few seconds, so the signal lands mid-run; should it land in
    # the last instant instead, the run has finished and must say so with exit code 0.
    n = 2000
    args = [sys.executable, "-W", "ignore", "-c", "from romecore.cli import main; main()",
            "tournament", GAME, "-a", "random", "-a", "random", "-g", str(n), "-w", "2",
            "--seed", "5", "--out", str(out), "--no-progress"]
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and proc.poll() is None:
        if out.exists() and out.read_bytes().count(b"\n") > 20:
            break
        time.sleep(0.02)
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGINT)
    _stdout, stderr = proc.communicate(timeout=60)
    if proc.returncode != 0:
        assert "continue with --resume" in stderr, stderr
        assert out.read_bytes().count(b"\n") < n + 1
    else:
        assert sorted(_game_lines(out)) == list(range(n)), "exit code 0 before every game"
    res = subprocess.run(args + ["--resume", "--json"], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["games_played"] == n
    assert sorted(_game_lines(out)) == list(range(n))
    full = tournament.run(GAME, ["random", "random"], games=n, seed=5, backend="inline")
    resumed = tournament.run(GAME, ["random", "random"], games=n, seed=5, backend="inline",
                             out=str(out), resume=True)
    assert resumed.games_this_run == 0 and _table(resumed) == _table(full)
