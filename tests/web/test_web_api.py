"""The web app over its websocket (Starlette's TestClient, no browser): whole games, hint,
undo, bad input, and the human's view holding nothing the human cannot know."""

from __future__ import annotations

import contextlib
import json
import random

import pytest

pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette)")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from click.testing import CliRunner  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from ws_support import my_turn as _my_turn  # noqa: E402
from ws_support import until as _until
from ws_support import whole_log as _whole_log  # noqa: E402

import romecore  # noqa: E402
from romecore import records  # noqa: E402
from romecore.cli.replay import command as replay_command  # noqa: E402
from romecore.match import play_game  # noqa: E402
from romecore.web.app import PROTOCOL, create_app  # noqa: E402
from romecore.web.limits import Limits  # noqa: E402
from romecore.web.sessions import Session, human_view  # noqa: E402
from romecore.web.storage import Seat  # noqa: E402

GAMES = sorted(romecore.list_games())



@pytest.fixture
def app(tmp_path):
    # a script sends far faster than a person: the message rate is not what these tests test
    return create_app(records_dir=str(tmp_path / "records"), hint="random", delay=0,
                      limits=Limits(rate=1e9, burst=10**9))


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


@contextlib.contextmanager
def _tab(client):
    """A page's websocket, greeted."""
    with client.websocket_connect("/ws") as sock:
        assert sock.receive_json() == {"type": "hello", "protocol": PROTOCOL}
        yield sock




def _new(sock, game_id, seat=0, seed=11, **extra):
    sock.send_json({"type": "new", "game_id": game_id, "players": 2, "seat": seat, "agents": ["random"],
                    "seed": seed, **extra})
    return _until(sock, _my_turn)


def _play_out(sock, m, rng):
    """Plays random moves from state message ``m`` to the end; returns (last message,
    the human's actions)."""
    mine = []
    while not m["over"]:
        action = rng.choice(m["moves"])["id"]
        mine.append(action)
        sock.send_json({"type": "move", "game": m["game"], "token": m["token"], "action": action, "ply": m["ply"]})
        m = _until(sock, lambda x, at=m["ply"]: _my_turn(x) and x["ply"] > at)
    return m, mine


class _Script:
    spec = "human"

    def __init__(self, actions):
        self.actions = list(actions)

    def step(self, view):
        return self.actions.pop(0)


@pytest.mark.parametrize("game_id", GAMES)
def test_whole_game_is_saved_as_the_record_that_replays(client, app, game_id, tmp_path):
    with _tab(client) as sock:
        seat = GAMES.index(game_id) % 2
        first = _new(sock, game_id, seat=seat, seed=5)
        last, mine = _play_out(sock, first, random.Random(3))
    result = last["result"]
    assert result["termination"] == {"kind": "normal"}
    [path] = (tmp_path / "records").iterdir()
    [rec] = records.read(path)
    assert (rec.game_id, rec.seed, rec.agents[seat]) == (game_id, 5, "human")
    assert result["returns"] == rec.returns and result["scores"] == list(rec.scores)
    final = records.replay(rec)  # every move and its text checked, the result too
    assert final.is_terminal() and final.returns() == result["returns"]
    # the same game as the shared game loop plays it: the agent saw only its resampled views
    agents = [_Script(mine) if p == seat else romecore.make_agent("random", game=final.game, seed=5 * 1000 + p)
              for p in range(2)]
    loop = play_game(final.game, agents, 5)
    assert loop.actions == rec.actions and loop.returns == rec.returns
    # what the page offers to download is that record, and romecore replay reads the file
    got = client.get(result["record"])
    assert got.status_code == 200 and records.loads_json(got.text).actions == rec.actions
    out = CliRunner().invoke(replay_command, [str(path), "--no-step"])
    assert out.exit_code == 0 and "reaches the recorded result" in out.output, out.output


def _session(app, m) -> Session:
    return app.state.sessions.games[m["game"]]


def test_bad_input_is_refused_and_changes_nothing(client, app):
    with _tab(client) as sock:
        m = _new(sock, "glory_to_rome", seed=2)
        session = _session(app, m)
        before = (session.state.serialize(), session.ply())
        legal = {x["id"] for x in m["moves"]}
        forged = next(a for a in range(1000) if a not in legal)
        bad = [
            ("illegal", {"type": "move", "game": m["game"], "token": m["token"], "action": forged, "ply": m["ply"]}),
            ("illegal", {"type": "move", "game": m["game"], "token": m["token"], "action": -3}),
            ("bad_request", {"type": "move", "game": m["game"], "token": m["token"], "action": "0"}),
            ("bad_request", {"type": "move", "game": m["game"], "token": m["token"], "action": True}),
            ("stale", {"type": "move", "game": m["game"], "token": m["token"],
                       "action": m["moves"][0]["id"], "ply": m["ply"] - 1}),
            ("unknown_game", {"type": "move", "game": "0" * 32, "action": m["moves"][0]["id"]}),
            ("bad_request", {"type": "move", "game": "../etc", "action": m["moves"][0]["id"]}),
            ("bad_request", {"type": "move", "action": m["moves"][0]["id"]}),
            ("bad_request", {"type": "fly", "game": m["game"]}),
            ("bad_request", {"game": m["game"]}),
            ("unknown_game", {"type": "undo", "game": "f" * 32}),
            ("bad_request", {"type": "undo", "game": m["game"], "token": m["token"]}),  # nothing to undo yet
            ("error", {"type": "new", "game_id": "chess"}),
            ("error", {"type": "new", "game_id": "glory_to_rome", "players": 9}),
            ("bad_request", {"type": "new", "game_id": "glory_to_rome", "seat": 7}),
            ("bad_request", {"type": "new", "game_id": "glory_to_rome", "agents": []}),
            ("bad_request", {"type": "new", "game_id": "glory_to_rome", "delay": -1}),
            ("bad_request", {"type": "new", "game_id": "glory_to_rome", "agents": ["nosuchagent"]}),
            ("bad_request", {"type": "new", "game_id": "glory_to_rome", "agents": ["ismcts:workers=4"]}),
        ]
        for code, msg in bad:
            sock.send_json(msg)
            err = sock.receive_json()
            assert err["type"] == "error" and err["code"] == code, (msg, err)
            assert err["message"]
        for text in ["{", "[1, 2]", "null", '"move"', "x" * 100000]:
            sock.send_text(text)
            err = sock.receive_json()
            assert err["type"] == "error" and err["code"] == "malformed", (text, err)
        sock.send_bytes(b'{"type": "join"}')
        assert sock.receive_json()["code"] == "malformed"
        assert (session.state.serialize(), session.ply()) == before
        assert len(app.state.sessions.games) == 1  # no game made by the refused "new"s
        # the server kept going: the same socket still plays
        sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                        "action": m["moves"][0]["id"], "ply": m["ply"]})
        after = _until(sock, lambda x: x["type"] == "state")
        assert after["ply"] == m["ply"] + 1


def test_a_move_out_of_turn_is_refused(client, app):
    with _tab(client) as sock:
        m = _new(sock, "great_city_of_rome", seed=4, delay=1)  # the agent's move waits a second
        sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                        "action": m["moves"][0]["id"], "ply": m["ply"]})
        moved = _until(sock, lambda x: x["type"] == "state")
        assert moved["to_move"] == 1 and moved["moves"] == []
        session = _session(app, m)
        before = session.state.serialize()
        # the agent is to move: a move for it, or a replay of the human's last one, is refused
        for action in {m["moves"][0]["id"], *range(5)}:
            sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                            "action": action, "ply": moved["ply"]})
            err = sock.receive_json()
            assert err["type"] == "error" and err["code"] == "not_your_turn", err
        sock.send_json({"type": "hint", "game": m["game"], "token": m["token"]})
        assert sock.receive_json()["code"] == "not_your_turn"
        assert session.state.serialize() == before


def test_hint_names_a_legal_move_and_undo_restores_the_position(client, app):
    with _tab(client) as sock:
        m = _new(sock, "city_of_marble", seed=8)
        sock.send_json({"type": "hint", "game": m["game"], "token": m["token"], "ply": m["ply"]})
        hint = _until(sock, lambda x: x["type"] == "hint")
        assert {"id": hint["action"], "text": hint["text"], "targets": hint["targets"]} in m["moves"]
        assert hint["ply"] == m["ply"]
        assert not m["can_undo"]
        session = _session(app, m)
        while True:  # move until the agent has answered
            before, action = m, m["moves"][-1]["id"]
            snapshot = session.state.serialize()  # the dealer's seed state included
            sock.send_json({"type": "move", "game": m["game"], "token": m["token"], "action": action, "ply": m["ply"]})
            m = _until(sock, lambda x, b=before: _my_turn(x) and x["ply"] > b["ply"])
            if any(e["player"] == 1 for e in m["log"][len(before["log"]):]):
                break
        assert m["can_undo"]
        sock.send_json({"type": "undo", "game": m["game"], "token": m["token"]})
        back = _until(sock, lambda x: x["type"] == "state")
        same = ("ply", "svg", "moves", "log", "to_move")
        assert {k: back[k] for k in same} == {k: before[k] for k in same}
        assert session.state.serialize() == snapshot  # nothing will be dealt anew
        assert session.actions == [a for a in session.actions[: back["ply"]]] and session.ply() == back["ply"]
        sock.send_json({"type": "move", "game": m["game"], "token": m["token"], "action": action, "ply": back["ply"]})
        _until(sock, lambda x: _my_turn(x) and x["ply"] > back["ply"])


def test_games_in_separate_tabs_do_not_mix_and_a_tab_can_rejoin(client, app):
    with contextlib.ExitStack() as stack:
        tabs = [stack.enter_context(_tab(client)) for _ in range(3)]
        msgs = [_new(sock, GAMES[i], seed=20 + i) for i, sock in enumerate(tabs)]
        assert len({m["game"] for m in msgs}) == 3
        rng = random.Random(1)
        for _ in range(4):  # interleaved moves
            for i, sock in enumerate(tabs):
                m = msgs[i]
                if m["over"]:
                    continue
                sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                                "action": rng.choice(m["moves"])["id"],
                                "ply": m["ply"]})
                msgs[i] = _until(sock, lambda x, m=m: _my_turn(x) and x["ply"] > m["ply"])
                assert msgs[i]["game"] == m["game"] and msgs[i]["game_id"] == GAMES[i]
    with _tab(client) as sock:  # the first tab reloaded, after every tab closed
        sock.send_json({"type": "join", "game": msgs[0]["game"], "token": msgs[0]["token"]})
        rejoined = _until(sock, lambda x: x["type"] == "state")
        keys = ("ply", "svg", "moves", "seat", "token")
        assert {k: rejoined[k] for k in keys} == {k: msgs[0][k] for k in keys}
    with _tab(client) as sock:  # without the token: a spectator, who may not move
        sock.send_json({"type": "join", "game": msgs[0]["game"]})
        watching = _until(sock, lambda x: x["type"] == "state")
        assert watching["seat"] is None and watching["moves"] == [] and "token" not in watching
        sock.send_json({"type": "move", "game": msgs[0]["game"], "action": msgs[0]["moves"][0]["id"]})
        assert _until(sock, lambda x: x["type"] == "error")["code"] == "forbidden"


def test_resign_ends_the_game_as_a_resigned_record(client, app, tmp_path):
    with _tab(client) as sock:
        m = _new(sock, "rise_to_power", seed=3)
        sock.send_json({"type": "resign", "game": m["game"], "token": m["token"]})
        over = _until(sock, lambda x: x["type"] == "state" and x["over"])
        assert over["result"]["termination"]["kind"] == "resigned" and over["result"]["returns"] == [0.0, 1.0]
        [path] = (tmp_path / "records").iterdir()
        [rec] = records.read(path)
        assert rec.forfeit["seat"] == 0 and rec.actions == _session(app, m).actions
        records.replay(rec)
        sock.send_json({"type": "move", "game": m["game"], "token": m["token"], "action": 0})
        assert sock.receive_json()["code"] == "game_over"


def test_record_download_refuses_unknown_and_unfinished_games(client):
    assert client.get("/api/record/" + "0" * 32).status_code == 404
    assert client.get("/api/record/nonsense").status_code == 404
    with _tab(client) as sock:
        m = _new(sock, "glory_to_rome")
        assert client.get(f"/api/record/{m['game']}").status_code == 409
    page = client.get("/")
    assert page.status_code == 200 and "/static/app.js" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    info = client.get("/api/games").json()
    assert sorted(g["id"] for g in info["games"]) == GAMES and "random" in info["agents"]


@pytest.mark.parametrize("game_id", GAMES)
def test_the_view_sent_is_the_same_in_every_world_the_human_cannot_tell_apart(game_id):
    """The state message's picture and moves, for two worlds ``resample`` draws from the
    human's knowledge, are equal; the worlds themselves differ somewhere (hands, decks'
    order), so a message leaking them would fail the comparison."""
    game = romecore.load_game(game_id, players=2)
    rng = random.Random(7)
    state = game.new_initial_state(seed=9)
    differ = checked = 0
    session = Session(game, [Seat("human", "human", "human"), Seat("ai", "random", "random")], seed=9, delay=0)
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        step += 1
        if step % 4 == 0:
            for seat in range(2):
                w1, w2 = state.resample(seat, step), state.resample(seat, step + 1000)
                assert human_view(w1, seat) == human_view(w2, seat)
                assert human_view(w1, seat) == human_view(state, seat)
                session.state = w1
                a = json.dumps(session.update(seat))
                session.state = w2
                assert json.dumps(session.update(seat)) == a
                assert '"seed"' not in a  # the seed deals every hidden card: not before the end
                checked += 1
                differ += w1.to_dict() != w2.to_dict()
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 5
    assert differ > 0, "resampled worlds never differed: the check has no teeth here"


def test_serve_command_builds_the_app_and_runs_uvicorn(monkeypatch, tmp_path):
    import uvicorn

    from romecore.cli import serve

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(app=app, **kw))
    res = CliRunner().invoke(serve.command, ["--port", "8123", "--records", str(tmp_path), "--delay", "0"])
    assert res.exit_code == 0, res.output
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123
    assert seen["app"].state.sessions.records_dir == str(tmp_path) and seen["app"].state.sessions.delay == 0
    assert "http://127.0.0.1:8123/" in res.output
    bad = CliRunner().invoke(serve.command, ["--port", "99999"])
    assert bad.exit_code == 2


def test_a_failing_picture_falls_back_to_the_seats_text_view(monkeypatch):
    """A renderer bug must not end a game: the page gets the seat's text drawing instead."""
    from romecore.web import sessions

    game = romecore.load_game("glory_to_rome", players=2)
    state = game.new_initial_state(seed=1)

    def broken(state, player):
        raise ValueError("renderer <bug>")

    monkeypatch.setattr(sessions, "to_svg", broken)
    svg = sessions.render_svg(state, 1)
    assert svg.startswith("<svg") and "renderer &lt;bug&gt;" in svg
    assert all(line.strip()[:20] in svg for line in state.render(1).splitlines() if "<" not in line)
    assert sessions.render_svg(state.resample(1, 5), 1) == svg


def test_the_log_goes_as_a_delta_and_whole_after_an_undo(client, app):
    """Each state message carries only the log entries the page lacks (``log_from``): put
    back together they are the session's whole log for the seat; an undo sends it whole."""
    with _tab(client) as sock:
        m = _new(sock, "rise_to_power", seed=5, undo=True)
        session = _session(app, m)
        raw = []  # the messages as sent, before the test support joins their logs
        for _ in range(4):
            at = m["ply"]
            sock.send_json({"type": "move", "game": m["game"], "token": m["token"],
                            "action": m["moves"][0]["id"], "ply": at})
            while True:
                x = sock.receive_json()
                raw.append(x)
                m = _whole_log(sock, x)
                if _my_turn(m) and m["ply"] > at:
                    break
            assert m["log"] == session._log(0)
        deltas = [x for x in raw if x["type"] == "state" and x.get("log_from", 0) > 0]
        assert deltas and all(len(x["log"]) < len(session._log(0)) for x in deltas)
        sock.send_json({"type": "undo", "game": m["game"], "token": m["token"]})
        back = sock.receive_json()
        assert back["type"] == "state" and back.get("log_from", 0) == 0
        assert back["log"] == session._log(0)
