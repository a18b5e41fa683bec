"""Fingerprint of the kernels' behaviour: one sha256 per (game, players, options).

A refactor of a kernel that changes no rule must leave every fingerprint unchanged, byte for
byte.  For each configuration it plays seeded random games two ways and hashes what it sees:

- ``state.playout(seed)`` in C: the returns, scores, history and final snapshot;
- the Python step loop (``legal_actions`` + ``apply_action``, chance by ``chance_outcomes``)
  with seeded random choices: at every step the legal list, the action taken, the snapshot and
  every seat's observation tensor, and at the end the returns, scores and a resampled world
  per seat.

    python scripts/kernel_fingerprint.py > /tmp/fingerprint-before.txt
    python scripts/kernel_fingerprint.py --game rise_to_power --games 4
"""

from __future__ import annotations

import argparse
import hashlib
import random
import struct
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz import configs, load  # noqa: E402

# option values beyond the fuzzer's representative ones, so every kernel path is played
EXTRA_OPTIONS: dict[str, dict[str, list[Any]]] = {"rise_to_power": {"intrigue": ["all"]}}


def all_configs(game_ids: list[str] | None) -> list[dict[str, Any]]:
    """The fuzzer's configurations, then each with every extra option value."""
    out = configs(game_ids)
    extra = [dict(cfg, **{name: v}) for cfg in out for name, values in EXTRA_OPTIONS.get(cfg["game"], {}).items()
             for v in values if cfg.get(name) != v]
    return out + extra


def _feed(h: Any, tag: str, value: Any) -> None:
    """Adds one tagged value to the hash, so that fields cannot run into each other."""
    if isinstance(value, bytes | bytearray):
        data = bytes(value)
    elif hasattr(value, "tobytes"):
        data = value.tobytes()
    else:
        data = repr(value).encode()
    h.update(tag.encode() + struct.pack("<Q", len(data)) + data)


def _end(h: Any, state: Any) -> None:
    """Hashes a finished game: returns, scores, history and snapshot."""
    _feed(h, "returns", state.returns())
    _feed(h, "scores", state.scores())
    _feed(h, "history", state.history())
    _feed(h, "final", state.serialize(history=True))


def walk_action(rng: random.Random, state: Any, options: list) -> int:
    """The seeded walks' next action (shared with ``heuristic_fingerprint.py``): at a chance
    node one of ``options`` (its outcomes) drawn by probability, else a legal one uniformly."""
    if state.is_chance_node():
        return rng.choices([a for a, _ in options], [p for _, p in options])[0]
    return rng.choice(options)


def print_fingerprints(game_ids: list[str] | None, fingerprint_of: Any) -> None:
    """One line per configuration: its fingerprint, then the configuration."""
    for cfg in all_configs(game_ids):
        label = " ".join(f"{k}={v}" for k, v in cfg.items())
        print(f"{fingerprint_of(cfg)}  {label}", flush=True)


def _playouts(h: Any, game: Any, games: int) -> None:
    """Whole games inside C, one seed each."""
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        state.playout(seed)
        _end(h, state)


def _step_loop(h: Any, game: Any, games: int) -> None:
    """Whole games through the Python step loop, choices from a seeded generator."""
    n = game.num_players()
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                options = state.chance_outcomes()
                _feed(h, "chance", options)
            else:
                options = state.legal_actions()
                _feed(h, "legal", options)
                _feed(h, "player", state.current_player())
            action = walk_action(rng, state, options)
            _feed(h, "action", action)
            state.apply_action(action)
            _feed(h, "snapshot", state.serialize())
            for p in range(n):
                _feed(h, f"tensor{p}", state.observation_tensor(p))
        _end(h, state)
        for p in range(n):
            _feed(h, f"resample{p}", state.resample(p, seed=seed).serialize())


def fingerprint(cfg: dict[str, Any], games: int, playouts: int) -> str:
    """The sha256 of one configuration's seeded games."""
    game = load(cfg)
    h = hashlib.sha256()
    _playouts(h, game, playouts)
    _step_loop(h, game, games)
    return h.hexdigest()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="only this game (repeatable)")
    ap.add_argument("--games", type=int, default=12, help="step-loop games per configuration")
    ap.add_argument("--playouts", type=int, default=200, help="C playouts per configuration")
    args = ap.parse_args()
    print_fingerprints(args.game, lambda cfg: fingerprint(cfg, args.games, args.playouts))


if __name__ == "__main__":
    main()
