"""The ``learned`` evaluators' hook (registered by the built-in plugin package
``romecore_learned``, entry point ``learned``).

One generic plugin serves every game: the evaluator runs the same C forward pass over
whatever tensor the game's kernel writes, with the weights file of that game and player
count.  A game gets ``GAME:learned`` when a weights file ``<game>-<n>p.npz`` exists for it
(shipped as package data, or in ``$ROMECORE_LEARNED_WEIGHTS``), so no game is named here.
Its hook runs last (pluggy calls plugins newest first), so a game's default evaluator stays
the one the game registers.
"""

from __future__ import annotations

import re
from typing import Any

from romecore.hookspecs import hookimpl
from romecore.learned import weights_dirs
from romecore.spec import EvaluatorSpec

_NAME = re.compile(r"^([a-z0-9_]+)-([0-9]+)p\.npz$")


def _factory(game: Any, path: str | None = None) -> Any:
    from romecore.learned import make_learned_evaluator

    return make_learned_evaluator(game, path)


def games_with_weights() -> list[str]:
    """Ids of the games some weights file is found for."""
    found = {m.group(1) for d in weights_dirs() if d.is_dir() for f in d.iterdir() if (m := _NAME.match(f.name))}
    return sorted(found)


@hookimpl(trylast=True)  # after the games: their heuristics stay the defaults
def romecore_evaluators() -> list[EvaluatorSpec]:
    """``GAME:learned`` for every game with weights (each player count has its own file)."""
    return [EvaluatorSpec(g, "learned", _factory,
                          "a small value net over the observation tensor, forward pass in C "
                          "(romecore.learned)") for g in games_with_weights()]
