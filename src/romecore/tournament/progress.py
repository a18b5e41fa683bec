"""The progress bar of many games: the tournament's, the ladder's and ``romecore simulate``'s.

It lives apart from :mod:`romecore.tournament.runner` so that each of them, the ladder
included, uses it without reaching into the runner."""

from __future__ import annotations

from typing import Any

__all__ = ["progress_bar"]


def progress_bar() -> Any:
    """A rich progress bar on stderr: bar, done/total, games/s, ETA."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("-- games/s" if speed is None else f"{speed:,.1f} games/s", style="cyan")

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    GamesPerSecond(), TimeElapsedColumn(), TextColumn("ETA"),
                    TimeRemainingColumn(), console=Console(stderr=True), transient=False)
