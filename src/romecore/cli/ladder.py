"""``romecore ladder``: every agent against every other at one budget, rated with intervals."""

from __future__ import annotations

import json
import os
import time
from typing import Any

import click

from romecore.cli.common import (
    OPTION_WAS_O,
    STDOUT,
    Command,
    game_argument,
    game_option,
    load_game_or_exit,
    players_option,
    pool_options,
    write_text_or_exit,
)
from romecore.cli.tables import RATING_NOTE, fitted_table, fmt_ms, fmt_wins
from romecore.cli.tournament import stdout_to_stderr
from romecore.errors import RomecoreError


def ladder_tables(result: Any, width: int = 80) -> list[Any]:
    """The ladder as two rich tables that fit ``width`` columns: the ratings, best first,
    with what they are in a caption; then head to head, the agents numbered as in the first."""
    how = ("a bootstrap over games within each match" if result.interval == "bootstrap"
           else "the Fisher information")
    forfeits = any(r.forfeits for r in result.rows)
    heads = ["games", "wins", *(["forfeits"] if forfeits else []), "win %", "Elo", "95% interval", "ms/move"]
    cells = [[f"{r.games}", fmt_wins(r.wins), *([f"{r.forfeits}"] if forfeits else []), f"{r.win_rate:.1%}",
              f"{r.rating:.0f}", f"{r.rating_low:.0f} to {r.rating_high:.0f}", fmt_ms(r.ms_per_move)]
             for r in result.rows]
    opts = ", ".join(f"{k}={v}" for k, v in result.options.items())
    title = (f"ladder {result.game_id} ({opts}): {result.budget}, {result.games_played} games, "
             f"seed {result.seed}")
    labels = [f"{k + 1} {r.agent}" for k, r in enumerate(result.rows)]
    note = RATING_NOTE.format(anchor=result.anchor, interval=f"95% intervals from {how}")
    ratings = fitted_table(title, note, "agent", labels, heads, cells, width)
    numbers = [str(k + 1) for k in range(len(result.rows))]
    shares = [["" if x is None else f"{x:.0%}" for x in row] for row in result.head_to_head]
    h2h = fitted_table("head to head", "The row agent's share of the games with the column agent in which it "
                       "ranked above it (ties half).", "agent", labels, numbers, shares, width)
    return [ratings, h2h]


@click.command("ladder", cls=Command, renamed=[OPTION_WAS_O])
@game_argument()
@players_option(2)
@click.option("--agents", "--agent", "-a", "agents", multiple=True, metavar="SPEC",
              help="an agent of the ladder, repeatable (default: the five built-in agents)")
@click.option("--time", "move_time", type=click.FloatRange(min=0.0, min_open=True), default=None,
              help="seconds per move for every agent with a budget (default 0.1 with the built-in agents)")
@click.option("--clock", type=click.Choice(["wall", "cpu"]), default=None,
              help="what --time measures: wall seconds (the agents' default) or the searching "
                   "thread's CPU seconds, a fair budget on a loaded machine")
@click.option("--simulations", type=click.IntRange(1), default=None,
              help="simulations per move (nodes for agents that count nodes) instead of --time")
@click.option("--games", "-g", "games_per_match", type=click.IntRange(1), default=20, show_default=True,
              help="games per match (per pairing at 2 players), rounded up to whole seat rotations")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="master seed (deals and bootstrap)")
@pool_options()
@click.option("--out", "-o", "out", default=None, metavar="FILE",
              help="write the Markdown report here ('-': on standard output instead of the tables)")
@click.option("--games-dir", default=None, metavar="DIR",
              help="one results file per match (default: --out without .md plus -games, "
                   "else ladder-GAME-DATE-TIME-games)")
@click.option("--resume", is_flag=True, help="continue the matches in --games-dir (or --out's)")
@click.option("--overwrite", is_flag=True, help="replace the matches' results files")
@click.option("--interval", type=click.Choice(["fisher", "bootstrap"]), default="fisher",
              show_default=True, help="95% intervals: the observed Fisher information, or a seeded "
              "bootstrap over games (no spread where a match's games all ended alike)")
@click.option("--bootstrap", "samples", type=click.IntRange(10), default=200, show_default=True,
              help="bootstrap resamples")
@click.option("--progress/--no-progress", default=True, show_default=True, help="show progress")
@click.option("--json", "as_json", is_flag=True, help="print the ladder as JSON, not Markdown")
@game_option()
def command(game_id: str, players: int, agents: tuple[str, ...], move_time: float | None,
            clock: str | None, simulations: int | None, games_per_match: int, workers: int | None, seed: int,
            backend: str, address: str | None, out: str | None, games_dir: str | None,
            resume: bool, overwrite: bool, time_limit: float, move_time_limit: float, interval: str, samples: int,
            plugins: tuple[str, ...], progress: bool, as_json: bool, options: tuple[str, ...]) -> None:
    """Rate agents at GAME: every agent plays every other (at more players, every set of
    that many) at one budget per move, seats rotated, then one batch Plackett-Luce
    (Bradley-Terry) fit over all games gives Elo-scale ratings, random = 0, with 95%
    intervals.  Without --agent: random, greedy, mcts, ismcts and alphabeta at --time 0.1.

    \b
    romecore ladder great_city_of_rome --time 0.1 -g 20 --out ladder.md
    romecore ladder rise_to_power -p 3 --simulations 500 -a random -a greedy -a mcts -a ismcts
    romecore ladder great_city_of_rome --out ladder.md --resume
    """
    from rich.console import Console

    from romecore.tournament import TournamentError
    from romecore.tournament.ladder import run_ladder, to_markdown

    game = load_game_or_exit(game_id, players, options)
    if move_time is not None and simulations is not None:
        raise click.UsageError("--time and --simulations exclude each other")
    if resume and overwrite:
        raise click.UsageError("--resume and --overwrite exclude each other")
    if as_json and out == STDOUT:
        raise click.UsageError("--json and --out - would both write standard output")
    if games_dir is None:
        if out is not None and out != STDOUT:
            games_dir = (out[:-3] if out.endswith(".md") else out) + "-games"
        elif resume:
            raise click.UsageError("--resume needs --out FILE or --games-dir DIR")
        else:
            games_dir = f"ladder-{game_id}-{time.strftime('%Y%m%d-%H%M%S')}-games"

    try:
        with stdout_to_stderr():
            result = run_ladder(
                game, list(agents) or None, time=move_time, simulations=simulations, clock=clock,
                games_per_match=games_per_match, seed=seed, workers=workers, backend=backend,
                address=address, games_dir=games_dir, resume=resume, overwrite=overwrite,
                move_time_limit=move_time_limit or None, time_limit=time_limit, progress=progress, interval=interval,
                bootstrap=samples, plugins=plugins)
    except (RomecoreError, TournamentError, ImportError, OSError) as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        raise click.ClickException(f"interrupted; continue with --resume --games-dir {games_dir}") from None
    if out is not None:
        write_text_or_exit(to_markdown(result), out)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
        return
    if out != STDOUT:
        console = Console()
        for table in ladder_tables(result, console.width):
            console.print(table)
    where = f"; report in {out}" if out not in (None, STDOUT) else ""
    click.echo(f"{result.games_this_run} games this run in {result.elapsed:.1f} s, "
               f"games in {os.path.join(games_dir, '')}{where}", err=True)
