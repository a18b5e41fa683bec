"""Reads the action-id table a game documents in its package docstring, for the tests that
check it against the kernel's ACTION_BLOCKS (one parser for every game's table), and the
observation-tensor table, checked against the kernel's TENSOR_BLOCKS."""

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


def documented_slices(doc: str, row: re.Pattern[str]) -> list[tuple[int, int, str, str]]:
    """(offset, length, slice name, bound) of every line of ``doc`` that ``row`` matches,
    for the observation-tensor tables; its groups are the offset, the length, the slice's
    name and its bound (the last column: a number, or a word the table explains)."""
    rows = []
    for line in doc.splitlines():
        m = row.match(line)
        if m:
            rows.append((int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)))
    return rows


def assert_blocks_tile(rows: list[tuple[int, int, str, str]], sizes: dict[str, int]) -> None:
    """The documented slices whose names start with each prefix of ``sizes`` run from
    offset 0 without gap or overlap to that block's size."""
    for prefix, size in sizes.items():
        block = [(off, length) for off, length, name, _ in rows if name.startswith(prefix)]
        assert block[0][0] == 0, prefix
        for (off, length), (nxt, _) in zip(block, block[1:]):
            assert nxt == off + length, prefix
        assert block[-1][0] + block[-1][1] == size, prefix
