"""Property tests over random games: thousands of C playouts for volume, a Python loop on
a few hundred games for per-step invariants (conservation, limits, legal lists, round
trips, resampling, hidden actions), and bad input."""

from __future__ import annotations

import json
import random

import pytest
from rtp_helpers import rtp

import romecore

HIDDEN = 0x80000000
CONFIGS = [(2, "none"), (3, "all"), (4, "none"), (4, "all"), (3, "Tribunus,Greko Maximus")]


def zone_ids(d):
    """Card ids per kind, over every zone of the dict form (a card twice shows up twice)."""
    arena = [c["id"] for c in d["rows"]["arena"] + d["decks"]["arena"]]
    senate = [c["id"] for c in d["rows"]["senate"] + d["decks"]["senate"]]
    provinces = list(d["rows"]["provinces"]) + list(d["decks"]["provinces"])
    for p in d["players"]:
        arena += [c["id"] for c in p["hand"] + p["show"]]
        senate += [c["id"] for c in p["senate"]]
        provinces += p["provinces"]
    return arena, senate, provinces


@pytest.mark.parametrize("players,intrigue", CONFIGS)
def test_many_playouts_end_properly(players, intrigue):
    game = rtp(players, intrigue)
    start = game.new_initial_state(seed=0)
    longest = 0
    for seed in range(600):
        st = start.clone()
        returns = st.playout(seed)
        assert st.is_terminal() and st.legal_actions() == []
        assert abs(sum(returns) - 1.0) < 1e-9 and all(0.0 <= r <= 1.0 for r in returns)
        winners = [p for p, r in enumerate(returns) if r > 0]
        scores = st.scores()
        assert all(scores[w] == max(scores) for w in winners)
        longest = max(longest, len(st.history()))
        if seed % 50 == 0:
            again = game.deserialize(st.serialize())  # validates the final struct
            assert again == st
            d = st.to_dict()
            assert d["round"] == 5 and d["phase"] == "over"
            assert not d["decks"]["provinces"] and not d["decks"]["senate"]
            for p in d["players"]:
                assert len(p["provinces"]) <= 8 and max(p["forum"].values()) <= 7
    assert longest <= game.max_game_length()


def test_playout_is_deterministic_by_seed():
    game = rtp(4, "all")
    a = game.new_initial_state(seed=3)
    b = game.new_initial_state(seed=3)
    assert a.playout(11) == b.playout(11)
    assert a.history() == b.history() and a == b
    # replaying the history from the start gives the same final state
    c = game.new_initial_state(seed=3)
    for action in a.history():
        c.apply_action(action)
    assert c == a


def check_step(game, st, rng, removed_arena, prev_vp):
    d = st.to_dict()
    legal = st.legal_actions()
    assert legal and legal == sorted(set(legal))
    assert all(0 <= a < game.num_distinct_actions() for a in legal)
    assert len(legal) <= game.max_legal_actions()
    arena, senate, provinces = zone_ids(d)
    assert len(arena) == len(set(arena)) and len(senate) == len(set(senate))
    assert len(provinces) == len(set(provinces))
    gone = set(range(31)) - set(arena)
    assert removed_arena <= gone  # a card out of the game never comes back
    vp = [p["vp_forum"] + p["vp_arena"] for p in d["players"]]
    assert all(v >= w for v, w in zip(vp, prev_vp))
    if vp != prev_vp:
        assert d["round"] in (3, 4, 5)  # scoring happens in rounds 3 and 5 only
    for p in d["players"]:
        assert len(p["provinces"]) <= 8 and all(0 <= v <= 7 for v in p["forum"].values())
        assert all(1 <= v <= 6 for v in p["dice"])
    for groups in d["tracks"].values():
        assert len(groups) <= game.num_players()
        for g in groups:
            assert 1 <= len(g["dice"]) <= 4 and all(0 <= v <= 6 for v in g["dice"])
    if st.is_chance_node():
        outcomes = st.chance_outcomes()
        assert [a for a, _ in outcomes] == legal
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9 and all(p > 0 for _, p in outcomes)
    # round trips
    blob = st.serialize()
    assert game.deserialize(blob) == st
    assert game.state_from_dict(json.loads(json.dumps(d))) == st
    clone = st.clone()
    assert clone == st and clone.history() == st.history()
    return gone, vp


def check_hidden(game, st, rng):
    n = game.num_players()
    for p in range(n):
        obs = st.observation_string(p)
        for k in range(2):
            w = st.resample(p, seed=rng.randrange(1 << 30))
            assert w.observation_string(p) == obs
            game.deserialize(w.serialize())  # a valid world
            if k == 0 and rng.random() < 0.2:
                w.playout(rng.randrange(1 << 30))  # and a playable one
                assert w.is_terminal()
    phase = st.to_dict()["phase"]
    actor = st.to_dict()["actor"]
    for a in st.legal_actions():
        for q in range(n):
            seen = st.observe_action(q, a)
            hidden = q != actor and (phase == "draw" or (phase == "show" and 107 <= a < 124))
            assert seen == (HIDDEN | (2 if phase == "draw" else 1) if hidden else a)


@pytest.mark.parametrize("players,intrigue", CONFIGS)
def test_step_invariants_in_random_games(players, intrigue):
    game = rtp(players, intrigue)
    rng = random.Random(players * 7 + len(intrigue))
    for g in range(50):
        st = game.new_initial_state(seed=g)
        gone, vp = set(), [0] * players
        step = 0
        while not st.is_terminal():
            if step % 3 == 0 or st.to_dict()["phase"] not in ("roll", "place", "deal"):
                gone, vp = check_step(game, st, rng, gone, vp)
            if step % 40 == 0:
                check_hidden(game, st, rng)
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
            step += 1
        assert abs(sum(st.returns()) - 1) < 1e-9


def test_resample_changes_only_what_the_player_cannot_see():
    game = rtp(4)
    rng = random.Random(5)
    differing = 0
    for g in range(40):
        st = game.new_initial_state(seed=g)
        while not st.is_terminal():
            d = st.to_dict()
            if d["phase"] == "show" and rng.random() < 0.5 or d["round"] >= 2 and rng.random() < 0.03:
                for p in range(4):
                    w = st.resample(p, seed=rng.randrange(1 << 30))
                    wd = w.to_dict()
                    assert wd["players"][p]["hand"] == d["players"][p]["hand"]
                    assert wd["players"][p]["show"] == d["players"][p]["show"]
                    assert wd["rows"] == d["rows"] and wd["tracks"] == d["tracks"]
                    for q in range(4):
                        pub = lambda pd: sorted(c["id"] for c in pd["hand"] + pd["show"] if c["public"])
                        assert pub(wd["players"][q]) == pub(d["players"][q])
                        size = lambda pd: (len(pd["hand"]), len(pd["show"]))
                        assert size(wd["players"][q]) == size(d["players"][q])
                    differing += wd != d
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
    assert differing > 0  # hidden cards really are redrawn


def test_hidden_actions_are_masked_for_the_other_players():
    from romecore.games.rise_to_power import kernel  # noqa: F401  (the ids below)
    st = None
    game = rtp(4)
    rng = random.Random(1)
    found = {"draw": False, "show": False}
    for g in range(60):
        st = game.new_initial_state(seed=g)
        while not st.is_terminal():
            d = st.to_dict()
            if d["phase"] == "draw":
                found["draw"] = True
                obs = {q: st.observation_string(q) for q in range(4)}
                st.apply_random_chance()
                # the buyer sees the card, the others only that one more card is hidden
                buyer = d["actor"]
                for q in range(4):
                    if q != buyer:
                        assert st.observation(q)["opponents"][str(buyer)]["hidden"] == \
                            json.loads(obs[q])["opponents"][str(buyer)]["hidden"] + 1
                continue
            if d["phase"] == "show":
                actor = d["actor"]
                adds = [a for a in st.legal_actions() if 107 <= a < 124]
                if adds:
                    found["show"] = True
                    other = (actor + 1) % 4
                    before = st.observation(other)
                    st.apply_action(rng.choice(adds))
                    after = st.observation(other)
                    # the other player sees the show grow, not what went in
                    if after["phase"] == "show":
                        was, now = before["opponents"][str(actor)], after["opponents"][str(actor)]
                        assert now["show_size"] > was["show_size"]
                        assert now["known"] == was["known"] and now["hidden"] == was["hidden"]
                    continue
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        if all(found.values()):
            break
    assert all(found.values())


# -- bad input --------------------------------------------------------------------------------

def midgame(seed=4, steps=120):
    game = rtp(4, "all")
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return game, st


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    game, st = midgame()
    before = st.state_bytes()
    hist = st.history()
    legal = set(st.legal_actions())
    for bad in [a for a in range(game.num_distinct_actions()) if a not in legal][:60] + [-1, 10**6, 2**40]:
        with pytest.raises(romecore.IllegalActionError):
            st.apply_action(bad)
    for bad in ("3", 2.0, None, [1]):
        with pytest.raises(romecore.IllegalActionError):
            st.apply_action(bad)
    with pytest.raises(romecore.IllegalActionError):
        st.string_to_action("fly to the moon")
    assert st.state_bytes() == before and st.history() == hist
    st.playout(1)
    with pytest.raises(romecore.IllegalActionError, match="over"):
        st.apply_action(0)


def test_illegal_action_message_explains():
    from rtp_helpers import position
    st = position(actor=0, tracks={"military": [(0, [2])]}, dice={0: [5, 6, 6]}, turn=4)
    with pytest.raises(romecore.IllegalActionError, match="may not exceed its rightmost die"):
        st.apply_action(4)  # a 5 on Military


def test_corrupt_snapshots_raise_or_load_a_valid_state():
    game, st = midgame()
    blob = st.serialize()
    for bad in (b"", b"garbage", blob[:-3], blob + b"x", b"\x93\x01\x02\x03"):
        with pytest.raises(romecore.SerializationError):
            game.deserialize(bad)
    with pytest.raises(romecore.SerializationError):
        rtp(3).deserialize(blob)  # other options
    raw = bytes(st.state_bytes())
    at = blob.index(raw)
    rng = random.Random(9)
    loaded = 0
    for trial in range(1500):
        b = bytearray(raw)
        for _ in range(rng.choice((1, 1, 2, 3))):
            i = rng.randrange(len(b))
            b[i] ^= 1 << rng.randrange(8)
        corrupt = blob[:at] + bytes(b) + blob[at + len(raw):]
        try:
            s2 = game.deserialize(corrupt)
        except romecore.SerializationError:
            continue
        loaded += 1
        s2.legal_actions()
        s2.playout(trial)  # whatever validate accepts plays to the end
        assert s2.is_terminal()
    assert loaded > 0


@pytest.mark.parametrize("bad", [
    {"phase": "nap"},
    {"round": 9},
    {"round": "3"},
    {"players": [{"provinces": ["Atlantis"]}]},
    {"players": [{"provinces": ["Etruria"]}, {"provinces": ["Etruria"]}]},
    {"players": [{"hand": ["Dragon"]}]},
    {"players": [{"senate": ["Consul", "Consul"]}]},
    {"phase": "place", "players": [{"dice": [1, 2]}]},
    {"phase": "place", "players": [{"dice": [7, 1, 1, 1]}]},
    {"phase": "over", "round": 5, "players": [{"forum": {"Wine": 9}}]},
    {"phase": "show", "round": 2},
    {"game": "great_city_of_rome"},
    "not a dict",
])
def test_bad_dicts_raise_serialization_error(bad):
    with pytest.raises(romecore.SerializationError):
        rtp(4).state_from_dict(bad)
