"""The engine protocol: its messages, engines in other languages at a tournament table,
romecore's own agents through it (``romecore engine``), and the ``engine`` agent's life
(pickled as its spec, stopped, killed when collected).  Faults: test_engine_faults.py."""

from __future__ import annotations

import gc
import io
import json
import os
import pickle
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import romecore
from romecore import records, tournament
from romecore.engine import protocol
from romecore.engine.protocol import ENGINE_MESSAGES, HOST_MESSAGES, EngineError, ProtocolError
from romecore.engine.serve import EngineServer, budgeted_spec
from romecore.errors import AgentSpecError
from romecore.match import view_seed

ENGINES = Path(__file__).resolve().parent / "engines"
PY_ENGINE = f"engine:cmd={sys.executable} {ENGINES / 'first_move.py'}"
NODE = shutil.which("node")
GAME = "rise_to_power"


# -- messages ---------------------------------------------------------------------------------
def test_messages_round_trip_through_one_line():
    game = romecore.load_game(GAME, players=2)
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    seat = state.current_player()
    legal = [(a, state.action_to_string(a)) for a in state.legal_actions()]
    sent = protocol.position(4, seat, state.move_number(), state.observation(seat), state.to_dict(), legal,
                             time=0.5)
    line = protocol.encode(sent)
    assert line.endswith("\n") and "\n" not in line[:-1]
    got = protocol.decode(line, HOST_MESSAGES)
    assert got == json.loads(line) and got["budget"] == {"time": 0.5, "iterations": None}
    assert [m["id"] for m in got["legal"]] == state.legal_actions()
    # the world is the state itself, to the byte
    assert game.state_from_dict(got["world"]).serialize() == state.serialize()
    reply = protocol.decode(protocol.encode(protocol.move(4, legal[0][0], value=0.25, visits=9)), ENGINE_MESSAGES)
    assert protocol.check_move(reply, 4, [a for a, _ in legal]) == legal[0][0]
    assert reply["info"] == {"value": 0.25, "visits": 9}


@pytest.mark.parametrize("line,message", [
    ("hello there", "is not JSON"),
    ("[1, 2]", "is not a JSON object"),
    ('{"type": "go"}', "'go' is not one of"),
    ('{"move": 3}', "None is not one of"),
    ('{"type": "move", "id": 1}', "needs the field 'move'"),
    ('{"type": "move", "id": 1, "move": "e2e4"}', "move must be an integer"),
    ('{"type": "move", "id": 1, "move": true}', "move must be an integer"),
    ('{"type": "hello", "protocol": 1}', "needs the field 'name'"),
])
def test_lines_that_are_not_messages_are_refused_with_what_is_wrong(line, message):
    with pytest.raises(ProtocolError, match=message):
        protocol.decode(line, ENGINE_MESSAGES)


def test_a_move_must_answer_the_position_asked_with_a_legal_id():
    with pytest.raises(ProtocolError, match="answered position 2, but position 3"):
        protocol.check_move({"type": "move", "id": 2, "move": 5}, 3, [5])
    with pytest.raises(ProtocolError, match="move id 6, which is not legal"):
        protocol.check_move({"type": "move", "id": 3, "move": 6}, 3, [5, 7])
    with pytest.raises(ProtocolError, match="answered with an error: no idea"):
        protocol.check_move({"type": "error", "message": "no idea"}, 3, [5])
    with pytest.raises(ProtocolError, match="plain JSON"):
        protocol.encode({"type": "move", "value": float("nan")})


# -- engines in other languages ------------------------------------------------------------------
def _first_moves_only_at(rec, seat):
    """Every move of ``seat`` in ``rec`` is the first legal one; how many there were."""
    game = romecore.load_game(rec.game_id, **rec.options)
    state = game.new_initial_state(seed=rec.seed)
    checked = 0
    for player, action in zip(rec.players, rec.actions):
        if player == seat:
            assert action == state.legal_actions()[0]
            checked += 1
        state.apply_action(action)
    assert state.is_terminal() and checked > 5
    return checked


def _first_moves_only(path, engine_agent=0):
    """Every move of the engine's seats in the records at ``path`` is the first legal one."""
    for rec in records.read(path):
        _first_moves_only_at(rec, rec.meta["lineup"].index(engine_agent))


@pytest.mark.parametrize("spec", [PY_ENGINE, pytest.param(
    f"engine:cmd={NODE} {ENGINES / 'first_move.js'}",
    marks=pytest.mark.skipif(NODE is None, reason="node is not installed"))], ids=["python", "node"])
def test_an_engine_of_a_few_lines_plays_a_tournament(tmp_path, spec):
    path = tmp_path / "t.jsonl"
    got = tournament.run(GAME, [spec, "random"], games=2, players=2, workers=2, out=str(path))
    assert got.games_played == 2 and not got.forfeits and not got.failures
    assert got.rows[0].spec == spec
    _first_moves_only(path)


def test_an_engine_file_carries_a_command_with_commas(tmp_path):
    """A spec's values cannot hold commas; a JSON file's command can (here an argument that
    the engine ignores), with its folder relative to the file."""
    (tmp_path / "e.json").write_text(json.dumps({
        "command": [sys.executable, "first_move.py", "--unused=a,b"], "cwd": os.path.relpath(ENGINES, tmp_path)}))
    got = tournament.run(GAME, [f"engine:file={tmp_path / 'e.json'}", "random"], games=2, players=2,
                         backend="inline")
    assert got.games_played == 2 and not got.forfeits


def test_a_ladder_seats_an_engine_with_its_budget(tmp_path):
    from romecore.tournament.ladder import run_ladder

    game = romecore.load_game(GAME, players=2)
    got = run_ladder(game, [PY_ENGINE, "random"], time=0.05, games_per_match=2, backend="inline",
                     games_dir=str(tmp_path))
    assert got.games_played == 2 and not any(r.forfeits for r in got.rows)
    assert got.agents == [PY_ENGINE + ",time=0.05", "random"]


@pytest.mark.parametrize("spec,message", [
    ("engine:cmd=no-such-program-anywhere --x", "no program 'no-such-program-anywhere'"),
    ("engine:cmd=python3 'unclosed", "cannot be split into words"),
    ("engine:cmd=python3,file=x.json", "cmd or file, not both"),
    ("engine:file=/no/such/engine.json", "cannot read file"),
    ("engine:cmd=python3,timeout=-1", "timeout=-1.0 must be"),
])
def test_an_engine_spec_that_cannot_run_is_refused_when_made(spec, message):
    game = romecore.load_game(GAME, players=2)
    with pytest.raises(AgentSpecError, match=message):
        romecore.make_agent(spec, game, seed=1)


# -- romecore's own agents through the protocol ----------------------------------------------------
def test_romecore_engine_plays_as_the_agent_itself():
    """``engine:simulations=30`` (``romecore engine``, ismcts) makes the moves that
    ``ismcts:simulations=30`` makes with the same seed, in the same views: the world it is sent
    is the view to the byte, and the seed travels in ``new_game``."""
    game = romecore.load_game(GAME, players=2)
    direct = [romecore.make_agent("ismcts:simulations=30", game, seed=5 + p) for p in range(2)]
    engines = [romecore.make_agent("engine:simulations=30", game, seed=5 + p) for p in range(2)]
    for agent in direct + engines:
        agent.restart()
    state, decisions = game.new_initial_state(seed=3), 0
    while not state.is_terminal() and decisions < 24:
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        p = state.current_player()
        view = state.resample(p, view_seed(3, state.move_number()))
        action = engines[p].step(view.clone())
        assert action == direct[p].step(view.clone())
        state.apply_action(action)
        decisions += 1
    assert decisions == 24 and engines[0].stats["visits"] > 0
    for agent in engines:
        agent.close()


def _session(lines, spec="random"):
    """What ``romecore engine --agent spec`` answers to ``lines``, each reply decoded."""
    out = io.StringIO()
    server = EngineServer(spec, out)
    for line in lines:
        server.handle(line if isinstance(line, str) else protocol.encode(line))
        server.stop()  # let each search answer before the next line
    return [protocol.decode(line, ENGINE_MESSAGES) for line in out.getvalue().splitlines()]


def _position(game_id="great_city_of_rome", request=1):
    game = romecore.load_game(game_id, players=2)
    state = game.new_initial_state(seed=2)
    state.resolve_chance()
    seat = state.current_player()
    legal = [(a, state.action_to_string(a)) for a in state.legal_actions()]
    return state, protocol.position(request, seat, state.move_number(), state.observation(seat), state.to_dict(),
                                    legal)


def test_romecore_engine_answers_bad_messages_with_errors_and_keeps_serving():
    state, pos = _position()
    seat = state.current_player()
    new = protocol.new_game("great_city_of_rome", {"players": 2}, seat, seed=1)
    wrong_world = {**pos, "world": {"no": "state"}}
    wrong_legal = {**pos, "legal": pos["legal"][:-1] + [{"id": 10**6, "text": "?"}]}
    replies = _session([
        "this is not json", "[]", {"type": "go"}, {"type": "new_game", "game": "chess", "options": {},
                                                  "players": 2, "seat": 0},
        pos,                                              # before new_game
        {**new, "seat": 5}, {**new, "options": {"players": 3}},
        protocol.hello("test"), {"type": "hello", "protocol": 99},
        new, wrong_world, wrong_legal, {**pos, "world": None}, pos, {"type": "stop"},
    ])
    kinds = [r["type"] for r in replies]
    assert kinds == ["error"] * 7 + ["hello", "error", "hello"] + ["error"] * 3 + ["move"], replies
    messages = [r.get("message", "") for r in replies]
    for i, text in enumerate(["is not JSON", "is not a JSON object", "'go' is not one of", "no game 'chess'",
                              "send new_game first", "seat 5", "players is 2"]):
        assert text in messages[i], (text, messages[i])
    assert "protocol 99 is not spoken" in messages[8]
    assert replies[7]["protocol"] == 1 and GAME in replies[7]["games"]
    assert [r.get("id") for r in replies[10:13]] == [1, 1, 1]
    assert "legal' is not the world's" in messages[11] and "send 'world'" in messages[12]
    assert replies[-1]["id"] == 1 and replies[-1]["move"] in state.legal_actions()


def test_romecore_engine_on_the_command_line_serves_until_quit():
    state, pos = _position(GAME, request=7)
    new = protocol.new_game(GAME, {"players": 2, "intrigue": "none"}, state.current_player(), seed=4)
    lines = ["garbage\n", protocol.encode(protocol.hello("test")), protocol.encode(new), protocol.encode(pos),
             protocol.encode(protocol.QUIT)]
    proc = subprocess.run([sys.executable, "-m", "romecore", "engine", "--level", "beginner"],
                          input="".join(lines), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    replies = [protocol.decode(line, ENGINE_MESSAGES) for line in proc.stdout.splitlines()]
    assert [r["type"] for r in replies] == ["error", "hello", "move"]
    assert replies[2]["id"] == 7 and replies[2]["move"] in state.legal_actions()


def test_romecore_engine_needs_the_world():
    game = romecore.load_game(GAME, players=2)
    agent = romecore.make_agent("engine:world=false", game, seed=1)
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    with pytest.raises(EngineError, match="answered with an error: position: this engine searches a world"):
        agent.choose(state)
    assert agent.impl._engine is None or not agent.impl._engine.alive()  # killed after its fault


def test_the_host_budget_becomes_the_agents_own():
    assert budgeted_spec("ismcts:simulations=50", {"time": 0.2, "iterations": 80}) == \
        "ismcts:simulations=80,time=0.2"
    assert budgeted_spec("random", {"time": 1, "iterations": 5}) == "random"


# -- the agent's life ----------------------------------------------------------------------------
def test_an_engine_agent_pickles_as_its_spec_and_starts_only_to_play():
    game = romecore.load_game(GAME, players=2)
    agent = romecore.make_agent(PY_ENGINE + ",time=0.5", game, seed=3)
    assert agent.impl._engine is None  # made, not started
    copy = pickle.loads(pickle.dumps(agent))
    assert (copy.spec, copy.seed, copy.impl.timeout) == (agent.spec, 3, 2.0)
    inner = pickle.loads(pickle.dumps(agent.impl))
    assert inner.argv == agent.impl.argv and inner._engine is None
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    assert copy.choose(state) == state.legal_actions()[0]
    copy.close()


def _gone(pid: int, within: float = 5.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            pass
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


def test_an_engine_is_ended_when_its_agent_is_closed_or_collected():
    game = romecore.load_game(GAME, players=2)
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    pids = []
    for ending in ("close", "collect"):
        agent = romecore.make_agent(PY_ENGINE, game, seed=1)
        agent.choose(state)
        pid = agent.impl._engine.proc.pid
        pids.append(pid)
        if ending == "close":
            agent.close()
        else:
            del agent
            gc.collect()
        assert _gone(pid), ending
    assert len(set(pids)) == 2


def test_stop_makes_a_searching_engine_answer_at_once():
    game = romecore.load_game(GAME, players=2)
    agent = romecore.make_agent("engine:simulations=100000000,timeout=100", game, seed=1)
    agent.restart()  # starts romecore engine before the clock runs
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    got: list[int] = []
    thread = threading.Thread(target=lambda: got.append(agent.choose(state)))
    t0 = time.monotonic()
    thread.start()
    time.sleep(0.5)
    agent.stop()
    thread.join(20)
    assert got and got[0] in state.legal_actions() and time.monotonic() - t0 < 20
    agent.close()


# -- the web server -------------------------------------------------------------------------------
def test_a_page_seats_only_the_engines_the_server_names():
    from romecore.web.limits import Limits, resolve_opponent

    limits = Limits(max_think=1.0, engines=(PY_ENGINE,))
    label, spec = resolve_opponent(GAME, PY_ENGINE, limits)
    assert (label, spec) == (PY_ENGINE, PY_ENGINE + ",time=1")
    for asked in (PY_ENGINE + ",timeout=5", f"engine:cmd={sys.executable} -c pass", "engine"):
        with pytest.raises(AgentSpecError, match="serve --engine"):
            resolve_opponent(GAME, asked, limits)
    game = romecore.load_game(GAME, players=2)
    agent = romecore.make_agent(spec, game, seed=1)
    assert agent.impl.timeout == 3.0  # twice the bounded time, plus a second
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    assert agent.choose(state) == state.legal_actions()[0]
    agent.close()


# -- the page -------------------------------------------------------------------------------------
def test_the_protocol_page_has_every_message_and_field():
    """docs/engine-protocol.md names the version, every message type both ways and every
    field, and is in the site's nav."""
    root = Path(__file__).resolve().parent.parent
    page = (root / "docs" / "engine-protocol.md").read_text()
    assert f"(version {protocol.PROTOCOL_VERSION})" in page.splitlines()[0]
    for table in (HOST_MESSAGES, ENGINE_MESSAGES):
        for kind, fields in table.items():
            assert f"`{kind}`" in page, kind
            for field in fields:
                assert f"`{field}`" in page or f'"{field}"' in page, (kind, field)
    assert "engine-protocol.md" in (root / "mkdocs.yml").read_text()


def test_a_served_table_plays_an_engine_the_server_names(tmp_path):
    """Over the websocket: the operator's engine plays a whole game against a page's random
    moves; an engine the operator did not name is refused."""
    pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette)")
    pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")
    from starlette.testclient import TestClient

    from romecore.web.app import create_app
    from romecore.web.limits import Limits

    limits = Limits(rate=1e9, burst=10**9, engines=(PY_ENGINE,))
    app = create_app(records_dir=str(tmp_path), hint="random", delay=0, limits=limits)
    with TestClient(app) as client, client.websocket_connect("/ws") as sock:
        assert sock.receive_json()["type"] == "hello"
        new = {"type": "new", "game_id": GAME, "players": 2, "seat": 0, "seed": 4}
        sock.send_json({**new, "agents": [f"engine:cmd={sys.executable} -c pass"]})
        refused = sock.receive_json()
        assert refused["type"] == "error" and "serve --engine" in refused["message"]
        sock.send_json({**new, "agents": [PY_ENGINE]})
        moves = 0
        for _ in range(10000):
            m = sock.receive_json()
            assert m["type"] != "error", m
            if m["type"] != "state":
                continue
            if m["over"]:
                break
            if m["moves"]:
                sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                                "action": m["moves"][-1]["id"], "ply": m["ply"]})
                moves += 1
        assert m["over"] and moves > 5
    (rec,) = records.read(next(tmp_path.rglob("*.jsonl")))
    assert rec.forfeit is None and rec.agents[1] == PY_ENGINE + ",time=10"
    _first_moves_only_at(rec, seat=1)
