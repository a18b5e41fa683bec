"""Rules of play: each building effect, production, paying, city shape, aqueducts,
the strips, the offer, influence scoring, the draft and the 2-player game."""

from __future__ import annotations

import pytest
from gcr_helpers import START, gcr, main_phase

import romecore
from romecore.games.great_city_of_rome import data


def build(state: romecore.State, building: str, row: int, col: int) -> None:
    state.apply_action(state.string_to_action(f"build {building}"))
    state.apply_action(state.string_to_action(f"build {building} at ({row},{col})"))


def player(state, p=0):
    return state.to_dict()["players"][p]


def cell_of(state, p, row, col):
    for e in player(state, p)["city"]:
        if (e["row"], e["col"]) == (row, col):
            return e
    return None


# -- public buildings -------------------------------------------------------------------

CROSS = START + [("Residential 3", 2, 3), ("Residential 3", 4, 3)]  # (3,3) has 3 neighbours then


def test_market_gives_a_coin_per_adjacent_building():
    st = main_phase(hand=["Market"], coins=5, city_cells=START + [("Residential 3", 2, 3)], bricks=3)
    build(st, "Market", 2, 2)  # neighbours: (3,2) farm, (2,3) house
    assert player(st)["coins"] == 5 + 2


def test_forum_romanum_gives_one_more_coin():
    st = main_phase(hand=["Forum Romanum"], coins=5, city_cells=START, bricks=3)
    build(st, "Forum Romanum", 2, 2)  # neighbour: the farm
    assert player(st)["coins"] == 5 + 1 + 1


def test_arena_and_colosseum_give_influence():
    st = main_phase(hand=["Arena"], city_cells=CROSS, bricks=3)
    build(st, "Arena", 3, 4)  # neighbours: (3,3) only
    assert player(st)["influence"] == 1
    st = main_phase(hand=["Colosseum"], city_cells=CROSS, bricks=3)
    build(st, "Colosseum", 2, 2)  # neighbours: (3,2) farm, (2,3) house
    assert player(st)["influence"] == 2 + 1


def test_thermal_baths_take_a_point_token_per_neighbour():
    st = main_phase(hand=["Thermal Baths"], city_cells=CROSS, bricks=3)
    build(st, "Thermal Baths", 2, 2)
    assert cell_of(st, 0, 2, 2)["tokens"] == 2
    st = main_phase(hand=["Imperial Thermal Baths"], city_cells=CROSS, bricks=3)
    build(st, "Imperial Thermal Baths", 2, 2)
    assert cell_of(st, 0, 2, 2)["tokens"] == 3


def test_school_draws_keeps_one_and_orders_the_rest_under_the_deck():
    st = main_phase(hand=["School"], city_cells=CROSS, bricks=3)
    build(st, "School", 2, 2)  # 2 neighbours: draw 2 from a deck of the player's choice
    assert st.legal_actions() == [109, 110, 111]  # decks II, III, IV
    st.apply_action(st.string_to_action("School draws from deck III"))
    assert st.is_chance_node()
    outcomes = dict(st.chance_outcomes())
    assert abs(sum(outcomes.values()) - 1) < 1e-12
    market = data.TYPE_ID["Market"] + 122
    aqueduct = data.TYPE_ID["Aqueduct"] + 122
    st.apply_action(market)
    st.apply_action(aqueduct)
    # keep one of the two; the other goes under deck III
    st.apply_action(st.string_to_action("keep Aqueduct"))
    hand = [c["building"] for c in player(st)["hand"]]
    assert hand == ["Aqueduct"]
    deck3 = st.to_dict()["decks"][2]
    assert len(deck3["bottom"]) == 1
    assert player(st)["hand"][0]["deck"] == "III"
    assert not st.is_chance_node() and st.current_player() == 0


def test_school_bottom_order_is_the_players_choice_and_drawn_in_that_order():
    cells = START + [("Residential 3", 2, 3), ("Residential 3", 4, 3), ("Residential 2", 3, 4)]
    st = main_phase(hand=["University"], city_cells=cells, bricks=3)
    build(st, "University", 2, 4)  # neighbours (2,3) and (3,4), +1 for the University: 3 draws
    st.apply_action(st.string_to_action("School draws from deck II"))
    for name in ("Grain Farm", "Sheep Farm", "Market"):
        st.apply_action(data.TYPE_ID[name] + 122)
    st.apply_action(st.string_to_action("keep Sheep Farm"))
    # choose which goes under first: the Market, then the Grain Farm
    st.apply_action(st.string_to_action("put Market under deck II"))
    bottom = st.to_dict()["decks"][1]["bottom"]
    names = [romecore.games.great_city_of_rome.state.card_name(c) for c in bottom]
    assert names == ["Market", "Grain Farm"]


def test_school_draws_what_is_there_when_the_deck_runs_short():
    # Deck IV emptied except two cards: a 4-draw School takes just those two.
    g = gcr(4)
    base = main_phase(hand=["University"], city_cells=CROSS + [("Residential 2", 3, 4)], bricks=3)
    d = base.to_dict()
    pool4 = d["decks"][3]["pool"]
    d["box"] += pool4[2:]
    d["decks"][3]["pool"] = pool4[:2]
    for c in pool4[2:]:
        d["known"].pop(c, None)
    st = g.state_from_dict(d)
    build(st, "University", 2, 4)
    st.apply_action(st.string_to_action("School draws from deck IV"))
    draws = 0
    while st.is_chance_node():
        st.apply_random_chance()
        draws += 1
    assert draws == 2


def test_stars_give_influence_when_built():
    st = main_phase(hand=["Temple of Mars"], city_cells=START, bricks=2)
    build(st, "Temple of Mars", 2, 2)
    assert player(st)["influence"] == 3


# -- paying -------------------------------------------------------------------------------

def test_missing_bricks_cost_two_coins_each():
    st = main_phase(hand=["Temple of Minerva"], coins=5, city_cells=START, bricks=1)
    build(st, "Temple of Minerva", 2, 2)  # cost 3: 1 brick + 2 bought
    assert player(st)["coins"] == 1


def test_cannot_build_what_one_cannot_pay():
    st = main_phase(hand=["Temple of Minerva"], coins=3, city_cells=START, bricks=1)
    assert st.string_to_action("end turn") in st.legal_actions()
    with pytest.raises(romecore.IllegalActionError, match="cannot pay"):
        st.apply_action(64 + data.TYPE_ID["Temple of Minerva"])


def test_brick_tokens_pay_before_coins():
    cells = START + [("Grain Farm", 2, 2, 1), ("Vineyard", 2, 3, 1)]
    st = main_phase(hand=["Market"], coins=5, city_cells=cells, bricks=0)
    build(st, "Market", 4, 2)  # cost 3: two tokens, then one brick bought for 2 coins
    assert player(st)["coins"] == 3 + 1  # and the market earns 1 (the farm above it)
    assert cell_of(st, 0, 2, 2).get("tokens", 0) == 0
    assert cell_of(st, 0, 2, 3).get("tokens", 0) == 0


def test_produce_needs_two_cogs_and_buys_the_rest():
    st = main_phase(coins=5, city_cells=START + [("Vegetable Farm", 2, 2)], cogs=1)
    st.apply_action(st.string_to_action("produce"))
    assert player(st)["coins"] == 5 - 1 + 2


# -- production ---------------------------------------------------------------------------

def test_each_production_building_produces_once():
    cells = START + [("Grain Farm", 2, 2), ("Sheep Farm", 2, 3), ("Vineyard", 4, 2), ("Sheep Farm", 4, 3)]
    st = main_phase(hand=["Aqueduct"], coins=5, city_cells=cells, cogs=2, bricks=1)
    st.apply_action(st.string_to_action("produce"))
    p = player(st)
    assert p["coins"] == 5 + 2  # vegetable farm + vineyard
    assert p["influence"] == 2  # two sheep farms
    assert cell_of(st, 0, 2, 2)["tokens"] == 1 and cell_of(st, 0, 4, 2)["tokens"] == 1
    assert st.string_to_action("end turn") in st.legal_actions()
    assert 94 not in st.legal_actions()  # produce only once a turn


def test_grain_farm_holds_at_most_one_token():
    st = main_phase(coins=0, city_cells=[("Grain Farm", 3, 2, 1), ("Residential 2", 3, 3)], cogs=2)
    # a produce would yield nothing: it is not offered
    assert 94 not in st.legal_actions()


def test_tokens_placed_by_produce_can_pay_the_same_turn():
    cells = START + [("Grain Farm", 2, 2)]
    st = main_phase(hand=["Residential 3"], coins=0, city_cells=cells, cogs=2, bricks=1)
    st.apply_action(st.string_to_action("produce"))
    build(st, "Residential 3", 4, 2)  # cost 2: a brick + the new token
    assert cell_of(st, 0, 2, 2).get("tokens", 0) == 0


def test_build_and_produce_in_either_order_once_each():
    st = main_phase(hand=["Residential 2", "Residential 2"], city_cells=START, bricks=3, cogs=2)
    build(st, "Residential 2", 2, 2)
    assert 64 + data.TYPE_ID["Residential 2"] not in st.legal_actions()
    st.apply_action(st.string_to_action("produce"))
    assert st.current_player() != 0 or st.to_dict()["turn"]["space"] != 4


# -- city shape ---------------------------------------------------------------------------

def test_building_must_touch_the_city_and_fit_four_by_four():
    cells = [("Vegetable Farm", 3, 1), ("Residential 2", 3, 2), ("Residential 2", 3, 3), ("Residential 2", 3, 4)]
    st = main_phase(hand=["Residential 2"], city_cells=cells, bricks=3)
    st.apply_action(st.string_to_action("build Residential 2"))
    legal = {(a >> 3, a & 7) for a in st.legal_actions()}
    assert (3, 0) not in legal and (3, 5) not in legal  # a fifth in the row
    assert (2, 1) in legal and (4, 4) in legal
    assert (1, 1) not in legal  # not adjacent
    with pytest.raises(romecore.IllegalActionError, match="larger than 4x4"):
        st.apply_action(3 * 8 + 5)
    with pytest.raises(romecore.IllegalActionError, match="not next to"):
        st.apply_action(1 * 8 + 1)
    with pytest.raises(romecore.IllegalActionError, match="already built"):
        st.apply_action(3 * 8 + 2)


def test_aqueducts_one_per_row_and_column():
    cells = START + [("Aqueduct", 2, 2)]
    st = main_phase(hand=["Aqueduct"], city_cells=cells, bricks=1)
    st.apply_action(st.string_to_action("build Aqueduct"))
    legal = {(a >> 3, a & 7) for a in st.legal_actions()}
    assert all(r != 2 and c != 2 for r, c in legal)
    assert (3, 3) in legal  # replacing the 2-house
    with pytest.raises(romecore.IllegalActionError, match="row or column"):
        st.apply_action(2 * 8 + 3)


def test_aqueduct_replaces_a_building_which_goes_to_the_box():
    cells = START + [("Thermal Baths", 2, 3, 3)]
    st = main_phase(hand=["Grand Aqueduct"], city_cells=cells, bricks=1)
    st.apply_action(st.string_to_action("build Grand Aqueduct"))
    st.apply_action(st.string_to_action("build Grand Aqueduct at (2,3) replacing Thermal Baths"))
    assert cell_of(st, 0, 2, 3)["building"] == "Grand Aqueduct"
    boxed = [romecore.games.great_city_of_rome.state.card_name(c) for c in st.to_dict()["box"]]
    assert "Thermal Baths" in boxed
    assert player(st)["influence"] == 1  # the Grand Aqueduct's star


def test_aqueduct_cannot_replace_an_aqueduct():
    cells = START + [("Aqueduct", 2, 3)]
    st = main_phase(hand=["Aqueduct"], city_cells=cells, bricks=1)
    st.apply_action(st.string_to_action("build Aqueduct"))
    assert 2 * 8 + 3 not in st.legal_actions()


# -- strips, offer and turn order -----------------------------------------------------------

def test_emissary_gains_the_symbols_up_to_its_space():
    st = main_phase(space=2, face="BCCBB", hand=[], city_cells=START)
    t = st.to_dict()["turn"]
    assert (t["bricks"], t["cogs"]) == (1, 2)


def test_strips_walk_fronts_then_backs_then_fronts():
    g = gcr(3)
    st = g.new_initial_state(seed=5)
    faces = []
    while not st.is_terminal():
        if st.to_dict()["phase"] == "emissary" and st.to_dict()["emissaries_placed"] == 0:
            faces.append(st.observation(0)["face"])
        st.apply_action(st.legal_actions()[0]) if not st.is_chance_node() else st.apply_random_chance()
    assert len(faces) == 14
    fronts = faces[:6]
    assert sorted(fronts) == sorted(data.STRIP_FRONTS)
    assert faces[6:12] == [f[::-1] for f in fronts]
    assert faces[12:] == fronts[:2]


def test_action_order_follows_the_emissaries_and_first_player_passes_clockwise():
    g = gcr(4)
    st = g.new_initial_state(seed=3)
    while st.is_chance_node() or st.to_dict()["phase"] in ("draft_pick",):
        st.apply_random_chance() if st.is_chance_node() else st.apply_action(st.legal_actions()[0])
    assert st.to_dict()["phase"] == "emissary"
    # placement order: first player (0) then clockwise
    placed = []
    for k in (4, 0, 2, 1):
        placed.append(st.current_player())
        st.apply_action(100 + k)
    assert placed == [0, 1, 2, 3]
    # action order: space 1 (player 1), 2 (player 3), 3 (player 2), 5 (player 0)
    order = []
    while st.to_dict()["round"] == 1:
        if st.is_chance_node():
            st.apply_random_chance()
            continue
        p = st.current_player()
        if not order or order[-1] != p:
            order.append(p)
        legal = st.legal_actions()
        st.apply_action(95 if 95 in legal else legal[0])
    assert order[:4] == [1, 3, 2, 0]
    assert st.to_dict()["first_player"] == 1


def test_taking_from_the_offer_is_compulsory_and_public():
    g = gcr(4)
    st = g.new_initial_state(seed=11)
    while st.to_dict()["phase"] != "take":
        st.apply_random_chance() if st.is_chance_node() else st.apply_action(st.legal_actions()[0])
    p = st.current_player()
    assert all(96 <= a < 100 for a in st.legal_actions())
    taken = st.action_to_string(st.legal_actions()[0])
    st.apply_action(st.legal_actions()[0])
    name = taken.split("take ")[1].split(" (")[0]
    for q in range(4):
        if q != p:
            assert name in st.observation(q)["opponents"][str(p)]["known"]


# -- influence scoring --------------------------------------------------------------------

def _end_of_round(influence, cards_in_play, round_=3, players=4):
    """Last turn of a round: player 0 acts on space 4 with an empty offer."""
    st = main_phase(players=players, round_=round_, city_cells=START,
                    influence_cards=[{"value": v, "holder": "in play"} for v in cards_in_play])
    d = st.to_dict()
    for p, v in enumerate(influence):
        d["players"][p]["influence"] = v
    return gcr(players).state_from_dict(d)


def test_influence_scoring_unique_leader_takes_the_cards_and_returns_tokens():
    st = _end_of_round([5, 2, 1, 0], [3])
    st.apply_action(st.string_to_action("end turn"))
    d = st.to_dict()
    assert [c for c in d["influence_cards"] if c["value"] == 3][0]["holder"] == 0
    assert d["players"][0]["influence"] == 0 and d["players"][1]["influence"] == 2


def test_influence_tie_leaves_cards_in_play_for_the_next_winner():
    st = _end_of_round([4, 4, 1, 0], [3], round_=6)
    # round 6 brings the 6-card into play too, but here it is the end of round 6
    st.apply_action(st.string_to_action("end turn"))
    d = st.to_dict()
    assert all(c["holder"] == "in play" for c in d["influence_cards"] if c["value"] == 3)
    assert d["players"][0]["influence"] == 4
    # next round: a unique leader takes every card in play
    st2 = _end_of_round([4, 6, 1, 0], [3, 6], round_=7)
    st2.apply_action(st2.string_to_action("end turn"))
    holders = {c["value"]: c["holder"] for c in st2.to_dict()["influence_cards"]}
    assert holders[3] == 1 and holders[6] == 1


def test_influence_tie_after_the_last_round_leaves_cards_untaken():
    st = _end_of_round([4, 4, 0, 0], [14], round_=14)
    st.apply_action(st.string_to_action("end turn"))
    assert st.is_terminal()
    holders = {c["value"]: c["holder"] for c in st.to_dict()["influence_cards"]}
    assert holders[14] == "in play"
    assert st.score_breakdown(0)["influence_cards"] == 0


@pytest.mark.parametrize("players,schedule", [(4, {3: 3, 6: 6, 10: 10, 14: 14}), (3, {3: 3, 6: 6, 10: 10, 14: 14}),
                                               (2, {4: 2, 8: 4, 14: 7})])
def test_influence_cards_surface_in_the_printed_rounds(players, schedule):
    st = gcr(players).new_initial_state(seed=1)
    seen = {}
    while not st.is_terminal():
        d = st.to_dict()
        for c in d["influence_cards"]:
            if c["holder"] != "unused" and c["value"] not in seen:
                seen[c["value"]] = d["round"]
        st.apply_random_chance() if st.is_chance_node() else st.apply_action(st.legal_actions()[-1])
    assert seen == schedule


# -- set-up draft and the 2-player game ---------------------------------------------------

def test_setup_draft_passes_counterclockwise_and_first_player_takes_the_last():
    st = gcr(4).new_initial_state(seed=9)
    for _ in range(4):
        st.apply_random_chance()
    pickers = []
    while st.to_dict()["phase"] == "draft_pick":
        pickers.append(st.current_player())
        st.apply_action(st.legal_actions()[0])
    assert pickers == [3, 2, 1]
    d = st.to_dict()
    assert all(len(p["hand"]) == 1 and p["hand"][0]["deck"] == "II" for p in d["players"])
    # the player who passed the last card knows exactly what the first player holds;
    # earlier drafters know only the set they passed on
    first_card = d["players"][0]["hand"][0]["building"]
    assert st.observation(1)["opponents"]["0"]["known"] == [first_card]
    assert st.observation(1)["draft_group"] == []
    assert len(st.observation(2)["draft_group"]) == 2
    assert len(st.observation(3)["draft_group"]) == 3
    assert st.observation(3)["opponents"]["0"]["known"] == []
    assert st.observation(0)["draft_group"] == []
    for p in range(4):  # nobody else sees what a seat kept
        assert all(st.observation(q)["opponents"][str(p)]["hidden_by_deck"].get("II", 0)
                   + st.observation(q)["opponents"][str(p)]["draft_cards_hidden"]
                   + len(st.observation(q)["opponents"][str(p)]["known"]) == 1
                   for q in range(4) if q != p)


def test_two_player_game_shape():
    g = gcr(2)
    st = g.new_initial_state(seed=4)
    rounds = set()
    offers = []
    emissaries = []
    while not st.is_terminal():
        d = st.to_dict()
        rounds.add(d["round"])
        if d["phase"] == "emissary" and d["emissaries_placed"] == 0:
            offers.append([c["deck"] for c in d["offer"]])
        if d["phase"] == "take" and d["turn"]["took"] is False and not emissaries or (
                d["phase"] == "emissary" and d["emissaries_placed"] == 3):
            pass
        if d["phase"] == "emissary":
            emissaries.append(st.current_player())
        st.apply_random_chance() if st.is_chance_node() else st.apply_action(st.legal_actions()[0])
    assert rounds == set(range(1, 8))
    assert all(o == ["I", "I", "II", "II"] for o in offers)
    assert emissaries[:4] == [0, 1, 0, 1] and emissaries[4:8] == [1, 0, 1, 0]
    assert st.to_dict()["decks"][0]["pool"] == []  # all 14 deck I cards came out


def test_three_player_game_uses_decks_one_to_three():
    st = gcr(3).new_initial_state(seed=2)
    st.playout(7)
    d = st.to_dict()
    assert d["decks"][3]["pool"] == [] and len([c for c in d["box"] if 54 <= c < 72]) == 18
