"""The web load benchmark's core (``bench/web_load.py``) runs: 3 games x 3 moves against an
in-process server, every move answered, nothing lost.  No timing is asserted here."""

from __future__ import annotations

import asyncio

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
