"""The observation tensor: its documented table matches the kernel, and along random games of
every player count and Intrigue set it equals an independent encoding of ``observation(p)``
written from that table and data.py, is equal across the worlds ``resample(p)`` draws, stays in
[0, 1], sets every float and changes whenever the observation does."""
import re

import numpy as np
import pytest

import action_tables
import romecore
import romecore.games.rise_to_power as pkg
from robustness import assert_tensor_follows_observation, nan_filled_tensor, walk
from romecore.games.rise_to_power import data, kernel

ROW = re.compile(r"^(\d+)\s+(\d+)\s+``((?:O|PP)_\w+)``\s+(\S+)\s")
PHASES = ("deal", "roll", "tribunus", "order", "place", "after_place", "province", "mark",
          "reroll", "pick_die", "shift", "pick_placed", "target", "discard", "target_province",
          "military", "senate", "market", "draw", "forum", "show", "over")
TRACKS = ("military", "senate", "black_market")
COMMON, PER_PLAYER = 361, 188     # the docstring's block sizes
PROV_ID = {p.name: i for i, p in enumerate(data.PROVINCES)}
ARENA_TYPE = {a.name: t for t, a in enumerate(data.ARENA_TYPES)}
SENATE_ID = {}                    # a Senate card's name -> the lowest id of that name
for _i, _c in enumerate(data.SENATE):
    SENATE_ID.setdefault(_c.title + (" (Intrigue)" if _c.intrigue else ""), _i)
OPTIONS = [(n, intrigue) for n in (2, 3, 4) for intrigue in ("none", "all", "Vicarius,Tribunus")]


def table():
    return {name: (off, length, by) for off, length, name, by in
            action_tables.documented_slices(pkg.__doc__, ROW)}


def test_table_matches_the_kernel_and_tiles_each_block():
    rows = action_tables.documented_slices(pkg.__doc__, ROW)
    assert [name for _, _, name, _ in rows] == list(kernel.TENSOR_BLOCKS)
    assert {name: (off, length) for off, length, name, _ in rows} == kernel.TENSOR_BLOCKS
    action_tables.assert_blocks_tile(rows, {"O_": COMMON, "PP_": PER_PLAYER})
    assert (kernel.TENSOR_COMMON, kernel.TENSOR_PER_PLAYER) == (COMMON, PER_PLAYER)
    for n, intrigue in OPTIONS:
        game = romecore.load_game("rise_to_power", players=n, intrigue=intrigue)
        assert game.observation_tensor_shape() == (COMMON + n * PER_PLAYER,)


def test_slice_sizes_follow_the_data():
    t = {name: length for name, (_, length, _) in table().items()}
    nprov, nsen, ntypes = len(data.PROVINCES), len(data.SENATE), len(data.ARENA_TYPES)
    assert t["O_PHASE"] == t["O_ACT_RETURN"] == len(PHASES) and t["O_ROUND"] == data.ROUNDS
    assert t["O_ROW_PROV"] == t["O_DECK_PROV"] == t["PP_PROVINCES"] == t["O_ACT_FIRST"] == nprov
    assert t["O_ROW_SENATE"] == t["O_EXH_SENATE"] == t["PP_SENATE"] == t["O_ACT_CARD"] == nsen
    assert t["O_ROW_ARENA"] == t["O_REMOVED"] == t["PP_ARENA_PUBLIC"] == ntypes
    assert t["O_OWN_ARENA"] == 4 * ntypes and t["O_INTRIGUE"] == len(data.INTRIGUE_TITLES)
    assert t["PP_TRACKS"] == len(data.TRACKS) * (data.SECTIONS + data.DICE * (data.FACES + 1))


def expected(obs, n, intrigue):
    """The tensor from the observation dict, the docstring table and data.py alone."""
    tb = table()
    p = obs["player"]
    out = np.zeros(COMMON + n * PER_PLAYER)

    def put(name, i, v, seat=None):
        off, length, _ = tb[name]
        assert 0 <= i < length
        base = 0 if seat is None else COMMON + (seat - p) % n * PER_PLAYER
        out[base + off + i] += v

    put("O_PHASE", PHASES.index(obs["phase"]), 1)
    put("O_ROUND", obs["round"] - 1, 1)
    put("O_TURN", 0, obs["turn"] / 16)
    put("O_STEP", 0, obs["step"] / 16)
    put("O_CONSUL", 0, obs["consul"])
    titles = data.INTRIGUE_TITLES if intrigue == "all" else () if intrigue == "none" else intrigue.split(",")
    for title in titles:
        put("O_INTRIGUE", data.INTRIGUE_TITLES.index(title), 1)
    for zone in ("rows", "decks"):
        prefix = "O_ROW_" if zone == "rows" else "O_DECK_"
        for name in obs[zone]["provinces"]:
            put(prefix + "PROV", PROV_ID[name], 1)
        for name in obs[zone]["senate"]:
            put(prefix + "SENATE", SENATE_ID[name], 1 / 2)
    for name in obs["rows"]["arena"]:
        put("O_ROW_ARENA", ARENA_TYPE[name], 1 / 3)
    put("O_DECK_ARENA", 0, obs["decks"]["arena_size"] / 31)
    for name in obs["arena_removed"]:
        put("O_REMOVED", ARENA_TYPE[name], 1 / 3)
    for name in obs["exhausted"]["provinces"]:
        put("O_EXH_PROV", PROV_ID[name], 1)
    for c in obs["exhausted"]["senate"]:
        put("O_EXH_SENATE", c, 1)
    ntypes = len(data.ARENA_TYPES)
    for k, (zone, public) in enumerate((("hand", True), ("hand", False), ("show", True), ("show", False))):
        for name, pub in obs[zone]:
            if pub == public:
                put("O_OWN_ARENA", k * ntypes + ARENA_TYPE[name], 1 / 3)
    act = obs["activation"]
    if act is not None:
        put("O_ACT", 0, 1)
        put("O_ACT_CARD", act["card"], 1)
        put("O_ACT_RETURN", PHASES.index(act["return"]), 1)
        put("O_ACT_PROV_LEFT", 0, act["provinces_left"] / 2)
        if act["first_province"] is not None:
            put("O_ACT_FIRST", PROV_ID[act["first_province"]], 1)
        for k, (key, bound) in enumerate((("marks", 4), ("mark_floor", 6), ("passes", 1),
                                          ("optional", 1), ("die", 6))):
            put("O_ACT_COUNTERS", k, act[key] / bound)
        if act["placed_die"] is not None:
            track, pos = act["placed_die"]
            put("O_ACT_PLACED", track, 1)
            put("O_ACT_PLACED", len(data.TRACKS) + pos, 1)
        put("PP_TARGET", 0, 1, act["target"])
    res = obs["resolution"]
    for k, (key, bound) in enumerate((("section", 4), ("budget", 40), ("floor", 20), ("picks", 4))):
        put("O_RESOLUTION", k, res[key] / bound)
    put("O_FORUM_TRACK", obs["scoring"]["forum_track"], 1)
    for seat in obs["scoring"]["show_bonus"]:
        put("PP_SHOW_BONUS", 0, 1, seat)
    for k, seat in enumerate(obs["order"]):
        put("PP_ORDER", k, 1, seat)
    for k, seat in enumerate(obs["new_order"]):
        put("PP_NEW_ORDER", k, 1, seat)
    slice_ = data.SECTIONS + data.DICE * (data.FACES + 1)
    for t, key in enumerate(TRACKS):
        for section, group in enumerate(obs["tracks"][key]):
            put("PP_TRACKS", t * slice_ + section, 1, group["player"])
            for k, face in enumerate(group["dice"]):
                put("PP_TRACKS", t * slice_ + data.SECTIONS + k * (data.FACES + 1) + face, 1,
                    group["player"])
    for q, pd in enumerate(obs["players"]):
        put("PP_ACTOR", 0, obs["actor"] == q, q)
        put("PP_CURRENT", 0, obs["current_player"] == q, q)
        put("PP_VP", 0, pd["vp_forum"] / 60, q)
        put("PP_VP", 1, pd["vp_arena"] / 60, q)
        for k, res_name in enumerate(data.RESOURCES):
            put("PP_FORUM", k, pd["forum"][res_name] / data.FORUM_MAX, q)
        put("PP_BONUS", 0, pd["military_bonus"] / 8, q)
        put("PP_BONUS", 1, pd["coin_bonus"] / 8, q)
        put("PP_TRIBUNUS", 0, (pd["tribunus"] + 8) / 28, q)
        for face in pd["dice"]:
            put("PP_DICE", face, 1 / 4, q)
        for name in pd["provinces"]:
            put("PP_PROVINCES", PROV_ID[name], 1, q)
        for card in pd["senate"]:
            put("PP_SENATE", card["id"], 1, q)
        if q == p:
            held = obs["hand"] + obs["show"]
            public = [name for name, pub in held if pub]
            hidden, show = sum(not pub for _, pub in held), len(obs["show"])
        else:
            o = obs["opponents"][str(q)]
            public, hidden, show = o["known"], o["hidden"], o["show_size"]
        for name in public:
            put("PP_ARENA_PUBLIC", ARENA_TYPE[name], 1 / 3, q)
        put("PP_ARENA_HIDDEN", 0, hidden / 31, q)
        put("PP_SHOW_SIZE", 0, show / 31, q)
        put("PP_SCORE", 0, min(obs["scores"][q], 128) / 128, q)
    return out


def states(n, intrigue, seed, every=1):
    return walk(romecore.load_game("rise_to_power", players=n, intrigue=intrigue), seed, every)


tensor = nan_filled_tensor


@pytest.mark.parametrize("n,intrigue", OPTIONS)
def test_tensor_is_the_observation_encoded(n, intrigue):
    for seed in (1, 2):
        for state in states(n, intrigue, seed):
            for p in range(n):
                t = tensor(state, p)
                assert t.dtype == np.float32 and t.shape == state.game.observation_tensor_shape()
                assert not np.isnan(t).any() and t.min() >= 0 and t.max() <= 1
                np.testing.assert_allclose(t, expected(state.observation(p), n, intrigue),
                                           rtol=0, atol=1e-6)


@pytest.mark.parametrize("n,intrigue", OPTIONS)
def test_tensor_is_equal_across_resampled_worlds(n, intrigue):
    for state in states(n, intrigue, 3, every=3):
        for p in range(n):
            t = state.observation_tensor(p)
            for seed in range(3):
                world = state.resample(p, seed=seed)
                np.testing.assert_array_equal(world.observation_tensor(p), t)


@pytest.mark.parametrize("n,intrigue", OPTIONS)
def test_tensor_changes_when_the_observation_does(n, intrigue):
    assert assert_tensor_follows_observation(states(n, intrigue, 4), n) > 50
