"""Registers Rome: City of Marble through the ``romecore`` entry point ``city_of_marble``,
exactly as a third-party game plugin would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from romecore.games.city_of_marble import heuristic, kernel
from romecore.games.city_of_marble.state import CityOfMarbleState
from romecore.hookspecs import hookimpl
from romecore.spec import EvaluatorSpec, GameSpec


def _encode(options: Mapping[str, Any]) -> list[int]:
    return [options["players"]]


SPEC = GameSpec(
    game_id="city_of_marble",
    name="Rome: City of Marble",
    min_players=2,
    max_players=4,
    default_players=4,
    kernel=kernel.kernel_capsule,
    state_class=CityOfMarbleState,
    encode_options=_encode,
    options=(),
    perfect_information=False,
    description="Grow Rome tile by tile on a triangular grid around three hills, commission "
    "civic buildings, lay aqueducts and gather Imperium (Brett Myers, 2015).",
    # Priors, the next turn played half greedily, imm, the fitted evaluator: bench/archive/agent-defaults-notes.md.
    agent_defaults={"ismcts": {"cutoff": 2, "rollout": "greedy", "eps": 0.5, "bias": 1.0,
                               "c": 0.1, "imm": 0.3, "evaluator": "fitted"}},
    playing_time='about 120 decisions a player at 2 players, 55 at 4',
    ends_when='one last action each after three of the four Neighborhood stacks ran out',
    tie_break='more civic buildings, then more Imperium tiles',
    picture="romecore.games.city_of_marble.picture",
    # Reviews judge with this search (bench/results/review.md measured its speed and agreement).
    review="ismcts:simulations=1000",
    # Named levels, weakest first: iteration or CPU-second budgets, so load does not weaken
    # them; calibrated with `romecore ladder` (bench/results/levels-city_of_marble.md).
    # Maximum explores wider than the default and lets its tree grow past the default cap:
    # three seconds here make about 5 million nodes.
    levels={
        "Beginner": "ismcts:simulations=30",
        "Casual": "ismcts:simulations=100",
        "Strong": "greedy:nodes=20000",
        "Expert": "ismcts:simulations=3000",
        "Maximum": "ismcts:time=3,clock=cpu,c=0.3,max_nodes=8000000",
    },
)


@hookimpl
def romecore_games() -> list[GameSpec]:
    return [SPEC]


@hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    """City of Marble's evaluators: the hand-written heuristic in C (``heuristic.pyx``)."""
    return heuristic.evaluator_specs()
