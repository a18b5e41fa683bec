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
    # Random playouts to the end, with the fitted heuristic's priors as progressive bias.
    # Against greedy on the fitted evaluator (40 games at 0.1 s a move, seed 3), plain
    # playouts won 0.700 at 2 players; with the priors 0.825 (bias 2: 0.800; with c 0.3:
    # 0.625; greedy playouts judged after the next turn: 0.450), and 0.675 at 4 players
    # (bench/results/fitted-weights.md).  With the card features (0160a26) the priors are
    # worth more: bias 2 won 0.840 of 200 2-player games (seed 1) and 0.630 of 200
    # 4-player games against the new greedy, where bias 1 won 0.745 and 0.605 (seed 0).
    # Mixing the evaluator's value of each leaf into the playout's reward at half weight
    # lifts that again: 0.920 of 200 2-player games (seed 4; mix 0.25: 0.910), where the
    # default had won 0.803 of 600, then 0.925 of 400 (seeds 5 and 6) and 0.700 of 200
    # 4-player games (0.630 before) (bench/results/turn-aware-search.md).  Alpha-beta's
    # principal variation search judges fewer leaves here at depths 5 and 6, about as many
    # at 7 and 8 (bench/alphabeta_leaves.py, bench/results/alphabeta-screens.md).  Its
    # late move reductions from the second move on buy a ply at 0.1 s a move, and a ply is
    # worth much here: 0.650 of 200 games against greedy (seed 0), where the search
    # without them won 0.580 (bench/results/alphabeta-screens.md).
    agent_defaults={"ismcts": {"bias": 2.0, "mix": 0.5}, "alphabeta": {"pvs": True, "lmr": 2}},
    playing_time='about 70 decisions a player',
    ends_when="after the last round's influence check",
    tie_break='most influence tokens, then most coins',
    # Named levels, weakest first: iteration or CPU-second budgets, so load does not weaken
    # them; calibrated with `romecore ladder` (bench/results/levels-great_city_of_rome.md).
    levels={"Beginner": "greedy:nodes=20000", "Casual": "ismcts:simulations=1000", "Strong": "ismcts:simulations=5000",
            "Expert": "ismcts:time=0.3,clock=cpu", "Maximum": "ismcts:time=3,clock=cpu"},
)


@hookimpl
def romecore_games() -> list[GameSpec]:
    return [SPEC]


@hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    """The Great City of Rome's evaluators: the hand-written heuristic in C (``heuristic.pyx``)."""
    return heuristic.evaluator_specs()
