"""``romecore export``: a game record as a plain readable move list with a tag header
(PGN-like), for people and for programs without romecore."""

from __future__ import annotations

import click

from romecore.errors import RomecoreError


@click.command("export")
@click.argument("path", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--game", "-n", "number", type=click.IntRange(0), default=0, show_default=True,
              help="which record of the file (0 is the first)")
@click.option("--output", "-o", "output", default=None, metavar="FILE",
              help="write the move list to FILE (default: standard output)")
def command(path: str, number: int, output: str | None) -> None:
    """Write a game record (JSON lines or msgpack, e.g. a tournament's results file) as
    a readable move list: [Tag "value"] lines, a blank line, one numbered move a line.

    The record is replayed first; one that does not replay (a tampered action or move
    text) is refused, naming the game and the move.
    """
    from romecore import records

    text, count = None, 0
    try:
        for rec in records.iter_records(path):  # reads no further than the record asked for
            if count == number:
                text = records.export_text(rec, number)
                break
            count += 1
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None
    if text is None:
        raise click.ClickException(f"{path} holds {count} records; there is no record {number}")
    if output is None:
        click.echo(text, nl=False)
        return
    try:
        with open(output, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise click.ClickException(f"cannot write {output}: {e.strerror or e}") from None
