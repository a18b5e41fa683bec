"""The Ray backend: the same games as Ray tasks on an existing cluster (or a local Ray
instance when no address is given).  Needs the optional extra ``romecore[ray]``.

Each game is one task taking and returning msgpack bytes (agents by spec string, the
start state as a snapshot), so results are identical to the local pool's for the same
master seed.  An agent that raises, plays an illegal move or overruns the per-move time
limit forfeits inside the task, as in the pool.  A task whose worker dies is played again
from its seed; one that overruns the per-game time limit (an agent stuck in native code,
which the task cannot interrupt, ends here) is cancelled (its worker process killed) and
played again, up to ``retries`` times.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from romecore.tournament.local import Sink, TournamentError
from romecore.tournament.schedule import GameTask
from romecore.tournament.worker import load_plugins, pack, play_task_bytes, unpack

__all__ = ["RayBackend", "ray_available"]


def ray_available() -> bool:
    try:
        import ray  # noqa: F401
    except ImportError:
        return False
    return True


def _play_remote(blob: bytes, plugins: list[str]) -> bytes:
    """The body of the Ray task (module-level, so Ray ships it by reference)."""
    import warnings

    warnings.simplefilter("ignore", RuntimeWarning)  # a missing optional plugin
    load_plugins(plugins)
    return play_task_bytes(blob)


class RayBackend:
    """Runs tasks on Ray.  ``address`` is a cluster address (``"auto"``, ``"ray://..."``,
    ``"host:port"``) or ``None`` to start a private local instance for this run.
    ``workers`` bounds the games in flight (default: the cluster's CPUs)."""

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None,
                 plugins: Sequence[str] = (), time_limit: float = 600.0, retries: int = 2,
                 init_kwargs: dict[str, Any] | None = None) -> None:
        try:
            import ray  # noqa: F401
        except ImportError:
            raise TournamentError("the ray backend needs Ray: pip install 'romecore[ray]'") from None
        self.address = address
        self.workers = workers
        self.plugins = list(plugins)
        self.time_limit = float(time_limit)
        self.retries = max(0, int(retries))
        self.init_kwargs = dict(init_kwargs or {})

    def run(self, tasks: Sequence[GameTask], sink: Sink) -> None:
        import ray
        from ray.exceptions import RayError

        started_here = not ray.is_initialized()
        if started_here:
            kwargs = {"include_dashboard": False, "log_to_driver": False, **self.init_kwargs}
            if self.address is None and self.workers and "num_cpus" not in kwargs:
                kwargs["num_cpus"] = self.workers
            try:
                ray.init(address=self.address, **kwargs)
            except Exception as e:
                where = self.address or "a new local instance"
                raise TournamentError(f"cannot connect to Ray at {where}: {e}") from None
        try:
            remote = ray.remote(num_cpus=1, max_retries=0)(_play_remote)
            width = self.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
            pending = list(reversed(tasks))  # pop() takes the next in order
            inflight: dict[Any, tuple[GameTask, float]] = {}
            attempts: dict[int, int] = {}
            while pending or inflight:
                while pending and len(inflight) < width:
                    task = pending.pop()
                    ref = remote.remote(pack(task.payload(attempts.get(task.index, 0) + 1)),
                                        self.plugins)
                    inflight[ref] = (task, time.monotonic())
                now = time.monotonic()
                timeout = max(0.0, min([0.5, *(t0 + self.time_limit - now for _, t0 in inflight.values())]))
                ready, _ = ray.wait(list(inflight), num_returns=1, timeout=timeout)
                for ref in ready:
                    task, _t0 = inflight.pop(ref)
                    try:
                        out = unpack(ray.get(ref))
                    except RayError as e:
                        self._lost(task, f"failed ({type(e).__name__})", pending, attempts, sink)
                        continue
                    tries = attempts.pop(task.index, 0) + 1
                    if out["ok"]:
                        sink.done(task, out, tries)
                    else:
                        sink.failed(task, out["error"], tries)
                now = time.monotonic()
                for ref, (task, t0) in list(inflight.items()):
                    if now - t0 > self.time_limit:
                        del inflight[ref]
                        ray.cancel(ref, force=True)
                        self._lost(task, f"took longer than the {self.time_limit:g} s time limit",
                                   pending, attempts, sink)
        finally:
            if started_here:
                ray.shutdown()

    def _lost(self, task: GameTask, why: str, pending: list[GameTask],
              attempts: dict[int, int], sink: Sink) -> None:
        tries = attempts[task.index] = attempts.get(task.index, 0) + 1
        if tries > self.retries:
            del attempts[task.index]
            sink.failed(task, f"Ray task {why} in game {task.index} on each of {tries} attempts", tries)
        else:
            sink.event(f"Ray task {why} in game {task.index}; replaying it from its seed "
                       f"(attempt {tries + 1})")
            pending.append(task)
