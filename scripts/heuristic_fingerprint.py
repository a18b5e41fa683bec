"""Fingerprint of the games' heuristic evaluators: one sha256 per (game, players, options).

A refactor of a heuristic that changes no weight or formula must leave every fingerprint
unchanged, byte for byte (``kernel_fingerprint.py`` does the same for the kernels and does
not call evaluators).  For each configuration it plays seeded random games and, at every
state on the way (chance nodes and the end included), hashes the exact bits of what each
heuristic evaluator the game ships says: its values, its ``estimates`` and, where it has
them, its ``features``; once on the shipped weights and once with other temperatures (so
the softmax's temperature is checked, not only the order of the values).

    python scripts/heuristic_fingerprint.py > /tmp/heuristic-before.txt
    python scripts/heuristic_fingerprint.py --game rise_to_power --games 2
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import random
import struct
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz import load  # noqa: E402
from kernel_fingerprint import print_fingerprints, walk_action  # noqa: E402

# temperatures unlike every game's own, so that a mix-up of the two shows in the values
OTHER_TEMPERATURES = {"temperature": 2.75, "temperature_left": 0.625}


def _feed(h: Any, tag: str, values: list[float]) -> None:
    """Adds one tagged list of floats to the hash, as their IEEE-754 bits."""
    data = struct.pack(f"<{len(values)}d", *values)
    h.update(tag.encode() + struct.pack("<Q", len(data)) + data)


def evaluators(game: Any) -> list[tuple[str, Any]]:
    """Every heuristic evaluator the game's ``heuristic`` module registers, on its own
    weights and on :data:`OTHER_TEMPERATURES`."""
    module = importlib.import_module(f"romecore.games.{game.game_id}.heuristic")
    out = []
    for spec in module.evaluator_specs():
        out.append((spec.name, spec.factory(game=game)))
        out.append((f"{spec.name}+t", spec.factory(game=game, **OTHER_TEMPERATURES)))
    return out


def _judge(h: Any, evs: list[tuple[str, Any]], state: Any) -> None:
    """Hashes what every evaluator says of one state."""
    for name, ev in evs:
        _feed(h, f"{name}:values", ev(state))
        _feed(h, f"{name}:estimates", ev.estimates(state))
        if hasattr(ev, "features"):
            for p, xs in enumerate(ev.features(state)):
                _feed(h, f"{name}:features{p}", xs)


def fingerprint(cfg: dict[str, Any], games: int) -> str:
    """The sha256 of one configuration's seeded games."""
    game = load(cfg)
    evs = evaluators(game)
    h = hashlib.sha256()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        _judge(h, evs, state)
        while not state.is_terminal():
            options = state.chance_outcomes() if state.is_chance_node() else state.legal_actions()
            state.apply_action(walk_action(rng, state, options))
            _judge(h, evs, state)
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--games", type=int, default=12, help="random games per configuration")
    args = ap.parse_args()
    print_fingerprints(args.game, lambda cfg: fingerprint(cfg, args.games))


if __name__ == "__main__":
    main()
