"""Rome: City of Marble as data: the components' counts, the score table, and the board.

Everything printed on the components lives here and only here.  The board is the JSON file
``board.json`` beside this module (a copy of the project's ``city-of-marble.board.json``);
every board table the kernel uses (triangles, lattice edges, placements, sites, adjacency
bitsets) is derived from it below when this module is imported, so a corrected board file
changes the game without touching any logic.  Sources: the rulebook and
``city-of-marble.md`` (the rulings fill in the site-size table and the points that the text
extraction lost).

Indexing (shared with the kernel, documented in ``romecore.games.city_of_marble``):

* **Sites** are numbered in the order of the board file's ``sites`` list.
* **Triangles** are numbered by bit position: triangle ``k`` (0-5, counter-clockwise from
  the centre's direction 0) of site ``i`` is ``64 * (i // 10) + 6 * (i % 10) + k``, so a
  site's six triangles are six adjacent bits of one 64-bit word.
* **Placements** (where a tile may lie: two triangles sharing an edge) are numbered by bit
  position too: placement ``k`` (0-8) of site ``i`` is ``64 * (i // 7) + 9 * (i % 7) + k``.
  ``k`` 0-5 are the site's *spoke* tiles (both triangles in the site, around spoke ``k``);
  ``k`` 6-8 are the *rim* tiles across the site's rim edges 0-2 (one triangle in the site,
  one in the neighbouring site).  Rim edges 3-5 belong to the neighbour as its 0-2, so
  every placement has exactly one number.
* **Vertices** are numbered in sorted ``(q, r)`` order.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

BOARD_FILE = Path(__file__).with_name("board.json")


class Colour(NamedTuple):
    """One tile colour and the civic building that goes with it."""

    name: str
    building: str
    tiles: int        # Neighborhood tiles of this colour in the game
    site_size: int    # buildings in a completed site that builds this building
    points: int       # points for commissioning it
    imperium: int     # Imperium tiles of this colour
    short: str        # one letter for drawings


# Colour ids are positions in this tuple (the kernel's actions and bitsets use them).
COLOURS: tuple[Colour, ...] = (
    Colour("red", "Arena", 12, 6, 6, 12, "R"),
    Colour("yellow", "Theater", 14, 5, 5, 12, "Y"),
    Colour("green", "Temple", 16, 3, 3, 12, "G"),
    Colour("blue", "Baths", 18, 4, 4, 12, "B"),
)
COLOUR_ID = {c.name: i for i, c in enumerate(COLOURS)}
BUILDING_ID = {c.building: i for i, c in enumerate(COLOURS)}

AQUEDUCTS = ("gray", "brown", "white")   # in the order of the board's water sources
AQUEDUCT_PIECES = 13                     # per colour
AQUEDUCT_START_PIECES = 3                # placed when a tile touches the water source
EXPAND_PIECES = 2                        # per Expand action
FOUNTAINS = 10
COINS = 16
MAGISTRATES = 3                          # per player
CUBES = 16                               # Commission cubes per player
HILLS_IN_PLAY = 3
BRIDGE_VALUES = (1, 1, 2, 2, 3, 3, 4, 4)
BRIDGES_DEALT = 7                        # one per bridge space; the eighth stays boxed
ACTIONS_PER_TURN = 2
STARTING_TILES = 1                       # of each colour, taken from the stacks
FINAL_ROUND_EMPTY_STACKS = 3

# Final scoring.
AQUEDUCT_POINTS = 2          # per civic building connected to any aqueduct
FOUNTAIN_POINTS = 1          # per fountain site adjacent to a civic building
COIN_POINTS = 1              # per coin
MOST_COINS_POINTS = 2        # to each player with the most coins (at least one)
IMPERIUM_SOLE_POINTS = 5     # per colour, to the sole leader
IMPERIUM_TIED_POINTS = 2     # per colour, to each tied leader (at least one tile)

# Lattice directions of the axial (q, r) grid, counter-clockwise from (1, 0).
DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

SITES_PER_TRI_WORD = 10
SITES_PER_PL_WORD = 7
PLACEMENTS_PER_SITE = 9
TRI_WORDS = 4
PL_WORDS = 6
VERT_WORDS = 3

Vertex = tuple[int, int]
Triangle = tuple[Vertex, Vertex, Vertex]


def _edge(v: Vertex, w: Vertex) -> tuple[Vertex, Vertex]:
    """An edge's key: its two vertices in order."""
    return (v, w) if v <= w else (w, v)


def _add(a: Vertex, b: Vertex) -> Vertex:
    return (a[0] + b[0], a[1] + b[1])


def tri_pos(site: int, k: int) -> int:
    """Bit position (= id) of triangle ``k`` of site ``site``."""
    return 64 * (site // SITES_PER_TRI_WORD) + 6 * (site % SITES_PER_TRI_WORD) + k


def pl_pos(site: int, k: int) -> int:
    """Bit position (= id) of placement ``k`` of site ``site``."""
    return 64 * (site // SITES_PER_PL_WORD) + PLACEMENTS_PER_SITE * (site % SITES_PER_PL_WORD) + k


class Board:
    """Every table derived from the board file.  Build one with :func:`load_board`."""

    def __init__(self, raw: dict):
        self.raw = raw
        self.sites: list[tuple[int, int]] = [tuple(s) for s in raw["sites"]]
        self.site_id = {s: i for i, s in enumerate(self.sites)}
        self.nsites = len(self.sites)
        self.centres: list[Vertex] = [(2 * s + t, t - s) for s, t in self.sites]
        centre_site = {c: i for i, c in enumerate(self.centres)}

        # Triangles: site-major, k counter-clockwise.
        self.tri_verts: dict[int, Triangle] = {}
        self.tri_site: dict[int, int] = {}
        by_verts: dict[Triangle, int] = {}
        for i, c in enumerate(self.centres):
            for k in range(6):
                v0, v1, v2 = sorted((c, _add(c, DIRS[k]), _add(c, DIRS[(k + 1) % 6])))
                tri: Triangle = (v0, v1, v2)
                if tri in by_verts:
                    raise ValueError(f"board: triangle {tri} lies in two sites")
                t = tri_pos(i, k)
                self.tri_verts[t] = tri
                self.tri_site[t] = i
                by_verts[tri] = t
        self.tri_id = by_verts

        # Lattice edges that are sides of board triangles, with the triangles beside them.
        edge_tris: dict[tuple[Vertex, Vertex], list[int]] = {}
        for t, tri in self.tri_verts.items():
            for a in range(3):
                for b in range(a + 1, 3):
                    edge_tris.setdefault((tri[a], tri[b]), []).append(t)
        self.edge_tris = edge_tris

        # Placements.
        self.pl_tris: dict[int, tuple[int, int]] = {}
        for i, c in enumerate(self.centres):
            for k in range(6):
                self.pl_tris[pl_pos(i, k)] = (tri_pos(i, (k + 5) % 6), tri_pos(i, k))
            for k in range(3):
                other = centre_site.get(_add(c, _add(DIRS[k], DIRS[k + 1])))
                if other is not None:
                    self.pl_tris[pl_pos(i, 6 + k)] = (tri_pos(i, k), tri_pos(other, k + 3))
        interior = {e for e, ts in edge_tris.items() if len(ts) == 2}
        seen = set()
        for pos, (t1, t2) in self.pl_tris.items():
            e = tuple(sorted(set(self.tri_verts[t1]) & set(self.tri_verts[t2])))
            if len(e) != 2 or e not in interior or e in seen:
                raise ValueError(f"board: placement {pos} is not a fresh interior edge")
            seen.add(e)
        if seen != interior:
            raise ValueError("board: some pair of adjacent triangles has no placement")
        self.pl_edge = {pos: tuple(sorted(set(self.tri_verts[a]) & set(self.tri_verts[b])))
                        for pos, (a, b) in self.pl_tris.items()}
        edge_pl = {e: pos for pos, e in self.pl_edge.items()}
        self.tri_pls: dict[int, list[int]] = {t: [] for t in self.tri_verts}
        for pos, (a, b) in sorted(self.pl_tris.items()):
            self.tri_pls[a].append(pos)
            self.tri_pls[b].append(pos)
        self.tri_nbrs: dict[int, list[int]] = {t: [] for t in self.tri_verts}
        for (a, b) in self.pl_tris.values():
            self.tri_nbrs[a].append(b)
            self.tri_nbrs[b].append(a)
        for t in self.tri_nbrs:
            self.tri_nbrs[t].sort()

        # Vertices and the edges leaving each one.
        self.verts: list[Vertex] = sorted({v for tri in self.tri_verts.values() for v in tri})
        self.vert_id = {v: i for i, v in enumerate(self.verts)}
        self.nverts = len(self.verts)
        # For vertex v and direction d: None when (v, v + d) is not a side of a board
        # triangle, else (neighbour id, triangles beside it (one or two), placement or -1).
        self.vert_edges: list[list[tuple[int, tuple[int, ...], int] | None]] = []
        for v in self.verts:
            row = []
            for d in DIRS:
                w = _add(v, d)
                e = _edge(v, w)
                ts = edge_tris.get(e)
                row.append(None if ts is None else (self.vert_id[w], tuple(sorted(ts)), edge_pl.get(e, -1)))
            self.vert_edges.append(row)

        # Site adjacency (sharing a rim edge).
        self.site_adj: list[int] = [0] * self.nsites
        for a, b in self.pl_tris.values():
            sa, sb = self.tri_site[a], self.tri_site[b]
            if sa != sb:
                self.site_adj[sa] |= 1 << sb
                self.site_adj[sb] |= 1 << sa

        # Hills, bridges, water sources.
        self.hills: list[int] = []
        for h in raw["hills"]:
            if tuple(h) not in self.site_id:
                raise ValueError(f"board: hill {h} is not a site")
            self.hills.append(self.site_id[tuple(h)])
        self.bridges: list[int] = []
        for tri in raw["bridge_spaces"]:
            key = tuple(sorted(tuple(v) for v in tri))
            if key not in by_verts:
                raise ValueError(f"board: bridge space {tri} is not a board triangle")
            self.bridges.append(by_verts[key])
        self.water: list[int] = []
        for w in raw["water_sources"]:
            if tuple(w) not in self.vert_id:
                raise ValueError(f"board: water source {w} is not a board vertex")
            self.water.append(self.vert_id[tuple(w)])
        # Water sources among each placement's four vertices.
        self.pl_water: dict[int, int] = {}
        for pos, (a, b) in self.pl_tris.items():
            vs = set(self.tri_verts[a]) | set(self.tri_verts[b])
            self.pl_water[pos] = sum(1 << j for j, wv in enumerate(self.water) if self.verts[wv] in vs)
        self._check()

    def _check(self) -> None:
        if len(self.hills) != 7 or len(set(self.hills)) != 7:
            raise ValueError("board: expected seven distinct hills")
        if len(self.bridges) != BRIDGES_DEALT or len(set(self.bridges)) != BRIDGES_DEALT:
            raise ValueError("board: expected seven distinct bridge spaces")
        if len(self.water) != len(AQUEDUCTS):
            raise ValueError("board: expected one water source per aqueduct")
        if self.nsites > SITES_PER_PL_WORD * PL_WORDS or self.nsites > SITES_PER_TRI_WORD * TRI_WORDS:
            raise ValueError("board: too many sites for the kernel's bitsets")
        if self.nverts > 64 * VERT_WORDS:
            raise ValueError("board: too many vertices for the kernel's bitsets")
        if self.nsites > 64:
            raise ValueError("board: too many sites for a 64-bit site set")

    # -- conveniences for readers and tests ---------------------------------------------
    def site_triangles(self, site: int) -> list[int]:
        return [tri_pos(site, k) for k in range(6)]

    def placement(self, t1: int, t2: int) -> int:
        """The placement covering triangles t1 and t2 (KeyError if they are not adjacent)."""
        for pos in self.tri_pls[t1]:
            if t2 in self.pl_tris[pos]:
                return pos
        raise KeyError(f"triangles {t1} and {t2} share no edge")

    def placement_of_vertices(self, vertices) -> int:
        """The placement whose rhombus has these four vertices (any order)."""
        vs = {tuple(v) for v in vertices}
        if len(vs) != 4:
            raise ValueError("a tile has four distinct vertices")
        for pos, (a, b) in self.pl_tris.items():
            if set(self.tri_verts[a]) | set(self.tri_verts[b]) == vs:
                return pos
        raise KeyError(f"no tile of the board has vertices {sorted(vs)}")

    def pl_vertices(self, pos: int) -> list[Vertex]:
        a, b = self.pl_tris[pos]
        return sorted(set(self.tri_verts[a]) | set(self.tri_verts[b]))

    def triangle_of(self, verts) -> int:
        key = tuple(sorted(tuple(v) for v in verts))
        if key not in self.tri_id:
            raise KeyError(f"{list(key)} is not a board triangle")
        return self.tri_id[key]

    def edge_sites(self, v: int, w: int) -> int:
        """Sites (a bit set) whose hexagon holds the edge between vertices v and w."""
        e = _edge(self.verts[v], self.verts[w])
        out = 0
        for t in self.edge_tris.get(e, ()):
            out |= 1 << self.tri_site[t]     # OR: both triangles beside a spoke are one site
        return out


def load_board(path: Path | str = BOARD_FILE) -> Board:
    with open(path, encoding="utf-8") as f:
        return Board(json.load(f))


BOARD = load_board()


def _check() -> None:
    assert len(COLOURS) == 4
    assert sorted(c.site_size for c in COLOURS) == [3, 4, 5, 6]
    assert sum(c.tiles for c in COLOURS) == 60
    assert len(BRIDGE_VALUES) == 8 and min(BRIDGE_VALUES) >= 1 and max(BRIDGE_VALUES) <= 4
    for v in range(1, 5):
        assert BRIDGE_VALUES.count(v) <= 2


_check()
