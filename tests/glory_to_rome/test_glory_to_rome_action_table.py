"""The action-id table in the package docstring against the kernel's constants, so the
documentation cannot drift from the ids: each documented block has the kernel's first id,
the blocks are consecutive, their sizes follow the printed components (data.py), and
they end at num_distinct_actions()."""

from __future__ import annotations

import re

import pytest

import romecore
import romecore.games.glory_to_rome as package
from romecore.games.glory_to_rome import data, kernel

ROW = re.compile(r"^(\d+)\s+([A-Z][A-Z_]*)\s+(\d+)\s+(\S.*)$")


def documented_blocks(doc: str) -> list[tuple[int, str, int]]:
    """(first id, block name, size) of each row of the "Action encoding" table."""
    section = doc[doc.index("Action encoding"):]
    rules = [i for i, line in enumerate(section.splitlines()) if re.fullmatch(r"=+(\s+=+){3}", line)]
    assert len(rules) >= 3, "the action table has a header rule, a header and a closing rule"
    lines = section.splitlines()[rules[1] + 1:rules[2]]
    rows = []
    for line in lines:
        m = ROW.match(line)
        if m:
            rows.append((int(m.group(1)), m.group(2), int(m.group(3))))
        else:
            assert line.startswith(" "), f"not a row nor a continuation: {line!r}"
    return rows


ROWS = documented_blocks(package.__doc__)

# Block sizes from the components, independent of the kernel: buildings, roles,
# role x material petitions, materials, the 36 sites, the other seats (at most 5 players).
NB, NM = len(data.BUILDINGS), len(data.MATERIALS)
SITES = data.SITES_PER_MATERIAL * NM
SIZES = {
    "A_CARD": NB, "A_JACK": NM, "A_PETITION": NM * NM, "A_THINK": 1, "A_THINK_JACK": 1,
    "A_THINK_DRAW": 1, "A_VOMIT": 1, "A_POOL": NM, "A_STOCK": NM, "A_DECK": 1,
    "A_FOUND_IN": NM, "A_FOUND_OUT": NM, "A_STRUCT": SITES, "A_TO_HAND": 1, "A_SENATE": 5 - 1,
    "A_COLISEUM": NM, "A_SEWER": NM, "A_DONE": 1, "CH_CARD": NB,
}


def test_the_table_names_the_kernels_blocks_in_order_with_their_first_ids():
    assert [(name, first) for first, name, _ in ROWS] == list(kernel.ACTION_BLOCKS.items())


def test_the_blocks_are_consecutive_and_end_at_the_number_of_actions():
    assert ROWS[0][0] == 0
    for (first, name, size), (nxt, _, _) in zip(ROWS, ROWS[1:]):
        assert first + size == nxt, name
    first, _, size = ROWS[-1]
    game = romecore.load_game("glory_to_rome")
    assert first + size == kernel.NUM_ACTIONS == game.num_distinct_actions()
    assert f"num_distinct_actions() == {kernel.NUM_ACTIONS}" in package.__doc__


@pytest.mark.parametrize("first,name,size", ROWS, ids=[r[1] for r in ROWS])
def test_each_block_has_the_size_the_components_give(first, name, size):
    assert size == SIZES[name]


def test_the_parser_refuses_a_drifted_table():
    """The check can fail: a table with a block moved by one is caught."""
    drifted = package.__doc__.replace("\n40     A_JACK", "\n41     A_JACK")
    assert [(n, f) for f, n, _ in documented_blocks(drifted)] != list(kernel.ACTION_BLOCKS.items())
