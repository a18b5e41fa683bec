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

**Rooms** (issue 55): ``--tables N --humans 2`` seats people together instead.  Each table
is made by a host (``new`` with ``"seats": ["host", "open"]``); the other player takes the
open seat through the invitation code (``join`` with ``invite``), and each acts with its own
seat token.  Whoever is to move moves ``--pace`` seconds (jittered) after the turn comes.
A table plays ``--moves`` moves a player; then the player to move resigns.  A game that ends
sooner is followed by a new one at the same table (a new invitation).  ``--db`` keeps the
tables in SQLite (a temporary file), as ``romecore serve --db`` does.  Per move it measures
the **answer** (the ``move`` sent -> the mover's ``state`` echoing it) and the **relay**
(-> the other players' ``state`` with it); a table is lost on any error, silence past
``--timeout``, a closed socket, or a game that never ends.  Issue 55's target: 100 tables
of 2 people, moves every ~0.2 s, database on: median answer <= 50 ms, p99 <= 250 ms,
nothing lost.

The clients' sockets come from several loopback addresses (127.0.1.1, 127.0.1.2, ...;
``--per-address`` sockets each, 0: all from 127.0.0.1), as a game night's guests come from
several homes: the server's limits per address stay as shipped.

Where the time goes: ``--breakdown`` times the parts of one ``state`` message along random
games in this process (picture, move texts, board keys, the log's rounds, JSON, deflate);
``--profile FILE`` runs the server under cProfile and prints its top functions.

    python bench/web_load.py [--games 50] [--moves 30] [--pace 0.2] [--agent random] [--out r.json]
    python bench/web_load.py --tables 100 --humans 2 --pace 0.2 --db [--moves 30] [--out r.json]
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
    seat: int = 0


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
    relays: list[float] = field(default_factory=list)  # rooms: a move sent -> another seat's state with it
    joins: list[float] = field(default_factory=list)  # rooms: ``join`` with an invitation -> its state
    resigned: int = 0  # rooms: games ended by the budget's resignation (the others ended by the rules)
    server_main_cpu: float = 0.0  # the server's own process (its event loop), without its picture workers


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
    if msg.get("type") == "state":
        _whole_svg(ws, msg)
    return msg


#: Each socket's last picture (by ``id(ws)``): its table and its pieces, for ``svg_parts``.
_PICTURES: dict[int, tuple[str, list[str]]] = {}


def _whole_svg(ws: Any, msg: dict[str, Any]) -> None:
    """Rebuilds a picture sent as a delta (``svg_parts``), as the bundled page does."""
    parts = msg.pop("svg_parts", None)
    if parts is not None:
        game, pieces = _PICTURES.get(id(ws), (None, []))
        if game != msg["game"]:
            raise LoadError("a picture delta for a table whose picture this socket does not hold")
        out: list[str] = []
        for part in parts:
            out.extend([part] if isinstance(part, str) else pieces[part[0]:part[0] + part[1]])
        msg["svg"] = "<g ".join(out)
    _PICTURES[id(ws)] = msg["game"], msg["svg"].split("<g ")


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
        load.samples.append(Sample(client, game_id, ply, answer, time.perf_counter() - t0, bool(echo),
                                   msg["ply"] - ply, states))
        made += 1
    return made, bool(msg["over"])


async def _client(url: str, client: int, plan: argparse.Namespace, load: Load, deadline: float) -> None:
    """One page: plays games one after another (its first game is ``games[client % len]``)
    until it made ``plan.moves`` moves or the deadline passed; an error loses its game."""

    rng = random.Random(plan.seed * 100003 + client)
    made = 0
    try:
        async with _connect(url, client, plan) as ws:
            await _hello(ws, load, plan)
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


def source_address(socket_index: int, per_address: int) -> str:
    """The loopback address the ``socket_index``-th socket comes from: ``per_address``
    sockets share one (127.0.1.1, 127.0.1.2, ...); 0: all from 127.0.0.1.

    >>> source_address(0, 10), source_address(9, 10), source_address(10, 10), source_address(2600, 10)
    ('127.0.1.1', '127.0.1.1', '127.0.1.2', '127.0.2.11')
    >>> source_address(7, 0)
    '127.0.0.1'
    """
    if per_address <= 0:
        return HOST
    j = socket_index // per_address
    return f"127.0.{1 + j // 250}.{1 + j % 250}"


def _connect(url: str, socket_index: int, plan: argparse.Namespace) -> Any:
    """A websocket client as a browser opens one (permessage-deflate unless ``--no-deflate``),
    from its loopback address."""
    import websockets

    return websockets.connect(url, max_size=None, proxy=None, open_timeout=plan.timeout,
                              compression=None if plan.no_deflate else "deflate",
                              local_addr=(source_address(socket_index, plan.per_address), 0))


async def _hello(ws: Any, load: Load, plan: argparse.Namespace) -> None:
    hello = await _recv(ws, load, plan.timeout)
    if hello.get("type") != "hello":
        raise LoadError(f"expected hello, got {str(hello)[:80]}")


# -- rooms: people at one table ------------------------------------------------------------------
@dataclass
class _Sent:
    """A move on its way: the ply it answered, when and by whom it was sent, who heard it."""

    ply: int
    when: float
    seat: int
    heard: set[int] = field(default_factory=set)


@dataclass
class _Table:
    """One table's shared bookkeeping: its budget, and the moves not yet heard by every
    other seat (for the relay)."""

    index: int
    humans: int
    budget: int
    deadline: float
    moves: int = 0
    sent: list[_Sent] = field(default_factory=list)
    resigning: bool = False

    def spent(self) -> bool:
        return self.moves >= self.budget or time.perf_counter() >= self.deadline

    def hear(self, seat: int, msg: dict[str, Any], load: Load) -> None:
        """``seat`` received ``msg``: the first state past another seat's move is that
        move's relay to ``seat``."""
        for s in self.sent:
            if seat != s.seat and seat not in s.heard and msg["ply"] > s.ply:
                s.heard.add(seat)
                load.relays.append(time.perf_counter() - s.when)
        self.sent = [s for s in self.sent if len(s.heard) < self.humans - 1]


async def _state(ws: Any, load: Load, plan: argparse.Namespace, game: str | None = None) -> dict[str, Any]:
    """The next ``state`` message (of table ``game``, when given: a late one of the game
    before is skipped); anything else the server sends here is a bug: lost."""
    while True:
        msg = await _recv(ws, load, plan.timeout)
        if msg.get("type") != "state":
            raise LoadError(f"expected a state, got {str(msg)[:80]}")
        if game is None or msg["game"] == game:
            return msg


async def _person(ws: Any, seat: int, msg: dict[str, Any], table: _Table, game_id: str, plan: argparse.Namespace,
                  load: Load, rng: random.Random) -> None:
    """One person at a table, from the ``state`` that seated them until the game is over:
    moves (a random legal one) ``--pace`` after each turn comes, with the seat's token;
    resigns on their turn once the table's budget is spent."""
    token, game = msg["token"], msg["game"]
    moved_at = -1  # the ply of this seat's last move: older states (a repeat of the position) are not turns
    while True:
        table.hear(seat, msg, load)
        if msg["over"]:
            return
        if msg["to_move"] == seat and msg["moves"] and msg["ply"] > moved_at:
            ply = moved_at = msg["ply"]
            if table.spent():
                if not table.resigning:
                    table.resigning = True
                    await ws.send(json.dumps({"type": "resign", "game": msg["game"], "token": token}))
                    load.resigned += 1
            else:
                if plan.pace > 0:  # a person reading the board
                    await asyncio.sleep(rng.uniform(0.5, 1.5) * plan.pace)
                t0 = time.perf_counter()
                table.sent.append(_Sent(ply, t0, seat))
                table.moves += 1  # counted as sent: the next seat may hear of it before this one does
                await ws.send(json.dumps({"type": "move", "game": msg["game"], "token": token,
                                          "action": rng.choice(msg["moves"])["id"], "ply": ply}))
                msg = await _state(ws, load, plan, game)
                while msg["ply"] <= ply:  # a repeat of the position moved from
                    msg = await _state(ws, load, plan, game)
                answer = time.perf_counter() - t0
                load.samples.append(Sample(table.index, game_id, ply, answer, answer, msg["ply"] == ply + 1, seat=seat))
                continue
        msg = await _state(ws, load, plan, game)


async def _room_game(sockets: list[Any], table: _Table, game_id: str, seed: int, plan: argparse.Namespace,
                     load: Load, rng: random.Random) -> bool:
    """One game at the table: the host makes it, the others take their seats through the
    invitations, everyone plays until it is over; True if it ended by the rules."""
    host = sockets[0]
    humans = len(sockets)
    t0 = time.perf_counter()
    await host.send(json.dumps({"type": "new", "game_id": game_id, "players": humans, "seat": 0,
                                "seats": ["host"] + ["open"] * (humans - 1), "seed": seed, "delay": 0,
                                "svg_delta": not plan.whole_svg}))
    load.started += 1
    first = [await _state(host, load, plan)]
    while "invites" not in first[0]:  # a late state of the table's game before
        first[0] = await _state(host, load, plan)
    load.starts.append(time.perf_counter() - t0)
    game, invites = first[0]["game"], first[0]["invites"]
    for p in range(1, humans):
        t0 = time.perf_counter()
        await sockets[p].send(json.dumps({"type": "join", "game": game, "invite": invites[str(p)],
                                          "svg_delta": not plan.whole_svg}))
        msg = await _state(sockets[p], load, plan, game)
        if msg["seat"] != p or not msg.get("token") or msg["token"] == first[0]["token"]:
            raise LoadError(f"join through seat {p}'s invitation gave seat {msg['seat']}")
        load.joins.append(time.perf_counter() - t0)
        first.append(msg)
    table.sent, table.resigning = [], False
    people = [asyncio.ensure_future(_person(ws, p, first[p], table, game_id, plan, load, rng))
              for p, ws in enumerate(sockets)]
    try:
        done, _ = await asyncio.wait(people, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            task.result()  # raises the first error
    finally:
        for task in people:
            task.cancel()
    return not table.resigning


async def _room(url: str, k: int, plan: argparse.Namespace, load: Load, deadline: float) -> None:
    """Table ``k``: ``plan.humans`` sockets (host first) playing games one after another
    until ``plan.moves`` moves a person are made or the deadline passes; an error loses it."""
    rng = random.Random(plan.seed * 100003 + k)
    table = _Table(k, plan.humans, plan.moves * plan.humans, deadline)
    try:
        async with contextlib.AsyncExitStack() as stack:
            sockets = [await stack.enter_async_context(_connect(url, plan.humans * k + p, plan))
                       for p in range(plan.humans)]
            for ws in sockets:
                await _hello(ws, load, plan)
            g = 0
            while not table.spent():
                game_id = plan.game_ids[(k + g) % len(plan.game_ids)]
                load.finished += await _room_game(sockets, table, game_id, plan.seed * 1000 + k + 100000 * g, plan,
                                                  load, rng)
                g += 1
    except LoadError as e:
        load.lost += 1
        load.errors.append(f"table {k}: {e}")
    except Exception as e:  # could not connect, or a bug of ours: counted, never hidden
        load.lost += 1
        load.errors.append(f"table {k}: {type(e).__name__}: {e}")


async def run_rooms(url: str, plan: argparse.Namespace) -> Load:
    """Rooms mode's core: ``plan.tables`` tables of ``plan.humans`` people at once against
    the server at ``url``; bounded by ``plan.moves`` moves a person and ``plan.seconds``."""
    if plan.humans < 2:
        raise ValueError("a room seats at least 2 people (--humans 2)")
    load = Load()
    t0 = time.perf_counter()
    deadline = t0 + plan.seconds
    await asyncio.gather(*(_bounded(_room(url, k, plan, load, deadline), f"table {k}", plan, load)
                           for k in range(plan.tables)))
    load.wall = time.perf_counter() - t0
    return load


async def run_load(url: str, plan: argparse.Namespace) -> Load:
    """The benchmark's core: ``plan.games`` clients at once against the server at ``url``
    (``ws://host:port/ws``); bounded by ``plan.moves`` moves a client and ``plan.seconds``."""
    load = Load()
    t0 = time.perf_counter()
    deadline = t0 + plan.seconds
    await asyncio.gather(*(_bounded(_client(url, k, plan, load, deadline), f"client {k}", plan, load)
                           for k in range(plan.games)))
    load.wall = time.perf_counter() - t0
    return load


async def _bounded(client: Any, who: str, plan: argparse.Namespace, load: Load) -> None:
    """A client cut off once the run's time and one timeout beyond are spent (a server that
    keeps talking without ever giving the turn back would otherwise hold it forever)."""
    try:
        await asyncio.wait_for(client, plan.seconds + plan.timeout)
    except TimeoutError:
        load.lost += 1
        load.errors.append(f"{who}: still waiting {plan.seconds + plan.timeout:g} s after the start")


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
def serve_in_thread(records_dir: str, max_games: int = 200, db: str | None = None) -> Iterator[str]:
    """The app on uvicorn in a thread of this process (as ``romecore serve`` configures
    it; ``db``: tables kept in that SQLite file); yields the websocket URL; stops the
    server on leaving."""
    import uvicorn

    from romecore.web.app import create_app
    from romecore.web.limits import Limits
    from romecore.web.storage import SQLiteStorage

    storage = SQLiteStorage(db) if db is not None else None
    app = create_app(records_dir=records_dir, hint="random", delay=0, limits=Limits(max_games=max_games),
                     storage=storage)
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
        if storage is not None:
            storage.close()


#: Runs ``romecore serve`` (argv[1:]) in a subprocess, under cProfile when ROMECORE_PROFILE names
#: a file; SIGINT stops uvicorn gracefully, then the profile is written.
_SERVER = """
import cProfile, os, sys, time
from romecore.cli.serve import command
out = os.environ.get("ROMECORE_PROFILE")
prof = cProfile.Profile(time.thread_time) if out else None  # the event loop's CPU, not the wall clock
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
def serve_subprocess(records_dir: str, max_games: int = 200, profile: str | None = None,
                     db: str | None = None, picture_workers: int | None = None) -> Iterator[tuple[str, int]]:
    """``romecore serve --port P --records DIR --delay 0 [--db FILE]`` in its own process on
    a free port; yields (websocket URL, process id); stops it with SIGINT on leaving."""
    sock = _free_socket()
    port = sock.getsockname()[1]
    sock.close()  # the server binds it again at once (loopback, a race only with other tests)
    env = dict(os.environ)
    if profile:
        env["ROMECORE_PROFILE"] = os.path.abspath(profile)
    proc = subprocess.Popen([sys.executable, "-c", _SERVER, "--host", HOST, "--port", str(port), "--records",
                             records_dir, "--delay", "0", "--hint", "random", "--max-games", str(max_games),
                             *(["--db", db] if db else []),
                             *(["--picture-workers", str(picture_workers)] if picture_workers is not None else [])],
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
def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux ``/proc``)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        out.append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    return out


def tree_cpu_seconds(pid: int) -> dict[int, float]:
    """The CPU seconds of ``pid`` and of each process below it (the server's picture
    workers), by process id; {} off Linux."""
    out, todo = {}, [pid]
    while todo:
        p = todo.pop()
        cpu = cpu_seconds(p)
        if cpu is not None:
            out[p] = cpu
            todo.extend(_children(p))
    return out


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
    rows = [_row("answer (server)", games, [s.answer for s in load.samples], errors)]
    if load.joins:  # rooms: the other seats hear of a move; a table made, a seat taken
        rows += [_row("relay (other seats)", games, load.relays, errors), _row("new table", games, load.starts, errors),
                 _row("join (invitation)", games, load.joins, errors)]
    else:
        rows += [_row("turn (+ AI)", games, [s.turn for s in load.samples], errors),
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


def message_parts(session: Any, seat: int = 0) -> dict[str, float]:
    """What one ``state`` message of ``session`` to ``seat`` costs, part by part, each timed
    by calling the web app's own functions: milliseconds (the whole ``update()``, the
    picture, the move texts, the board keys, one observation read as a log line's round,
    JSON, deflate, a spectator's whole ``update()``) and sizes in KB (the message, its
    picture, its log, deflated)."""
    from romecore.web import sessions as web

    state = session.state
    legal = state.legal_actions() if state.current_player() == seat else []
    ms = {"update": _timed(lambda: session.update(seat))[0], "svg": _timed(lambda: web.render_svg(state, seat))[0],
          "texts": _timed(lambda: [state.action_to_string(a) for a in legal])[0],
          "targets": _timed(lambda: [web._targets(state, a) for a in legal])[0],
          "round": _timed(lambda: web._round(state))[0],
          "spectator_update": _timed(lambda: session.update(None))[0]}
    msg = session.update(seat)
    ms["json"], text = _timed(lambda: json.dumps(msg))
    ms["deflate"], packed = _timed(lambda: _deflate(text))
    kb = {"kb": len(text), "svg_kb": len(msg["svg"]), "log_kb": len(json.dumps(msg["log"])), "deflated_kb": len(packed)}
    return ms | {k: v / 1000 for k, v in kb.items()}


def breakdown(game_ids: list[str], seed: int = 3) -> dict[str, dict[str, float]]:
    """The median of :func:`message_parts` over seat 0's decisions in one random 2-player
    game per game (two human seats, random moves), with what storing a move costs: the
    position's ``serialize()`` (CPU ms) and ``SQLiteStorage.add_move`` as ``--db`` runs it
    (wall ms, its disk sync included; ``db_write_p90``: the slow ones), for every action."""
    from romecore.web.sessions import HUMAN, Session
    from romecore.web.storage import Seat, SQLiteStorage, TableRow

    out = {}
    with tempfile.TemporaryDirectory() as folder:
        storage = SQLiteStorage(os.path.join(folder, "tables.db"))
        try:
            for game_id in game_ids:
                seats = [Seat(HUMAN, HUMAN, HUMAN) for _ in range(2)]
                session = Session(romecore.load_game(game_id, players=2), seats, seed, delay=0, storage=storage)
                storage.create_table(TableRow(session.id, game_id, seed, seats))
                rng, state = random.Random(seed), session.state
                rows, writes = [], []
                while not state.is_terminal():
                    if state.current_player() == 0:
                        rows.append(message_parts(session, 0))
                    player = state.current_player()
                    action = state.sample_chance() if state.is_chance_node() else rng.choice(state.legal_actions())
                    text = session._play(-1 if player < 0 else player, action)
                    ms, snapshot = _timed(state.serialize)
                    t0 = time.perf_counter()
                    storage.add_move(session.id, len(session.actions), -1 if player < 0 else player, action, text,
                                     snapshot)
                    writes.append((ms, 1000 * (time.perf_counter() - t0)))
                out[game_id] = {k: round(statistics.median(r[k] for r in rows), 3) for k in rows[0]}
                out[game_id] |= {"serialize": round(statistics.median(w[0] for w in writes), 3),
                                 "db_write": round(statistics.median(w[1] for w in writes), 3),
                                 "db_write_p90": round(percentile([w[1] for w in writes], 0.9), 3),
                                 "decisions": len(rows), "actions": len(writes)}
        finally:
            storage.close()
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
    ap.add_argument("--tables", type=int, default=0,
                    help="rooms mode: this many tables of --humans people each (0: one person a game, --games)")
    ap.add_argument("--humans", type=int, default=2, help="rooms mode: people at each table (host + invited)")
    ap.add_argument("--moves", type=int, default=30,
                    help="human moves each client (rooms: each person) makes (new games as needed)")
    ap.add_argument("--seconds", type=float, default=120.0, help="stop every client after this long")
    ap.add_argument("--pace", type=float, default=0.2,
                    help="mean seconds between a client's moves (a person's pace; uniform 0.5x..1.5x; 0: at once)")
    ap.add_argument("--agent", default="random", help="the opponent's spec (random: the server's own latency)")
    ap.add_argument("--game", dest="game_ids", action="append", default=[],
                    help="a game to play (repeatable; default: all installed, spread over the clients)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=30.0, help="seconds without a message that lose a game")
    ap.add_argument("--db", action="store_true", help="the server keeps its tables in SQLite (a temporary file)")
    ap.add_argument("--per-address", type=int, default=10,
                    help="sockets sharing one loopback source address (0: all from 127.0.0.1)")
    ap.add_argument("--no-deflate", action="store_true",
                    help="no permessage-deflate (browsers ask for it, so it is on by default)")
    ap.add_argument("--in-process", action="store_true",
                    help="run uvicorn in a thread of this process (shares its GIL with the clients)")
    ap.add_argument("--whole-svg", action="store_true",
                    help="rooms: every state carries the whole picture (the page asks for deltas: svg_delta)")
    ap.add_argument("--picture-workers", type=int, default=None,
                    help="the server's picture worker processes (romecore serve --picture-workers; default its own)")
    ap.add_argument("--profile", metavar="FILE", help="run the server under cProfile, write FILE, print its top")
    ap.add_argument("--profile-top", type=int, default=25)
    ap.add_argument("--breakdown", action="store_true", help="also time the parts of a state message here")
    ap.add_argument("--out", metavar="JSON", help="write the settings, table, samples and errors here")
    return ap


def _measure(plan: argparse.Namespace, folder: str) -> tuple[Load, float | None, float]:
    """Runs the clients against a fresh server; returns what they saw, the server's CPU
    seconds (None in-process or off Linux) and the clients' own CPU seconds."""
    count = plan.tables if plan.tables else plan.games
    max_games = 2 * count + 10
    db = os.path.join(folder, "tables.db") if plan.db else None
    records = os.path.join(folder, "records")
    run = run_rooms if plan.tables else run_load
    server_cpu = None
    if plan.in_process:
        if plan.profile:
            raise SystemExit("--profile runs the server in its own process: drop --in-process")
        with serve_in_thread(records, max_games, db) as url:
            cpu = time.process_time()
            load = asyncio.run(run(url, plan))
            return load, None, time.process_time() - cpu
    with serve_subprocess(records, max_games, plan.profile, db, plan.picture_workers) as (url, pid):
        cpu0, cpu = tree_cpu_seconds(pid), time.process_time()
        load = asyncio.run(run(url, plan))
        cpu1, cpu = tree_cpu_seconds(pid), time.process_time() - cpu
        if cpu1:
            server_cpu = sum(cpu1[p] - cpu0.get(p, 0.0) for p in cpu1)
            load.server_main_cpu = cpu1.get(pid, 0.0) - cpu0.get(pid, 0.0)
    return load, server_cpu, cpu


def _report(plan: argparse.Namespace, load: Load, server_cpu: float | None, client_cpu: float) -> None:
    """The run in a few lines: what was played, what it cost the server, per move."""
    moves = len(load.samples)
    rate = moves / max(load.wall, 1e-9)
    if plan.tables:
        print(f"{plan.tables} tables of {plan.humans} people{' (database on)' if plan.db else ''}: {moves} moves in "
              f"{load.wall:.1f} s ({rate:.0f}/s), {load.started} games started, {load.finished} ended by the rules, "
              f"{load.resigned} resigned at the budget, {load.lost} tables lost")
    else:
        print(f"{plan.games} clients, {moves} human moves in {load.wall:.1f} s ({rate:.0f}/s), "
              f"{load.started} games started, {load.finished} finished, {load.lost} lost")
    print(f"{load.messages} messages received, {load.bytes / max(load.messages, 1) / 1000:.1f} KB each, "
          f"{load.messages / max(moves, 1):.2f} a move (all sockets)")
    if moves and not plan.tables:
        print(f"per human move: {statistics.mean(s.states for s in load.samples):.2f} state messages, "
              f"{statistics.mean(s.plies for s in load.samples):.2f} plies to the next turn (mean)")
    if server_cpu is not None:
        print(f"server CPU {server_cpu:.1f} s over {load.wall:.1f} s ({100 * server_cpu / load.wall:.0f}% of one "
              f"core), {1000 * server_cpu / max(moves, 1):.1f} ms a move; its event loop's process "
              f"{100 * load.server_main_cpu / load.wall:.0f}% of a core, "
              f"{1000 * load.server_main_cpu / max(moves, 1):.1f} ms a move")
    print(f"clients' CPU {client_cpu:.1f} s ({100 * client_cpu / max(load.wall, 1e-9):.0f}% of one core)")


def main(argv: list[str] | None = None) -> int:
    plan = _parser().parse_args(argv)
    plan.game_ids = plan.game_ids or sorted(romecore.list_games())
    if plan.tables and plan.humans < 2:
        raise SystemExit("--humans: a room seats at least 2 people")
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory() as folder:
        load, server_cpu, client_cpu = _measure(plan, folder)
    load_after = os.getloadavg()
    rows = summary(load, plan.tables or plan.games)
    _report(plan, load, server_cpu, client_cpu)
    print(f"load average {load_before[0]:.2f} before, {load_after[0]:.2f} after ({os.cpu_count()} CPUs)")
    print_table(rows)
    for e in load.errors[:10]:
        print("error:", e)
    parts = breakdown(plan.game_ids) if plan.breakdown else None
    if parts:
        print("state message parts, median at seat 0's decisions (ms; *_kb: KB; db_write: wall ms an action):")
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
                       "wall_s": load.wall, "server_cpu_s": server_cpu, "client_cpu_s": client_cpu,
                       "started": load.started, "finished": load.finished, "resigned": load.resigned,
                       "lost": load.lost, "messages": load.messages, "bytes": load.bytes,
                       "table": rows, "breakdown": parts, "errors": load.errors,
                       "relays": load.relays, "joins": load.joins,
                       "samples": [asdict(s) for s in load.samples]}, f, indent=1)
    return 1 if load.errors or load.lost or not load.samples else 0


if __name__ == "__main__":
    sys.exit(main())
