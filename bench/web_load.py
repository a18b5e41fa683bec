"""Load test of the web app: N concurrent games over websockets against one ``romecore serve``.

Starts the real app on uvicorn on 127.0.0.1 (``romecore serve --delay 0`` in its own process,
or in a thread of this one with ``--in-process``), opens N websocket clients at once, each
starting its own 2-player game (clients spread over the installed games) against ``random``
(or ``--agent SPEC``), and has each play random legal moves from its ``state`` messages at a
person's pace (``--pace`` seconds between moves, jittered) for ``--moves`` moves or
``--seconds`` seconds, starting a new game whenever one ends.  Per human move it measures:

- **answer**: the ``move`` sent -> the ``state`` message that reflects it (the first with
  ``ply`` > the ply the move answered; the server echoes the human's own move at once,
  before any agent thinks): the server's own latency.  Issue 53's target: median <= 50 ms
  with 50 games.
- **turn**: the ``move`` sent -> the human's next turn (the agents' replies and chance in
  between): the answer plus the AI's thinking.

It prints a table (games, moves measured, median, p90, p99, max in ms, errors), the server's
CPU use, and writes everything as JSON with ``--out``; it exits 1 if any socket errored or
any game was lost (no answer within ``--timeout``, an ``error`` message, a closed socket, a
client still waiting ``--timeout`` after ``--seconds``), or if no move was measured.

Where the time goes: ``--breakdown`` times the parts of one ``state`` message along random
games in this process (picture, move texts, board keys, the log's rounds, JSON, deflate);
``--profile FILE`` runs the server under cProfile and prints its top functions.

    python bench/web_load.py [--games 50] [--moves 30] [--pace 0.2] [--agent random] [--out r.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import romecore

HOST = "127.0.0.1"
#: The server's largest incoming frame, as ``romecore serve`` sets it.
WS_MAX_SIZE = 1 << 16


# -- what one run measures ---------------------------------------------------------------------
@dataclass
class Sample:
    """One human move: its game, the ply it answered, and the two latencies (seconds)."""

    client: int
    game_id: str
    ply: int
    answer: float
    turn: float
    echo: bool  # the first state after the move was the human's own move (ply + 1)
    plies: int = 0  # actions from the move to the human's next turn (the move, chance, the AI's)
    states: int = 0  # state messages received for them


@dataclass
class Load:
    """Everything a run saw: the moves, the games started and finished, and what went wrong."""

    samples: list[Sample] = field(default_factory=list)
    starts: list[float] = field(default_factory=list)  # ``new`` sent -> the first state (seconds)
    started: int = 0
    finished: int = 0
    lost: int = 0
    errors: list[str] = field(default_factory=list)
    messages: int = 0
    bytes: int = 0
    wall: float = 0.0


class LoadError(RuntimeError):
    """The server answered with an error, closed the socket, or stayed silent too long."""


async def _recv(ws: Any, load: Load, timeout: float) -> dict[str, Any]:
    """The next message (counted), or :class:`LoadError` on silence, an error or a close."""
    try:
        text = await asyncio.wait_for(ws.recv(), timeout)
    except TimeoutError:
        raise LoadError(f"no message in {timeout:g} s") from None
    except Exception as e:  # the socket closed
        raise LoadError(f"socket: {type(e).__name__}: {e}") from None
    load.messages += 1
    load.bytes += len(text)
    msg = json.loads(text)
    if msg.get("type") == "error":
        raise LoadError(f"server error {msg.get('code')}: {msg.get('message')}")
    return msg


def _my_turn(msg: dict[str, Any]) -> bool:
    return msg["type"] == "state" and (msg["over"] or bool(msg["moves"]))


async def _play(ws: Any, client: int, game_id: str, seed: int, plan: argparse.Namespace, load: Load,
                rng: random.Random, deadline: float, budget: int) -> tuple[int, bool]:
    """One game on an open socket, until it ends, ``budget`` moves are made or the deadline
    passes; returns (moves made, whether the game ended)."""
    t0 = time.perf_counter()
    await ws.send(json.dumps({"type": "new", "game_id": game_id, "players": 2, "seat": 0,
                              "agents": [plan.agent], "seed": seed, "delay": 0}))
    load.started += 1
    msg = await _recv(ws, load, plan.timeout)
    load.starts.append(time.perf_counter() - t0)
    while not _my_turn(msg):
        msg = await _recv(ws, load, plan.timeout)
    made = 0
    while not msg["over"] and made < budget and time.perf_counter() < deadline:
        if plan.pace > 0:  # a person reading the board
            await asyncio.sleep(rng.uniform(0.5, 1.5) * plan.pace)
        ply = msg["ply"]
        t0 = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "game": msg["game"], "token": msg["token"],
                                  "action": rng.choice(msg["moves"])["id"], "ply": ply}))
        answer = echo = None
        states = 0
        while True:
            msg = await _recv(ws, load, plan.timeout)
            if msg["type"] != "state" or msg["ply"] <= ply:
                continue
            states += 1
            if answer is None:
                answer, echo = time.perf_counter() - t0, msg["ply"] == ply + 1
            if _my_turn(msg):
                break
        load.samples.append(Sample(client, game_id, ply, answer, time.perf_counter() - t0, echo,
                                   msg["ply"] - ply, states))
        made += 1
    return made, bool(msg["over"])


async def _client(url: str, client: int, plan: argparse.Namespace, load: Load, deadline: float) -> None:
    """One page: plays games one after another (its first game is ``games[client % len]``)
    until it made ``plan.moves`` moves or the deadline passed; an error loses its game."""
    import websockets

    rng = random.Random(plan.seed * 100003 + client)
    made = 0
    try:
        async with websockets.connect(url, max_size=None, proxy=None, open_timeout=plan.timeout,
                                      compression=None if plan.no_deflate else "deflate") as ws:
            hello = await _recv(ws, load, plan.timeout)
            if hello.get("type") != "hello":
                raise LoadError(f"expected hello, got {str(hello)[:80]}")
            g = 0
            while made < plan.moves and time.perf_counter() < deadline:
                game_id = plan.game_ids[(client + g) % len(plan.game_ids)]
                n, over = await _play(ws, client, game_id, plan.seed + client + 1000 * g, plan, load, rng,
                                      deadline, plan.moves - made)
                made += n
                load.finished += over
                g += 1
    except LoadError as e:
        load.lost += 1
        load.errors.append(f"client {client}: {e}")
    except Exception as e:  # could not connect, or a bug of ours: counted, never hidden
        load.lost += 1
        load.errors.append(f"client {client}: {type(e).__name__}: {e}")


async def run_load(url: str, plan: argparse.Namespace) -> Load:
    """The benchmark's core: ``plan.games`` clients at once against the server at ``url``
    (``ws://host:port/ws``); bounded by ``plan.moves`` moves a client and ``plan.seconds``."""
    load = Load()
    t0 = time.perf_counter()
    deadline = t0 + plan.seconds
    await asyncio.gather(*(_bounded(_client(url, k, plan, load, deadline), k, plan, load) for k in range(plan.games)))
    load.wall = time.perf_counter() - t0
    return load


async def _bounded(client: Any, k: int, plan: argparse.Namespace, load: Load) -> None:
    """A client cut off once the run's time and one timeout beyond are spent (a server that
    keeps talking without ever giving the turn back would otherwise hold it forever)."""
    try:
        await asyncio.wait_for(client, plan.seconds + plan.timeout)
    except TimeoutError:
        load.lost += 1
        load.errors.append(f"client {k}: still waiting {plan.seconds + plan.timeout:g} s after the start")


def default_plan(**changes: Any) -> argparse.Namespace:
    """The command line's defaults, with ``changes`` (the smoke test's small runs)."""
    plan = _parser().parse_args([])
    for k, v in changes.items():
        if not hasattr(plan, k):
            raise TypeError(f"no setting {k!r}")
        setattr(plan, k, v)
    if not plan.game_ids:
        plan.game_ids = sorted(romecore.list_games())
    return plan


# -- the server ----------------------------------------------------------------------------------
def _free_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((HOST, 0))
    return sock


@contextlib.contextmanager
def serve_in_thread(records_dir: str, max_games: int = 200) -> Iterator[str]:
    """The app on uvicorn in a thread of this process (as ``romecore serve`` configures
    it); yields the websocket URL; stops the server on leaving."""
    import uvicorn

    from romecore.web.app import create_app
    from romecore.web.limits import Limits

    app = create_app(records_dir=records_dir, hint="random", delay=0, limits=Limits(max_games=max_games))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", ws_max_size=WS_MAX_SIZE))
    sock = _free_socket()
    port = sock.getsockname()[1]
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        for _ in range(300):  # at most 30 s
            if server.started or not thread.is_alive():
                break
            time.sleep(0.1)
        if not server.started:
            raise RuntimeError("the in-process server did not start")
        yield f"ws://{HOST}:{port}/ws"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


#: Runs ``romecore serve`` (argv[1:]) in a subprocess, under cProfile when ROMECORE_PROFILE names
#: a file; SIGINT stops uvicorn gracefully, then the profile is written.
_SERVER = """
import cProfile, os, sys
from romecore.cli.serve import command
out = os.environ.get("ROMECORE_PROFILE")
prof = cProfile.Profile() if out else None
if prof: prof.enable()
try:
    command.main(sys.argv[1:], prog_name="romecore serve", standalone_mode=False)
except BaseException:
    pass
finally:
    if prof:
        prof.disable()
        prof.dump_stats(out)
"""


def _wait_listening(port: int, proc: subprocess.Popen, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise RuntimeError(f"romecore serve exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), timeout=1):
            return
        time.sleep(0.1)
    raise RuntimeError(f"romecore serve did not listen on port {port} within {seconds:g} s")


@contextlib.contextmanager
def serve_subprocess(records_dir: str, max_games: int = 200, profile: str | None = None) -> Iterator[tuple[str, int]]:
    """``romecore serve --port P --records DIR --delay 0`` in its own process on a free port;
    yields (websocket URL, process id); stops it with SIGINT on leaving."""
    sock = _free_socket()
    port = sock.getsockname()[1]
    sock.close()  # the server binds it again at once (loopback, a race only with other tests)
    env = dict(os.environ)
    if profile:
        env["ROMECORE_PROFILE"] = os.path.abspath(profile)
    proc = subprocess.Popen([sys.executable, "-c", _SERVER, "--host", HOST, "--port", str(port), "--records",
                             records_dir, "--delay", "0", "--hint", "random", "--max-games", str(max_games)],
                            stdout=subprocess.DEVNULL, env=env)
    try:
        _wait_listening(port, proc)
        yield f"ws://{HOST}:{port}/ws", proc.pid
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)


def cpu_seconds(pid: int) -> float | None:
    """The process's user + system CPU time (Linux ``/proc``; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


# -- the figures -----------------------------------------------------------------------------------
def percentile(xs: list[float], q: float) -> float:
    """The nearest-rank percentile (q in 0..1) of ``xs``; NaN when empty.

    >>> percentile([1, 2, 3, 4], 0.5), percentile([1, 2, 3, 4], 0.9), percentile([5], 0.99)
    (2, 4, 5)
    """
    if not xs:
        return math.nan
    xs = sorted(xs)
    return xs[max(0, math.ceil(q * len(xs)) - 1)]


def _row(label: str, games: int, xs: list[float], errors: int) -> dict[str, Any]:
    ms = [1000 * x for x in xs]
    row: dict[str, Any] = {"what": label, "games": games, "moves": len(ms), "errors": errors}
    for key, value in (("median_ms", statistics.median(ms) if ms else None), ("p90_ms", percentile(ms, 0.90)),
                       ("p99_ms", percentile(ms, 0.99)), ("max_ms", max(ms) if ms else None)):
        row[key] = None if value is None or math.isnan(value) else round(value, 2)
    return row


def summary(load: Load, games: int) -> list[dict[str, Any]]:
    """The table's rows: answer and turn over all games, then the answer per game."""
    errors = len(load.errors)
    rows = [_row("answer (server)", games, [s.answer for s in load.samples], errors),
            _row("turn (+ AI)", games, [s.turn for s in load.samples], errors),
            _row("new game", games, load.starts, errors)]
    for gid in sorted({s.game_id for s in load.samples}):
        xs = [s.answer for s in load.samples if s.game_id == gid]
        rows.append(_row(f"answer {gid}", len({s.client for s in load.samples if s.game_id == gid}), xs, 0))
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    print(f"{'ms':<32} {'games':>5} {'moves':>6} {'median':>8} {'p90':>8} {'p99':>8} {'max':>8} {'errors':>6}")
    for r in rows:
        ms = " ".join(f"{r[k]:>8.1f}" if r[k] is not None else f"{'-':>8}"
                      for k in ("median_ms", "p90_ms", "p99_ms", "max_ms"))
        print(f"{r['what']:<32} {r['games']:>5} {r['moves']:>6} {ms} {r['errors']:>6}")


# -- where the time goes ---------------------------------------------------------------------------
def _timed(fn: Any) -> tuple[float, Any]:
    """Milliseconds of this thread's CPU time ``fn()`` took (CPU, not wall: the machine is
    shared, and a wall clock would count other processes' turns), and its result."""
    t0 = time.thread_time()
    out = fn()
    return 1000 * (time.thread_time() - t0), out


def _deflate(text: str) -> bytes:
    """The message as permessage-deflate sends it (uvicorn's settings: memLevel 5)."""
    z = zlib.compressobj(wbits=-zlib.MAX_WBITS, memLevel=5)
    return z.compress(text.encode()) + z.flush(zlib.Z_SYNC_FLUSH)


def message_parts(session: Any) -> dict[str, float]:
    """What one ``state`` message of ``session`` costs, part by part, each timed by calling
    the web app's own functions: milliseconds (the whole ``update()``, the picture, the move
    texts, the board keys, one observation read as a log line's round, JSON, deflate) and
    sizes in KB (the message, its picture, its log, deflated)."""
    from romecore.web import sessions as web

    state, seat = session.state, session.seat
    legal = state.legal_actions() if state.current_player() == seat else []
    ms = {"update": _timed(session.update)[0], "svg": _timed(lambda: web.render_svg(state, seat))[0],
          "texts": _timed(lambda: [state.action_to_string(a) for a in legal])[0],
          "targets": _timed(lambda: [web._targets(state, a) for a in legal])[0],
          "round": _timed(lambda: web._round(state, seat))[0]}
    msg = session.update()
    ms["json"], text = _timed(lambda: json.dumps(msg))
    ms["deflate"], packed = _timed(lambda: _deflate(text))
    kb = {"kb": len(text), "svg_kb": len(msg["svg"]), "log_kb": len(json.dumps(msg["log"])), "deflated_kb": len(packed)}
    return ms | {k: v / 1000 for k, v in kb.items()}


def breakdown(game_ids: list[str], seed: int = 3) -> dict[str, dict[str, float]]:
    """The median of :func:`message_parts` over the human's decisions in one random
    2-player game per game (the human at seat 0, random moves for both seats)."""
    from romecore.web.sessions import Session

    out = {}
    for game_id in game_ids:
        session = Session(romecore.load_game(game_id, players=2), 0, ["human", "random"], seed=seed, delay=0)
        rng, state = random.Random(seed), session.state
        rows = []
        while not state.is_terminal():
            if state.is_chance_node():
                session._apply(-1, state.sample_chance())
                continue
            if state.current_player() == 0:
                rows.append(message_parts(session))
            session._apply(state.current_player(), rng.choice(state.legal_actions()))
        out[game_id] = {k: round(statistics.median(r[k] for r in rows), 3) for k in rows[0]}
        out[game_id]["human_moves"] = len(rows)
    return out


def print_profile(path: str, top: int) -> None:
    import pstats

    stats = pstats.Stats(path)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)


# -- the command -----------------------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description="load test of romecore serve: N concurrent games over websockets")
    ap.add_argument("--games", type=int, default=50, help="concurrent clients, each playing its own game")
    ap.add_argument("--moves", type=int, default=30, help="human moves each client makes (new games as needed)")
    ap.add_argument("--seconds", type=float, default=120.0, help="stop every client after this long")
    ap.add_argument("--pace", type=float, default=0.2,
                    help="mean seconds between a client's moves (a person's pace; uniform 0.5x..1.5x; 0: at once)")
    ap.add_argument("--agent", default="random", help="the opponent's spec (random: the server's own latency)")
    ap.add_argument("--game", dest="game_ids", action="append", default=[],
                    help="a game to play (repeatable; default: all installed, spread over the clients)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds without a message that lose a game")
    ap.add_argument("--no-deflate", action="store_true",
                    help="no permessage-deflate (browsers ask for it, so it is on by default)")
    ap.add_argument("--in-process", action="store_true",
                    help="run uvicorn in a thread of this process (shares its GIL with the clients)")
    ap.add_argument("--profile", metavar="FILE", help="run the server under cProfile, write FILE, print its top")
    ap.add_argument("--profile-top", type=int, default=25)
    ap.add_argument("--breakdown", action="store_true", help="also time the parts of a state message here")
    ap.add_argument("--out", metavar="JSON", help="write the settings, table, samples and errors here")
    return ap


def main(argv: list[str] | None = None) -> int:
    plan = _parser().parse_args(argv)
    plan.game_ids = plan.game_ids or sorted(romecore.list_games())
    load_before = os.getloadavg()
    server_cpu = None
    with tempfile.TemporaryDirectory() as folder:
        max_games = 2 * plan.games + 10
        if plan.in_process:
            if plan.profile:
                raise SystemExit("--profile runs the server in its own process: drop --in-process")
            with serve_in_thread(folder, max_games) as url:
                load = asyncio.run(run_load(url, plan))
        else:
            with serve_subprocess(folder, max_games, plan.profile) as (url, pid):
                cpu0 = cpu_seconds(pid)
                load = asyncio.run(run_load(url, plan))
                cpu1 = cpu_seconds(pid)
                if cpu0 is not None and cpu1 is not None:
                    server_cpu = cpu1 - cpu0
    load_after = os.getloadavg()
    rows = summary(load, plan.games)
    moves = len(load.samples)
    print(f"{plan.games} clients, {moves} human moves in {load.wall:.1f} s ({moves / max(load.wall, 1e-9):.0f}/s), "
          f"{load.started} games started, {load.finished} finished, {load.lost} lost; "
          f"{load.messages} messages, {load.bytes / max(load.messages, 1) / 1000:.1f} KB each")
    if moves:
        print(f"per human move: {statistics.mean(s.states for s in load.samples):.2f} state messages, "
              f"{statistics.mean(s.plies for s in load.samples):.2f} plies to the next turn (mean)")
    if server_cpu is not None:
        print(f"server CPU {server_cpu:.1f} s over {load.wall:.1f} s ({100 * server_cpu / load.wall:.0f}% of one "
              f"core), {1000 * server_cpu / max(moves, 1):.1f} ms a human move")
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after ({os.cpu_count()} CPUs)")
    print_table(rows)
    for e in load.errors[:10]:
        print("error:", e)
    parts = breakdown(plan.game_ids) if plan.breakdown else None
    if parts:
        print("state message parts, median at the human's decisions (ms; *_kb: KB):")
        for gid, p in parts.items():
            print(f"  {gid}: " + ", ".join(f"{k} {v:g}" for k, v in p.items()))
    if plan.profile:
        print_profile(plan.profile, plan.profile_top)
    if plan.out:
        settings = {k: v for k, v in vars(plan).items() if k != "out"}
        with open(plan.out, "w") as f:
            json.dump({"settings": settings, "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                       "machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                                   "python": platform.python_version(), "loadavg_before": load_before,
                                   "loadavg_after": load_after},
                       "wall_s": load.wall, "server_cpu_s": server_cpu, "started": load.started,
                       "finished": load.finished, "lost": load.lost, "messages": load.messages, "bytes": load.bytes,
                       "table": rows, "breakdown": parts, "errors": load.errors,
                       "samples": [asdict(s) for s in load.samples]}, f, indent=1)
    return 1 if load.errors or load.lost or not load.samples else 0


if __name__ == "__main__":
    sys.exit(main())
