"""The checks every game's struct gets once, in core (``State._check_struct`` and
``rc_check_padding``), on a snapshot from outside: padding bytes are zero, and a live state
has a legal action.  The kernels' own ``validate`` no longer repeats them.

The oracles are independent of the checks: a snapshot with one byte changed that still
loads must be a different position (its dict form, which reads every field, differs), so
no byte the game ignores slips through; and the live states without a legal action are
single-byte mutations of real positions that a sweep of every byte and value found (the
kernels' own checks, before they moved to core, refused exactly these with the same
message)."""

from __future__ import annotations

import random

import pytest

import romecore

GAME_IDS = romecore.list_games()


def _positions(game: romecore.Game, seed: int) -> list[romecore.State]:
    """Every position of one seeded random game, in order."""
    rng = random.Random(seed)
    s = game.new_initial_state(seed=seed)
    out = []
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        out.append(s.clone())
    return out


def _with_byte(state: romecore.State, offset: int, value: int) -> bytes:
    """``state``'s snapshot with byte ``offset`` of its struct set to ``value``."""
    blob = bytearray(state.serialize())
    at = bytes(blob).index(state.state_bytes())
    blob[at + offset] = value
    return bytes(blob)


def _position(state: romecore.State) -> dict:
    d = state.to_dict(history=False)
    del d["rng"]
    return d


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("players", [2, 4])
def test_a_changed_byte_is_refused_or_changes_the_position(game_id, players):
    game = romecore.load_game(game_id, players=players)
    states = _positions(game, seed=players)
    padding = 0
    for state in states[5::len(states) // 3]:
        before = _position(state)
        sb = state.state_bytes()
        for i in range(len(sb)):
            try:
                loaded = game.deserialize(_with_byte(state, i, sb[i] ^ 0x01))
            except romecore.SerializationError as e:
                padding += str(e).endswith("padding bytes are not zero")
                continue
            assert _position(loaded) != before, f"byte {i} changed, the position did not"
    assert padding, "no byte was refused as padding (the shared message)"


#: (game, players, seed of the random game, position in it, struct byte, value): live
#: states without a legal action, found by setting every byte of every position to every value
NO_LEGAL_ACTION = [
    ("great_city_of_rome", 3, 1, 17, 218, 9),
    ("great_city_of_rome", 3, 1, 18, 51, 5),
    ("great_city_of_rome", 3, 1, 34, 171, 17),
    ("rise_to_power", 3, 1, 12, 111, 0),
    ("rise_to_power", 3, 1, 54, 111, 0),
]


@pytest.mark.parametrize("game_id,players,seed,at,offset,value", NO_LEGAL_ACTION)
def test_a_live_state_without_a_legal_action_is_refused(game_id, players, seed, at, offset, value):
    game = romecore.load_game(game_id, players=players)
    state = _positions(game, seed)[at]
    assert state.legal_actions(), "the position itself is sound"
    with pytest.raises(romecore.SerializationError, match="no legal action in a live state"):
        game.deserialize(_with_byte(state, offset, value))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_loaded_live_state_has_its_legal_actions_ready(game_id):
    """The check lists the legal actions once and keeps them: the same list the kernel gives."""
    game = romecore.load_game(game_id, players=3)
    for state in _positions(game, seed=5)[::25]:
        loaded = game.deserialize(state.serialize())
        assert loaded.legal_actions() == state.clone().legal_actions()
        assert romecore.load_game(game_id, players=3).state_from_dict(state.to_dict()) == state
