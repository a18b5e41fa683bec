"""Helpers for the games' robustness tests: where the struct sits in a snapshot, states
along a seeded random game, the soundness every accepted state must have, and the
observation tensor following what a player sees."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np

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


def assert_tensor_follows_observation(states: Iterable[romecore.State], players: int,
                                      seen: Callable[[dict[str, Any]], Any] = lambda obs: obs,
                                      masked: slice | int | None = None) -> int:
    """Along consecutive ``states``, whenever what a player sees changes (``seen`` of their
    observation: the observation less what the game's tensor documents as left out), their
    tensor changes too (outside ``masked``, a slice that changes at every step).  Returns the
    number of changes checked."""
    prev = None
    changes = 0
    for state in states:
        cur = []
        for p in range(players):
            t = state.observation_tensor(p)
            if masked is not None:
                t[masked] = 0
            cur.append((seen(state.observation(p)), t))
        if prev is not None:
            for (o0, t0), (o1, t1) in zip(prev, cur):
                if o0 != o1:
                    changes += 1
                    assert not np.array_equal(t0, t1), (o0, o1)
        prev = cur
    return changes


def walk(game: romecore.Game, seed: int, every: int = 1, limit: int | None = None) -> Iterator[romecore.State]:
    """Copies of the states along a seeded random game: every ``every``-th (the first
    included) and the last, stopping after ``limit`` actions when given."""
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    k = 0
    while True:
        if k % every == 0 or state.is_terminal():
            yield state.clone()
        if state.is_terminal() or (limit is not None and k + 1 >= limit):
            return
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        k += 1


def nan_filled_tensor(state: romecore.State, p: int) -> np.ndarray:
    """p's observation tensor written over a NaN-filled buffer (a float left unset stays NaN)."""
    out = np.full(state.game.observation_tensor_size(), np.nan, dtype=np.float32)
    assert state.observation_tensor(p, out=out) is out
    return out
