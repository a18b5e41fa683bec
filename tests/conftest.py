"""Shared fixtures: every installed game with every player count it allows.

Hypothesis runs derandomized by default, so a given tree passes or fails the same way on
every machine (CI included); ``python -m pytest --hypothesis-profile=explore`` draws fresh
examples to hunt for new failures.
"""

from __future__ import annotations

import warnings

import pytest
from hypothesis import settings

import romecore
from romecore.plugins import registry


def all_game_configs() -> list[tuple[str, int]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        specs = registry.games()
    return [(gid, n) for gid, spec in specs.items() for n in range(spec.min_players, spec.max_players + 1)]


settings.register_profile("default", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("default")

GAME_CONFIGS = all_game_configs()
GAME_IDS = sorted({g for g, _ in GAME_CONFIGS})


@pytest.fixture(params=GAME_CONFIGS, ids=[f"{g}-{n}p" for g, n in GAME_CONFIGS])
def game(request) -> romecore.Game:
    gid, n = request.param
    return romecore.load_game(gid, players=n)
