"""City of Marble's observation tensor: the docstring's table against the kernel's slices,
an independent encoder (from the table, data.py and ``observation(p)``) against the C
tensor, equality across resampled worlds, sensitivity to what p sees, and bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest
from cm_helpers import game

import action_tables
import robustness
import romecore.games.city_of_marble as pkg
from robustness import assert_tensor_follows_observation
from romecore.games.city_of_marble import data, kernel
from romecore.games.city_of_marble.state import PHASES

B = data.BOARD
COL = {c.name: i for i, c in enumerate(data.COLOURS)}
BUILDING = {c.building: i for i, c in enumerate(data.COLOURS)}
AQ = {name: i for i, name in enumerate(data.AQUEDUCTS)}
ROW = re.compile(r"^(\d+)\s+(\d+)\s+``(T[CP]_[A-Z_]+)``.*\s(\S+)$")

# Capacities of the id spaces (data.py's numbering) and the bounds the table names.
NPL = 64 * data.PL_WORDS
NVERT = 64 * data.VERT_WORDS
MAXSITES = data.SITES_PER_TRI_WORD * data.TRI_WORDS
NCOL = len(data.COLOURS)
MAX_PLAYERS = 4
POINTS_BOUND = data.CUBES * max(c.points for c in data.COLOURS)
BRIDGE_VALUES = sorted(set(data.BRIDGE_VALUES))


def slices():
    return action_tables.documented_slices(pkg.__doc__, ROW)


def layout():
    """name -> (offset, length) of the common block and the seat block, from the docs."""
    return {name: (off, n) for off, n, name, _ in slices()}


def test_table_matches_kernel_blocks():
    rows = slices()
    assert [name for _, _, name, _ in rows] == list(kernel.TENSOR_BLOCKS)
    for off, n, name, _ in rows:
        assert kernel.TENSOR_BLOCKS[name] == (off, n), name
    action_tables.assert_blocks_tile(rows, {"TC_": kernel.TENSOR_COMMON, "TP_": kernel.TENSOR_PLAYER})
    head = f"``state.observation_tensor(p)``: {kernel.TENSOR_COMMON} + {kernel.TENSOR_PLAYER} per player"
    assert head in pkg.__doc__


def test_documented_bounds_match_data():
    bounds = {name: b for _, _, name, b in slices()}
    expected = {"TC_AQ_LEN": data.AQUEDUCT_PIECES, "TC_ACTIONS_LEFT": data.ACTIONS_PER_TURN,
                "TC_FINAL_LEFT": MAX_PLAYERS, "TC_PEND_BRIDGES": 2, "TC_AQ_LEFT": data.AQUEDUCT_START_PIECES,
                "TC_RES_SEAT": MAX_PLAYERS, "TP_POINTS": POINTS_BOUND, "TP_COINS": data.COINS,
                "TP_IMPERIUM": data.COLOURS[0].imperium, "TP_MAG_CENTRE": data.MAGISTRATES,
                "TP_MAG_TREASURY": data.MAGISTRATES, "TP_MAG_IMPERIUM": data.MAGISTRATES,
                "TP_BRIDGE_COUNT": data.BRIDGES_DEALT, "TP_BRIDGE_VALUES": 2}
    assert all(c.imperium == data.COLOURS[0].imperium for c in data.COLOURS)
    assert all(data.BRIDGE_VALUES.count(v) == 2 for v in BRIDGE_VALUES)
    for name, b in expected.items():
        assert bounds[name] == str(b), name
    for name, b in bounds.items():
        assert b in ("flag", "tiles") or name in expected, name


# -- the independent encoder -----------------------------------------------------------------

def vid(v):
    return B.vert_id[tuple(v)]


def sid(x):
    return B.site_id[tuple(x)]


def encode(obs: dict, players: int) -> np.ndarray:
    """The tensor as the docstring's table describes it, from the observation dict."""
    L = layout()
    common, per = kernel.TENSOR_COMMON, kernel.TENSOR_PLAYER
    out = np.zeros(common + players * per, dtype=np.float64)
    p = obs["player"]
    seat = {(p + j) % players: common + per * j for j in range(players)}

    def put(name, i, value, base=0):
        off, n = L[name]
        assert 0 <= i < n, (name, i)
        out[base + off + i] = value

    for t in obs["tiles"]:
        pl = B.placement(B.triangle_of(t["triangles"][0]), B.triangle_of(t["triangles"][1]))
        put("TC_TILES", NPL * COL[t["colour"]] + pl, 1)
        if t["magistrate"] is not None:
            put("TP_MAG_TILES", pl, 1, seat[t["magistrate"]])
    for h in obs["hills"]:
        put("TC_HILLS", B.hills.index(sid(h)), 1)
    for st in obs["sites"]:
        i = sid(st["site"])
        if "building" in st:
            put("TC_BUILDING", MAXSITES * BUILDING[st["building"]] + i, 1)
            put("TP_BUILDINGS", i, 1, seat[st["owner"]])
        elif st.get("fountain"):
            put("TC_FOUNTAIN", i, 1)
        else:
            assert st["empty"]
            put("TC_EMPTY", i, 1)
    for a, aq in enumerate(obs["aqueducts"]):
        assert AQ[aq["colour"]] == a
        if not aq["started"]:
            continue
        path = aq["path"]
        put("TC_AQ_STARTED", a, 1)
        put("TC_AQ_LEN", a, (len(path) - 1) / data.AQUEDUCT_PIECES)
        for k, (v, w) in enumerate(zip(path, path[1:])):
            d = data.DIRS.index((w[0] - v[0], w[1] - v[1]))
            put("TC_AQ_STEPS", data.AQUEDUCT_PIECES * len(data.DIRS) * a + len(data.DIRS) * k + d, 1)
            m = B.edge_sites(vid(v), vid(w))
            for i in range(B.nsites):
                if (m >> i) & 1:
                    put("TC_AQ_SITES", i, 1)
        put("TC_AQ_END", NVERT * a + vid(path[-1]), 1)
    for name, c in COL.items():
        put("TC_STACKS", c, obs["stacks"][name] / data.COLOURS[c].tiles)
        put("TC_DRAWN", c, obs["drawn"][name] / data.COLOURS[c].tiles)
    put("TC_PHASE", PHASES.index(obs["phase"]), 1)
    put("TC_ACTIONS_LEFT", 0, obs["actions_left"] / data.ACTIONS_PER_TURN)
    put("TC_FINAL_LEFT", 0, obs["final_turns_left"] / MAX_PLAYERS)
    play = obs["tile_play"]
    if play is not None:
        put("TC_SEL_COLOUR", COL[play["colour"]], 1)
        put("TC_SEL_MAG", 0, float(play["magistrate"]))
        if play["site"] is not None:
            put("TC_SEL_SITE", sid(play["site"]), 1)
    res = obs["resolution"]
    if res is not None:
        put("TC_PEND_BRIDGES", 0, res["bridges_to_take"] / 2)
        for name in res["aqueducts_to_start"]:
            put("TC_AQ_TODO", AQ[name], 1)
        if res["aqueduct"] is not None:
            put("TC_AQ_CUR", AQ[res["aqueduct"]], 1)
        put("TC_AQ_LEFT", 0, res["pieces_left"] / data.AQUEDUCT_START_PIECES)
        for x in res["sites"]:
            put("TC_PEND_SITES", sid(x), 1)
        if res["site"] is not None:
            put("TC_RES_SITE", sid(res["site"]), 1)
        put("TC_RES_SEAT", 0, res["seat"] / MAX_PLAYERS)
    for q, pd in enumerate(obs["players"]):
        base = seat[q]
        put("TP_POINTS", 0, pd["points"] / POINTS_BOUND, base)
        put("TP_COINS", 0, pd["coins"] / data.COINS, base)
        for name, c in COL.items():
            put("TP_TILES", c, pd["tiles"][name] / data.COLOURS[c].tiles, base)
            put("TP_IMPERIUM", c, pd["imperium"][name] / data.COLOURS[c].imperium, base)
            put("TP_MAG_IMPERIUM", c, pd["magistrates"]["imperium"][name] / data.MAGISTRATES, base)
        put("TP_MAG_CENTRE", 0, pd["magistrates"]["centre"] / data.MAGISTRATES, base)
        put("TP_MAG_TREASURY", 0, pd["magistrates"]["treasury"] / data.MAGISTRATES, base)
        put("TP_BRIDGE_COUNT", 0, pd["bridge_count"] / data.BRIDGES_DEALT, base)
        if pd["bridges"] is not None:
            for k, v in enumerate(BRIDGE_VALUES):
                put("TP_BRIDGE_VALUES", k, pd["bridges"].count(v) / data.BRIDGE_VALUES.count(v), base)
        put("TP_TURN", 0, float(q == obs["turn_player"]), base)
        put("TP_ACTOR", 0, float(q == obs["actor"]), base)
    return out.astype(np.float32)


# -- walks -------------------------------------------------------------------------------

def walk(players: int, seed: int, every: int = 1):
    return robustness.walk(game(players), seed, every)


PLAYERS = [2, 3, 4]


@pytest.mark.parametrize("players", PLAYERS)
def test_oracle_matches_kernel(players):
    n = 0
    for seed in range(4):
        for state in walk(players, 100 + seed):
            for p in range(players):
                got = state.observation_tensor(p)
                np.testing.assert_allclose(got, encode(state.observation(p), players), rtol=0, atol=1e-6)
                n += 1
    assert n > 100


@pytest.mark.parametrize("players", PLAYERS)
def test_equal_across_resampled_worlds(players):
    for state in walk(players, 200 + players, every=5):
        for p in range(players):
            t = state.observation_tensor(p)
            for seed in range(3):
                np.testing.assert_array_equal(state.resample(p, seed=seed).observation_tensor(p), t)


@pytest.mark.parametrize("players", PLAYERS)
def test_shape_range_and_every_float_written(players):
    g = game(players)
    size = kernel.TENSOR_COMMON + players * kernel.TENSOR_PLAYER
    assert g.observation_tensor_shape() == (size,) and g.observation_tensor_size() == size
    buf = np.empty(size, dtype=np.float32)
    for state in walk(players, 300 + players, every=7):
        for p in range(players):
            buf.fill(np.nan)
            out = state.observation_tensor(p, out=buf)
            assert out is buf and out.dtype == np.float32 and out.shape == (size,)
            assert np.isfinite(out).all() and out.min() >= 0 and out.max() <= 1
            np.testing.assert_array_equal(out, state.observation_tensor(p))


@pytest.mark.parametrize("players", PLAYERS)
def test_tensor_changes_when_the_observation_does(players):
    """Along random games, every change in what p sees changes p's tensor (nothing is left
    out but what the docstring names as derivable)."""
    derived = ("current_player", "bridge_spaces_open", "scores")

    def seen(obs):
        return {k: v for k, v in obs.items() if k not in derived}

    changes = sum(assert_tensor_follows_observation(walk(players, 400 + seed), players, seen)
                  for seed in range(4))
    assert changes > 100


def test_seats_are_relative_to_the_observer():
    """p's block comes first: the same seat's slices move with the observer."""
    state = next(s for i, s in enumerate(walk(3, 7)) if i == 60)
    per, common = kernel.TENSOR_PLAYER, kernel.TENSOR_COMMON
    t = [state.observation_tensor(p) for p in range(3)]
    np.testing.assert_array_equal(t[0][:common], t[1][:common])
    off = kernel.TENSOR_BLOCKS["TP_POINTS"][0]
    for p in range(3):
        for j in range(3):
            q = (p + j) % 3
            assert t[p][common + per * j + off] == t[q][common + off]


def test_hidden_bridge_values():
    """Other players' bridge values are zero in p's tensor until the end, their counts not."""
    off, n = kernel.TENSOR_BLOCKS["TP_BRIDGE_VALUES"]
    cnt = kernel.TENSOR_BLOCKS["TP_BRIDGE_COUNT"][0]
    common, per = kernel.TENSOR_COMMON, kernel.TENSOR_PLAYER
    seen = 0
    for seed in range(20):
        for state in walk(2, seed, every=5):
            t = state.observation_tensor(0)
            other = t[common + per: common + 2 * per]
            if other[cnt] > 0:
                if state.is_terminal():
                    assert other[off:off + n].sum() > 0
                else:
                    assert other[off:off + n].sum() == 0
                    seen += 1
        if seen > 10:
            break
    assert seen > 10
