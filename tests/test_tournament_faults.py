"""Workers that crash or hang: the pool replaces them, replays the game from its seed
(which comes out identical), reports what happened, and never hangs.

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
    the first process to get there creates ``flag`` and then exits, segfaults, hangs or
    raises (``mode``).  With ``always`` it fails every time."""

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
        if self.moves == self.at and self._first_time():
            if self.mode == "exit":
                os._exit(3)
            if self.mode == "segv":
                os.kill(os.getpid(), signal.SIGSEGV)
            if self.mode == "hang":
                while True:
                    time.sleep(0.05)
            if self.mode == "raise":
                raise RuntimeError("the faulty agent failed on purpose")
        actions = state.legal_actions()
        return actions[self._rng.randrange(len(actions))]


@romecore.hookimpl
def romecore_agents():
    return [AgentSpec("faulty", FaultyAgent, {
        "mode": (str, "exit", "exit, segv, hang or raise"),
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


@pytest.mark.parametrize("mode", ["exit", "segv", "hang"])
def test_lost_worker_is_replaced_and_its_game_replayed(tmp_path, mode):
    flag = tmp_path / "failed-once"
    spec = f"faulty:mode={mode},flag={flag},at=20"
    kw = dict(games=6, players=2, seed=21, plugins=[PLUGIN])
    got = tournament.run(GAME, [spec, "random"], workers=2, out=str(tmp_path / "a.jsonl"),
                         time_limit=3.0, **kw)
    assert flag.exists(), "the fault never fired"
    assert not got.failures and got.games_played == 6
    assert len(got.events) == 1 and "replaying the game from its seed" in got.events[0]
    assert ("time limit" in got.events[0]) == (mode == "hang")
    # The replayed game is the game that would have been played without the fault.
    clean = tournament.run(GAME, [spec, "random"], backend="inline",
                           out=str(tmp_path / "b.jsonl"), **kw)
    assert _games(tmp_path / "a.jsonl") == _games(tmp_path / "b.jsonl")
    assert [r.wins for r in got.rows] == [r.wins for r in clean.rows]
    attempts = [rec.meta["attempts"] for rec in records.read(tmp_path / "a.jsonl")]
    assert sorted(attempts) == [1] * 5 + [2]


def test_a_game_that_always_hangs_fails_after_its_retries(tmp_path):
    spec = "faulty:mode=hang,always=true,at=3"
    t0 = time.monotonic()
    got = tournament.run(GAME, [spec, "random"], games=2, players=2, workers=2, retries=1,
                         time_limit=1.0, plugins=[PLUGIN], out=str(tmp_path / "h.jsonl"))
    assert time.monotonic() - t0 < 60
    assert got.games_played == 0 and sorted(f.index for f in got.failures) == [0, 1]
    assert all(f.attempts == 2 and "time limit" in f.reason for f in got.failures)
    lines = (tmp_path / "h.jsonl").read_text().splitlines()
    assert sum('"romecore.failure"' in line for line in lines) == 2
    # resuming tries the failed games again (here they fail again)
    again = tournament.run(GAME, [spec, "random"], games=2, players=2, workers=1, retries=0,
                           time_limit=1.0, plugins=[PLUGIN], out=str(tmp_path / "h.jsonl"),
                           resume=True)
    assert len(again.failures) == 2


def test_an_agent_error_fails_its_game_at_once(tmp_path):
    spec = "faulty:mode=raise,always=true,at=2"
    got = tournament.run(GAME, [spec, "random"], games=4, players=2, workers=2,
                         plugins=[PLUGIN], time_limit=30)
    assert got.games_played == 0 and len(got.failures) == 4
    assert all(f.attempts == 1 and "failed on purpose" in f.reason for f in got.failures)


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
