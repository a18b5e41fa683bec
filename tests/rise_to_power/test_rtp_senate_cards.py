"""One test per Senate card (the 20 base cards and the 5 Intrigue cards): activation on
matching unexhausted provinces, timing, the effect, and "no possible effect, not legal"."""

from __future__ import annotations

import pytest
from rtp_helpers import BLUE, PURPLE, RED, YELLOW, act, act_if, add_show, end_turn, group, names, position

import romecore

LAST = dict(order=[BLUE, YELLOW, PURPLE, RED], turn=15)  # Red places the round's last die


def dice_of(st, seat):
    return st.to_dict()["players"][seat]["dice"]


def exhausted(st):
    return st.to_dict()["exhausted"]


# -- phase 2 bonuses ------------------------------------------------------------------------

def test_legatus_adds_one_power_at_military_resolution():
    st = position(round_=5, actor=RED, senate={RED: ["Legatus"]}, provinces={RED: ["Gallia Narbonensis"]},
                  tracks={"military": [(RED, [3, 2, 2])]}, dice={RED: [2]},
                  rows={"provinces": ["Arabia", "Mauretania"]}, **LAST)
    act(st, "activate Legatus")  # the only Army Camp province: placed there at once
    assert st.to_dict()["players"][RED]["military_bonus"] == 1
    assert exhausted(st) == {"provinces": ["Gallia Narbonensis"], "senate": [0]}
    act(st, "place a 2 on Military")
    end_turn(st)
    d = st.to_dict()
    assert d["phase"] == "military" and d["actor"] == RED
    assert d["resolution"]["budget"] == 3 + 2 + 2 + 2 + 1
    assert "conquer Mauretania (10)" in names(st) and "conquer Arabia (13)" not in names(st)


def test_two_legatus_cards_are_one_choice_and_both_usable():
    st = position(round_=5, actor=RED, senate={RED: ["Legatus", "Legatus"]},
                  provinces={RED: ["Gallia Narbonensis", "Cyrenaica"]},
                  tracks={"military": [(RED, [3])]}, dice={RED: [2, 2, 2]}, turn=4)
    assert names(st).count("activate Legatus") == 1
    act(st, "activate Legatus")
    act(st, "place Legatus on Cyrenaica")
    assert names(st).count("activate Legatus") == 1  # the second copy, on the other camp
    act(st, "activate Legatus")
    assert st.to_dict()["players"][RED]["military_bonus"] == 2
    assert "activate Legatus" not in names(st)


def test_legatus_needs_an_unexhausted_army_camp():
    st = position(round_=5, actor=RED, senate={RED: ["Legatus"]}, provinces={RED: ["Etruria"]},
                  tracks={"military": [(RED, [3])]}, dice={RED: [2, 2, 2]}, turn=4)
    assert "activate Legatus" not in names(st)  # Etruria is a Villa
    st = position(round_=5, actor=RED, senate={RED: ["Legatus"]}, provinces={RED: ["Cyrenaica"]},
                  tracks={"military": [(RED, [3])]}, dice={RED: [2, 2, 2]}, turn=4,
                  exhausted={"provinces": ["Cyrenaica"]})
    assert "activate Legatus" not in names(st)


def test_magistrate_adds_one_coin_and_needs_dice():
    st = position(round_=5, actor=RED, senate={RED: ["Magistrate"]}, provinces={RED: ["Etruria"]},
                  tracks={"black_market": [(RED, [2, 2, 1])]}, dice={RED: [1]},
                  rows={"arena": ["Murmillo", "Hoplomachus"]}, **LAST)
    act(st, "activate Magistrate")
    act(st, "place a 1 on Black Market")
    end_turn(st)
    d = st.to_dict()
    assert d["phase"] == "market" and d["resolution"]["budget"] == 2 + 2 + 1 + 1 + 1
    # No dice on the Black Market track and none left to place: no effect, not legal.
    st = position(round_=5, actor=RED, phase="after_place", senate={RED: ["Magistrate"]},
                  provinces={RED: ["Etruria"]}, tracks={"military": [(RED, [6, 5, 4, 3])]},
                  dice={RED: []}, **LAST)
    assert "activate Magistrate" not in names(st)


def test_aedile_needs_two_arena_provinces_and_adds_three_coins():
    one = position(round_=5, actor=RED, senate={RED: ["Aedile"]}, provinces={RED: ["Epirus", "Etruria"]},
                   tracks={"black_market": [(RED, [2])]}, dice={RED: [1, 1, 1]}, turn=4)
    assert "activate Aedile" not in names(one)
    st = position(round_=5, actor=RED, senate={RED: ["Aedile"]}, provinces={RED: ["Epirus", "Thracia"]},
                  tracks={"black_market": [(RED, [2])]}, dice={RED: [1, 1, 1]}, turn=4)
    act(st, "activate Aedile")
    d = st.to_dict()
    assert d["players"][RED]["coin_bonus"] == 3
    assert sorted(d["exhausted"]["provinces"]) == ["Epirus", "Thracia"]


def test_magister_equitum_needs_two_army_camps_and_adds_three_power():
    st = position(round_=5, actor=RED, senate={RED: ["Magister Equitum"]},
                  provinces={RED: ["Cyrenaica", "Numidia", "Macedonia"]},
                  tracks={"military": [(RED, [2])]}, dice={RED: [1, 1, 1]}, turn=4)
    act(st, "activate Magister Equitum")
    # three camps: choose the pair, lowest id first (Cyrenaica 7, Macedonia 11, Numidia 13)
    assert names(st) == ["place Magister Equitum on Cyrenaica", "place Magister Equitum on Macedonia"]
    act(st, "place Magister Equitum on Macedonia")
    assert st.to_dict()["activation"] is None  # Numidia, the only camp above, follows by itself
    d = st.to_dict()
    assert d["players"][RED]["military_bonus"] == 3
    assert sorted(d["exhausted"]["provinces"]) == ["Macedonia", "Numidia"]


# -- dice changes -----------------------------------------------------------------------------

def test_censor_rerolls_any_number_of_unplaced_dice():
    st = position(round_=5, actor=RED, senate={RED: ["Censor"]}, provinces={RED: ["Etruria"]},
                  dice={RED: [1, 1, 6]}, tracks={"senate": [(RED, [3])]}, turn=4)
    act(st, "activate Censor")
    assert names(st) == ["mark a 1 to re-roll", "mark a 6 to re-roll"]  # at least one die
    act(st, "mark a 1")
    assert names(st) == ["re-roll the marked dice", "mark a 1 to re-roll", "mark a 6 to re-roll"]
    act(st, "mark a 6")
    # marks go in ascending face, so no 1 may follow the 6: the re-roll starts by itself
    assert st.is_chance_node() and len(st.chance_outcomes()) == 6
    act(st, "the re-roll gives a 3")
    act(st, "the re-roll gives a 5")
    assert sorted(dice_of(st, RED)) == [1, 3, 5]
    assert st.to_dict()["phase"] == "place" and st.current_player() == RED


def test_proconsul_rerolls_then_may_reroll_again():
    st = position(round_=5, actor=RED, senate={RED: ["Proconsul"]},
                  provinces={RED: ["Etruria", "Achaea"]}, dice={RED: [2, 6, 6, 6]}, turn=0)
    act(st, "activate Proconsul")
    act(st, "mark a 2")
    act(st, "re-roll the marked dice")
    act(st, "the re-roll gives a 1")
    assert "stop re-rolling" in names(st)  # the second pass is optional
    act(st, "mark a 1")
    act(st, "re-roll the marked dice")
    act(st, "the re-roll gives a 4")
    assert sorted(dice_of(st, RED)) == [4, 6, 6, 6]
    assert st.to_dict()["phase"] == "place"
    assert sorted(exhausted(st)["provinces"]) == ["Achaea", "Etruria"]


def test_quaestor_inverts_one_unplaced_die():
    st = position(round_=5, actor=RED, senate={RED: ["Quaestor"]}, provinces={RED: ["Epirus"]},
                  dice={RED: [2, 6, 6, 6]}, turn=0)
    act(st, "activate Quaestor")
    assert names(st) == ["invert a 2 into a 5", "invert a 6 into a 1"]
    act(st, "invert a 2")
    assert sorted(dice_of(st, RED)) == [5, 6, 6, 6]


def test_vicarius_changes_one_unplaced_die_by_one_wrapping():
    st = position(round_=5, actor=RED, senate={RED: ["Vicarius"]}, provinces={RED: ["Etruria"]},
                  dice={RED: [1, 4, 4, 4]}, turn=0)
    minus = st.clone()
    act(st, "activate Vicarius")
    act(st, "change a 1")
    assert names(st) == ["raise the 1 to a 2", "lower the 1 to a 6"]
    act(st, "raise")
    assert sorted(dice_of(st, RED)) == [2, 4, 4, 4]
    act(minus, "activate Vicarius")
    act(minus, "change a 1")
    act(minus, "lower")
    assert sorted(dice_of(minus, RED)) == [4, 4, 4, 6]


def test_military_tribune_rerolls_a_placed_military_die_keeping_the_order():
    st = position(round_=5, actor=RED, phase="after_place", senate={RED: ["Military Tribune"]},
                  provinces={RED: ["Cyrenaica"]},
                  tracks={"military": [(BLUE, [3]), (RED, [5])]}, dice={RED: [6, 6, 6]}, turn=0,
                  order=[RED, BLUE, YELLOW, PURPLE])
    act(st, "activate Military Tribune")
    assert st.is_chance_node()  # one placed Military die: it is the one re-rolled
    act(st, "the re-roll gives a 1")
    assert group(st, "military") == [(BLUE, [3]), (RED, [1])]  # resolution order unchanged


def test_military_tribune_needs_a_placed_military_die():
    st = position(round_=5, actor=RED, senate={RED: ["Military Tribune"]}, provinces={RED: ["Cyrenaica"]},
                  dice={RED: [6, 6, 6, 6]}, turn=0)
    assert "activate Military Tribune" not in names(st)


def test_consul_lets_the_die_exceed_the_rightmost():
    st = position(round_=5, actor=RED, senate={RED: ["Consul"]}, provinces={RED: ["Epirus"]},
                  tracks={"military": [(RED, [2])], "senate": [(BLUE, [1])]}, dice={RED: [5, 5, 6]},
                  turn=4)
    assert "place a 5 on Military" not in names(st)
    act(st, "activate Consul")
    assert names(st) == ["place a 5 on Military with Consul", "place a 6 on Military with Consul"]
    act(st, "place a 6 on Military")
    assert group(st, "military") == [(RED, [2, 6])]
    assert not st.to_dict()["consul"]
    # with nothing above a rightmost die to place, Consul has no effect
    st = position(round_=5, actor=RED, senate={RED: ["Consul"]}, provinces={RED: ["Epirus"]},
                  tracks={"military": [(RED, [6])]}, dice={RED: [5, 5, 6]}, turn=4)
    assert "activate Consul" not in names(st)


def test_senator_lowers_a_placed_die_and_a_one_becomes_a_leading_zero():
    st = position(round_=5, actor=RED, phase="after_place", senate={RED: ["Senator"]},
                  provinces={RED: ["Etruria"]},
                  tracks={"military": [(BLUE, [1]), (RED, [1])], "senate": [(RED, [3])]},
                  dice={RED: [6, 6]}, turn=4, order=[RED, BLUE, YELLOW, PURPLE])
    three = st.clone()
    act(st, "activate Senator")
    act(st, "lower the 1 at position 1 on Military")
    assert group(st, "military") == [(RED, [0]), (BLUE, [1])]
    act(three, "activate Senator")
    act(three, "lower the 3")
    assert group(three, "senate") == [(RED, [2])]


def test_senator_on_a_trailing_one_makes_it_the_leading_zero():
    st = position(round_=5, actor=RED, phase="after_place", senate={RED: ["Senator"]},
                  provinces={RED: ["Etruria"]},
                  tracks={"black_market": [(BLUE, [2]), (RED, [3, 1])]}, dice={RED: [6, 6]}, turn=4,
                  order=[RED, BLUE, YELLOW, PURPLE])
    act(st, "activate Senator")
    act(st, "lower the 1 at position 2")
    assert group(st, "black_market") == [(RED, [0, 3]), (BLUE, [2])]


# -- phase 1 ------------------------------------------------------------------------------------

def tribunus_state(card, order=(RED, BLUE, YELLOW, PURPLE), intrigue="none", **kw):
    return position(phase="tribunus", round_=3, actor=order[0], step=0, order=list(order),
                    intrigue=intrigue, senate={RED: [card]}, provinces={RED: ["Epirus"]},
                    dice={RED: [5, 5, 2, 2], BLUE: [3, 3, 3, 3], YELLOW: [6, 6, 6, 6],
                          PURPLE: [6, 6, 6, 6]}, **kw)


def test_tribunus_lowers_the_sum_by_three_for_turn_order():
    st = tribunus_state("Tribunus")
    declined = st.clone()
    act(st, "activate Tribunus")
    assert st.to_dict()["order"] == [RED, BLUE, YELLOW, PURPLE]  # 14 - 3 = 11 < 12
    act(declined, "decline")
    assert declined.to_dict()["order"] == [BLUE, RED, YELLOW, PURPLE]
    assert declined.to_dict()["phase"] == "place"


def test_tribunus_without_effect_is_not_offered():
    st = position(phase="tribunus", round_=3, actor=RED, step=0, senate={RED: ["Tribunus"]},
                  provinces={RED: ["Epirus"]}, dice={RED: [1, 1, 1, 1], BLUE: [3, 3, 3, 3],
                                                     YELLOW: [6, 6, 6, 6], PURPLE: [6, 6, 6, 6]})
    assert "activate Tribunus" not in names(st)  # Red goes first anyway


def test_tribunus_intrigue_adds_three_to_another_players_sum():
    st = position(
        phase="tribunus", round_=3, actor=RED, step=0, intrigue="Tribunus",
        senate={RED: ["Tribunus (Intrigue)"]}, provinces={RED: ["Epirus"]},
        dice={RED: [4, 4, 4, 1], BLUE: [3, 3, 3, 3], YELLOW: [6, 6, 6, 6], PURPLE: [6, 6, 6, 6]})
    act(st, "activate Tribunus (Intrigue)")
    # sums Red 13, Blue 12, Yellow 24, Purple 24: +3 to Blue puts Red first, +3 to Yellow
    # puts Purple before Yellow; +3 to Purple changes nothing
    assert names(st) == ["target P1", "target P2"]
    act(st, "target P1")
    assert st.to_dict()["order"] == [RED, BLUE, YELLOW, PURPLE]


# -- phase 4 ------------------------------------------------------------------------------------

def forum_state(card, track=0, intrigue="none", forum=None, provinces=None):
    # Blue holds a show's worth of cards, so the scoring stops at Blue's show
    return position(phase="forum", round_=3, actor=RED, step=0, intrigue=intrigue,
                    senate={RED: [card]}, provinces=provinces or {RED: ["Epirus", "Etruria"]},
                    hands={BLUE: ["Murmillo", "Lion", "Gaul"]},
                    forum=forum or {RED: {"Olives": 1, "Wine": 1}, BLUE: {"Olives": 1, "Wine": 1}},
                    scoring={"forum_track": track})


def test_hispania_maximus_moves_up_the_olives_track_when_it_scores():
    st = forum_state("Hispania Maximus")
    assert names(st) == ["decline", "activate Hispania Maximus"]
    act(st, "activate Hispania Maximus")  # placed on Epirus, the Olives province
    d = st.to_dict()
    assert d["players"][RED]["forum"]["Olives"] == 2
    assert d["exhausted"]["provinces"] == ["Epirus"]
    # olives: Red 1 + 3 behind, Blue 1 + 2 behind; wine: both 1 + 2 behind
    assert [p["vp_forum"] for p in d["players"]][:2] == [4 + 3, 3 + 3]
    # not when the wine track scores, not at the end of the track
    assert "activate Hispania Maximus" not in names(forum_state("Hispania Maximus", track=1))
    full = forum_state("Hispania Maximus", forum={RED: {"Olives": 7}})
    assert "activate Hispania Maximus" not in names(full)


def test_africanus_maximus_moves_up_the_wine_track_on_a_wine_province():
    st = forum_state("Africanus Maximus", track=1)
    act(st, "activate Africanus Maximus")  # on Etruria, the Wine province
    d = st.to_dict()
    assert d["players"][RED]["forum"]["Wine"] == 2
    assert d["exhausted"]["provinces"] == ["Etruria"]
    assert "activate Africanus Maximus" not in names(forum_state("Africanus Maximus", track=0))


def test_greko_maximus_intrigue_raises_the_show():
    hands = {RED: ["Murmillo", "Lion", "Gaul"], BLUE: ["Hoplomachus", "Elephant", "Parthian"]}
    for use in (False, True):
        st = position(phase="show", round_=3, actor=RED, step=0, intrigue="Greko Maximus",
                      senate={RED: ["Greko Maximus (Intrigue)"]}, provinces={RED: ["Epirus"]},
                      hands=hands)
        assert "activate Greko Maximus (Intrigue)" not in names(st)  # no show yet
        add_show(st, hands[RED])
        if use:
            act(st, "activate Greko Maximus (Intrigue)")
        act_if(st, "show ready")
        assert st.current_player() == BLUE
        add_show(st, hands[BLUE])  # Blue's only choice left is to show: the engine does
        vp = [p["vp_arena"] for p in st.to_dict()["players"]]
        if use:  # one of a kind 3 + 1, and rank 3 beats Blue's rank 2 for best show
            assert vp[:2] == [3 + 1 + 1, 3]
        else:    # equal rank: Blue's cards cost more
            assert vp[:2] == [3, 3 + 1]


# -- end-game scoring cards ---------------------------------------------------------------------

def final_state(cards, provinces):
    return position(phase="over", round_=5, actor=RED, senate={RED: cards}, provinces={RED: provinces})


def test_asianus_scores_a_vp_per_region_with_an_arch():
    st = final_state(["Asianus"], ["Etruria", "Gallia Narbonensis", "Gallia Lugdunensis", "Epirus"])
    assert st.score_breakdown(RED)["senate_detail"] == {"Asianus": 3}


@pytest.mark.parametrize("card,expected", [("Ludi Maximus", 2 * 2), ("Imperator", 2 * 1), ("Praetor", 2 * 3)])
def test_province_type_cards_score_two_per_province(card, expected):
    # Villas: Etruria, Achaea, Mauretania; Arenas: Epirus, Thracia; Army Camp: Arabia
    st = final_state([card], ["Etruria", "Achaea", "Mauretania", "Epirus", "Thracia", "Arabia"])
    assert st.score_breakdown(RED)["senate_detail"] == {card: expected}


def test_greko_maximus_pairs_senate_cards_with_provinces_of_their_symbol():
    # Senate symbols: Greko Arena, Consul Arena, Legatus Army Camp, Censor Villa.
    # Provinces: Epirus Arena, Gallia Narbonensis and Cyrenaica Army Camps -> 1 + 1 + 0.
    st = final_state(["Greko Maximus", "Consul", "Legatus", "Censor"],
                     ["Epirus", "Gallia Narbonensis", "Cyrenaica"])
    assert st.score_breakdown(RED)["senate_detail"] == {"Greko Maximus": 2}


def test_end_game_cards_are_never_activated():
    st = position(round_=5, actor=RED, senate={RED: ["Asianus", "Ludi Maximus", "Imperator", "Praetor",
                                                    "Greko Maximus"]},
                  provinces={RED: ["Etruria", "Epirus", "Cyrenaica"]}, dice={RED: [1, 2, 3, 4]}, turn=0)
    assert not any(n.startswith("activate") for n in names(st))


# -- Intrigue cards -----------------------------------------------------------------------------

def test_vicarius_intrigue_rerolls_any_players_unplaced_die():
    st = position(round_=5, actor=RED, intrigue="Vicarius", senate={RED: ["Vicarius (Intrigue)"]},
                  provinces={RED: ["Etruria"]}, dice={RED: [6, 6, 6, 6], BLUE: [2, 5, 5, 5]}, turn=0)
    act(st, "activate Vicarius (Intrigue)")
    assert "target P1" in names(st) and "target P0" in names(st)
    act(st, "target P1")
    assert names(st) == ["re-roll P1's 2", "re-roll P1's 5"]
    act(st, "re-roll P1's 2")
    act(st, "the re-roll gives a 6")
    assert sorted(dice_of(st, BLUE)) == [5, 5, 5, 6]
    assert st.to_dict()["phase"] == "place" and st.current_player() == RED


def test_hispania_maximus_intrigue_discards_an_era_one_province():
    st = position(round_=5, actor=RED, intrigue="Hispania Maximus",
                  senate={RED: ["Hispania Maximus (Intrigue)", "Legatus"]},
                  provinces={RED: ["Cyrenaica"], BLUE: ["Etruria", "Campania"]},
                  forum={RED: {"Jewelry": 1}, BLUE: {"Wine": 1, "Olives": 1}},
                  dice={RED: [6, 6, 6, 6]}, turn=0)
    act(st, "activate Hispania Maximus (Intrigue)")
    assert names(st) == ["discard Legatus", "discard Hispania Maximus (Intrigue)"]
    act(st, "discard Legatus")
    # Era I provinces of any player: Etruria (Blue), Cyrenaica (Red); Campania is Era II.
    assert names(st) == ["discard Etruria of P1", "discard Cyrenaica of P0"]
    act(st, "discard Etruria")
    d = st.to_dict()
    assert d["players"][BLUE]["provinces"] == ["Campania"]
    assert d["players"][BLUE]["forum"]["Wine"] == 0
    assert [c["card"] for c in d["players"][RED]["senate"]] == ["Hispania Maximus (Intrigue)"]


def test_africanus_maximus_intrigue_steals_a_jewelry():
    st = position(round_=5, actor=RED, intrigue="Africanus Maximus",
                  senate={RED: ["Africanus Maximus (Intrigue)"]}, provinces={RED: ["Etruria"]},
                  forum={BLUE: {"Jewelry": 2}}, dice={RED: [6, 6, 6, 6]}, turn=0)
    act(st, "activate Africanus Maximus (Intrigue)")
    d = st.to_dict()  # Blue, the only player with Jewelry, is the target by itself
    assert d["activation"] is None
    assert d["players"][RED]["forum"]["Jewelry"] == 1
    assert d["players"][BLUE]["forum"]["Jewelry"] == 1
    # nobody else holds Jewelry: no effect, not legal
    st = position(round_=5, actor=RED, intrigue="Africanus Maximus",
                  senate={RED: ["Africanus Maximus (Intrigue)"]}, provinces={RED: ["Etruria"]},
                  forum={RED: {"Jewelry": 3}}, dice={RED: [6, 6, 6, 6]}, turn=0)
    assert "activate Africanus Maximus (Intrigue)" not in names(st)


def test_an_exhausted_card_waits_for_the_next_round():
    st = position(round_=5, actor=RED, senate={RED: ["Quaestor"]}, provinces={RED: ["Epirus", "Thracia"]},
                  dice={RED: [2, 6, 6, 6]}, turn=0)
    act(st, "activate Quaestor")
    act(st, "place Quaestor on Epirus")
    act(st, "invert a 2")
    assert "activate Quaestor" not in names(st)  # exhausted, though Thracia is free


def test_intrigue_cards_replace_the_base_cards_in_the_deck():
    g = romecore.load_game("rise_to_power", players=4, intrigue="all")
    deck = [c["card"] for c in g.new_initial_state(seed=0).to_dict()["decks"]["senate"]]
    assert len(deck) == 20
    for title in ("Vicarius", "Hispania Maximus", "Tribunus", "Greko Maximus", "Africanus Maximus"):
        assert f"{title} (Intrigue)" in deck and title not in deck
    g2 = romecore.load_game("rise_to_power", players=2, intrigue="Tribunus, greko maximus")
    assert g2.options["intrigue"] == "Tribunus,Greko Maximus"
    deck2 = [c["card"] for c in g2.new_initial_state(seed=0).to_dict()["decks"]["senate"]]
    assert len(deck2) == 15 and "Greko Maximus (Intrigue)" in deck2
    assert "Tribunus" not in deck2 and "Tribunus (Intrigue)" not in deck2  # 2-player removal


def test_an_activation_in_progress_loads_from_a_dict():
    st = position(round_=5, actor=RED, senate={RED: ["Censor"]}, provinces={RED: ["Etruria"]},
                  dice={RED: [3, 4, 6]}, tracks={"senate": [(RED, [3])]}, turn=4, phase="mark",
                  exhausted={"provinces": ["Etruria"], "senate": [3]},
                  activation={"card": "Censor", "return": "place", "target": RED, "mark_floor": 1,
                              "first_province": "Etruria"})
    assert names(st) == ["mark a 3 to re-roll", "mark a 4 to re-roll", "mark a 6 to re-roll"]
    act(st, "mark a 4")
    act(st, "re-roll the marked dice")
    act(st, "the re-roll gives a 1")
    assert sorted(dice_of(st, RED)) == [1, 3, 6] and st.to_dict()["phase"] == "place"
