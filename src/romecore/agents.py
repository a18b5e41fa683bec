"""The agents ``romecore.make_agent`` returns (:class:`Agent`), what an agent plugin builds
(:class:`StepAgent`), and the game levels' agent specs.

Threads: one agent may be shared between threads; its calls serialise (each built-in
agent holds a lock around its search state).  Separate agents stepping separate states in
separate threads run in parallel: the C search releases the GIL, as ``State.playout``
does.  A search agent's move is a function of its seed, the position and its iteration
budget, so a shared agent gives each thread what it would alone, except where it keeps
something between moves (``mcts`` reuses its tree; ``random`` draws from one stream):
then each move is legal, but which depends on the order of the calls.  ``stats`` tells of
the last call, whichever thread made it.  A State is one thread's at a time: a call on a
state that another thread is playing out raises ``UsageError``; hand each thread its own
(``clone``).
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Protocol, runtime_checkable

from romecore.core.seeds import seed64
from romecore.core.state import Game, State
from romecore.errors import AgentSpecError, IllegalActionError
from romecore.plugins import registry

__all__ = ["Agent", "StepAgent", "level_spec", "resolve_level"]


@runtime_checkable
class StepAgent(Protocol):
    """What an agent plugin's factory builds: ``step(state)`` gets a state that holds only
    what the player to move may know (a resample of the true state) and returns a legal
    action for that player.  ``restart()``, when present, is called between games so an
    agent can drop what it kept (a search tree, say); ``reseed(seed)``, when present, takes
    a new seed.

    Thread safety (see the module): one agent may be shared between threads, its calls
    serialising; separate agents in separate threads run in parallel.  A plugin's agent
    keeps that promise too.
    """

    def step(self, state: State) -> int: ...


class Agent:
    """What ``romecore.make_agent`` returns: the plugin's agent (``impl``, a
    :class:`StepAgent`) with what romecore gives every agent.

    * ``step(state)``: the plugin's move for the player to move in ``state``, which must
      hold only what that player may know.
    * ``choose(state)``: the same from the true state, resampled here for the caller.
    * ``spec``, ``game`` and ``seed``: what it was made from.  Pickling keeps exactly these
      and rebuilds the agent with ``make_agent`` on load (so also across processes): the copy
      is the agent as first built, without what it kept between moves (a search tree, how far
      its random streams have run).
    * Any other attribute (``stats``, ``stop()``, ...) is the plugin agent's own.
    """

    _OWN = frozenset({"impl", "spec", "game", "seed", "_worlds"})

    impl: StepAgent
    spec: str
    game: Game
    seed: int

    def __init__(self, impl: StepAgent, spec: str, game: Game, seed: int) -> None:
        self.impl = impl
        self.spec = spec
        self.game = game
        self._seed_worlds(seed)

    def _seed_worlds(self, seed: int) -> None:
        # choose()'s own stream, apart from any the plugin draws from the same seed
        self.seed = seed
        self._worlds = random.Random(f"romecore.choose:{seed}")

    def step(self, state: State) -> int:
        """The action the agent plays for the player to move in ``state``: hand it only what
        that player may know (``state.resample(player)``, or use :meth:`choose`)."""
        return self.impl.step(state)

    def choose(self, state: State) -> int:
        """The agent's move at the true ``state``, seen only as the player to move sees it:
        ``step(state.resample(state.current_player(), seed=s))``, with ``s`` the next 64-bit
        draw of the agent's own stream (seeded from its seed), so a seeded agent chooses the
        same moves in the same positions.  ``state`` itself is neither changed nor handed to
        the plugin.  Raises ``IllegalActionError`` at a chance node or at the end."""
        player = state.current_player()
        if player < 0:
            where = "a chance node" if state.is_chance_node() else "the game is over"
            raise IllegalActionError(f"choose: no player is to move ({where})")
        return self.step(state.resample(player, seed=self._worlds.getrandbits(64)))

    def restart(self) -> None:
        """Drops what the agent kept from the last game (called between games)."""
        restart = getattr(self.impl, "restart", None)
        if restart is not None:
            restart()

    def reseed(self, seed: int | None) -> None:
        """A new seed for the plugin's agent and for :meth:`choose`'s stream (a pickle keeps
        it); ``AttributeError`` when the plugin's agent takes no new seed."""
        reseed = getattr(self.impl, "reseed", None)
        if reseed is None:
            raise AttributeError(f"{type(self.impl).__name__} has no reseed()")
        seed = fresh_seed() if seed is None else seed64(seed)
        reseed(seed)
        self._seed_worlds(seed)

    def __getattr__(self, name: str) -> Any:
        if name in Agent._OWN or name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.impl, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in Agent._OWN:
            object.__setattr__(self, name, value)
        else:
            setattr(self.impl, name, value)

    def __reduce__(self) -> tuple[Any, tuple[str, Game, int]]:
        return (_rebuild, (self.spec, self.game, self.seed))

    def __repr__(self) -> str:
        return f"<Agent {self.spec!r} for {self.game.game_id}, seed {self.seed} ({type(self.impl).__name__})>"


def fresh_seed() -> int:
    """A seed for an agent made without one (drawn here, so it can be kept)."""
    return secrets.randbits(63)


def _rebuild(spec: str, game: Game, seed: int) -> Agent:
    from romecore.api import make_agent

    return make_agent(spec, game, seed)


def level_spec(game: Game | str, level: str) -> str:
    """The agent spec of ``level`` (a name of :data:`romecore.spec.LEVELS`, case ignored) at
    ``game`` (a Game or a game id): what the game's plugin chose (``GameSpec.levels``).

    >>> import romecore
    >>> romecore.level_spec("rise_to_power", "maximum")
    'ismcts:time=3,clock=cpu'
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
