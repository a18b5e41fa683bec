"""Engine speed of every installed game, one core: C-level random playouts (every player
count, and the option variants that change the game's length), the Python step loop,
clone, snapshot and dict round trips, resample and the game's C heuristic.

    python -m pytest bench/test_bench_games.py --benchmark-enable --benchmark-columns=mean,median,ops

Targets (the issues'; recorded in extra_info, never asserted): full 4-player playouts/s,
Python step loop us, snapshot round trip us.  ``romecore bench GAME`` prints the same
numbers from the command line.
"""

from __future__ import annotations

import warnings

import pytest

import romecore
from conftest import states_along_a_game
from romecore.plugins import registry

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    SPECS = registry.games()

TARGETS = {
    "great_city_of_rome": {"games_per_s": 10_000, "step_us": 1.0, "snapshot_us": 5.0},
    "glory_to_rome": {"games_per_s": 2_000, "step_us": 1.5, "snapshot_us": 5.0},
    "city_of_marble": {"games_per_s": 5_000, "step_us": 1.0, "snapshot_us": 5.0},
    "rise_to_power": {"games_per_s": 20_000, "step_us": 1.0, "snapshot_us": 5.0},
}
VARIANTS = {"rise_to_power": [{"intrigue": "all"}], "glory_to_rome": [{"training": True}]}

PLAYOUT_CONFIGS = [(gid, n, {}) for gid, spec in SPECS.items()
                   for n in range(spec.min_players, spec.max_players + 1)]
PLAYOUT_CONFIGS += [(gid, 4, opts) for gid, variants in VARIANTS.items() if gid in SPECS for opts in variants]
# The other measurements use the 4-player game (the issues' reference).
GAMES = [(gid, 4) for gid in SPECS]


def _label(gid, n, opts=None):
    extra = "".join(f"-{k}={v}" for k, v in (opts or {}).items())
    return f"{gid}-{n}p{extra}"


def _mid_state(game):
    """A state halfway through a random game."""
    s = game.new_initial_state(seed=1)
    s.playout(3)
    hist = s.history()
    mid = game.new_initial_state(seed=1)
    for a in hist[: len(hist) // 2]:
        mid.apply_action(a)
    return mid


@pytest.fixture(params=GAMES, ids=[_label(g, n) for g, n in GAMES])
def game(request):
    gid, n = request.param
    return romecore.load_game(gid, players=n)


@pytest.mark.parametrize("gid,n,opts", PLAYOUT_CONFIGS, ids=[_label(*c) for c in PLAYOUT_CONFIGS])
def test_playout(benchmark, gid, n, opts):
    """One full random game in C from the initial state (set-up included)."""
    game = romecore.load_game(gid, players=n, **opts)
    root = game.new_initial_state(seed=1)
    seeds = iter(range(10**9))

    def run():
        s = root.clone()
        s.playout(next(seeds))
        return s.move_number()

    benchmark.extra_info["actions_per_game"] = run()
    if n == 4 and not opts:
        benchmark.extra_info["target_games_per_s"] = TARGETS.get(gid, {}).get("games_per_s")
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

    benchmark.extra_info["target_us"] = TARGETS.get(game.game_id, {}).get("step_us")
    benchmark(step)


def test_clone(benchmark, game):
    benchmark.extra_info["target_us"] = 1.0
    benchmark(_mid_state(game).clone)


def test_snapshot_round_trip(benchmark, game):
    """game.deserialize(state.serialize()) over 8 states spread along a game; the time
    per state is extra_info["us_per_state"]."""
    states = states_along_a_game(game)
    for s in states:
        assert game.deserialize(s.serialize()) == s

    def trip():
        for s in states:
            game.deserialize(s.serialize())

    benchmark.extra_info["blob_bytes"] = len(states[len(states) // 2].serialize())
    benchmark.extra_info["state_bytes"] = game.state_size()
    benchmark.extra_info["target_us_per_state"] = TARGETS.get(game.game_id, {}).get("snapshot_us")
    benchmark(trip)
    if benchmark.stats is not None:
        benchmark.extra_info["us_per_state"] = 1e6 * benchmark.stats.stats.mean / len(states)


def test_dict_round_trip(benchmark, game):
    mid = _mid_state(game)
    assert game.state_from_dict(mid.to_dict()) == mid
    benchmark(lambda: game.state_from_dict(mid.to_dict()))


def test_resample(benchmark, game):
    mid = _mid_state(game)
    player = max(0, mid.current_player())
    benchmark(mid.resample, player, 7)


def test_heuristic(benchmark, game):
    try:
        ev = romecore.make_evaluator(game)
    except romecore.RomecoreError:
        pytest.skip(f"no evaluator built for {game.game_id}")
    benchmark(ev, _mid_state(game))
