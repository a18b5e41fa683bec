"""Engine speed of every installed game at its largest player count, one core:
C-level random playouts, the Python step loop, clone and snapshot round trip.

    python -m pytest bench/test_bench_games.py --benchmark-enable --benchmark-columns=mean,ops
"""

from __future__ import annotations

import warnings

import pytest

import romecore
from romecore.plugins import registry

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    GAMES = [(gid, spec.max_players if gid != "glory_to_rome" else 4) for gid, spec in registry.games().items()]

# The issues' targets, per game: playouts/s of full 4-player games, Python step us,
# snapshot round trip us.
TARGETS = {
    "great_city_of_rome": (10_000, 1.0, 5.0),
    "glory_to_rome": (2_000, 1.5, 5.0),
    "city_of_marble": (5_000, 1.0, 5.0),
    "rise_to_power": (20_000, 1.0, 5.0),
}


def _mid_state(game):
    s = game.new_initial_state(seed=1)
    s.playout(3)
    hist = s.history()
    mid = game.new_initial_state(seed=1)
    for a in hist[: len(hist) // 2]:
        mid.apply_action(a)
    return mid


@pytest.fixture(params=GAMES, ids=[f"{g}-{n}p" for g, n in GAMES])
def game(request):
    gid, n = request.param
    return romecore.load_game(gid, players=n)


def test_playout(benchmark, game):
    root = game.new_initial_state(seed=1)
    seeds = iter(range(10**9))

    def run():
        s = root.clone()
        s.playout(next(seeds))
        return s.move_number()

    steps = run()
    benchmark.extra_info["target_games_per_s"] = TARGETS.get(game.game_id, (None,))[0]
    benchmark.extra_info["actions_per_game"] = steps
    benchmark(run)


def test_python_step_loop(benchmark, game):
    """legal_actions() + apply_action() from Python, one step per call."""
    root = game.new_initial_state(seed=1)
    box = [root.clone(), 0]

    def step():
        s = box[0]
        if s.is_terminal():
            s = box[0] = root.clone()
        legal = s.legal_actions()
        s.apply_action(legal[box[1] % len(legal)])
        box[1] += 1

    benchmark.extra_info["target_us"] = TARGETS.get(game.game_id, (0, None))[1]
    benchmark(step)


def test_clone(benchmark, game):
    benchmark.extra_info["target_us"] = 1.0
    benchmark(_mid_state(game).clone)


def test_snapshot_round_trip(benchmark, game):
    mid = _mid_state(game)
    blob = mid.serialize()
    benchmark.extra_info["blob_bytes"] = len(blob)
    benchmark.extra_info["target_us"] = TARGETS.get(game.game_id, (0, 0, None))[2]
    assert game.deserialize(blob) == mid
    benchmark(lambda: game.deserialize(mid.serialize()))
