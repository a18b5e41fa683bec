"""Greedy: one move of look-ahead by the evaluator."""

from __future__ import annotations

import agent_positions as ap
import pytest

import romecore


@pytest.mark.parametrize("players", [2, 4])
def test_finds_the_winning_build(players):
    state = ap.last_turn(players)
    agent = romecore.make_agent("greedy", game=state.game, seed=1)
    assert agent.step(state) == ap.build_market(state)
    place = ap.last_turn_place(players)
    assert agent.step(place) in ap.next_to_house(place)


def test_values_cover_every_action():
    state = ap.last_turn()
    agent = romecore.make_agent("greedy", game=state.game, seed=1)
    agent.step(state)
    values = dict(agent.stats["values"])
    assert sorted(values) == state.legal_actions()
    assert values[ap.build_market(state)] == 1.0
    assert values[ap.action(state, ap.END_TURN)] == 0.0


def test_one_decision_lookahead_judges_the_half_move():
    """With lookahead=action the Market choice is judged before it is placed: the
    evaluator cannot see the win yet, so it is no better than ending the turn."""
    state = ap.last_turn()
    agent = romecore.make_agent("greedy:lookahead=action", game=state.game, seed=1)
    agent.step(state)
    values = dict(agent.stats["values"])
    assert values[ap.action(state, ap.END_TURN)] == 0.0
    assert values[ap.build_market(state)] < 1.0


def test_greedy_beats_random():
    from romecore.match import play_game

    game = romecore.load_game("great_city_of_rome", players=2)
    wins = 0.0
    for seed in range(4):
        agents = [romecore.make_agent("greedy", game=game, seed=seed),
                  romecore.make_agent("random", game=game, seed=seed)]
        if seed % 2:
            agents.reverse()
        wins += play_game(game, agents, seed=200 + seed).returns[seed % 2]
    assert wins >= 3
