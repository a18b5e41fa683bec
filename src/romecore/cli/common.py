"""Helpers shared by the CLI commands: argument checking and agent construction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

import romecore
from romecore.errors import RomecoreError

#: The game a command plays when none is named (the README's main job).
DEFAULT_GAME = "great_city_of_rome"


def game_argument() -> Any:
    """The GAME argument of every command that plays a game, defaulting to DEFAULT_GAME."""
    return click.argument("game_id", metavar="GAME", default=DEFAULT_GAME)


def load_game_or_exit(game_id: str, players: int | None, options: Sequence[str] = ()) -> romecore.Game:
    """The game, or a clean CLI error naming what was wrong."""
    opts: dict[str, Any] = {}
    if players is not None:
        opts["players"] = players
    for item in options:
        key, eq, value = item.partition("=")
        if not eq:
            raise click.BadParameter(f"{item!r} is not key=value", param_hint="--option")
        opts[key.strip()] = value.strip()
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
    return click.option("--option", "-o", "options", multiple=True, metavar="KEY=VALUE",
                        help="a game option (repeatable), e.g. -o intrigue=all")


def agents_option() -> Any:
    return click.option("--agents", "--agent", "-a", "agents", multiple=True, metavar="SPEC",
                        help='agent spec per seat, repeatable and cycled: -a random -a "mcts:simulations=500"')
