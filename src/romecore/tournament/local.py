"""Backends that run a tournament's games: the local process pool (the default) and an
in-process loop.

A backend takes the list of :class:`~romecore.tournament.schedule.GameTask` and reports
to a :class:`Sink` as games end.  The pool protects the tournament from its workers: a
worker that dies (a crash in native code, an out-of-memory kill) or overruns the per-game
time limit is killed and replaced, and its game is played again from its seed, up to
``retries`` times, after which the game is reported failed.  Games that fail inside the
game (an agent raises, an illegal move) are deterministic given the seed, so they are
reported failed at once.  Tasks and results cross the pipe as msgpack bytes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import deque
from multiprocessing.connection import wait
from typing import Protocol, Sequence

from romecore.tournament.schedule import GameTask
from romecore.tournament.worker import (WORKER_COMMAND, load_plugins, pack, play_task,
                                        split_frames, unpack, write_frame)

__all__ = ["Sink", "TournamentError", "InlineBackend", "LocalBackend"]


class TournamentError(RuntimeError):
    """The tournament cannot go on (workers cannot start, a results file is unusable)."""


class Sink(Protocol):
    """Where a backend reports: a finished game, a failed game, a notice."""

    def done(self, task: GameTask, result: dict, attempts: int) -> None:
        """``result`` holds ``summary`` (for the table) and ``line`` (the record as JSON)."""

    def failed(self, task: GameTask, reason: str, attempts: int) -> None: ...

    def event(self, message: str) -> None: ...


class InlineBackend:
    """Plays the games one after another in this process: no isolation and no time limit,
    but no start-up either (embedding, debugging, measuring the runner itself)."""

    name = "inline"

    def __init__(self, plugins: Sequence[str] = ()) -> None:
        self.plugins = list(plugins)

    def run(self, tasks: Sequence[GameTask], sink: Sink) -> None:
        load_plugins(self.plugins)
        for task in tasks:
            out = unpack(pack(play_task(task.payload())))  # the same bytes a worker sees
            if out["ok"]:
                sink.done(task, out, 1)
            else:
                sink.failed(task, out["error"], 1)


def _child_env() -> dict[str, str]:
    """The environment of a worker: ours, with our import path (so modules found here,
    test folders and plugins included, are found there too)."""
    env = dict(os.environ)
    paths = [p for p in sys.path if isinstance(p, str) and p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    return env


class _Worker:
    """One pool process, its pipes, and the tasks sent to it (the first is being played)."""

    def __init__(self, command: Sequence[str], plugins: Sequence[str], serial: int) -> None:
        self.serial = serial
        self.proc = subprocess.Popen([*command, *plugins], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=_child_env(), bufsize=0,
                                     close_fds=True)
        self.fd_out = self.proc.stdout.fileno()  # type: ignore[union-attr]
        self.buf = bytearray()
        self.eof = False
        self.ready = False
        self.queue: deque[GameTask] = deque()
        self.started = time.monotonic()  # when the task at the head began (or spawn time)

    def fileno(self) -> int:
        return self.fd_out

    def send(self, task: GameTask, attempt: int) -> None:
        if not self.queue:
            self.started = time.monotonic()
        self.queue.append(task)
        try:
            write_frame(self.proc.stdin.fileno(), pack(task.payload(attempt)))  # type: ignore[union-attr]
        except OSError:
            pass  # the worker is gone: its closed output reports it, and its tasks go back

    def receive(self) -> list[bytes]:
        """The complete messages readable now (sets ``eof`` when the pipe closed)."""
        chunk = os.read(self.fd_out, 1 << 20)
        if not chunk:
            self.eof = True
        self.buf += chunk
        return split_frames(self.buf)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            pass
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()  # type: ignore[union-attr]
            except OSError:
                pass

    def stop(self) -> None:
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]  # EOF: the worker exits
            self.proc.wait(2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        self.kill()


class LocalBackend:
    """A pool of worker processes on this machine.

    ``workers`` processes (default: the CPU count) each hold up to ``prefetch`` games so
    none waits for the parent between games.  ``time_limit`` is per game in seconds.
    Each worker is a fresh interpreter started with ``command`` (default
    :data:`~romecore.tournament.worker.WORKER_COMMAND`), sharing nothing with the parent
    but its pipes.

    When games are short (a few ms), the parent wakes at most every ~2 ms and handles
    every result waiting, and each worker holds ~10 ms of games, so that on a machine with
    as many cores as workers the parent steals as little time as possible from them
    (``coalesce``).
    """

    name = "local"

    def __init__(self, workers: int | None = None, plugins: Sequence[str] = (),
                 time_limit: float = 600.0, retries: int = 2, prefetch: int = 2,
                 command: Sequence[str] | None = None, coalesce: bool = True) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.plugins = list(plugins)
        self.time_limit = float(time_limit)
        self.retries = max(0, int(retries))
        self.prefetch = max(1, int(prefetch))
        self.command = list(command or WORKER_COMMAND)
        self.coalesce = coalesce
        self._game_s = 1.0  # running mean of a game's duration
        self._serial = 0
        self._startup_deaths = 0

    def _spawn(self) -> _Worker:
        self._serial += 1
        return _Worker(self.command, self.plugins, self._serial)

    def run(self, tasks: Sequence[GameTask], sink: Sink) -> None:
        pending: deque[GameTask] = deque(tasks)
        if not pending:
            return
        attempts: dict[int, int] = {}
        pool = [self._spawn() for _ in range(min(self.workers, len(pending)))]
        try:
            while pending or any(w.queue for w in pool):
                fast = self.coalesce and self._game_s < 0.004
                depth = max(self.prefetch, min(16, int(0.010 / self._game_s) + 1)) if fast else self.prefetch
                for w in pool:
                    while w.ready and pending and len(w.queue) < depth:
                        task = pending.popleft()
                        w.send(task, attempts.get(task.index, 0) + 1)
                now = time.monotonic()
                busy = [w.started + self.time_limit - now for w in pool if w.queue]
                timeout = min([0.5, *busy]) if busy else 0.5
                ready = set(wait(pool, max(0.0, timeout)))
                if fast and ready:
                    time.sleep(0.002)  # let other results arrive: one wake-up for several
                    ready.update(wait(pool, 0))
                for k, w in enumerate(pool):
                    lost = None
                    if w in ready:
                        lost = self._drain(w, sink, attempts)
                    if lost is None and w.queue and time.monotonic() - w.started > self.time_limit:
                        lost = f"took longer than the {self.time_limit:g} s time limit"
                    if lost is not None:
                        pool[k] = self._replace(w, lost, pending, attempts, sink)
        finally:
            for w in pool:
                w.stop()

    def _drain(self, w: _Worker, sink: Sink, attempts: dict[int, int]) -> str | None:
        """Handles every message readable from w; returns why w is lost, or None."""
        try:
            messages = w.receive()
        except OSError:
            messages, w.eof = [], True
        for raw in messages:
            msg = unpack(raw)
            if "fatal" in msg:
                raise TournamentError(f"a worker could not start: {msg['fatal']}")
            if msg.get("ready"):
                w.ready = True
                continue
            task = w.queue.popleft()
            if msg.get("i") != task.index:
                return f"answered for game {msg.get('i')} while playing game {task.index}"
            now = time.monotonic()
            self._game_s += 0.05 * (now - w.started - self._game_s)
            w.started = now
            tries = attempts.pop(task.index, 0) + 1
            if msg["ok"]:
                sink.done(task, msg, tries)
            else:
                sink.failed(task, msg["error"], tries)
        if not w.eof:
            return None
        try:
            code = w.proc.wait(5)
        except subprocess.TimeoutExpired:
            code = None
        if not w.ready:
            self._startup_deaths += 1
            if self._startup_deaths > 3 + self.workers:
                raise TournamentError(f"workers keep dying at start (exit code {code})")
        if code is not None and code < 0:
            return f"was killed by signal {-code}"
        return f"died (exit code {code})"

    def _replace(self, w: _Worker, why: str, pending: deque[GameTask],
                 attempts: dict[int, int], sink: Sink) -> _Worker:
        """Kills w, puts its games back (the one it was playing counts an attempt) and
        starts a fresh worker in its place."""
        w.kill()
        queued = list(w.queue)
        if queued:
            head = queued[0]
            tries = attempts[head.index] = attempts.get(head.index, 0) + 1
            if tries > self.retries:
                del attempts[head.index]
                sink.failed(head, f"worker {why} in game {head.index} on each of {tries} attempts", tries)
                queued = queued[1:]
            else:
                sink.event(f"worker {w.serial} {why} in game {head.index}; replacing it and "
                           f"replaying the game from its seed (attempt {tries + 1})")
        else:
            sink.event(f"worker {w.serial} {why} while idle; replacing it")
        pending.extendleft(reversed(queued))
        return self._spawn()
