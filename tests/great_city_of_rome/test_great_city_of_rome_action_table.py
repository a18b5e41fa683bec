"""The action table in the package docstring matches the kernel's action blocks, so the
documentation cannot drift from the ids."""
import re

import action_tables
import romecore
import romecore.games.great_city_of_rome as pkg
from romecore.games.great_city_of_rome import data, kernel

ROW = re.compile(r"^``(\d+)(?:-(\d+))?``\s+``(\w+)``\s+\S")


def documented_blocks():
    """(first, last, block name) for each row of the docstring's action table."""
    return action_tables.documented_rows(pkg.__doc__, ROW)


def test_table_names_every_block_at_its_first_id():
    rows = documented_blocks()
    assert [name for _, _, name in rows] == list(kernel.ACTION_BLOCKS)
    for first, _, name in rows:
        assert kernel.ACTION_BLOCKS[name] == first, name


def test_blocks_are_consecutive_and_end_at_num_actions():
    rows = documented_blocks()
    assert rows[0][0] == 0
    for (_, last, _), (first, _, _) in zip(rows, rows[1:]):
        assert first == last + 1
    assert rows[-1][1] + 1 == kernel.NUM_ACTIONS
    assert f"{kernel.NUM_ACTIONS} action ids in all" in pkg.__doc__
    game = romecore.load_game("great_city_of_rome", players=4)
    assert game.num_distinct_actions() == kernel.NUM_ACTIONS


def test_block_sizes_follow_the_data():
    """Sizes recomputed from data.py and the rules, not from the kernel."""
    size = {name: last - first + 1 for first, last, name in documented_blocks()}
    assert size["A_PLACE"] == 8 * 8                       # the 8x8 board's cells
    assert size["A_BUILD"] == len(data.TYPES) == size["CH_CARD"]
    assert size["A_PRODUCE"] == size["A_END"] == 1
    assert size["A_TAKE"] == max(len(d) for d in data.OFFER_DECKS.values())
    assert size["A_EMISSARY"] == len(data.STRIP_FRONTS[0])    # spaces on a strip
    assert size["A_DRAFT"] == max(data.ROUNDS)   # one card per seat; ROUNDS is keyed by player count
    assert size["A_SCHOOL_DECK"] == len(data.DECK_NAMES) - 1   # decks II to IV
    assert size["A_KEEP"] == size["A_BOTTOM"] == 5        # a University's draws
    assert size["CH_STRIP"] == len(data.STRIP_FRONTS)


def test_every_legal_action_names_its_block():
    """Actions met in a seeded game fall in the block their name says."""
    words = {"A_PLACE": "build", "A_BUILD": "build", "A_PRODUCE": "produce", "A_END": "end turn",
             "A_TAKE": "take", "A_EMISSARY": "emissary", "A_DRAFT": "draft",
             "A_SCHOOL_DECK": "School draws from", "A_KEEP": "keep", "A_BOTTOM": "put",
             "CH_CARD": "", "CH_STRIP": "strip"}
    rows = documented_blocks()
    state = romecore.load_game("great_city_of_rome", players=3).new_initial_state(seed=5)
    while not state.is_terminal():
        for a in state.legal_actions():
            name = next(n for first, last, n in rows if first <= a <= last)
            assert words[name] in state.action_to_string(a), (a, name)
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_action(state.legal_actions()[-1])
