"""Pictures drawn in worker processes (``romecore serve --picture-workers``) are the pictures
the server's own loop draws: the same view of the same position, byte for byte."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from typing import Any

import pytest

pytest.importorskip("starlette")

import romecore  # noqa: E402
from romecore.picture import PUBLIC, to_svg  # noqa: E402
from romecore.web.sessions import (  # noqa: E402
    HUMAN,
    SVG_CUT,
    Session,
    game_key,
    held_pieces,
    human_view,
    svg_delta,
    svg_pieces,
    worker_views,
)
from romecore.web.storage import MemoryStorage, Seat, TableRow  # noqa: E402
from romecore.web.workers import WorkerError, Workers  # noqa: E402

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
        seat0, public, seat1 = worker_views(key, snapshot, [0, PUBLIC, 1])
        for (view, cut), want in ((seat0, human_view(state, 0)), (seat1, human_view(state, 1)),
                                  (public, {"svg": to_svg(state, PUBLIC), "moves": []})):
            assert view == {"moves": want["moves"]}
            assert SVG_CUT.join(cut[0]) == want["svg"] and cut == svg_pieces(want["svg"])


def _messages(pictures: Workers | None, game_id: str, seed: int) -> list[Any]:
    """Every state message both seats of one table get along a random game."""

    async def play() -> list[Any]:
        got: list[Any] = []
        seats = [Seat(HUMAN, HUMAN, HUMAN) for _ in range(2)]
        storage = MemoryStorage()
        session = Session(romecore.load_game(game_id, players=2), seats, seed, delay=0, storage=storage,
                          table_id="0" * 32, pictures=pictures)
        storage.create_table(TableRow(session.id, game_id, seed, seats))
        for seat, delta in ((0, False), (1, False), (None, False), (0, True)):
            async def send(msg, seat=seat, delta=delta):
                got.append(json.loads(json.dumps([seat, delta, msg])))  # as the page reads it
            session.listeners[send] = (seat, None)
            if delta:  # a page that takes deltas (its first picture comes whole)
                session.deltas.add(send)
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
    workers = Workers(1)
    try:
        state = _positions(GAMES[0], 6)[-1]  # the worker draws (a failed one would leave it to the loop)
        (view, cut), = asyncio.run(workers.call(worker_views, game_key(state.game), state.serialize(), [1]))
        assert (view, SVG_CUT.join(cut[0])) == ({"moves": human_view(state, 1)["moves"]}, human_view(state, 1)["svg"])
        for game_id in GAMES:
            assert _messages(workers, game_id, 3) == _messages(None, game_id, 3)
        assert workers.alive == 1
    finally:
        workers.close()


def test_stopped_or_dead_workers_leave_the_pictures_to_the_loop():
    stopped = Workers(1)
    stopped.close()
    assert _messages(stopped, GAMES[0], 4) == _messages(None, GAMES[0], 4)
    dead = Workers(1)
    try:
        os.kill(dead.pids[0], signal.SIGKILL)
        assert _messages(dead, GAMES[1], 4) == _messages(None, GAMES[1], 4)
        assert dead.alive == 0
        with pytest.raises(WorkerError, match="no picture worker"):
            asyncio.run(dead.call(os.getpid))
    finally:
        dead.close()


def test_a_worker_says_what_failed_and_goes_on():
    workers = Workers(2)
    try:
        async def calls() -> list[Any]:
            return await asyncio.gather(workers.call(int, "x"), workers.call(int, "12"),
                                        *[workers.call(os.getpid) for _ in range(6)], return_exceptions=True)

        failed, twelve, *pids = asyncio.run(calls())
        assert isinstance(failed, WorkerError) and "ValueError" in str(failed)
        assert twelve == 12
        assert set(pids) == set(workers.pids) and os.getpid() not in pids  # both workers, not this process
        assert workers.alive == 2
    finally:
        workers.close()
    assert workers.alive == 0


def _rebuild(held: list[str], parts: list) -> str:
    """What the bundled page does with ``svg_parts`` (app.js, wholeSvg)."""
    out: list[str] = []
    for part in parts:
        out.extend([part] if isinstance(part, str) else held[part[0]:part[0] + part[1]])
    return SVG_CUT.join(out)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_page_that_asks_for_deltas_rebuilds_every_picture(game_id):
    async def play() -> tuple[list[dict], list[dict]]:
        seats = [Seat(HUMAN, HUMAN, HUMAN) for _ in range(2)]
        storage = MemoryStorage()
        session = Session(romecore.load_game(game_id, players=2), seats, 8, delay=0, storage=storage)
        storage.create_table(TableRow(session.id, game_id, 8, seats))
        whole: list[dict] = []
        delta: list[dict] = []

        async def to_whole(msg):
            whole.append(msg)

        async def to_delta(msg):
            delta.append(msg)

        session.listeners[to_whole] = (1, None)
        session.listeners[to_delta] = (1, None)
        session.deltas.add(to_delta)
        first = session.update(1)
        session.sent_whole(to_delta, first)
        delta.append(first)
        rng = random.Random(8)
        session.kick()
        await session.task
        while not session.over() and len(whole) < 25:
            await session.move(session.state.current_player(), rng.choice(session.state.legal_actions()),
                               session.ply())
            if session.task is not None:
                await session.task
        return whole, delta

    whole, delta = asyncio.run(play())
    assert len(delta) == len(whole) + 1 > 10
    held = delta[0]["svg"].split(SVG_CUT)
    saved = 0
    pieces: dict[int, str] = {}  # each fingerprint and the piece it was made from
    for w, d in zip(whole, delta[1:]):
        assert "svg" not in d and "svg" in w
        svg = _rebuild(held, d["svg_parts"])
        assert svg == w["svg"]
        assert {k: v for k, v in d.items() if k != "svg_parts"} == {k: v for k, v in w.items() if k != "svg"}
        held = svg.split(SVG_CUT)
        saved += len(w["svg"]) - len(json.dumps(d["svg_parts"]))
        for piece, mark in zip(*svg_pieces(svg)):
            assert pieces.setdefault(mark, piece) == piece  # one piece a fingerprint
    assert saved > 0  # deltas are smaller than the pictures
    assert len(pieces) > 50


def test_svg_delta_names_new_pieces_and_runs_of_held_ones():
    held = held_pieces(svg_pieces(SVG_CUT.join(["a", "b", "c", "d"])))
    assert svg_delta(svg_pieces(SVG_CUT.join(["a", "b", "x", "c", "d", "a"])), held) == [[0, 2], "x", [2, 2], [0, 1]]
    assert svg_delta(svg_pieces("y"), held) == ["y"] and svg_delta(([], []), held) == []
    assert len(set(svg_pieces(SVG_CUT.join(["ab", "ba", "a", "b", ""]))[1])) == 5  # distinct pieces, distinct prints


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError), open(f"/proc/{entry}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
    return out


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process tree from /proc")
def test_picture_workers_end_with_a_killed_server(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-c", "from romecore.cli import main; main()", "serve", "--port",
                               str(port), "--records", str(tmp_path), "--picture-workers", "2"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.2)
            workers = [p for p in _children(server.pid) if b"spawn_main" in open(f"/proc/{p}/cmdline", "rb").read()]
        assert len(workers) == 2
    finally:
        server.kill()  # kill -9: nothing stops the pool
        server.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(os.path.exists(f"/proc/{p}") for p in workers):
        time.sleep(0.2)
    left = [p for p in workers if os.path.exists(f"/proc/{p}")]
    for p in left:
        os.kill(p, signal.SIGKILL)
    assert not left, "picture workers outlived their server"
