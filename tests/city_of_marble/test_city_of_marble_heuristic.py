"""The City of Marble heuristic evaluator: registered, in C, values are return estimates,
exact at the end, and it reads the position the way its docstring says."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from cm_helpers import BLUE, COLOURS, GREEN, YELLOW, B, game, legal_placements, make, rim, site, spoke, tile

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
    ev = heuristics.CityOfMarbleHeuristic(g, tile_in_hand=0, imperium_action=0, free_magistrate=0,
                                      bridge_reach=0, unconnected=0)
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


def _bridge_oracle(state) -> tuple[int, float]:
    """Bridge spaces a tile may cover now and the mean value of the bridge tiles not yet
    taken, recomputed from the board file, the bridge values of the rulings (1, 1, 2, 2,
    3, 3, 4, 4) and the legal tile placements found through the actions."""
    board = json.loads((Path(heuristics.__file__).parent / "board.json").read_text())
    spaces = {B.triangle_of(t) for t in board["bridge_spaces"]}
    d = state.to_dict()
    covered = {B.triangle_of(t) for x in d["tiles"] for t in x["triangles"]}
    held = d["players"][d["turn_player"]]["tiles"]
    colour = next(i for i, c in enumerate(COLOURS) if held[c])
    reach = {t for pl in legal_placements(state, colour) for t in B.pl_tris[pl]} & (spaces - covered)
    pool = [1, 1, 2, 2, 3, 3, 4, 4]
    for p in d["players"]:
        for v in p["bridges"]:
            pool.remove(v)
    return len(reach), sum(pool) / len(pool)


def test_reachable_bridges_go_to_the_player_about_to_act():
    g = game(2)
    base = heuristics.CityOfMarbleHeuristic(g, bridge_reach=0.0)
    bridged = heuristics.CityOfMarbleHeuristic(g, bridge_reach=1.0)
    seen = set()
    for seed in range(12):
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            d = s.to_dict()
            if (d["phase"] == "action" and s.current_player() == d["turn_player"]
                    and sum(d["players"][d["turn_player"]]["tiles"].values())):
                reach, mean = _bridge_oracle(s)
                gain = [b - a for a, b in zip(base.estimates(s), bridged.estimates(s))]
                mover = d["turn_player"]
                assert gain[mover] == pytest.approx(min(reach, d["actions_left"]) * mean)
                assert gain[1 - mover] == 0.0
                seen.add(min(reach, d["actions_left"]))
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
    assert {0, 1, 2} <= seen  # the check ran on positions with none, one and two in reach


def test_buildings_off_the_aqueducts_count_for_their_owner():
    """The rulebook's aqueduct example (see test_city_of_marble_examples): along the whole
    gray aqueduct every civic building is connected; along its first three pieces only
    those the aqueduct example scores (2 points each) are, and the rest count."""
    from test_city_of_marble_examples import AQ_PATH, AQ_TILES

    g = game(3)
    cols = ["red", "yellow", "green", "blue"]
    owners = {(3, 0): 1, (2, -1): 0, (2, 1): 0, (1, 1): 0, (1, 0): 0}
    names = {(3, 0): "Temple", (2, -1): "Arena", (2, 1): "Temple", (1, 1): "Temple",
             (1, 0): "Theater"}
    tiles = [tile(pl, cols[i % 4]) for i, pl in enumerate(AQ_TILES)]
    sites = [{"site": list(k), "building": names[k], "owner": p} for k, p in owners.items()]
    base = heuristics.CityOfMarbleHeuristic(g, unconnected=0.0)
    off = heuristics.CityOfMarbleHeuristic(g, unconnected=1.0)

    def state(pieces: int):
        path = [list(v) for v in AQ_PATH[:pieces + 1]]
        return make(g, tiles=tiles, sites=sites, aqueducts=[{"path": path}])

    whole = state(len(AQ_PATH) - 1)
    assert [b - a for a, b in zip(base.estimates(whole), off.estimates(whole))] == \
        pytest.approx([0, 0, 0])
    start = state(3)
    gain = [b - a for a, b in zip(base.estimates(start), off.estimates(start))]
    owned = [sum(1 for p in owners.values() if p == q) for q in range(3)]
    apart = [owned[q] - start.score_breakdown(q)["aqueducts"] // 2 for q in range(3)]
    assert apart[0] > 0 and gain[0] > 0
    assert gain == pytest.approx([gain[0] / apart[0] * k for k in apart])


def test_the_fitted_table_is_the_search_agents_evaluator():
    """``fitted`` is the heuristic on the fitted table (overrides still apply on top);
    City of Marble's ismcts judges by it by default, greedy by the hand-set table."""
    g = game(2)
    fitted = romecore.make_evaluator(g, "fitted")
    hand = romecore.make_evaluator(g, "heuristic")
    same = heuristics.CityOfMarbleHeuristic(g, **heuristics.FITTED)
    assert fitted.name == "fitted" and hand.name == "heuristic"
    assert fitted.weights == same.weights != hand.weights
    differ = 0
    for seed in range(10):
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(5, 40)):
            if s.is_terminal():
                break
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        assert fitted(s) == pytest.approx(same(s))
        differ += fitted(s) != pytest.approx(hand(s))
    assert differ > 0
    assert heuristics.CityOfMarbleFitted(g, site_lead=0.0).weights["site_lead"] == 0.0
    with pytest.raises(romecore.errors.EvaluatorError):
        heuristics.CityOfMarbleFitted(g, nonsense=1)
    assert romecore.make_agent("ismcts:simulations=10", game=g).evaluator.name == "fitted"
    assert romecore.make_agent("greedy", game=g).evaluator.name == "heuristic"
