"""Registers Glory to Rome through the ``romecore`` entry point ``glory_to_rome``,
exactly as a third-party game plugin would."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from romecore.games.glory_to_rome import heuristic, kernel
from romecore.games.glory_to_rome.state import GloryToRomeState
from romecore.hookspecs import hookimpl
from romecore.spec import EvaluatorSpec, GameSpec, OptionSpec


def _encode(options: Mapping[str, Any]) -> list[int]:
    return [options["players"], int(options["training"])]


SPEC = GameSpec(
    game_id="glory_to_rome",
    name="Glory to Rome",
    min_players=2,
    max_players=5,
    default_players=4,
    kernel=kernel.kernel_capsule,
    state_class=GloryToRomeState,
    encode_options=_encode,
    options=(
        OptionSpec("training", bool, False, doc="the Training Game: no building functions"),
    ),
    perfect_information=False,
    description="Rebuild Rome after the fire of 64 AD with multi-use role cards "
    "(Chudyk, Cambridge Games Factory, I.V edition 2007).",
    # Node-by-node expansion beat whole-turn expansion in a screen: bench/archive/agent-defaults-notes.md.
    agent_defaults={"ismcts": {"expand": "node"}},
    # Two players: the learned value net mixed into the playouts' rewards (weights README;
    # against baseline 0.1: bench/results/elo-history.md).
    agent_defaults_by_players={2: {"ismcts": {"mix": 0.5, "evaluator": "learned"}}},
    playing_time='about 60 minutes',
    ends_when=('the draw pile ran out, the last site in town was taken, a Catacomb was finished, '
               'or a Forum won outright'),
    tie_break='most cards in hand',
    # Named levels, weakest first: iteration or CPU-second budgets, so load does not weaken
    # them; calibrated with `romecore ladder` (bench/results/levels-glory_to_rome.md).
    picture="romecore.games.glory_to_rome.picture",
    # Reviews judge with this search (bench/results/review.md measured its speed and agreement).
    review="ismcts:simulations=1000",
    levels={
        "Beginner": "greedy:nodes=20000",
        "Casual": "ismcts:simulations=300",
        "Strong": "ismcts:simulations=1000",
        "Expert": "ismcts:simulations=3000",
        "Maximum": "ismcts:time=3,clock=cpu",
    },
)


@hookimpl
def romecore_games() -> list[GameSpec]:
    return [SPEC]


@hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    """Glory to Rome's evaluators: the hand-written heuristic in C (``heuristic.pyx``)."""
    return heuristic.evaluator_specs()
