"""Picture speed: ``romecore.picture.to_svg`` of states spread over a 4-player random game
of every installed game, from one player's view and as the whole truth (one render a call,
the states cycled).

    python -m pytest bench/test_bench_pictures.py --benchmark-enable --benchmark-columns=mean,median,max

Target (issue 17; recorded in extra_info, never asserted): a render takes <= 5 ms a state.
``test_table_views`` compares a web table's pictures with and without the picture cache
(issue 55: ``ms_a_view`` in extra_info).
"""

from __future__ import annotations

import itertools
import warnings

import pytest

import romecore
from conftest import states_along_a_game
from romecore.picture import to_svg
from romecore.plugins import registry

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    GAMES = sorted(registry.games())


@pytest.mark.parametrize("viewer", ["player", "truth"])
@pytest.mark.parametrize("gid", GAMES)
def test_render(benchmark, gid, viewer):
    game = romecore.load_game(gid, players=4)
    states = itertools.cycle(states_along_a_game(game, count=8))
    player = 1 if viewer == "player" else None
    benchmark.extra_info["target_ms"] = 5.0
    benchmark(lambda: to_svg(next(states), player))


@pytest.mark.parametrize("cache", ["cached", "uncached"])
@pytest.mark.parametrize("gid", GAMES)
def test_table_views(benchmark, gid, cache):
    """What a web table draws along a 2-player game: at each decision, both seats' pictures
    and the mover's moves with their board keys (``human_view``), in order, so the picture
    cache (``Canvas.cached``) holds the earlier positions' panels as it does on a server.
    One round is the whole walk; extra_info has the cost of one view."""
    from romecore.web.sessions import human_view

    game = romecore.load_game(gid, players=2)
    probe = game.new_initial_state(seed=3)
    probe.playout(3)
    positions, state = [], game.new_initial_state(seed=3)
    for action in probe.history()[:240]:  # every decision of the first 240 plies, in order
        if not state.is_chance_node():
            positions.append(state.clone())
        state.apply_action(action)

    def walk() -> None:
        romecore.picture._CACHED.clear()
        for state in positions:
            for seat in (0, 1):
                human_view(state, seat)

    def run() -> None:
        if cache == "cached":
            walk()
        else:
            with romecore.picture.uncached():
                walk()

    benchmark.extra_info["views"] = 2 * len(positions)
    benchmark.pedantic(run, rounds=3, iterations=1)
    if benchmark.stats is not None:  # None when benchmarks are disabled (the test suite's quick pass)
        benchmark.extra_info["ms_a_view"] = round(1000 * benchmark.stats.stats.mean / (2 * len(positions)), 3)
