"""The C heuristic evaluator: registration, value range, exact values at the end, weight
overrides, and that it predicts winners of random games far better than chance."""

from __future__ import annotations

import random

import pytest
from rtp_helpers import position, rtp

import romecore


def play_until(st, rng, round_, phase="place"):
    while not st.is_terminal():
        d = st.to_dict()
        if d["round"] >= round_ and d["phase"] == phase:
            break
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_registered_native_and_in_range():
    for n in (2, 3, 4):
        game = rtp(n, "all")
        ev = romecore.make_evaluator(game, "heuristic")
        assert ev.is_native and ev.game_id == "rise_to_power"
        rng = random.Random(n)
        st = game.new_initial_state(seed=n)
        while not st.is_terminal():
            v = ev(st)
            assert len(v) == n and all(0.0 <= x <= 1.0 for x in v) and abs(sum(v) - 1) < 1e-9
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        assert ev(st) == st.returns()


def test_estimates_follow_the_score_table():
    st = position(phase="show", round_=5, actor=3, step=3,
                  player_fields={0: {"vp_forum": 10}, 1: {"vp_forum": 4}},
                  hands={0: ["Gaul", "Dacian", "Murmillo", "Murmillo", "Retiarius"]})
    ev = romecore.make_evaluator(rtp(4))
    est = ev.estimates(st)
    assert est[0] > est[1] > est[2] == est[3]
    v = ev(st)
    assert v[0] == max(v)


def test_weights_can_be_overridden_and_are_checked():
    game = rtp(4)
    hot = romecore.make_evaluator(game, "heuristic", temperature=50.0)
    cold = romecore.make_evaluator(game, "heuristic", temperature=0.5, temperature_per_round=0.0)
    st = position(phase="over", round_=5, actor=0, player_fields={0: {"vp_forum": 3}})
    assert hot(st) == cold(st) == st.returns()
    mid = position(phase="forum", round_=5, actor=0, step=0, player_fields={0: {"vp_forum": 6}})
    assert max(cold(mid)) > max(hot(mid))
    assert hot.weights["temperature"] == 50.0
    with pytest.raises(ValueError):
        romecore.make_evaluator(game, "heuristic", bogus=1.0)
    with pytest.raises(ValueError):
        romecore.make_evaluator(game, "heuristic", temperature=0.0)


def test_predicts_random_game_winners_better_than_chance():
    game = rtp(4)
    ev = romecore.make_evaluator(game)
    hits = 0
    games = 150
    for seed in range(games):
        rng = random.Random(seed)
        st = play_until(game.new_initial_state(seed=seed), rng, 4)
        v = ev(st)
        st.playout(seed)
        hits += st.returns()[max(range(4), key=v.__getitem__)] > 0
    assert hits / games > 0.5  # chance is 0.25; measured about 0.75 at round 4


@pytest.mark.parametrize("better,worse", [
    # resources on the Forum tracks score at every Forum scoring still to come
    ({"forum": {0: {"Olives": 3}}}, {}),
    ({"forum": {0: {"Olives": 3, "Wine": 2}}}, {"forum": {0: {"Olives": 3}}}),
    # a conquered province counts towards region control at the end
    ({"provinces": {0: ["Etruria"]}}, {}),
    # VP already scored
    ({"player_fields": {0: {"vp_arena": 5}}}, {}),
])
def test_prefers_the_stronger_position(better, worse):
    ev = romecore.make_evaluator(rtp(4))
    b, w = position(round_=3, **better), position(round_=3, **worse)
    assert ev.estimates(b)[0] > ev.estimates(w)[0]
    assert ev(b)[0] > ev(w)[0]
