"""Engine speed of Rome: City of Marble, one core (issue 6's targets in ``extra_info``):
C-level random playouts of full 4-player games (>= 5,000 games/s), the Python step loop
(<= 1 us a step), clone, snapshot round trip (<= 5 us), dict round trip, the heuristic.

    python -m pytest bench/test_bench_city_of_marble.py --benchmark-enable \\
        --benchmark-columns=mean,median,ops
"""

from __future__ import annotations

import warnings

import pytest

import romecore

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    GAME = romecore.load_game("city_of_marble", players=4)


def _mid_state():
    s = GAME.new_initial_state(seed=1)
    s.playout(3)
    hist = s.history()
    mid = GAME.new_initial_state(seed=1)
    for a in hist[: len(hist) // 2]:
        mid.apply_action(a)
    return mid


def test_playout_full_4p_game(benchmark):
    root = GAME.new_initial_state(seed=1)
    seeds = iter(range(10**9))

    def run():
        s = root.clone()
        s.playout(next(seeds))
        return s.move_number()

    benchmark.extra_info["actions_per_game"] = run()
    benchmark.extra_info["target_games_per_s"] = 5000
    benchmark(run)


def test_python_step_loop(benchmark):
    """legal_actions() + apply_action() from Python, one step per call."""
    root = GAME.new_initial_state(seed=1)
    box = [root.clone(), 0]

    def step():
        s = box[0]
        if s.is_terminal():
            s = box[0] = root.clone()
        legal = s.legal_actions()
        s.apply_action(legal[box[1] % len(legal)])
        box[1] += 1

    benchmark.extra_info["target_us"] = 1.0
    benchmark(step)


def test_clone(benchmark):
    benchmark(_mid_state().clone)


def test_snapshot_round_trip(benchmark):
    mid = _mid_state()
    blob = mid.serialize()
    assert GAME.deserialize(blob) == mid
    benchmark.extra_info["blob_bytes"] = len(blob)
    benchmark.extra_info["state_bytes"] = GAME.state_size()
    benchmark.extra_info["target_us"] = 5.0
    benchmark(lambda: GAME.deserialize(mid.serialize()))


def test_dict_round_trip(benchmark):
    mid = _mid_state()
    assert GAME.state_from_dict(mid.to_dict()) == mid
    benchmark(lambda: GAME.state_from_dict(mid.to_dict()))


def test_heuristic_evaluation(benchmark):
    try:
        ev = romecore.make_evaluator(GAME, "heuristic")
    except Exception:  # the heuristics plugin is not built
        pytest.skip("romecore_heuristics.city_of_marble is not built")
    mid = _mid_state()
    benchmark(ev, mid)
