"""Worker processes the server's event loop reaches through a socket each, for the pages'
pictures (``serve --picture-workers``).

Why not :class:`concurrent.futures.ProcessPoolExecutor`: it hands every task through two
threads (a queue feeder, a result manager) and back to the loop with
``call_soon_threadsafe``.  On the 2-core load test the loop spent 0.39-0.45 ms of CPU on each
such task against 0.12 ms for a plain socket (``bench/results/web-rooms-load.md``), and the
loop is that test's bottleneck.  Here the loop writes each call to a worker's socket and
reads the answer when the socket is readable: no thread, no lock.

A frame is an 8-byte big-endian length and a pickle: ``(function, args)`` out, ``(True,
result)`` or ``(False, "what failed")`` back, in order.  Only this process's own workers
are ever read, so unpickling their answers is safe.  A worker ends when its socket
closes: the server stopped it or died (even by ``kill -9``: the kernel closes the
socket), and it watches its parent too (:func:`_orphan_watch`), in case it is busy.
"""

from __future__ import annotations

import asyncio
import collections
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["WorkerError", "Workers"]

T = TypeVar("T")
_HEADER = 8


class WorkerError(RuntimeError):
    """A call that no worker could answer: the workers are stopped or died, or the
    function raised there (the message says which)."""


def _orphan_watch(parent: int, every: float = 0.5) -> None:
    """Ends this worker once its server is gone, even in the middle of a call."""
    while True:
        time.sleep(every)
        if os.getppid() != parent:
            os._exit(0)


def _read_exactly(fd: int, n: int) -> bytes | None:
    out = bytearray()
    while len(out) < n:
        chunk = os.read(fd, n - len(out))
        if not chunk:
            return None
        out += chunk
    return bytes(out)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _serve(conn: Any, parent: int) -> None:
    """A worker's life: calls read from the socket, answered in order, until it closes."""
    threading.Thread(target=_orphan_watch, args=(parent,), daemon=True, name="romecore-orphan-watch").start()
    fd = conn.fileno()
    while True:
        header = _read_exactly(fd, _HEADER)
        if header is None:
            return
        body = _read_exactly(fd, int.from_bytes(header, "big"))
        if body is None:
            return
        try:
            fn, args = pickle.loads(body)
            answer: tuple[bool, Any] = (True, fn(*args))
        except Exception as e:  # the call failed: say so, and go on serving
            answer = (False, f"{type(e).__name__}: {e}")
        try:
            payload = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # an answer that does not pickle
            payload = pickle.dumps((False, f"{type(e).__name__}: {e}"))
        _write_all(fd, len(payload).to_bytes(_HEADER, "big") + payload)


class _Worker:
    """One worker process and the parent's end of its socket."""

    def __init__(self, ctx: Any) -> None:
        mine, theirs = ctx.Pipe(duplex=True)  # a socket pair
        self.process = ctx.Process(target=_serve, args=(theirs, os.getpid()), daemon=True,
                                   name="romecore-picture-worker")
        self.process.start()
        theirs.close()
        self.conn = mine
        self.fd: int = mine.fileno()
        os.set_blocking(self.fd, False)
        self.pending: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.inbox = bytearray()
        self.outbox = bytearray()
        self.loop: asyncio.AbstractEventLoop | None = None  # the loop that reads this socket
        self.alive = True


class Workers:
    """``n`` worker processes (spawned: the server has threads) that run module-level
    functions for the event loop: ``await workers.call(fn, *args)``, on the worker with
    the fewest calls waiting.  A worker that dies fails its waiting calls with
    :class:`WorkerError` and takes no more; :meth:`close` stops them all."""

    def __init__(self, n: int) -> None:
        ctx = multiprocessing.get_context("spawn")
        self._workers = [_Worker(ctx) for _ in range(n)]

    @property
    def alive(self) -> int:
        """How many workers take calls."""
        return sum(w.alive for w in self._workers)

    @property
    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers if w.process.pid is not None]

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker (``fn`` and ``args`` must pickle)."""
        live = [w for w in self._workers if w.alive]
        if not live:
            raise WorkerError("no picture worker is running")
        return await self._call(min(live, key=lambda w: len(w.pending)), fn, args)

    async def call_each(self, fn: Callable[..., T], *args: Any) -> list[T]:
        """``fn(*args)`` once in every live worker (to warm them)."""
        return list(await asyncio.gather(*[self._call(w, fn, args) for w in self._workers if w.alive]))

    async def _call(self, w: _Worker, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        loop = asyncio.get_running_loop()
        self._bind(w, loop)
        payload = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
        fut: asyncio.Future[Any] = loop.create_future()
        w.pending.append(fut)
        self._send(w, len(payload).to_bytes(_HEADER, "big") + payload)
        return await fut

    def _bind(self, w: _Worker, loop: asyncio.AbstractEventLoop) -> None:
        """Reads the worker's socket from ``loop`` (again, when a test runs a new loop)."""
        if w.loop is loop:
            return
        self._unbind(w)
        w.loop = loop
        loop.add_reader(w.fd, self._readable, w)
        if w.outbox:
            loop.add_writer(w.fd, self._flush, w)

    @staticmethod
    def _unbind(w: _Worker) -> None:
        if w.loop is not None and not w.loop.is_closed():
            w.loop.remove_reader(w.fd)
            w.loop.remove_writer(w.fd)

    def _send(self, w: _Worker, frame: bytes) -> None:
        """Queues a frame; written now unless earlier ones still wait for the socket."""
        waiting = bool(w.outbox)
        w.outbox += frame
        if not waiting:
            self._flush(w)

    def _flush(self, w: _Worker) -> None:
        """Writes what the socket takes; the loop calls again when it takes more."""
        try:
            sent = os.write(w.fd, w.outbox)
        except BlockingIOError:
            sent = 0
        except OSError:
            self._lost(w, "its socket is closed")
            return
        del w.outbox[:sent]
        assert w.loop is not None
        if w.outbox:
            w.loop.add_writer(w.fd, self._flush, w)
        else:
            w.loop.remove_writer(w.fd)

    def _readable(self, w: _Worker) -> None:
        try:
            chunk = os.read(w.fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        if not chunk:
            self._lost(w, "it ended")
            return
        w.inbox += chunk
        while len(w.inbox) >= _HEADER:
            size = int.from_bytes(w.inbox[:_HEADER], "big")
            if len(w.inbox) < _HEADER + size:
                break
            body = bytes(w.inbox[_HEADER:_HEADER + size])
            del w.inbox[:_HEADER + size]
            try:
                ok, value = pickle.loads(body)
                fut = w.pending.popleft()
            except Exception as e:  # an answer nobody asked for, or garbled: this worker is done
                self._lost(w, f"it answered out of turn ({type(e).__name__})")
                return
            if fut.done() or fut.get_loop().is_closed():  # its caller went away
                continue
            if ok:
                fut.set_result(value)
            else:
                fut.set_exception(WorkerError(f"a picture worker failed: {value}"))

    def _lost(self, w: _Worker, why: str) -> None:
        """Takes a worker out: its waiting calls fail, its socket closes."""
        if not w.alive:
            return
        w.alive = False
        self._unbind(w)
        w.conn.close()
        while w.pending:
            fut = w.pending.popleft()
            if not fut.done() and not fut.get_loop().is_closed():
                fut.set_exception(WorkerError(f"a picture worker stopped: {why}"))

    def close(self) -> None:
        """Stops every worker (closing its socket ends it) and fails the calls waiting."""
        for w in self._workers:
            self._lost(w, "the server stopped the workers")
        for w in self._workers:
            w.process.join(timeout=2)
            if w.process.is_alive():
                w.process.kill()
