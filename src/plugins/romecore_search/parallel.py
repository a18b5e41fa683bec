"""Root parallelism: K processes search the same position, each with its own seed, and
their root statistics (visits and summed rewards per action) are added up.

The position travels as a msgpack snapshot (``state.serialize()`` /
``romecore.deserialize``); each worker process keeps one agent per spec and reseeds it for
every search, so a move is reproducible from (seed, position, budget).  Worker k's seed is
``mix_seed(seed, k)``.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
import threading
import time
from collections.abc import Mapping
from typing import Any

import romecore
from romecore.core.seeds import seed64
from romecore.errors import AgentSpecError, RomecoreError

__all__ = ["RootParallelAgent", "mix_seed"]

_AGENTS: dict[tuple, Any] = {}  # per worker process: (agent name, params, game) -> agent


def mix_seed(seed: int, k: int) -> int:
    """A well-spread 64-bit seed for worker k (splitmix64 of seed + k)."""
    z = (seed + 0x9E3779B97F4A7C15 * (k + 1)) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31)


def _worker_agent(name: str, params: Mapping[str, Any], game: romecore.Game, seed: int) -> Any:
    key = (name, tuple(sorted(params.items())), game.game_id, tuple(sorted(game.options.items())))
    agent = _AGENTS.get(key)
    if agent is None:
        from romecore.plugins import registry

        agent = registry.agent(name).build(game, seed, dict(params))
        _AGENTS[key] = agent
    return agent


def _worker_warm(name: str, params: Mapping[str, Any], game_id: str, options: Mapping[str, Any]) -> int:
    """Imports romecore and builds the agent in a worker (before the first move)."""
    game = romecore.load_game(game_id, **options)
    _worker_agent(name, params, game, 0)
    time.sleep(0.05)  # hold this worker so the next warm-up goes to another one
    return multiprocessing.current_process().pid or 0


def _worker_search(name: str, params: Mapping[str, Any], blob: bytes, seed: int):
    state = romecore.deserialize(blob)
    agent = _worker_agent(name, params, state.game, seed)
    agent.reseed(seed)
    agent.restart()
    agent.step(state)
    stats = agent.stats
    return list(stats.get("root", [])), int(stats.get("iterations", 0))


class RootParallelAgent:
    """``workers`` processes search each move; most merged visits wins (then the higher
    mean reward, then the lower action id).  ``close()`` stops the processes (also done
    when the agent is garbage-collected).  Steps from several threads share the pool
    (its workers take the searches in turn); ``close`` waits for the steps under way."""

    def __init__(self, name: str, game: romecore.Game, seed: int, workers: int,
                 params: Mapping[str, Any]) -> None:
        if workers < 2:
            raise AgentSpecError("RootParallelAgent needs workers >= 2")
        self.name = name
        self.game = game
        self.seed = seed64(seed)
        self.workers = workers
        self.params = dict(params)
        self.spec = f"{name}:workers={workers}"
        self.stats: dict[str, Any] = {}
        self._lock = threading.Lock()  # guards _pool: steps share it, close ends it
        self._steps = 0
        self._idle = threading.Condition(self._lock)
        ctx = multiprocessing.get_context("spawn")
        self._pool: concurrent.futures.ProcessPoolExecutor | None = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers, mp_context=ctx)
        warm = [self._pool.submit(_worker_warm, name, self.params, game.game_id, game.options)
                for _ in range(workers)]
        for f in warm:
            f.result()

    def step(self, state: romecore.State) -> int:
        if state.game != self.game:
            raise ValueError(f"{self.name} plays {self.game!r}, not {state.game!r}")
        legal = state.legal_actions()
        if state.current_player() < 0 or not legal:
            raise romecore.IllegalActionError(f"{self.name}.step: no player is to move")
        if len(legal) == 1:
            self.stats = {"iterations": 0, "seconds": 0.0, "root": [(legal[0], 0, 0.0)]}
            return legal[0]
        t0 = time.perf_counter()
        blob = state.serialize()
        with self._lock:
            if self._pool is None:
                raise RomecoreError(f"{self.name}: step after close()")
            seed = self.seed
            futures = [self._pool.submit(_worker_search, self.name, self.params, blob,
                                         mix_seed(seed, k)) for k in range(self.workers)]
            self._steps += 1
        try:
            results = [f.result() for f in futures]
        finally:
            with self._lock:
                self._steps -= 1
                self._idle.notify_all()
        merged: dict[int, list] = {}
        iterations = 0
        for root, its in results:
            iterations += its
            for a, n, v in root:
                m = merged.setdefault(a, [0, 0.0])
                m[0] += n
                m[1] += v
        best = max(merged, key=lambda a: (merged[a][0], merged[a][1] / max(merged[a][0], 1), -a))
        self.stats = {"iterations": iterations, "seconds": time.perf_counter() - t0,
                      "root": sorted((a, n, v) for a, (n, v) in merged.items())}
        if best not in legal:
            raise RuntimeError(f"{self.name}: workers chose illegal action {best} (a bug)")
        return best

    def restart(self) -> None:
        pass

    def reseed(self, seed: int) -> None:
        self.seed = seed64(seed)

    def close(self) -> None:
        lock = getattr(self, "_lock", None)
        if lock is None:  # __init__ failed before the pool existed
            return
        with self._idle:
            while self._steps:
                self._idle.wait()
            pool, self._pool = getattr(self, "_pool", None), None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<RootParallelAgent {self.name} x{self.workers} for {self.game.game_id}>"
