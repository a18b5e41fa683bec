"""Value types that plugins hand to romecore: what a game, an agent or an evaluator is.

A plugin returns these from its hook implementations (see :mod:`romecore.hookspecs`);
romecore turns them into :class:`~romecore.Game` objects, agents and evaluators.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from romecore.errors import AgentSpecError, GameOptionError, PluginError

__all__ = ["LEVELS", "OptionSpec", "GameSpec", "AgentSpec", "EvaluatorSpec", "parse_agent_spec", "param_values"]

#: An agent's parameter table: name -> (type, default, one line of help).
ParamTable = Mapping[str, tuple[type, Any, str]]

#: The named levels a game offers its players, weakest first (:attr:`GameSpec.levels`).
LEVELS = ("Beginner", "Casual", "Strong", "Expert", "Maximum")


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its type, default, allowed values and a line of help."""

    name: str
    type: type
    default: Any
    choices: Sequence[Any] | None = None
    doc: str = ""

    def coerce(self, value: Any) -> Any:
        """The option's normalised value, or :class:`GameOptionError`."""
        if self.type is bool:
            if isinstance(value, str) and value.lower() in ("true", "false", "1", "0", "yes", "no"):
                value = value.lower() in ("true", "1", "yes")
            if not isinstance(value, bool) and value in (0, 1):
                value = bool(value)
            if not isinstance(value, bool):
                raise GameOptionError(f"option {self.name!r} is a bool, got {value!r}")
        elif self.type is int:
            if isinstance(value, bool):
                raise GameOptionError(f"option {self.name!r} is an int, got {value!r}")
            if isinstance(value, str):
                try:
                    value = int(value)
                except ValueError:
                    raise GameOptionError(f"option {self.name!r} is an int, got {value!r}") from None
            if not isinstance(value, int):
                raise GameOptionError(f"option {self.name!r} is an int, got {value!r}")
        elif self.type is str:
            if not isinstance(value, str):
                raise GameOptionError(f"option {self.name!r} is a str, got {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise GameOptionError(f"option {self.name}={value!r} is not one of {allowed}")
        return value


@dataclass(frozen=True)
class GameSpec:
    """A game a plugin provides.

    ``kernel`` is a ``PyCapsule`` named ``"romecore.rc_kernel"`` holding the address of the
    game's ``rc_kernel`` table; ``state_class`` derives from :class:`romecore.State`;
    ``encode_options`` maps the normalised options (players included) to the kernel's
    integer parameters, ``params[0]`` being the player count.
    """

    game_id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    kernel: Any
    state_class: type
    encode_options: Callable[[Mapping[str, Any]], list[int]]
    options: Sequence[OptionSpec] = ()
    perfect_information: bool = False
    description: str = ""
    #: Per-agent parameter defaults for this game (``{"ismcts": {"cutoff": 2}}``): what
    #: measured strongest here; :meth:`AgentSpec.build` applies them under the user's own.
    agent_defaults: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    #: Per-agent defaults at one player count, over ``agent_defaults``
    #: (``{2: {"ismcts": {"evaluator": "learned"}}}``): for what measured strongest at some
    #: player counts only, such as a learned evaluator trained for two players.
    agent_defaults_by_players: Mapping[int, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    #: Named levels for players to choose from, level name -> agent spec, in the order of
    #: :data:`LEVELS` (weakest first; empty: the game offers none).  Each spec's budget
    #: counts iterations or CPU seconds (``clock=cpu``), never wall time, so a loaded
    #: machine plays a level as strongly as an idle one; ``romecore ladder`` calibrates them.
    levels: Mapping[str, str] = field(default_factory=dict)
    #: For players, in a few words each (the start page and the end of a game show them):
    #: how long a game takes, when it ends, and how a tie on points is broken.
    playing_time: str = ""
    ends_when: str = ""
    tie_break: str = ""
    #: The module (a dotted name, imported when first needed) that draws this game's
    #: states for :func:`romecore.picture.to_svg`: ``draw(canvas, views, player, game,
    #: scores)``, and where the game has them ``targets(state, action)`` (the board keys a
    #: move names) and ``public_view(state)`` (what every seat may see).  Empty: the game
    #: has no pictures, and asking for one raises :class:`PluginError`.
    picture: str = ""
    #: The agent spec that judges a decision in a review (``romecore.analyse`` and
    #: ``romecore analyse`` without ``--agent``/``--level``), searching each resampled
    #: world with its own budget.  Its own field, not a level, so that calibrating the
    #: levels does not change what a review measured (bench/results/review.md).  Empty:
    #: the ``Strong`` level.
    review: str = ""

    def __post_init__(self) -> None:
        if self.levels and tuple(self.levels) != LEVELS:
            raise PluginError(f"game {self.game_id!r}: levels are {', '.join(self.levels)}; "
                              f"a game offers {', '.join(LEVELS)}, in that order")
        for level, spec in [*self.levels.items(), *([("review", self.review)] if self.review else [])]:
            try:
                parse_agent_spec(spec)
            except AgentSpecError as e:
                raise PluginError(f"game {self.game_id!r}: level {level}: {e}") from None

    def agent_defaults_for(self, agent: str, players: int) -> dict[str, Any]:
        """This game's defaults for ``agent`` at ``players`` players: ``agent_defaults``
        with those of ``agent_defaults_by_players`` for that count over them."""
        return {**self.agent_defaults.get(agent, {}),
                **self.agent_defaults_by_players.get(players, {}).get(agent, {})}

    def agent_default_groups(self) -> list[tuple[str, int | None, Mapping[str, Any]]]:
        """Every group of defaults, for listing: (agent, player count or None for every
        count, the parameters), the general ones first."""
        groups: list[tuple[str, int | None, Mapping[str, Any]]] = [
            (agent, None, params) for agent, params in self.agent_defaults.items()]
        for players in sorted(self.agent_defaults_by_players):
            groups += [(agent, players, params)
                       for agent, params in self.agent_defaults_by_players[players].items()]
        return groups

    def normalise_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Players plus every declared option, defaults filled in, each value checked."""
        known = {o.name: o for o in self.options}
        players_opt = OptionSpec("players", int, self.default_players,
                                 tuple(range(self.min_players, self.max_players + 1)),
                                 "number of players")
        out: dict[str, Any] = {"players": players_opt.coerce(given.get("players", self.default_players))}
        for name in given:
            if name != "players" and name not in known:
                valid = ", ".join(["players", *known])
                raise GameOptionError(f"{self.game_id} has no option {name!r} (options: {valid})")
        for name, opt in known.items():
            out[name] = opt.coerce(given.get(name, opt.default))
        return out


@dataclass(frozen=True)
class AgentSpec:
    """An agent a plugin provides: ``factory(game, seed, **params)`` builds it.

    ``params`` maps each accepted parameter to ``(type, default, help)``; values from a
    spec string are converted to that type and unknown names are refused.  What the
    factory builds keeps the :mod:`romecore.agents` thread promise: safe to share between
    threads (its calls serialise).
    """

    name: str
    factory: Callable[..., Any]
    params: ParamTable = field(default_factory=dict)
    description: str = ""

    def build(self, game: Any, seed: int | None, given: Mapping[str, Any]) -> Any:
        """The agent for ``game``: the game's defaults for this agent at its player count
        (:meth:`GameSpec.agent_defaults_for`), overridden by ``given``, over the table's
        defaults."""
        spec = getattr(game, "spec", None)
        if spec is not None:
            given = {**spec.agent_defaults_for(self.name, game.num_players()), **given}
        values = param_values(self.name, self.params, given)
        for key, raw in given.items():
            values[key] = _convert(self.name, key, self.params[key][0], raw)
        return self.factory(game=game, seed=seed, **values)


def param_values(agent: str, table: ParamTable, given: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of ``table``: the ``given`` value, else the table's default.  The one
    place defaults come from (spec strings and direct construction alike); unknown names
    raise :class:`AgentSpecError`."""
    for key in given:
        if key not in table:
            valid = ", ".join(sorted(table)) or "none"
            raise AgentSpecError(f"agent {agent!r} has no parameter {key!r} (parameters: {valid})")
    return {key: given.get(key, default) for key, (_typ, default, _help) in table.items()}


@dataclass(frozen=True)
class EvaluatorSpec:
    """An evaluator for one game: ``factory(game, **params)`` returns a
    :class:`romecore.core.evaluator.Evaluator` (a C-level or a Python one)."""

    game_id: str
    name: str
    factory: Callable[..., Any]
    description: str = ""


def _convert(agent: str, key: str, typ: type, raw: Any) -> Any:
    if isinstance(raw, typ) and not (typ is int and isinstance(raw, bool)):
        return raw
    text = str(raw)
    try:
        if typ is bool:
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError(text)
        if typ is int:
            return int(text)
        if typ is float:
            return float(text)
        return typ(text)
    except (TypeError, ValueError):
        raise AgentSpecError(f"agent {agent!r}: parameter {key}={text!r} is not a {typ.__name__}") from None


def parse_agent_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Splits ``"mcts:simulations=2000,c=0.7"`` into ``("mcts", {"simulations": "2000", "c": "0.7"})``.

    >>> parse_agent_spec("mcts:simulations=2000,c=0.7")
    ('mcts', {'simulations': '2000', 'c': '0.7'})
    >>> parse_agent_spec("random")
    ('random', {})
    """
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError(f"an agent spec is a non-empty string, got {spec!r}")
    name, _, rest = spec.strip().partition(":")
    name = name.strip()
    if not name:
        raise AgentSpecError(f"agent spec {spec!r} has no name")
    params: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key.strip():
            raise AgentSpecError(f"agent spec {spec!r}: {part!r} is not key=value")
        params[key.strip()] = value.strip()
    return name, params
