"""The shipped weights load for every game, and every search agent takes evaluator=learned."""

from __future__ import annotations

import pytest

import romecore
from conftest import GAME_IDS
from romecore.learned import SHIPPED_DIR, ensure_registered, weights_file
from romecore.learned.plugin import games_with_weights
from romecore.match import play_game

SPECS = ["greedy:evaluator=learned", "mcts:simulations=60,cutoff=1,evaluator=learned",
         "ismcts:simulations=60,cutoff=1,bias=0.5,evaluator=learned", "alphabeta:nodes=300,evaluator=learned"]


@pytest.fixture(scope="module", autouse=True)
def registered():
    ensure_registered()


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_shipped_weights_load(game_id):
    game = romecore.load_game(game_id, players=2)
    assert weights_file(game).parent == SHIPPED_DIR
    ev = romecore.make_evaluator(game, "learned")
    assert ev.is_native and ev.name == "learned" and ev.weights.training.get("agents")
    assert game_id in games_with_weights()
    # the game's own heuristic stays its default evaluator
    assert romecore.make_evaluator(game).name != "learned"


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.split(":")[0])
def test_agents_accept_learned(game_id, spec):
    game = romecore.load_game(game_id, players=2)
    plays_legal_moves(romecore.make_agent(spec, game=game, seed=1), game, seed=4,
                      moves=3 if game_id == "glory_to_rome" else 6)


def plays_legal_moves(agent, game, seed, moves, view_seed=1):
    """``agent`` makes the first ``moves`` decisions of a real game (chance drawn by the
    game), handed each time the mover's resampled view; every move must be legal."""
    st = game.new_initial_state(seed=seed)
    for _ in range(moves):
        st.resolve_chance()
        if st.is_terminal():
            break
        a = agent.step(st.resample(st.current_player(), view_seed))
        assert st.is_legal(a)
        st.apply_action(a)


def test_a_whole_game_with_learned_greedy():
    game = romecore.load_game("rise_to_power", players=2)
    bots = [romecore.make_agent("greedy:evaluator=learned", game=game, seed=s) for s in range(2)]
    assert sum(play_game(game, bots, seed=3).returns) == pytest.approx(1.0)


def test_a_net_for_another_player_count_is_refused():
    """A net reads a tensor laid out for its own player count: handed a state of another
    count, or given to an agent of one, it refuses instead of judging garbage."""
    from romecore_ismcts.ismcts import ISMCTSAgent

    two, three = (romecore.load_game("rise_to_power", players=n) for n in (2, 3))
    ev = romecore.make_evaluator(two, "learned")
    assert ev.nplayers == 2 and ev.fits(two) and not ev.fits(three)
    st = three.new_initial_state(seed=1)
    st.resolve_chance()
    with pytest.raises(romecore.errors.EvaluatorError, match="for 2 players, not 3"):
        ev(st)
    with pytest.raises(romecore.errors.AgentSpecError, match="2 players"):
        ISMCTSAgent(three, 1, cutoff=1, evaluator=ev)


def test_no_weights_for_a_player_count():
    game = romecore.load_game("great_city_of_rome", players=4)
    if (SHIPPED_DIR / "great_city_of_rome-4p.npz").exists():
        pytest.skip("4-player weights ship")
    with pytest.raises(romecore.errors.EvaluatorError, match="no learned weights"):
        romecore.make_evaluator(game, "learned")


def test_plugin_package_registers_the_same_hook(monkeypatch):
    """src/plugins/romecore_learned (the entry point) serves romecore.learned.plugin's hook."""
    import importlib
    import sys
    from pathlib import Path

    from romecore.learned import plugin

    try:
        mod = importlib.import_module("romecore_learned")
    except ImportError:  # an editable install made before the package existed
        monkeypatch.setattr(sys, "path", [str(Path(plugin.__file__).parents[2] / "plugins"), *sys.path])
        mod = importlib.import_module("romecore_learned")
    assert mod.romecore_evaluators is plugin.romecore_evaluators
    names = {(s.game_id, s.name) for s in mod.romecore_evaluators()}
    assert {(g, "learned") for g in GAME_IDS} <= names


def _policy_liking(game, favourite):
    """A learned evaluator whose policy head likes ``favourite`` far above every other
    action, whatever the position (zero head weights, one high bias)."""
    from learned_helpers import random_weights

    from romecore.learned.mlp import LearnedEvaluator

    w = random_weights(game, policy=True)
    w.policy[0][:] = 0.0
    w.policy[1][:] = -5.0
    w.policy[1][favourite] = 5.0
    return LearnedEvaluator(game, w)


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_policy_priors_steer_the_widened_search(name):
    """``policy``: the head's move probabilities are the priors, so with narrow widening
    the root's few tried children include the action the head likes, whichever it is."""
    from romecore_ismcts.ismcts import ISMCTSAgent
    from romecore_mcts.mcts import MCTSAgent

    game = romecore.load_game("great_city_of_rome", players=2)
    state = game.new_initial_state(seed=4)
    state.resolve_chance()
    while len(state.legal_actions()) <= 6:  # on to a decision of many choices
        state.apply_action(state.legal_actions()[-1])
        state.resolve_chance()
    legal = state.legal_actions()
    cls = ISMCTSAgent if name == "ismcts" else MCTSAgent
    for favourite in (legal[-1], legal[len(legal) // 2]):
        agent = cls(game, 1, simulations=30, widen=0.25, widen_k=1.0, policy=_policy_liking(game, favourite))
        agent.step(state)
        tried = [a for a, visits, _ in agent.stats["root"] if visits > 0]
        assert favourite in tried and len(tried) <= 3


def test_policy_priors_play_hidden_information_games():
    """At Glory to Rome, with every agent handed its resampled view, a search whose priors
    come from a policy head (opponents' hidden moves judged by a concrete stand-in) plays
    legal moves."""
    from romecore_ismcts.ismcts import ISMCTSAgent

    game = romecore.load_game("glory_to_rome", players=2)
    agent = ISMCTSAgent(game, 2, simulations=80, bias=1.0, policy=_policy_liking(game, 0))
    plays_legal_moves(agent, game, seed=6, moves=8, view_seed=3)


def test_policy_needs_a_head_and_priors_that_rank():
    from learned_helpers import random_weights

    from romecore.learned.mlp import LearnedEvaluator
    from romecore_ismcts.ismcts import ISMCTSAgent
    from romecore_mcts.mcts import MCTSAgent

    game = romecore.load_game("great_city_of_rome", players=2)
    with pytest.raises(romecore.errors.AgentSpecError, match="no policy head"):
        romecore.make_agent("ismcts:bias=1,policy=heuristic", game=game)
    headless = LearnedEvaluator(game, random_weights(game))
    ev = _policy_liking(game, 0)
    for cls, params, words in ((ISMCTSAgent, {"bias": 1.0, "policy": headless}, "no policy head"),
                               (ISMCTSAgent, {"policy": ev}, "bias > 0 or widen > 0"),
                               (MCTSAgent, {"prior_visits": 2.0, "policy": ev}, "not values"),
                               (ISMCTSAgent, {"imm": 0.3, "policy": ev}, "not values")):
        with pytest.raises(romecore.errors.AgentSpecError, match=words):
            cls(game, 1, **params)
