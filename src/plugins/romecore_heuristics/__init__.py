"""Hand-written heuristic evaluators, one Cython module per game.

Each module ``romecore_heuristics.<game_id>`` defines ``evaluator_specs()`` returning its
:class:`romecore.spec.EvaluatorSpec` list; games not built or installed are skipped.
"""

from __future__ import annotations

import importlib

import romecore
from romecore.spec import EvaluatorSpec

GAMES = ("great_city_of_rome", "glory_to_rome", "city_of_marble", "rise_to_power")


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
