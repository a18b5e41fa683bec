"""Shared fixtures: every installed game with every player count it allows."""

from __future__ import annotations

import warnings

import pytest

import romecore
from romecore.plugins import registry


def all_game_configs() -> list[tuple[str, int]]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        specs = registry.games()
    return [(gid, n) for gid, spec in specs.items() for n in range(spec.min_players, spec.max_players + 1)]


GAME_CONFIGS = all_game_configs()
GAME_IDS = sorted({g for g, _ in GAME_CONFIGS})


@pytest.fixture(params=GAME_CONFIGS, ids=[f"{g}-{n}p" for g, n in GAME_CONFIGS])
def game(request) -> romecore.Game:
    gid, n = request.param
    return romecore.load_game(gid, players=n)
