"""The action-id table in the package docstring agrees with the kernel's constants, and each
block's size with the counts in data.py, so neither the docs nor the ids can drift."""
import re
from itertools import combinations

import pytest

import action_tables
import romecore
import romecore.games.city_of_marble as pkg
from romecore.games.city_of_marble import data, kernel

ROW = re.compile(r"^(\d+)(?:-(\d+))?\s+``([A-Z][A-Z_0-9]*)\b")

# Each block's size from the components (data.py and the board file), not the kernel's enums.
NCOL = len(data.COLOURS)
EXPECTED_SIZE = {
    "A_SITE": data.SITES_PER_TRI_WORD * data.TRI_WORDS,   # the site sets' capacity
    "A_TILE": data.PLACEMENTS_PER_SITE,
    "A_PLAY": 2 * NCOL,                                   # with or without a magistrate
    "A_DRAW": len(list(combinations(range(NCOL), 2))),
    "A_DRAW1": NCOL,
    "A_RECALL": data.MAGISTRATES,
    "A_PIPE": len(data.DIRS) * len(data.AQUEDUCTS),
    "A_SEND": data.MAGISTRATES,
    "A_KEEP": 1,
    "A_SPEND": NCOL,
    "A_END": 1,
    "CH_HILL": len(data.BOARD.hills),
    "CH_BRIDGE": len(set(data.BRIDGE_VALUES)),
}

# What action_to_string says for an action of each block.
NAMES = {
    "A_SITE": r"^(resolve )?site ", "A_TILE": r"^tile ", "A_PLAY": r"^play \w+ tile",
    "A_DRAW": r"^draw \w+ and \w+$", "A_DRAW1": r"^draw \w+$", "A_RECALL": r"^recall magistrate",
    "A_PIPE": r"^\w+ aqueduct", "A_SEND": r"^send magistrate", "A_KEEP": r"^keep magistrates",
    "A_SPEND": r"^spend \w+ Imperium", "A_END": r"^end turn$", "CH_HILL": r"^hill .* revealed$",
    "CH_BRIDGE": r"^bridge tile worth \d$",
}


def documented_rows():
    """(first, last, block name) for each row of the docstring's action table."""
    return action_tables.documented_rows(pkg.__doc__, ROW)


def test_table_lists_every_block_in_order():
    rows = documented_rows()
    assert [name for _, _, name in rows] == list(kernel.ACTION_BLOCKS)
    assert [name for _, _, name in rows] == list(EXPECTED_SIZE)


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
    assert f"``num_distinct_actions()`` is {kernel.NUM_ACTIONS})" in pkg.__doc__
    assert romecore.load_game("city_of_marble", players=4).num_distinct_actions() == kernel.NUM_ACTIONS


def test_the_site_block_holds_every_site():
    assert data.BOARD.nsites <= EXPECTED_SIZE["A_SITE"]


@pytest.mark.parametrize("players", [2, 4])
def test_every_legal_action_names_its_block(players):
    """Actions met in seeded games are named as the block the table puts them in says."""
    import random
    rows = documented_rows()
    for seed in range(3):
        state = romecore.load_game("city_of_marble", players=players).new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            for a in state.legal_actions():
                name = next(n for first, last, n in rows if first <= a <= last)
                assert re.search(NAMES[name], state.action_to_string(a)), (a, name)
            if state.is_chance_node():
                state.apply_random_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))
