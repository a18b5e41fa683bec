"""ISMCTS: finds the winning build from its information set; statistics stay sound."""

from __future__ import annotations

import agent_positions as ap
import pytest

import romecore


@pytest.mark.parametrize("players", [2, 3, 4])
def test_finds_the_winning_build(players):
    state = ap.last_turn(players)
    agent = romecore.make_agent("ismcts:simulations=2000", game=state.game, seed=1)
    assert agent.step(state) == ap.build_market(state)
    place = ap.last_turn_place(players)
    assert agent.step(place) in ap.next_to_house(place)


def test_root_statistics_and_availability():
    """Every root child is one of the player's legal actions; each iteration passes
    through exactly one of them."""
    game = romecore.load_game("great_city_of_rome", players=3)
    state = game.new_initial_state(seed=4)
    state.resolve_chance()
    agent = romecore.make_agent("ismcts:simulations=400", game=game, seed=1)
    agent.step(state)
    root = agent.stats["root"]
    assert {a for a, _, _ in root} == set(state.legal_actions())
    assert sum(n for _, n, _ in root) == 400


def test_hidden_moves_share_one_node():
    """In the set-up draft the next player's pick is hidden from the others: the tree of
    the player who passed on sees one edge for it, whatever was picked."""
    game = romecore.load_game("great_city_of_rome", players=4)
    state = game.new_initial_state(seed=2)
    state.resolve_chance()
    picker = state.current_player()
    state.apply_action(state.legal_actions()[0])  # the picker keeps a card, passes on
    state.resolve_chance()
    assert state.current_player() != picker
    # The new picker's choice is hidden from the first picker, who still gets a
    # sound search from their own point of view later; here the new picker searches.
    agent = romecore.make_agent("ismcts:simulations=300", game=game, seed=1)
    view = state.resample(state.current_player(), 1)
    assert agent.step(view) in view.legal_actions()


def test_more_simulations_win_more_against_random():
    """A small sanity check of strength (the full curve is in scripts/strength.py)."""
    from romecore.match import play_game

    game = romecore.load_game("great_city_of_rome", players=2)
    wins = 0.0
    for seed in range(4):
        agents = [romecore.make_agent("ismcts:simulations=200", game=game, seed=seed),
                  romecore.make_agent("random", game=game, seed=seed)]
        if seed % 2:
            agents.reverse()
        wins += play_game(game, agents, seed=100 + seed).returns[seed % 2]
    assert wins >= 3


@pytest.mark.parametrize("gid", ap.GAMES)
def test_tree_is_kept_within_a_turn(gid):
    """The chosen action's subtree carries over when the same player decides next, though
    the view handed in is a fresh resample; not after restart, not to another position."""
    state, p = ap.mid_turn(gid, 5)
    agent = romecore.make_agent("ismcts:simulations=600,reuse=1", game=state.game, seed=1)
    a = agent.step(state.resample(p, 1))
    assert agent.stats["reused_visits"] == 0
    visits = {act: n for act, n, _ in agent.stats["root"]}
    after = state.clone()
    after.apply_action(a)
    agent.step(after.resample(p, 2))
    assert agent.stats["reused_visits"] == visits[a] > 0
    # A sibling of the kept position (another action played) starts afresh.
    chosen = agent.step(state.resample(p, 3))
    other = state.clone()
    other.apply_action(next(b for b in state.legal_actions() if b != chosen))
    agent.step(other.resample(p, 4))
    assert agent.stats["reused_visits"] == 0
    # restart forgets the kept subtree.
    a = agent.step(state.resample(p, 1))
    agent.restart()
    after = state.clone()
    after.apply_action(a)
    agent.step(after.resample(p, 2))
    assert agent.stats["reused_visits"] == 0


@pytest.mark.parametrize("spec", ["ismcts:simulations=300", "ismcts:simulations=300,reuse=0"])
def test_reuse_off_starts_every_move_afresh(spec):
    """Off by default: each decision is searched afresh."""
    state, p = ap.mid_turn("great_city_of_rome", 5)
    agent = romecore.make_agent(spec, game=state.game, seed=1)
    after = state.clone()
    after.apply_action(agent.step(state))
    agent.step(after.resample(p, 2))
    assert agent.stats["reused_visits"] == 0
