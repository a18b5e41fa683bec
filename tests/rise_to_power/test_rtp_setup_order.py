"""Set-up (eras, 2-player removals, rows), options, the dice roll and turn order with
its tie rules."""

from __future__ import annotations

import pytest
from rtp_helpers import BLUE, PURPLE, RED, YELLOW, act, position, rtp

import romecore
from romecore.games.rise_to_power import data


def deal_round(st):
    """Applies chance outcomes (lowest first) until the rows are dealt; returns the names."""
    dealt = []
    while st.to_dict()["phase"] == "deal":
        a = st.legal_actions()[0]
        dealt.append(st.action_to_string(a))
        st.apply_action(a)
    return dealt


@pytest.mark.parametrize("players,row", [(2, 3), (3, 4), (4, 4)])
def test_rows_are_dealt_from_era_one_first(players, row):
    st = rtp(players).new_initial_state(seed=1)
    # the first province is drawn among the Era I provinces of this player count
    eras = {st.action_to_string(a).split(": ")[1] for a in st.legal_actions()}
    expect = {p.name for p in data.PROVINCES if p.era == 1 and
              (players > 2 or p.region not in data.TWO_PLAYER_REMOVED_REGIONS)}
    assert eras == expect
    deal_round(st)
    d = st.to_dict()
    assert len(d["rows"]["provinces"]) == row and len(d["rows"]["senate"]) == row
    assert len(d["rows"]["arena"]) == data.ARENA_ROW
    assert all(data.PROVINCES[[p.name for p in data.PROVINCES].index(n)].era == 1
               for n in d["rows"]["provinces"])
    assert all(data.SENATE[c["id"]].era == 1 for c in d["rows"]["senate"])
    assert d["phase"] == "roll"


def test_two_player_game_removes_hispania_asia_and_the_marked_senate_cards():
    d = rtp(2).new_initial_state(seed=0).to_dict()
    provinces = d["decks"]["provinces"]
    assert len(provinces) == 15
    assert not {"Baetica", "Tarraconensis", "Lusitania", "Bithynia", "Cappadocia"} & set(provinces)
    senate = [c["card"] for c in d["decks"]["senate"]]
    assert len(senate) == 15 and senate.count("Legatus") == 1
    for removed in ("Military Tribune", "Tribunus", "Senator", "Praetor"):
        assert removed not in senate
    assert len(d["decks"]["arena"]) == 31


def test_senate_deck_has_era_three_scoring_cards_at_the_bottom():
    for players, k in ((2, 3), (4, 4)):
        st = rtp(players).new_initial_state(seed=0)
        senate = st.to_dict()["decks"]["senate"]
        era3 = [c for c in senate if data.SENATE[c["id"]].era == 3]
        assert len(era3) == k
        assert all(data.SENATE[c["id"]].ability.startswith("endgame") for c in era3)


def test_options():
    g = rtp(3, "ALL")
    assert g.options == {"players": 3, "intrigue": "all"}
    assert rtp(4, "none") == rtp(4, "")
    assert rtp(4, "Vicarius,Hispania Maximus,Tribunus,Greko Maximus,Africanus Maximus").options["intrigue"] == "all"
    with pytest.raises(romecore.GameOptionError):
        rtp(4, "Consul")
    with pytest.raises(romecore.GameOptionError):
        romecore.load_game("rise_to_power", players=5)
    with pytest.raises(romecore.GameOptionError):
        romecore.load_game("rise_to_power", intrigue=3)


def test_each_player_rolls_four_dice():
    st = rtp(3).new_initial_state(seed=0)
    deal_round(st)
    rolls = 0
    while st.to_dict()["phase"] == "roll":
        assert dict(st.chance_outcomes()) == {149 + k: 1 / 6 for k in range(6)}
        act(st, f"P{rolls // 4} rolls a {rolls % 6 + 1}")
        rolls += 1
    assert rolls == 12
    d = st.to_dict()
    assert [sorted(p["dice"]) for p in d["players"]] == [[1, 2, 3, 4], [1, 2, 5, 6], [3, 4, 5, 6]]
    # sums 10, 14, 18: lowest first
    assert d["order"] == [0, 1, 2] and d["phase"] == "place"


def order_state(round_, dice, order=(RED, BLUE, YELLOW, PURPLE)):
    return position(phase="tribunus", round_=round_, actor=order[0], step=0, order=list(order),
                    dice=dict(enumerate(dice)))


def test_lowest_sum_goes_first_and_ties_keep_the_previous_order():
    st = order_state(3, [[6, 6, 6, 6], [1, 1, 1, 1], [2, 2, 2, 2], [2, 2, 2, 2]], order=(PURPLE, YELLOW, BLUE, RED))
    act(st, "decline")
    assert st.to_dict()["order"] == [BLUE, PURPLE, YELLOW, RED]  # Purple stays ahead of Yellow


def test_round_one_ties_are_broken_at_random():
    st = order_state(1, [[3, 3, 2, 2], [5, 3, 1, 1], [1, 1, 1, 1], [6, 6, 6, 6]])
    act(st, "decline")  # Yellow (4) first, then Red and Blue tie at 10
    d = st.to_dict()
    assert d["phase"] == "order" and d["new_order"] == [YELLOW]
    assert st.chance_outcomes() == [(217 + RED, 0.5), (217 + BLUE, 0.5)]
    act(st, "turn-order tie: P1")
    assert st.to_dict()["order"] == [YELLOW, BLUE, RED, PURPLE]


def test_three_way_round_one_tie_takes_two_draws():
    st = order_state(1, [[2, 2, 2, 2]] * 4)
    act(st, "decline")
    assert len(st.chance_outcomes()) == 4
    act(st, "turn-order tie: P3")
    assert len(st.chance_outcomes()) == 3
    act(st, "turn-order tie: P0")
    act(st, "turn-order tie: P2")  # Blue is last by itself
    assert st.to_dict()["order"] == [PURPLE, RED, YELLOW, BLUE]
