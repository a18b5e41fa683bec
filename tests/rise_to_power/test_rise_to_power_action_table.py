"""The action-id table in the package docstring agrees with the kernel's constants, and
each block's size with the counts in data.py, so neither the docs nor the ids can drift."""

import re

import pytest

import action_tables
import romecore.games.rise_to_power as pkg
from romecore.games.rise_to_power import data, kernel
from romecore.games.rise_to_power.plugin import SPEC

ROW = re.compile(r"^(\d+)(?:-(\d+))?\s+([A-Z][A-Z_]+)\s")

# Each block's size as the rulebook's components give it (data.py), not the kernel's enums.
NTRACKS, FACES = len(data.TRACKS), data.FACES
EXPECTED_SIZE = {
    "A_PLACE": NTRACKS * FACES, "A_DONE": 1, "A_ACTIVATE": len(data.SENATE),
    "A_PROVINCE": len(data.PROVINCES), "A_SENATE": len(data.SENATE), "A_BUY": len(data.ARENA_TYPES),
    "A_DRAW": 1, "A_SHOW": len(data.ARENA_TYPES), "A_DIE": FACES + 1,
    "A_PLACED": NTRACKS * data.SECTIONS, "A_PLUS": 1, "A_MINUS": 1,
    "A_PLAYER": SPEC.max_players, "CH_DIE": FACES, "CH_PROVINCE": len(data.PROVINCES),
    "CH_SENATE": len(data.SENATE), "CH_ARENA": len(data.ARENA_TYPES), "CH_SEAT": SPEC.max_players,
}


def documented_rows():
    """(first, last, block name) for each row of the docstring's action table."""
    return action_tables.documented_rows(pkg.__doc__, ROW)


def test_table_lists_every_block_in_order():
    rows = documented_rows()
    assert [name for _, _, name in rows] == list(kernel.ACTION_BLOCKS)
    assert len(rows) == len(EXPECTED_SIZE)


@pytest.mark.parametrize("first,last,name", documented_rows())
def test_row_matches_kernel_and_data(first, last, name):
    assert kernel.ACTION_BLOCKS[name] == first
    assert last - first + 1 == EXPECTED_SIZE[name]


def test_blocks_are_consecutive_and_end_at_num_actions():
    rows = documented_rows()
    assert rows[0][0] == 0
    for (_, last, _), (first, _, _) in zip(rows, rows[1:]):
        assert first == last + 1
    assert rows[-1][1] + 1 == kernel.NUM_ACTIONS

