"""The strength ladder: its schedule, its ratings against the closed form at two agents,
the CLI and --resume.  The fit itself is tested in test_rating.py."""

from __future__ import annotations

import itertools
import json
import math
import subprocess
import sys
import warnings
from collections import Counter

import pytest
from click.testing import CliRunner

import romecore
from romecore import records
from romecore.cli import main
from romecore.errors import InvalidArgumentError
from romecore.tournament.ladder import match_games, matches, run_ladder, with_budget
from romecore.tournament.schedule import lineup

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAME = "great_city_of_rome"


# -- the schedule --------------------------------------------------------------------------
@pytest.mark.parametrize("agents,players", [(5, 2), (5, 3), (5, 4), (3, 4), (2, 2), (4, 4)])
def test_every_pairing_and_seat_equally_often(agents, players):
    """Over the ladder's matches, each played for the ladder's number of games with the
    tournament's rotation, every two agents meet equally often and every agent
    sits in every seat equally often."""
    games = match_games(players + 1, agents, players)
    seats: Counter = Counter()
    met: Counter = Counter()
    for roster in matches(agents, players):
        for g in range(games):
            line = [roster[a] for a in lineup(g, len(roster), players)]
            seats.update((a, s) for s, a in enumerate(line))
            met.update(itertools.combinations(sorted(set(line)), 2))
    assert set(met) == set(itertools.combinations(range(agents), 2))
    assert len(set(met.values())) == 1
    assert set(seats) == {(a, s) for a in range(agents) for s in range(players)}
    assert len(set(seats.values())) == 1


def test_with_budget_gives_every_search_agent_the_same_budget():
    assert with_budget("random", time=0.1) == "random"
    assert with_budget("mcts", time=0.1) == "mcts:time=0.1"
    assert with_budget("ismcts:c=1.0", time=0.05) == "ismcts:c=1.0,time=0.05"
    assert with_budget("mcts", simulations=500) == "mcts:simulations=500"
    assert with_budget("alphabeta", simulations=500) == "alphabeta:nodes=500"
    assert with_budget("greedy", simulations=500) == "greedy:nodes=500"
    assert with_budget("mcts:simulations=9", time=0.1) == "mcts:simulations=9"  # its own budget
    assert with_budget("mcts") == "mcts"


def test_with_budget_puts_a_time_budget_on_the_clock_asked_for():
    assert with_budget("ismcts", time=0.1, clock="cpu") == "ismcts:time=0.1,clock=cpu"
    assert with_budget("greedy:clock=wall", time=0.1, clock="cpu") == "greedy:clock=wall,time=0.1"
    assert with_budget("mcts", simulations=50, clock="cpu") == "mcts:simulations=50"  # no time
    assert with_budget("random", time=0.1, clock="cpu") == "random"


# -- end to end ----------------------------------------------------------------------------
def _ladder(tmp_path, *extra):
    args = ["ladder", GAME, "-a", "random", "-a", "greedy", "-a", "mcts:simulations=5",
            "--backend", "inline", "--no-progress", "--out", str(tmp_path / "ladder.md"), *extra]
    tmp_path.mkdir(exist_ok=True)
    return CliRunner().invoke(main, args, catch_exceptions=False)


def _lineups(games_dir):
    out = {}
    for path in sorted(games_dir.glob("*.jsonl")):
        indices = [rec.meta["index"] for rec in records.read(path)]
        assert len(indices) == len(set(indices)), f"a game was written twice in {path}"
        out[path.name] = [(tuple(rec.agents), tuple(rec.returns)) for rec in records.read(path)]
    return out


def test_cli_plays_every_pairing_and_writes_the_table(tmp_path):
    r = _ladder(tmp_path, "-g", "2", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["games_played"] == 6 and data["games_per_match"] == 2 and data["anchor"] == "random"
    rows = {row["agent"]: row for row in data["rows"]}
    assert set(rows) == {"random", "greedy", "mcts:simulations=5"}
    assert all(row["games"] == 4 for row in rows.values())
    assert rows["random"]["rating"] == 0.0
    report = (tmp_path / "ladder.md").read_text()
    assert "| agent | games | wins | win rate | rating | 95% interval | ms/move |" in report
    for name in rows:
        assert f"| `{name}` | 4 |" in report
    played = _lineups(tmp_path / "ladder-games")
    assert len(played) == 3
    seats = Counter()
    for games in played.values():
        assert len(games) == 2
        seats.update((a, s) for agents, _ in games for s, a in enumerate(agents))
    assert set(seats.values()) == {2}  # each of 3 agents in each of 2 seats, twice
    # the table counts exactly the games in the files
    wins = Counter()
    for games in played.values():
        for agents, returns in games:
            for a, x in zip(agents, returns):
                wins[a] += x
    for name, row in rows.items():
        assert row["wins"] == pytest.approx(wins[name])


def test_resume_does_not_double_count(tmp_path):
    first = json.loads(_ladder(tmp_path, "-g", "2", "--json").stdout)
    before = _lineups(tmp_path / "ladder-games")
    again = _ladder(tmp_path, "-g", "2", "--json")
    assert again.exit_code == 1 and "--resume" in again.output  # refuses to clobber
    same = json.loads(_ladder(tmp_path, "-g", "2", "--resume", "--json").stdout)
    assert same["games_this_run"] == 0 and same["games_played"] == 6
    first["games_this_run"] = 0
    assert _untimed(same) == _untimed(first)  # the same table, no game counted twice
    more = json.loads(_ladder(tmp_path, "-g", "4", "--resume", "--json").stdout)
    assert more["games_this_run"] == 6 and more["games_played"] == 12
    assert all(row["games"] == 8 for row in more["rows"])
    after = _lineups(tmp_path / "ladder-games")
    for name, games in before.items():
        assert after[name][:2] == games  # kept, not replayed
    # a match's file is a tournament's results file: `romecore tournament --resume` agrees
    path = next((tmp_path / "ladder-games").glob("00_*.jsonl"))
    r = CliRunner().invoke(main, ["tournament", GAME, "-p", "2", "-a", "random", "-a", "greedy", "-g", "4",
                                  "--backend", "inline", "--out", str(path), "--resume", "--json",
                                  "--no-progress"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["games_this_run"] == 0


def test_cli_refuses_bad_arguments(tmp_path):
    r = _ladder(tmp_path, "--time", "0.1", "--simulations", "5")
    assert r.exit_code == 2 and "exclude" in r.output
    r = CliRunner().invoke(main, ["ladder", GAME, "--resume", "--backend", "inline"])
    assert r.exit_code == 2 and "--resume needs" in r.output
    r = _ladder(tmp_path, "-a", "nosuchagent", "-g", "2")
    assert r.exit_code == 1 and "nosuchagent" in r.output
    r = CliRunner().invoke(main, ["ladder", GAME, "-a", "random", "--backend", "inline",
                                  "--games-dir", str(tmp_path / "g")])
    assert r.exit_code == 1 and "two agents" in r.output


def test_more_players_and_bootstrap_intervals(tmp_path):
    r = CliRunner().invoke(main, [
        "ladder", GAME, "-p", "3", "-a", "random", "-a", "greedy", "-a", "greedy:samples=2",
        "-a", "random", "-g", "3", "--backend", "inline", "--no-progress", "--interval", "bootstrap",
        "--bootstrap", "20", "--games-dir", str(tmp_path / "g"), "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert len(data["matches"]) == 4 and data["games_played"] == 12  # every 3 of 4 agents
    assert data["anchor"] == "random#1"
    assert all(row["games"] == 9 for row in data["rows"])
    for row in data["rows"]:
        assert row["rating_low"] - 1e-9 <= row["rating"] <= row["rating_high"] + 1e-9


def test_two_agents_rate_400_log10_of_their_odds(tmp_path):
    """At two agents the ladder's rating has a closed form: Bradley-Terry with the prior's
    one drawn game gives greedy (w + d/2 + 1/2) / (l + d/2 + 1/2) odds against random, and
    its Fisher interval the half-width 1.96 / sqrt(N p (1 - p)) in log-odds, N games."""
    game = romecore.load_game(GAME, players=2)
    result = run_ladder(game, ["random", "greedy"], games_per_match=4, games_dir=str(tmp_path), backend="inline")
    won = lost = drawn = 0
    for rec in records.read(next(tmp_path.glob("*.jsonl"))):
        g, r = rec.agents.index("greedy"), rec.agents.index("random")
        mine, theirs = (rec.returns[g], rec.scores[g]), (rec.returns[r], rec.scores[r])
        won, lost, drawn = won + (mine > theirs), lost + (mine < theirs), drawn + (mine == theirs)
    assert won + lost + drawn == 4
    share = won + drawn / 2 + 0.5
    n = won + lost + drawn + 1
    rows = {row.agent: row for row in result.rows}
    assert rows["greedy"].rating == pytest.approx(400 * math.log10(share / (n - share)), abs=1e-6)
    half = 1.959964 * 400 / math.log(10) / math.sqrt(n * (share / n) * (1 - share / n))
    assert rows["greedy"].rating_high - rows["greedy"].rating == pytest.approx(half, abs=1e-6)
    assert (rows["random"].rating, rows["random"].rating_low, rows["random"].rating_high) == (0, 0, 0)


def _untimed(d):
    """A ladder's JSON without what depends on timing or on where it ran."""
    skip = {"elapsed", "ms_per_move", "backend", "games_dir"}
    return {k: [_untimed(r) for r in v] if k == "rows" else v for k, v in d.items() if k not in skip}


def test_the_pool_plays_the_inline_ladder(tmp_path):
    """The same seed gives the same games and table on the local pool as in this process."""
    inline = json.loads(_ladder(tmp_path / "inline", "-g", "2", "--json").stdout)
    pooled = _ladder(tmp_path / "pool", "-g", "2", "--json", "--backend", "local", "-w", "2")  # the last --backend wins
    assert pooled.exit_code == 0, pooled.output
    assert _untimed(json.loads(pooled.stdout)) == _untimed(inline)


@pytest.mark.slow
def test_ray_plays_the_inline_ladder(tmp_path):
    """And on Ray: one start for all the matches, through a subprocess (a Ray start takes
    seconds: marked slow; skipped without Ray)."""
    pytest.importorskip("ray")
    inline = json.loads(_ladder(tmp_path / "inline", "-g", "2", "--json").stdout)
    args = [sys.executable, "-W", "ignore", "-c", "from romecore.cli import main; main()",
            "ladder", GAME, "-a", "random", "-a", "greedy", "-a", "mcts:simulations=5", "-g", "2",
            "--backend", "ray", "-w", "2", "--no-progress", "--json",
            "--games-dir", str(tmp_path / "ray")]
    res = subprocess.run(args, capture_output=True, text=True, timeout=240)
    assert res.returncode == 0, res.stderr[-2000:]
    assert _untimed(json.loads(res.stdout)) == _untimed(inline)


def test_a_forfeiting_agent_counts_its_losses_and_rates_below_random(tmp_path):
    """An agent that raises at its third move every game forfeits them all: losses in the
    table, marked forfeited, and the fit puts it below random (which beats it every time)."""
    spec = "faulty:mode=raise,always=true,at=3"
    r = CliRunner().invoke(main, [
        "ladder", GAME, "-a", "random", "-a", spec, "-a", "greedy", "-g", "2",
        "--plugin", "test_tournament_faults", "--backend", "inline", "--no-progress",
        "--out", str(tmp_path / "f.md"), "--json"], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    rows = {row["agent"]: row for row in json.loads(r.stdout)["rows"]}
    assert rows[spec]["forfeits"] == rows[spec]["games"] == 4 and rows[spec]["wins"] == 0
    assert rows[spec]["rating"] < rows["random"]["rating"] == 0.0
    assert "| 0 (4 forfeited) |" in (tmp_path / "f.md").read_text()


def test_run_ladder_refuses_bad_arguments(tmp_path):
    game = romecore.load_game(GAME, players=2)
    kw = dict(agents=["random", "greedy"], games_dir=str(tmp_path), backend="inline")
    for bad in (dict(time=0.0), dict(time=0.1, simulations=5), dict(simulations=0),
                dict(interval="wald"), dict(interval="bootstrap", bootstrap=0),
                dict(games_per_match=0), dict(agents=["random"])):
        with pytest.raises(InvalidArgumentError):
            run_ladder(game, **{**kw, **bad})
    assert not list(tmp_path.iterdir())  # refused before anything was played


def test_failed_games_are_listed_not_counted(tmp_path):
    """A worker that dies in every game (no agent's fault to score) fails the game after
    its retries: listed, in the results file as a failure, out of the table."""
    game = romecore.load_game(GAME, players=2)
    result = run_ladder(game, ["random", "faulty:mode=exit,always=true,at=3", "greedy"],
                        games_per_match=2, games_dir=str(tmp_path), backend="local", workers=1,
                        retries=0, plugins=["test_tournament_faults"])
    assert result.games_played == 2 and result.games_this_run == 2  # random vs greedy only
    assert len(result.failures) == 4 and all("died" in f for f in result.failures)
    rows = {r.agent: r for r in result.rows}
    assert rows["faulty:mode=exit,always=true,at=3"].games == 0
    assert rows["random"].games == rows["greedy"].games == 2
