"""The review endpoints and the finished-games list over HTTP (Starlette's TestClient): a
live game is never reviewed, a finished one is (each decision with a choice, once, kept),
the boards are the chosen seat's view, and bad uploads are refused naming the file and the
move, with nothing kept.  A tiny search budget keeps each review well under a second."""

from __future__ import annotations

import json
import os
import random
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette)")
pytest.importorskip("httpx2", reason="Starlette's TestClient needs httpx2")

from starlette.testclient import TestClient  # noqa: E402
from ws_support import my_turn, until  # noqa: E402

import romecore  # noqa: E402
from romecore import records  # noqa: E402
from romecore.match import play_game  # noqa: E402
from romecore.picture import to_svg  # noqa: E402
from romecore.web.app import create_app  # noqa: E402
from romecore.web.limits import Limits  # noqa: E402
from romecore.web.reviews import MAX_PAGE, ReviewBudget  # noqa: E402
from romecore.web.storage import OVER, TableRow  # noqa: E402

DATA = Path(__file__).resolve().parent.parent / "data"
TINY = ReviewBudget(agent="ismcts:simulations=16", time=0.5, worlds=1)
GAME = "rise_to_power"


def _app(folder):
    return create_app(records_dir=str(folder), hint="random", delay=0, limits=Limits(rate=1e9, burst=10**9),
                      review=TINY)


def _play(client, seed, finish=True):
    """A table against a random AI, played to the end by random moves (or left at the
    human's first decision); returns its id."""
    rng = random.Random(seed)
    with client.websocket_connect("/ws") as sock:
        sock.receive_json()
        sock.send_json({"type": "new", "game_id": GAME, "players": 2, "seat": 0, "agents": ["random"], "seed": seed})
        m = until(sock, my_turn)
        while finish and not m["over"]:
            sock.send_json({"type": "move", "game": m["game"], "token": m["token"], "ply": m["ply"],
                            "action": rng.choice(m["moves"])["id"]})
            m = until(sock, lambda x, at=m["ply"]: my_turn(x) and x["ply"] > at)
        return m["game"]


def _reviewed(client, key, seat=0, timeout=60.0):
    """Polls a review until it is done; returns its page data."""
    deadline = time.monotonic() + timeout
    while True:
        r = client.get(f"/api/review/{key}", params={"seat": seat})
        assert r.status_code == 200, r.text
        body = r.json()
        assert body["status"] in ("queued", "running", "done"), body
        if body["status"] == "done":
            return body
        assert time.monotonic() < deadline, body
        time.sleep(0.05)


def _decisions_with_a_choice(rec):
    """The plies (from 1) where a player had more than one legal move: the oracle of what a
    review judges, from a plain replay."""
    state, plies = records.Replayer(rec).state, []
    for i, (action, player) in enumerate(zip(rec.actions, rec.players)):
        if player >= 0 and len(state.legal_actions()) > 1:
            plies.append(i + 1)
        state.apply_action(action)
    return plies


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    app = _app(folder)
    with TestClient(app) as client:
        done = _play(client, 5)
        live = _play(client, 6, finish=False)
        yield client, app, folder, done, live


def test_a_live_game_is_never_reviewed(server):
    client, app, _, _, live = server
    r = client.post(f"/api/review/{live}")
    assert r.status_code == 409 and r.json()["code"] == "not_over", r.text
    assert client.get(f"/api/review/{live}").status_code == 404
    assert client.get(f"/api/review/{live}/board", params={"ply": 0}).status_code == 404
    assert live not in app.state.reviews.jobs
    assert live not in [g["game"] for g in client.get("/api/finished").json()["games"]]
    assert client.post("/api/review/" + "0" * 32).json()["code"] == "unknown_game"
    assert client.post("/api/review/not-a-game").status_code == 400


def test_the_finished_list_shows_each_game_with_its_links(server):
    client, app, _, done, _ = server
    games = client.get("/api/finished").json()["games"]
    [g] = [g for g in games if g["game"] == done]
    rec = app.state.sessions.games[done].record
    assert g["game_id"] == GAME and g["moves"] == len(rec.actions) and g["scores"] == list(rec.scores)
    assert [p["label"] for p in g["players"]] == rec.seat_labels() and g["players"][0]["human"]
    winner = max(range(2), key=lambda p: rec.returns[p])
    assert g["result"].startswith(f"P{winner} ") and g["result"].endswith(
        f"{rec.scores[winner]}–{rec.scores[1 - winner]}")
    assert g["review"] == f"/review#{done}"
    assert records.loads_json(client.get(g["record"]).content).actions == rec.actions  # the export


def test_the_list_is_paged_and_bounded(tmp_path):
    app = _app(tmp_path)
    game = romecore.load_game(GAME, players=2)
    storage = app.state.sessions.storage
    for i in range(5):  # finished tables as storage keeps them
        rec = play_game(game, [romecore.make_agent("random", game=game, seed=i)] * 2, seed=i)
        storage.create_table(TableRow(f"{i:032x}", GAME, i, _seats(), updated=1000.0 + i))
        storage.finish(f"{i:032x}", records.dumps_json(rec), now=1000.0 + i)
    with TestClient(app) as client:
        first = client.get("/api/finished", params={"limit": 2}).json()
        second = client.get("/api/finished", params={"limit": 2, "offset": 2}).json()
        last = client.get("/api/finished", params={"limit": 2, "offset": 4}).json()
        ids = [g["game"] for page in (first, second, last) for g in page["games"]]
        assert ids == [f"{i:032x}" for i in (4, 3, 2, 1, 0)]  # the most recent first, each once
        assert first["more"] and second["more"] and not last["more"]
        for bad in ({"limit": 0}, {"limit": MAX_PAGE + 1}, {"offset": -1}, {"limit": "x"}):
            r = client.get("/api/finished", params=bad)
            assert r.status_code == 400 and r.json()["code"] == "bad_request", bad
    assert len(storage.list_tables(OVER)) == 5


def _seats():
    from romecore.web.storage import Seat

    return [Seat("human"), Seat("ai", "random", "random")]


def test_a_finished_game_is_reviewed_once_and_kept(server):
    client, app, folder, done, _ = server
    r = client.post(f"/api/review/{done}")
    assert r.status_code in (200, 202) and r.json()["status"] in ("queued", "running", "done")
    body = _reviewed(client, done)
    rec = app.state.sessions.games[done].record
    review = body["review"]
    assert [d["ply"] for d in review["decisions"]] == _decisions_with_a_choice(rec)
    assert all(rec.players[d["ply"] - 1] == d["player"] for d in review["decisions"])
    assert body["plot"].startswith("<svg") and body["plies"] == len(rec.actions)
    marks = {d["ply"] for d in review["decisions"] if d["label"] in ("inaccuracy", "mistake", "blunder")}
    for ply in marks:
        assert f'data-ply="{ply}"' in body["plot"]
    # asked again: the same review, not a second one
    job = app.state.reviews.jobs[done]
    again = client.post(f"/api/review/{done}")
    assert again.status_code == 200 and app.state.reviews.jobs[done] is job
    # kept beside the record: a restarted server answers it without searching
    [kept] = folder.glob(f"*-{done}.review.json")
    other = _app(folder)
    with TestClient(other) as c2:
        assert c2.get(f"/api/review/{done}").json()["review"] == review


def test_the_log_hides_what_the_seat_did_not_see(server):
    client, app, _, done, _ = server
    session = app.state.sessions.games[done]
    hidden = 0
    for seat in (0, 1):
        shown = {e["ply"]: e["text"] for e in _reviewed(client, done, seat)["log"]}
        seen = {e["ply"]: e["text"] for e in session._log(seat)}  # what the table showed that seat
        for ply, text in shown.items():
            if ply not in seen:  # a deal the seat did not see
                assert text is None, (seat, ply, text)
            elif seen[ply] == "a move you cannot see":
                assert text is None, (seat, ply, text)
                hidden += 1
            else:
                assert text == seen[ply], (seat, ply)
    assert hidden > 0  # the game has moves one seat does not see


def test_boards_are_the_seats_view_and_the_line_is_played(server):
    client, app, _, done, _ = server
    rec = app.state.sessions.games[done].record
    review = _reviewed(client, done)["review"]
    states = [records.Replayer(rec).state.clone()]
    for a in rec.actions:
        s = states[-1].clone()
        s.apply_action(a)
        states.append(s)
    for ply in (0, len(rec.actions) // 2, len(rec.actions)):
        for seat in (0, 1):
            svg = client.get(f"/api/review/{done}/board", params={"seat": seat, "ply": ply}).text
            if not states[ply].is_terminal():
                # the picture depends on what the seat knows only: equal in a world resampled from its view
                assert svg == to_svg(states[ply].resample(seat, 99), seat), (seat, ply)
    d = next(d for d in review["decisions"] if len(d["line"]) >= 1 and d["best"] != d["move"])
    after = states[d["ply"] - 1].clone()
    after.apply_action(d["line"][0])
    r = client.get(f"/api/review/{done}/board", params={"seat": d["player"], "ply": d["ply"] - 1, "line": 1})
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text == to_svg(after, d["player"])
    for bad in ({"ply": len(rec.actions) + 1}, {"ply": -1}, {"seat": 2}, {"ply": 0, "line": 1},
                {"ply": d["ply"] - 1, "line": len(d["line"]) + 1}):
        r = client.get(f"/api/review/{done}/board", params={"seat": 0, **bad})
        assert r.status_code == 400 and r.json()["code"] == "bad_request", bad


def _upload(client, data, name="game.jsonl", index=0):
    return client.post("/api/upload-review", params={"name": name, "index": index}, content=data)


def test_uploaded_records_of_format_1_and_2_are_reviewed(server):
    client, app, _, _, _ = server
    v1_text = (DATA / "records-v1.jsonl").read_bytes()
    v1 = records.read(DATA / "records-v1.jsonl")[1]  # rise_to_power, 3 players, ids only
    r = _upload(client, v1_text, "old.jsonl", index=1)
    assert r.status_code in (200, 202), r.text
    key = r.json()["key"]
    body = _reviewed(client, key, seat=2)
    assert [d["ply"] for d in body["review"]["decisions"]] == _decisions_with_a_choice(v1)
    assert body["source"] == {"file": "old.jsonl", "index": 1} and len(body["labels"]) == 3
    # the same game as a format 2 file is the same upload
    v2 = records.dumps_json(v1).encode() + b"\n"
    assert json.loads(v2)["format"] == 2
    assert _upload(client, v2, "new.jsonl").json()["key"] == key
    assert client.get(f"/api/review/{key}/board", params={"seat": 2, "ply": 5}).text.startswith("<svg")


def test_bad_uploads_are_refused_naming_the_file_and_move_and_nothing_is_kept(server, tmp_path):
    client, app, folder, _, _ = server
    before_files, before_jobs = sorted(os.listdir(folder)), set(app.state.reviews.jobs)
    game = romecore.load_game(GAME, players=2)
    rec = play_game(game, [romecore.make_agent("random", game=game, seed=3)] * 2, seed=3)
    good = json.loads(records.dumps_json(rec))
    # an illegal move: move 9 is given a move that is not the recorded player's to make
    illegal = json.loads(json.dumps(good))
    illegal["moves"][8]["id"] = 10**6
    other = json.loads(json.dumps(good))
    other["tags"]["game"] = "no_such_game"
    cases = {
        "corrupt.jsonl": (b'{"kind": "romecore.record", "format": 2, "tags": {', ["corrupt.jsonl:1: not JSON"]),
        "illegal.jsonl": (json.dumps(illegal).encode(), ["illegal.jsonl", "move 9"]),
        "other.jsonl": (json.dumps(other).encode(), ["other.jsonl", "no_such_game"]),
        "empty.jsonl": (b"", ["empty.jsonl", "no romecore record"]),
        "short.jsonl": (json.dumps(good).encode(), ["short.jsonl", "no record 3"]),
        "huge.jsonl": (b" " * (2 << 20), ["huge.jsonl", "at most"]),
    }
    for name, (data, words) in cases.items():
        r = _upload(client, data, name, index=3 if name == "short.jsonl" else 0)
        assert r.status_code in (400, 413), (name, r.text)
        message = r.json()["message"]
        for w in words:
            assert w in message, (name, message)
    assert sorted(os.listdir(folder)) == before_files and set(app.state.reviews.jobs) == before_jobs


def test_the_review_budget_is_bounded_by_the_servers_think_limit(tmp_path):
    from romecore.spec import parse_agent_spec

    app = create_app(records_dir=str(tmp_path), limits=Limits(max_think=0.2),
                     review=ReviewBudget(agent="ismcts:simulations=100000", time=5.0, worlds=2))
    game = romecore.load_game(GAME, players=2)
    name, params = parse_agent_spec(app.state.reviews.budget.spec(game, app.state.reviews.max_think))
    assert name == "ismcts" and float(params["time"]) == pytest.approx(0.1)  # 0.2 s a decision, over 2 worlds
    assert params.get("workers", "1") == "1"
    default = ReviewBudget().spec(game, 10.0)  # the Strong level, 1 s a decision over 2 worlds
    assert parse_agent_spec(default)[1]["time"] == "0.5"


def test_an_uploaded_records_names_cannot_inject_markup(server):
    client, _, _, _, _ = server
    game = romecore.load_game(GAME, players=2)
    rec = play_game(game, [romecore.make_agent("random", game=game, seed=4)] * 2, seed=4)
    d = json.loads(records.dumps_json(rec))
    d["tags"]["agents"][0]["label"] = '<img src=x onerror="alert(1)">'
    r = _upload(client, json.dumps(d).encode(), "names.jsonl")
    assert r.status_code in (200, 202), r.text
    body = _reviewed(client, r.json()["key"])
    assert body["labels"][0] == d["tags"]["agents"][0]["label"]  # shown as text by the page
    assert "<img" not in body["plot"] and "&lt;img" in body["plot"]  # the graph's legend escapes it


def test_a_restarted_server_reviews_finished_games_from_its_database_only(tmp_path):
    from romecore.web.storage import SQLiteStorage

    db = tmp_path / "games.db"

    def app():
        return create_app(records_dir=None, hint="random", delay=0, limits=Limits(rate=1e9, burst=10**9),
                          review=TINY, storage=SQLiteStorage(db))

    with TestClient(app()) as client:
        done, live = _play(client, 8), _play(client, 9, finish=False)
    with TestClient(app()) as client:  # nothing in memory: both tables are read from the database
        assert client.post(f"/api/review/{live}").json()["code"] == "not_over"
        assert [g["game"] for g in client.get("/api/finished").json()["games"]] == [done]
        assert client.post(f"/api/review/{done}").status_code in (200, 202)
        assert _reviewed(client, done)["review"]["game"] == GAME
        assert not client.app.state.sessions.games  # a review loads no table to play
