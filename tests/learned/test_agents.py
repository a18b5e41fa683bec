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
    agent = romecore.make_agent(spec, game=game, seed=1)
    st = game.new_initial_state(seed=4)
    for _ in range(3 if game_id == "glory_to_rome" else 6):  # a few moves of a real game
        while st.is_chance_node():
            st.apply_random_chance()
        if st.is_terminal():
            break
        a = agent.step(st.resample(st.current_player(), 1))
        assert st.is_legal(a)
        st.apply_action(a)


def test_a_whole_game_with_learned_greedy():
    game = romecore.load_game("rise_to_power", players=2)
    bots = [romecore.make_agent("greedy:evaluator=learned", game=game, seed=s) for s in range(2)]
    assert sum(play_game(game, bots, seed=3).returns) == pytest.approx(1.0)


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
