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
    # A turn is several small decisions: let the heuristic's priors order the tree, play the
    # next player's turn half greedily, half at random, and judge where that turn ends.
    # Against greedy at 0.1 s a move, judging where one's own turn ended instead (cutoff 1)
    # won 0.670 of 200 2-player games and 0.410 of 200 4-player ones; these defaults win
    # 0.682 and 0.468 (same seeds), and 65 of 80 against 53 of 80 on two more seeds
    # (scripts/strength.py; bench/results/strength-rows.md and turn-aware-search.md).
    # Those rows ran on the evaluator before it saw bridges within reach; on today's
    # evaluator (and so against today's, stronger greedy) see strength-rows.md.
    # imm=0.3 (implicit minimax backups within a turn) lifted the 200-game rows (seed 0)
    # from 0.705 to 0.800 at 2 players and from 0.365 to 0.510 at 4 (turn-aware-search.md).
    # Judging by the fitted evaluator (heuristic.FITTED: the weights fitted to game outcomes;
    # greedy keeps the hand-set table) lifted the rows (seed 0) from 0.800 to 0.895 at 2
    # players and from 0.510 to 0.590 at 4 (bench/results/fitted-weights.md).
    agent_defaults={"ismcts": {"cutoff": 2, "rollout": "greedy", "eps": 0.5, "bias": 1.0,
                               "c": 0.1, "imm": 0.3, "evaluator": "fitted"}},
    playing_time='about 120 decisions a player at 2 players, 55 at 4',
    ends_when='one last action each after three of the four Neighborhood stacks ran out',
    tie_break='more civic buildings, then more Imperium tiles',
    # Named levels, weakest first: iteration or CPU-second budgets, so load does not weaken
    # them; calibrated with `romecore ladder` (bench/results/levels-city_of_marble.md).
    levels={"Beginner": "ismcts:simulations=100", "Casual": "greedy:nodes=20000", "Strong": "ismcts:simulations=1000",
            "Expert": "ismcts:time=0.3,clock=cpu", "Maximum": "ismcts:time=3,clock=cpu"},
)


@hookimpl
def romecore_games() -> list[GameSpec]:
    return [SPEC]


@hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    """City of Marble's evaluators: the hand-written heuristic in C (``heuristic.pyx``)."""
    return heuristic.evaluator_specs()
