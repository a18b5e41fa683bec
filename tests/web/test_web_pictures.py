"""Pictures drawn in worker processes (``romecore serve --picture-workers``) are the pictures
the server's own loop draws: the same view of the same position, byte for byte."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

import pytest

pytest.importorskip("starlette")

import romecore  # noqa: E402
from romecore.picture import PUBLIC, to_svg  # noqa: E402
from romecore.web.sessions import HUMAN, Session, game_key, human_view, worker_view  # noqa: E402
from romecore.web.storage import MemoryStorage, Seat, TableRow  # noqa: E402

GAMES = sorted(romecore.list_games())


def _positions(game_id: str, seed: int, every: int = 7) -> list[romecore.State]:
    state = romecore.load_game(game_id, players=2).new_initial_state(seed=seed)
    rng, out, k = random.Random(seed), [], 0
    while not state.is_terminal():
        if not state.is_chance_node() and k % every == 0:
            out.append(state.clone())
        k += 1
        state.apply_action(state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions()))
    return out


@pytest.mark.parametrize("game_id", GAMES)
def test_a_worker_draws_what_the_loop_draws(game_id):
    state0 = _positions(game_id, 5)[0]
    key = game_key(state0.game)
    for state in _positions(game_id, 5):
        snapshot = state.serialize()
        for seat in range(2):
            assert worker_view(key, snapshot, seat) == human_view(state, seat)
        assert worker_view(key, snapshot, PUBLIC)["svg"] == to_svg(state, PUBLIC)


def _messages(pictures: ProcessPoolExecutor | None, game_id: str, seed: int) -> list[str]:
    """Every state message both seats of one table get along a random game."""

    async def play() -> list[str]:
        got: list[str] = []
        seats = [Seat(HUMAN, HUMAN, HUMAN) for _ in range(2)]
        storage = MemoryStorage()
        session = Session(romecore.load_game(game_id, players=2), seats, seed, delay=0, storage=storage,
                          table_id="0" * 32, pictures=pictures)
        storage.create_table(TableRow(session.id, game_id, seed, seats))
        for seat in (0, 1, None):
            async def send(msg, seat=seat):
                got.append(json.dumps([seat, msg]))
            session.listeners[send] = (seat, None)
        rng = random.Random(seed)
        session.kick()
        await session.task
        for _ in range(12):
            if session.over():
                break
            await session.move(session.state.current_player(), rng.choice(session.state.legal_actions()),
                               session.ply())
            if session.task is not None:
                await session.task
        return got

    return asyncio.run(play())


def test_a_table_sends_the_same_messages_with_picture_workers():
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        state = _positions(GAMES[0], 6)[-1]  # the worker draws (a failed one would leave it to the loop)
        assert pool.submit(worker_view, game_key(state.game), state.serialize(), 1).result() == human_view(state, 1)
        for game_id in GAMES:
            assert _messages(pool, game_id, 3) == _messages(None, game_id, 3)


def test_a_stopped_pool_leaves_the_pictures_to_the_loop():
    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    pool.shutdown()
    assert _messages(pool, GAMES[0], 4) == _messages(None, GAMES[0], 4)
