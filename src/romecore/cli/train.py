"""``romecore train``: fits the learned evaluator's value net on self-play shards
(:mod:`romecore.learned.train`; needs the ``romecore[train]`` extra)."""

from __future__ import annotations

import click

from romecore.cli.common import Command, Renamed
from romecore.errors import RomecoreError


@click.command("train", cls=Command, renamed=[Renamed("-O", "-o", hint="-O now means --option")])
@click.argument("game_id", metavar="GAME")
@click.argument("data", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False))
@click.option("--out", "-o", "out", type=click.Path(dir_okay=False), required=True, help="weights file (.npz)")
@click.option("--hidden", default="64,64", show_default=True, help="hidden layer widths, comma-separated")
@click.option("--epochs", "-e", type=click.IntRange(1), default=20, show_default=True)
@click.option("--batch", type=click.IntRange(1), default=256, show_default=True)
@click.option("--lr", type=click.FloatRange(0.0, min_open=True), default=1e-3, show_default=True)
@click.option("--weight-decay", type=click.FloatRange(0.0), default=1e-4, show_default=True)
@click.option("--val-fraction", type=click.FloatRange(0.0, 1.0, max_open=True), default=0.1, show_default=True,
              help="share of games held out for validation")
@click.option("--seed", "-s", type=int, default=0, show_default=True)
@click.option("--policy", is_flag=True, help="also train a policy head on the search's visit shares")
@click.option("--residual", is_flag=True,
              help="learn a correction to the base evaluator the self-play recorded (starts at its values)")
@click.option("--search-weight", type=click.FloatRange(0.0, 1.0), default=0.0, show_default=True,
              help="weight of the search's value of each position against the game's result")
@click.option("--threads", type=click.IntRange(1), default=1, show_default=True, help="torch threads")
@click.option("--curve", type=click.Path(dir_okay=False), default=None,
              help="loss curve (PNG; default: beside --out)")
def command(game_id: str, data: tuple[str, ...], out: str, hidden: str, epochs: int, batch: int, lr: float,
            weight_decay: float, val_fraction: float, seed: int, policy: bool, residual: bool, search_weight: float,
            threads: int, curve: str | None) -> None:
    """Train GAME's learned evaluator on the self-play directories DATA and write --out."""
    from romecore.learned.selfplay import read_manifest
    from romecore.learned.train import train

    try:
        sizes = [int(h) for h in hidden.split(",") if h.strip()]
    except ValueError:
        raise click.BadParameter(f"{hidden!r} is not a list of integers", param_hint="--hidden") from None
    try:
        for d in data:
            if read_manifest(d)["game"] != game_id:
                raise click.ClickException(f"{d} holds self-play of {read_manifest(d)['game']}, not {game_id}")
        result = train(list(data), out, hidden=sizes, epochs=epochs, batch=batch, lr=lr, weight_decay=weight_decay,
                       val_fraction=val_fraction, seed=seed, policy=policy, residual=residual,
                       search_weight=search_weight, threads=threads, curve=curve, log=click.echo)
    except RomecoreError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"wrote {result.weights} ({result.rows} training rows, {result.val_rows} validation) "
               f"and {result.curve}")
