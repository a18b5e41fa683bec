"""romecore: four Rome-themed board and card games at engine speed.

>>> import romecore
>>> game = romecore.load_game("great_city_of_rome", players=4)
>>> state = game.new_initial_state(seed=7)
>>> state.is_chance_node()
True
"""

from romecore.agents import Agent, StepAgent, level_spec
from romecore.analysis import Analysis, MoveValue, analyse
from romecore.api import deserialize, list_agents, list_games, load_game, make_agent, make_evaluator
from romecore.core.evaluator import Evaluator
from romecore.core.state import CHANCE, TERMINAL, Game, State
from romecore.errors import (
    AgentSpecError,
    ArgumentTypeError,
    EvaluatorError,
    GameOptionError,
    IllegalActionError,
    InvalidArgumentError,
    PluginError,
    RomecoreError,
    SerializationError,
    UnknownGameError,
    UsageError,
)
from romecore.hookspecs import hookimpl

__version__ = "0.2.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Agent",
    "AgentSpecError",
    "Analysis",
    "ArgumentTypeError",
    "Evaluator",
    "EvaluatorError",
    "Game",
    "GameOptionError",
    "IllegalActionError",
    "InvalidArgumentError",
    "MoveValue",
    "PluginError",
    "RomecoreError",
    "SerializationError",
    "State",
    "StepAgent",
    "UnknownGameError",
    "UsageError",
    "analyse",
    "deserialize",
    "hookimpl",
    "level_spec",
    "list_agents",
    "list_games",
    "load_game",
    "make_agent",
    "make_evaluator",
]
