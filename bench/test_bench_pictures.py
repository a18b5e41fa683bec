"""Picture speed: ``romecore.picture.to_svg`` of states spread over a 4-player random game
of every installed game, from one player's view and as the whole truth (one render a call,
the states cycled).

    python -m pytest bench/test_bench_pictures.py --benchmark-enable --benchmark-columns=mean,median,max

Target (issue 17; recorded in extra_info, never asserted): a render takes <= 5 ms a state.
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
