"""Reads the action-id table a game documents in its package docstring, for the tests that
check it against the kernel's ACTION_BLOCKS (one parser for every game's table)."""

from __future__ import annotations

import re


def documented_rows(doc: str, row: re.Pattern[str]) -> list[tuple[int, int, str]]:
    """(first id, last id, block name) of every line of ``doc`` that ``row`` matches; its
    groups are the first id, the last id (None for a one-id block) and the block's name."""
    rows = []
    for line in doc.splitlines():
        m = row.match(line)
        if m:
            first = int(m.group(1))
            last = int(m.group(2)) if m.group(2) else first
            rows.append((first, last, m.group(3)))
    return rows
