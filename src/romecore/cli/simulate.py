"""``romecore simulate``: play games between agents in this process and tabulate."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, BinaryIO

import click

from romecore.cli.common import (
    OPTION_WAS_O,
    STDOUT,
    Command,
    agents_option,
    game_argument,
    game_option,
    load_game_or_exit,
    make_agents_or_exit,
    players_option,
)
from romecore.cli.tables import fitted_table, fmt_ms, fmt_wins
from romecore.match import play_game


@contextmanager
def record_sink(out: str | None) -> Iterator[BinaryIO | None]:
    """Where each game's record goes as it ends: the file ``out`` (opened now, so an
    unwritable one is refused before any game), standard output for ``-``, or nowhere."""
    if out is None:
        yield None
    elif out == STDOUT:
        yield sys.stdout.buffer
        sys.stdout.buffer.flush()
    else:
        try:
            f = open(out, "wb")
        except OSError as e:
            raise click.ClickException(f"cannot write {out}: {e.strerror or e}") from None
        with f:
            yield f


def write_record(sink: BinaryIO, rec: Any, msgpack_file: bool) -> None:
    """One record, as a JSON line or (for a ``.msgpack`` file) a packed map."""
    from romecore import records

    if msgpack_file:
        import msgpack

        sink.write(msgpack.packb(rec.to_dict(), use_bin_type=True))
    else:
        records.append_jsonl(sink, rec)


@click.command("simulate", cls=Command, renamed=[OPTION_WAS_O])
@game_argument()
@players_option()
@click.option("--games", "-g", "num_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="master seed")
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="write every game as a record (JSON lines, or msgpack for .msgpack) for romecore "
                   "replay; '-': the records on standard output and the table on standard error")
@click.option("--progress/--no-progress", default=True, show_default=True, help="show a progress bar")
@agents_option()
@game_option()
def command(game_id: str, players: int | None, num_games: int, seed: int, out: str | None, progress: bool,
            agents: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Play GAME between agents (default: random) in this process and print a results table.

    Seats rotate from game to game so every agent sits in every seat.

    \b
    romecore simulate great_city_of_rome -p 2 -a greedy -a random -g 200
    romecore simulate rise_to_power -a random -g 10 -o games.jsonl
    """
    from rich.console import Console

    from romecore import records
    from romecore.tournament.progress import progress_bar

    game = load_game_or_exit(game_id, players, options)
    n = game.num_players()
    specs = list(agents) or ["random"]
    roster = [specs[i % len(specs)] for i in range(n)]
    make_agents_or_exit(roster, game, seed)  # a bad spec is refused before the bar starts
    wins, scores, moves, think = [0.0] * n, [0.0] * n, [0] * n, [0.0] * n
    bar = progress_bar() if progress else None
    t0 = time.perf_counter()
    with record_sink(out) as sink:
        if bar is not None:
            task = bar.add_task(game.game_id, total=num_games, failed=0)
            bar.start()
        try:
            for g in range(num_games):
                rot = g % n  # seat s is played by roster[(s + rot) % n]
                seated = [roster[(s + rot) % n] for s in range(n)]
                texts = records.MoveTexts()
                rec = play_game(game, make_agents_or_exit(seated, game, seed + g), seed + g, on_step=texts)
                rec.texts = texts.texts
                for s in range(n):
                    i = (s + rot) % n
                    wins[i] += rec.returns[s]
                    scores[i] += rec.scores[s]
                    moves[i] += rec.moves[s]
                    think[i] += rec.think_seconds[s]
                if sink is not None:
                    write_record(sink, rec, out is not None and out.endswith((".msgpack", ".mpk")))
                if bar is not None:
                    bar.advance(task)
        finally:
            if bar is not None:
                bar.stop()
    elapsed = time.perf_counter() - t0
    cells = [[fmt_wins(wins[i]), f"{wins[i] / num_games:.1%}", f"{scores[i] / num_games:.2f}",
              fmt_ms(1000 * think[i] / moves[i] if moves[i] else 0.0)] for i in range(n)]
    console = Console(stderr=out == STDOUT)
    console.print(f"{game!r}: {num_games} games, seed {seed}", highlight=False)
    console.print(fitted_table("", "", "slot agent", [f"{i} {roster[i]}" for i in range(n)],
                               ["wins", "win %", "mean score", "ms/move"], cells, console.width))
    console.print(f"{num_games} games in {elapsed:.2f} s ({num_games / elapsed:.1f} games/s)", highlight=False)
