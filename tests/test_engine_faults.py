"""Engines that fail: one that falls silent past its time, exits mid-game, prints garbage,
plays an illegal id or answers another position, greets with garbage or not at all, or plays
other games forfeits each game it sits in, with a message that names the engine and what it
did; every other game of the tournament is played as usual, and no engine process is left
behind.  (tests/engines/faulty.py is the engine; test_tournament_faults.py has the same for
in-process agents.)"""

from __future__ import annotations

import sys
import time
import uuid
from pathlib import Path

import pytest

from romecore import records, tournament

ENGINES = Path(__file__).resolve().parent / "engines"
GAME = "rise_to_power"


def _faulty(mode: str, marker: str, extra: str = "") -> str:
    return f"engine:cmd={sys.executable} {ENGINES / 'faulty.py'} {mode} 2 {marker}{extra}"


def _running(marker: str) -> list[str]:
    """Processes whose command line holds ``marker`` (engines a test started)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and marker.encode() in (proc / "cmdline").read_bytes():
                found.append(proc.name)
        except OSError:
            continue
    return found


def _gone(marker: str, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while _running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return not _running(marker)


def _check(got, path, reason):
    """The faulty engine (roster 0) forfeits each of its games, as its loss, with ``reason``;
    the game without it (first_move.py against random) is played to its end."""
    assert not got.failures and got.games_played == 3
    recs = records.read(path)
    assert len(recs) == 3
    for rec in recs:
        if 0 in rec.meta["lineup"]:
            seat = rec.meta["lineup"].index(0)
            assert rec.forfeit is not None and rec.forfeit["seat"] == seat, rec.forfeit
            assert reason in rec.forfeit["reason"] and "engine" in rec.forfeit["reason"], rec.forfeit["reason"]
            assert rec.returns[seat] == 0.0
            records.replay(rec)
        else:
            assert rec.forfeit is None and sum(rec.returns) > 0
    assert len(got.forfeits) == 2 and got.rows[0].forfeits == 2 and got.rows[0].wins == 0


@pytest.mark.parametrize("mode,extra,reason", [
    ("sleep", ",timeout=0.3", "did not answer position 2 within 0.3 s"),
    ("sleep", ",time=0.05", "did not answer position 2 within 1.1 s"),  # twice its budget, plus 1 s
    ("exit", "", "exited with code 5 (standard error: faulty engine: exiting on purpose)"),
    ("garbage", "", "broke the protocol: 'I think e2e4 is best' is not JSON"),
    ("flood", "", "wrote a line longer than 1048576 bytes"),
    ("illegal", "", "played move id 999999, which is not legal here"),
    ("wrongid", "", "answered position 9, but position 2 was asked"),
    ("hello", "", "broke the protocol: 'Welcome to my engine!' is not JSON"),
    ("mute", ",start_timeout=0.3", "did not answer hello within 0.3 s"),
    ("games", "", "plays chess, not rise_to_power"),
    ("version", "", "speaks protocol 2; this romecore speaks 1"),
])
def test_a_faulty_engine_forfeits_its_games_and_the_others_are_played(tmp_path, mode, extra, reason):
    marker = uuid.uuid4().hex
    path = tmp_path / "f.jsonl"
    agents = [_faulty(mode, marker, extra), f"engine:cmd={sys.executable} {ENGINES / 'first_move.py'}", "random"]
    got = tournament.run(GAME, agents, games=3, players=2, backend="inline", out=str(path))
    _check(got, path, reason)
    assert _gone(marker), "an engine outlived its fault"


@pytest.mark.parametrize("mode,extra,reason", [
    ("sleep", "", "took more than the 0.5 s move time limit"),
    ("exit", "", "exited with code 5"),
])
def test_in_worker_processes_too(tmp_path, mode, extra, reason):
    """The same in the local pool, where the tournament's own move time limit interrupts a
    silent engine (and the engine is killed with the worker's move)."""
    marker = uuid.uuid4().hex
    path = tmp_path / "w.jsonl"
    agents = [_faulty(mode, marker, extra), f"engine:cmd={sys.executable} {ENGINES / 'first_move.py'}", "random"]
    t0 = time.monotonic()
    got = tournament.run(GAME, agents, games=3, players=2, workers=2, move_time_limit=0.5, out=str(path))
    assert time.monotonic() - t0 < 30
    _check(got, path, reason)
    assert _gone(marker), "an engine outlived its fault"
