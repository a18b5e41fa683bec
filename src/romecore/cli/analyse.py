"""``romecore analyse``: review a recorded game, every decision judged by the AI from what
the mover knew (:mod:`romecore.analysis`)."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from romecore.cli.common import STDOUT, address_option, index_option, record_source
from romecore.errors import RomecoreError

#: The labels the terminal lists move by move (the others only count).
LISTED = ("mistake", "blunder")


@click.command("analyse")
@click.argument("path", metavar="RECORD", type=click.Path(dir_okay=False, allow_dash=True))
@index_option()
@click.option("--game", "game_index", type=click.IntRange(0), default=None,
              help="the same as --index: which record of the file")
@click.option("--level", default=None, metavar="LEVEL",
              help="judge with this level's agent (Beginner ... Maximum; default: the game's "
                   "review judge, GameSpec.review)")
@click.option("--agent", default=None, metavar="SPEC", help="judge with this agent spec instead of a level")
@click.option("--time", "seconds", type=click.FloatRange(0, min_open=True), default=None,
              help="CPU seconds per decision, over all its worlds (replaces the judge's budget)")
@click.option("--simulations", type=click.IntRange(1), default=None,
              help="iterations per decision, over all its worlds (replaces the judge's budget)")
@click.option("--worlds", type=click.IntRange(1), default=None,
              help="worlds resampled from the mover's view per decision, each searched as the judge "
                   "searches a move (or with an even share of --time/--simulations)  [default: 4]")
@click.option("--seed", "-s", type=int, default=0, show_default=True, help="seed of the searches")
@click.option("--workers", "-w", type=click.IntRange(1), default=None, help="processes (default: the CPU count)")
@click.option("--backend", type=click.Choice(["local", "ray", "inline"]), default="local", show_default=True,
              help="local: a process pool here; ray: a Ray cluster; inline: this process")
@address_option()
@click.option("--out", "-o", default=None, metavar="REVIEW.json",
              help="write the review as JSON ('-': standard output, instead of the summary)")
@click.option("--plot", default=None, metavar="GRAPH.svg|png", help="draw each player's value over the game")
@click.option("--resume/--restart", default=True, show_default=True,
              help="continue an interrupted review of the same record and judge from REVIEW.json.partial")
@click.option("--progress/--no-progress", default=None, help="show a progress bar (default: on a terminal)")
def command(path: str, number: int, game_index: int | None, level: str | None, agent: str | None,
            seconds: float | None, simulations: int | None, worlds: int | None, seed: int, workers: int | None,
            backend: str, address: str | None, out: str | None, plot: str | None, resume: bool,
            progress: bool | None) -> None:
    """Review a game RECORD ('-' reads standard input): every decision with a choice is
    searched from what the mover knew (worlds resampled from the mover's view, never the
    hidden cards themselves) and labelled best, good, inaccuracy, mistake or blunder by the
    loss in the mover's expected share of the win (inaccuracy from 0.05, mistake from
    0.10, blunder from 0.15; mistake and blunder only when the two moves' 95% intervals do
    not overlap).  Prints each player's accuracy and the mistakes and blunders; --out writes
    every decision as JSON, --plot the graph.  An interrupted review resumes from its
    partial file (REVIEW.json.partial).  A record that does not replay is refused, naming
    the move, and nothing is written.
    """
    from romecore import analysis, records

    if level is not None and agent is not None:
        raise click.UsageError("give --level or --agent, not both")
    if seconds is not None and simulations is not None:
        raise click.UsageError("give --time or --simulations, not both")
    if plot is not None and not plot.lower().endswith((".svg", ".png")):
        raise click.BadParameter(f"{plot!r}: the graph is written as .svg or .png", param_hint="--plot")
    for target in (out, plot):
        folder = os.path.dirname(os.path.abspath(target)) if target not in (None, STDOUT) else None
        if folder is not None and not os.path.isdir(folder):
            raise click.ClickException(f"cannot write {target}: no folder {folder}")
    if plot is not None and plot.lower().endswith(".png"):
        import importlib.util

        if importlib.util.find_spec("cairosvg") is None:
            raise click.ClickException("a .png graph needs cairosvg (pip install cairosvg); or use --plot GRAPH.svg")
    index = number if game_index is None else game_index
    try:
        record = _record(records, path, index)
        where = {"file": None if path == STDOUT else os.path.abspath(path), "index": index}
        partial = out + ".partial" if out not in (None, STDOUT) else None
        with _Bar(progress, record.game_id) as bar:
            review = analysis.review(record, level or agent, time=seconds, simulations=simulations,
                                     worlds=worlds or analysis.DEFAULT_WORLDS, seed=seed, workers=workers,
                                     backend=backend, address=address, partial=partial, resume=resume, source=where,
                                     progress=bar.update)
        if plot is not None:
            from romecore.picture import write

            write(analysis.plot_svg(review), plot)
    except records.ReplayError as e:
        raise click.ClickException(f"{path}: {e} (nothing written)") from None
    except RomecoreError as e:
        raise click.ClickException(f"{path}: {e}") from None
    text = json.dumps(review.to_dict(), indent=1) + "\n"
    if out == STDOUT:
        click.echo(text, nl=False)
        return
    if out is not None:
        with open(out, "w", encoding="utf-8") as f:
            f.write(text)
    _print_summary(review)


def _record(records: Any, path: str, index: int) -> Any:
    """Record ``index`` of the file, checked to replay (before anything is written)."""
    recs = records.read(record_source(path))
    if index >= len(recs):
        raise RomecoreError(f"holds {len(recs)} records; there is no record {index}")
    return recs[index]


class _Bar:
    """A rich progress bar on standard error while decisions are analysed (or nothing)."""

    def __init__(self, show: bool | None, name: str) -> None:
        self.show = sys.stderr.isatty() if show is None else show
        self.name = name
        self.bar: Any = None

    def __enter__(self) -> _Bar:
        if self.show:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

            self.bar = Progress(f"[bold]review {self.name}", BarColumn(), MofNCompleteColumn(), "decisions",
                                TimeElapsedColumn(), "ETA", TimeRemainingColumn(), console=Console(stderr=True))
            self.task = self.bar.add_task(self.name, total=None)
            self.bar.start()
        return self

    def update(self, done: int, total: int) -> None:
        if self.bar is not None:
            self.bar.update(self.task, completed=done, total=total)

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.bar.stop()


def _print_summary(review: Any) -> None:
    """Each player's accuracy and label counts, then the mistakes and blunders."""
    from romecore.analysis import LABELS

    click.echo(f"{review.game}: {len(review.decisions)} decisions reviewed by {review.judge['agent']} "
               f"x {review.judge['worlds']} worlds in {review.seconds:.1f} s")
    for s in review.summary:
        acc = "-" if s.accuracy is None else f"{s.accuracy:.0f}%"
        counts = ", ".join(f"{k} {s.counts[k]}" for k in LABELS)
        click.echo(f"  player {s.player} ({s.name}): accuracy {acc}; {counts}")
    for d in review.decisions:
        if d.label in LISTED:
            click.echo(f"  move {d.ply}, player {d.player}: {d.label}: {d.move_text} ({d.value_played:.2f} "
                       f"+- {d.stderr_played or 0:.2f}); best {d.best_text} ({d.value_best:.2f} "
                       f"+- {d.stderr_best or 0:.2f})")
