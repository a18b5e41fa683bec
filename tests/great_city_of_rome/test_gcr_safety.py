"""Safety of The Great City of Rome: bad dicts and snapshots are refused with
SerializationError (never a crash), every accepted state steps only into accepted states,
resampled worlds are states the game could be in, cards put under a deck stay known to
their placer, and a player's drawing shows only that player's knowledge."""

from __future__ import annotations

import json
import random

import pytest
from gcr_helpers import START, gcr, main_phase

import romecore
from romecore.games.great_city_of_rome import data

# Byte offsets in the GCState struct (kernel.pxd); _layout() checks them against a state.
OFF_NPLAYERS, OFF_ROUND, OFF_PHASE, OFF_ACTOR, OFF_PLACE_IDX, OFF_DRAW_IDX = 48, 50, 51, 53, 55, 57
OFF_LOC, OFF_KNOWN = 171, 331
Z_OFFER, Z_HAND = 8, 9
PHASES = ("draft_deal", "draft_pick", "strip", "offer", "emissary", "take", "main", "place",
          "school_deck", "school_draw", "school_keep", "school_bottom", "over")


def _step(st: romecore.State, rng: random.Random) -> None:
    if st.is_chance_node():
        st.apply_random_chance()
    else:
        st.apply_action(rng.choice(st.legal_actions()))


def _states(players: int, seed: int, every: int = 1):
    """Every `every`-th state along a random game (chance by the dealer, moves uniform)."""
    rng = random.Random(seed)
    st = gcr(players).new_initial_state(seed=seed)
    i = 0
    while not st.is_terminal():
        if i % every == 0:
            yield st.clone()
        _step(st, rng)
        i += 1
    yield st


def _layout(st: romecore.State) -> bytearray:
    """The struct's bytes, with the offsets above checked against the dict form."""
    raw = bytearray(st.state_bytes())
    d = st.to_dict()
    assert raw[OFF_NPLAYERS] == st.num_players() and raw[OFF_ROUND] == d["round"]
    assert PHASES[raw[OFF_PHASE]] == d["phase"] and raw[OFF_ACTOR] == d["actor"]
    assert raw[OFF_DRAW_IDX] == d["draw_index"] and raw[OFF_PLACE_IDX] == d["emissaries_placed"]
    for e in d["offer"]:
        assert raw[OFF_LOC + e["id"]] == Z_OFFER and raw[OFF_KNOWN + e["id"]] == (1 << d["options"]["players"]) - 1
    for p, pd in enumerate(d["players"]):
        for e in pd["hand"]:
            assert raw[OFF_LOC + e["id"]] == Z_HAND + p
    return raw


def _snapshot(st: romecore.State, raw: bytes) -> bytes:
    blob = st.serialize()
    at = blob.index(st.state_bytes())
    return blob[:at] + bytes(raw) + blob[at + len(raw):]


def _round_trips(st: romecore.State) -> None:
    g = st.game
    assert g.deserialize(st.serialize()) == st
    d = st.to_dict()
    assert g.state_from_dict(d) == st
    assert g.state_from_dict(json.loads(json.dumps(d))) == st


# -- dicts that crashed or escaped as the wrong error ------------------------------------

def _nested(depth: int) -> dict:
    d: dict = {}
    x = d
    for _ in range(depth):
        x["turn"] = {}
        x = x["turn"]
    return {"turn": d}


BAD_DICTS = [
    {"box": [-2 ** 31]},  # indexed the zone array with it: segfault
    {"box": [-100000]},  # read out of bounds, silently accepted
    {"box": [2 ** 70]},
    {"box": ["x"]},
    {"box": "x"},
    {"players": "x"},  # AttributeError
    {"players": [[]]},
    {"players": [{"coins": -1}]},
    {"players": [{"coins": 40000}]},
    {"players": [{"coins": 1.5}]},
    {"players": [{"city": [{"building": "Market", "row": 9, "col": 0}]}]},
    {"players": [{"city": [{"building": "Market", "row": 0}]}]},
    {"players": [{"city": [{"building": "Market", "row": 2, "col": 2, "tokens": 99}]}]},
    {"players": [{"hand": [{"id": 500}]}]},
    {"players": [{"hand": [{"id": 0, "building": "Market"}]}]},  # card 0 is the Vineyard
    {"players": [{"hand": ["No Such Building"]}]},
    {"players": [{"hand": [[1]]}]},
    {"players": [{"draft_card": 200}]},
    {"players": [{}, {}, {}, {}]},  # four seats in a 3-player game
    {"players": [{"wealth": 3}]},
    {"turn": []},  # AttributeError
    {"turn": {"space": 7}},
    {"turn": {"took": "yes"}},
    {"turn": {"selected": "Nothing"}},
    {"turn": {"selected": [1]}},
    {"round": 0},
    {"round": 99},
    {"round": True},
    {"first_player": 3},
    {"actor": -1},
    {"phase": ["main"]},
    {"phase": "nonsense"},
    {"strip_order": [9]},
    {"strip_order": list(range(7))},
    {"emissaries": [0, 0, 0]},
    {"emissaries": [7, None, None, None, None]},
    {"emissaries_placed": 300},
    {"draw_index": 2 ** 40},
    {"offer": [0, 1, 2, 3, 4]},
    {"offer": [{"id": 0}, {"id": 0}]},
    {"drawn": [1, 2, 3, 4, 5, 6]},
    {"school": {"deck": 9}},
    {"school": {"draws_left": -3}},
    {"influence_cards": [{"value": 5}]},
    {"influence_cards": [{"value": 3, "holder": 9}]},
    {"influence_cards": [{"value": 3}, {"value": 3}]},
    {"decks": [{}, {"bottom": [100]}]},
    {"decks": [{}, {"bottom": [0]}]},  # card 0 is from deck I, not II
    {"decks": [{}, {"bottom": list(range(14, 30))}]},
    {"decks": [{"pool": [0]}]},  # deck I's pool holds 14 cards
    {"decks": "x"},
    {"known": {"abc": [0]}},
    {"known": {"5": [7]}},
    {"known": {5: "x"}},
    {"known": []},
    {"wat": 1},
    _nested(10_000),  # RecursionError
    {"players": [{"hand": _nested(10_000)}]},
]


@pytest.mark.parametrize("bad", BAD_DICTS, ids=range(len(BAD_DICTS)))
def test_bad_dicts_raise_serialization_error(bad):
    with pytest.raises(romecore.SerializationError):
        gcr(3).state_from_dict(bad)


def test_every_field_of_a_real_dict_is_checked():
    """Each scalar of a mid-game dict replaced by a wrong type or a far value is refused
    or loads a state that validates (never another exception, never a crash)."""
    st = next(s for i, s in enumerate(_states(3, 4)) if i == 120)
    base = json.loads(json.dumps(st.to_dict()))

    def leaves(x, path=()):
        if isinstance(x, dict):
            for k, v in x.items():
                yield from leaves(v, path + (k,))
        elif isinstance(x, list) and x:
            for i, v in enumerate(x):
                yield from leaves(v, path + (i,))
        else:
            yield path

    tried = 0
    for path in leaves(base):
        if path[0] in ("rng", "history", "game", "options"):
            continue
        for value in ("x", -1, 2 ** 31, None, [], 1.0):
            d = json.loads(json.dumps(base))
            node = d
            for k in path[:-1]:
                node = node[k]
            node[path[-1]] = value
            tried += 1
            try:
                loaded = st.game.state_from_dict(d)
            except romecore.SerializationError:
                continue
            assert st.game.deserialize(loaded.serialize()) == loaded
    assert tried > 500


# -- snapshots: one flipped bit must not open an overflow ---------------------------------

def _offer_state(players: int = 4):
    """A state at the upkeep with one offer card drawn (draw_index 1)."""
    for st in _states(players, 5):
        d = st.to_dict()
        if d["phase"] == "offer" and d["draw_index"] == 1 and len(d["offer"]) == 1 and d["round"] > 1:
            return st
    raise AssertionError("no such state")


def test_draw_index_flipped_back_is_refused():
    st = _offer_state()
    raw = _layout(st)
    raw[OFF_DRAW_IDX] = 0  # the drawn card would be drawn again on top: 5 offer cards
    with pytest.raises(romecore.SerializationError, match="offer"):
        st.game.deserialize(_snapshot(st, raw))


def test_card_moved_into_a_full_offer_is_refused():
    """A hand card's zone flipped to the offer (9 -> 8 for seat 0), even one every seat
    knows: more offer cards than draws so far."""
    st = _offer_state()
    d = st.to_dict()
    raw = _layout(st)
    for c in [e["id"] for pd in d["players"] for e in pd["hand"]][:3]:
        raw[OFF_LOC + c] = Z_OFFER
        raw[OFF_KNOWN + c] = 0xF
        with pytest.raises(romecore.SerializationError, match="offer"):
            st.game.deserialize(_snapshot(st, raw))


def test_four_offer_cards_at_draw_index_zero_are_refused():
    """The fault that overflowed gc_offer: an offer full before the upkeep's draws."""
    st = _offer_state()
    d = st.to_dict()
    hand_cards = [e["id"] for pd in d["players"] for e in pd["hand"]]
    raw = _layout(st)
    raw[OFF_DRAW_IDX] = 0
    for c in hand_cards[:3]:
        raw[OFF_LOC + c] = Z_OFFER
        raw[OFF_KNOWN + c] = 0xF
    with pytest.raises(romecore.SerializationError, match="offer"):
        st.game.deserialize(_snapshot(st, raw))


def test_actor_flipped_during_emissary_placement_is_refused():
    for st in _states(3, 6):
        d = st.to_dict()
        if d["phase"] == "emissary" and d["emissaries_placed"] == 1:
            break
    placed = [q for q in d["emissaries"] if q is not None][0]
    raw = _layout(st)
    raw[OFF_ACTOR] = placed  # this seat would put down a second emissary
    with pytest.raises(romecore.SerializationError, match="emissary"):
        st.game.deserialize(_snapshot(st, raw))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_accepted_corrupt_snapshots_step_only_into_accepted_states(players):
    """Bit flips of real snapshots: whatever validate accepts must round-trip, and every
    legal step from it must give a state that validate accepts."""
    rng = random.Random(players)
    bases = [s for i, s in enumerate(_states(players, 11 + players)) if i % 37 == 0]
    accepted = 0
    for _t in range(3000):
        st = rng.choice(bases)
        raw = bytearray(st.state_bytes())
        for _ in range(rng.choice((1, 1, 2))):
            raw[rng.randrange(len(raw))] ^= 1 << rng.randrange(8)
        try:
            bad = st.game.deserialize(_snapshot(st, raw))
        except romecore.SerializationError:
            continue
        accepted += 1
        _round_trips(bad)
        for a in bad.legal_actions():
            nxt = bad.clone()
            nxt.apply_action(a)
            _round_trips(nxt)
    assert accepted > 20


def test_coins_and_influence_saturate_instead_of_stepping_out_of_range():
    st = main_phase(hand=["Market"], coins=32767, influence=32767,
                    city_cells=START + [("Sheep Farm", 2, 2)], bricks=3)
    st.apply_action(st.string_to_action("produce"))
    st.apply_action(st.string_to_action("build Market"))
    st.apply_action(st.string_to_action("build Market at (2,3)"))
    me = st.to_dict()["players"][0]
    assert me["coins"] == 32767 and me["influence"] == 32767
    _round_trips(st)


# -- resampled worlds ----------------------------------------------------------------------

@pytest.mark.parametrize("players,seed", [(2, 9), (2, 1), (3, 2), (3, 7), (4, 3), (4, 8)])
def test_resampled_worlds_are_real_states_and_play_on(players, seed):
    """Every player resampled at every step: the world loads back through both forms,
    shows that player the same observation and drawing, and every legal step from it
    stays valid."""
    for i, st in enumerate(_states(players, seed)):
        for p in range(players):
            w = st.resample(p, i)
            _round_trips(w)
            assert w.observation_string(p) == st.observation_string(p)
            for a in w.legal_actions():
                nxt = w.clone()
                nxt.apply_action(a)
                st.game.deserialize(nxt.serialize())


def test_selected_building_survives_resampling():
    """Soak's first failure: 2 players, player 1 places a Residential 2 it chose."""
    found = 0
    for st in _states(2, 9):
        d = st.to_dict()
        if d["phase"] != "place":
            continue
        found += 1
        builder = d["actor"]
        other = 1 - builder
        chosen = d["turn"]["selected"]
        assert chosen in st.observation(other)["opponents"][str(builder)]["known"]
        for seed in range(20):
            w = st.resample(other, seed)
            st.game.deserialize(w.serialize())
            assert chosen in [e["building"] for e in w.to_dict()["players"][builder]["hand"]]
    assert found


# -- cards put under a deck ------------------------------------------------------------------

def _named(ids, name):
    cards = data.card_table()
    return next(c for c in ids if data.TYPES[cards[c][0]].name == name)


def _bottom_position():
    """3 players, round 2: player 0 built deck III's School and put a Temple of Cupid and
    a Market (in that order) under deck III, whose unknown part is now used up; player 1
    is about to build a School with two neighbours."""
    base = main_phase(players=3, actor=1, hand=["School"], round_=2, bricks=3,
                      city_cells=START + [("Residential 3", 2, 3), ("Residential 3", 4, 3)])
    d = base.to_dict()
    deck3 = d["decks"][2]["pool"]
    cupid, market, school = (_named(deck3, n) for n in ("Temple of Cupid", "Market", "School"))
    d["players"][0]["city"] = [{"building": "Vegetable Farm", "row": 3, "col": 2},
                               {"building": "Residential 2", "row": 3, "col": 3},
                               {"id": school, "row": 2, "col": 3}]
    d["decks"][2] = {"pool": [], "bottom": [cupid, market]}
    d["box"] += [c for c in deck3 if c not in (cupid, market, school)]
    d["known"] = {c: who for c, who in d["known"].items() if c in d["decks"][0]["pool"] + d["decks"][1]["pool"]
                  or c in [e["id"] for pd in d["players"] for e in pd["hand"]]}
    d["known"][cupid] = [0]
    d["known"][market] = [0]
    return base.game.state_from_dict(d), cupid, market


def test_school_draws_from_the_bottom_are_known_to_the_placer():
    st, cupid, market = _bottom_position()
    assert st.observation(0)["deck_bottoms"]["III"] == ["Temple of Cupid", "Market"]
    assert st.observation(2)["deck_bottoms"]["III"] == [None, None]
    st.apply_action(st.string_to_action("build School"))
    st.apply_action(st.string_to_action("build School at (2,2)"))  # neighbours (3,2), (2,3)
    st.apply_action(st.string_to_action("School draws from deck III"))
    assert st.to_dict()["phase"] == "school_keep"  # both drawn from the known bottom
    assert sorted(st.observation(0)["drawn"]) == ["Market", "Temple of Cupid"]
    assert st.observation(2)["drawn"] == [None, None]
    st.apply_action(st.string_to_action("keep Temple of Cupid"))  # the Market goes back under
    d = st.to_dict()
    assert cupid in [e["id"] for e in d["players"][1]["hand"]]
    assert d["decks"][2]["bottom"] == [market]
    assert "Temple of Cupid" in st.observation(0)["opponents"]["1"]["known"]
    assert "Temple of Cupid" not in st.observation(2)["opponents"]["1"]["known"]
    assert st.observation(0)["deck_bottoms"]["III"] == ["Market"]
    assert st.observation(2)["deck_bottoms"]["III"] == [None]
    for seed in range(30):
        w = st.resample(0, seed)
        wd = w.to_dict()
        assert cupid in [e["id"] for e in wd["players"][1]["hand"]]
        assert wd["decks"][2]["bottom"] == [market]
        assert w.render(0) == st.render(0)
        _round_trips(w)


def test_school_cards_drawn_from_another_deck_are_refused():
    """Found by fuzzing: keeping one and putting the other under the School's deck would
    file a deck II card under deck III."""
    st, cupid, market = _bottom_position()
    st.apply_action(st.string_to_action("build School"))
    st.apply_action(st.string_to_action("build School at (2,2)"))
    st.apply_action(st.string_to_action("School draws from deck III"))
    d = st.to_dict()
    other = d["decks"][1]["pool"].pop()
    d["drawn"] = [cupid, other]
    d["known"][other] = [1]
    d["box"].append(market)
    d["known"].pop(market)
    with pytest.raises(romecore.SerializationError, match="another deck"):
        st.game.state_from_dict(d)
    d["drawn"], d["box"] = [cupid, market], d["box"][:-1]
    d["decks"][1]["pool"].append(other)
    d["known"][market], d["known"][other] = [0, 1], []
    assert st.game.state_from_dict(d) == st


def test_a_school_draw_mixing_unknown_and_placed_cards_looks_the_same_in_every_world():
    """Deck III holds one unknown card above player 0's two: player 1's School draws all
    three.  Player 0 knows two of them; the third may be any deck III card player 0
    cannot see (here, also the one in player 2's hand), whatever its id."""
    st, cupid, market = _bottom_position()
    d = st.to_dict()
    deck3 = [c for c in d["box"] if 36 <= c < 54]
    # two unknown cards whose ids sort differently among player 0's two
    low = min(deck3)
    high = max(c for c in deck3 if min(cupid, market) < c < max(cupid, market))
    assert low < min(cupid, market)
    houses = [c for c in deck3 if data.TYPES[data.card_table()[c][0]].kind == data.RESIDENTIAL
              and c not in (low, high)]
    moved = (low, high, houses[0], houses[1])
    d["box"] = [c for c in d["box"] if c not in moved]
    d["decks"][2]["pool"] = [high]
    d["players"][2]["hand"] = [low]
    d["known"][low], d["known"][high] = [2], []
    d["players"][1]["city"] += [{"id": houses[0], "row": 2, "col": 1}, {"id": houses[1], "row": 3, "col": 1}]
    st = st.game.state_from_dict(d)
    st.apply_action(st.string_to_action("build School"))
    st.apply_action(st.string_to_action("build School at (2,2)"))  # three neighbours
    st.apply_action(st.string_to_action("School draws from deck III"))
    st.apply_random_chance()  # the unknown card; then both of player 0's, automatically
    assert st.to_dict()["phase"] == "school_keep"
    assert st.observation(0)["drawn"] == ["Market", "Temple of Cupid", None]
    worlds = [st.resample(0, seed) for seed in range(12)]
    assert len({tuple(w.to_dict()["drawn"]) for w in worlds}) == 2  # the unknown card moves
    for w in worlds:
        assert w.observation(0) == st.observation(0) and w.render(0) == st.render(0)
        _round_trips(w)


# -- drawing for one player ------------------------------------------------------------------

@pytest.mark.parametrize("players,seed", [(2, 3), (3, 4), (4, 5)])
def test_a_players_drawing_is_the_same_in_every_world_they_cannot_tell_apart(players, seed):
    for st in _states(players, seed, every=3):
        for p in range(players):
            view = st.render(p)
            assert st.resample(p, 1).render(p) == view == st.resample(p, 2).render(p)
            me = st.to_dict()["players"][p]
            assert all(e["building"] in view for e in me["hand"])  # own hand is shown


def test_drawing_hides_what_the_viewer_cannot_know_and_labels_cells():
    st = main_phase(players=3, actor=0, hand=["Temple of Mars"], city_cells=START, bricks=2,
                    others=[1, 2])
    d = st.to_dict()
    jupiter = _named(range(72), "Temple of Jupiter")
    d["players"][1]["hand"] = [jupiter]
    d["known"][jupiter] = [1]
    d["decks"][0]["pool"].remove(jupiter)
    st = st.game.state_from_dict(d)
    assert "Temple of Jupiter" in st.render(1) and "Temple of Jupiter" not in st.render(0)
    assert "Temple of Mars" in st.render(0) and "Temple of Mars" not in st.render(2)
    assert "Temple of Jupiter" not in str(st)  # the full drawing shows hand sizes only
    st.apply_action(st.string_to_action("build Temple of Mars"))
    st.apply_action(st.string_to_action("build Temple of Mars at (2,2)"))
    rows = st.render(0).splitlines()
    header = next(i for i, r in enumerate(rows) if r.strip().startswith("r\\c"))
    assert rows[header].split()[1:] == ["0", "1", "2", "3", "4", "5"]  # every column the city may reach
    grid = {r.split()[0]: r.split()[1:] for r in rows[header + 1: header + 7]}
    assert grid["2"][2] == "Mar" and grid["3"][2:4] == ["Veg", "R2"]  # (2,2); (3,2), (3,3)
