"""Tables that outlive the server (issue 55): a real ``romecore serve --db FILE`` process is
killed with SIGKILL in the middle of games between friends (and an AI seat), started again on
the same file, and the players rejoin with their tokens and finish; each record replays
from its seed to the result the server announced."""

from __future__ import annotations

import json
import random
import time

import pytest

pytest.importorskip("uvicorn", reason="the web app needs romecore[web]")
pytest.importorskip("websockets", reason="the web app needs romecore[web]")

from browser_support import ServerProcess  # noqa: E402
from websockets.sync.client import connect  # noqa: E402

import romecore  # noqa: E402
from romecore import records  # noqa: E402

GAMES = sorted(romecore.list_games())
# each socket is closed with its server; websockets asks for a with-block we cannot nest here
pytestmark = pytest.mark.filterwarnings("ignore:connect\\(\\) must be used as a context manager")


class _Server(ServerProcess):
    """The server process, with websockets to it."""

    def __init__(self, db, records_dir):
        super().__init__(str(db), str(records_dir))

    def socket(self):
        ws = connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=20)
        assert json.loads(ws.recv(20))["type"] == "hello"
        return ws


def _send(ws, msg):
    ws.send(json.dumps(msg))


def _next(ws, pred, timeout=60.0):
    end = time.monotonic() + timeout
    while True:
        m = json.loads(ws.recv(max(0.1, end - time.monotonic())))
        assert m["type"] != "error", m
        if pred(m):
            return m


def _drain(ws, m, wait=0.05):
    """The newest state message the socket has (``m`` if none came within ``wait``)."""
    while True:
        try:
            x = json.loads(ws.recv(wait))
        except TimeoutError:
            return m
        assert x["type"] != "error", x
        if x["type"] == "state" and x["ply"] >= m["ply"]:
            m = x


def _play(socks, rng, last, max_moves=None, timeout=300.0):
    """The humans play random legal moves, each on their own socket, until the game ends
    (or ``max_moves`` human moves); returns the last state message of each socket."""
    made, end = 0, time.monotonic() + timeout
    while time.monotonic() < end:
        for p in last:
            last[p] = _drain(socks[p], last[p])
        if all(m["over"] for m in last.values()):
            return last
        mover = next((p for p, m in last.items() if m["moves"] and not m["over"]), None)
        if mover is None:
            continue  # the AI or chance is moving, or a page has not heard yet
        if max_moves is not None and made >= max_moves:
            return last
        m = last[mover]
        _send(socks[mover], {"type": "move", "game": m["game"], "token": m["token"], "ply": m["ply"],
                             "action": rng.choice(m["moves"])["id"]})
        made += 1
        last[mover] = _next(socks[mover], lambda x, at=m["ply"]: x["type"] == "state" and x["ply"] > at)
    raise AssertionError("the game did not end in time")


def _table(server, game_id, seats, seed):
    """A table from seats ("host", "open", or a level); returns ({seat: socket}, {seat: last state})."""
    host = server.socket()
    _send(host, {"type": "new", "game_id": game_id, "players": len(seats), "seat": seats.index("host"),
                 "seats": seats, "seed": seed})
    first = _next(host, lambda m: m["type"] == "state")
    socks, last = {first["seat"]: host}, {first["seat"]: first}
    for p, code in first["invites"].items():
        ws = server.socket()
        _send(ws, {"type": "join", "game": first["game"], "invite": code})
        last[int(p)] = _next(ws, lambda m: m["type"] == "state")
        assert last[int(p)]["seat"] == int(p) and last[int(p)]["token"]
        socks[int(p)] = ws
    return socks, last


@pytest.mark.parametrize("game_id", GAMES)
def test_friends_finish_a_game_after_the_server_is_killed(tmp_path, game_id):
    server = _Server(tmp_path / "tables.db", tmp_path / "records").start()
    seed = 40 + GAMES.index(game_id)
    rng = random.Random(seed)
    try:
        socks, last = _table(server, game_id, ["host", "open"], seed)
        gid = last[0]["game"]
        tokens = {p: m["token"] for p, m in last.items()}
        assert tokens[0] != tokens[1]
        last = _play(socks, rng, last, max_moves=12)
        time.sleep(0.3)
        at = max(_drain(socks[p], last[p], 0.2)["ply"] for p in last)
        server.kill()
        server.start()
        socks = {p: server.socket() for p in tokens}
        for p, ws in socks.items():
            _send(ws, {"type": "join", "game": gid, "token": tokens[p]})
            last[p] = _next(ws, lambda m: m["type"] == "state")
            assert last[p]["seat"] == p and last[p]["ply"] == at  # as at its last accepted move
        # a token acts for its own seat only
        mover = next(p for p, m in last.items() if m["moves"])
        other = 1 - mover
        _send(socks[other], {"type": "move", "game": gid, "token": tokens[other],
                             "action": last[mover]["moves"][0]["id"]})
        err = json.loads(socks[other].recv(20))
        while err["type"] != "error":
            err = json.loads(socks[other].recv(20))
        assert err["code"] == "not_your_turn"
        last = _play(socks, rng, last)
        result = last[0]["result"]
        [path] = (tmp_path / "records").glob(f"{game_id}-{gid}.jsonl")
        [rec] = records.read(path)
        final = records.replay(rec)  # an uninterrupted replay of the record, every move checked
        assert final.returns() == result["returns"] == rec.returns and list(rec.scores) == result["scores"]
        assert rec.agents == ["human", "human"] and len(rec.actions) == last[1]["ply"]
    finally:
        server.stop()


def test_a_three_player_table_with_an_ai_seat_survives_a_kill(tmp_path):
    server = _Server(tmp_path / "tables.db", tmp_path / "records").start()
    rng = random.Random(3)
    try:
        socks, last = _table(server, "rise_to_power", ["host", "Beginner", "open"], 7)
        gid, tokens = last[0]["game"], {p: m["token"] for p, m in last.items()}
        last = _play(socks, rng, last, max_moves=6)
        server.kill()
        server.start()
        socks = {p: server.socket() for p in tokens}
        for p, ws in socks.items():
            _send(ws, {"type": "join", "game": gid, "token": tokens[p]})
            last[p] = _next(ws, lambda m: m["type"] == "state")
        last = _play(socks, rng, last)
        [rec] = records.read(next((tmp_path / "records").glob("*.jsonl")))
        assert rec.labels[1] == "Beginner" and records.replay(rec).returns() == rec.returns
    finally:
        server.stop()
