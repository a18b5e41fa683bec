"""``romecore replay``: step through a game record in the terminal, or check records."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from romecore.cli.common import Command, Renamed, index_option, record_source
from romecore.errors import RomecoreError


@click.command("replay", cls=Command, renamed=[Renamed("--game", "--index")])
@click.argument("paths", metavar="RECORD...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@index_option()
@click.option("--step/--no-step", default=None,
              help="wait for Enter after each move (default: when the terminal is interactive)")
@click.option("--board/--no-board", default=False, help="draw the state after every move")
@click.option("--check", "check_all", is_flag=True,
              help="replay every record of the files silently and report those that do not replay")
def command(paths: tuple[str, ...], number: int, step: bool | None, board: bool, check_all: bool) -> None:
    """Replay game records (JSON lines or msgpack, e.g. a tournament's results file; '-'
    reads standard input): record --index of each file in turn, or with --check every record.

    Shows the tags and every move's text.  Every action and its recorded text are
    checked as they are applied; at the end the final returns and scores must be the
    recorded ones.  While stepping: Enter for the next move, a number to go
    that many moves, 'b' to draw the state, 'c' to run to the end, 'q' to quit.
    """
    from romecore import records

    try:
        if check_all:
            _check(records, paths)
            return
        for k, path in enumerate(paths):
            recs = records.read(record_source(path))
            if number >= len(recs):
                raise click.ClickException(f"{path} holds {len(recs)} records; there is no record {number}")
            if len(paths) > 1:
                click.echo(("" if k == 0 else "\n") + f"== {path}, record {number}")
            if not _step_through(recs[number], number, step, board):
                return
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None


def _check(records: Any, paths: Sequence[str]) -> None:
    """Replays every record of every file; exit status 1 if one does not replay."""
    bad = total = 0
    for path in paths:
        for i, rec in enumerate(records.iter_records(record_source(path))):
            total += 1
            try:
                records.replay(rec, game=i)
            except records.RecordError as e:  # names the game and the move
                bad += 1
                click.echo(f"{path}: {e}" if len(paths) > 1 else str(e))
    files = f" of {len(paths)} files" if len(paths) > 1 else ""
    click.echo(f"{total - bad} of {total} records{files} replay to their recorded result")
    if bad:
        raise SystemExit(1)


def _step_through(rec: Any, number: int, step: bool | None, board: bool) -> bool:
    """Shows one record move by move; False when the person quit."""
    from romecore import records

    if step is None:
        step = sys.stdin.isatty() and sys.stdout.isatty()
    for line in records.tag_lines(rec):
        click.echo(line)
    click.echo(f"{len(rec.actions)} moves")
    r = records.Replayer(rec, number)
    if board:
        click.echo(str(r.state))
    skip = 0
    while not r.done():
        player, _action, text = r.step()  # the recorded text, checked against the action
        click.echo(records.move_line(r.index, player, text))
        if board:
            click.echo(str(r.state))
        if step and skip <= 0 and not r.done():
            answer = click.prompt("", default="", show_default=False, prompt_suffix="> ").strip().lower()
            if answer == "q":
                return False
            if answer == "c":
                step = False
            elif answer == "b":
                click.echo(str(r.state))
            elif answer.isdigit():
                skip = int(answer) - 1
        else:
            skip -= 1
    state = r.finish()
    if not board:
        click.echo(str(state))
    if rec.resigned is not None:
        click.echo(f"resigned: player {rec.resigned}")
        click.echo(f"scores then {state.scores()}, returns {rec.returns}")
    elif rec.forfeit is not None:
        click.echo(f"forfeit: {rec.forfeit['reason']}")
        click.echo(f"scores then {state.scores()}, returns {rec.returns}")
    else:
        click.echo(f"scores {state.scores()}, returns {state.returns()}")
    if rec.finished():
        click.echo("the replay reaches the recorded result")
    return True
