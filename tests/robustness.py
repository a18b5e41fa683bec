"""Helpers for the games' robustness tests: where the struct sits in a snapshot, states
along a seeded random game, and the soundness every accepted state must have."""

from __future__ import annotations

import random

import romecore

RNG_BYTES = 32  # the dealer RNG: four 64-bit words, after the struct in a snapshot


def struct_span(game: romecore.Game, blob: bytes) -> tuple[int, int]:
    """(start, end) of the state struct in a snapshot without history: the struct's bin
    field, then the RNG's bin field (2 + 32 bytes), then nil."""
    end = len(blob) - 1 - 2 - RNG_BYTES
    return end - game.state_size(), end


def states_along(game: romecore.Game, seed: int, every: int = 7,
                 limit: int | None = None) -> list[romecore.State]:
    """Every ``every``-th state of a seeded random game (at most ``limit`` actions), and
    its last."""
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    out = []
    while not st.is_terminal() and (limit is None or len(st.history()) < limit):
        if len(st.history()) % every == 0:
            out.append(st.clone())
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    out.append(st)
    return out


def assert_sound(game: romecore.Game, st: romecore.State) -> None:
    """st loads back from its snapshot and its dict, and so does every legal step."""
    assert game.deserialize(st.serialize()) == st
    d = st.to_dict()
    back = game.state_from_dict(d)
    assert back == st and back.to_dict() == d
    for a in st.legal_actions():
        nxt = st.clone()
        nxt.apply_action(a)
        assert game.deserialize(nxt.serialize()) == nxt, st.action_to_string(a)
        assert game.state_from_dict(nxt.to_dict()) == nxt, st.action_to_string(a)
