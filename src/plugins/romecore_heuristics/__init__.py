"""Hand-written heuristic evaluators, one Cython module per game.

Each module ``romecore_heuristics.<game_id>`` defines ``evaluator_specs()`` returning its
:class:`romecore.spec.EvaluatorSpec` list; games not built or installed are skipped.
"""

from __future__ import annotations

import importlib

import romecore
from romecore.core.state import State
from romecore.errors import ArgumentTypeError, InvalidArgumentError
from romecore.spec import EvaluatorSpec

GAMES = ("great_city_of_rome", "glory_to_rome", "city_of_marble", "rise_to_power")


def checked_state(state, game_id: str) -> State:
    """``state`` if it is a state of ``game_id`` (the evaluators' ``estimates`` read its
    struct); romecore errors otherwise, never a read of something else's memory."""
    if not isinstance(state, State):
        raise ArgumentTypeError(f"expected a {game_id} State, got {type(state).__name__}")
    if state.game.game_id != game_id:
        raise InvalidArgumentError(f"this evaluator is for {game_id}, not {state.game.game_id}")
    return state


@romecore.hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    specs: list[EvaluatorSpec] = []
    for game_id in GAMES:
        try:
            module = importlib.import_module(f"romecore_heuristics.{game_id}")
        except ImportError:
            continue
        specs.extend(module.evaluator_specs())
    return specs
