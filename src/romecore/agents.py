"""The agent protocol shared by every search plugin, and the uniform-random agent's base.

Threads: one agent may be shared between threads; its calls serialise (each built-in
agent holds a lock around its search state).  Separate agents stepping separate states in
separate threads run in parallel: the C search releases the GIL, as ``State.playout``
does.  A search agent's move is a function of its seed, the position and its iteration
budget, so a shared agent gives each thread what it would alone, except where it keeps
something between moves (``mcts`` reuses its tree; ``random`` draws from one stream):
then each move is legal, but which depends on the order of the calls.  ``stats`` tells of
the last call, whichever thread made it.  A State is not safe to change in one thread
while another uses it; hand each thread its own (``clone``).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from romecore.core.state import Game, State
from romecore.errors import AgentSpecError
from romecore.plugins import registry

__all__ = ["Agent", "level_spec", "resolve_level"]


@runtime_checkable
class Agent(Protocol):
    """What ``romecore.make_agent`` returns.

    ``step(state)`` gets a state that holds only what the player to move may know (a
    resample of the true state) and returns a legal action for that player.  ``spec`` is
    the string the agent was made from.  ``restart()``, when present, is called between
    games so an agent can drop what it kept (a search tree, say).

    Thread safety (see the module): one agent may be shared between threads, its calls
    serialising; separate agents in separate threads run in parallel.  A plugin's agent
    keeps that promise too.
    """

    spec: str

    def step(self, state: State) -> int: ...


def level_spec(game: Game | str, level: str) -> str:
    """The agent spec of ``level`` (a name of :data:`romecore.spec.LEVELS`, case ignored) at
    ``game`` (a Game or a game id): what the game's plugin chose (``GameSpec.levels``).

    >>> import romecore
    >>> romecore.level_spec("rise_to_power", "expert")
    'ismcts:time=0.3,clock=cpu'
    """
    spec = registry.game(game) if isinstance(game, str) else game.spec
    wanted = str(level).strip().lower()
    for name, agent_spec in spec.levels.items():
        if name.lower() == wanted:
            return agent_spec
    valid = ", ".join(spec.levels) or "none"
    raise AgentSpecError(f"{spec.game_id} has no level {level!r} (levels: {valid})")


def resolve_level(spec: str, game: Game | str) -> str:
    """``spec`` itself, or for ``"level:NAME"`` the agent spec of that level at ``game``, so
    wherever an agent spec is read a level's name will do."""
    if isinstance(spec, str):
        name, sep, level = spec.strip().partition(":")
        if sep and name.strip().lower() == "level":
            return level_spec(game, level)
    return spec
