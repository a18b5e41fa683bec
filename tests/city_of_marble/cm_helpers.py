"""Helpers for the City of Marble tests: board geometry by site and local index, dict
states, and playing a tile in its three steps."""

from __future__ import annotations

import warnings

import romecore
from romecore.games.city_of_marble import data

B = data.BOARD
COLOURS = [c.name for c in data.COLOURS]
RED, YELLOW, GREEN, BLUE = range(4)
A_SITE, A_TILE, A_PLAY, A_DRAW, A_DRAW1, A_RECALL, A_PIPE = 0, 40, 49, 57, 63, 67, 70
A_SEND, A_KEEP, A_SPEND, A_END, CH_HILL, CH_BRIDGE = 88, 91, 92, 96, 97, 104


def game(players: int) -> romecore.Game:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return romecore.load_game("city_of_marble", players=players)


def site(s: int, t: int) -> int:
    return B.site_id[(s, t)]


def spoke(i: int, k: int) -> int:
    """Placement of the spoke tile k (triangles k-1 and k) of site i."""
    return data.pl_pos(i, k)


def rim(i: int, k: int) -> int:
    """Placement of the tile across rim edge k (0-5) of site i: its triangle k and the
    neighbour's triangle beyond."""
    t = data.tri_pos(i, k)
    for pl in B.tri_pls[t]:
        a, b = B.pl_tris[pl]
        if B.tri_site[a] != B.tri_site[b]:
            return pl
    raise KeyError(f"site {B.sites[i]} has no neighbour across rim edge {k}")


def owner_of(pl: int) -> tuple[int, int]:
    """(site, local k) that number a placement: the A_SITE and A_TILE steps."""
    w, off = divmod(pl, 64)
    return 7 * w + off // 9, off % 9


def verts(pl: int) -> list[list[int]]:
    return [list(v) for v in B.pl_vertices(pl)]


def tile(pl: int, colour: int | str, magistrate: int | None = None) -> dict:
    name = colour if isinstance(colour, str) else COLOURS[colour]
    return {"colour": name, "vertices": verts(pl), "magistrate": magistrate}


def site_xy(i: int) -> list[int]:
    return list(B.sites[i])


def hills(*ids: int) -> list[list[int]]:
    return [site_xy(i) for i in ids]


def make(g, **fields) -> romecore.State:
    """A state from the dict form; ``hills`` defaults to three hills far from the rest."""
    d = {"hills": hills(5, 7, 16)}
    d.update(fields)
    return g.state_from_dict(d)


def play(state, pl: int, colour: int, magistrate: bool = False) -> None:
    """Plays a tile in its three steps: colour, site, place (a step with a single choice
    is taken by the kernel itself; then the tile must be the one it placed)."""
    i, k = owner_of(pl)
    before = len(state.to_dict()["tiles"])
    state.apply_action(A_PLAY + 2 * colour + int(magistrate))
    if state.to_dict()["phase"] == "site":
        state.apply_action(A_SITE + i)
    if state.to_dict()["phase"] == "tile":
        state.apply_action(A_TILE + k)
    tiles = state.to_dict()["tiles"]
    assert len(tiles) == before + 1
    assert any(sorted(map(tuple, (v for t in x["triangles"] for v in t))) ==
               sorted(tuple(v) for t in B.pl_tris[pl] for v in B.tri_verts[t]) for x in tiles), \
        "the kernel placed another tile"


def placed(state) -> set[int]:
    """Placements holding a tile."""
    return {B.placement(B.triangle_of(x["triangles"][0]), B.triangle_of(x["triangles"][1]))
            for x in state.to_dict()["tiles"]}


def legal_placements(state, colour: int) -> set[int]:
    """Every placement a tile of the colour may take now, through the site and tile steps
    (a site with one legal placement takes it by itself)."""
    out = set()
    c0 = state.clone()
    c0.apply_action(A_PLAY + 2 * colour)
    before = placed(c0)
    if c0.to_dict()["phase"] != "site":
        return placed(c0) - placed(state)
    for a in c0.legal_actions():
        c = c0.clone()
        c.apply_action(a)
        if c.to_dict()["phase"] == "tile":
            out |= {data.pl_pos(a - A_SITE, b - A_TILE) for b in c.legal_actions()}
        else:
            out |= placed(c) - before
    return out


def tile_count(d: dict) -> dict[str, int]:
    """Every Neighborhood tile of a dict state, by colour, wherever it is."""
    out = dict.fromkeys(COLOURS, 0)
    for c in COLOURS:
        out[c] += d["stacks"][c] + d["drawn"][c]
        out[c] += sum(p["tiles"][c] for p in d["players"])
    for t in d["tiles"]:
        out[t["colour"]] += 1
    return out
