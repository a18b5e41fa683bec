"""What a page may ask of the server, bounded on the server (DESIGN.md principle 11).

A page names its opponents by **level** (``GameSpec.levels``: Beginner ... Maximum, each a
spec the game's plugin chose) or, behind the form's "advanced" toggle, by a raw agent spec.
Either way the spec the server builds is bounded here: every search gets a time budget of at
most ``max_think`` seconds a move (an iteration budget alone could run for hours), searches
in one thread (``workers`` would fork processes per page), and an agent with no time budget
to bound is refused unless it is known to answer at once.  An ``engine`` agent runs a
program on the server, so a page may seat only the engine specs the server was started with
(``serve --engine SPEC``).  A search still running when its game ends, is resigned or is left
is stopped (:meth:`SearchAgent.stop`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from romecore.errors import AgentSpecError
from romecore.plugins import registry
from romecore.spec import parse_agent_spec

__all__ = ["Limits", "bound_spec", "levels_of", "resolve_opponent", "DEFAULT_MAX_THINK"]

#: Seconds an agent (or the hint) may think about one move, at most, unless the server says.
DEFAULT_MAX_THINK = 10.0
#: Agents that answer at once and so need no time budget.
INSTANT_AGENTS = frozenset({"random"})


@dataclass(frozen=True)
class Limits:
    """The server's bounds on what pages ask: think time, specs, games and messages."""

    max_think: float = DEFAULT_MAX_THINK
    #: Raw agent specs (the form's advanced toggle); False: levels only.
    allow_specs: bool = True
    max_games: int = 200
    #: The longest message a page may send, in characters (a move is a few dozen).
    max_message: int = 16384
    #: Messages a page may send a second, on average, and at once (a token bucket).
    rate: float = 20.0
    burst: int = 60
    #: Tables one page may start, and one address an hour.
    tables_per_connection: int = 10
    tables_per_address: int = 60
    #: Websockets open at once from one address.
    connections_per_address: int = 50
    #: The ``engine`` specs pages may seat (``serve --engine``); any other engine is refused.
    engines: tuple[str, ...] = ()


def _fmt(x: float) -> str:
    return f"{x:g}"


def bound_spec(spec: str, max_think: float, engines: tuple[str, ...] = ()) -> str:
    """``spec`` with its thinking bounded: ``time`` at most ``max_think`` seconds (added
    when the spec has none, so an iteration budget stops there too), ``workers`` 1.
    Raises :class:`AgentSpecError` for an unknown agent, a bad parameter, an agent whose
    thinking the server cannot bound, or an ``engine`` spec not among ``engines``.

    >>> bound_spec("ismcts:simulations=500", 2)
    'ismcts:simulations=500,time=2'
    >>> bound_spec("mcts:time=1e9,clock=cpu", 5)
    'mcts:time=5,clock=cpu'
    >>> bound_spec("random", 5)
    'random'
    """
    name, params = parse_agent_spec(spec)
    if name == "engine" and spec.strip() not in engines:
        raise AgentSpecError("an engine runs a program on the server: a page may seat only the engines "
                             "the server was started with (romecore serve --engine SPEC)")
    table = registry.agent(name).params  # UnknownAgentError names the installed ones
    unknown = sorted(set(params) - set(table))
    if unknown:
        raise AgentSpecError(f"agent {name!r} has no parameter {unknown[0]!r}")
    if "workers" in params and params["workers"] not in ("0", "1"):
        raise AgentSpecError("workers: a page's agent searches in one thread (workers=1)")
    if "time" not in table:
        if name in INSTANT_AGENTS:
            return spec.strip()
        raise AgentSpecError(f"agent {name!r} has no time budget this server could bound")
    try:
        asked = float(params.get("time", "0"))
    except ValueError:
        raise AgentSpecError(f"time={params['time']!r} is not a number of seconds") from None
    if not asked == asked or asked < 0:  # NaN or negative
        raise AgentSpecError(f"time={params['time']!r} is not a number of seconds")
    params["time"] = _fmt(min(asked, max_think) if asked > 0 else max_think)
    return name + ":" + ",".join(f"{k}={v}" for k, v in params.items())


def levels_of(game_id: str) -> Mapping[str, str]:
    """The game's named levels, weakest first (empty for a game whose plugin names none)."""
    return dict(getattr(registry.game(game_id), "levels", None) or {})


def resolve_opponent(game_id: str, asked: Any, limits: Limits) -> tuple[str, str]:
    """A page's choice for one seat, as ``(label, bounded spec)``: a level name (any case),
    or a raw spec where the server allows them."""
    if not isinstance(asked, str) or not 0 < len(asked) <= 200:
        raise AgentSpecError("an opponent is a level name or an agent spec (at most 200 characters)")
    levels = levels_of(game_id)
    for level, spec in levels.items():
        if asked.strip().lower() == level.lower():
            return level, bound_spec(spec, limits.max_think, limits.engines)
    if not limits.allow_specs:
        raise AgentSpecError(f"{asked[:40]!r} is not a level of {game_id} (levels: {', '.join(levels)})")
    return asked.strip(), bound_spec(asked, limits.max_think, limits.engines)
