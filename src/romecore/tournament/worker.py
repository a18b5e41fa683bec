"""The worker side: plays one game from a task given as plain data.

Workers receive agents as spec strings and the start state as a msgpack snapshot, and
send back the game record (as its JSON line) and a summary, all msgpack-encoded: nothing is pickled, so a
worker can be a local process or a Ray task on another machine with another Python
build.  A pool worker is a fresh interpreter (see :data:`WORKER_COMMAND`) talking length-prefixed msgpack over its stdin and stdout, so it never
imports the caller's ``__main__`` (no ``if __name__ == "__main__"`` guard needed); it
ignores SIGINT (the parent decides when to stop) and exits when its input closes.
"""

from __future__ import annotations

import importlib
import os
import signal
import struct
import sys
import traceback
from typing import Any, Sequence

import msgpack

__all__ = ["play_task", "play_task_bytes", "load_plugins", "worker_main", "pack", "unpack",
           "write_frame", "split_frames", "WORKER_COMMAND"]

_loaded_plugins: set[str] = set()


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


def play_task(task: dict) -> dict:
    """Plays the game a task describes.  Returns ``{"i", "ok": True, "summary", "line"}``:
    what the results table needs, and the game record as its JSON line (made here, so
    the parent only appends bytes); or, when the game itself fails (an agent raises, an
    illegal move), ``{"i", "ok": False, "error"}``."""
    import romecore
    from romecore.match import play_game
    from romecore.records import dumps_json

    index = task.get("i")
    try:
        state = romecore.deserialize(task["blob"])
        game = state.game
        agents = [romecore.make_agent(spec, game=game, seed=s)
                  for spec, s in zip(task["agents"], task["agent_seeds"])]
        record = play_game(game, agents, task["seed"], state=state)
        record.meta = {"index": index, "lineup": task["lineup"], "attempts": task.get("attempt", 1)}
        summary = {"index": index, "lineup": task["lineup"], "returns": record.returns,
                   "scores": record.scores, "think_seconds": record.think_seconds,
                   "moves": record.moves}
        return {"i": index, "ok": True, "summary": summary,
                "line": dumps_json(record).encode("utf-8")}
    except Exception as e:  # reported, not raised: the tournament goes on
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        return {"i": index, "ok": False, "error": tb}


def play_task_bytes(blob: bytes) -> bytes:
    """:func:`play_task` from and to msgpack bytes."""
    return pack(play_task(unpack(blob)))


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
    signal.signal(signal.SIGINT, signal.SIG_IGN)
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

