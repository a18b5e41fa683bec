"""The four faults of issue 53, over the websocket: a finished game reopened by undo, a page
making the server think without bound, deeply nested JSON dropping the socket; and a fuzz of
hostile frames that must change no game and leave every socket answered."""

from __future__ import annotations

import contextlib
import json
import random
import time

import pytest

pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette)")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient  # noqa: E402
from ws_support import my_turn as _mine  # noqa: E402
from ws_support import until as _until

import romecore  # noqa: E402
from romecore import records  # noqa: E402
from romecore.web.app import create_app  # noqa: E402
from romecore.web.limits import Limits, bound_spec  # noqa: E402


@contextlib.contextmanager
def _served(tmp_path, **limits):
    limits = {"rate": 1e9, "burst": 10**9, **limits}  # scripts send faster than people (see the rate test)
    app = create_app(records_dir=str(tmp_path / "records"), hint="random", delay=0, limits=Limits(**limits))
    with TestClient(app) as client, client.websocket_connect("/ws") as sock:
        assert sock.receive_json()["type"] == "hello"
        yield app, client, sock




def _new(sock, game_id="rise_to_power", seat=0, agents=("random",), seed=4):
    sock.send_json({"type": "new", "game_id": game_id, "players": 2, "seat": seat, "agents": list(agents),
                    "seed": seed})
    return _until(sock, _mine)


def _refused(sock, msg, code):
    sock.send_json(msg)
    err = sock.receive_json()
    assert err["type"] == "error" and err["code"] == code, (msg, err)
    return err


# -- 1. a finished game stays finished -----------------------------------------------------------
@pytest.mark.parametrize("how", ["resign", "play"])
def test_a_finished_game_stays_finished(tmp_path, how):
    with _served(tmp_path) as (app, client, sock):
        m = _new(sock, "great_city_of_rome", seed=9)
        rng = random.Random(2)
        if how == "resign":
            sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                            "action": m["moves"][0]["id"], "ply": m["ply"]})
            m = _until(sock, lambda x, at=m["ply"]: _mine(x) and x["ply"] > at)
            assert m["can_undo"]
            sock.send_json({"type": "resign", "game": m["game"], "token": m["token"]})
            over = _until(sock, lambda x: x["type"] == "state" and x["over"])
        else:
            over = m
            while not over["over"]:
                sock.send_json({"type": "move", "game": over["game"], "token": over["token"], "ply": over["ply"],
                                "action": rng.choice(over["moves"])["id"]})
                over = _until(sock, lambda x, at=over["ply"]: _mine(x) and x["ply"] > at)
        assert not over["can_undo"] and over["moves"] == [] and "seed" in over
        session = app.state.sessions.games[over["game"]]
        frozen = (session.state.serialize(), list(session.actions), records.dumps_json(session.record))
        for msg in ({"type": "undo", "game": over["game"], "token": over["token"]},
                    {"type": "move", "game": over["game"], "token": over["token"], "action": 0},
                    {"type": "move", "game": over["game"], "token": over["token"], "action": 0, "ply": over["ply"]},
                    {"type": "hint", "game": over["game"], "token": over["token"]},
                    {"type": "resign", "game": over["game"], "token": over["token"]}):
            _refused(sock, msg, "game_over")
        sock.send_json({"type": "join", "game": over["game"], "token": over["token"]})  # a reloaded tab
        again = _until(sock, lambda x: x["type"] == "state")
        assert again["over"] and again["result"] == over["result"] and not again["can_undo"]
        assert (session.state.serialize(), list(session.actions), records.dumps_json(session.record)) == frozen
        [path] = (tmp_path / "records").iterdir()
        got = client.get(over["result"]["record"])
        assert records.loads_json(got.text).actions == records.read(path)[0].actions == session.actions


# -- 2. bounded thinking -------------------------------------------------------------------------
def test_specs_from_a_page_are_bounded_by_max_think():
    assert bound_spec("ismcts:time=1e9", 5) == "ismcts:time=5"
    assert bound_spec("ismcts:simulations=1000000000", 2) == "ismcts:simulations=1000000000,time=2"
    assert bound_spec("alphabeta:depth=64,clock=cpu", 1.5) == "alphabeta:depth=64,clock=cpu,time=1.5"
    assert bound_spec("mcts:time=0.25", 3) == "mcts:time=0.25"
    for bad in ("ismcts:workers=8", "ismcts:time=nan", "ismcts:time=-1", "ismcts:time=abc", "nosuch",
                "ismcts:nosuchparam=1"):
        with pytest.raises(Exception) as e:
            bound_spec(bad, 5)
        assert type(e.value).__module__.startswith("romecore"), bad


def test_a_huge_budget_is_cut_to_max_think(tmp_path):
    with _served(tmp_path, max_think=0.3) as (app, client, sock):
        m = _new(sock, "great_city_of_rome", seat=1, agents=["ismcts:time=1e9"])  # the AI moves first
        session = app.state.sessions.games[m["game"]]
        assert session.agents[0].budget == (0, 0.3) and session.specs[0] == "ismcts:time=0.3"
        assert m["agents"][0] == "ismcts:time=1e9"  # the page's own words label the seat


def test_levels_only_server_refuses_raw_specs(tmp_path):
    with _served(tmp_path, allow_specs=False) as (app, client, sock):
        err = _refused(sock, {"type": "new", "game_id": "rise_to_power", "agents": ["random"]}, "bad_request")
        assert "level" in err["message"]


def _thinking(session, timeout=10.0):
    end = time.monotonic() + timeout
    while not session.thinking and time.monotonic() < end:
        time.sleep(0.005)
    assert session.thinking, "the AI never started thinking"


def _idle(session, timeout=3.0):
    """Seconds until no search of the session runs (fails past ``timeout``)."""
    t0 = time.monotonic()
    while session.thinking or any(f is not None and not f.done() for f in [session.task]):
        assert time.monotonic() - t0 < timeout, "a search went on"
        time.sleep(0.005)
    return time.monotonic() - t0


def _second_to_decide(game_id, seed):
    """The seat that does not make the game's first real decision (so an AI makes it)."""
    state = romecore.load_game(game_id, players=2).new_initial_state(seed=seed)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.sample_chance() if state.is_chance_node() else state.legal_actions()[0])
    return 1 - state.current_player()


def test_resigning_stops_the_search_at_once(tmp_path):
    with _served(tmp_path, max_think=60) as (app, client, sock):
        sock.send_json({"type": "new", "game_id": "great_city_of_rome", "players": 2,
                        "seat": _second_to_decide("great_city_of_rome", 3),
                        "agents": ["ismcts:time=60"], "seed": 3})
        m = _until(sock, lambda x: x["type"] == "state")
        session = app.state.sessions.games[m["game"]]
        _thinking(session)
        sock.send_json({"type": "resign", "game": m["game"], "token": m["token"]})
        _until(sock, lambda x: x["type"] == "state" and x["over"])
        assert _idle(session) < 2.0
        assert session.record.termination()["kind"] == "resigned"


def test_leaving_the_game_stops_the_search_and_a_join_resumes_it(tmp_path):
    app = create_app(records_dir=None, hint="random", delay=0, limits=Limits(max_think=60))
    with TestClient(app) as client:
        with client.websocket_connect("/ws") as sock:
            sock.receive_json()
            sock.send_json({"type": "new", "game_id": "rise_to_power", "players": 2,
                            "seat": _second_to_decide("rise_to_power", 5),
                            "agents": ["ismcts:time=60"], "seed": 5})
            m = _until(sock, lambda x: x["type"] == "state")
            session = app.state.sessions.games[m["game"]]
            _thinking(session)
            at = session.ply()
        assert _idle(session) < 2.0 and session.ply() == at  # the paused game did not move
        session.agents[1 - session.seat] = romecore.make_agent("random", game=session.game, seed=1)
        with client.websocket_connect("/ws") as sock:
            sock.receive_json()
            sock.send_json({"type": "join", "game": m["game"], "token": m["token"]})
            back = _until(sock, _mine)
            assert back["ply"] > at and back["moves"]


def test_undo_stops_a_search_and_its_move_is_dropped(tmp_path):
    with _served(tmp_path, max_think=60) as (app, client, sock):
        m = _new(sock, "great_city_of_rome", agents=["random"], seed=6)
        session = app.state.sessions.games[m["game"]]
        session.agents[1] = romecore.make_agent("ismcts:time=60", game=session.game, seed=2)
        sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                        "action": m["moves"][0]["id"], "ply": m["ply"]})
        _thinking(session)
        sock.send_json({"type": "undo", "game": m["game"], "token": m["token"]})
        back = _until(sock, lambda x: x["type"] == "state" and x["ply"] == m["ply"])
        assert back["moves"] == m["moves"]
        t0 = time.monotonic()
        while session.thinking and time.monotonic() - t0 < 2:
            time.sleep(0.005)
        assert not session.thinking and session.ply() == m["ply"]


# -- 3. deeply nested JSON -----------------------------------------------------------------------
@pytest.mark.parametrize("text", ["[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000,
                                  '{"type": "move", "action": ' + "[" * 6000 + "]" * 6000 + "}"])
def test_deeply_nested_json_is_answered_and_the_socket_stays(tmp_path, text):
    with _served(tmp_path) as (app, client, sock):
        m = _new(sock)
        sock.send_text(text)
        err = sock.receive_json()
        assert err["type"] == "error" and err["code"] == "malformed"
        sock.send_json({"type": "join", "game": m["game"], "token": m["token"]})
        assert _until(sock, lambda x: x["type"] == "state")["ply"] == m["ply"]


# -- 4. a fuzz of hostile frames ------------------------------------------------------------------
def _hostile(rng: random.Random, game: str, ply: int) -> str | bytes:
    """One frame a hostile page might send."""
    junk = [None, True, -1, 2**70, 1e308, float("nan"), "", "x" * 300, [], {}, [1, [2]], "\u0000\ud7ff",
            "../../etc/passwd", "<script>", 0, 1, ply, ply - 1, ply + 1]
    kind = rng.choice(["move", "hint", "undo", "join", "new", "resign", None, "fly", 7, "MOVE"])
    msg: dict = {"type": kind}
    for key in rng.sample(["game", "action", "ply", "game_id", "players", "seat", "agents", "seed", "delay",
                           "options", "token"], rng.randrange(0, 6)):
        msg[key] = rng.choice(junk + [game, "f" * 32, game.upper(), game[:-1]])
    if kind == "new":  # never a valid game: a fuzz must not start searches
        msg["game_id"] = rng.choice(["chess", "", None, 3, "great_city_of_rome"])
        msg["agents"] = rng.choice([["ismcts:workers=9"], ["nosuch"], [1], "x" * 300, [], ["ismcts:time=nan"]])
    if kind in ("move", "resign") and msg.get("game") == game:
        msg["game"] = "f" * 32  # a real move or resignation is not hostile: it would change the game
    shape = rng.random()
    if shape < 0.6:
        return json.dumps(msg, allow_nan=True)
    if shape < 0.7:
        return json.dumps(msg)[: rng.randrange(1, 20)]  # cut short
    if shape < 0.8:
        depth = rng.randrange(100, 4000)
        return "[" * depth + "]" * depth
    if shape < 0.85:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 64)))
    if shape < 0.9:
        return "x" * rng.choice([16385, 40000])
    return "".join(chr(rng.randrange(32, 0x2FF)) for _ in range(rng.randrange(0, 40)))


def test_ten_thousand_hostile_frames_change_no_game_and_each_is_answered(tmp_path):
    rng = random.Random(53)
    with _served(tmp_path, max_think=0.05) as (app, client, sock):
        m = _new(sock, "glory_to_rome", seed=8)
        session = app.state.sessions.games[m["game"]]
        before = (session.state.serialize(), session.ply(), len(app.state.sessions.games))
        answered = 0
        for _ in range(10000):
            frame = _hostile(rng, m["game"], m["ply"])
            if isinstance(frame, bytes):
                sock.send_bytes(frame)
            else:
                sock.send_text(frame)
            reply = sock.receive_json()
            assert reply["type"] in ("error", "state", "hint"), reply
            if reply["type"] == "state":  # a join, answered with the unchanged position
                assert reply["game"] == m["game"] and reply["ply"] == m["ply"]
            answered += 1
        assert answered == 10000
        assert (session.state.serialize(), session.ply(), len(app.state.sessions.games)) == before
        sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                        "action": m["moves"][0]["id"], "ply": m["ply"]})
        assert _until(sock, lambda x: x["type"] == "state")["ply"] > m["ply"]
