"""Canonical JSON (romecore.core.canonical): orjson and the standard library's fallback
write the same text, and that text is canonical by an independent reading of it."""

from __future__ import annotations

import json
import random

import pytest

import romecore
from romecore.core import canonical


def _sorted_pairs(pairs):
    keys = [k for k, _ in pairs]
    assert keys == sorted(keys), f"keys out of order: {keys}"
    return dict(pairs)


def _plain(value):
    """The value as JSON reads it back: tuples are lists."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _assert_canonical(text: str, value) -> None:
    """Reads the text back with the standard library: the same value, every object's keys
    in sorted order, no space outside strings."""
    assert json.loads(text, object_pairs_hook=_sorted_pairs) == _plain(value)
    outside = "".join(part for i, part in enumerate(text.split('"')) if i % 2 == 0)
    assert not any(ch.isspace() for ch in outside)


def _observations(game_id: str, players: int, games: int = 3, every: int = 7):
    game = romecore.load_game(game_id, players=players)
    for seed in range(games):
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        step = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            step += 1
            if step % every == 0:
                for p in range(players):
                    yield state, p


@pytest.mark.parametrize("game_id", romecore.list_games())
def test_observation_strings_are_canonical_and_encoder_independent(game_id, monkeypatch):
    spec = romecore.load_game(game_id).spec
    seen = 0
    for players in sorted({spec.min_players, spec.max_players}):
        for state, p in _observations(game_id, players):
            text = state.observation_string(p)
            _assert_canonical(text, state.observation(p))
            assert state.information_state_string(p) == text
            with monkeypatch.context() as m:
                m.setattr(canonical, "orjson", None)
                assert state.observation_string(p) == text
            seen += 1
    assert seen > 20


@pytest.mark.parametrize("value", [
    {"b": 1, "a": {"d": [1.5, -2, None], "c": True}},
    {"name": "Ædile", "x": [0.1, 0.0001, 2.5e300, -0.0], "t": (1, "two")},
    {"big": 2 ** 70},          # past orjson's 64 bits: the fallback writes it
    [{"z": 0, "y": [{"b": 0, "a": 1}]}],
])
def test_both_encoders_agree(value, monkeypatch):
    text = canonical.canonical_json(value)
    _assert_canonical(text, value)
    monkeypatch.setattr(canonical, "orjson", None)
    assert canonical.canonical_json(value) == text


def test_orjson_is_the_encoder_where_installed():
    pytest.importorskip("orjson")
    assert canonical.orjson is not None
