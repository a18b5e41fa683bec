"""A State shared by two threads: one in ``playout`` (which releases the GIL) while the other
steps, reads or plays out the same State.  Each call either raises ``UsageError`` or gives a
correct result; the interpreter never aborts.  The race runs in a subprocess, so a crash
(``malloc(): invalid next size``, as before the busy flag) fails the test instead of killing
pytest, and every game's final position is checked by replaying its history on a fresh state."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from conftest import GAME_IDS

RACE = textwrap.dedent(
    """
    import json, sys, threading, time
    import romecore

    game_id, other, budget = sys.argv[1], sys.argv[2], float(sys.argv[3])
    game = romecore.load_game(game_id)
    sys.setswitchinterval(1e-6)  # hand the GIL over as often as possible
    counts = {"rounds": 0, "usage": 0, "illegal": 0, "unexpected": [], "mismatch": 0}
    box = [None]
    start, done = threading.Barrier(3, timeout=30), threading.Barrier(3, timeout=30)  # with main
    stop = [False]

    def player():
        while True:
            start.wait()
            if stop[0]:
                return
            try:
                box[0].playout(seed=counts["rounds"])
            except romecore.UsageError:
                counts["usage"] += 1
            done.wait()

    def steps(s):
        for i in range(400):
            if s.is_terminal():
                return
            acts = s.legal_actions()
            if not acts:  # the playout ended the game since is_terminal()
                return
            s.apply_action(acts[(7 * i) % len(acts)])

    def reads(s):
        for i in range(50):
            s.clone(); s.serialize(history=True); s.to_dict(); s.state_hash()
            p = s.current_player()
            if p >= 0:
                s.resample(p, seed=i).observation(0)

    def plays(s):
        s.playout(seed=1)

    searcher = romecore.make_agent("greedy", game=game, seed=1)

    def searches(s):  # a search agent handed the busy state itself (not a resample)
        for i in range(20):
            if s.current_player() < 0:
                return
            s_act = searcher.step(s)
            assert s_act in s.legal_actions() or s.current_player() < 0

    def other_thread():
        work = {"steps": steps, "reads": reads, "playout": plays, "agent": searches}[other]
        while True:
            start.wait()
            if stop[0]:
                return
            try:
                work(box[0])
            except romecore.UsageError:
                counts["usage"] += 1
            except romecore.IllegalActionError:
                counts["illegal"] += 1  # the other thread moved the state between two calls
            except Exception as e:
                counts["unexpected"].append(f"{type(e).__name__}: {e}")
            done.wait()

    threads = [threading.Thread(target=player, daemon=True), threading.Thread(target=other_thread, daemon=True)]
    for t in threads:
        t.start()
    t_end = time.monotonic() + budget
    while time.monotonic() < t_end:
        seed = counts["rounds"]
        box[0] = game.new_initial_state(seed=seed)
        box[0].resolve_chance()
        start.wait()  # both threads go
        done.wait()   # both threads are done with this state
        s = box[0]
        replay = game.new_initial_state(seed=seed)
        for a in s.history():
            replay.apply_action(a)
        counts["mismatch"] += replay.state_bytes() != s.state_bytes()
        counts["rounds"] += 1
    stop[0] = True
    start.wait()
    print(json.dumps(counts))
    """
)


def _race(game_id: str, other: str, seconds: float) -> dict:
    proc = subprocess.run([sys.executable, "-c", RACE, game_id, other, str(seconds)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"the race crashed (rc {proc.returncode}): {proc.stderr[-2000:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("other", ["steps", "reads", "playout", "agent"])
def test_a_state_shared_with_a_playout_raises_usage_error_or_stays_consistent(other):
    usage = 0
    for game_id in GAME_IDS:
        counts = _race(game_id, other, seconds=1.0)
        assert counts["rounds"] >= 5, (game_id, counts)
        assert counts["unexpected"] == [], (game_id, counts["unexpected"][:5])
        assert counts["mismatch"] == 0, (game_id, counts)  # the history replays to the same position
        usage += counts["usage"]
    # The race was really run: some call met a state busy in the other thread.
    assert usage > 0
