"""The ``romecore`` command.  Each subcommand lives in its own module here and is added to
the group below."""

from __future__ import annotations

import click

from romecore.cli import (
    analyse,
    bench,
    engine,
    export,
    games,
    ladder,
    match,
    play,
    render,
    replay,
    selfplay,
    serve,
    simulate,
    tournament,
    train,
)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="romecore")
def main() -> None:
    """romecore: four Rome-themed games at engine speed, with strong AI agents."""


for _module in (games, simulate, play, bench, tournament, match, ladder, replay, analyse, export, render, selfplay,
                train, serve, engine):
    main.add_command(_module.command)
