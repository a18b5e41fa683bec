"""``romecore selfplay``: games between built-in agents, written as training shards for the
learned evaluators (:mod:`romecore.learned.selfplay`)."""

from __future__ import annotations

import click

from romecore.cli.common import (
    OPTION_WAS_O,
    OUT_WAS_UPPER_O,
    Command,
    Renamed,
    address_option,
    agents_option,
    game_argument,
    game_option,
    load_game_or_exit,
    players_option,
)
from romecore.errors import RomecoreError


@click.command("selfplay", cls=Command,
               renamed=[OPTION_WAS_O, OUT_WAS_UPPER_O, Renamed("--ray-address", "--address")])
@game_argument()
@players_option()
@click.option("--games", "-g", "num_games", type=click.IntRange(1), default=100, show_default=True)
@click.option("--out", "-o", "out_dir", type=click.Path(file_okay=False), required=True,
              help="directory for manifest.json and shard-*.npz (an interrupted run resumes there)")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="master seed")
@click.option("--sample", type=click.FloatRange(0.0, 1.0, min_open=True), default=0.25, show_default=True,
              help="share of decisions whose tensors are kept (every seat's view of each)")
@click.option("--shard-games", type=click.IntRange(1), default=10, show_default=True, help="games per shard")
@click.option("--workers", "-w", type=click.IntRange(1), default=1, show_default=True, help="processes")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True)
@address_option()
@click.option("--base", default=None, help="the native evaluator whose values each position records, "
              "for a residual net (default: the game's default evaluator)")
@click.option("--progress/--no-progress", default=True, show_default=True, help="show a progress bar")
@agents_option()
@game_option()
def command(game_id: str, players: int | None, num_games: int, out_dir: str, seed: int, sample: float,
            shard_games: int, workers: int, backend: str, address: str | None, base: str | None, progress: bool,
            agents: tuple[str, ...], options: tuple[str, ...]) -> None:
    """Play GAME between agents (default: ismcts, the strongest) and write training examples:
    every seat's observation tensor at sampled positions, the final returns and the search's
    root visits, as numpy .npz shards in --out (see romecore.learned.selfplay)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from romecore.learned import ensure_registered
    from romecore.learned.selfplay import selfplay

    ensure_registered()
    game = load_game_or_exit(game_id, players, options)
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), disable=not progress) as bar:
        task = bar.add_task(f"self-play {game_id}", total=num_games)
        try:
            paths = selfplay(game, out_dir, agents=list(agents) or ["ismcts"], games=num_games, seed=seed,
                             sample=sample, shard_games=shard_games, workers=workers, backend=backend,
                             ray_address=address, base=base,
                             progress=lambda done, _total: bar.update(task, completed=done))
        except RomecoreError as e:
            raise click.ClickException(str(e)) from None
    click.echo(f"{num_games} games of {game!r} in {len(paths)} shards under {out_dir}")
