"""Tables for an 80-column terminal: the number columns are never cut, a long agent spec
wraps at its commas, and a caption says what the rating column is."""

from __future__ import annotations

from typing import Any

#: The line under every rating table (tournament and ladder rate alike).
RATING_NOTE = ("Elo: one Plackett-Luce (Bradley-Terry at 2 players) maximum-likelihood fit over all "
               "games, {anchor} = 0; {interval}.")


def fmt_ms(ms: float) -> str:
    """Milliseconds in about four characters: 0.012, 1.23, 93.1, 412."""
    return f"{ms:.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 10 else f"{ms:.2f}" if ms >= 1 else f"{ms:.3f}"


def fmt_wins(wins: float) -> str:
    """A win count: whole, or with one decimal when wins were shared."""
    return f"{wins:.0f}" if wins == int(wins) else f"{wins:.1f}"


def wrap_spec(label: str, width: int) -> str:
    """An agent label broken after its commas into lines of at most ``width`` characters
    (a longer parameter folded), so a long spec wraps whole parameters instead of being
    cut off."""
    lines, line = [], ""
    for part in label.replace(",", ",\0").split("\0"):
        if line and len(line) + len(part) > width:
            lines.append(line)
            line = ""
        line += part
        while len(line) > width:
            lines.append(line[:width])
            line = line[width:]
    return "\n".join([*lines, line] if line else lines)


def fitted_table(title: str, caption: str, key: str, labels: list[str], heads: list[str],
                 cells: list[list[str]], width: int) -> Any:
    """A rich table of one wrapped text column (``key``: the labels) and right-aligned
    columns that are never cut, the labels wrapped at commas to fit ``width``."""
    from rich import box
    from rich.console import Console
    from rich.table import Table

    def build(label_width: int) -> Table:
        table = Table(title=title or None, caption=caption or None, caption_justify="left", box=box.SIMPLE_HEAD,
                      pad_edge=False, show_edge=False, collapse_padding=True)
        wrapped = [wrap_spec(label, label_width) for label in labels]
        table.add_column(key, width=max([len(key), *(len(line) for w in wrapped for line in w.split("\n"))]))
        for name in heads:
            table.add_column(name, justify="right", no_wrap=True)
        for label, row in zip(wrapped, cells):
            table.add_row(label, *row)
        return table

    numbers = Console(width=10_000).measure(build(1)).maximum - len(key)
    return build(max(12, width - numbers))


def print_table(table: Any) -> None:
    """Prints a table on standard output at the terminal's width (``COLUMNS``; 80 in a pipe)."""
    from rich.console import Console

    Console().print(table)
