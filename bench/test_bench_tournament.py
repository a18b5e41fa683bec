"""Speed of snapshots and of the tournament runner (issue 4's targets, recorded in
``extra_info``, never asserted):

- snapshot round trip (``serialize`` + ``deserialize``) <= 5 us per state, every game;
- random-agent tournament throughput with 2 workers >= 1.8x one worker;
- per-game overhead of the runner, agents' thinking excluded, <= 2 ms.

    python -m pytest bench/test_bench_tournament.py --benchmark-enable \\
        --benchmark-columns=mean,ops -s

Throughput is measured in the steady state, from the first finished game to the last,
so worker start-up (about half a second) is not in it; it is reported separately.
"""

from __future__ import annotations

import time
import warnings

import pytest

import romecore
from conftest import states_along_a_game
from romecore import records
from romecore.plugins import registry
from romecore.tournament import InlineBackend, LocalBackend, make_task

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    GAMES = [(gid, spec.max_players) for gid, spec in registry.games().items()]
GAME = "great_city_of_rome"


@pytest.fixture(params=GAMES, ids=[f"{g}-{n}p" for g, n in GAMES])
def game(request):
    gid, n = request.param
    return romecore.load_game(gid, players=n)


def test_snapshot_round_trip_any_game_with_history(benchmark, game):
    """romecore.deserialize(state.serialize(history=True)): the path a worker takes once
    per game (the game is found from the blob)."""
    state = states_along_a_game(game)[4]
    blob = state.serialize(history=True)
    benchmark.extra_info["bytes"] = len(blob)
    benchmark(lambda: romecore.deserialize(state.serialize(history=True)))


class _Clock:
    """A sink that notes when each game ends and what its agents spent thinking."""

    def __init__(self):
        self.ends: list[float] = []
        self.think = 0.0
        self.failed = 0

    def done(self, task, result, attempts):
        self.ends.append(time.perf_counter())
        self.think += sum(result["summary"]["think_seconds"])

    def failed(self, task, reason, attempts):
        self.failed += 1

    def event(self, message):
        pass


def _pool_run(workers: int, games: int, coalesce: bool = True) -> dict:
    game = romecore.load_game(GAME, players=4)
    tasks = [make_task(game, ["random", "random"], 1, i) for i in range(games)]
    clock = _Clock()
    t0 = time.perf_counter()
    LocalBackend(workers=workers, prefetch=2, coalesce=coalesce).run(tasks, clock)
    steady = clock.ends[-1] - clock.ends[0]
    return {
        "games_per_s": (len(clock.ends) - 1) / steady,
        "startup_s": clock.ends[0] - t0,
        "think_ms_per_game": 1000 * clock.think / len(clock.ends),
        "wall_ms_per_game_per_worker": 1000 * steady * workers / (len(clock.ends) - 1),
    }


_CPU_LOOP = ("import time, romecore\n"
             "g = romecore.load_game('great_city_of_rome', players=4)\n"
             "t = time.perf_counter(); n = 0\n"
             "while time.perf_counter() - t < 3:\n"
             "    g.new_initial_state(seed=n).playout(n); n += 1\n"
             "print(n / (time.perf_counter() - t))\n")


def _cpu_scaling() -> float:
    """What the machine itself gives: the summed rate of two independent processes
    playing random games in C, over the rate of one.  The pool cannot beat this."""
    import subprocess
    import sys

    def rates(k: int) -> float:
        procs = [subprocess.Popen([sys.executable, "-c", _CPU_LOOP], stdout=subprocess.PIPE, text=True)
                 for _ in range(k)]
        return sum(float(p.communicate()[0]) for p in procs)

    return rates(2) / rates(1)


def test_pool_throughput_two_workers_vs_one(benchmark):
    """Random agents, 4 players: games/s with 1 and with 2 workers, steady state, next to
    the machine's own scaling of two CPU-bound processes."""
    games = 3000
    out = {}

    def both():
        out["one"] = _pool_run(1, games)
        out["two"] = _pool_run(2, games)
        out["one_nc"] = _pool_run(1, games, coalesce=False)
        out["two_nc"] = _pool_run(2, games, coalesce=False)
        out["cpu"] = _cpu_scaling()

    benchmark.pedantic(both, rounds=1, iterations=1)
    benchmark.extra_info.update({
        "games": games,
        "one_worker_games_per_s": out["one"]["games_per_s"],
        "two_workers_games_per_s": out["two"]["games_per_s"],
        "speedup": out["two"]["games_per_s"] / out["one"]["games_per_s"],
        "target_speedup": 1.8,
        "startup_s": out["two"]["startup_s"],
        "speedup_without_coalescing": out["two_nc"]["games_per_s"] / out["one_nc"]["games_per_s"],
        "machine_two_process_scaling": out["cpu"],
    })
    print(f"\n1 worker {out['one']['games_per_s']:.0f} games/s, 2 workers "
          f"{out['two']['games_per_s']:.0f} games/s: x{benchmark.extra_info['speedup']:.2f}; "
          f"without coalescing {out['one_nc']['games_per_s']:.0f} and {out['two_nc']['games_per_s']:.0f}: "
          f"x{benchmark.extra_info['speedup_without_coalescing']:.2f}; two CPU-bound processes "
          f"on this machine: x{out['cpu']:.2f}")


def test_runner_overhead_per_game(benchmark):
    """Everything but the agents' step(): task, snapshot, agents built, state views
    (resample), applying moves, the record, msgpack both ways, results file line.  Per game
    of random agents, 4 players, in the calling process (inline) and in a one-worker pool."""
    games = 1000
    game = romecore.load_game(GAME, players=4)
    tasks = [make_task(game, ["random", "random"], 2, i) for i in range(games)]
    out = {}

    def inline():
        clock = _Clock()
        t0 = time.perf_counter()
        InlineBackend().run(tasks, clock)
        out["inline"] = (time.perf_counter() - t0 - clock.think) / games

    benchmark.pedantic(inline, rounds=1, iterations=1)
    pool = _pool_run(1, 2000)
    benchmark.extra_info.update({
        "inline_overhead_ms_per_game": 1000 * out["inline"],
        "pool_overhead_ms_per_game": pool["wall_ms_per_game_per_worker"] - pool["think_ms_per_game"],
        "think_ms_per_game": pool["think_ms_per_game"],
        "target_ms": 2.0,
    })
    print(f"\nrunner overhead per game: inline {1000 * out['inline']:.3f} ms, "
          f"1-worker pool {benchmark.extra_info['pool_overhead_ms_per_game']:.3f} ms "
          f"(agents think {pool['think_ms_per_game']:.3f} ms)")


def test_parent_share_per_game(benchmark, tmp_path):
    """What the parent does per finished game: unpack the worker's message, note the
    summary, append the record's line to the results file."""
    from romecore.tournament.resultsfile import ResultsFile, make_header
    from romecore.tournament.stats import GameSummary
    from romecore.tournament.worker import pack, play_task, unpack

    game = romecore.load_game(GAME, players=4)
    message = pack(play_task(make_task(game, ["random"], 1, 0).payload()))
    header = make_header(GAME, game.options, ["random"], 1, 1, True, None)
    f = ResultsFile(tmp_path / "r.jsonl", header)

    def one():
        out = unpack(message)
        GameSummary.from_summary(out["summary"])
        f.add_line(out["line"])

    benchmark(one)
    f.close()
    assert records.read(tmp_path / "r.jsonl")
