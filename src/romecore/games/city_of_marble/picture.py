"""Rome: City of Marble as an SVG picture: the triangular board with its coordinates, hills,
bridge spaces, water sources, tiles, magistrates, buildings, fountains and aqueducts, and the
players' tiles, Imperium, coins and bridges.  Drawn from observations only (see
:mod:`romecore.picture`); the fixed board is drawn once and kept."""

from __future__ import annotations

import math

from romecore.games.city_of_marble import data as _data
from romecore.picture import INK, PLAYER_COLOURS, Canvas, player_name

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
AQUEDUCT = {"gray": ("#7f7f7f", "#7f7f7f"), "brown": ("#8b5a2b", "#8b5a2b"), "white": ("#ffffff", "#555555")}
_SHORT = {c.building: c.building[0] for c in _data.COLOURS}
_BUILDING_COLOUR = {c.building: c.name for c in _data.COLOURS}


def _xy(v, top: float) -> tuple[float, float]:
    q, r = v
    return _X0 + S * (q + r / 2), top + 12 + S * H * (_Y_TOP - r)


def _tri_points(tri, top):
    return [_xy(v, top) for v in tri]


def _board_fragment() -> str:
    """The fixed board at y = 0: the triangles of every site, the bridge spaces, the water
    sources and each vertex's (q, r)."""
    c = Canvas(WIDTH)
    g = c.group("board")
    d = []
    for tri in _B.tri_verts.values():
        (x0, y0), (x1, y1), (x2, y2) = _tri_points(tri, 0)
        d.append(f"M{x0:.1f} {y0:.1f}L{x1:.1f} {y1:.1f}L{x2:.1f} {y2:.1f}Z")
    c.path("".join(d), stroke="#cfc6b4", fill="#fffdf8", parent=g)
    for t in _B.bridges:
        c.polygon(_tri_points(_B.tri_verts[t], 0), fill=BRIDGE_FILL, stroke="#cfc6b4", parent=g,
                  title="bridge space")
    for w in _B.water:
        x, y = _xy(_B.verts[w], 0)
        c.circle(x, y, 7, fill="#2a7fd4", stroke=INK, parent=g, title="water source")
    return c.fragment()


def _labels_fragment() -> str:
    """Each vertex's (q, r), drawn over the pieces so that a tile's corners stay readable."""
    c = Canvas(WIDTH)
    labels = c.group("coordinates", font_size=7, fill="#5f584c", text_anchor="middle")
    for v in _B.verts:
        x, y = _xy(v, 0)
        c.text(x, y - 3, f"{v[0]},{v[1]}", size=12, parent=labels)  # size and colour from the group
    return c.fragment()


_FRAGMENTS: list[str] = []


def draw(c: Canvas, views: dict[int, dict], player: int | None, game, scores: list | None) -> None:
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
        _FRAGMENTS[:] = [_board_fragment(), _labels_fragment()]
    board = c.group("state", transform=f"translate(0,{top:.1f})")
    c.include(_FRAGMENTS[0], bottom=top + BOARD_H, parent=board)
    hills = c.group("hills", parent=board)
    for s, t in base["hills"]:
        for tri in _B.site_triangles(_B.site_id[(s, t)]):
            c.polygon(_tri_points(_B.tri_verts[tri], 0), fill=HILL_FILL, stroke="#8c6a40", parent=hills,
                      title=f"hill ({s},{t})")
    tiles = c.group("tiles", parent=board, stroke=INK)
    for tile in base["tiles"]:
        a, b = (tuple(map(tuple, tri)) for tri in tile["triangles"])
        quad = sorted(set(a) | set(b))
        outer = [v for v in a if v not in b] + [v for v in b if v not in a]
        shared = [v for v in a if v in b]
        pts = [_xy(outer[0], 0), _xy(shared[0], 0), _xy(outer[1], 0), _xy(shared[1], 0)]
        name = f"{tile['colour']} tile on " + " ".join(f"({q},{r})" for q, r in quad)
        c.polygon(pts, fill=TILE_FILL[tile["colour"]], stroke=INK, parent=tiles, title=name, stroke_width=1.5)
        if tile["magistrate"] is not None:
            cx = sum(x for x, _ in pts) / 4
            cy = sum(y for _, y in pts) / 4
            m = tile["magistrate"]
            c.circle(cx, cy, 7, fill=PLAYER_COLOURS[m], stroke="#ffffff", parent=tiles,
                     title=f"{player_name(m)}'s magistrate")
    for a in base["aqueducts"]:
        if a["started"] and len(a["path"]) > 1:
            fill, edge = AQUEDUCT[a["colour"]]
            pts = [_xy(v, 0) for v in a["path"]]
            c.polyline(pts, stroke=edge, width=8, parent=board, stroke_linecap="round", stroke_linejoin="round")
            c.polyline(pts, stroke=fill, width=5, parent=board, stroke_linecap="round", stroke_linejoin="round",
                       title=f"{a['colour']} aqueduct, {len(a['path']) - 1} pieces")
    for site in base["sites"]:
        s, t = site["site"]
        x, y = _xy((2 * s + t, t - s), 0)
        if site.get("fountain"):
            c.circle(x, y, 9, fill="#7fc8f8", stroke=INK, parent=board, title=f"fountain on site ({s},{t})")
            c.text(x, y + 4, "F", size=10, anchor="middle", weight="bold", parent=board)
        elif site.get("empty"):
            c.rect(x - 8, y - 8, 16, 16, fill="#ffffff", stroke=INK, parent=board, title=f"empty site ({s},{t})")
            c.text(x, y + 4, "X", size=10, anchor="middle", parent=board)
        else:
            owner = site["owner"]
            c.rect(x - 10, y - 10, 20, 20, fill=TILE_FILL[_BUILDING_COLOUR[site["building"]]],
                   stroke=PLAYER_COLOURS[owner], rx=3, parent=board, stroke_width=3,
                   title=f"{site['building']} of {player_name(owner)} on site ({s},{t})")
            c.text(x, y + 4, _SHORT[site["building"]] + str(owner), size=10, anchor="middle", weight="bold",
                   parent=board)
    for space in base["bridge_spaces_open"]:
        pts = _tri_points([tuple(v) for v in space], 0)
        c.text(sum(x for x, _ in pts) / 3, sum(y for _, y in pts) / 3 + 4, "B", size=10, anchor="middle",
               fill="#1d5f99", weight="bold", parent=board)

    c.include(_FRAGMENTS[1], parent=board)
    _side(c, views, base, player, n, top, scores)
    y = max(c.height, top + BOARD_H) + 8
    c.legend(y, [("box", TILE_FILL["red"], "red (Arena)"), ("box", TILE_FILL["yellow"], "yellow (Theater)"),
                 ("box", TILE_FILL["green"], "green (Temple)"), ("box", TILE_FILL["blue"], "blue (Baths)"),
                 ("box", HILL_FILL, "hill"), ("box", BRIDGE_FILL, "bridge space (B: bridge still there)"),
                 ("dot", "#2a7fd4", "water source"), ("dot", PLAYER_COLOURS[0], "magistrate (seat colour)"),
                 ("text", "A0", "building + owner at a site centre"), ("dot", "#7fc8f8", "fountain"),
                 ("line", AQUEDUCT["gray"][0], "gray aqueduct"), ("line", AQUEDUCT["brown"][0], "brown aqueduct"),
                 ("line", "#bbbbbb", "white aqueduct"), ("text", "q,r", "vertex coordinates (as moves name them)"),
                 ("text", "\u25b6", "whose turn")])


def _side(c: Canvas, views, base, player, n, top, scores) -> None:
    x = BOARD_W + 20
    w = WIDTH - x - 12
    y = top
    stacks = "  ".join(f"{k} {v}" for k, v in base["stacks"].items())
    c.text(x, y + 12, f"stacks: {stacks}")
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
        colour = PLAYER_COLOURS[p]
        g = c.group("player")
        h = 112
        c.rect(x, y, w, h, fill="#ffffff", stroke=colour, rx=6, parent=g, stroke_width=2 if p == player else 1)
        mark = "\u25b6 " if p == base["turn_player"] and base["phase"] != "over" else ""
        c.text(x + 8, y + 18, f"{mark}{player_name(p)}" + ("  (you)" if p == player else ""), size=14,
               weight="bold", fill=colour, parent=g)
        c.text(x + 120, y + 18, f"{pd['points']} pts   {pd['coins']} coins", parent=g)
        c.text(x + 8, y + 38, "tiles", parent=g)
        c.text(x + 8, y + 60, "imperium", parent=g)
        for i, (col, k) in enumerate(pd["tiles"].items()):
            c.card(x + 70 + i * 34, y + 26, 30, 18, str(k), fill=TILE_FILL[col], size=11, parent=g,
                   title=f"{k} {col} tile(s) in hand")
        for i, (col, k) in enumerate(pd["imperium"].items()):
            c.card(x + 70 + i * 34, y + 48, 30, 18, str(k), fill=TILE_FILL[col], size=11, parent=g,
                   title=f"{k} {col} Imperium tile(s)")
        mags = pd["magistrates"]
        placed = _data.MAGISTRATES - mags["centre"] - mags["treasury"] - sum(mags["imperium"].values())
        c.text(x + 8, y + 84, f"magistrates: {mags['centre']} centre, {mags['treasury']} treasury, "
               f"{sum(mags['imperium'].values())} imperium, {placed} on tiles", size=11, parent=g)
        own = views[p]["players"][p] if p in views else pd  # bridge values: their owner's knowledge
        if own.get("bridges") is not None:
            bridges = f"bridges: {', '.join(map(str, own['bridges'])) or 'none'}"
        else:
            bridges = f"bridges: {pd.get('bridge_count', 0)} face down"
        c.text(x + 8, y + 102, bridges, size=11, parent=g)
        y += h + 8
    if scores is not None and base["phase"] == "over":
        best = max(scores)
        c.text(x, y + 14, "final: " + ", ".join(f"{player_name(q)} {scores[q]}" for q in range(n)), weight="bold")
        c.text(x, y + 32, "best: " + ", ".join(player_name(q) for q in range(n) if scores[q] == best), weight="bold")
