"""Rules of Rome: City of Marble, one test per rule: set-up, tile placement, sites and
their buildings, fountains, Imperium, drawing, aqueducts, bridges, the final round."""

from __future__ import annotations

import pytest
from cm_helpers import (
    A_DRAW,
    A_DRAW1,
    A_END,
    A_KEEP,
    A_PIPE,
    A_PLAY,
    A_RECALL,
    A_SEND,
    A_SITE,
    A_SPEND,
    BLUE,
    CH_BRIDGE,
    CH_HILL,
    COLOURS,
    GREEN,
    RED,
    YELLOW,
    B,
    data,
    game,
    hills,
    legal_placements,
    make,
    play,
    rim,
    site,
    site_xy,
    spoke,
    tile,
)

S = site(1, 1)   # a site whose neighbours hold no hill in play, bridge or water source
EAST = site(2, 0)  # a neighbour of S (a hill not in play) with the same property


def rim_towards(i, j):
    """The placement across the rim edge between neighbouring sites i and j."""
    for k in range(6):
        try:
            pl = rim(i, k)
        except KeyError:
            continue
        if j in {B.tri_site[t] for t in B.pl_tris[pl]}:
            return pl
    raise KeyError("not neighbours")


def with_stacks(stacks, **fields):
    """Fields for ``make`` with these stacks; every other tile not on the board or in a
    centre box is in the turn player's drawn box (it joins the centre box at the end of the
    turn), so the tiles add up."""
    players = fields.get("players", [])
    n = fields.pop("n")
    drawn = {}
    for _i, c in enumerate(data.COLOURS):
        held = stacks[c.name] + sum(1 for t in fields.get("tiles", []) if t["colour"] == c.name)
        for p in range(n):
            pd = players[p] if p < len(players) else {}
            held += pd.get("tiles", {}).get(c.name, 0) if "tiles" in pd else 1
        drawn[c.name] = c.tiles - held
    return dict(fields, stacks=stacks, drawn=drawn)


def bridge_tiles(*which):
    """One tile on each listed bridge space (their values must be held by someone)."""
    out = []
    for j in which:
        bt = B.bridges[j]
        pl = next(pl for pl in B.tri_pls[bt] if not set(B.pl_tris[pl]) - {bt} & set(B.bridges))
        out.append(tile(pl, "blue"))
    return out


def site_tiles(i, size, colour, last_magistrate=None):
    """A tiling of site i with `size` buildings, and the tile that completes it (last)."""
    layouts = {
        3: [spoke(i, 0), spoke(i, 2), spoke(i, 4)],
        4: [spoke(i, 0), spoke(i, 2), rim(i, 3), rim(i, 4)],
        5: [spoke(i, 0), rim(i, 1), rim(i, 2), rim(i, 3), rim(i, 4)],
        6: [rim(i, k) for k in range(6)],
    }
    pls = layouts[size]
    return [tile(pl, colour) for pl in pls[:-1]], pls[-1]


# -- set-up -------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_reveals_three_hills_then_seat_0_plays(players):
    g = game(players)
    state = g.new_initial_state(seed=3)
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [CH_HILL + h for h in range(7)]
    assert all(abs(p - 1 / 7) < 1e-12 for _, p in outcomes)
    state.apply_action(CH_HILL + 0)
    assert len(state.chance_outcomes()) == 6 and CH_HILL not in state.legal_actions()
    state.apply_action(CH_HILL + 3)
    state.apply_action(CH_HILL + 6)
    d = state.to_dict()
    assert d["phase"] == "action" and state.current_player() == 0 and d["actions_left"] == 2
    assert d["hills"] == [site_xy(B.hills[h]) for h in (0, 3, 6)]
    assert d["stacks"] == {c.name: c.tiles - players for c in data.COLOURS}
    for p in d["players"]:
        assert p["tiles"] == dict.fromkeys(COLOURS, 1)
        assert p["magistrates"]["centre"] == 3 and p["coins"] == 0 and p["points"] == 0


def test_first_tile_must_touch_a_hill():
    g = game(2)
    state = make(g)
    hill_tris = {t for i in (5, 7, 16) for t in B.site_triangles(i)}
    placements = legal_placements(state, RED)
    assert placements
    for pl in placements:
        tris = B.pl_tris[pl]
        assert not set(tris) & hill_tris
        assert any(n in hill_tris for t in tris for n in B.tri_nbrs[t])
    # and every pair of free triangles next to a hill is offered
    expected = {pl for pl, (a, b) in B.pl_tris.items()
                if not {a, b} & hill_tris and any(n in hill_tris for t in (a, b) for n in B.tri_nbrs[t])}
    assert set(placements) == expected


def _legal_placements(state, colour=RED):
    return legal_placements(state, colour)


def test_a_tile_must_share_an_edge_not_just_a_point():
    g = game(2)
    first = spoke(S, 0)
    state = make(g, hills=hills(5, 7, 16), tiles=[tile(first, GREEN)])
    legal = _legal_placements(state)
    covered = set(B.pl_tris[first])
    hill_sites = {5, 7, 16}
    for pl, (a, b) in B.pl_tris.items():
        if {a, b} & covered or {B.tri_site[a], B.tri_site[b]} & hill_sites:
            assert pl not in legal, "overlapping placement offered"
            continue
        touches_edge = any(n in covered for t in (a, b) for n in B.tri_nbrs[t])
        near_hill = any(B.tri_site[n] in (5, 7, 16) for t in (a, b) for n in B.tri_nbrs[t])
        assert (pl in legal) == (touches_edge or near_hill)
    # a tile meeting the first only at a corner is not legal
    corner = set(B.pl_vertices(first))
    for pl, (a, b) in B.pl_tris.items():
        near_hill = any(B.tri_site[n] in hill_sites for t in (a, b) for n in B.tri_nbrs[t])
        if set(B.pl_vertices(pl)) & corner and not any(n in covered for t in (a, b) for n in B.tri_nbrs[t]) \
                and not {a, b} & covered and not near_hill:
            assert pl not in legal
            break
    else:
        pytest.fail("no corner-touching placement found near the first tile")


def test_tiles_stay_on_the_board_and_off_the_hills():
    assert len(B.pl_tris) == 312 and len(B.tri_verts) == 222
    for a, b in B.pl_tris.values():
        assert len(set(B.tri_verts[a]) & set(B.tri_verts[b])) == 2
    g = game(2)
    state = make(g)
    for pl in _legal_placements(state):
        assert not {B.tri_site[t] for t in B.pl_tris[pl]} & {5, 7, 16}


def test_drawn_tiles_wait_for_the_end_of_the_turn():
    g = game(2)
    state = make(g, players=[{"tiles": {}}, {}])
    assert not any(A_PLAY <= a < A_DRAW for a in state.legal_actions())  # nothing to play
    state.apply_action(A_DRAW + 0)  # red and yellow
    d = state.to_dict()
    assert d["drawn"] == {"red": 1, "yellow": 1, "green": 0, "blue": 0}
    assert d["players"][0]["tiles"] == dict.fromkeys(COLOURS, 0)
    assert not any(A_PLAY <= a < A_DRAW for a in state.legal_actions())
    state.apply_action(A_DRAW + 5)  # green and blue; the turn ends
    d = state.to_dict()
    assert state.current_player() == 1 and d["drawn"] == dict.fromkeys(COLOURS, 0)
    assert d["players"][0]["tiles"] == dict.fromkeys(COLOURS, 1)


def test_magistrates_come_only_from_the_centre_box():
    g = game(2)
    tiles = [tile(spoke(S, 0), GREEN, 0), tile(spoke(S, 2), GREEN, 0), tile(rim(S, 3), BLUE, 0)]
    state = make(g, tiles=tiles)
    legal = state.legal_actions()
    assert A_PLAY + 2 * RED in legal and A_PLAY + 2 * RED + 1 not in legal
    # recall one: it is ready for the next action
    recalls = [a for a in legal if A_RECALL <= a < A_PIPE]
    assert len(recalls) == 3
    state.apply_action(recalls[0])
    assert state.to_dict()["players"][0]["magistrates"]["centre"] == 1
    assert A_PLAY + 2 * RED + 1 in state.legal_actions()


# -- sites --------------------------------------------------------------------------------

BUILDINGS = {3: ("Temple", GREEN, 3), 4: ("Baths", BLUE, 4), 5: ("Theater", YELLOW, 5), 6: ("Arena", RED, 6)}


@pytest.mark.parametrize("size", [3, 4, 5, 6])
def test_site_size_sets_the_building_and_its_points(size):
    name, colour, points = BUILDINGS[size]
    g = game(2)
    tiles, last = site_tiles(S, size, colour)
    state = make(g, tiles=tiles)
    play(state, last, colour, magistrate=True)
    d = state.to_dict()
    assert {"site": site_xy(S), "building": name, "owner": 0} in d["sites"]
    assert d["players"][0]["points"] == points and d["players"][1]["points"] == 0
    assert d["phase"] == "send" and state.legal_actions() == [A_SEND + 0, A_KEEP]
    state.apply_action(A_SEND + 0)
    d = state.to_dict()
    assert d["players"][0]["magistrates"]["imperium"][data.COLOURS[colour].name] == 1


def test_magistrate_on_another_colour_has_no_influence():
    g = game(2)
    tiles, last = site_tiles(S, 3, GREEN)
    tiles[0]["magistrate"] = 1              # player 1 on a green tile: influence 1
    state = make(g, tiles=tiles)
    play(state, last, BLUE, magistrate=True)   # player 0 on a blue tile: none in a Temple
    d = state.to_dict()
    assert {"site": site_xy(S), "building": "Temple", "owner": 1} in d["sites"]
    assert d["players"][1]["points"] == 3 and d["players"][0]["points"] == 0
    # both may still move their magistrate to the Temple Imperium, player 0 first
    assert state.current_player() == 0 and state.legal_actions() == [A_SEND + 0, A_KEEP]
    state.apply_action(A_KEEP)
    assert state.current_player() == 1


def test_tied_influence_builds_a_fountain_and_the_treasury_pays_a_coin():
    g = game(2)
    tiles, last = site_tiles(S, 3, GREEN)
    tiles[0]["magistrate"] = 1
    state = make(g, tiles=tiles)
    play(state, last, GREEN, magistrate=True)
    d = state.to_dict()
    assert {"site": site_xy(S), "fountain": True} in d["sites"]
    assert d["players"][0]["points"] == 0 and d["players"][1]["points"] == 0
    state.apply_action(A_SEND + 0)           # player 0 to the Treasury
    assert "Treasury" in state.action_to_string(A_SEND + 0)
    state.apply_action(A_SEND + 0)           # player 1 too
    d = state.to_dict()
    assert [p["magistrates"]["treasury"] for p in d["players"]] == [1, 1]
    state.apply_action(A_DRAW + 0)           # player 0's second action ends the turn
    d = state.to_dict()
    assert [p["coins"] for p in d["players"]] == [1, 0]
    assert [p["magistrates"]["treasury"] for p in d["players"]] == [0, 1]


def test_no_influence_builds_a_fountain():
    g = game(2)
    tiles, last = site_tiles(S, 6, RED)
    state = make(g, tiles=tiles)
    play(state, last, RED)
    d = state.to_dict()
    assert {"site": site_xy(S), "fountain": True} in d["sites"]
    assert d["phase"] == "action" and d["actions_left"] == 1   # nobody had a magistrate there


FOUNTAIN_SITES = [(-3, 0), (-3, 1), (-3, 2), (-2, -1), (-2, 1), (-1, -2), (-1, -1), (-1, 0),
                  (-1, 3), (0, 3)]


def test_with_no_fountain_left_a_tied_site_stays_empty():
    g = game(2)
    tiles = []
    for st in FOUNTAIN_SITES:
        i = site(*st)
        tiles += [tile(spoke(i, k), ("red", "yellow", "green", "blue")[len(tiles) % 4]) for k in (0, 2, 4)]
    site_t, last = site_tiles(S, 3, GREEN)
    site_t[0]["magistrate"] = 1
    state = make(g, tiles=tiles + site_t,
                 sites=[{"site": list(st), "fountain": True} for st in FOUNTAIN_SITES],
                 players=[{"tiles": {"green": 1}}, {"tiles": {}}])
    play(state, last, GREEN, magistrate=True)
    d = state.to_dict()
    assert {"site": site_xy(S), "empty": True} in d["sites"]
    assert sum(1 for x in d["sites"] if x.get("fountain")) == 10
    assert d["phase"] == "action"            # nothing built: nobody moves a magistrate
    assert "fountains left 0" in str(state)


def test_a_tile_completing_two_sites_lets_its_player_choose_the_order():
    """A rim tile completes both its sites.  Its magistrate can only leave once, so the
    order matters and the placer chooses."""
    g = game(2)
    a_, b_ = S, EAST
    pl = rim_towards(S, EAST)
    # fill both sites with rim tiles (six buildings each) except the one they share
    tiles = [tile(rim(i, k), GREEN) for i in (a_, b_) for k in range(6) if rim(i, k) != pl]
    state = make(g, tiles=tiles, players=[{"tiles": {"red": 1}}, {"tiles": {}}])
    play(state, pl, RED, magistrate=True)
    d = state.to_dict()
    assert d["phase"] == "order"
    assert sorted(state.legal_actions()) == sorted([A_SITE + a_, A_SITE + b_])
    first = max(a_, b_)
    other_order = state.clone()
    state.apply_action(A_SITE + first)
    d = state.to_dict()
    assert {"site": site_xy(first), "building": "Arena", "owner": 0} in d["sites"]
    state.apply_action(A_SEND + 0)           # the magistrate leaves for the Arena Imperium
    d = state.to_dict()
    other = min(a_, b_)
    assert {"site": site_xy(other), "fountain": True} in d["sites"]   # no influence left
    # the other order builds the Arena on the other site
    other_order.apply_action(A_SITE + other)
    other_order.apply_action(A_SEND + 0)
    d = other_order.to_dict()
    assert {"site": site_xy(other), "building": "Arena", "owner": 0} in d["sites"]
    assert {"site": site_xy(first), "fountain": True} in d["sites"]


def test_without_a_shared_magistrate_two_completions_resolve_without_asking():
    g = game(2)
    b_ = EAST
    pl = rim_towards(S, EAST)
    tiles = [tile(rim(i, k), GREEN) for i in (S, b_) for k in range(6) if rim(i, k) != pl]
    state = make(g, tiles=tiles)
    play(state, pl, RED)
    d = state.to_dict()
    assert d["phase"] == "action"
    assert {"site": site_xy(S), "fountain": True} in d["sites"]
    assert {"site": site_xy(b_), "fountain": True} in d["sites"]


# -- Imperium -----------------------------------------------------------------------------

def test_imperium_buys_an_extra_action_and_its_colour_goes_back():
    g = game(2)
    state = make(g, players=[{"imperium": {"red": 1, "blue": 2}}, {}])
    state.apply_action(A_DRAW + 0)
    state.apply_action(A_DRAW + 0)
    assert state.legal_actions() == [A_SPEND + RED, A_SPEND + BLUE, A_END]
    state.apply_action(A_SPEND + BLUE)
    d = state.to_dict()
    assert d["phase"] == "action" and d["actions_left"] == 1
    assert d["players"][0]["imperium"] == {"red": 1, "yellow": 0, "green": 0, "blue": 1}
    state.apply_action(A_DRAW + 0)
    assert state.legal_actions() == [A_SPEND + RED, A_SPEND + BLUE, A_END]
    state.apply_action(A_END)
    assert state.current_player() == 1
    assert state.to_dict()["drawn"] == dict.fromkeys(COLOURS, 0)


def test_imperium_space_pays_at_the_end_of_the_owners_turn_while_tiles_last():
    g = game(2)
    state = make(g, players=[{"magistrates": {"imperium": {"green": 1, "red": 1}}},
                             {"imperium": {"red": 12}}])
    state.apply_action(A_DRAW + 0)
    state.apply_action(A_DRAW + 0)
    d = state.to_dict()
    assert d["players"][0]["imperium"] == {"red": 0, "yellow": 0, "green": 1, "blue": 0}
    assert d["players"][0]["magistrates"]["centre"] == 3   # both came home


def test_final_round_trigger_one_action_each_without_imperium():
    g = game(3)
    state = make(g, **with_stacks({"red": 0, "yellow": 0, "green": 1, "blue": 6}, n=3,
                                  players=[{"imperium": {"red": 2}}, {"imperium": {"red": 1}}, {}]))
    state.apply_action(A_DRAW + 5)          # green and blue: three stacks empty
    state.apply_action(A_DRAW1 + BLUE)      # only blue is left: two blue tiles
    d = state.to_dict()
    assert d["stacks"] == {"red": 0, "yellow": 0, "green": 0, "blue": 3}
    state.apply_action(A_END)               # the trigger is checked at the end of the turn
    d = state.to_dict()
    assert d["final_turns_left"] == 3 and state.current_player() == 1 and d["actions_left"] == 1
    order = []
    while not state.is_terminal():
        p = state.current_player()
        order.append(p)
        legal = state.legal_actions()
        assert not any(A_SPEND <= a <= A_END for a in legal)
        draws = [a for a in legal if A_DRAW <= a < A_RECALL]
        state.apply_action(draws[0] if draws else legal[0])
        while not state.is_terminal() and state.current_player() == p:
            state.apply_action(state.legal_actions()[0])
    assert order == [1, 2, 0]


def test_drawing_rules_when_stacks_run_low():
    g = game(2)
    state = make(g, **with_stacks({"red": 0, "yellow": 0, "green": 0, "blue": 1}, n=2))
    assert [a for a in state.legal_actions() if A_DRAW <= a < A_RECALL] == [A_DRAW1 + BLUE]
    before = state.to_dict()["drawn"]["blue"]
    state.apply_action(A_DRAW1 + BLUE)
    assert state.to_dict()["drawn"]["blue"] == before + 1
    state = make(g, **with_stacks({"red": 3, "yellow": 0, "green": 0, "blue": 0}, n=2))
    assert [a for a in state.legal_actions() if A_DRAW <= a < A_RECALL] == [A_DRAW1 + RED]
    before = state.to_dict()["drawn"]["red"]
    state.apply_action(A_DRAW1 + RED)
    assert state.to_dict()["drawn"]["red"] == before + 2
    state = make(g, **with_stacks({"red": 3, "yellow": 0, "green": 2, "blue": 0}, n=2))
    assert [a for a in state.legal_actions() if A_DRAW <= a < A_RECALL] == [A_DRAW + 1]   # red+green


def test_a_player_who_cannot_act_passes():
    """Player 0 draws the last tile and has nothing left to do: the rest of the turn is
    passed, the final round begins, player 1 (nothing to do either) passes, and player 0
    plays the tile as the last action of the game."""
    g = game(2)
    state = make(g, **with_stacks({"red": 0, "yellow": 0, "green": 0, "blue": 1}, n=2,
                                  players=[{"tiles": {}}, {"tiles": {}}]))
    drawn = state.to_dict()["drawn"]
    state.apply_action(A_DRAW1 + BLUE)
    d = state.to_dict()
    assert state.current_player() == 0 and d["final_turns_left"] == 1 and d["actions_left"] == 1
    assert d["players"][0]["tiles"] == dict(drawn, blue=drawn["blue"] + 1)
    assert d["players"][1]["tiles"] == dict.fromkeys(COLOURS, 0)
    assert all(A_PLAY <= a < A_DRAW for a in state.legal_actions())
    state.apply_action(A_PLAY + 2 * BLUE)
    while not state.is_terminal():
        assert state.current_player() == 0
        state.apply_action(state.legal_actions()[0])


# -- aqueducts ----------------------------------------------------------------------------

def _aq_state(g, path, tiles, **kw):
    return make(g, tiles=tiles, aqueducts=[{"path": [list(v) for v in path]}], **kw)


GRAY_SITE = site(3, 0)


def test_aqueduct_pieces_lie_on_tile_edges_and_never_on_a_diagonal():
    g = game(2)
    t0 = spoke(GRAY_SITE, 0)       # its diagonal is the spoke from the source to the centre
    state = _aq_state(g, [B.verts[B.water[0]]], [tile(t0, GREEN)],
                      hills=hills(site(2, 0), 5, 7))
    legal = [a for a in state.legal_actions() if A_PIPE <= a < A_SEND]
    assert legal and all(a < A_PIPE + 6 for a in legal)
    ends = set()
    for a in legal:
        c = state.clone()
        c.apply_action(a)
        ends.add(tuple(c.to_dict()["aqueducts"][0]["path"][1]))
    centre = B.centres[GRAY_SITE]
    assert centre not in ends                       # the tile's own diagonal
    tile_verts = set(B.pl_vertices(t0))
    assert ends <= tile_verts                       # along the tile's outer sides


def test_expand_places_two_pieces_or_one_when_only_one_fits():
    g = game(2)
    tiles = [tile(spoke(GRAY_SITE, k), c) for k, c in ((0, GREEN), (2, GREEN), (4, GREEN))]
    state = _aq_state(g, [B.verts[B.water[0]]], tiles, hills=hills(site(2, 0), 5, 7),
                      sites=[{"site": [3, 0], "fountain": True}])
    first = [a for a in state.legal_actions() if A_PIPE <= a < A_SEND]
    state.apply_action(first[0])
    d = state.to_dict()
    assert d["phase"] == "expand" and len(d["aqueducts"][0]["path"]) == 2
    assert d["players"][0]["coins"] == 1            # the piece connects to the fountain
    state.apply_action(state.legal_actions()[0])
    d = state.to_dict()
    assert d["phase"] == "action" and d["actions_left"] == 1
    assert len(d["aqueducts"][0]["path"]) == 3 and d["players"][0]["coins"] == 2


def test_aqueducts_never_touch_each_other_or_a_foreign_water_source():
    g = game(2)
    # random games: paths are simple and apart (checked for every finished game here;
    # validate() checks it on every snapshot as well)
    for seed in range(300):
        s = g.new_initial_state(seed=seed)
        s.playout(seed)
        seen = set()
        for i, aq in enumerate(s.to_dict()["aqueducts"]):
            path = [tuple(v) for v in aq["path"]]
            assert len(path) == len(set(path))
            assert not seen & set(path)
            seen |= set(path)
            for v in path[1:]:
                assert B.vert_id[v] not in B.water
            if aq["started"]:
                assert path[0] == B.verts[B.water[i]]


def test_a_tile_at_a_water_source_must_start_its_aqueduct():
    g = game(2)
    state = make(g, hills=hills(site(2, 0), 5, 7), tiles=[tile(spoke(GRAY_SITE, 2), GREEN)])
    play(state, spoke(GRAY_SITE, 0), RED)
    d = state.to_dict()
    assert d["phase"] == "aqueduct_start" and d["aqueducts"][0]["started"]
    assert A_END not in state.legal_actions()   # no way to decline


def test_expand_takes_one_piece_when_only_one_fits_then_stops():
    g = game(2)
    t0 = spoke(GRAY_SITE, 0)
    c = B.centres[GRAY_SITE]
    src = B.verts[B.water[0]]
    path = [src, (c[0] + 0, c[1] + 1), c]        # source, rim vertex 1, the centre
    state = _aq_state(g, path, [tile(t0, GREEN)], hills=hills(site(2, 0), 5, 7))
    pipes = [a for a in state.legal_actions() if A_PIPE <= a < A_SEND]
    assert pipes == [A_PIPE + 5]                  # only along the tile's side, to c + (1,-1)
    state.apply_action(A_PIPE + 5)
    d = state.to_dict()
    assert d["phase"] == "action" and d["actions_left"] == 1   # no second piece fits
    assert d["aqueducts"][0]["path"][-1] == [c[0] + 1, c[1] - 1]
    assert not any(A_PIPE <= a < A_SEND for a in state.legal_actions())


def test_fountain_coins_only_while_the_supply_lasts():
    g = game(2)
    tiles = [tile(spoke(GRAY_SITE, k), GREEN) for k in (0, 2, 4)]
    state = _aq_state(g, [B.verts[B.water[0]]], tiles, hills=hills(site(2, 0), 5, 7),
                      sites=[{"site": [3, 0], "fountain": True}],
                      players=[{"coins": 7}, {"coins": 9}])
    state.apply_action([a for a in state.legal_actions() if A_PIPE <= a < A_SEND][0])
    assert [p["coins"] for p in state.to_dict()["players"]] == [7, 9]


def test_a_piece_on_a_spoke_connects_to_its_own_fountain():
    """Gray aqueduct around the Fountain at (3,0): the piece (7,-4) -> (6,-3) is spoke 5 of
    that hexagon (between the spoke tiles 4 and 0, not a diagonal), so it pays one coin."""
    g = game(2)
    tiles = [tile(spoke(GRAY_SITE, k), GREEN) for k in (0, 2, 4)]
    state = _aq_state(g, [(7, -3), (7, -4)], tiles, hills=hills(site(2, 0), 5, 7),
                      sites=[{"site": [3, 0], "fountain": True}])
    assert B.centres[GRAY_SITE] == (6, -3)
    to_centre = A_PIPE + data.DIRS.index((-1, 1))
    assert to_centre in state.legal_actions()
    state.apply_action(to_centre)
    d = state.to_dict()
    assert d["aqueducts"][0]["path"][-2:] == [[7, -4], [6, -3]]
    assert [p["coins"] for p in d["players"]] == [1, 0]


def test_a_piece_on_a_spoke_connects_to_that_site_and_no_other():
    """The path (7,-3) -> (6,-2) -> (5,-1) runs along a spoke of Julia's Temple at (2,1)
    (centre (5,-1)): the Temple is connected, Octavia's Temple at (3,-3) far away is not."""
    g = game(2)
    julia, octavia = 0, 1
    temple, far = site(2, 1), site(3, -3)
    assert B.centres[temple] == (5, -1)
    # spoke tiles 0, 2, 4: the spoke towards (6,-2) (direction 5) is a boundary, not a diagonal
    assert (6 - 5, -2 + 1) == data.DIRS[5]
    tiles = [tile(spoke(temple, k), GREEN) for k in (0, 2, 4)]
    tiles += [tile(spoke(far, k), GREEN) for k in (0, 2, 4)]
    tiles.append(tile(spoke(GRAY_SITE, 1), RED))    # the edge (7,-3)-(6,-2) is its side
    # site (3,-3) holds a bridge space, so its tiles took a bridge tile
    state = _aq_state(g, [(7, -3), (6, -2), (5, -1)], tiles, hills=hills(site(2, 0), 5, 7),
                      sites=[{"site": [2, 1], "building": "Temple", "owner": julia},
                             {"site": [3, -3], "building": "Temple", "owner": octavia}],
                      players=[{}, {"bridges": [1]}])
    assert state.score_breakdown(julia)["aqueducts"] == data.AQUEDUCT_POINTS
    assert state.score_breakdown(octavia)["aqueducts"] == 0


def test_expand_is_only_for_started_aqueducts():
    g = game(2)
    state = make(g)
    assert not any(A_PIPE <= a < A_SEND for a in state.legal_actions())


# -- bridges ------------------------------------------------------------------------------

def test_bridge_tile_value_is_chance_and_known_only_to_its_taker():
    g = game(3)
    bt = B.bridges[0]
    pl = next(q for q in B.tri_pls[bt] if not set(B.pl_tris[q]) - {bt} & set(B.bridges))
    free = set(B.pl_tris[pl])
    # a tile beside it, so that it is legal
    anchor = next(q for t in free for n in B.tri_nbrs[t] if n not in free
                  for q in B.tri_pls[n] if not set(B.pl_tris[q]) & (free | set(B.bridges)))
    state = make(g, tiles=[tile(anchor, GREEN)] + bridge_tiles(1), players=[{"bridges": [4]}, {}, {}])
    play(state, pl, RED)
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    # seven of eight tiles are unseen by the table: the 4 that player 0 holds is gone
    assert outcomes == {CH_BRIDGE + 0: 2 / 7, CH_BRIDGE + 1: 2 / 7, CH_BRIDGE + 2: 2 / 7, CH_BRIDGE + 3: 1 / 7}
    state.apply_action(CH_BRIDGE + 2)
    obs0, obs1 = state.observation(0), state.observation(1)
    assert obs0["players"][0]["bridges"] == [3, 4]
    assert obs1["players"][0]["bridges"] is None and obs1["players"][0]["bridge_count"] == 2
    # resample for player 1 keeps what player 1 knows and redeals player 0's values
    values = set()
    for seed in range(40):
        view = state.resample(1, seed=seed)
        assert view.observation(1) == obs1
        values.add(tuple(view.to_dict()["players"][0]["bridges"]))
    assert len(values) > 3
    # and resample for player 0 changes nothing
    assert state.resample(0, seed=5) == state
    assert state.score_breakdown(0)["bridges"] == 7


def test_observe_action_hides_bridge_values_from_the_others():
    g = game(3)
    for seed in range(200):
        s = g.new_initial_state(seed=seed)
        while not s.is_terminal() and not (s.is_chance_node() and s.to_dict()["phase"] == "bridge"):
            s.apply_action(s.legal_actions()[seed % len(s.legal_actions())] if not s.is_chance_node()
                           else s.sample_chance())
        if not s.is_terminal():
            break
    else:
        pytest.fail("no bridge taken in 200 games")
    taker = s.to_dict()["turn_player"]
    a = s.legal_actions()[0]
    for p in range(3):
        seen = s.observe_action(p, a)
        assert seen == (a if p == taker else (1 << 31) | 1)
    # everything else is public
    t = g.new_initial_state(seed=1)
    t.resolve_chance()
    for a in t.legal_actions():
        assert all(t.observe_action(p, a) == a for p in range(3))


def test_bridge_values_are_revealed_at_the_end():
    g = game(2)
    state = g.new_initial_state(seed=4)
    state.playout(4)
    for p in range(2):
        obs = state.observation(p)
        assert all(isinstance(q["bridges"], list) for q in obs["players"])
        assert obs["scores"] == state.scores()
        assert state.resample(p, seed=1) == state


# -- drawing ------------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_players_drawing_is_the_same_in_every_world_they_consider(players):
    """render(p) shows p's own bridge values and only the count of the others', so two
    resampled worlds draw the same for p; the whole-truth drawings do differ (the check
    can fail)."""
    import random
    g = game(players)
    truth_differs = checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        s = g.new_initial_state(seed=seed)
        step = 0
        while not s.is_terminal():
            if step % 5 == 0:
                for p in range(players):
                    a, b = s.resample(p, 1), s.resample(p, 2)
                    assert a.render(p) == b.render(p) == s.render(p)
                    truth_differs += a.render() != b.render()
                    checked += 1
            s.apply_action(s.sample_chance() if s.is_chance_node() else rng.choice(s.legal_actions()))
            step += 1
    assert checked > 50 and truth_differs > 0


def test_a_players_drawing_shows_their_own_bridge_values_only():
    g = game(2)
    state = make(g, tiles=bridge_tiles(0, 1), players=[{"bridges": [4, 1]}, {}])

    def line_of_p0(text):
        return next(x for x in text.splitlines() if x[1:].startswith("P0: "))

    assert "bridges [1, 4]" in line_of_p0(state.render(0))
    assert "2 bridge(s)" in line_of_p0(state.render(1)) and "[" not in line_of_p0(state.render(1))
    assert "bridges [1, 4]" in line_of_p0(state.render())          # the whole truth


def test_the_map_rows_carry_coordinates():
    """Each vertex row starts with the (q, r) of its leftmost vertex, and q grows by one
    every four columns: the water sources sit where their coordinates say."""
    import re
    g = game(2)
    lines = str(make(g)).splitlines()
    rows = {}
    for line in lines:
        m = re.match(r"^ *\((-?\d+),(-?\d+)\) ", line)
        if m:
            rest = line[m.end():]
            col = m.end() + len(rest) - len(rest.lstrip())   # the leftmost vertex's mark
            rows[int(m.group(2))] = (int(m.group(1)), col, line)
    assert sorted(rows) == sorted({v[1] for v in B.verts})
    for r, (q0, _col, _line) in rows.items():
        assert q0 == min(v[0] for v in B.verts if v[1] == r)
    for w in B.water:
        q, r = B.verts[w]
        q0, col, line = rows[r]
        assert line[col + 4 * (q - q0)] == "o"


# -- end of game --------------------------------------------------------------------------

def test_final_scoring_coins_imperium_and_bridges():
    g = game(3)
    state = make(g, tiles=bridge_tiles(2, 5), players=[
        {"coins": 3, "imperium": {"red": 2, "yellow": 1}, "bridges": [1, 4]},
        {"coins": 3, "imperium": {"red": 1, "yellow": 1, "green": 1}},
        {"coins": 1, "imperium": {"blue": 2}},
    ])
    b = [state.score_breakdown(p) for p in range(3)]
    assert [x["coins"] for x in b] == [3, 3, 1]
    assert [x["most_coins"] for x in b] == [2, 2, 0]
    # red: 0 sole (5); yellow: 0 and 1 tied (2 each); green: 1 sole; blue: 2 sole
    assert [x["imperium"] for x in b] == [5 + 2, 2 + 5, 5]
    assert [x["bridges"] for x in b] == [5, 0, 0]
    assert [x["total"] for x in b] == [3 + 2 + 7 + 5, 3 + 2 + 7, 1 + 5]


def test_no_most_coins_bonus_without_coins():
    g = game(2)
    state = make(g)
    assert [state.score_breakdown(p)["most_coins"] for p in range(2)] == [0, 0]
    assert [state.score_breakdown(p)["imperium"] for p in range(2)] == [0, 0]


def _end(g, players, stacks=None):
    """A state one action from the end: the final round's last turn, player 0 to act."""
    return make(g, **with_stacks(stacks or {"red": 0, "yellow": 0, "green": 0, "blue": 4}, n=2,
                                 players=players, final_turns_left=1, actions_left=1))


def test_ties_break_on_buildings_then_imperium_then_share():
    g = game(2)
    temple = [tile(spoke(S, k), GREEN) for k in (0, 2, 4)]
    # 5 points each (3 coins + most coins; a Temple + 2 coins): the builder wins
    state = make(g, **with_stacks({"red": 0, "yellow": 0, "green": 0, "blue": 4}, n=2, tiles=temple,
                                  sites=[{"site": site_xy(S), "building": "Temple", "owner": 1}],
                                  players=[{"coins": 3}, {"coins": 2}], final_turns_left=1, actions_left=1))
    state.apply_action(A_DRAW1 + BLUE)
    assert state.is_terminal() and state.scores() == [5, 5]
    assert state.returns() == [0.0, 1.0]
    # equal points and buildings: more Imperium tiles wins (5 for yellow vs 5 for red)
    state = _end(g, [{"imperium": {"yellow": 1}}, {"imperium": {"red": 3}}])
    state.apply_action(A_DRAW1 + BLUE)
    assert state.scores() == [5, 5] and state.returns() == [0.0, 1.0]
    # still tied: shared
    state = _end(g, [{"imperium": {"red": 1, "yellow": 1}}, {"imperium": {"green": 1, "blue": 1}}])
    state.apply_action(A_DRAW1 + BLUE)
    assert state.scores() == [10, 10] and state.returns() == [0.5, 0.5]
    assert state.winners() == [0, 1]


# -- forced steps -------------------------------------------------------------------------

def test_a_forced_action_is_taken_by_the_kernel():
    """Player 1 draws the last but two tiles; player 0 can then only draw the last green
    and blue pair (taken without asking), cannot act again (passes), which starts the final
    round with player 1."""
    g = game(2)
    state = make(g, **with_stacks({"red": 0, "yellow": 0, "green": 3, "blue": 3}, n=2,
                                  turn_player=1, players=[{"tiles": {}}, {}]))
    state.apply_action(A_DRAW + 5)
    n = len(state.history())
    state.apply_action(A_DRAW + 5)
    d = state.to_dict()
    assert len(state.history()) == n + 1            # nothing recorded for player 0's turn
    assert d["players"][0]["tiles"] == {"red": 0, "yellow": 0, "green": 1, "blue": 1}
    assert state.current_player() == 1 and d["final_turns_left"] == 2


def test_a_bridge_value_nobody_can_doubt_is_not_a_chance_node():
    g = game(2)
    # six bridges taken (1, 1, 2, 2, 3, 3): both tiles left show 4
    bt = B.bridges[6]
    pl = next(q for q in B.tri_pls[bt] if not set(B.pl_tris[q]) - {bt} & set(B.bridges))
    free = set(B.pl_tris[pl])
    anchor = next(q for t in free for n in B.tri_nbrs[t] if n not in free
                  for q in B.tri_pls[n] if not set(B.pl_tris[q]) & (free | set(B.bridges)))
    state = make(g, tiles=[tile(anchor, GREEN)] + bridge_tiles(0, 1, 2, 3, 4, 5),
                 players=[{"bridges": [1, 2, 3]}, {"bridges": [1, 2, 3]}])
    play(state, pl, RED)
    assert not state.is_chance_node()
    assert state.to_dict()["players"][0]["bridges"] == [1, 2, 3, 4]
