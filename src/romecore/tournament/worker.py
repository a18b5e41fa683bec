"""The worker side: plays one game from a task given as plain data.

Workers receive agents as spec strings and the start state as a msgpack snapshot, and
send back the game record as plain data, all msgpack-encoded: nothing is pickled, so a
worker can be a local process or a Ray task on another machine with another Python
build.  A worker process ignores SIGINT (the parent decides when to stop) and exits when
its pipe closes.
"""

from __future__ import annotations

import importlib
import signal
import traceback
from typing import Any, Sequence

import msgpack

__all__ = ["play_task", "play_task_bytes", "load_plugins", "worker_main", "pack", "unpack"]

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
    """Plays the game a task describes; returns ``{"i", "ok": True, "record"}`` or, when
    the game itself fails (an agent raises, an illegal move), ``{"i", "ok": False,
    "error"}``."""
    import romecore
    from romecore.match import play_game

    index = task.get("i")
    try:
        state = romecore.deserialize(task["blob"])
        game = state.game
        agents = [romecore.make_agent(spec, game=game, seed=s)
                  for spec, s in zip(task["agents"], task["agent_seeds"])]
        record = play_game(game, agents, task["seed"], state=state)
        record.meta = {"index": index, "lineup": task["lineup"]}
        return {"i": index, "ok": True, "record": record.to_dict()}
    except Exception as e:  # reported, not raised: the tournament goes on
        tb = traceback.format_exception_only(type(e), e)[-1].strip()
        return {"i": index, "ok": False, "error": tb}


def play_task_bytes(blob: bytes) -> bytes:
    """:func:`play_task` from and to msgpack bytes."""
    return pack(play_task(unpack(blob)))


def worker_main(conn: Any, plugins: Sequence[str]) -> None:
    """A pool worker's loop: says ready, then plays each task it receives until the pipe
    closes or an empty message arrives."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import romecore  # noqa: F401  (load the registry before the first game)
        import warnings

        warnings.simplefilter("ignore", RuntimeWarning)  # a missing optional plugin
        load_plugins(plugins)
        romecore.list_games()
    except Exception as e:
        conn.send_bytes(pack({"fatal": f"{type(e).__name__}: {e}"}))
        return
    conn.send_bytes(pack({"ready": True}))
    while True:
        try:
            msg = conn.recv_bytes()
        except (EOFError, OSError):
            return
        if not msg:
            return
        try:
            conn.send_bytes(play_task_bytes(msg))
        except (BrokenPipeError, OSError):
            return
