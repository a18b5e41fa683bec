"""Phase 3 (Military, Senate, Black Market), phase 4 (forum tracks and shows) and the end
of the game: the rulebook's examples with their printed numbers, the show table, best
show ties, region control and the tie-breaks."""

from __future__ import annotations

import pytest
from rtp_helpers import BLUE, PURPLE, RED, YELLOW, act, names, position


def player(st, seat):
    return st.to_dict()["players"][seat]


# -- Military -------------------------------------------------------------------------------

ROUND1_PROVINCES = ["Etruria", "Gallia Narbonensis", "Epirus", "Achaea"]  # 4, 5, 5, 7


def military(strengths, **kw):
    """Phase 3 at the Military track: seats with their dice there, left to right."""
    tracks = {"military": [(q, d) for q, d in strengths]}
    st = position(phase="military", round_=1, actor=strengths[0][0], tracks=tracks,
                  rows={"provinces": ROUND1_PROVINCES},
                  resolution={"section": 0, "budget": sum(strengths[0][1])}, **kw)
    return st


def test_military_example_twelve_strength_conquers_two_provinces():
    # Red has three dice totalling 12: Gallia Narbonensis (5) and Achaea (7).
    st = military([(RED, [5, 4, 3]), (BLUE, [1])])
    assert names(st) == ["done conquering", "conquer Etruria (4)", "conquer Gallia Narbonensis (5)",
                         "conquer Epirus (5)", "conquer Achaea (7)"]
    act(st, "conquer Gallia Narbonensis")
    # 7 strength left; conquests go in ascending id, so Etruria is no longer offered
    assert names(st) == ["done conquering", "conquer Epirus (5)", "conquer Achaea (7)"]
    act(st, "conquer Achaea")
    d = st.to_dict()
    red = d["players"][RED]
    assert red["provinces"] == ["Gallia Narbonensis", "Achaea"]
    assert red["forum"]["Wine"] == 2  # both give Wine
    # Blue's strength 1 matches no province: Blue takes none, and the round goes on
    assert d["players"][BLUE]["provinces"] == []
    assert d["phase"] == "deal" and d["round"] == 2


def test_three_provinces_over_the_strength_are_not_possible():
    st = military([(RED, [5, 4, 3])])
    act(st, "conquer Etruria")      # 4: 8 left
    act(st, "conquer Epirus")       # 5: 3 left, Achaea (7) too strong
    assert st.to_dict()["players"][RED]["provinces"] == ["Etruria", "Epirus"]


def test_forum_track_stops_at_seven():
    st = military([(RED, [6, 6])], forum={RED: {"Wine": 7}})
    act(st, "conquer Gallia Narbonensis")
    assert player(st, RED)["forum"]["Wine"] == 7


def test_eight_provinces_use_all_arches():
    owned = ["Baetica", "Africa Proconsularis", "Bithynia", "Cyrenaica", "Campania",
             "Gallia Lugdunensis", "Tarraconensis", "Macedonia"]
    st = position(phase="military", round_=5, actor=RED, tracks={"military": [(RED, [6, 6])]},
                  rows={"provinces": ["Lusitania", "Mauretania"]}, provinces={RED: owned},
                  resolution={"section": 0, "budget": 12})
    assert names(st) == ["done conquering"]


# -- Senate -----------------------------------------------------------------------------------

def test_senate_example_one_card_per_die_in_section_order():
    row = ["Legatus", "Censor", "Magistrate", "Quaestor"]
    tracks = {"senate": [(YELLOW, [3, 2]), (BLUE, [4, 1]), (RED, [5])]}
    st = position(phase="senate", round_=1, actor=YELLOW, tracks=tracks, rows={"senate": row},
                  resolution={"section": 0, "picks": 2})
    assert names(st) == ["take Legatus", "take Magistrate", "take Censor", "take Quaestor"]
    act(st, "take Legatus")
    act(st, "take Censor")
    assert st.current_player() == BLUE
    act(st, "take Magistrate")  # then Quaestor, the last card, by itself
    d = st.to_dict()
    assert [c["card"] for c in d["players"][YELLOW]["senate"]] == ["Legatus", "Censor"]
    assert [c["card"] for c in d["players"][BLUE]["senate"]] == ["Magistrate", "Quaestor"]
    assert d["players"][RED]["senate"] == []  # Red had a die there, but the cards are gone


# -- Black Market -------------------------------------------------------------------------------

def market(coins=9, **kw):
    return position(phase="market", round_=1, actor=RED, tracks={"black_market": [(RED, [4, 3, 2])]},
                    rows={"arena": ["Murmillo", "Lion", "Tiger", "Elephant", "Gaul"]},
                    resolution={"section": 0, "budget": coins}, **kw)


def test_black_market_buys_face_up_cards_within_the_coins():
    st = market()
    assert names(st) == ["done buying", "buy Murmillo (2 coins)", "buy Lion (3 coins)",
                         "buy Tiger (4 coins)", "buy Elephant (6 coins)", "buy Gaul (3 coins)",
                         "buy a face-down Arena card (5 coins)"]
    act(st, "buy Lion")
    act(st, "buy Tiger")      # 2 coins left: only the Murmillo... which comes before the Lion
    hand = player(st, RED)["hand"]
    assert [c["card"] for c in hand] == ["Lion", "Tiger"] and all(c["public"] for c in hand)
    assert st.to_dict()["phase"] == "deal"  # no purchase left in order: done by itself


def test_face_down_card_costs_five_and_only_its_owner_sees_it():
    st = market()
    act(st, "buy a face-down")
    assert st.is_chance_node()
    outcomes = dict(st.chance_outcomes())
    assert abs(sum(outcomes.values()) - 1) < 1e-12
    assert len(outcomes) == 16  # every Arena type but the Elephant, whose one copy is in the row
    act(st, "face-down Arena card: Parthian")
    d = st.to_dict()
    assert d["resolution"]["budget"] == 4
    card = player(st, RED)["hand"][0]
    assert card["card"] == "Parthian" and card["public"] is False
    assert ("Parthian", False) in st.observation(RED)["hand"]
    assert st.observation(BLUE)["opponents"][str(RED)] == {"known": [], "hidden": 1, "show_size": 0}


# -- Forum scoring ----------------------------------------------------------------------------

def test_forum_scoring_example():
    forum = {BLUE: {"Olives": 3, "Wine": 2, "Jewelry": 0}, PURPLE: {"Olives": 2, "Wine": 2, "Jewelry": 1},
             RED: {"Olives": 1, "Wine": 0, "Jewelry": 1}, YELLOW: {"Olives": 0, "Wine": 1, "Jewelry": 0}}
    st = position(phase="forum", round_=3, actor=RED, step=0, forum=forum)
    act(st, "decline")  # no forum scoring cards anywhere: the three tracks score
    vp = [p["vp_forum"] for p in st.to_dict()["players"]]
    # Olives: Blue 4, Purple 3, Red 2, Yellow 0; Wine: Blue and Purple 3, Yellow 2, Red 0;
    # Jewelry: Purple and Red 3, Blue and Yellow 0.
    assert vp[BLUE] == 4 + 3 + 0
    assert vp[PURPLE] == 3 + 3 + 3
    assert vp[RED] == 2 + 0 + 3
    assert vp[YELLOW] == 0 + 2 + 0


def test_scoring_happens_only_in_rounds_three_and_five():
    st = position(phase="market", round_=2, actor=RED, tracks={"black_market": [(RED, [1])]},
                  forum={RED: {"Olives": 3}}, resolution={"section": 0, "budget": 1})
    act(st, "done buying")
    assert st.to_dict()["round"] == 3 and player(st, RED)["vp_forum"] == 0
    st = position(phase="market", round_=3, actor=RED, tracks={"black_market": [(RED, [1])]},
                  forum={RED: {"Olives": 3}}, resolution={"section": 0, "budget": 1})
    act(st, "done buying")
    assert st.to_dict()["round"] == 4 and player(st, RED)["vp_forum"] == 4


# -- Shows ------------------------------------------------------------------------------------

def shows(*per_seat, players=4, greko=()):
    """Scoring at the last seat's show choice, with the earlier seats' shows prepared."""
    hands = {}
    extra = {q: {"show": list(cards)} for q, cards in enumerate(per_seat)}
    st = position(players=players, phase="show", round_=3, actor=players - 1, step=players - 1,
                  player_fields=extra, hands=hands, scoring={"show_bonus": list(greko)})
    act(st, "no show")
    return [p["vp_arena"] for p in st.to_dict()["players"]]


@pytest.mark.parametrize("cards,vp", [
    (["Murmillo", "Murmillo", "Murmillo"], 1),                      # any 3 cards
    (["Murmillo", "Retiarius", "Secutor"], 2),                      # any 3 different
    (["Murmillo", "Lion", "Gaul"], 3),                              # one of a kind
    (["Lion", "Bear", "Tiger"], 5),                                 # 3 diverse beasts
    (["Gaul", "Germanus", "Dacian"], 5),                            # 3 diverse barbarians
    (["Gaul", "Dacian", "Murmillo", "Murmillo", "Retiarius"], 8),   # battle royal
    (["Lion", "Bear", "Tiger", "Murmillo"], 5),                     # the best rank counts
    (["Lion", "Lion", "Bear"], 1),                                  # two alike: any 3
    (["Gaul", "Gaul", "Murmillo", "Retiarius", "Secutor"], 2),      # one barbarian kind, no beast
])
def test_show_ranks(cards, vp):
    # a lone show also takes the best-show bonus
    assert shows(cards)[0] == vp + 1


def test_best_show_goes_to_the_highest_rank_then_the_costliest():
    vp = shows(["Murmillo", "Lion", "Gaul"], ["Lion", "Bear", "Tiger"], ["Hoplomachus", "Elephant", "Parthian"])
    assert vp[:3] == [3, 5 + 1, 3]
    vp = shows(["Murmillo", "Lion", "Gaul"], ["Hoplomachus", "Elephant", "Parthian"])
    assert vp[:2] == [3, 3 + 1]  # same rank: 16 coins beat 8


def test_best_show_tied_on_rank_and_cost_goes_to_nobody():
    vp = shows(["Murmillo", "Lion", "Gaul"], ["Retiarius", "Bear", "Germanus"])
    assert vp[:2] == [3, 3]


def test_show_cards_leave_the_game():
    st = position(phase="show", round_=3, actor=3, step=3,
                  player_fields={0: {"show": ["Murmillo", "Lion", "Gaul"], "hand": ["Bear"]}})
    act(st, "no show")
    d = st.to_dict()
    assert [c["card"] for c in d["players"][0]["hand"]] == ["Bear"]
    assert d["players"][0]["show"] == []
    assert sorted(st.observation(1)["arena_removed"]) == ["Gaul", "Lion", "Murmillo"]


def test_show_needs_three_cards():
    st = position(phase="show", round_=3, actor=0, step=0, hands={0: ["Murmillo", "Lion"]})
    assert names(st) == ["no show"]
    st = position(phase="show", round_=3, actor=0, step=0, hands={0: ["Murmillo", "Lion", "Gaul", "Bear"]})
    act(st, "add Bear")
    assert "show ready" not in names(st)


# -- End of the game ------------------------------------------------------------------------------

def over(provinces, **kw):
    return position(phase="over", round_=5, actor=RED, provinces=provinces, **kw)


def test_region_control_example():
    # Greko: Yellow 7 + 7 (Achaea, Macedonia) ties Red 5 + 9 (Epirus, Thracia): 1 VP each.
    # Gallia: the rulebook pits Red's 9 against Blue's 7; the ruled province list has no
    # Gallia 9, so Red holds Gallia Belgica (11) against Blue's Gallia Lugdunensis (7).
    st = over({YELLOW: ["Achaea", "Macedonia"], RED: ["Epirus", "Thracia", "Gallia Belgica"],
               BLUE: ["Gallia Lugdunensis"]})
    assert st.score_breakdown(RED)["region_detail"] == {"Greko": 1, "Gallia": 2}
    assert st.score_breakdown(YELLOW)["region_detail"] == {"Greko": 1}
    assert st.score_breakdown(BLUE)["region_detail"] == {}


def test_whole_region_scores_three_and_a_tie_gives_every_holder_one():
    st = over({RED: ["Etruria", "Campania"], BLUE: ["Gallia Narbonensis", "Gallia Lugdunensis"],
               YELLOW: ["Gallia Belgica"], PURPLE: ["Numidia"]})
    assert st.score_breakdown(RED)["region_detail"] == {"Italia": 3}
    # Gallia: Blue 5 + 7 = 12 beats Yellow's 11
    assert st.score_breakdown(BLUE)["region_detail"] == {"Gallia": 2}
    assert st.score_breakdown(YELLOW)["region_detail"] == {}
    st = over({RED: ["Africa Proconsularis", "Numidia"], BLUE: ["Mauretania"], YELLOW: ["Aegyptus"]})
    # Africa: Red 3 + 6 = 9 < Blue 10: Blue 2, Red 0
    assert st.score_breakdown(BLUE)["region_detail"] == {"Africa": 2}
    assert "Africa" not in st.score_breakdown(RED)["region_detail"]
    st = over({RED: ["Africa Proconsularis", "Numidia"], BLUE: ["Mauretania"], YELLOW: ["Cyrenaica"],
               PURPLE: ["Aegyptus"]})
    # Aegyptus: Yellow 6 < Purple 9; a tie needs equal totals
    assert st.score_breakdown(PURPLE)["region_detail"] == {"Aegyptus": 2}


def test_region_tie_gives_one_to_every_holder_even_the_lower_ones():
    # Greko: Red 5 + 9 and Blue 7 + 7 tie at 14; Yellow's 5 is lower but still scores 1
    st = over({RED: ["Thracia", "Epirus"], BLUE: ["Achaea", "Macedonia"]})
    assert st.score_breakdown(RED)["region_detail"] == {"Greko": 1}
    assert st.score_breakdown(BLUE)["region_detail"] == {"Greko": 1}
    st = over({RED: ["Thracia"], BLUE: ["Macedonia"], YELLOW: ["Achaea"], PURPLE: ["Epirus"]})
    # Blue 7 and Yellow 7 tie below Red's 9: Red takes 2, the others nothing
    assert [st.score_breakdown(q)["region_detail"] for q in range(4)] == [{"Greko": 2}, {}, {}, {}]
    st = over({RED: ["Achaea"], BLUE: ["Macedonia"], YELLOW: ["Epirus"]})
    # Red 7 and Blue 7 tie for the highest: every holder, Yellow's 5 too, gets 1
    assert [st.score_breakdown(q)["region_detail"] for q in range(3)] == [{"Greko": 1}] * 3


def test_final_score_and_winner():
    st = over({RED: ["Etruria"], BLUE: ["Achaea"]}, senate={RED: ["Praetor"]},
              player_fields={RED: {"vp_forum": 10, "vp_arena": 3}, BLUE: {"vp_forum": 14}})
    b = st.score_breakdown(RED)
    assert (b["forum"], b["arena"], b["senate"], b["regions"], b["total"]) == (10, 3, 2, 2, 17)
    assert st.scores()[:2] == [17, 14 + 2]
    assert st.returns() == [1.0, 0.0, 0.0, 0.0]


def test_tie_breaks_provinces_then_arena_hand_then_shared():
    base = {RED: {"vp_forum": 10}, BLUE: {"vp_forum": 10}}
    st = over({RED: ["Etruria", "Baetica"], BLUE: ["Macedonia", "Thracia"]}, player_fields=base)
    # regions: Red Italia 2 + Hispania 2, Blue Greko 2: Red 14, Blue 12
    assert st.returns()[:2] == [1.0, 0.0]
    st = over({RED: ["Macedonia"], BLUE: ["Numidia"]}, player_fields=base,
              hands={RED: ["Murmillo"], BLUE: ["Elephant"]})
    assert st.scores()[:2] == [12, 12]
    assert st.returns()[:2] == [0.0, 1.0]  # equal provinces, Blue's hand is worth more
    st = over({RED: ["Macedonia"], BLUE: ["Numidia"]}, player_fields=base,
              hands={RED: ["Lion"], BLUE: ["Bear"]})
    assert st.returns() == [0.5, 0.5, 0.0, 0.0]
    st = over({RED: ["Macedonia", "Etruria"], BLUE: ["Numidia"]},
              player_fields={RED: {"vp_forum": 8}, BLUE: {"vp_forum": 12}})
    # Red 8 + Greko 2 + Italia 2 = 12 with two provinces; Blue 12 + Africa 2 = 14 wins
    assert st.scores()[:2] == [12, 14] and st.returns()[:2] == [0.0, 1.0]
