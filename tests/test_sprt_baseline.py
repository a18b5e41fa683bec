"""bench/baseline.py: its protocol adapter (the engine a baseline without ``romecore engine``
runs) answers as the protocol says and plays a tournament through the engine agent; the
named baseline and the engine file it writes.  The adapter uses only the API every version
has had, so the installed romecore stands in for an old one here (building one takes
minutes: bench/results/elo-history.md records that run)."""

from __future__ import annotations

import io
import json
import shlex
import sys

import romecore
from romecore import tournament
from romecore.engine import protocol
from scripts_loader import load_script

baseline = load_script("baseline", "bench")
GAME = "rise_to_power"


def _talk(*messages, agent="greedy"):
    lines = [m if isinstance(m, str) else protocol.encode(m) for m in messages]
    out = io.StringIO()
    saved = sys.stdout
    try:
        assert baseline.serve(agent, "test baseline", lines, out) == 0
    finally:
        sys.stdout = saved
    return [json.loads(line) for line in out.getvalue().splitlines()]


def _position(request=1, legal_shift=0):
    game = romecore.load_game(GAME, players=2)
    state = game.new_initial_state(seed=5)
    state.resolve_chance()
    seat = state.current_player()
    view = state.resample(seat, seed=1)
    legal = [(a + legal_shift, view.action_to_string(a)) for a in view.legal_actions()]
    return seat, protocol.position(request, seat, view.move_number(), view.observation(seat), view.to_dict(),
                                   legal, time=None, iterations=None), set(view.legal_actions())


def test_the_adapter_answers_as_the_protocol_says():
    seat, position, legal = _position()
    replies = _talk(protocol.hello("test host"), protocol.new_game(GAME, {"players": 2}, seat, 9), position,
                    "not json", {"type": "dance"}, protocol.QUIT, protocol.hello("after quit"))
    hello, move, garbage, unknown = replies  # nothing after quit
    assert protocol.decode(json.dumps(hello), protocol.ENGINE_MESSAGES)["protocol"] == protocol.PROTOCOL_VERSION
    assert GAME in hello["games"]
    assert protocol.check_move(move, 1, sorted(legal)) in legal
    assert garbage["type"] == "error" and "JSON" in garbage["message"]
    assert unknown["type"] == "error" and "dance" in unknown["message"]


def test_the_adapter_refuses_what_it_cannot_play():
    seat, position, _ = _position(legal_shift=1)  # legal ids that are not the world's
    _, no_world, _ = _position(request=2)
    del no_world["world"]
    early, wrong_rules, missing = _talk(position, protocol.new_game(GAME, {"players": 2}, seat), position,
                                        no_world)
    assert early["type"] == "error" and "new_game" in early["message"] and early["id"] == 1
    assert wrong_rules["type"] == "error" and "rules" in wrong_rules["message"] and wrong_rules["id"] == 1
    assert missing["type"] == "error" and "world" in missing["message"] and missing["id"] == 2


def test_the_adapter_plays_a_tournament_as_an_engine():
    cmd = shlex.join([sys.executable, str(baseline.__file__), "serve", "--agent", "greedy"])
    result = tournament.run(GAME, [f"engine:cmd={cmd},timeout=20", "random"], players=2, games=2,
                            backend="inline")
    assert result.games_played == 2 and not result.forfeits and not result.failures
    engine_row = next(r for r in result.rows if r.spec.startswith("engine:"))
    assert engine_row.games == 2


def test_baseline_0_1_is_02dcb83_and_its_engine_file(tmp_path):
    commit = baseline.resolve_commit("0.1")
    assert commit.startswith("02dcb83") and len(commit) == 40
    assert not baseline.has_engine(commit)  # the adapter seats it
    path = baseline.engine_file(tmp_path, commit, "ismcts:clock=cpu", own_engine=False)
    data = json.loads(path.read_text())
    assert data["command"][1:4] == ["-I", str(tmp_path / "baseline.py"), "serve"]
    assert data["command"][4:6] == ["--agent", "ismcts:clock=cpu"]
    assert baseline.spec_for(path, 0.1, None) == f"engine:file={path},time=0.1"
