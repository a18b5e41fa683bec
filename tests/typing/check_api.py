"""The public API as a typed program sees it: ``tests/test_api_types.py`` runs
``mypy --strict`` over this file, which fails wherever a call below is typed ``Any`` or
otherwise than asserted.  It is also a program that runs."""

from __future__ import annotations

import pickle
from typing import assert_type

import romecore
from romecore_random import RandomAgent
from romecore_search.core import SearchAgent


def play_one_game(game_id: str, spec: str, seed: int) -> list[float]:
    game = romecore.load_game(game_id, players=2)
    agent = romecore.make_agent(spec, game, seed=seed)
    assert_type(agent, romecore.Agent)
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        view = state.resample(state.current_player(), seed=seed)
        action = agent.step(view)
        assert_type(action, int)
        assert_type(agent.choose(state), int)
        state.apply_action(action)
    return state.returns()


def typed_parts() -> None:
    game = romecore.load_game("great_city_of_rome", players=2)
    assert_type(game.observation_tensor_shape(), tuple[int, ...])
    evaluator = romecore.make_evaluator(game)
    assert_type(evaluator, romecore.Evaluator)
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    assert_type(evaluator(state), list[float])
    agent = romecore.make_agent("random", game, seed=1)
    assert_type(agent.spec, str)
    assert_type(agent.seed, int)
    assert_type(agent.impl, romecore.StepAgent)
    copy = pickle.loads(pickle.dumps(agent))
    assert isinstance(copy, romecore.Agent)
    plugin_agent: romecore.StepAgent = RandomAgent(game, 1)  # a plugin's class is typed too
    assert_type(plugin_agent.step(state), int)
    search = romecore.make_agent("mcts:simulations=10", game, seed=1).impl
    assert isinstance(search, SearchAgent)
    assert_type(search.step(state), int)


if __name__ == "__main__":
    typed_parts()
    print(play_one_game("great_city_of_rome", "random", 1))
