"""The keys that every game's dict forms share.

``State.to_dict`` wraps each game's position in the same envelope (:class:`StateDictHead`),
and every ``State.observation`` starts with whose view it is (:class:`ObservationHead`).
Each game's ``types`` module (``romecore.games.<game>.types``) extends these two with its
own schema, and the game's ``state.pyi`` stub returns them, so that a type checker knows
the keys of a typed state's dicts.
"""

# No ``from __future__ import annotations`` in the types modules: Python 3.11 loses
# ``NotRequired`` from a string annotation, making an optional key required at runtime.
from typing import NotRequired, TypedDict

__all__ = ["ObservationHead", "StateDictHead"]


class StateDictHead(TypedDict):
    """What ``State.to_dict`` adds to every game's position: the game's id, the dealer
    RNG's four words and, unless ``history=False``, every action so far.  (The game's
    ``options`` are typed by each game, since each has its own.)"""

    game: str
    rng: list[int]
    history: NotRequired[list[int]]


class ObservationHead(TypedDict):
    """Whose observation it is and who is to move (a player, ``CHANCE`` or ``TERMINAL``)."""

    player: int
    current_player: int
