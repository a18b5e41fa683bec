"""The web load benchmark's core (``bench/web_load.py``) runs: 3 games x 3 moves against an
in-process server, every move answered, nothing lost; and its rooms mode, 2 tables of 2
people with the database on.  No timing is asserted here."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

pytest.importorskip("uvicorn", reason="the web app needs romecore[web] (uvicorn)")
pytest.importorskip("websockets", reason="the load benchmark's clients need websockets")

from scripts_loader import load_script  # noqa: E402

GAMES, MOVES = 3, 3


def test_every_move_is_answered(tmp_path):
    bench = load_script("web_load", "bench")
    plan = bench.default_plan(games=GAMES, moves=MOVES, pace=0.0, seconds=60.0, timeout=30.0)
    with bench.serve_in_thread(str(tmp_path)) as url:
        assert url.startswith("ws://127.0.0.1:")
        load = asyncio.run(bench.run_load(url, plan))
    assert load.errors == [] and load.lost == 0
    assert load.started >= GAMES
    # each client made its moves, in distinct games spread over the installed ones
    assert sorted(s.client for s in load.samples) == sorted(k for k in range(GAMES) for _ in range(MOVES))
    assert len({s.game_id for s in load.samples}) == min(GAMES, len(plan.game_ids))
    for s in load.samples:  # answered: the server's echo of the human's own move, then the turn back
        assert s.echo
        assert 0 < s.answer <= s.turn
    rows = {r["what"]: r for r in bench.summary(load, GAMES)}
    assert rows["answer (server)"]["moves"] == GAMES * MOVES
    assert rows["answer (server)"]["errors"] == 0


TABLES, HUMANS, EACH = 2, 2, 3


def test_rooms_play_through_invitations_into_the_database(tmp_path):
    """Rooms mode: 2 tables of 2 people, each table made by its host, its second seat taken
    through the invitation, 3 moves a person, then a resignation; the tables kept in SQLite.
    The oracle for what was played is the server's own database, read with sqlite3."""
    bench = load_script("web_load", "bench")
    plan = bench.default_plan(tables=TABLES, humans=HUMANS, moves=EACH, pace=0.0, seconds=60.0, timeout=30.0)
    db = tmp_path / "tables.db"
    with bench.serve_in_thread(str(tmp_path / "records"), db=str(db)) as url:
        load = asyncio.run(bench.run_rooms(url, plan))
    assert load.errors == [] and load.lost == 0
    moves = TABLES * HUMANS * EACH
    assert len(load.samples) == moves and all(s.echo and s.answer > 0 for s in load.samples)
    assert len(load.relays) == moves * (HUMANS - 1)  # every move reached the other seat too
    assert len(load.joins) == load.started * (HUMANS - 1) and load.resigned == TABLES
    with sqlite3.connect(db) as con:
        tables = con.execute("SELECT id, status, record IS NOT NULL FROM tables").fetchall()
        seats = con.execute("SELECT COUNT(*) FROM seats WHERE kind = 'human' AND token_hash IS NOT NULL").fetchone()
        played = con.execute("SELECT player, COUNT(*) FROM moves WHERE player >= 0 GROUP BY player").fetchall()
    assert len(tables) == load.started and all(status == "over" and record for _, status, record in tables)
    assert seats == (load.started * HUMANS,)  # every seat taken, each with its own token
    assert sum(n for _, n in played) == moves and {p for p, _ in played} == set(range(HUMANS))
    rows = {r["what"]: r for r in bench.summary(load, TABLES)}
    assert rows["answer (server)"]["moves"] == rows["relay (other seats)"]["moves"] == moves
