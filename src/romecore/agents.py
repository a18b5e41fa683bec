"""The agent protocol shared by every search plugin, and the uniform-random agent's base."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from romecore.core.state import State

__all__ = ["Agent"]


@runtime_checkable
class Agent(Protocol):
    """What ``romecore.make_agent`` returns.

    ``step(state)`` gets a state that holds only what the player to move may know (a
    resample of the true state) and returns a legal action for that player.  ``spec`` is
    the string the agent was made from.  ``restart()``, when present, is called between
    games so an agent can drop what it kept (a search tree, say).
    """

    spec: str

    def step(self, state: State) -> int: ...
