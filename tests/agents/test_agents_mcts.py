"""MCTS: finds the winning build, reuses its tree, votes across PIMC worlds."""

from __future__ import annotations

import agent_positions as ap
import pytest

import romecore


@pytest.mark.parametrize("players", [2, 4])
def test_finds_the_winning_build(players):
    state = ap.last_turn(players)
    agent = romecore.make_agent("mcts:simulations=2000", game=state.game, seed=1)
    assert agent.step(state) == ap.build_market(state)
    place = ap.last_turn_place(players)
    assert agent.step(place) in ap.next_to_house(place)


def test_root_statistics_add_up():
    state = ap.last_turn()
    agent = romecore.make_agent("mcts:simulations=500,reuse=0", game=state.game, seed=2)
    agent.step(state)
    root = agent.stats["root"]
    assert sorted(a for a, _, _ in root) == state.legal_actions()
    assert sum(n for _, n, _ in root) == 500
    assert all(0.0 <= v <= n for _, n, v in root)
    assert agent.stats["iterations"] == 500


def test_tree_is_reused_for_the_next_position():
    state = ap.last_turn()
    agent = romecore.make_agent("mcts:simulations=1000", game=state.game, seed=3)
    a = agent.step(state)
    state.apply_action(a)
    agent.step(state)
    assert agent.stats["reused_visits"] > 0
    agent.restart()
    agent.step(state)
    assert agent.stats["reused_visits"] == 0


def test_reuse_off_starts_fresh():
    state = ap.last_turn()
    agent = romecore.make_agent("mcts:simulations=300,reuse=false", game=state.game, seed=3)
    state.apply_action(agent.step(state))
    agent.step(state)
    assert agent.stats["reused_visits"] == 0


def test_pimc_votes_across_worlds():
    state = ap.last_turn()
    agent = romecore.make_agent("mcts:simulations=1200,pimc=4", game=state.game, seed=5)
    assert agent.step(state) == ap.build_market(state)
    assert sum(agent.stats["votes"].values()) == 4
    assert agent.stats["iterations"] == 1200


def test_tiny_arena_still_plays():
    """The arena stops growing at max_nodes; the search goes on from its leaves."""
    state = ap.last_turn()
    agent = romecore.make_agent("mcts:simulations=300,max_nodes=16", game=state.game, seed=1)
    assert agent.step(state) in state.legal_actions()
    assert agent.stats["tree_nodes"] <= 16


def test_more_simulations_grow_the_tree():
    game = romecore.load_game("great_city_of_rome", players=4)
    state = game.new_initial_state(seed=9)
    state.resolve_chance()
    small = romecore.make_agent("mcts:simulations=100", game=game, seed=1)
    large = romecore.make_agent("mcts:simulations=1000", game=game, seed=1)
    small.step(state)
    large.step(state)
    assert large.stats["tree_nodes"] > small.stats["tree_nodes"] > 1
