"""Learned evaluators: self-play data, a small value net trained on it, and its forward
pass in C over each game's observation tensor.

- :mod:`~romecore.learned.selfplay` plays games between built-in agents and writes
  training shards (``.npz``: tensors of every seat at sampled positions, final returns,
  search visit counts);
- :mod:`~romecore.learned.train` fits a multi-layer perceptron (PyTorch on the CPU, the
  ``romecore[train]`` extra) and writes a weights file (:mod:`~romecore.learned.weights`);
- :mod:`~romecore.learned.mlp` runs that net in C as an evaluator (``GAME:learned``).

Shipped weights sit in ``romecore/learned/weights/<game>-<players>p.npz``; a directory in
``ROMECORE_LEARNED_WEIGHTS`` is searched first, so a generation loop can point every
worker process at its newest net.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from romecore.errors import EvaluatorError

__all__ = ["ENV_DIR", "SHIPPED_DIR", "ensure_registered", "make_learned_evaluator", "residual_base", "weights_dirs",
           "weights_file"]

#: Environment variable naming a directory of weights files searched before the shipped ones.
ENV_DIR = "ROMECORE_LEARNED_WEIGHTS"
#: The shipped weights (package data).
SHIPPED_DIR = Path(__file__).with_name("weights")


def weights_dirs() -> list[Path]:
    """Where weights files are looked for, in order: ``$ROMECORE_LEARNED_WEIGHTS`` (a path
    list), then the shipped directory."""
    return [Path(d) for d in os.environ.get(ENV_DIR, "").split(os.pathsep) if d] + [SHIPPED_DIR]


def weights_file(game: Any) -> Path:
    """The weights file ``game`` (its id and player count) uses: ``$ROMECORE_LEARNED_WEIGHTS``
    first, then the shipped ones; EvaluatorError when there is none."""
    name = f"{game.game_id}-{game.num_players()}p.npz"
    dirs = weights_dirs()
    for d in dirs:
        if (d / name).is_file():
            return d / name
    raise EvaluatorError(f"no learned weights for {game.game_id} with {game.num_players()} players "
                         f"(looked for {name} in {', '.join(map(str, dirs))})")


def make_learned_evaluator(game: Any, path: str | os.PathLike[str] | None = None) -> Any:
    """The learned evaluator of ``game`` from ``path``, or from :func:`weights_file`."""
    from romecore.learned.mlp import LearnedEvaluator

    return LearnedEvaluator(game, os.fspath(path) if path is not None else str(weights_file(game)))


def residual_base(game: Any, name: str | None) -> Any:
    """The evaluator ``name`` of ``game`` (its default when None) as the base of a residual net:
    it must run in C and be hand-written, not a learned net (a net stacked on a net would
    call itself).  EvaluatorError when it is not; the registry's error when it cannot be made."""
    from romecore.api import make_evaluator
    from romecore.learned.mlp import LearnedEvaluator

    ev = make_evaluator(game, name)
    if not ev.is_native or isinstance(ev, LearnedEvaluator):
        raise EvaluatorError(f"the base evaluator {ev.name!r} is not a native hand-written one; "
                             "a residual net corrects such an evaluator")
    return ev


def ensure_registered() -> None:
    """Registers the ``learned`` evaluators with romecore's registry unless an installed
    entry point already has (a source checkout before reinstalling, a spawned worker)."""
    from romecore.learned import plugin
    from romecore.plugins import registry

    registry.evaluators()  # loads the entry points first
    if registry.pm.get_plugin("learned") is None and not registry.pm.is_registered(plugin):
        registry.register(plugin, name="learned")
