"""The public API as a typed program sees it: ``tests/test_api_types.py`` runs
``mypy --strict`` over this file, which fails wherever a call below is typed ``Any`` or
otherwise than asserted.  It is also a program that runs."""

from __future__ import annotations

import pickle
from typing import assert_type

import romecore
from romecore.games.city_of_marble.state import CityOfMarbleState
from romecore.games.city_of_marble.types import CityOfMarbleDict, CityOfMarbleObservation
from romecore.games.glory_to_rome.state import GloryToRomeState
from romecore.games.glory_to_rome.types import GloryToRomeDict, GloryToRomeObservation
from romecore.games.great_city_of_rome.state import GreatCityState
from romecore.games.great_city_of_rome.types import GreatCityDict, GreatCityObservation
from romecore.games.rise_to_power.state import RiseToPowerState
from romecore.games.rise_to_power.types import Activation, RiseToPowerDict, RiseToPowerObservation, TrackGroup
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


def typed_dicts() -> None:
    """A state of a known game (narrowed by isinstance) returns its game's typed dicts, its
    copies stay of its class, and its dict reads back."""
    game = romecore.load_game("rise_to_power", players=2)
    state = game.new_initial_state(seed=1)
    assert isinstance(state, RiseToPowerState)
    state.resolve_chance()
    obs = state.observation(0)
    assert_type(obs, RiseToPowerObservation)
    assert_type(obs["tracks"]["military"], list[TrackGroup])
    assert_type(obs["hand"], list[tuple[str, bool]])
    assert_type(obs["activation"], Activation | None)
    d = state.to_dict(history=False)
    assert_type(d, RiseToPowerDict)
    assert_type(d["players"][0]["vp_forum"], int)
    assert_type(d.get("history"), list[int] | None)  # NotRequired: absent when history=False
    assert_type(state.clone(), RiseToPowerState)
    assert_type(state.resample(0, seed=2), RiseToPowerState)
    assert game.state_from_dict(d) == state

    gc = romecore.load_game("great_city_of_rome", players=2).new_initial_state(seed=1)
    assert isinstance(gc, GreatCityState)
    assert_type(gc.observation(1), GreatCityObservation)
    assert_type(gc.to_dict(), GreatCityDict)
    assert_type(gc.observation(1)["opponents"]["0"]["size"], int)
    cm = romecore.load_game("city_of_marble", players=2).new_initial_state(seed=1)
    assert isinstance(cm, CityOfMarbleState)
    assert_type(cm.observation(0), CityOfMarbleObservation)
    assert_type(cm.observation(0)["players"][1]["bridges"], list[int] | None)
    assert_type(cm.to_dict(), CityOfMarbleDict)
    gr = romecore.load_game("glory_to_rome", players=2).new_initial_state(seed=1)
    assert isinstance(gr, GloryToRomeState)
    assert_type(gr.observation(0), GloryToRomeObservation)
    assert_type(gr.to_dict()["options"]["training"], bool)
    assert_type(gr.to_dict(), GloryToRomeDict)


if __name__ == "__main__":
    typed_parts()
    typed_dicts()
    print(play_one_game("great_city_of_rome", "random", 1))
