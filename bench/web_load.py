"""Load test of the web app: N concurrent games over websockets against one server.

Starts ``romecore serve`` in its own process (agent delay 0, ``random`` opponents), opens N
websocket clients at once, each playing a whole 2-player game (games cycled over the
installed ones) with random moves, and reports:

- answer latency: a human move sent -> the server's state message for it (the page's
  answer, before any agent thinks; target <= 50 ms plus thinking time);
- turn latency: a human move sent -> the human's next turn (agents' moves and chance in
  between; random agents think for microseconds);
- the state message's build time on the server per state (the human's view: picture,
  moves, log, JSON; target for the render <= 5 ms), measured in this process;
- games finished, moves per second.

    python bench/web_load.py [--games 50] [--think 0.2] [--port 8765]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

import romecore


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def _game(url: str, game_id: str, seed: int, answer: list[float], turn: list[float],
                think: float) -> dict:
    import websockets

    rng = random.Random(seed)
    async with websockets.connect(url, max_size=1 << 24) as ws:
        await ws.recv()  # hello
        await ws.send(json.dumps({"type": "new", "game_id": game_id, "players": 2, "seat": 0,
                                  "agents": ["random"], "seed": seed, "delay": 0}))
        while True:
            m = json.loads(await ws.recv())
            if m["type"] == "error":
                raise RuntimeError(m)
            if m["type"] == "state" and (m["moves"] or m["over"]):
                break
        moves = 0
        while not m["over"]:
            ply = m["ply"]
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))  # a person reading the board
            t0 = time.perf_counter()
            await ws.send(json.dumps({"type": "move", "game": m["game"], "action": rng.choice(m["moves"])["id"],
                                      "ply": ply}))
            first = True
            while True:
                m = json.loads(await ws.recv())
                if m["type"] == "error":
                    raise RuntimeError(m)
                if m["type"] != "state" or m["ply"] <= ply:
                    continue
                if first:
                    answer.append(time.perf_counter() - t0)
                    first = False
                if m["moves"] or m["over"]:
                    turn.append(time.perf_counter() - t0)
                    break
            moves += 1
        return {"game": game_id, "moves": moves, "returns": m["result"]["returns"]}


async def _load(url: str, n: int, think: float) -> tuple[list[dict], list[float], list[float], float]:
    games = sorted(romecore.list_games())
    answer: list[float] = []
    turn: list[float] = []
    t0 = time.perf_counter()
    done = await asyncio.gather(*(_game(url, games[i % len(games)], 1000 + i, answer, turn, think) for i in range(n)))
    return list(done), answer, turn, time.perf_counter() - t0


def _build_times() -> dict[str, float]:
    """Mean milliseconds to build the human's state message, per game, along random games."""
    from romecore.web.sessions import Session

    out = {}
    for game_id in sorted(romecore.list_games()):
        game = romecore.load_game(game_id, players=2)
        session = Session(game, 0, ["human", "random"], seed=3, delay=0)
        rng, times = random.Random(3), []
        state = session.state
        while not state.is_terminal():
            if state.is_chance_node():
                session._apply(-1, state.sample_chance())
                continue
            t0 = time.perf_counter()
            json.dumps(session.update())
            times.append(time.perf_counter() - t0)
            session._apply(state.current_player(), rng.choice(state.legal_actions()))
        out[game_id] = 1000 * statistics.mean(times)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description="load test of romecore serve")
    ap.add_argument("--games", type=int, default=50)
    ap.add_argument("--port", type=int, default=8765)
    ap.add_argument("--think", type=float, default=0.0,
                    help="mean seconds each client waits before a move (0: moves at once, a stress test)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-c", "from romecore.cli.serve import command; command()", "--port", str(args.port),
             "--records", folder, "--delay", "0", "--hint", "random", "--max-games", str(args.games + 10)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            assert server.stdout is not None
            server.stdout.readline()  # the "romecore serve: URL" line
            time.sleep(1.0)  # uvicorn binding
            done, answer, turn, wall = asyncio.run(_load(f"ws://127.0.0.1:{args.port}/ws", args.games, args.think))
            saved = len(os.listdir(folder))
        finally:
            server.terminate()
            server.wait(10)
    moves = sum(d["moves"] for d in done)
    print(f"{len(done)} concurrent games finished in {wall:.1f} s ({saved} records saved), "
          f"{moves} human moves, {moves / wall:.0f} human moves/s over all games")
    for name, xs in (("answer", answer), ("turn", turn)):
        ms = [1000 * x for x in xs]
        print(f"{name} latency: median {statistics.median(ms):.1f} ms, p95 {_pct(ms, 0.95):.1f} ms, "
              f"p99 {_pct(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
    for game_id, ms in _build_times().items():
        print(f"state message build (render + moves + JSON), {game_id}: {ms:.2f} ms")
    return 0 if len(done) == args.games and saved == args.games else 1


if __name__ == "__main__":
    sys.exit(main())
