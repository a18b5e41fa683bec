"""``romecore tournament``: many games between agents in parallel, ending in a table."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from romecore.cli.common import (
    OPTION_WAS_O,
    STDOUT,
    Command,
    agents_option,
    game_argument,
    game_option,
    load_game_or_exit,
    players_option,
    pool_options,
)
from romecore.cli.tables import RATING_NOTE, fitted_table, fmt_ms, fmt_wins
from romecore.errors import RomecoreError


def render_table(result: Any, width: int = 80) -> Any:
    """The results as a rich table, best rated first, that fits ``width`` columns: long
    agent specs wrap at their commas, no cell is cut; a caption says what the rating is."""
    rows = sorted(result.rows, key=lambda r: -r.rating)
    forfeits = any(r.forfeits for r in rows)
    heads = ["games", "wins", *(["forfeits"] if forfeits else []), "win %", "95% CI", "score", "ms/move", "Elo"]
    cells = [[f"{r.games}", fmt_wins(r.wins), *([f"{r.forfeits}"] if forfeits else []), f"{r.win_rate:.1%}",
              f"{100 * r.win_rate_low:.0f}-{100 * r.win_rate_high:.0f}%", f"{r.mean_score:.1f}",
              fmt_ms(1000 * r.seconds_per_move), _elo(r)] for r in rows]
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    anchor = next((r.agent for r in result.rows if r.spec == "random"), result.rows[0].agent if rows else "")
    note = RATING_NOTE.format(anchor=anchor, interval="± its 95% interval (Fisher information)")
    return fitted_table(f"{result.game_id} ({opts}): {result.games_played} games, seed {result.seed}",
                        note, "agent", [r.agent for r in rows], heads, cells, width)


def _elo(r: Any) -> str:
    """The rating and the half-width of its interval; the anchor (no spread) alone."""
    half = (r.rating_high - r.rating_low) / 2
    return f"{r.rating:.0f}±{half:.0f}" if half > 0 else f"{r.rating:.0f}"


@contextmanager
def stdout_to_stderr() -> Iterator[None]:
    """While a tournament runs, everything written to stdout goes to stderr instead, at
    the file-descriptor level too (Ray's "(raylet) ..." notices, an agent's prints, the
    processes started meanwhile), so stdout carries only the results (``--json``)."""
    sys.stdout.flush()
    saved_fd, saved = os.dup(1), sys.stdout
    try:
        os.dup2(2, 1)
        sys.stdout = sys.stderr
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved_fd, 1)
        os.close(saved_fd)
        sys.stdout = saved


@click.command("tournament", cls=Command, renamed=[OPTION_WAS_O])
@game_argument()
@players_option()
@agents_option()
@click.option("--games", "-g", "num_games", type=click.IntRange(0), default=None,
              help="games to play (default: with the default line-up, its count; else 100)")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="master seed")
@pool_options()
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="results file, JSON lines (default: a new GAME-DATE-TIME.jsonl here; '-' for none)")
@click.option("--resume", is_flag=True, help="continue the tournament in --out (needs --out)")
@click.option("--overwrite", is_flag=True, help="replace an existing --out")
@click.option("--retries", type=click.IntRange(0), default=2, show_default=True,
              help="times a game lost to a worker crash (no agent's fault) is played again")
@click.option("--unpaired", is_flag=True, help="a fresh deal seed per game, not one per rotation")
@click.option("--progress/--no-progress", default=True, show_default=True, help="show a progress bar")
@click.option("--json", "as_json", is_flag=True, help="print the results as JSON, not a table")
@game_option()
def command(game_id: str, players: int | None, agents: tuple[str, ...], num_games: int | None,
            workers: int | None, seed: int, backend: str, address: str | None, out: str | None,
            resume: bool, overwrite: bool, time_limit: float, move_time_limit: float, retries: int,
            plugins: tuple[str, ...], unpaired: bool, progress: bool, as_json: bool,
            options: tuple[str, ...]) -> None:
    """Play GAME between agents, many games in parallel, and print the results table.
    Without --agent: the game's own search (ismcts at 0.05 s of CPU a move) against greedy
    and random, 24 games.

    Seats rotate so each agent sits in each seat equally (over every len(agents) games);
    game seeds derive from --seed.  Each finished game is appended to --out, so an
    interrupted tournament continues with --resume and counts no game twice.

    An agent that raises, plays an illegal move or overruns --move-time-limit forfeits:
    the game counts as its loss (the other seats share the win), in the forfeits column.

    The Elo column rates every agent by one Plackett-Luce fit over all the games, random
    (else the first agent) at 0, on the same scale as romecore ladder.

    \b
    romecore tournament great_city_of_rome
    romecore tournament great_city_of_rome -p 3 -a "mcts:simulations=500" -a random -g 300
    romecore tournament great_city_of_rome --backend ray --address auto -g 10000
    """
    import time

    from rich.console import Console

    from romecore import tournament

    game = load_game_or_exit(game_id, players, options)
    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite exclude each other")
    if out is None:
        if resume:
            raise click.UsageError("--resume needs --out FILE: the results file to continue")
        out = f"{game_id}-{time.strftime('%Y%m%d-%H%M%S')}.jsonl"
    if agents and num_games is not None and num_games % len(agents):
        click.echo(f"note: {num_games} games is not a multiple of {len(agents)} agents; "
                   "seats will not be exactly balanced", err=True)
    try:
        with stdout_to_stderr():
            result = tournament.run(
                game, list(agents) or None, games=num_games, seed=seed, workers=workers,
                backend=backend, address=address, out=None if out == STDOUT else out,
                resume=resume, overwrite=overwrite, time_limit=time_limit,
                move_time_limit=move_time_limit or None, retries=retries, progress=progress,
                plugins=plugins, paired_seeds=not unpaired)
    except (RomecoreError, tournament.TournamentError, ImportError) as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        hint = f"; continue with --resume --out {out}" if out != STDOUT else ""
        raise click.ClickException(f"interrupted{hint}") from None
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
        return
    console = Console()
    console.print(render_table(result, console.width))
    rate = f"{result.games_per_second:,.1f} games/s" if result.games_this_run else "nothing left to play"
    where = f", results in {out}" if out != STDOUT else ""
    console.print(f"{result.games_this_run} games this run in {result.elapsed:.1f} s ({rate}) "
                  f"on {result.backend} x{result.workers}{where}")
    if result.forfeits:
        console.print(f"[yellow]{len(result.forfeits)} games forfeited[/yellow] this run "
                      "(in the table, as the faulty agent's losses):")
        for ff in result.forfeits[:10]:
            console.print(f"  game {ff.index}: {ff.reason}")
    if result.failures:
        console.print(f"[red]{len(result.failures)} games failed[/red] (not in the table):")
        for f in result.failures[:10]:
            console.print(f"  game {f.index}: {f.reason}")
