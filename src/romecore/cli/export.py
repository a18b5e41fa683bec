"""``romecore export``: game records as plain readable move lists with a tag header
(PGN-like), for people and for programs without romecore."""

from __future__ import annotations

import click

from romecore.cli.common import Command, Renamed, index_option, record_source, write_text_or_exit
from romecore.errors import RomecoreError


@click.command("export", cls=Command, renamed=[Renamed("--output", "--out"), Renamed("--game", "--index")])
@click.argument("paths", metavar="RECORD...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@index_option()
@click.option("--all", "every", is_flag=True, help="every record of each file, not only --index")
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="write the move lists to FILE (default, or '-': standard output)")
def command(paths: tuple[str, ...], number: int, every: bool, out: str | None) -> None:
    """Write game records (JSON lines or msgpack, e.g. a tournament's results file; '-'
    reads standard input) as readable move lists: [Tag "value"] lines, a blank line, one
    numbered move a line; record --index of each file (or --all of them), a blank line
    between two.

    Each record is replayed first; one that does not replay (a tampered action or move
    text) is refused, naming the game and the move.
    """
    try:
        texts = [text for path in paths for text in _exports(path, number, every)]
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None
    write_text_or_exit("\n".join(texts), out)


def _exports(path: str, number: int, every: bool) -> list[str]:
    """The move lists of one file: record ``number``, or every record."""
    from romecore import records

    texts, count = [], 0
    for rec in records.iter_records(record_source(path)):  # reads no further than the record asked for
        if every or count == number:
            texts.append(records.export_text(rec, count))
            if not every:
                return texts
        count += 1
    if not every:
        raise click.ClickException(f"{path} holds {count} records; there is no record {number}")
    return texts
