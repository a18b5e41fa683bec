"""The City of Marble heuristic evaluator: registered, in C, values are return estimates,
exact at the end, and it reads the position the way its docstring says."""

from __future__ import annotations

import random

import pytest
from cm_helpers import BLUE, GREEN, YELLOW, game, make, rim, site, spoke, tile

import romecore

heuristics = pytest.importorskip("romecore.games.city_of_marble.heuristic")


def test_registered_native_and_bounded():
    g = game(4)
    ev = romecore.make_evaluator(g, "heuristic")
    assert ev.is_native and ev.game_id == "city_of_marble"
    for seed in range(30):
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            v = ev(s)
            assert len(v) == 4 and all(0.0 <= x <= 1.0 for x in v) and abs(sum(v) - 1) < 1e-9
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        assert ev(s) == s.returns()


def test_estimates_credit_the_influence_leader_of_an_open_site():
    g = game(2)
    i = site(1, 1)
    # five of six triangles covered by two spokes and a rim: it will hold 4 buildings,
    # Baths, and player 1's magistrate stands on a blue tile there
    tiles = [tile(spoke(i, 0), GREEN), tile(spoke(i, 2), BLUE, 1), tile(rim(i, 3), GREEN)]
    s = make(g, tiles=tiles)
    ev = heuristics.CityOfMarbleHeuristic(g)
    e0, e1 = ev.estimates(s)
    assert e1 > e0
    # the same site with the magistrate on a tile of another colour counts for nothing
    s2 = make(g, tiles=[tile(spoke(i, 0), GREEN), tile(spoke(i, 2), YELLOW, 1), tile(rim(i, 3), GREEN)])
    f0, f1 = ev.estimates(s2)
    assert f1 < e1
    # with no lead weight the site is worth nothing
    flat = heuristics.CityOfMarbleHeuristic(g, site_lead=0.0)
    assert flat.estimates(s)[1] == pytest.approx(f1)


def test_points_now_are_the_base_of_the_estimates():
    g = game(3)
    s = make(g, players=[{"coins": 5}, {}, {"imperium": {"red": 1}}])
    ev = heuristics.CityOfMarbleHeuristic(g, tile_in_hand=0, imperium_action=0, free_magistrate=0)
    assert ev.estimates(s) == pytest.approx(s.scores())


def test_bad_weights_and_games_are_refused():
    g = game(2)
    with pytest.raises(ValueError):
        heuristics.CityOfMarbleHeuristic(g, nonsense=1)
    with pytest.raises(ValueError):
        heuristics.CityOfMarbleHeuristic(g, temperature=0)
    other = [x for x in romecore.list_games() if x != "city_of_marble"]
    if other:
        with pytest.raises(ValueError):
            heuristics.CityOfMarbleHeuristic(romecore.load_game(other[0]))


ZERO = {"red": 0, "yellow": 0, "green": 0, "blue": 0}


def player(**fields):
    return {"points": 0, "coins": 0, "tiles": dict(ZERO), "imperium": dict(ZERO),
            "magistrates": {"centre": 3, "treasury": 0, "imperium": dict(ZERO)},
            "bridges": [], **fields}


@pytest.mark.parametrize("better,worse", [
    ({"coins": 5}, {"coins": 2}),                                     # coins score
    ({"tiles": {**ZERO, "red": 2}}, {"tiles": {**ZERO, "red": 1}}),   # a tile more to play
    ({"imperium": {**ZERO, "blue": 1}}, {}),                          # an Imperium tile
])
def test_prefers_the_stronger_position(better, worse):
    g = game(2)
    ev = heuristics.CityOfMarbleHeuristic(g)
    b = make(g, players=[player(**better), player()])
    w = make(g, players=[player(**worse), player()])
    assert ev.estimates(b)[0] > ev.estimates(w)[0]
    assert ev(b)[0] > ev(w)[0]
    assert ev.estimates(b)[1] == pytest.approx(ev.estimates(w)[1])
