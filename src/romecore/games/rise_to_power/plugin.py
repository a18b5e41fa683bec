"""Registers Rome: Rise to Power through the ``romecore`` entry point ``rise_to_power``,
exactly as a third-party game plugin would."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from romecore.errors import GameOptionError
from romecore.games.rise_to_power import data, heuristic, kernel
from romecore.games.rise_to_power.state import RiseToPowerState
from romecore.hookspecs import hookimpl
from romecore.spec import EvaluatorSpec, GameSpec, OptionSpec


def parse_intrigue(value: Any) -> tuple[str, ...]:
    """The Intrigue titles an ``intrigue`` option value names, in data order.

    ``"none"`` (or ``""``) is none, ``"all"`` all five; otherwise a comma-separated list
    of titles (case and spacing ignored)."""
    if not isinstance(value, str):
        raise GameOptionError(f"option 'intrigue' is a str, got {value!r}")
    text = value.strip().lower()
    if text in ("", "none"):
        return ()
    if text == "all":
        return data.INTRIGUE_TITLES
    by_key = {" ".join(t.lower().split()): t for t in data.INTRIGUE_TITLES}
    chosen = set()
    for part in text.split(","):
        key = " ".join(part.split())
        if key not in by_key:
            valid = ", ".join(repr(t) for t in data.INTRIGUE_TITLES)
            raise GameOptionError(f"option intrigue: {part.strip()!r} is not an Intrigue card title "
                                  f"(titles: {valid}; or 'none', 'all')")
        chosen.add(by_key[key])
    return tuple(t for t in data.INTRIGUE_TITLES if t in chosen)


@dataclass(frozen=True)
class IntrigueOption(OptionSpec):
    """The ``intrigue`` option, normalised to "none", "all" or titles in data order, so
    equal choices make equal games."""

    def coerce(self, value: Any) -> Any:
        titles = parse_intrigue(value)
        if not titles:
            return "none"
        if len(titles) == len(data.INTRIGUE_TITLES):
            return "all"
        return ",".join(titles)


def _encode(options: Mapping[str, Any]) -> list[int]:
    return [options["players"], data.intrigue_mask(parse_intrigue(options["intrigue"]))]


SPEC = GameSpec(
    game_id="rise_to_power",
    name="Rome: Rise to Power",
    min_players=2,
    max_players=4,
    default_players=4,
    kernel=kernel.kernel_capsule,
    state_class=RiseToPowerState,
    encode_options=_encode,
    options=(
        IntrigueOption("intrigue", str, "none", None,
                       "Intrigue Senate cards replacing their base cards: 'none', 'all', or "
                       "comma-separated titles (Vicarius, Hispania Maximus, Tribunus, "
                       "Greko Maximus, Africanus Maximus)"),
    ),
    perfect_information=False,
    description="Dice placement on three tracks, provinces, Senate powers and shows in the "
    "Arena (Goldsteen, 2020).",
    playing_time='five rounds, about 45 decisions a player',
    ends_when='after round 5 and its end-game scoring',
    tie_break='more provinces, then the costliest Arena hand',
    # Two players: the learned value net mixed into the playouts' rewards (weights README;
    # +122 Elo over baseline 0.1 at 0.1 s a move, bench/results/elo-history.md).
    agent_defaults_by_players={2: {"ismcts": {"mix": 0.5, "evaluator": "learned"}}},
    picture="romecore.games.rise_to_power.picture",
    # Reviews judge with this search (bench/results/review.md measured its speed and agreement).
    review="ismcts:simulations=3000",
    # Named levels, weakest first: iteration or CPU-second budgets, so load does not weaken
    # them; calibrated with `romecore ladder` (bench/results/levels-rise_to_power.md).
    # Beginner plays plain playouts (mix=0): with the 2-player net it beat Casual.
    levels={
        "Beginner": "ismcts:simulations=30,mix=0",
        "Casual": "greedy:nodes=20000",
        "Strong": "ismcts:simulations=300",
        "Expert": "ismcts:simulations=3000",
        "Maximum": "ismcts:time=3,clock=cpu",
    },
)


@hookimpl
def romecore_games() -> list[GameSpec]:
    return [SPEC]


@hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    """Rise to Power's evaluators: the hand-written heuristic in C (``heuristic.pyx``)."""
    return heuristic.evaluator_specs()
