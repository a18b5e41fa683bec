"""Final scoring: the rulebook's worked example with its printed numbers, every temple,
residential areas, aqueducts, influence and tie-breaks."""

from __future__ import annotations

import pytest
from gcr_helpers import city, gcr

# The rulebook's final-scoring example, laid out on a 4x4 grid so that every printed
# number holds: A = lone 2-house next to a red; B = three 2-houses (one luxury) next to
# red, yellow and two baths (4 and 2 tokens); C = two 3-houses (one luxury) next to red
# and the 2-token bath; D = a 4-house next to the 4-token bath; two aqueducts (one the
# Grand Aqueduct); Temples of Fortuna and Luna; 4 stars in all.
EXAMPLE_CITY = city(
    ("Aqueduct", 0, 0), ("Arena", 0, 1), ("Residential 2", 0, 2), ("Market", 0, 3),
    ("Temple of Luna", 1, 0), ("Residential 2", 1, 1), ("Luxury Residential 2", 1, 2),
    ("Thermal Baths", 1, 3, 4),
    ("Residential 2", 2, 0), ("Luxury Residential 3", 2, 1), ("Imperial Thermal Baths", 2, 2, 2),
    ("Residential 4", 2, 3),
    ("Arena", 3, 0), ("Residential 3", 3, 1), ("Grand Aqueduct", 3, 2), ("Temple of Fortuna", 3, 3),
)


def example_state():
    return gcr(4).state_from_dict({
        "round": 14,
        "phase": "over",
        "players": [{"coins": 9, "influence": 3, "city": EXAMPLE_CITY}],
        "influence_cards": [{"value": 3, "holder": 0}],
    })


def test_rulebook_final_scoring_example():
    state = example_state()
    b = state.score_breakdown(0)
    # residential areas 2 + 22 + 14 + 8
    assert b["residential_2"] == 2 + 22
    assert b["residential_3"] == 14
    assert b["residential_4"] == 8
    assert b["residential"] == 46
    assert b["aqueducts"] == 12
    assert b["temple_detail"] == {"Temple of Fortuna": 0, "Temple of Luna": 4}
    assert b["temples"] == 4
    assert b["coins"] == 9
    assert b["influence_tokens"] == 1
    assert b["influence_cards"] == 3
    assert b["total"] == 46 + 12 + 4 + 9 + 1 + 3
    assert state.scores()[0] == 75


def test_area_without_public_neighbour_scores_nothing():
    st = gcr(2).state_from_dict({"phase": "over", "round": 7, "players": [
        {"coins": 0, "city": city(("Residential 3", 0, 0), ("Residential 3", 0, 1), ("Aqueduct", 1, 0))}]})
    assert st.score_breakdown(0)["residential_3"] == 0


def test_same_colour_counts_once_and_best_bath_counts():
    cells = city(("Thermal Baths", 0, 0, 1), ("Residential 2", 0, 1), ("Imperial Thermal Baths", 0, 2, 5),
                 ("Residential 2", 1, 1), ("Arena", 1, 0), ("Colosseum", 1, 2))
    st = gcr(2).state_from_dict({"phase": "over", "round": 7, "players": [{"coins": 0, "city": cells}]})
    # area of two 2-houses (value 4) x colours {blue, red} = 8, plus the 5-token bath
    assert st.score_breakdown(0)["residential_2"] == 4 * 2 + 5


def test_one_public_building_counts_for_several_areas():
    cells = city(("Residential 3", 0, 0), ("Market", 0, 1), ("Residential 4", 0, 2))
    st = gcr(2).state_from_dict({"phase": "over", "round": 7, "players": [{"coins": 0, "city": cells}]})
    b = st.score_breakdown(0)
    assert (b["residential_3"], b["residential_4"]) == (3, 4)


def test_houses_of_different_values_form_separate_areas():
    cells = city(("Residential 2", 0, 0), ("Residential 3", 0, 1), ("Residential 2", 0, 2),
                 ("Market", 1, 1))
    st = gcr(2).state_from_dict({"phase": "over", "round": 7, "players": [{"coins": 0, "city": cells}]})
    b = st.score_breakdown(0)
    assert b["residential_3"] == 3  # the 3-house touches the market
    assert b["residential_2"] == 0  # the two 2-houses are apart and touch no public building


@pytest.mark.parametrize("count,points", [(0, 0), (1, 4), (2, 12), (3, 24), (4, 40)])
def test_aqueduct_table(count, points):
    cells = [("Residential 2", 0, 0), ("Residential 2", 1, 1), ("Residential 2", 2, 2), ("Residential 2", 3, 3),
             ("Residential 3", 0, 1), ("Residential 3", 1, 2), ("Residential 3", 2, 3)]
    for i in range(count):  # aqueducts on the diagonal replace houses there
        cells[i] = ("Aqueduct" if i < 3 else "Grand Aqueduct", i, i)
    st = gcr(4).state_from_dict({"phase": "over", "round": 14, "players": [{"coins": 0, "city": city(*cells)}]})
    assert st.score_breakdown(0)["aqueducts"] == points


def _temple_score(temple, cells, coins=0):
    st = gcr(4).state_from_dict({"phase": "over", "round": 14,
                                 "players": [{"coins": coins, "city": city((temple, 0, 0), *cells)}]})
    return st.score_breakdown(0)["temple_detail"][temple]


FULL_GRID = [(f"Residential {2 + (r + c) % 2}", r, c) for r in range(4) for c in range(4) if (r, c) != (0, 0)]


def test_minerva_needs_sixteen_buildings():
    assert _temple_score("Temple of Minerva", FULL_GRID) == 10
    assert _temple_score("Temple of Minerva", FULL_GRID[:-1]) == 0


def test_fortuna_needs_every_colour():
    four = [("Market", 0, 1), ("Arena", 0, 2), ("School", 0, 3), ("Imperial Thermal Baths", 1, 0)]
    assert _temple_score("Temple of Fortuna", four) == 15
    assert _temple_score("Temple of Fortuna", four[:3]) == 0


def test_cupid_needs_four_two_value_houses():
    houses = [("Residential 2", 0, 1), ("Residential 2", 0, 2), ("Luxury Residential 2", 0, 3), ("Residential 2", 1, 0)]
    assert _temple_score("Temple of Cupid", houses) == 10
    assert _temple_score("Temple of Cupid", houses[:3]) == 0


def test_juno_needs_four_temples_including_itself():
    temples = [("Temple of Luna", 0, 1), ("Temple of Mars", 0, 2), ("Temple of Venus", 0, 3)]
    assert _temple_score("Temple of Juno", temples) == 10
    assert _temple_score("Temple of Juno", temples[:2]) == 0


def test_saturn_needs_four_production_buildings():
    farms = [("Vegetable Farm", 0, 1), ("Grain Farm", 0, 2), ("Sheep Farm", 0, 3), ("Vineyard", 1, 0)]
    assert _temple_score("Temple of Saturn", farms) == 15
    assert _temple_score("Temple of Saturn", farms[:3]) == 0


def test_luna_counts_every_star_including_its_own():
    stars = [("Temple of Mars", 0, 1), ("Luxury Residential 4", 0, 2), ("Grand Aqueduct", 0, 3)]
    assert _temple_score("Temple of Luna", stars) == 1 + 3 + 1 + 1
    assert _temple_score("Temple of Luna", [("Residential 2", 0, 1)]) == 1


def test_mars_needs_a_four_value_house():
    assert _temple_score("Temple of Mars", [("Residential 4", 0, 1)]) == 5
    assert _temple_score("Temple of Mars", [("Luxury Residential 4", 0, 1)]) == 5
    assert _temple_score("Temple of Mars", [("Residential 3", 0, 1)]) == 0


def test_venus_two_points_per_two_value_house():
    houses = [("Residential 2", 0, 1), ("Luxury Residential 2", 0, 2), ("Residential 3", 0, 3)]
    assert _temple_score("Temple of Venus", houses) == 4


def test_jupiter_two_points_per_temple():
    assert _temple_score("Temple of Jupiter", [("Temple of Luna", 0, 1), ("Temple of Cupid", 0, 2)]) == 6


def test_mercury_one_point_per_three_coins_rounded_down():
    assert _temple_score("Temple of Mercury", [("Residential 2", 0, 1)], coins=11) == 3
    assert _temple_score("Temple of Mercury", [("Residential 2", 0, 1)], coins=2) == 0


def _final(players_d, players=3):
    return gcr(players).state_from_dict({"phase": "over", "round": 14, "players": players_d})


def test_winner_has_most_points():
    st = _final([{"coins": 10}, {"coins": 12}, {"coins": 3}])
    assert st.is_terminal()
    assert st.returns() == [0.0, 1.0, 0.0]


def test_tie_broken_by_influence_tokens_then_coins():
    # P0: 9 coins + 2 influence (1 point) = 10; P1: 10 coins + 1 influence = 10.
    st = _final([{"coins": 9, "influence": 2}, {"coins": 10, "influence": 1}, {"coins": 0}])
    assert st.scores()[:2] == [st.scores()[0]] * 2
    assert st.returns() == [1.0, 0.0, 0.0]
    # equal influence: most coins wins.  P1's Market beside its 2-house scores 2 points,
    # so 9 coins + 2 = 11 = P0's 11 coins.
    b_city = city(("Vegetable Farm", 3, 2), ("Residential 2", 3, 3), ("Market", 2, 3))
    st = _final([{"coins": 11}, {"coins": 9, "city": b_city}, {"coins": 0}])
    assert st.scores()[:2] == [11, 11]
    assert st.returns() == [1.0, 0.0, 0.0]


def test_full_tie_shares_the_victory():
    st = _final([{"coins": 7, "influence": 1}, {"coins": 7, "influence": 1}, {"coins": 2}])
    assert st.returns() == [0.5, 0.5, 0.0]
