"""Invariants every game kernel must keep, checked over many random games of every
installed game and player count.

Game-specific invariants (cards conserved, city shapes, limits) are enforced by each
kernel's ``validate``; these tests run it at every step through the snapshot and dict
round trips, so a kernel that breaks its own invariants fails here.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import romecore

PLAYOUTS = 1000  # C-level games per game and player count
WALKS = 40  # Python-level games with a check at every step


def test_playouts_end_with_returns_that_share_one(game):
    root = game.new_initial_state(seed=0)
    n = game.num_players()
    wins = [0.0] * n
    for seed in range(PLAYOUTS):
        s = root.clone()
        r = s.playout(seed)
        assert s.is_terminal()
        assert len(r) == n and abs(sum(r) - 1.0) < 1e-9 and all(0.0 <= x <= 1.0 for x in r)
        assert s.move_number() <= game.max_game_length()
        wins = [w + x for w, x in zip(wins, r)]
        if seed % 50 == 0:  # the final struct passes validation
            assert game.deserialize(s.serialize()) == s
    assert all(w > 0 for w in wins), f"some seat never wins a random game: {wins}"


def _check_step(game, state, rng):
    legal = state.legal_actions()
    assert legal, "no legal action before the end"
    assert legal == sorted(set(legal))
    assert 0 <= legal[0] and legal[-1] < game.num_distinct_actions()
    assert len(legal) <= game.max_legal_actions()
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and all(p > 0 for _, p in outcomes)
    else:
        assert state.chance_outcomes() == []
        assert 0 <= state.current_player() < game.num_players()
    # round trips
    assert state.clone() == state
    assert game.deserialize(state.serialize()) == state
    assert game.state_from_dict(state.to_dict()) == state
    # an action that is not legal is refused and changes nothing
    bad = rng.randrange(game.num_distinct_actions())
    if bad not in legal:
        before = state.state_bytes()
        with pytest.raises(romecore.IllegalActionError):
            state.apply_action(bad)
        assert state.state_bytes() == before
    return legal


def test_random_walks_keep_every_invariant(game):
    n = game.num_players()
    for g in range(WALKS):
        rng = random.Random(g)
        state = game.new_initial_state(seed=g)
        steps = 0
        while not state.is_terminal():
            legal = _check_step(game, state, rng)
            if steps % 5 == 0 and not state.is_chance_node():
                for p in range(n):
                    obs = state.observation(p)
                    view = state.resample(p, seed=rng.randrange(1 << 30))
                    assert view.observation(p) == obs, f"resample({p}) changed what player {p} sees"
                    assert view.current_player() == state.current_player()
                    assert view.legal_actions() == legal or view.current_player() != p
                    assert view.information_state_string(p) == state.information_state_string(p)
            for a in legal:  # every legal action applies cleanly to a copy
                c = state.clone()
                c.apply_action(a)
            if state.is_chance_node():
                state.apply_random_chance()
            else:
                state.apply_action(rng.choice(legal))
            steps += 1
        assert state.legal_actions() == []
        assert abs(sum(state.returns()) - 1.0) < 1e-9
        with pytest.raises(romecore.IllegalActionError, match="over"):
            state.apply_action(0)


def test_same_seed_same_game_and_history_replays(game):
    def run(seed):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return state

    a, b = run(11), run(11)
    assert a.history() == b.history() and a == b
    replay = game.new_initial_state()
    for action in a.history():
        replay.apply_action(action)
    assert replay == a and replay.returns() == a.returns()
    assert run(12).history() != a.history()


def test_playout_is_deterministic_by_seed(game):
    s1, s2 = game.new_initial_state(seed=1), game.new_initial_state(seed=2)
    s1.playout(99)
    s2.playout(99)
    assert s1.history() == s2.history()


def test_resample_never_reveals_hidden_dealer_state(game):
    """A resampled view has no history and a fresh dealer RNG: replaying the dealer from
    it does not reproduce the true future chance outcomes in general."""
    state = game.new_initial_state(seed=5)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_random_chance() if state.is_chance_node() else state.apply_action(state.legal_actions()[0])
    player = max(0, state.current_player())
    view = state.resample(player, seed=1)
    assert view.history() == []
    assert view.observation(player) == state.observation(player)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_hypothesis_action_sequences(game, data):
    state = game.new_initial_state(seed=data.draw(st.integers(0, 2**32 - 1)))
    for _ in range(data.draw(st.integers(0, 400))):
        if state.is_terminal():
            break
        action = data.draw(st.sampled_from(state.legal_actions()))
        state.apply_action(action)
        assert game.deserialize(state.serialize(history=True)).history() == state.history()
    assert game.state_from_dict(state.to_dict()) == state
