"""Registers The Great City of Rome through the ``romecore`` entry point
``great_city_of_rome``, exactly as a third-party game plugin would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from romecore.games.great_city_of_rome import heuristic, kernel
from romecore.games.great_city_of_rome.state import GreatCityState
from romecore.hookspecs import hookimpl
from romecore.spec import EvaluatorSpec, GameSpec


def _encode(options: Mapping[str, Any]) -> list[int]:
    return [options["players"]]


SPEC = GameSpec(
    game_id="great_city_of_rome",
    name="The Great City of Rome",
    min_players=2,
    max_players=4,
    default_players=4,
    kernel=kernel.kernel_capsule,
    state_class=GreatCityState,
    encode_options=_encode,
    options=(),
    perfect_information=False,
    description="Build a 4x4 city of farms, houses, public buildings, aqueducts and temples "
    "(Dunstan and Gilbert, 2018).",
    # Heuristic priors and leaf values in ismcts, PVS and LMR in alphabeta: bench/archive/agent-defaults-notes.md.
    agent_defaults={"ismcts": {"bias": 2.0, "mix": 0.5}, "alphabeta": {"pvs": True, "lmr": 2}},
    # Two players: the learned value net judges the leaves, the heuristic the priors (weights
    # README; against baseline 0.1: bench/results/elo-history.md).
    agent_defaults_by_players={2: {"ismcts": {"evaluator": "learned", "prior": "heuristic"}}},
    playing_time='about 70 decisions a player',
    ends_when="after the last round's influence check",
    tie_break='most influence tokens, then most coins',
    # Named levels, weakest first: iteration or CPU-second budgets, so load does not weaken
    # them; calibrated with `romecore ladder` (bench/results/levels-great_city_of_rome.md).
    picture="romecore.games.great_city_of_rome.picture",
    # Reviews judge with this search (bench/results/review.md measured its speed and agreement).
    review="ismcts:simulations=5000",
    levels={
        "Beginner": "ismcts:simulations=30",
        "Casual": "greedy:nodes=20000",
        "Strong": "ismcts:simulations=1000",
        "Expert": "ismcts:simulations=5000",
        "Maximum": "ismcts:time=3,clock=cpu",
    },
)


@hookimpl
def romecore_games() -> list[GameSpec]:
    return [SPEC]


@hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    """The Great City of Rome's evaluators: the hand-written heuristic in C (``heuristic.pyx``)."""
    return heuristic.evaluator_specs()
