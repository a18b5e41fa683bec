"""The rulebook's worked examples, set up through ``state_from_dict`` and checked against
the printed outcomes."""

from __future__ import annotations

import pytest
from cm_helpers import (
    A_KEEP,
    A_PIPE,
    GREEN,
    RED,
    YELLOW,
    B,
    game,
    hills,
    make,
    owner_of,
    play,
    rim,
    site,
    site_xy,
    spoke,
    tile,
    verts,
)

JULIA, CLAUDIA, TIBERIUS = 0, 1, 2


def test_theater_with_julia_claudia_and_tiberius():
    """Julia's yellow tile completes a five-building site: a Theater.  Julia has two
    magistrates on yellow tiles, Claudia one on yellow (her red one does not count) and
    Tiberius one on yellow: Julia builds it and scores 5.  Then Julia sends a magistrate
    from a yellow tile to the Theater Imperium, Claudia sends the one on the red tile,
    Tiberius stays."""
    g = game(3)
    s_ = site(1, 1)
    # five buildings: the spoke tile over triangles 5 and 0, and rim tiles at 1, 2, 3, 4
    last = rim(s_, 4)
    tiles = [
        tile(spoke(s_, 0), YELLOW, JULIA),
        tile(rim(s_, 1), YELLOW, CLAUDIA),
        tile(rim(s_, 2), RED, CLAUDIA),
        tile(rim(s_, 3), YELLOW, TIBERIUS),
    ]
    state = make(g, tiles=tiles)
    before = state.to_dict()["players"][JULIA]["points"]
    play(state, last, YELLOW, magistrate=True)
    d = state.to_dict()
    assert {"site": site_xy(s_), "building": "Theater", "owner": JULIA} in d["sites"]
    assert d["players"][JULIA]["points"] == before + 5
    assert state.score_breakdown(JULIA)["track"] == 5
    # Imperium, in turn order from Julia
    assert d["phase"] == "send" and state.current_player() == JULIA
    names = {state.action_to_string(a): a for a in state.legal_actions()}
    assert len(names) == 3  # either magistrate, or keep both
    julia_send = [a for n, a in names.items() if "Theater Imperium" in n]
    state.apply_action(julia_send[0])
    assert state.current_player() == CLAUDIA
    red_tile = " ".join(f"({q},{r})" for q, r in verts(rim(s_, 2)))
    claudia = [a for a in state.legal_actions()
               if a != A_KEEP and red_tile in state.action_to_string(a)]
    assert len(claudia) == 1
    state.apply_action(claudia[0])
    assert state.current_player() == TIBERIUS
    state.apply_action(A_KEEP)
    d = state.to_dict()
    assert d["phase"] == "action" and state.current_player() == JULIA
    assert d["players"][JULIA]["magistrates"]["imperium"]["yellow"] == 1
    assert d["players"][CLAUDIA]["magistrates"]["imperium"]["yellow"] == 1
    assert d["players"][TIBERIUS]["magistrates"]["imperium"]["yellow"] == 0
    # the red tile lost Claudia's magistrate, Tiberius's stays on his yellow tile
    on = {tuple(map(tuple, t["triangles"][0])): t["magistrate"] for t in d["tiles"]}
    assert list(on.values()).count(CLAUDIA) == 1 and list(on.values()).count(TIBERIUS) == 1
    # Julia collects her Imperium at the end of her own turn; Claudia only at hers
    state.apply_action(state.string_to_action("draw red and yellow"))
    d = state.to_dict()
    assert d["players"][JULIA]["imperium"]["yellow"] == 1
    assert d["players"][JULIA]["magistrates"]["imperium"]["yellow"] == 0
    assert d["players"][CLAUDIA]["imperium"]["yellow"] == 0
    assert d["players"][CLAUDIA]["magistrates"]["imperium"]["yellow"] == 1
    assert state.current_player() == CLAUDIA


def test_hadrians_gray_aqueduct_is_placed_before_the_temple_resolves():
    """Hadrian places a tile touching the gray water source that completes a Temple: he
    first takes three gray pieces and lays them from the source into the city, then the
    Temple is resolved."""
    g = game(2)
    hadrian = 0
    s_ = site(3, 0)                      # the site at the gray source
    assert B.water[0] in {B.vert_id[tuple(v)] for v in verts(spoke(s_, 0))}
    state = make(g, hills=hills(site(2, 0), 5, 7),
                 tiles=[tile(spoke(s_, 2), GREEN), tile(spoke(s_, 4), GREEN)])
    play(state, spoke(s_, 0), GREEN, magistrate=True)
    d = state.to_dict()
    assert d["phase"] == "aqueduct_start"
    assert d["resolution"]["aqueduct"] == "gray" and d["resolution"]["pieces_left"] == 3
    assert d["sites"] == []                              # the Temple waits for the aqueduct
    assert all(A_PIPE <= a < A_PIPE + 6 for a in state.legal_actions())   # gray pieces only
    while state.to_dict()["phase"] == "aqueduct_start":   # (a forced piece is laid by itself)
        assert state.to_dict()["sites"] == []
        state.apply_action(state.legal_actions()[0])
    d = state.to_dict()
    gray = d["aqueducts"][0]
    assert gray["started"] and len(gray["path"]) == 4
    assert gray["path"][0] == list(B.verts[B.water[0]])
    assert {"site": site_xy(s_), "building": "Temple", "owner": hadrian} in d["sites"]
    assert d["players"][hadrian]["points"] == 3
    # the aqueduct runs through the Temple's hexagon: 2 more points at the end
    assert state.score_breakdown(hadrian)["aqueducts"] == 2


# Placements (data.pl_pos numbering) of a layout found by a backtracking search over
# tilings and aqueduct paths: five civic buildings along the gray aqueduct's twelve
# pieces.  state_from_dict validates it (sizes match buildings, path on tile edges).
# The last piece (2,-3) -> (3,-3) is a spoke of the Arena at (2,-1) (centre (3,-3)).
AQ_TILES = [228, 235, 236, 225, 281, 237, 239, 241, 280, 282, 271, 317, 328, 292, 294,
            296, 329, 331, 333]
AQ_PATH = [(7, -3), (6, -2), (6, -1), (5, 0), (4, 0), (3, 1), (2, 1), (2, 0), (2, -1),
           (1, -1), (1, -2), (2, -3), (3, -3)]


def test_aqueduct_scoring_example():
    """The gray aqueduct connects to Octavia's Temple (2 points) and to Julia's Arena, two
    Temples and a Theater (8 points), whoever laid the pieces."""
    g = game(3)
    julia, octavia = 0, 1
    cols = ["red", "yellow", "green", "blue"]
    state = make(
        g,
        tiles=[tile(pl, cols[i % 4]) for i, pl in enumerate(AQ_TILES)],
        sites=[
            {"site": [3, 0], "building": "Temple", "owner": octavia},
            {"site": [2, -1], "building": "Arena", "owner": julia},
            {"site": [2, 1], "building": "Temple", "owner": julia},
            {"site": [1, 1], "building": "Temple", "owner": julia},
            {"site": [1, 0], "building": "Theater", "owner": julia},
        ],
        aqueducts=[{"path": [list(v) for v in AQ_PATH]}],
    )
    assert state.score_breakdown(octavia)["aqueducts"] == 2
    assert state.score_breakdown(julia)["aqueducts"] == 8
    assert state.score_breakdown(2)["aqueducts"] == 0
    # the track holds the buildings' points; the bonus is end scoring only
    assert state.score_breakdown(julia)["track"] == 6 + 3 + 3 + 5


# A fountain site and three neighbouring civic buildings (found the same way).
FOUNTAIN_TILES = [164, 171, 167, 226, 173, 175, 177, 182, 184, 186, 228, 230, 232]


def test_fountain_scoring_example():
    """A Fountain with three civic buildings around it: Julia scores 1 for her Baths and 1
    for her Temple, Octavia 1 for her Temple."""
    g = game(2)
    julia, octavia = 0, 1
    cols = ["red", "yellow", "green", "blue"]
    state = make(
        g,
        tiles=[tile(pl, cols[i % 4]) for i, pl in enumerate(FOUNTAIN_TILES)],
        sites=[
            {"site": [0, 1], "fountain": True},
            {"site": [0, 0], "building": "Baths", "owner": julia},
            {"site": [0, 2], "building": "Temple", "owner": julia},
            {"site": [1, 0], "building": "Temple", "owner": octavia},
        ],
    )
    assert state.score_breakdown(julia)["fountains"] == 2
    assert state.score_breakdown(octavia)["fountains"] == 1


@pytest.mark.parametrize("layout", [AQ_TILES, FOUNTAIN_TILES])
def test_example_layouts_are_real_tilings(layout):
    """The fixtures above are genuine: distinct placements on the board, no overlaps."""
    tris = [t for pl in layout for t in B.pl_tris[pl]]
    assert len(tris) == len(set(tris)) == 2 * len(layout)
    assert all(owner_of(pl)[0] < B.nsites for pl in layout)
