"""The Glory to Rome C heuristic: values are return estimates, exact at the end, and
they track who is ahead."""

import random

import pytest

import romecore


def game(n=3):
    return romecore.load_game("glory_to_rome", players=n)


def test_registered_and_native():
    ev = romecore.make_evaluator(game(), "heuristic")
    assert ev.is_native and ev.game_id == "glory_to_rome"
    with pytest.raises(ValueError):
        romecore.make_evaluator(game(), "heuristic", nonsense=1.0)


def test_values_are_shares_and_exact_at_the_end():
    g = game(4)
    ev = romecore.make_evaluator(g, "heuristic")
    rng = random.Random(1)
    for seed in range(40):
        st = g.new_initial_state(seed=seed)
        for _ in range(rng.randrange(0, 600)):
            if st.is_terminal():
                break
            st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
        v = ev(st)
        assert len(v) == 4 and all(0.0 <= x <= 1.0 for x in v) and abs(sum(v) - 1.0) < 1e-9
        if st.is_terminal():
            assert v == st.returns()


def test_more_influence_and_vault_is_better():
    g = game(2)
    st = g.state_from_dict({
        "players": [{"vault": ["Stone", "Stone"], "clientele": ["Laborer"]}, {}],
        "structures": [{"owner": 0, "building": "Villa", "complete": True, "materials": ["Stone"] * 3}],
    })
    ev = romecore.make_evaluator(g, "heuristic")
    v = ev(st)
    assert v[0] > 0.75 and ev.estimates(st)[0] > ev.estimates(st)[1]


def test_predicts_winners_better_than_chance():
    g = game(3)
    ev = romecore.make_evaluator(g, "heuristic")
    hits = total = 0
    for seed in range(300):
        st = g.new_initial_state(seed=seed)
        st.playout(seed)
        hist = st.history()
        replay = g.new_initial_state(seed=seed)
        for a in hist[: int(len(hist) * 0.8)]:
            replay.apply_action(a)
        v = ev(replay)
        winners = st.winners()
        if len(winners) == 1:
            total += 1
            hits += max(range(3), key=lambda p: v[p]) == winners[0]
    assert hits / total > 0.5
