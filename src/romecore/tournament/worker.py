"""The worker side: plays one game from a task given as plain data.

Workers receive agents as spec strings and the start state as a msgpack snapshot, and send
back the game record (as its JSON line) and a summary, all msgpack-encoded: nothing is
pickled, so a worker can be a local process or a Ray task on another machine with another
Python build.  A pool worker is a fresh interpreter (see :data:`WORKER_COMMAND`) talking
length-prefixed msgpack over its stdin and stdout, so it never imports the caller's
``__main__`` (no ``if __name__ == "__main__"`` guard needed); it ignores SIGINT (the parent
decides when to stop) and exits when its input closes.

An agent that raises, returns an illegal move or overruns the task's per-move time limit
forfeits its game (:func:`romecore.match.play_game`): that is a result, not a failure.
A pool worker also keeps a small status block shared with its parent (see
:class:`WorkerStatus`): which game and seat is thinking since when, so the parent can
kill a worker stuck in an agent's native code and score the forfeit itself.
"""

from __future__ import annotations

import importlib
import mmap
import os
import signal
import struct
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any

import msgpack

__all__ = ["play_task", "play_task_bytes", "run_task", "TASK_KINDS", "load_plugins", "worker_main", "pack", "unpack",
           "write_frame", "split_frames", "WORKER_COMMAND", "WorkerStatus", "forfeit_result",
           "STATUS_ENV"]

_loaded_plugins: set[str] = set()
#: The environment variable naming the file descriptor of a pool worker's status block.
STATUS_ENV = "ROMECORE_WORKER_STATUS_FD"


class WorkerStatus:
    """A few bytes shared by a pool worker and its parent: the game being played, the
    seat thinking (-1: none) and since when (``time.monotonic``, one clock for every
    process of the machine).  The worker writes at each agent move (memory writes, no
    system call); the parent reads when it checks time limits.

    Each field is one aligned 8-byte store (``struct.pack_into`` would zero the block
    first and write byte by byte, so a reader could see a seat with no time), written in
    an order that keeps a reader safe: the seat last when a move starts, first when it
    ends."""

    SIZE = 24

    def __init__(self, fd: int) -> None:
        self.mem = mmap.mmap(fd, self.SIZE)
        self._ints = memoryview(self.mem).cast("q")  # [index, seat, -]
        self._time = memoryview(self.mem).cast("d")  # [-, -, since]

    def begin(self, index: int) -> None:
        """A new game: nobody is thinking yet."""
        self._ints[1] = -1
        self._ints[0] = index

    def set(self, seat: int) -> None:
        """``seat`` starts thinking (-1: it stopped)."""
        if seat < 0:
            self._ints[1] = -1
        else:
            self._time[2] = _monotonic()
            self._ints[1] = seat

    def get(self) -> tuple[int, int, float]:
        """(game index, seat thinking or -1, since)."""
        seat = self._ints[1]
        return self._ints[0], seat, self._time[2]

    def close(self) -> None:
        self._ints.release()
        self._time.release()
        self.mem.close()


_monotonic = time.monotonic
_status: WorkerStatus | None = None  # this process's, when it is a pool worker


def pack(obj: Any) -> bytes:
    return msgpack.packb(obj, use_bin_type=True)


def unpack(blob: bytes) -> Any:
    return msgpack.unpackb(blob, raw=False, strict_map_key=False)


def load_plugins(modules: Sequence[str]) -> None:
    """Imports each module and registers it with romecore's plugin registry (once per
    process): how agents that are not installed as entry points reach a worker."""
    from romecore.plugins import registry

    for name in modules:
        if name in _loaded_plugins:
            continue
        registry.register(importlib.import_module(name), name=f"tournament:{name}")
        _loaded_plugins.add(name)


def _result(task: dict, record: Any) -> dict:
    """The answer for a played (or forfeited) game: ``{"i", "ok": True, "summary", "line"}``."""
    from romecore.records import dumps_json

    index = task.get("i")
    record.meta = {"index": index, "lineup": task["lineup"], "attempts": task.get("attempt", 1)}
    record.labels = list(task.get("labels") or [])
    record.time_control = {"move_time_limit": task.get("move_time_limit")}
    summary = {"index": index, "lineup": task["lineup"], "returns": record.returns,
               "scores": record.scores, "think_seconds": record.think_seconds,
               "moves": record.moves,
               "forfeit": None if record.forfeit is None else record.forfeit["seat"],
               "forfeit_reason": None if record.forfeit is None else record.forfeit["reason"]}
    return {"i": index, "ok": True, "summary": summary, "line": dumps_json(record).encode("utf-8")}


def play_task(task: dict) -> dict:
    """Plays the game a task describes.  Returns ``{"i", "ok": True, "summary", "line"}``:
    what the results table needs, and the game record as its JSON line (made here, so
    the parent only appends bytes), a forfeited game included; or, when the game cannot
    be played for a reason that is no agent's fault, ``{"i", "ok": False, "error"}``."""
    import romecore
    from romecore.match import play_game
    from romecore.records import MoveTexts

    index = task.get("i")
    try:
        state = romecore.deserialize(task["blob"])
        game = state.game
        agents = [romecore.make_agent(spec, game=game, seed=s)
                  for spec, s in zip(task["agents"], task["agent_seeds"])]
        watch = None
        if _status is not None:
            _status.begin(index if isinstance(index, int) else -1)
            watch = _status.set
        texts = MoveTexts()  # each move's text from the live state: no replay to write the record
        record = play_game(game, agents, task["seed"], state=state, forfeits=True,
                           move_time_limit=task.get("move_time_limit"), watch=watch, on_step=texts)
        record.texts = texts.texts
        return _result(task, record)
    except Exception as e:  # reported, not raised: the tournament goes on
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        return {"i": index, "ok": False, "error": tb}


def forfeit_result(task: dict, seat: int, reason: str) -> dict:
    """The answer for a game whose worker was killed while ``seat`` was thinking past its
    time: the forfeit, with none of the moves (they died with the worker) and no scores."""
    import romecore
    from romecore.match import new_record
    from romecore.records import forfeit_returns

    state = romecore.deserialize(task["blob"])
    record = new_record(state.game, task["agents"], task["seed"], state)
    n = len(task["agents"])
    record.forfeit = {"seat": seat, "reason": f"player {seat} ({task['agents'][seat]}) {reason}"}
    record.returns, record.scores = forfeit_returns(n, seat), []
    return _result(task, record)


#: What a task's ``kind`` asks of a worker: the function (``module:name``) that takes the
#: task and returns its result dict.  A game by default; ``analysis`` is a review's decision
#: (:func:`romecore.analysis.analyse_task`), so reviews run on the same pool and Ray backend.
TASK_KINDS = {"game": "romecore.tournament.worker:play_task", "analysis": "romecore.analysis:analyse_task"}


def run_task(task: dict) -> dict:
    """The task done by the function its ``kind`` names (:data:`TASK_KINDS`)."""
    kind = task.get("kind", "game")
    target = TASK_KINDS.get(kind)
    if target is None:
        return {"i": task.get("i"), "ok": False, "error": f"unknown task kind {kind!r}"}
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)(task)


def play_task_bytes(blob: bytes) -> bytes:
    """:func:`run_task` (a game, unless the task says otherwise) from and to msgpack bytes."""
    return pack(run_task(unpack(blob)))


_FRAME = struct.Struct("<I")
#: How the local pool starts a worker (plugin module names follow).
WORKER_COMMAND = [sys.executable, "-c",
                  "import sys; from romecore.tournament.worker import worker_main; "
                  "worker_main(sys.argv[1:])"]


def write_frame(fd: int, payload: bytes) -> None:
    """Writes one length-prefixed message to a file descriptor."""
    data = _FRAME.pack(len(payload)) + payload
    while data:
        n = os.write(fd, data)
        data = data[n:]


def split_frames(buf: bytearray) -> list[bytes]:
    """Removes and returns the complete length-prefixed messages at the front of buf."""
    out = []
    while len(buf) >= 4:
        (n,) = _FRAME.unpack_from(buf)
        if len(buf) < 4 + n:
            break
        out.append(bytes(buf[4:4 + n]))
        del buf[:4 + n]
    return out


def _read_exact(fd: int, n: int) -> bytes | None:
    chunks, left = [], n
    while left:
        chunk = os.read(fd, left)
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def worker_main(plugins: Sequence[str], fd_in: int = 0, fd_out: int = 1) -> None:
    """A pool worker's loop over its pipes: says ready, then plays each task it reads
    until its input closes or an empty message arrives.  Messages are length-prefixed
    msgpack.  Whatever agents print goes to stderr, never into the protocol."""
    global _status
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.environ.get(STATUS_ENV):
        try:
            _status = WorkerStatus(int(os.environ[STATUS_ENV]))
        except (ValueError, OSError):
            _status = None  # no status: the parent's per-move check simply sees nothing
    if fd_out == 1:
        fd_out = os.dup(1)
        os.dup2(2, 1)
        sys.stdout = sys.stderr
    try:
        import warnings

        warnings.simplefilter("ignore", RuntimeWarning)  # a missing optional plugin
        import romecore

        load_plugins(plugins)
        romecore.list_games()
    except BaseException as e:
        write_frame(fd_out, pack({"fatal": f"{type(e).__name__}: {e}"}))
        return
    write_frame(fd_out, pack({"ready": True}))
    while True:
        head = _read_exact(fd_in, 4)
        if head is None:
            return
        (n,) = _FRAME.unpack(head)
        msg = _read_exact(fd_in, n) if n else b""
        if not msg:
            return
        try:
            write_frame(fd_out, play_task_bytes(msg))
        except OSError:
            return

