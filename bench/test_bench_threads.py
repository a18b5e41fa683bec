"""Threads: two MCTS agents searching in two threads against the same two searches one
after the other (The Great City of Rome, 4 players, 2000 simulations a search).  The C
search runs without the GIL, so on two free cores the threaded pair should take about
half the time.  One agent shared by both threads serialises its calls: no speed-up.

    python -m pytest bench/test_bench_threads.py --benchmark-enable --benchmark-columns=mean

``extra_info``: ``speedup`` (one thread's time over two threads', for two agents),
``shared_speedup`` (the same for one shared agent, about 1.0), ``two_threads_cpu_per_wall``
(process CPU seconds per wall second while the two agents search: about 2 when both
threads run at once on free cores, whatever the speed) and the CPUs this process may use.
On a machine that other work keeps busy the speed-up shows less than the cores allow.
"""

from __future__ import annotations

import concurrent.futures
import os
import resource
import time

import pytest

import romecore
from test_bench_search import start_position

SIMULATIONS = 2000
ROUNDS = 5


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _best(fn, rounds: int = ROUNDS) -> float:
    """The shortest of ``rounds`` wall times of fn() (the least disturbed run)."""
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def test_mcts_two_agents_in_two_threads(benchmark):
    if "mcts" not in romecore.list_agents():
        pytest.skip("mcts not installed")
    game = romecore.load_game("great_city_of_rome", players=4)
    state = start_position(game)
    spec = f"mcts:simulations={SIMULATIONS},reuse=0"
    agents = [romecore.make_agent(spec, game=game, seed=s) for s in (1, 2)]
    views = [state.clone(), state.clone()]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:

        def threaded(pair):
            list(pool.map(lambda k: pair[k].step(views[k]), range(2)))

        def one_thread(pair):
            for k in range(2):
                pair[k].step(views[k])

        for agent in agents:  # warm caches and the pool's threads
            agent.step(state)
        threaded(agents)
        sequential = _best(lambda: one_thread(agents))
        wall, cpu = time.perf_counter(), _cpu()
        benchmark.pedantic(threaded, args=(agents,), rounds=ROUNDS, warmup_rounds=1)
        wall, cpu = time.perf_counter() - wall, _cpu() - cpu
        parallel = benchmark.stats.stats.min
        shared = [agents[0], agents[0]]
        shared_parallel = _best(lambda: threaded(shared))
        shared_sequential = _best(lambda: one_thread(shared))
    benchmark.extra_info["simulations_per_search"] = SIMULATIONS
    benchmark.extra_info["one_thread_s"] = round(sequential, 4)
    benchmark.extra_info["two_threads_s"] = round(parallel, 4)
    benchmark.extra_info["speedup"] = round(sequential / parallel, 2)
    benchmark.extra_info["two_threads_cpu_per_wall"] = round(cpu / wall, 2)
    benchmark.extra_info["shared_speedup"] = round(shared_sequential / shared_parallel, 2)
    benchmark.extra_info["cpus"] = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
