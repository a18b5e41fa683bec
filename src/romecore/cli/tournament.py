"""``romecore tournament``: many games between agents in parallel, ending in a table."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click

from romecore.cli.common import agents_option, game_argument, game_option, load_game_or_exit
from romecore.errors import RomecoreError


def render_table(result: Any) -> Any:
    """The results as a rich table, best first (by the openskill ordinal, mu - 3 sigma)."""
    from rich import box
    from rich.table import Table

    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    table = Table(title=f"{result.game_id} ({opts}): {result.games_played} games, seed {result.seed}",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("agent", no_wrap=True, min_width=max(len(r.agent) for r in result.rows))
    for name in ("games", "wins", "forfeits", "win rate", "95% CI", "score", "ms/move"):
        table.add_column(name, justify="right", no_wrap=True)
    table.add_column("rating", justify="right", no_wrap=True)
    for r in sorted(result.rows, key=lambda r: -r.rating):
        table.add_row(r.agent, f"{r.games}", f"{r.wins:g}", f"{r.forfeits}", f"{r.win_rate:.1%}",
                      f"{100 * r.win_rate_low:.1f}-{100 * r.win_rate_high:.1f}",
                      f"{r.mean_score:.2f}", f"{1000 * r.seconds_per_move:.3f}",
                      f"{r.mu:.2f} ± {r.sigma:.2f}")
    return table


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


@click.command("tournament")
@game_argument()
@click.option("--players", "-p", type=int, default=None, help="number of players (game default)")
@agents_option()
@click.option("--games", "-g", "num_games", type=click.IntRange(0), default=None,
              help="games to play (default: with the default line-up, its count; else 100)")
@click.option("--workers", "-w", type=click.IntRange(1), default=None,
              help="parallel games (default: CPUs here, or the Ray cluster's)")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="master seed")
@click.option("--backend", type=click.Choice(["local", "ray", "inline"]), default="local",
              show_default=True, help="local process pool, a Ray cluster, or this process")
@click.option("--address", default=None, help="Ray cluster address (default: a local Ray instance)")
@click.option("--out", "out", default=None, metavar="FILE",
              help="results file, JSON lines (default: a new GAME-DATE-TIME.jsonl here; '-' for none)")
@click.option("--resume", is_flag=True, help="continue the tournament in --out (needs --out)")
@click.option("--overwrite", is_flag=True, help="replace an existing --out")
@click.option("--time-limit", type=click.FloatRange(min=0.001), default=600.0, show_default=True,
              help="seconds one game may take before its worker is replaced and the game replayed")
@click.option("--move-time-limit", type=click.FloatRange(min=0.0), default=60.0, show_default=True,
              help="seconds an agent may think on one move before it forfeits the game (0: no limit)")
@click.option("--retries", type=click.IntRange(0), default=2, show_default=True,
              help="times a game lost to a worker crash (no agent's fault) is played again")
@click.option("--plugin", "plugins", multiple=True, metavar="MODULE",
              help="a module registering extra agents, loaded in every worker (repeatable)")
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

    Seats rotate so each agent sits in each seat equally (over every len(agents) games);
    game seeds derive from --seed.  Each finished game is appended to --out, so an
    interrupted tournament continues with --resume and counts no game twice.

    An agent that raises, plays an illegal move or overruns --move-time-limit forfeits:
    the game counts as its loss (the other seats share the win), in the forfeits column.

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
                backend=backend, address=address, out=None if out == "-" else out,
                resume=resume, overwrite=overwrite, time_limit=time_limit,
                move_time_limit=move_time_limit or None, retries=retries, progress=progress,
                plugins=plugins, paired_seeds=not unpaired)
    except (RomecoreError, tournament.TournamentError, ImportError) as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        hint = f"; continue with --resume --out {out}" if out != "-" else ""
        raise click.ClickException(f"interrupted{hint}") from None
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
        return
    console = Console()
    table = render_table(result)
    if not console.is_terminal:  # a file or pipe: do not squeeze the table to 80 columns
        console = Console(width=max(console.width, 100))
    console.print(table)
    rate = f"{result.games_per_second:,.1f} games/s" if result.games_this_run else "nothing left to play"
    where = f", results in {out}" if out != "-" else ""
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
