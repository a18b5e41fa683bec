"""A table's seats are held by secrets (issue 55): each refusal below comes with its code,
and changes no game; a spectator is sent nothing any one seat knows alone."""

from __future__ import annotations

import contextlib
import json
import secrets

import pytest

pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette)")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient  # noqa: E402

from romecore.picture import PUBLIC, to_svg  # noqa: E402
from romecore.web.app import create_app  # noqa: E402
from romecore.web.limits import Limits  # noqa: E402


@contextlib.contextmanager
def _app(**limits):
    app = create_app(records_dir=None, hint="random", delay=0,
                     limits=Limits(**{"rate": 1e9, "burst": 10**9, **limits}))
    with TestClient(app) as client:
        yield app, client


@contextlib.contextmanager
def _sock(client):
    with client.websocket_connect("/ws") as ws:
        assert ws.receive_json()["type"] == "hello"
        yield ws


def _next(ws, pred):
    for _ in range(10000):
        m = ws.receive_json()
        if pred(m):
            return m
    raise AssertionError("no such message")


def _state(ws):
    return _next(ws, lambda m: m["type"] == "state")


def _error(ws):
    return _next(ws, lambda m: m["type"] == "error")


def _friends_table(client, stack, game_id="glory_to_rome", seed=3):
    """A 2-human table: (host socket, host's first state, friend socket, friend's state)."""
    host = stack.enter_context(_sock(client))
    host.send_json({"type": "new", "game_id": game_id, "players": 2, "seat": 0, "seats": ["host", "open"],
                    "seed": seed})
    first = _state(host)
    friend = stack.enter_context(_sock(client))
    friend.send_json({"type": "join", "game": first["game"], "invite": first["invites"]["1"]})
    return host, first, friend, _state(friend)


def _frozen(app, gid):
    s = app.state.sessions.games[gid]
    return s.state.serialize(), s.ply()


def test_tokens_act_only_for_their_own_seat_and_table():
    with _app() as (app, client), contextlib.ExitStack() as stack:
        host, first, friend, joined = _friends_table(client, stack)
        gid = first["game"]
        other_host, other, _, _ = _friends_table(client, stack, seed=4)
        assert first["token"] != joined["token"] and len(first["token"]) >= 22  # >= 128 bits, URL-safe
        before = _frozen(app, gid)
        session = app.state.sessions.games[gid]
        mover = session.state.current_player()
        tokens = {0: first["token"], 1: joined["token"]}
        socks = {0: host, 1: friend}
        idle = 1 - mover if mover in (0, 1) else 0
        legal = session.state.legal_actions()[0] if mover >= 0 else 0
        cases = [
            # the idle seat's token on the mover's turn: its own seat is not to move
            (socks[idle], {"type": "move", "game": gid, "token": tokens[idle], "action": legal}, "not_your_turn"),
            # another table's token
            (socks[idle], {"type": "move", "game": gid, "token": other["token"], "action": legal}, "forbidden"),
            # a guessed token, a truncated one, a padded one, none, a number
            (socks[idle], {"type": "move", "game": gid, "token": secrets.token_urlsafe(32), "action": legal},
             "forbidden"),
            (socks[idle], {"type": "move", "game": gid, "token": tokens[mover][:-1], "action": legal}, "forbidden"),
            (socks[idle], {"type": "move", "game": gid, "token": tokens[mover] + "A", "action": legal}, "forbidden"),
            (socks[idle], {"type": "move", "game": gid, "action": legal}, "forbidden"),
            (socks[idle], {"type": "resign", "game": gid, "token": 12345}, "forbidden"),
            # the invitation, used again after its seat was taken
            (socks[idle], {"type": "join", "game": gid, "invite": first["invites"]["1"]}, "taken"),
            # hints and undo are off where two humans sit
            (socks[mover], {"type": "hint", "game": gid, "token": tokens[mover]}, "off"),
            (socks[mover], {"type": "undo", "game": gid, "token": tokens[mover]}, "off"),
        ]
        for ws, msg, code in cases:
            ws.send_json(msg)
            err = _error(ws)
            assert err["code"] == code, (msg, err)
            assert _frozen(app, gid) == before
        assert other_host is not None


def test_a_spectator_can_watch_but_not_act_and_sees_only_the_public_view():
    with _app() as (app, client), contextlib.ExitStack() as stack:
        host, first, friend, joined = _friends_table(client, stack, "great_city_of_rome", seed=5)
        gid = first["game"]
        watcher = stack.enter_context(_sock(client))
        watcher.send_json({"type": "join", "game": gid})
        seen = _state(watcher)
        session = app.state.sessions.games[gid]
        assert seen["seat"] is None and seen["moves"] == [] and "token" not in seen and "invites" not in seen
        assert "seed" not in seen
        for kind in ("move", "hint", "undo", "resign"):
            watcher.send_json({"type": kind, "game": gid, "action": 0})
            assert _error(watcher)["code"] == "forbidden"
        # what it is shown is the public view, the same whatever any seat's hidden cards are
        assert seen["svg"] == to_svg(session.state, PUBLIC)
        for q in range(2):
            assert to_svg(session.state.resample(q, seed=11), PUBLIC) == seen["svg"]
        text = json.dumps(seen)
        for q in range(2):
            hand = session.state.observation(q).get("hand") or []
            private = [c for c in hand if c not in json.dumps(session.state.observation(1 - q))]
            assert not any(f">{c}<" in text for c in private), private


def test_a_replayed_move_is_refused_as_stale():
    with _app() as (app, client), contextlib.ExitStack() as stack:
        host, first, friend, joined = _friends_table(client, stack, "rise_to_power", seed=6)
        socks = {0: host, 1: friend}
        last = {0: first, 1: joined}
        while True:  # until one of them is to move
            mover = next((p for p, m in last.items() if m["moves"]), None)
            if mover is not None:
                break
            for p in last:
                last[p] = _state(socks[p])
        m = last[mover]
        move = {"type": "move", "game": m["game"], "token": m["token"], "ply": m["ply"],
                "action": m["moves"][0]["id"]}
        socks[mover].send_json(move)
        _next(socks[mover], lambda x: x["type"] == "state" and x["ply"] > m["ply"])
        before = _frozen(app, m["game"])
        socks[mover].send_json(move)  # the same frame again
        assert _error(socks[mover])["code"] in ("stale", "not_your_turn")
        assert _frozen(app, m["game"]) == before


def test_a_flood_past_the_rate_limit_is_refused_and_the_socket_stays():
    with _app(rate=5, burst=10) as (app, client), _sock(client) as ws:
        ws.send_json({"type": "new", "game_id": "rise_to_power", "players": 2, "seat": 0, "agents": ["random"],
                      "seed": 2})
        first = _state(ws)
        before = _frozen(app, first["game"])
        for _ in range(100):
            ws.send_json({"type": "join", "game": first["game"], "token": first["token"]})
        codes = [ws.receive_json().get("code", "state") for _ in range(100)]  # each frame is answered
        assert codes.count("rate_limited") >= 80 and "state" in codes  # mostly refused, the socket open
        ws.send_json({"type": "join", "game": first["game"], "token": first["token"]})
        assert before is not None


def test_tables_per_page_are_bounded():
    with _app(tables_per_connection=2) as (app, client), _sock(client) as ws:
        for i in range(3):
            ws.send_json({"type": "new", "game_id": "rise_to_power", "players": 2, "agents": ["random"],
                          "seed": i})
            m = _next(ws, lambda x: x["type"] in ("state", "error") and x.get("ply", 0) == 0 or x["type"] == "error")
            if i < 2:
                assert m["type"] == "state"
            else:
                assert m["type"] == "error" and m["code"] == "full"
