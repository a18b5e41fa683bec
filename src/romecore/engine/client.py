"""The host's side of the engine protocol: one engine program, started, greeted, spoken to
and ended (:class:`EngineProcess`).

Every way an engine can fail becomes an :class:`~romecore.engine.protocol.EngineError` that
names the engine and says what it did: it would not start, exited (with its code and the
last lines it wrote to standard error), said nothing within its time, or wrote a line that
is not the protocol's.  After any of these the process is killed: what it would say next
cannot be trusted.  Its standard output carries the protocol only; its standard error is
kept (the last lines) for those messages.
"""

from __future__ import annotations

import collections
import ctypes
import os
import queue
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from typing import IO, Any

from romecore.engine import protocol
from romecore.engine.protocol import EngineError, ProtocolError

__all__ = ["EngineProcess"]

#: Lines of the engine's standard error kept for error messages.
STDERR_LINES = 8
#: Seconds an engine may take to leave after ``quit`` before it is killed.
QUIT_GRACE = 1.0

_EOF = object()
_TOO_LONG = object()


def _pump_lines(stream: IO[bytes], into: queue.Queue) -> None:
    """Moves the engine's output lines into ``into`` until it ends (then ``_EOF``), or a
    line passes the protocol's length (then ``_TOO_LONG``, and reading stops)."""
    try:
        while True:
            line = stream.readline(protocol.MAX_LINE + 1)
            if not line:
                break
            if len(line) > protocol.MAX_LINE and not line.endswith(b"\n"):
                into.put(_TOO_LONG)
                return
            into.put(line)
    except (OSError, ValueError):  # the pipe was closed under us (the engine was killed)
        pass
    into.put(_EOF)


def _keep_tail(stream: IO[bytes], tail: collections.deque) -> None:
    """Keeps the last lines of the engine's standard error in ``tail``."""
    try:
        for line in iter(lambda: stream.readline(4096), b""):
            tail.append(line.decode("utf-8", "replace").rstrip())
    except (OSError, ValueError):
        pass


def _death_signal() -> Any:
    """On Linux, a function for the child to call before exec so it is killed when the
    process that started it dies (a tournament worker killed for a hung move leaves no
    engine behind); None elsewhere.  Looked up here, before the fork."""
    if sys.platform != "linux":
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return lambda: prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _kill(proc: subprocess.Popen) -> None:
    """Kills ``proc`` unless it has ended, and reaps it (a finalizer: no reference to the
    object that owned it)."""
    if proc.poll() is None:
        try:
            proc.kill()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        pass
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass


class EngineProcess:
    """One running engine: ``argv`` started in ``cwd`` with ``env`` added to the
    environment, greeted (:meth:`start`), then spoken to (:meth:`send`, :meth:`receive`).  ``label``
    names it in error messages.  Killed by :meth:`close`, or when garbage collected."""

    def __init__(self, argv: Sequence[str], label: str, cwd: str | None = None,
                 env: Mapping[str, str] | None = None) -> None:
        self.argv, self.label, self.cwd = list(argv), label, cwd
        self.env = dict(env or {})
        self.name = ""
        self.games: list[str] = []
        self.proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue()
        self._stderr: collections.deque = collections.deque(maxlen=STDERR_LINES)
        self._write = threading.Lock()

    # -- life ----------------------------------------------------------------------------------
    def start(self, host: str, timeout: float) -> None:
        """Starts the program and exchanges ``hello``: the engine must answer within
        ``timeout`` seconds, in this protocol's version."""
        env = {**os.environ, **self.env} if self.env else None
        # the death signal follows the thread that forks: only the main thread lives as long as its process
        in_main = threading.current_thread() is threading.main_thread()
        try:
            self.proc = subprocess.Popen(
                self.argv, cwd=self.cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                preexec_fn=_death_signal() if in_main else None)
        except OSError as e:
            raise EngineError(f"engine {self.label} could not start: {e.strerror or e}") from None
        weakref.finalize(self, _kill, self.proc)
        for target, args in ((_pump_lines, (self.proc.stdout, self._lines)),
                             (_keep_tail, (self.proc.stderr, self._stderr))):
            threading.Thread(target=target, args=args, daemon=True, name=f"engine {self.label}").start()
        self.send(protocol.hello(host))
        reply = self.receive(time.monotonic() + timeout, f"hello within {timeout:g} s")
        if reply["type"] == "error":
            raise self.fail(f"refused hello: {reply['message'][:300]}")
        if reply["type"] != "hello":
            raise self.fail(f"answered hello with {reply['type']!r}")
        if reply["protocol"] != protocol.PROTOCOL_VERSION:
            raise self.fail(f"speaks protocol {reply['protocol']}; this romecore speaks "
                            f"{protocol.PROTOCOL_VERSION}")
        games = reply.get("games") or []
        if not all(isinstance(g, str) for g in games):
            raise self.fail("listed games that are not game ids (strings)")
        self.name, self.games = reply["name"], list(games)

    def alive(self) -> bool:
        """True while the program runs."""
        return self.proc is not None and self.proc.poll() is None

    def close(self) -> None:
        """Asks the engine to quit, then kills it if it has not within a second."""
        proc = self.proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self.send(protocol.QUIT)
                proc.wait(timeout=QUIT_GRACE)
            except (EngineError, subprocess.TimeoutExpired):
                pass
        _kill(proc)

    def kill(self) -> None:
        """Ends the program at once."""
        if self.proc is not None:
            _kill(self.proc)

    # -- talk ----------------------------------------------------------------------------------
    def send(self, message: Mapping[str, Any]) -> None:
        """Writes one message; an engine that has closed its input has died."""
        line = protocol.encode(message).encode("utf-8")
        assert self.proc is not None and self.proc.stdin is not None
        try:
            with self._write:
                self.proc.stdin.write(line)
                self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self.fail(self._ended()) from None

    def receive(self, deadline: float, what: str) -> dict[str, Any]:
        """The engine's next message, checked, by ``deadline`` (``time.monotonic``); else the
        engine is killed and :class:`EngineError` says why (``what``: what it was asked, and
        the time it had)."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise self.fail(f"did not answer {what}") from None
        if line is _EOF:
            raise self.fail(self._ended())
        if line is _TOO_LONG:
            raise self.fail(f"wrote a line longer than {protocol.MAX_LINE} bytes")
        try:
            return protocol.decode(line, protocol.ENGINE_MESSAGES)
        except ProtocolError as e:
            raise self.fail(f"broke the protocol: {e}") from None

    def fail(self, what: str) -> EngineError:
        """Kills the engine and returns the error saying ``what`` it did."""
        self.kill()
        return EngineError(f"engine {self.label} {what}")

    def _ended(self) -> str:
        """How the program ended, with the last of its standard error."""
        code = None
        if self.proc is not None:
            try:
                code = self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                pass
        if code is None:
            how = "closed its output"
        elif code < 0:
            how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        time.sleep(0.05)  # let the last of standard error arrive
        tail = " | ".join([line.strip() for line in self._stderr if line.strip()][-3:])
        return how + (f" (standard error: {tail[-300:]})" if tail else "")
