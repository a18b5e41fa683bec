"""Workers that crash: the pool replaces them, replays the game from its seed (which
comes out identical), reports what happened, and never hangs.  Agents that raise, return
an illegal move or hang forfeit their game: it counts as their loss, with no retry.

This module is also the plugin that provides the faulty agent: the pool's workers import
it by name (``plugins=[__name__]``), as an embedding application would register its own
agents.
"""

from __future__ import annotations

import os
import random
import signal
import time
import warnings

import pytest

import romecore
from romecore import records, tournament
from romecore.spec import AgentSpec

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAME = "great_city_of_rome"
PLUGIN = __name__


class FaultyAgent:
    """Plays like the random agent, except that at its ``at``-th move it fails once:
    the first process to get there creates ``flag`` and then exits, segfaults, hangs,
    hangs where no signal reaches it (``block``, as native code would), raises or returns
    an illegal action (``mode``).  With ``always`` it fails every time.  ``sore`` raises at
its ``at``-th move only when it is behind on points then; ``none`` never fails."""

    def __init__(self, game=None, seed=None, mode="exit", flag="", at=5, always=False):
        self.spec = "faulty"
        self._rng = random.Random(seed)
        self.mode, self.flag, self.at, self.always = mode, flag, at, always
        self.moves = 0

    def _first_time(self) -> bool:
        if self.always:
            return True
        try:
            fd = os.open(self.flag, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return False
        os.close(fd)
        return True

    def step(self, state):
        self.moves += 1
        if self.mode == "sore" and self.moves == self.at:
            scores, me = state.scores(), state.current_player()
            if scores[me] < max(s for p, s in enumerate(scores) if p != me):
                raise RuntimeError("a sore loser")
        if self.mode not in ("sore", "none") and self.moves == self.at and self._first_time():
            if self.mode == "exit":
                os._exit(3)
            if self.mode == "segv":
                os.kill(os.getpid(), signal.SIGSEGV)
            if self.mode == "block":
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
            if self.mode in ("hang", "block"):
                while True:
                    time.sleep(0.05)
            if self.mode == "raise":
                raise RuntimeError("the faulty agent failed on purpose")
            if self.mode == "illegal":
                return -1
        actions = state.legal_actions()
        return actions[self._rng.randrange(len(actions))]


@romecore.hookimpl
def romecore_agents():
    return [AgentSpec("faulty", FaultyAgent, {
        "mode": (str, "exit", "exit, segv, hang, block, raise, illegal, sore or none"),
        "flag": (str, "", "file whose creation marks the one failure"),
        "at": (int, 5, "the move at which to fail"),
        "always": (bool, False, "fail every time, not once"),
    })]


@pytest.fixture(scope="module", autouse=True)
def _registered():
    from romecore.tournament.worker import load_plugins

    load_plugins([PLUGIN])


def _games(path):
    out = {}
    for rec in records.read(path):
        d = rec.to_dict()
        d.pop("think_seconds")
        d["meta"].pop("attempts")
        out[d["meta"]["index"]] = d
    return out


@pytest.mark.parametrize("mode", ["exit", "segv"])
def test_lost_worker_is_replaced_and_its_game_replayed(tmp_path, mode):
    flag = tmp_path / "failed-once"
    spec = f"faulty:mode={mode},flag={flag},at=20"
    kw = dict(games=6, players=2, seed=21, plugins=[PLUGIN])
    got = tournament.run(GAME, [spec, "random"], workers=2, out=str(tmp_path / "a.jsonl"),
                         time_limit=3.0, **kw)
    assert flag.exists(), "the fault never fired"
    assert not got.failures and not got.forfeits and got.games_played == 6
    assert len(got.events) == 1 and "replaying the game from its seed" in got.events[0]
    # The replayed game is the game that would have been played without the fault.
    clean = tournament.run(GAME, [spec, "random"], backend="inline",
                           out=str(tmp_path / "b.jsonl"), **kw)
    assert _games(tmp_path / "a.jsonl") == _games(tmp_path / "b.jsonl")
    assert [r.wins for r in got.rows] == [r.wins for r in clean.rows]
    attempts = [rec.meta["attempts"] for rec in records.read(tmp_path / "a.jsonl")]
    assert sorted(attempts) == [1] * 5 + [2]


def test_a_game_that_always_crashes_fails_after_its_retries(tmp_path):
    spec = "faulty:mode=exit,always=true,at=3"
    got = tournament.run(GAME, [spec, "random"], games=1, players=2, workers=1, retries=1,
                         plugins=[PLUGIN], out=str(tmp_path / "h.jsonl"))
    assert got.games_played == 0 and [f.index for f in got.failures] == [0]
    assert got.failures[0].attempts == 2 and "exit code 3" in got.failures[0].reason
    lines = (tmp_path / "h.jsonl").read_text().splitlines()
    assert sum('"romecore.failure"' in line for line in lines) == 1
    # resuming tries the failed game again (here it fails again)
    again = tournament.run(GAME, [spec, "random"], games=1, players=2, workers=1, retries=0,
                           plugins=[PLUGIN], out=str(tmp_path / "h.jsonl"), resume=True)
    assert len(again.failures) == 1


def _expect_forfeits(got, path, games, reason, replayable=True):
    """Every game forfeited by the faulty agent (roster 0), scored as its loss: returns 0
    for its seat and 1 for the other (2 players), in the file with the reason, in the
    table's forfeits column, wins and interval."""
    assert not got.failures and got.games_played == games
    assert len(got.forfeits) == games and all(reason in f.reason for f in got.forfeits)
    recs = records.read(path)
    assert len(recs) == games
    for rec in recs:
        seat = rec.meta["lineup"].index(0)
        assert rec.forfeit["seat"] == seat and reason in rec.forfeit["reason"]
        assert rec.returns == [0.0 if s == seat else 1.0 for s in range(2)]
        assert rec.meta["attempts"] == 1  # never retried
        if replayable:
            records.replay(rec)
    faulty, other = got.rows
    assert (faulty.forfeits, faulty.wins, faulty.games) == (games, 0.0, games)
    assert (other.forfeits, other.wins, other.games) == (0, float(games), games)
    assert faulty.win_rate_high < 1 and (faulty.win_rate_low, faulty.win_rate_high) == \
        tournament.wilson_interval(0, games)
    assert faulty.rating < other.rating


@pytest.mark.parametrize("mode,reason", [("raise", "failed on purpose"),
                                         ("illegal", "returned -1"),
                                         ("hang", "move time limit")])
def test_a_faulty_agent_forfeits_at_once(tmp_path, mode, reason):
    spec = f"faulty:mode={mode},always=true,at=2"
    path = tmp_path / "f.jsonl"
    t0 = time.monotonic()
    got = tournament.run(GAME, [spec, "random"], games=4, players=2, workers=2,
                         plugins=[PLUGIN], move_time_limit=0.2, out=str(path))
    assert time.monotonic() - t0 < 20
    _expect_forfeits(got, path, 4, reason)
    inline = tournament.run(GAME, [spec, "random"], games=4, players=2, backend="inline",
                            plugins=[PLUGIN], move_time_limit=0.2)
    assert [r.wins for r in inline.rows] == [r.wins for r in got.rows]


def test_an_agent_stuck_where_no_signal_reaches_is_killed_and_forfeits(tmp_path):
    """The worker cannot interrupt it, so the parent kills the worker after the move limit
    and its grace, and scores the forfeit itself (the moves died with the worker)."""
    spec = "faulty:mode=block,always=true,at=2"
    path = tmp_path / "b.jsonl"
    t0 = time.monotonic()
    got = tournament.run(GAME, [spec, "random"], games=2, players=2, workers=2,
                         plugins=[PLUGIN], move_time_limit=0.2, out=str(path))
    assert time.monotonic() - t0 < 20
    _expect_forfeits(got, path, 2, "worker was killed")
    assert not got.events  # no retry, no replacement notice


def test_forfeits_resume_and_count_once(tmp_path):
    """A tournament with forfeits, interrupted and resumed, gives the uninterrupted
    table; resuming again plays nothing."""
    spec = "faulty:mode=sore,at=15"
    kw = dict(games=8, players=2, seed=4, plugins=[PLUGIN], backend="inline")
    full = tournament.run(GAME, [spec, "random"], **kw)
    assert 0 < len(full.forfeits) < 8
    path = tmp_path / "r.jsonl"
    tournament.run(GAME, [spec, "random"], out=str(path), **kw)
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join(lines[:4]) + b"\n" + lines[4][:30])  # 3 games and a half
    resumed = tournament.run(GAME, [spec, "random"], out=str(path), resume=True, **kw)
    assert resumed.games_this_run == 5 and resumed.games_played == 8
    assert [r.forfeits for r in resumed.rows] == [r.forfeits for r in full.rows]
    strip = lambda rows: [{k: v for k, v in r.items() if k != "seconds_per_move"} for r in rows]
    assert strip(resumed.table) == strip(full.table)
    again = tournament.run(GAME, [spec, "random"], out=str(path), resume=True, **kw)
    assert again.games_this_run == 0 and strip(again.table) == strip(full.table)


def test_an_agent_that_errors_when_losing_does_not_look_stronger():
    """Fails only in games it is losing (at move 15 its city scores below the other's):
    those count as losses, so its win rate is the one it would have had by playing on
    (or worse), never better than the honest random agent it copies."""
    kw = dict(games=40, players=2, seed=9, plugins=[PLUGIN], backend="inline")
    sore = tournament.run(GAME, ["faulty:mode=sore,at=15", "random"], **kw)
    honest = tournament.run(GAME, ["faulty:mode=none,at=15", "random"], **kw)
    assert sore.forfeits and sore.games_played == honest.games_played == 40
    assert sore.rows[0].wins <= honest.rows[0].wins
    assert sore.rows[0].win_rate <= honest.rows[0].win_rate
    assert sore.rows[0].forfeits == len(sore.forfeits)


def test_a_plugin_that_cannot_load_stops_the_tournament():
    with pytest.raises(ModuleNotFoundError):
        tournament.run(GAME, ["random"], games=1, plugins=["no_such_module_anywhere"])


_FATAL = ("import sys, struct, msgpack; b = msgpack.packb({'fatal': 'ImportError: nothing here'}); "
          "sys.stdout.buffer.write(struct.pack('<I', len(b)) + b)")


@pytest.mark.parametrize("body,match", [(_FATAL, "could not start: ImportError"),
                                        ("import os; os._exit(7)", "keep dying at start")])
def test_workers_that_cannot_start_are_reported(body, match):
    import sys

    from romecore.tournament import local

    game = romecore.load_game(GAME, players=2)
    tasks = [tournament.make_task(game, ["random"], 1, i) for i in range(3)]
    events = []

    class Sink:
        def done(self, task, record, attempts):
            raise AssertionError("no game can finish")

        def failed(self, task, reason, attempts):
            raise AssertionError("no game can fail")

        def event(self, message):
            events.append(message)

    backend = local.LocalBackend(workers=2, command=[sys.executable, "-c", body])
    t0 = time.monotonic()
    with pytest.raises(tournament.TournamentError, match=match):
        backend.run(tasks, Sink())
    assert time.monotonic() - t0 < 30
