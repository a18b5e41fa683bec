"""The C forward pass of the learned evaluator against an independent numpy one."""

from __future__ import annotations

import numpy as np
import pytest
from learned_helpers import oracle_policy, oracle_view, random_weights

import romecore
from conftest import GAME_IDS
from romecore.learned.mlp import LearnedEvaluator


def _positions(game, seed, limit=60):
    """States along a seeded random game: decisions, chance nodes and the end."""
    st = game.new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    while not st.is_terminal() and len(out) < limit:
        out.append(st.clone())
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            acts = st.legal_actions()
            st.apply_action(acts[rng.integers(len(acts))])
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("players", [2, 3])
def test_c_forward_equals_numpy(game_id, players):
    game = romecore.load_game(game_id, players=players)
    w = random_weights(game, seed=players)
    ev = LearnedEvaluator(game, w)
    chance_seen = decision_seen = 0
    for st in _positions(game, seed=11 * players):
        got = np.array(ev(st))
        cp = st.current_player()
        if st.is_chance_node():
            want = np.mean([oracle_view(w, st.observation_tensor(p), p) for p in range(players)], axis=0)
            chance_seen += 1
        else:
            want = oracle_view(w, st.observation_tensor(cp), cp)
            decision_seen += 1
            for p in range(players):  # every view, not only the mover's
                np.testing.assert_allclose(ev.view_values(st, p), oracle_view(w, st.observation_tensor(p), p),
                                           rtol=0, atol=2e-5)
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-5)
        assert ((got >= 0) & (got <= 1)).all() and abs(got.sum() - 1) < 1e-9
    assert decision_seen and chance_seen


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_terminal_values_are_returns(game_id):
    game = romecore.load_game(game_id, players=2)
    st = game.new_initial_state(seed=3)
    st.playout(3)
    assert st.is_terminal()
    assert LearnedEvaluator(game, random_weights(game))(st) == st.returns()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_c_policy_equals_numpy(game_id):
    """The policy head in C (the priors' pass) against numpy, on the mover's view, over the
    legal actions only; a net without a head does not judge moves."""
    game = romecore.load_game(game_id, players=2)
    w = random_weights(game, seed=5, policy=True)
    ev = LearnedEvaluator(game, w)
    assert ev.has_policy and not LearnedEvaluator(game, random_weights(game)).has_policy
    seen = 0
    for st in _positions(game, seed=13):
        if st.is_chance_node():
            with pytest.raises(romecore.errors.EvaluatorError, match="no player is to move"):
                ev.policy(st)
            continue
        got = ev.policy(st)
        legal = st.legal_actions()
        assert sorted(got) == sorted(legal)
        want = oracle_policy(w, st.observation_tensor(st.current_player()), legal)
        np.testing.assert_allclose([got[a] for a in legal], [want[a] for a in legal], rtol=0, atol=2e-5)
        assert abs(sum(got.values()) - 1) < 1e-9
        seen += 1
    assert seen
    with pytest.raises(romecore.errors.EvaluatorError, match="no policy head"):
        LearnedEvaluator(game, random_weights(game)).policy(_positions(game, 13)[0])


def test_a_changed_policy_weight_changes_the_policy():
    """The policy oracle comparison can fail: one bias of the head moved is seen."""
    game = romecore.load_game("glory_to_rome", players=2)
    w = random_weights(game, policy=True)
    st = [s for s in _positions(game, 5) if not s.is_chance_node() and len(s.legal_actions()) > 1][0]
    a = st.legal_actions()[0]
    before = LearnedEvaluator(game, w).policy(st)[a]
    w.policy[1][a] += 1.0
    assert LearnedEvaluator(game, w).policy(st)[a] > before + 1e-3


def test_a_changed_weight_changes_the_value():
    """The oracle comparison can fail: one weight of the value head moved is seen."""
    game = romecore.load_game("rise_to_power", players=2)
    w = random_weights(game)
    st = [s for s in _positions(game, 5) if not s.is_chance_node()][3]
    before = LearnedEvaluator(game, w)(st)
    w.layers[-1][1][0] += 1.0
    after = LearnedEvaluator(game, w)(st)
    assert abs(after[st.current_player()] - before[st.current_player()]) > 1e-3


def test_shared_between_threads():
    """Two threads evaluating with one evaluator get what one thread gets."""
    import threading

    game = romecore.load_game("great_city_of_rome", players=2)
    ev = LearnedEvaluator(game, random_weights(game))
    states = _positions(game, 9, limit=40)
    want = [ev(s) for s in states]
    got: dict[int, list] = {}

    def work(k):
        got[k] = [ev(s) for _ in range(20) for s in states][-len(states):]

    ts = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert got[0] == want and got[1] == want


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("players", [2, 3])
def test_residual_net_adds_its_base(game_id, players):
    """A residual net: the oracle adds base_scale * log(the game's heuristic) to the net's
    logits; every view, chance nodes (the mean of the views, one base call) and the end."""
    game = romecore.load_game(game_id, players=players)
    w = random_weights(game, seed=players + 7, base="heuristic", base_scale=0.7)
    ev = LearnedEvaluator(game, w)
    heuristic = romecore.make_evaluator(game, "heuristic")
    plain = LearnedEvaluator(game, random_weights(game, seed=players + 7))
    kinds = set()
    moved = 0
    for st in _positions(game, seed=5 + players):
        base = heuristic(st)
        views = [oracle_view(w, st.observation_tensor(p), p, base) for p in range(players)]
        if st.is_chance_node():
            want = np.mean(views, axis=0)
            kinds.add("chance")
        else:
            want = views[st.current_player()]
            kinds.add("decision")
            for p in range(players):
                np.testing.assert_allclose(ev.view_values(st, p), views[p], rtol=0, atol=2e-5)
        got = np.array(ev(st))
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-5)
        moved += np.abs(got - np.array(plain(st))).max() > 1e-3
    assert kinds == {"chance", "decision"} and moved  # the base changes values


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_residual_net_with_a_zero_head_is_its_base(game_id):
    """Training starts there: a zero value head and scale 1 judge exactly as the base does."""
    game = romecore.load_game(game_id, players=2)
    w = random_weights(game, base="heuristic")
    w.layers[-1] = (np.zeros_like(w.layers[-1][0]), np.zeros_like(w.layers[-1][1]))
    ev, heuristic = LearnedEvaluator(game, w), romecore.make_evaluator(game, "heuristic")
    for st in _positions(game, seed=21, limit=30):
        np.testing.assert_allclose(ev(st), heuristic(st), rtol=0, atol=1e-6)


@pytest.mark.parametrize("base", [None, "heuristic"])
def test_numpy_forward_and_policy_equal_the_oracles(base):
    """Weights.forward and Weights.policy_logits (the tools' batched numpy passes) against
    the explicit-loop oracles, on every seat's view of positions along a game."""
    game = romecore.load_game("rise_to_power", players=3)
    w = random_weights(game, seed=8, policy=True, base=base, base_scale=0.7)
    seen = 0
    for st in _positions(game, seed=17)[::3]:
        if st.is_chance_node():
            continue
        for p in range(3):
            x = np.asarray(st.observation_tensor(p), dtype=np.float32)[None]
            absolute = np.array([0.2, 0.5, 0.3])
            rotated = np.array([[absolute[(p + j) % 3] for j in range(3)]])
            logits = w.forward(x, rotated if base else None)[0].astype(np.float64)
            e = np.exp(logits - logits.max())
            got = np.array([(e / e.sum())[(q - p) % 3] for q in range(3)])
            np.testing.assert_allclose(got, oracle_view(w, x[0], p, absolute), rtol=0, atol=2e-5)
            legal = st.legal_actions()
            z = w.policy_logits(x)[0][legal].astype(np.float64)
            shares = np.exp(z - z.max()) / np.exp(z - z.max()).sum()
            want = oracle_policy(w, x[0], legal)
            np.testing.assert_allclose(shares, [want[a] for a in legal], rtol=0, atol=2e-5)
            seen += 1
    assert seen
    with pytest.raises(romecore.errors.EvaluatorError, match="no policy head"):
        random_weights(game).policy_logits(x)
    if base:
        with pytest.raises(romecore.errors.EvaluatorError, match="needs its base"):
            w.forward(x)
