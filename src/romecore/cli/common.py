"""Helpers shared by the CLI commands: one vocabulary of flags, argument checking and agent
construction.

Every command spells a flag the same way: ``-o/--out`` an output file (``-`` for standard
output, or for none where standard output already carries the command's table or screen),
``-O/--option NAME=VALUE`` a game option, ``-p/--players`` the number of players,
``--seat`` a player's seat, ``--address`` a Ray cluster, ``-n/--index`` which record of a
file.  The spellings these replaced still work for one release through :class:`Command`,
with a warning on standard error.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import click

import romecore
from romecore.errors import RomecoreError

#: The game a command plays when none is named (the README's main job).
DEFAULT_GAME = "great_city_of_rome"

#: What an output file named ``-`` means: standard output (or none, where stdout is taken).
STDOUT = "-"

_KEY_VALUE = re.compile(r"[A-Za-z_][\w.-]*=")


def is_key_value(text: str) -> bool:
    """True for ``NAME=VALUE``: how a game option looks, and what no file name looks like."""
    return _KEY_VALUE.match(text) is not None


def has_no_equals(text: str) -> bool:
    """True for a value that cannot be a game option (``NAME=VALUE``): a file or folder."""
    return "=" not in text


@dataclass(frozen=True)
class Renamed:
    """A flag's old spelling, accepted for one release: ``old`` becomes ``new`` (with a
    warning), or, with ``when``, only for the values that ``when`` accepts (the old
    spelling otherwise already means something else)."""

    old: str
    new: str
    when: Callable[[str], bool] | None = None
    hint: str = ""


#: ``-o KEY=VALUE``, a game option before ``-o`` meant ``--out``.
OPTION_WAS_O = Renamed("-o", "-O", is_key_value, "-o now means --out")
#: ``-o KEY=VALUE`` in a command with no output file.
OPTION_WAS_O_ALWAYS = Renamed("-o", "-O")
#: ``-O DIR``, an output before ``-O`` meant ``--option``.
OUT_WAS_UPPER_O = Renamed("-O", "--out", has_no_equals, "-O now means --option")


class Command(click.Command):
    """A command that still accepts the old spellings of its flags (``renamed``), rewriting
    each to the new one and warning on standard error that it will go."""

    def __init__(self, *args: Any, renamed: Sequence[Renamed] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.renamed = {r.old: r for r in renamed}

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if self.renamed:
            args = rewrite_renamed(args, self.renamed, self._takes_value(), ctx.command_path)
        return super().parse_args(ctx, args)

    def _takes_value(self) -> set[str]:
        """The spellings (new ones) of the options that take a value."""
        return {decl for p in self.params if isinstance(p, click.Option) and not p.is_flag and not p.count
                for decl in p.opts}


def rewrite_renamed(args: Sequence[str], renamed: Mapping[str, Renamed], takes_value: set[str],
                    where: str = "romecore") -> list[str]:
    """``args`` with every old spelling in ``renamed`` replaced by its new one (a warning
    each on stderr).  Values of options and everything after ``--`` are left alone."""
    out: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg == "--":
            out += args[i - 1:]
            break
        if not arg.startswith("-") or arg == "-":
            out.append(arg)
            continue
        if arg.startswith("--"):
            flag, eq, attached = arg.partition("=")
        else:
            flag, attached = arg[:2], arg[2:]
            eq = "=" if attached else ""
        value = attached if eq else (args[i] if i < len(args) else "")
        rule = renamed.get(flag)
        if rule is not None and (rule.when is None or rule.when(value)):
            hint = f" ({rule.hint})" if rule.hint else ""
            click.echo(f"{where}: {flag} is deprecated and will be removed in the next release; "
                       f"use {rule.new}{hint}", err=True)
            flag = rule.new
        if eq:
            out.append(f"{flag}={attached}" if flag.startswith("--") else f"{flag}{attached}")
        else:
            out.append(flag)
            if flag in takes_value and i < len(args):
                out.append(args[i])  # the value, never read as a flag
                i += 1
    return out


def game_argument() -> Any:
    """The GAME argument of every command that plays a game, defaulting to DEFAULT_GAME."""
    return click.argument("game_id", metavar="GAME", default=DEFAULT_GAME)


def parse_options(options: Sequence[str]) -> dict[str, str]:
    """``NAME=VALUE`` items as a dict; a clean CLI error for one without ``=``."""
    opts: dict[str, str] = {}
    for item in options:
        key, eq, value = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r} is not NAME=VALUE", param_hint="-O/--option")
        opts[key.strip()] = value.strip()
    return opts


def load_game_or_exit(game_id: str, players: int | None, options: Sequence[str] = ()) -> romecore.Game:
    """The game, or a clean CLI error naming what was wrong."""
    opts: dict[str, Any] = dict(parse_options(options))
    if players is not None:
        opts["players"] = players
    try:
        return romecore.load_game(game_id, **opts)
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None


def make_agents_or_exit(specs: Sequence[str], game: romecore.Game, seed: int,
                        count: int | None = None, default: str = "random") -> list[Any]:
    """One agent per seat: the specs in order, repeated to fill the seats (``default``
    when none is given)."""
    specs = list(specs) or [default]
    n = game.num_players() if count is None else count
    try:
        return [romecore.make_agent(specs[i % len(specs)], game=game, seed=seed * 1000 + i)
                for i in range(n)]
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None


def game_option() -> Any:
    """``-O/--option NAME=VALUE``: a game option, repeatable."""
    return click.option("--option", "-O", "options", multiple=True, metavar="NAME=VALUE",
                        help="a game option (repeatable), e.g. -O intrigue=all")


def players_option(default: int | None = None) -> Any:
    """``-p/--players N``: the number of players."""
    if default is None:
        return click.option("--players", "-p", type=int, default=None, help="number of players (game default)")
    return click.option("--players", "-p", type=int, default=default, show_default=True, help="players per game")


def address_option() -> Any:
    """``--address``: the Ray cluster to run on."""
    return click.option("--address", default=None, help="Ray cluster address (default: a local Ray instance)")


def pool_options() -> Any:
    """What every command that plays many games takes: ``-w/--workers``, ``--backend``,
    ``--address``, ``--time-limit`` (a game), ``--move-time-limit`` (a move) and
    ``--plugin``, spelt and explained once."""
    options = [
        click.option("--workers", "-w", type=click.IntRange(1), default=None,
                     help="parallel games (default: CPUs here, or the Ray cluster's)"),
        click.option("--backend", type=click.Choice(["local", "ray", "inline"]), default="local",
                     show_default=True, help="local process pool, a Ray cluster, or this process"),
        address_option(),
        click.option("--time-limit", type=click.FloatRange(min=0.001), default=600.0, show_default=True,
                     help="seconds one game may take before its worker is replaced and the game replayed"),
        click.option("--move-time-limit", type=click.FloatRange(min=0.0), default=60.0, show_default=True,
                     help="seconds an agent may think on one move before it forfeits the game (0: no limit)"),
        click.option("--plugin", "plugins", multiple=True, metavar="MODULE",
                     help="a module registering extra agents, loaded in every worker (repeatable)"),
    ]

    def apply(f: Any) -> Any:
        for option in reversed(options):
            f = option(f)
        return f
    return apply


def index_option() -> Any:
    """``-n/--index N``: which record of a file."""
    return click.option("--index", "-n", "number", type=click.IntRange(0), default=0, show_default=True,
                        help="which record of a file (0 is the first)")


def agents_option() -> Any:
    return click.option("--agents", "--agent", "-a", "agents", multiple=True, metavar="SPEC",
                        help='agent spec per seat, repeatable and cycled: -a random -a "mcts:simulations=500"')


def record_source(path: str) -> Any:
    """What the record readers take for a RECORD argument: the path, or for ``-`` the
    bytes on standard input."""
    import sys

    return sys.stdin.buffer.read() if path == STDOUT else path


def write_text_or_exit(text: str, out: str | None) -> None:
    """``text`` to the file ``out``, or to standard output for None or ``-``."""
    if out is None or out == STDOUT:
        click.echo(text, nl=False)
        return
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise click.ClickException(f"cannot write {out}: {e.strerror or e}") from None
