"""``romecore replay``: step through a game record in the terminal, or check records."""

from __future__ import annotations

import sys

import click

from romecore.errors import RomecoreError


@click.command("replay")
@click.argument("path", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--game", "-n", "number", type=click.IntRange(0), default=0, show_default=True,
              help="which record of the file (0 is the first)")
@click.option("--step/--no-step", default=None,
              help="wait for Enter after each move (default: when the terminal is interactive)")
@click.option("--board/--no-board", default=False, help="draw the state after every move")
@click.option("--check", "check_all", is_flag=True,
              help="replay every record of the file silently and report those that do not replay")
def command(path: str, number: int, step: bool | None, board: bool, check_all: bool) -> None:
    """Replay a game record (JSON lines or msgpack, e.g. a tournament's results file).

    Shows the tags and every move's text.  Every action and its recorded text are
    checked as they are applied; at the end the final returns and scores must be the
    recorded ones.  While stepping: Enter for the next move, a number to go
    that many moves, 'b' to draw the state, 'c' to run to the end, 'q' to quit.
    """
    from romecore import records

    try:
        if check_all:
            bad = total = 0
            for i, rec in enumerate(records.iter_records(path)):
                total += 1
                try:
                    records.replay(rec, game=i)
                except records.RecordError as e:  # names the game and the move
                    bad += 1
                    click.echo(str(e))
            click.echo(f"{total - bad} of {total} records replay to their recorded result")
            if bad:
                raise SystemExit(1)
            return
        recs = records.read(path)
        if number >= len(recs):
            raise click.ClickException(f"{path} holds {len(recs)} records; there is no record {number}")
        _step_through(recs[number], number, step, board)
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None


def _step_through(rec, number: int, step: bool | None, board: bool) -> None:
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
                return
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
    if rec.forfeit is not None:
        click.echo(f"forfeit: {rec.forfeit['reason']}")
        click.echo(f"scores then {state.scores()}, returns {rec.returns}")
    else:
        click.echo(f"scores {state.scores()}, returns {state.returns()}")
    if rec.finished():
        click.echo("the replay reaches the recorded result")
