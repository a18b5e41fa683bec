"""Glory to Rome's observation tensor: the docstring's table against the kernel's slices,
an independent encoder (from the table, data.py and ``observation(p)``) against the C
tensor, equality across resampled worlds, sensitivity to what p sees, and bad input."""

from __future__ import annotations

import re

import numpy as np
import pytest
from gtr_helpers import game

import action_tables
import robustness
import romecore.games.glory_to_rome as pkg
from robustness import assert_tensor_follows_observation
from romecore.games.glory_to_rome import data, kernel
from romecore.games.glory_to_rome.state import DRAWS, PHASES, RETURNS, SOURCES, STAGES

ROW = re.compile(r"^(\d+)\s+(\d+)\s+``(T[CSFP]_[A-Z_]+)``.*\s(\S+)$")
BUILDING = {b.name: i for i, b in enumerate(data.BUILDINGS)}
MATERIAL = {m.name: i for i, m in enumerate(data.MATERIALS)}
ROLE = {m.role: i for i, m in enumerate(data.MATERIALS)}
FRAME_ROLE = {**ROLE, "Thinker": len(ROLE), "Prison": len(ROLE) + 1}
NBUILD, NMAT, NCARDS = len(data.BUILDINGS), len(data.MATERIALS), len(data.card_table())
MAX_PLAYERS = 5
PER_MAT = NCARDS // NMAT
U8 = 255
INFL_BOUND = data.START_INFLUENCE + data.SITES_PER_MATERIAL * sum(m.value for m in data.MATERIALS)
STRUCT_MAT_BOUND = max(m.value for m in data.MATERIALS) + 1   # a site's value, +1 by Stairway
SLOTS = data.SITES_PER_MATERIAL * NMAT
MAX_FRAMES = 32
CONFIGS = [(n, t) for n in range(2, MAX_PLAYERS + 1) for t in (False, True)]


def copies(b: int) -> int:
    return data.BUILDINGS[b].copies


def slices():
    return action_tables.documented_slices(pkg.__doc__, ROW)


def layout():
    return {name: (off, n) for off, n, name, _ in slices()}


def test_table_matches_kernel_blocks():
    rows = slices()
    assert [name for _, _, name, _ in rows] == list(kernel.TENSOR_BLOCKS)
    for off, n, name, _ in rows:
        assert kernel.TENSOR_BLOCKS[name] == (off, n), name
    sizes = {"TC_": kernel.TENSOR_COMMON, "TS_": kernel.TENSOR_SLOT, "TF_": kernel.TENSOR_FRAME,
             "TP_": kernel.TENSOR_PLAYER}
    action_tables.assert_blocks_tile(rows, sizes)
    L = layout()
    assert L["TC_STRUCTS"][1] == SLOTS * kernel.TENSOR_SLOT
    assert L["TC_FRAMES"][1] == MAX_FRAMES * kernel.TENSOR_FRAME
    head = f"``state.observation_tensor(p)``: {kernel.TENSOR_COMMON} + {kernel.TENSOR_PLAYER} per player"
    assert head in pkg.__doc__


def test_documented_bounds_match_data():
    bounds = {name: b for _, _, name, b in slices()}
    expected = {"TC_STEPS": data.MAX_ACTIONS, "TC_DECK": NCARDS, "TC_JACK_PILE": data.JACKS,
                "TC_IN_TOWN": data.SITES_PER_MATERIAL, "TC_OUT_TOWN": data.SITES_PER_MATERIAL,
                "TC_DRAWN_HIDDEN": NCARDS, "TC_DRAW_LEFT": U8, "TC_PET_LEFT": data.PETITION_CARDS,
                "TC_DEMANDS": PER_MAT, "TC_GIVE_LEFT": PER_MAT, "TC_COL_TAKEN": PER_MAT,
                "TC_SETUP_DEALT": U8, "TS_MATERIALS": STRUCT_MAT_BOUND, "TF_N": U8,
                "TP_HAND_SIZE": NCARDS, "TP_JACKS": data.JACKS, "TP_JACKS_PLAYED": data.JACKS,
                "TP_VAULT_HIDDEN": NCARDS, "TP_INFLUENCE": INFL_BOUND, "TP_UNITS": U8,
                "TP_NEW_CLIENTS": PER_MAT}
    for name, b in expected.items():
        assert bounds[name] == str(b), name
    for name, b in bounds.items():
        assert b in ("flag", "copies", "--") or name in expected, name


# -- the independent encoder -----------------------------------------------------------------

def encode(obs: dict, players: int) -> np.ndarray:
    """The tensor as the docstring's table describes it, from the observation dict."""
    L = layout()
    common, per = kernel.TENSOR_COMMON, kernel.TENSOR_PLAYER
    out = np.zeros(common + players * per, dtype=np.float64)
    p = obs["player"]

    def seat(q):
        return (q - p) % players

    def put(name, i, value, base=0):
        off, n = L[name]
        assert 0 <= i < n, (name, i)
        out[base + off + i] = value

    def by_building(name, names, base=0):
        for b in range(NBUILD):
            k = sum(1 for x in names if BUILDING[x] == b)
            if k:
                put(name, b, k / copies(b), base)

    put("TC_PHASE", PHASES.index(obs["phase"]), 1)
    if obs["role"] is not None:
        put("TC_ROLE", ROLE[obs["role"]], 1)
    put("TC_STEPS", 0, obs["steps"] / data.MAX_ACTIONS)
    put("TC_DECK", 0, obs["deck_size"] / NCARDS)
    put("TC_JACK_PILE", 0, obs["jack_pile"] / data.JACKS)
    by_building("TC_POOL", obs["pool"])
    for mat, m in MATERIAL.items():
        put("TC_IN_TOWN", m, obs["sites"]["in_town"][mat] / data.SITES_PER_MATERIAL)
        put("TC_OUT_TOWN", m, obs["sites"]["out_of_town"][mat] / data.SITES_PER_MATERIAL)
    by_building("TC_REVEALED", obs["revealed"])
    by_building("TC_DRAWN", [x for x in obs["drawn"] if x is not None])
    put("TC_DRAWN_HIDDEN", 0, sum(1 for x in obs["drawn"] if x is None) / NCARDS)
    turn = obs["turn"]
    if turn["selected"] is not None:
        put("TC_SELECTED", BUILDING[turn["selected"]["card"]], 1)
        put("TC_SEL_SRC", SOURCES.index(turn["selected"]["from"]), 1)
    by_building("TC_STRUCT_MATS", [x for sd in obs["structures"] for x in sd["materials"]])
    for k, sd in enumerate(obs["structures"]):
        base = L["TC_STRUCTS"][0] + kernel.TENSOR_SLOT * k
        put("TS_BUILDING", BUILDING[sd["building"]], 1, base)
        put("TS_OWNER", seat(sd["owner"]), 1, base)
        put("TS_HOLDER", seat(sd["site_holder"]), 1, base)
        put("TS_SITE", MATERIAL[sd["site"]], 1, base)
        put("TS_OUT", 0, float(sd["out_of_town"]), base)
        put("TS_DONE", 0, float(sd["complete"]), base)
        put("TS_PUBLIC", 0, float(sd["public"]), base)
        for m in range(NMAT):
            k_m = sum(1 for x in sd["materials"] if data.BUILDINGS[BUILDING[x]].material == m)
            put("TS_MATERIALS", m, min(k_m, STRUCT_MAT_BOUND) / STRUCT_MAT_BOUND, base)
    for k, fd in enumerate(obs["frames"]):
        base = L["TC_FRAMES"][0] + kernel.TENSOR_FRAME * k
        put("TF_ROLE", FRAME_ROLE[fd["role"]], 1, base)
        put("TF_BASE", 0, float(fd["base"]), base)
        put("TF_STAGE", STAGES.index(fd["stage"]), 1, base)
        put("TF_N", 0, fd["n"] / U8, base)
    put("TC_FOLLOW_I", turn["follow_index"], 1)
    put("TC_ACT_I", turn["act_index"], 1)
    put("TC_EOT_STEP", turn["eot_step"], 1)
    put("TC_EOT_I", turn["eot_index"], 1)
    put("TC_THINK_RET", RETURNS.index(turn["think_return"]), 1)
    put("TC_THINK_USED", 0, float(turn["think_used"]))
    put("TC_DRAW_LEFT", 0, turn["draw_left"] / U8)
    put("TC_PET_MAT", MATERIAL[turn["petition"]["material"]], 1)
    put("TC_PET_LEFT", 0, turn["petition"]["left"] / data.PETITION_CARDS)
    put("TC_XDRAW", DRAWS.index(turn["draw"]), 1)
    leg = obs["legionary"]
    for mat, k in leg["demands"].items():
        put("TC_DEMANDS", MATERIAL[mat], k / PER_MAT)
    put("TC_LEG_STAGE", leg["stage"], 1)
    put("TC_LEG_V", leg["victim_offset"], 1)
    put("TC_LEG_M", leg["material"], 1)
    put("TC_GIVE_LEFT", 0, leg["give_left"] / PER_MAT)
    for role, k in leg["coliseum_taken"].items():
        put("TC_COL_TAKEN", ROLE[role], k / PER_MAT)
    put("TC_SETUP_DEALT", 0, obs["setup"]["dealt"] / U8)
    for q in range(players):
        base = common + per * seat(q)
        hand = obs["hand"] if q == p else obs["known_in_hands"][str(q)]
        by_building("TP_HAND", hand, base)
        put("TP_HAND_SIZE", 0, obs["hand_sizes"][q] / NCARDS, base)
        put("TP_JACKS", 0, obs["jacks"][q] / data.JACKS, base)
        put("TP_JACKS_PLAYED", 0, obs["jacks_played"][q] / data.JACKS, base)
        by_building("TP_STOCK", obs["stockpiles"][q], base)
        by_building("TP_CLIENTS", obs["clienteles"][q], base)
        by_building("TP_CAMP", obs["camps"][q], base)
        by_building("TP_VAULT", obs["vaults"][q]["known"], base)
        put("TP_VAULT_HIDDEN", 0, obs["vaults"][q]["hidden"] / NCARDS, base)
        put("TP_INFLUENCE", 0, obs["influence"][q] / INFL_BOUND, base)
        put("TP_UNITS", 0, obs["units"][q] / U8, base)
        for role, k in obs["new_clients"][q].items():
            put("TP_NEW_CLIENTS", ROLE[role], k / PER_MAT, base)
        put("TP_LEADER", 0, float(q == obs["leader"]), base)
        put("TP_ACTOR", 0, float(q == obs["current_player"]), base)
        put("TP_DID_CRAFT", 0, float(q in turn["did_craft"]), base)
        put("TP_TIE", 0, float(q in obs["setup"]["tie"]), base)
        put("TP_TIE_DEALT", 0, float(q in obs["setup"]["tie_dealt"]), base)
        put("TP_FORUM_WIN", 0, float(q in obs["forum_winners"]), base)
    return out.astype(np.float32)


# -- walks -------------------------------------------------------------------------------

def walk(players: int, training: bool, seed: int, every: int = 1, limit: int = 400):
    return robustness.walk(game(players, training), seed, every, limit)


@pytest.mark.parametrize("players,training", CONFIGS)
def test_oracle_matches_kernel(players, training):
    n = 0
    for seed in range(2):
        for state in walk(players, training, 100 + seed, every=2):
            for p in range(players):
                got = state.observation_tensor(p)
                np.testing.assert_allclose(got, encode(state.observation(p), players), rtol=0, atol=1e-6)
                n += 1
    assert n > 100


@pytest.mark.parametrize("players,training", CONFIGS)
def test_equal_across_resampled_worlds(players, training):
    for state in walk(players, training, 200 + players, every=15):
        for p in range(players):
            t = state.observation_tensor(p)
            for seed in range(3):
                np.testing.assert_array_equal(state.resample(p, seed=seed).observation_tensor(p), t)


@pytest.mark.parametrize("players,training", CONFIGS)
def test_shape_range_and_every_float_written(players, training):
    g = game(players, training)
    size = kernel.TENSOR_COMMON + players * kernel.TENSOR_PLAYER
    assert g.observation_tensor_shape() == (size,) and g.observation_tensor_size() == size
    buf = np.empty(size, dtype=np.float32)
    for state in walk(players, training, 300 + players, every=11):
        for p in range(players):
            buf.fill(np.nan)
            out = state.observation_tensor(p, out=buf)
            assert out is buf and out.dtype == np.float32 and out.shape == (size,)
            assert np.isfinite(out).all() and out.min() >= 0 and out.max() <= 1
            np.testing.assert_array_equal(out, state.observation_tensor(p))


LEFT_OUT = {"turn": ("pet_last", "last_unit", "eot_last"), "legionary": ("last",)}


def seen(obs: dict) -> dict:
    """The observation less what the tensor leaves out (the order tie-breakers) and the
    step counter (which changes at every step, so would hide any other omission)."""
    out = {k: v for k, v in obs.items() if k != "steps"}
    out["turn"] = {k: v for k, v in obs["turn"].items() if k not in LEFT_OUT["turn"]}
    out["turn"]["petition"] = {k: v for k, v in obs["turn"]["petition"].items() if k != "last"}
    out["legionary"] = {k: v for k, v in obs["legionary"].items() if k not in LEFT_OUT["legionary"]}
    return out


@pytest.mark.parametrize("players,training", [(2, False), (3, True), (4, False), (5, False)])
def test_tensor_changes_when_the_observation_does(players, training):
    """Along random games, every change in what p sees (but the left-out tie-breakers and
    the step counter) changes p's tensor outside the step slice."""
    steps = kernel.TENSOR_BLOCKS["TC_STEPS"][0]
    changes = sum(assert_tensor_follows_observation(walk(players, training, 400 + seed), players, seen,
                                                    masked=steps)
                  for seed in range(2))
    assert changes > 100


def test_seats_are_relative_to_the_observer():
    state = next(s for i, s in enumerate(walk(3, False, 7)) if i == 80)
    per, common = kernel.TENSOR_PLAYER, kernel.TENSOR_COMMON
    off = kernel.TENSOR_BLOCKS["TP_INFLUENCE"][0]
    t = [state.observation_tensor(p) for p in range(3)]
    for p in range(3):
        for j in range(3):
            assert t[p][common + per * j + off] == t[(p + j) % 3][common + off]


def test_hidden_hands_are_counts():
    """Another seat's hand shows only the cards p knows; its size is always there."""
    off, n = kernel.TENSOR_BLOCKS["TP_HAND"]
    size = kernel.TENSOR_BLOCKS["TP_HAND_SIZE"][0]
    common, per = kernel.TENSOR_COMMON, kernel.TENSOR_PLAYER
    checked = 0
    for state in walk(2, False, 5, every=10):
        obs = state.observation(0)
        t = state.observation_tensor(0)
        other = t[common + per: common + 2 * per]
        assert other[size] == np.float32(obs["hand_sizes"][1] / NCARDS)
        known = len(obs["known_in_hands"]["1"])
        assert round(sum(other[off + b] * copies(b) for b in range(n))) == known
        checked += known < obs["hand_sizes"][1]
    assert checked
