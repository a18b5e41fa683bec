"""Rome: City of Marble as an SVG picture: the triangular board with its coordinates, hills,
bridge spaces, water sources, tiles, magistrates, buildings, fountains and aqueducts, and the
players' tiles, Imperium, coins and bridges.  Drawn from observations only (see
:mod:`romecore.picture`); the fixed board is drawn once and kept.

Every place, tile and piece a move names carries its board key (``data-target``, see
:func:`targets`): each triangle, each site's hexagon, each vertex, each aqueduct, the tiles
in hand, the Neighborhood stacks, the Imperium spaces, the Treasury and the magistrates.
Hills carry a key of their own that no move names, so a click on a hill picks nothing.

:func:`public_view` is what every player may see (a spectator's picture while the game is
under way): the whole board and every seat's tiles, Imperium, coins and magistrates, with
each seat's bridge tiles face down as its opponents see them."""

from __future__ import annotations

import math
from typing import Any

from romecore.games.city_of_marble import data as _data
from romecore.games.city_of_marble import kernel as _kernel
from romecore.picture import INK, MUTED, PLAYER_COLOURS, Canvas, Element, player_name

WIDTH = 940
S = 40                      # pixels per lattice edge
H = math.sqrt(3) / 2
_B = _data.BOARD
_X0 = 12 + 40 - S * min(q + r / 2 for q, r in _B.verts)   # room on the left for row labels
_Y_TOP = max(r for _, r in _B.verts)
BOARD_W = S * (max(q + r / 2 for q, r in _B.verts) - min(q + r / 2 for q, r in _B.verts)) + 80
BOARD_H = S * H * (_Y_TOP - min(r for _, r in _B.verts)) + 30

TILE_FILL = {"red": "#d9534f", "yellow": "#f2cf3a", "green": "#5cb85c", "blue": "#4f8fd9"}
HILL_FILL = "#b08a5a"
BRIDGE_FILL = "#a9d6f5"
WATER_FILL = "#2a7fd4"
AQUEDUCT = {"gray": ("#7f7f7f", "#7f7f7f"), "brown": ("#8b5a2b", "#8b5a2b"), "white": ("#ffffff", "#555555")}
_SHORT = {c.building: c.building[0] for c in _data.COLOURS}
_BUILDING_COLOUR = {c.building: c.name for c in _data.COLOURS}
_COLOURS = tuple(c.name for c in _data.COLOURS)
_PIPE_PHASES = ("action", "expand", "aqueduct_start")   # phases where an aqueduct piece may be a move
_SITE_PHASES = ("site", "order")                         # phases whose moves are sites

# -- board keys ---------------------------------------------------------------------------------


def _vkey(vs) -> str:
    """Vertices as a key detail: ``q,r`` each, sorted, joined by ``/``."""
    return "/".join(f"{q},{r}" for q, r in sorted(tuple(v) for v in vs))


def tri_key(t: int) -> str:
    """A board triangle, by its three vertices."""
    return "tri:" + _vkey(_B.tri_verts[t])


def site_key(site) -> str:
    s, t = site
    return f"site:{s},{t}"


def hill_key(site) -> str:
    s, t = site
    return f"hill:{s},{t}"


def vertex_key(v) -> str:
    return "vertex:" + _vkey([v])


def aqueduct_key(colour: str) -> str:
    return f"aqueduct:{colour}"


def stack_key(colour: str) -> str:
    return f"stack:{colour}"


def hand_key(p: int, colour: str) -> str:
    return f"hand:{p}:{colour}"


def imperium_key(p: int, colour: str) -> str:
    return f"imperium:{p}:{colour}"


def treasury_key(p: int) -> str:
    return f"treasury:{p}"


def magistrate_key(p: int, where: str) -> str:
    """Player p's magistrate(s) at ``where``: ``centre``, ``treasury``, ``imperium:COLOUR`` or
    ``tile:VERTICES`` (a tile holds one magistrate at most; magistrates sharing a place off
    the board are alike, and a move names any of them)."""
    return f"magistrate:{p}:{where}"


def _tile_where(tile: dict) -> str:
    return "tile:" + _vkey({tuple(v) for tri in tile["triangles"] for v in tri})


# -- the moves' keys ------------------------------------------------------------------------------

_A = _kernel.ACTION_BLOCKS
_LOC_IMPERIUM = 1000        # sort keys of magistrate locations, after every placement id
_LOC_TREASURY = _LOC_IMPERIUM + len(_COLOURS)
_LOC_CENTRE = _LOC_TREASURY + 1


def _placement(tile: dict) -> int:
    a, b = (_B.triangle_of(tri) for tri in tile["triangles"])
    return _B.placement(a, b)


def _mag_slots(obs: dict, p: int) -> list[str]:
    """Player p's magistrates as ``magistrate_key`` places, in the kernel's slot order
    (ascending locations: tiles by placement, the Imperium spaces by colour, the Treasury,
    the centre box)."""
    mags = obs["players"][p]["magistrates"]
    locs = [(_placement(t), _tile_where(t)) for t in obs["tiles"] if t["magistrate"] == p]
    for i, col in enumerate(_COLOURS):
        locs += [(_LOC_IMPERIUM + i, f"imperium:{col}")] * mags["imperium"][col]
    locs += [(_LOC_TREASURY, "treasury")] * mags["treasury"] + [(_LOC_CENTRE, "centre")] * mags["centre"]
    return [where for _, where in sorted(locs)]


def _send_destination(obs: dict, p: int) -> str:
    """Where a magistrate sent from the site being resolved goes: the Treasury for a
    fountain, else the Imperium space of the building's colour."""
    site = list(obs["resolution"]["site"])
    status = next(d for d in obs["sites"] if list(d["site"]) == site)
    if status.get("fountain"):
        return treasury_key(p)
    return imperium_key(p, _BUILDING_COLOUR[status["building"]])


#: The observation :func:`targets` read last: ((game, position hash, player), observation).  A
#: page's moves ask for the keys of every legal move of one position in turn.
_LAST_VIEW: list[Any] = [None]


def _mover_view(state: Any, p: int) -> dict:
    """``state.observation(p)``, read once for the keys of all of a position's moves (an
    observation here is a function of the position's bytes, which ``state_hash`` hashes)."""
    key = (id(state.game), state.state_hash(), p)
    last = _LAST_VIEW[0]
    if last is not None and last[0] == key:
        return last[1]
    obs = state.observation(p)
    _LAST_VIEW[0] = (key, obs)
    return obs


def targets(state, action: int) -> tuple[str, ...]:
    """The board keys of a legal ``action`` of ``state`` (see
    :func:`romecore.picture.action_targets`), read from the observation of the player to
    move, so that they name only what that player's picture shows:

    * play a tile: that colour's tiles in hand, then the centre box's magistrates when one
      goes on the tile (so the play without a magistrate names a subset of the play with
      one: after the tile, the page offers it while the magistrate stays highlighted);
    * the tile's site, or the site to resolve first: the site; the tile's place: its two
      triangles;
    * draw: the stacks drawn from; recall: the magistrate; send: the magistrate, then the
      Imperium space (or Treasury) it goes to; spend Imperium: that Imperium space;
    * an aqueduct piece: the aqueduct, then the vertex the piece reaches;
    * keep magistrates, end the turn: nothing (buttons).

    No two legal moves of one state share a key set: the sites, stacks, magistrate places
    (one recall or send per place) and reached vertices differ, and two aqueducts reaching
    the same vertex differ by the aqueduct."""
    p = state.current_player()
    if p < 0:
        return ()
    obs = _mover_view(state, p)
    a = int(action)
    if a < _A["A_TILE"]:                                            # a site
        return (site_key(_B.sites[a - _A["A_SITE"]]),)
    if a < _A["A_PLAY"]:                                            # the tile's place in its site
        site = _B.site_id[tuple(obs["tile_play"]["site"])]
        return tuple(sorted(tri_key(t) for t in _B.pl_tris[_data.pl_pos(site, a - _A["A_TILE"])]))
    if a < _A["A_DRAW"]:
        colour, with_magistrate = divmod(a - _A["A_PLAY"], 2)
        keys = (hand_key(p, _COLOURS[colour]),)
        return keys + (magistrate_key(p, "centre"),) if with_magistrate else keys
    if a < _A["A_DRAW1"]:
        pairs = [(x, y) for x in range(len(_COLOURS)) for y in range(x + 1, len(_COLOURS))]
        return tuple(stack_key(_COLOURS[c]) for c in pairs[a - _A["A_DRAW"]])
    if a < _A["A_RECALL"]:
        return (stack_key(_COLOURS[a - _A["A_DRAW1"]]),)
    if a < _A["A_PIPE"]:
        return (magistrate_key(p, _mag_slots(obs, p)[a - _A["A_RECALL"]]),)
    if a < _A["A_SEND"]:
        aq, d = divmod(a - _A["A_PIPE"], len(_data.DIRS))
        end = _B.vert_id[tuple(obs["aqueducts"][aq]["path"][-1])]
        edge = _B.vert_edges[end][d]
        assert edge is not None, "a legal aqueduct piece runs along an edge of the board"
        return (aqueduct_key(_data.AQUEDUCTS[aq]), vertex_key(_B.verts[edge[0]]))
    if a < _A["A_KEEP"]:
        return (magistrate_key(p, _mag_slots(obs, p)[a - _A["A_SEND"]]), _send_destination(obs, p))
    if _A["A_SPEND"] <= a < _A["A_END"]:
        return (imperium_key(p, _COLOURS[a - _A["A_SPEND"]]),)
    return ()


# -- what every player may see -----------------------------------------------------------------


def public_view(state: Any) -> dict:
    """What every player may see, in the shape of a seat's observation with ``"player":
    None``: everything all seats' observations hold alike (the board, the stacks, the turn,
    every seat's track, coins, tiles, Imperium and magistrates), and each seat's entry as
    the next seat sees it, so its bridge values (the one thing a seat knows alone, and
    drawn from a pile nobody sees) are ``None`` beside their ``bridge_count`` until the
    game ends, when everyone sees them."""
    n = state.game.num_players()
    seen = [state.observation(q) for q in range(n)]
    view = dict(seen[0], player=None)
    view["players"] = [seen[(q + 1) % n]["players"][q] for q in range(n)]
    return view


# -- the fixed board ---------------------------------------------------------------------------


def _xy(v, top: float) -> tuple[float, float]:
    q, r = v
    return _X0 + S * (q + r / 2), top + 12 + S * H * (_Y_TOP - r)


def _tri_points(tri, top):
    return [_xy(v, top) for v in tri]


def _board_fragment() -> str:
    """The fixed board at y = 0: every triangle (the bridge spaces blue), each its own
    element with its key, so a click on one names that triangle."""
    c = Canvas(WIDTH)
    g = c.group("board", stroke="#cfc6b4")
    bridges = set(_B.bridges)
    for t, tri in _B.tri_verts.items():
        bridge = t in bridges
        c.polygon(_tri_points(tri, 0), fill=BRIDGE_FILL if bridge else "#fffdf8", stroke=None, parent=g,
                  title="bridge space" if bridge else None, data_target=tri_key(t))
    return c.fragment()


def _vertices_fragment() -> str:
    """An unpainted disc at every vertex, keyed, for the vertex an aqueduct piece reaches
    (clickable only where the group around it allows, see ``draw``)."""
    c = Canvas(WIDTH)
    g = c.group("vertices", fill="none", stroke="none")
    for v in _B.verts:
        x, y = _xy(v, 0)
        c.circle(x, y, 7, fill="none", stroke=None, parent=g, data_target=vertex_key(v))
    return c.fragment()


def _labels_fragment() -> str:
    """Each vertex's (q, r), drawn over the pieces so that a tile's corners stay readable
    (and never in the way of a click)."""
    c = Canvas(WIDTH)
    labels = c.group("coordinates", font_size=7, fill="#5f584c", text_anchor="middle", pointer_events="none")
    for v in _B.verts:
        x, y = _xy(v, 0)
        c.text(x, y - 3, f"{v[0]},{v[1]}", size=12, parent=labels)  # size and colour from the group
    return c.fragment()


_FRAGMENTS: list[str] = []


def _titled_group(c: Canvas, cls: str, parent: Element, title: str, **attrs) -> Element:
    """A group with a tooltip of its own (its children keep theirs, or none)."""
    g = c.group(cls, parent=parent, **attrs)
    c.tooltip(g, title)
    return g


# -- the picture -------------------------------------------------------------------------------


def draw(c: Canvas, views: dict, player: int | str | None, game, scores: list | None) -> None:
    """The board, then each seat's box: ``player``'s view, the whole truth (None) or the
    public view (:data:`romecore.picture.PUBLIC`, every seat drawn as its opponents see it)."""
    base = views[player if player is not None else 0]
    scores = scores if scores is not None else base.get("scores")
    n = game.num_players()
    phase = base["phase"]
    turn = base["turn_player"]
    info = f"phase {phase}"
    if phase not in ("hills", "over"):
        info += f"   turn of {player_name(turn)}, {base['actions_left']} action(s) left"
        if base["current_player"] >= 0 and base["current_player"] != turn:
            info += f"   {player_name(base['current_player'])} to decide"
    if base["final_turns_left"]:
        info += f"   FINAL ROUND ({base['final_turns_left']} turn(s) left)"
    top = c.title("Rome: City of Marble", player, info)

    if not _FRAGMENTS:
        _FRAGMENTS[:] = [_board_fragment(), _vertices_fragment(), _labels_fragment()]
    board = c.group("state", transform=f"translate(0,{top:.1f})")
    c.include(_FRAGMENTS[0], bottom=top + BOARD_H, parent=board)
    # the layers drawn once for each position of theirs (the board changes a piece a move)
    c.cached(_hills, base["hills"], parent=board)
    c.cached(_tiles, base["tiles"], parent=board)
    c.cached(_sites, phase in _SITE_PHASES, base["hills"], sorted(_marked_sites(base)), base["sites"], parent=board)
    # vertices take clicks only while a piece may reach one, so they never cover a site's middle
    c.include(_FRAGMENTS[1], parent=c.group("vertex-targets", parent=board,
                                            pointer_events="all" if phase in _PIPE_PHASES else "none"))
    _aqueducts(c, base, board)
    for space in base["bridge_spaces_open"]:
        pts = _tri_points([tuple(v) for v in space], 0)
        c.text(sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3 + 4, "B", size=10, anchor="middle",
               fill="#1d5f99", weight="bold", parent=board, pointer_events="none")
    c.include(_FRAGMENTS[2], parent=board)

    _side(c, views, base, player, n, top, scores)
    y = max(c.height, top + BOARD_H) + 8
    c.legend(y, [("box", TILE_FILL["red"], "red (Arena)"), ("box", TILE_FILL["yellow"], "yellow (Theater)"),
                 ("box", TILE_FILL["green"], "green (Temple)"), ("box", TILE_FILL["blue"], "blue (Baths)"),
                 ("box", HILL_FILL, "hill"), ("box", BRIDGE_FILL, "bridge space (B: bridge still there)"),
                 ("dot", WATER_FILL, "water source"), ("dot", PLAYER_COLOURS[0], "magistrate (seat colour)"),
                 ("text", "A0", "building + owner at a site centre"), ("dot", "#7fc8f8", "fountain"),
                 ("line", AQUEDUCT["gray"][0], "gray aqueduct"), ("line", AQUEDUCT["brown"][0], "brown aqueduct"),
                 ("line", "#bbbbbb", "white aqueduct"), ("dot", "#bbbbbb", "an aqueduct's far end"),
                 ("text", "q,r", "vertex coordinates (as moves name them)"), ("text", "\u25b6", "whose turn")])


def _hills(c: Canvas, hills: list) -> None:
    """Each revealed hill: its six triangles under one key that no move names."""
    for s, t in hills:
        g = c.group("hill", data_target=hill_key((s, t)))
        for tri in _B.site_triangles(_B.site_id[(s, t)]):
            c.polygon(_tri_points(_B.tri_verts[tri], 0), fill=HILL_FILL, stroke="#8c6a40", parent=g,
                      title=f"hill ({s},{t})")


def _tiles(c: Canvas, tiles_seen: list) -> None:
    """Each tile as its two triangles (each keyed as the board's triangle below it, so the
    place a tile went stays marked after the move), its outline, and its magistrate."""
    tiles = c.group("tiles")
    for tile in tiles_seen:
        a, b = (tuple(map(tuple, tri)) for tri in tile["triangles"])
        quad = sorted(set(a) | set(b))
        outer = [v for v in a if v not in b] + [v for v in b if v not in a]
        shared = [v for v in a if v in b]
        pts = [_xy(outer[0], 0), _xy(shared[0], 0), _xy(outer[1], 0), _xy(shared[1], 0)]
        fill = TILE_FILL[tile["colour"]]
        g = _titled_group(c, "tile", tiles, f"{tile['colour']} tile on " + " ".join(f"({q},{r})" for q, r in quad))
        for tri in (a, b):
            c.polygon(_tri_points(tri, 0), fill=fill, stroke=fill, parent=g, data_target=tri_key(_B.triangle_of(tri)))
        c.polygon(pts, fill="none", stroke=INK, parent=g, stroke_width=1.5, pointer_events="none")
        m = tile["magistrate"]
        if m is not None:
            cx = sum(x for x, _ in pts) / 4
            cy = sum(y for _, y in pts) / 4
            c.circle(cx, cy, 7, fill=PLAYER_COLOURS[m], stroke="#ffffff", parent=g,
                     title=f"{player_name(m)}'s magistrate", data_target=magistrate_key(m, _tile_where(tile)))


def _hexagon(site) -> list[tuple[float, float]]:
    s, t = site
    cq, cr = 2 * s + t, t - s
    return [_xy((cq + dq, cr + dr), 0) for dq, dr in _data.DIRS]


def _marked_sites(base: dict) -> set[tuple[int, int]]:
    """The sites a decision is about: the one a tile is being placed in, the two completed
    ones whose order is being chosen, the one whose magistrates may leave."""
    phase = base["phase"]
    res = base.get("resolution") or {}
    if phase == "tile":
        return {tuple(base["tile_play"]["site"])}
    if phase == "order":
        return {tuple(x) for x in res["sites"]}
    if phase == "send":
        return {tuple(res["site"])}
    return set()


def _sites(c: Canvas, clickable: bool, hill_list: list, marked_list: list, sites: list) -> None:
    """Each site but the hills as an unpainted hexagon with its key (it takes clicks while
    the moves are sites, ``clickable``; the sites the decision is about, ``marked_list``, are
    outlined), then the marks of the completed sites."""
    hills = {tuple(h) for h in hill_list}
    marked = set(marked_list)
    g = c.group("sites")
    for site in _B.sites:
        if site in hills:
            continue
        here = site in marked
        c.polygon(_hexagon(site), fill="none", stroke=INK if here else "none", parent=g,
                  stroke_width=2.5 if here else None, stroke_dasharray="6 3" if here else None,
                  pointer_events="all" if clickable else "none", data_target=site_key(site),
                  title=f"site ({site[0]},{site[1]})" if clickable else None)
    marks = c.group("site-marks", pointer_events="none")
    for site in sites:
        s, t = site["site"]
        x, y = _xy((2 * s + t, t - s), 0)
        if site.get("fountain"):
            c.circle(x, y, 9, fill="#7fc8f8", stroke=INK, parent=marks, title=f"fountain on site ({s},{t})")
            c.text(x, y + 4, "F", size=10, anchor="middle", weight="bold", parent=marks)
        elif site.get("empty"):
            c.rect(x - 8, y - 8, 16, 16, fill="#ffffff", stroke=INK, parent=marks, title=f"empty site ({s},{t})")
            c.text(x, y + 4, "X", size=10, anchor="middle", parent=marks)
        else:
            owner = site["owner"]
            c.rect(x - 10, y - 10, 20, 20, fill=TILE_FILL[_BUILDING_COLOUR[site["building"]]],
                   stroke=PLAYER_COLOURS[owner], rx=3, parent=marks, stroke_width=3,
                   title=f"{site['building']} of {player_name(owner)} on site ({s},{t})")
            c.text(x, y + 4, _SHORT[site["building"]] + str(owner), size=10, anchor="middle", weight="bold",
                   parent=marks)


def _aqueducts(c: Canvas, base: dict, board: Element) -> None:
    """Each aqueduct under its key: its water source, its pieces and its far end."""
    for i, a in enumerate(base["aqueducts"]):
        colour = a["colour"]
        g = c.group("aqueduct", parent=board, data_target=aqueduct_key(colour))
        fill, edge = AQUEDUCT[colour]
        pts = [_xy(v, 0) for v in a["path"]] if a["started"] else []
        if len(pts) > 1:
            c.polyline(pts, stroke=edge, width=8, parent=g, stroke_linecap="round", stroke_linejoin="round")
            c.polyline(pts, stroke=fill, width=5, parent=g, stroke_linecap="round", stroke_linejoin="round",
                       title=f"{colour} aqueduct, {len(pts) - 1} pieces")
        x, y = _xy(_B.verts[_B.water[i]], 0)
        c.circle(x, y, 7, fill=WATER_FILL, stroke=INK, parent=g, title=f"water source of the {colour} aqueduct")
        if len(pts) > 1:
            c.circle(*pts[-1], 5, fill=fill, stroke=INK, parent=g, stroke_width=1.5,
                     title=f"far end of the {colour} aqueduct")


def _mag_marks(c: Canvas, right: float, y: float, n: int, p: int, where: str, parent: Element,
               title: str) -> None:
    """``n`` magistrates of p in a row ending at ``right`` on the line ``y``, under one key."""
    if n <= 0:
        return
    g = c.group("magistrates", parent=parent, data_target=magistrate_key(p, where))
    for k in range(n):
        c.circle(right - 9 * (n - 1 - k), y, 4.5, fill=PLAYER_COLOURS[p], stroke=INK, parent=g, title=title)


def _space(c: Canvas, x: float, y: float, w: float, label: str, fill: str, key: str | None, title: str,
           parent: Element, stroke: str = INK) -> None:
    """A box with its label on the left (magistrates may stand on its right), keyed as a whole."""
    g = c.group("space", parent=parent, data_target=key)
    c.rect(x, y, w, 18, fill=fill, stroke=stroke, rx=3, parent=g, title=title)
    c.text(x + 5, y + 13, label, size=10 if len(label) > 2 else 11, fill=INK if stroke == INK else MUTED, parent=g)


def _player_box(c: Canvas, p: int, x: float, y: float, w: float, you: bool, mark: str, pd: dict,
                bridges: str) -> float:
    """Seat ``p``'s box: points and coins, tiles in hand, Imperium, magistrates, bridges;
    returns the height it takes."""
    colour = PLAYER_COLOURS[p]
    g = c.group("player")
    h = 112
    c.rect(x, y, w, h, fill="#ffffff", stroke=colour, rx=6, parent=g, stroke_width=2 if you else 1)
    c.text(x + 8, y + 18, f"{mark}{player_name(p)}" + ("  (you)" if you else ""), size=14,
           weight="bold", fill=colour, parent=g)
    c.text(x + 120, y + 18, f"{pd['points']} pts   {pd['coins']} coins", parent=g)
    c.text(x + 8, y + 38, "tiles", parent=g)
    c.text(x + 8, y + 60, "imperium", parent=g)
    mags = pd["magistrates"]
    for i, (col, k) in enumerate(pd["tiles"].items()):
        c.card(x + 70 + i * 48, y + 26, 44, 18, str(k), fill=TILE_FILL[col], size=11, parent=g,
               title=f"{k} {col} tile(s) in hand", target=hand_key(p, col))
    for i, (col, k) in enumerate(pd["imperium"].items()):
        cx = x + 70 + i * 48
        _space(c, cx, y + 48, 44, str(k), TILE_FILL[col], imperium_key(p, col),
               f"{col} Imperium space: {k} Imperium tile(s)", g)
        _mag_marks(c, cx + 38, y + 57, mags["imperium"][col], p, f"imperium:{col}", g,
                   f"{player_name(p)}'s magistrate on the {col} Imperium space")
    right = x + 70 + 4 * 48 + 8
    _space(c, right, y + 26, 86, "centre", "#ffffff", None, "centre box", g, stroke=MUTED)
    _mag_marks(c, right + 78, y + 35, mags["centre"], p, "centre", g,
               f"{player_name(p)}'s magistrate in the centre box")
    _space(c, right, y + 48, 86, "Treasury", "#ffffff", treasury_key(p), "Treasury", g)
    _mag_marks(c, right + 78, y + 57, mags["treasury"], p, "treasury", g,
               f"{player_name(p)}'s magistrate on the Treasury")
    placed = _data.MAGISTRATES - mags["centre"] - mags["treasury"] - sum(mags["imperium"].values())
    c.text(x + 8, y + 84, f"magistrates: {mags['centre']} centre, {mags['treasury']} treasury, "
           f"{sum(mags['imperium'].values())} imperium, {placed} on tiles", size=11, parent=g)
    c.text(x + 8, y + 102, bridges, size=11, parent=g)
    return h + 8


def _side(c: Canvas, views, base, player, n, top, scores) -> None:
    x = BOARD_W + 20
    w = WIDTH - x - 12
    y = top
    c.text(x, y + 14, "Neighborhood")
    for i, (col, k) in enumerate(base["stacks"].items()):
        c.card(x + 96 + i * 48, y + 1, 44, 18, str(k), fill=TILE_FILL[col], size=11,
               title=f"{k} {col} tile(s) in the Neighborhood stack", target=stack_key(col))
    y += 6
    drawn = [k for k, v in base["drawn"].items() for _ in range(v)]
    if drawn:
        y += 18
        c.text(x, y + 12, "drawn this turn: " + ", ".join(drawn))
    if base.get("tile_play"):
        y += 18
        tp = base["tile_play"]
        follow = " (magistrate may follow)" if tp.get("magistrate") else ""
        c.text(x, y + 12, f"placing a {tp['colour']} tile{follow}")
    y += 26
    for p in range(n):
        pd = base["players"][p]
        mark = "\u25b6 " if p == base["turn_player"] and base["phase"] != "over" else ""
        own = views[p]["players"][p] if p in views else pd  # bridge values: their owner's knowledge
        if own.get("bridges") is not None:
            bridges = f"bridges: {', '.join(map(str, own['bridges'])) or 'none'}"
        else:
            count = pd.get("bridge_count", 0)
            bridges = f"bridges: {count} face down" if count else "bridges: none"
        y += c.cached(_player_box, p, x, y, w, p == player, mark, pd, bridges)
    if scores is not None and base["phase"] == "over":
        best = max(scores)
        c.text(x, y + 14, "final: " + ", ".join(f"{player_name(q)} {scores[q]}" for q in range(n)), weight="bold")
        c.text(x, y + 32, "best: " + ", ".join(player_name(q) for q in range(n) if scores[q] == best), weight="bold")
