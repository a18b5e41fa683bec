"""Backends that run a tournament's games: the local process pool (the default) and an
in-process loop.

A backend takes the list of :class:`~romecore.tournament.schedule.GameTask` and reports
to a :class:`Sink` as games end.  An agent that raises, returns an illegal move or thinks
past the task's per-move time limit forfeits its game: a result like any other, never
retried (the worker interrupts the agent; one stuck in native code is killed by the
parent, which reads who is thinking from the worker's status block and scores the
forfeit).  The pool also protects the tournament from its workers: a worker that dies
with no agent at fault (a crash, an out-of-memory kill) or overruns the per-game time
limit is killed and replaced, and its game is played again from its seed, up to
``retries`` times, after which the game is reported failed.  Tasks and results cross the
pipe as msgpack bytes.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Sequence
from multiprocessing.connection import wait
from typing import Any, Protocol, cast

from romecore.errors import UsageError
from romecore.tournament.schedule import GameTask
from romecore.tournament.worker import (
    STATUS_ENV,
    WORKER_COMMAND,
    WorkerStatus,
    forfeit_result,
    load_plugins,
    pack,
    play_task,
    split_frames,
    unpack,
    write_frame,
)

__all__ = ["Sink", "TournamentError", "InlineBackend", "LocalBackend"]


class TournamentError(UsageError):
    """The tournament cannot go on (workers cannot start, a results file is unusable)."""


class Sink(Protocol):
    """Where a backend reports: a finished game, a failed game, a notice."""

    def done(self, task: GameTask, result: dict, attempts: int) -> None:
        """``result`` holds ``summary`` (for the table) and ``line`` (the record as JSON);
        a forfeited game is done too (``summary["forfeit"]`` names the seat)."""

    def failed(self, task: GameTask, reason: str, attempts: int) -> None: ...

    def event(self, message: str) -> None: ...


class InlineBackend:
    """Plays the games one after another in this process: no isolation and no time limit
    but the per-move one (which cannot stop an agent stuck in native code), but no
    start-up either (embedding, debugging, measuring the runner itself)."""

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


def _child_env(status_fd: int) -> dict[str, str]:
    """The environment of a worker: ours, with our import path (so modules found here,
    test folders and plugins included, are found there too) and its status block."""
    env = dict(os.environ)
    paths = [p for p in sys.path if isinstance(p, str) and p]
    env["PYTHONPATH"] = os.pathsep.join(dict.fromkeys(paths))
    env[STATUS_ENV] = str(status_fd)
    return env


def _waitable(workers: list[_Worker]) -> list[Any]:
    """The workers as ``multiprocessing.connection.wait`` takes them: it accepts any object
    with a ``fileno()``, which its type stubs do not say."""
    return cast(list[Any], workers)


class _Worker:
    """One pool process, its pipes, its status block, and the tasks sent to it (the first
    is being played)."""

    def __init__(self, command: Sequence[str], plugins: Sequence[str], serial: int) -> None:
        self.serial = serial
        with tempfile.TemporaryFile() as f:  # the mapping outlives the file object
            f.truncate(WorkerStatus.SIZE)
            self.status = WorkerStatus(f.fileno())
            self.status.begin(-1)
            self.proc = subprocess.Popen([*command, *plugins], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, env=_child_env(f.fileno()),
                                         bufsize=0, close_fds=True, pass_fds=(f.fileno(),))
        self.fd_out = self.proc.stdout.fileno()  # type: ignore[union-attr]
        self.buf = bytearray()
        self.eof = False
        self.ready = False
        self.queue: deque[GameTask] = deque()
        self._seen: tuple[int, int, float] | None = None  # the status at the last check
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
        self.status.close()

    def thinking_too_long(self, limit: float) -> tuple[int, float] | None:
        """(seat, seconds) when an agent of the game at the head of the queue has been
        thinking on one move for more than ``limit`` seconds, else None.  The same move
        must be seen at two checks (a stuck agent stays put), so a read that caught the
        worker between writes can never condemn it."""
        now = self.status.get()
        seen, self._seen = self._seen, now
        index, seat, since = now
        if seat < 0 or not self.queue or index != self.queue[0].index or now != seen:
            return None
        spent = time.monotonic() - since
        return (seat, spent) if spent > limit else None

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
    ``move_time_limit`` is the tasks' per-move limit: the worker interrupts an agent that
    overruns it, and a worker whose agent is still thinking ``grace`` seconds later
    (stuck in native code) is killed here and the agent forfeits.
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
                 command: Sequence[str] | None = None, coalesce: bool = True,
                 move_time_limit: float | None = None) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.plugins = list(plugins)
        self.time_limit = float(time_limit)
        self.move_time_limit = move_time_limit
        # the worker's own alarm ticks every quarter limit: give it that and a second more
        self.grace = 1.0 + 0.5 * move_time_limit if move_time_limit else 0.0
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
                ready = set(wait(_waitable(pool), max(0.0, timeout)))
                if fast and ready:
                    time.sleep(0.002)  # let other results arrive: one wake-up for several
                    ready.update(wait(_waitable(pool), 0))
                for k, w in enumerate(pool):
                    lost = None
                    if w in ready:
                        lost = self._drain(w, sink, attempts)
                    if lost is None and w.queue and self.move_time_limit:
                        stuck = w.thinking_too_long(self.move_time_limit + self.grace)
                        if stuck is not None:
                            pool[k] = self._forfeit(w, *stuck, pending, attempts, sink)
                            continue
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

    def _forfeit(self, w: _Worker, seat: int, spent: float, pending: deque[GameTask],
                 attempts: dict[int, int], sink: Sink) -> _Worker:
        """Kills w, whose agent in ``seat`` is stuck past the move limit: that agent
        forfeits the game (no retry: it is the agent's fault), the rest go back."""
        w.kill()
        head, *rest = w.queue
        tries = attempts.pop(head.index, 0) + 1
        reason = (f"was still thinking after {spent:.3g} s, over the {self.move_time_limit:g} s "
                  f"move time limit (its worker was killed)")
        sink.done(head, forfeit_result(head.payload(tries), seat, reason), tries)
        pending.extendleft(reversed(rest))
        return self._spawn()

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
