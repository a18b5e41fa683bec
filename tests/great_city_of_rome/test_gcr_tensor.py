"""The observation tensor: its documented table matches the kernel, and along random games it
equals an independent encoding of ``observation(p)`` written from that table and data.py, is
equal across the worlds ``resample(p)`` draws, stays in [0, 1], sets every float and changes
whenever the observation does."""
import re

import numpy as np
import pytest

import action_tables
import romecore
import romecore.games.great_city_of_rome as pkg
from robustness import assert_tensor_follows_observation, nan_filled_tensor, walk
from romecore.games.great_city_of_rome import data, kernel

ROW = re.compile(r"^(\d+)\s+(\d+)\s+``([OP]_\w+)``\s+(\S+)\s")
PHASES = ("draft_deal", "draft_pick", "strip", "offer", "emissary", "take", "main", "place",
          "school_deck", "school_draw", "school_keep", "school_bottom", "over")
COMMON, PER_PLAYER = 398, 713     # the docstring's block sizes
CITY_COLS, CELLS = 6, 42
DECK_SIZE = [sum(k for _, k in deck) for deck in data.DECKS]
PLANE = {name: i for i, name in enumerate(
    ("occ", "res2", "res3", "res4", "yellow", "red", "green", "blue", "aqueduct", "coinfarm",
     "grain", "sheep", "temple", "brick", "bath"))}


def table():
    return {name: (off, length, by) for off, length, name, by in
            action_tables.documented_slices(pkg.__doc__, ROW)}


def test_table_matches_the_kernel_and_tiles_each_block():
    rows = action_tables.documented_slices(pkg.__doc__, ROW)
    assert {name: (off, length) for off, length, name, _ in rows} == kernel.TENSOR_BLOCKS
    assert [name for _, _, name, _ in rows] == list(kernel.TENSOR_BLOCKS)
    action_tables.assert_blocks_tile(rows, {"O_": COMMON, "P_": PER_PLAYER})
    assert (kernel.TENSOR_COMMON, kernel.TENSOR_PER_PLAYER) == (COMMON, PER_PLAYER)
    for n in (2, 3, 4):
        game = romecore.load_game("great_city_of_rome", players=n)
        assert game.observation_tensor_shape() == (COMMON + n * PER_PLAYER,)
        assert game.observation_tensor_size() == COMMON + n * PER_PLAYER


def test_slice_sizes_follow_the_data():
    t = {name: length for name, (_, length, _) in table().items()}
    ntypes, nstrips, nspaces = len(data.TYPES), len(data.STRIP_FRONTS), len(data.STRIP_FRONTS[0])
    assert t["O_PHASE"] == len(PHASES) and t["O_ROUND"] == max(data.ROUNDS.values())
    assert t["O_STRIPS"] == nstrips * nstrips and t["O_FACE"] == t["O_TURN_SPACE"] == nspaces
    assert t["O_OFFER"] == max(map(len, data.OFFER_DECKS.values())) * ntypes
    assert t["O_BOTTOM"] == (len(data.DECKS) - 1) * (ntypes + 1)
    assert t["O_INFL_IN_PLAY"] == t["P_INFL_CARDS"] == len(data.INFLUENCE_VALUES)
    assert t["P_HAND"] == t["P_CITY_TYPES"] == t["O_SELECTED"] == ntypes
    assert t["P_PLANES"] == len(PLANE) * CELLS


def expected(obs, n):
    """The tensor from the observation dict, the docstring table and data.py alone."""
    tb = table()
    p = obs["player"]
    out = np.zeros(COMMON + n * PER_PLAYER)
    tid = data.TYPE_ID

    def put(name, i, v, seat=None):
        off, length, _ = tb[name]
        assert 0 <= i < length
        base = 0 if seat is None else COMMON + (seat - p) % n * PER_PLAYER
        out[base + off + i] += v

    put("O_PHASE", PHASES.index(obs["phase"]), 1)
    put("O_ROUND", obs["round"] - 1, 1)
    put("O_PROGRESS", 0, obs["round"] / obs["rounds"])
    for i, front in enumerate(obs["strips"]):
        put("O_STRIPS", i * len(data.STRIP_FRONTS) + data.STRIP_FRONTS.index(front), 1)
    if obs["face"] is not None:
        put("O_FACE_SHOWN", 0, 1)
        for k, ch in enumerate(obs["face"]):
            put("O_FACE", k, ch == "B")
    if obs["turn"] is not None:
        turn = obs["turn"]
        put("O_TURN_SPACE", turn["space"], 1)
        put("O_TURN_BRICKS", 0, turn["bricks"] / 5)
        put("O_TURN_COGS", 0, turn["cogs"] / 5)
        for k, flag in enumerate(("took", "built", "produced")):
            put("O_TURN_FLAGS", k, turn[flag])
        if turn["selected"] is not None:
            put("O_SELECTED", tid[turn["selected"]], 1)
    for k, name in enumerate(obs["offer"]):
        put("O_OFFER", k * len(data.TYPES) + tid[name], 1)
    for name in obs["drawn"]:
        if name is None:
            put("O_DRAWN_HIDDEN", 0, 1 / 5)
        else:
            put("O_DRAWN", tid[name], 1 / 5)
    for name in obs["draft_group"]:
        put("O_DRAFT_GROUP", tid[name], 1 / 3)
    for d, deck in enumerate(data.DECK_NAMES):
        put("O_DECK_SIZES", d, obs["deck_sizes"][deck] / DECK_SIZE[d])
        if d:
            for name in obs["deck_bottoms"][deck]:
                i = len(data.TYPES) if name is None else tid[name]
                put("O_BOTTOM", (d - 1) * (len(data.TYPES) + 1) + i, 1 / 14)
    for card in obs["influence_cards"]:
        i = data.INFLUENCE_VALUES.index(card["value"])
        if card["holder"] == "in play":
            put("O_INFL_IN_PLAY", i, 1)
        elif isinstance(card["holder"], int):
            put("P_INFL_CARDS", i, 1, card["holder"])
    if obs["school"] is not None and obs["school"]["deck"] >= 1:
        put("O_SCHOOL_DECK", obs["school"]["deck"] - 1, 1)
    if obs["school"] is not None:
        put("O_SCHOOL_LEFT", 0, obs["school"]["draws_left"] / 5)
    for k, seat in enumerate(obs["emissaries"]):
        if seat is not None:
            put("P_EMISSARY", k, 1, seat)
    for q in range(n):
        put("P_ACTOR", 0, obs["current_player"] == q, q)
        put("P_FIRST", 0, obs["first_player"] == q, q)
        for name, v in (("P_COINS", obs["coins"][q]), ("P_INFLUENCE", obs["influence"][q])):
            put(name, 0, min(v, 64) / 64, q)
            put(name, 1, v / 32767, q)
        put("P_SCORE", 0, min(obs["scores"][q], 256) / 256, q)
        opp = obs["opponents"].get(str(q))
        for name in obs["hand"] if q == p else opp["known"]:
            put("P_HAND", tid[name], 1 / 16, q)
        if opp is not None:
            for deck, k in opp["hidden_by_deck"].items():
                d = data.DECK_NAMES.index(deck)
                put("P_HAND_HIDDEN", d, k / DECK_SIZE[d], q)
            put("P_DRAFT_HIDDEN", 0, opp["draft_cards_hidden"] > 0, q)
        for name, row, col, tokens in obs["cities"][q]:
            bt = data.TYPES[tid[name]]
            put("P_CITY_TYPES", tid[name], 1 / 16, q)
            planes = ["occ"]
            if bt.kind == data.RESIDENTIAL:
                planes.append(f"res{bt.value}")
            if bt.kind == data.PUBLIC:
                planes.append(bt.colour)
            if bt.kind == data.AQUEDUCT:
                planes.append("aqueduct")
            if bt.kind in (data.FARM_VEG, data.VINEYARD):
                planes.append("coinfarm")
            if bt.kind in (data.FARM_GRAIN, data.VINEYARD):
                planes.append("grain")
            if bt.kind == data.FARM_SHEEP:
                planes.append("sheep")
            if bt.kind == data.TEMPLE:
                planes.append("temple")
            cell = row * CITY_COLS + col
            for plane in planes:
                put("P_PLANES", PLANE[plane] * CELLS + cell, 1, q)
            if tokens and bt.kind == data.PUBLIC:
                put("P_PLANES", PLANE["bath"] * CELLS + cell, tokens / 5, q)
            elif tokens:
                put("P_PLANES", PLANE["brick"] * CELLS + cell, 1, q)
    return out


def states(n, seed, every=1):
    return walk(romecore.load_game("great_city_of_rome", players=n), seed, every)


tensor = nan_filled_tensor


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tensor_is_the_observation_encoded(n):
    for seed in (1, 2):
        for state in states(n, seed):
            for p in range(n):
                t = tensor(state, p)
                assert t.dtype == np.float32 and t.shape == state.game.observation_tensor_shape()
                assert not np.isnan(t).any() and t.min() >= 0 and t.max() <= 1
                np.testing.assert_allclose(t, expected(state.observation(p), n), rtol=0, atol=1e-6)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tensor_is_equal_across_resampled_worlds(n):
    for state in states(n, 3, every=3):
        for p in range(n):
            t = state.observation_tensor(p)
            for seed in range(3):
                world = state.resample(p, seed=seed)
                np.testing.assert_array_equal(world.observation_tensor(p), t)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_tensor_changes_when_the_observation_does(n):
    assert assert_tensor_follows_observation(states(n, 4), n) > 50
