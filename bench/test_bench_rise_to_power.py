"""Rome: Rise to Power engine speed, one core: C-level random playouts of full games
(2 to 4 players), the Python step loop, snapshot round trip, clone, resample, validation
and the C heuristic.

    python -m pytest bench/test_bench_rise_to_power.py --benchmark-enable \
        --benchmark-columns=mean,median,ops

Targets (issue 7): >= 20,000 playouts/s of full 4-player games, <= 1 us per Python step,
<= 5 us per snapshot round trip.  Recorded in extra_info, never asserted.
"""

from __future__ import annotations

import pytest

import romecore


def _game(n=4, intrigue="none"):
    return romecore.load_game("rise_to_power", players=n, intrigue=intrigue)


def _mid_state(game, seed=1):
    """A state halfway through a random game (phase 2 or 3 of round 3, typically)."""
    s = game.new_initial_state(seed=seed)
    s.playout(seed)
    hist = s.history()
    mid = game.new_initial_state(seed=seed)
    for a in hist[: len(hist) // 2]:
        mid.apply_action(a)
    return mid


@pytest.mark.parametrize("n,intrigue", [(2, "none"), (3, "none"), (4, "none"), (4, "all")])
def test_playout(benchmark, n, intrigue):
    """One full random game in C from the initial state (set-up deals included)."""
    game = _game(n, intrigue)
    root = game.new_initial_state(seed=1)
    seeds = iter(range(10**9))

    def run():
        s = root.clone()
        s.playout(next(seeds))
        return s.move_number()

    total = sum(run() for _ in range(500))
    benchmark.extra_info["actions_per_game"] = total / 500
    if n == 4:
        benchmark.extra_info["target_games_per_s"] = 20_000
    benchmark(run)


def test_python_step_loop(benchmark):
    """legal_actions() + apply_action() from Python, one step per call."""
    game = _game(4)
    root = game.new_initial_state(seed=1)
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


def test_snapshot_round_trip(benchmark):
    """serialize() then Game.deserialize() (which validates the struct)."""
    game = _game(4)
    mid = _mid_state(game)
    benchmark.extra_info["target_us"] = 5.0
    benchmark.extra_info["blob_bytes"] = len(mid.serialize())
    benchmark.extra_info["state_bytes"] = game.state_size()
    assert game.deserialize(mid.serialize()) == mid
    benchmark(lambda: game.deserialize(mid.serialize()))


def test_clone(benchmark):
    benchmark(_mid_state(_game(4)).clone)


def test_resample(benchmark):
    mid = _mid_state(_game(4))
    benchmark(mid.resample, 0, 7)


def test_heuristic(benchmark):
    game = _game(4)
    ev = romecore.make_evaluator(game)
    benchmark(ev, _mid_state(game))
