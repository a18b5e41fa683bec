"""The uniform-random agent: picks among the legal actions with equal probability.

Registered through the ``romecore`` entry point ``random``, exactly as a third-party agent
plugin would be.
"""

from __future__ import annotations

import random as _random
import threading
from typing import Any

import romecore
from romecore.core.seeds import seed64
from romecore.spec import AgentSpec

__all__ = ["RandomAgent"]


class RandomAgent:
    """Chooses uniformly among ``state.legal_actions()``; seeded, so reproducible.  One
    generator serves every call, so calls shared between threads serialise (each draw
    whole), and which thread gets which draw depends on their order."""

    def __init__(self, game: Any = None, seed: int | None = None) -> None:
        self.spec = "random"
        self._rng = _random.Random(None if seed is None else seed64(seed))
        self._lock = threading.Lock()

    def step(self, state: romecore.State) -> int:
        actions = state.legal_actions()
        if not actions:
            raise romecore.IllegalActionError("random agent: no legal action (the game is over)")
        with self._lock:
            return actions[self._rng.randrange(len(actions))]

    def restart(self) -> None:
        pass


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    return [AgentSpec("random", RandomAgent, {}, "uniformly random legal actions")]
