"""Rome: Rise to Power as an SVG picture: the three action tracks with every player's dice,
the province, Senate and Arena rows, the decks, and each player's forum tracks, dice,
provinces, Senate cards and Arena cards.  Drawn from observations only (see
:mod:`romecore.picture`)."""

from __future__ import annotations

from romecore.games.rise_to_power import data as _data
from romecore.picture import HIDDEN_FILL, INK, MUTED, PLAYER_COLOURS, Canvas, player_name

WIDTH = 940
_PROV = {p.name: p for p in _data.PROVINCES}
_ARENA = {a.name: a for a in _data.ARENA_TYPES}
TYPE_FILL = {_data.VILLA: "#cde6b0", _data.ARENA: "#f3c6a5", _data.ARMY_CAMP: "#c9cfe8"}
RESOURCE_MARK = {_data.OLIVES: "O", _data.WINE: "W", _data.JEWELRY: "J"}
CATEGORY_FILL = {_data.ROMAN: "#f1d7d7", _data.BEAST: "#e9dfc1", _data.BARBARIAN: "#d9e3d0"}
SENATE_FILL = "#ece4f4"
TRACK_KEYS = ("military", "senate", "black_market")


def _province(name: str) -> tuple[str, str, str]:
    p = _PROV.get(name)
    if p is None:
        return name, HIDDEN_FILL, ""
    return name, TYPE_FILL[p.type], f"{p.power} power  {RESOURCE_MARK[p.resource]}  {p.region}"


def _arena_fill(name: str) -> str:
    a = _ARENA.get(name)
    return HIDDEN_FILL if a is None else CATEGORY_FILL[a.category]


def _die(c: Canvas, x: float, y: float, value: int, p: int, parent=None) -> None:
    c.rect(x, y, 20, 20, fill=PLAYER_COLOURS[p], stroke=INK, rx=4, parent=parent,
           title=f"{player_name(p)}'s die: {value}")
    c.text(x + 10, y + 15, value, size=13, anchor="middle", weight="bold", fill="#ffffff", parent=parent)


def _names(cards) -> list[str]:
    return [c[0] if isinstance(c, (list, tuple)) else c for c in cards]


def _arena(views: dict[int, dict], base: dict, q: int) -> tuple[list[str], int, list[str], int]:
    """Seat q's Arena cards as known here: hand names, unknown hand cards, show names,
    unknown show cards."""
    if q in views:  # the owner's own cards come as (name, bought face up)
        return _names(views[q]["hand"]), 0, _names(views[q]["show"]), 0
    opp = base["opponents"][str(q)]
    return list(opp["known"]), opp["hidden"], [], opp["show_size"]


def draw(c: Canvas, views: dict[int, dict], player: int | None, game, scores: list | None) -> None:
    base = views[player if player is not None else 0]
    scores = scores if scores is not None else base.get("scores")
    n = game.num_players()
    mover = base["current_player"]
    info = (f"round {base['round']}/{_data.ROUNDS}   phase {base['phase']}   turn order "
            + " ".join(player_name(q) for q in base["order"])
            + (f"   {player_name(mover)} to move" if mover >= 0 else ""))
    y = c.title("Rome: Rise to Power", player, info)

    # The tracks: each player's dice on them, in the order placed.
    for t, key in enumerate(TRACK_KEYS):
        g = c.group("track")
        c.rect(12, y, WIDTH - 24, 28, fill="#f4ecdc", stroke="#c9bfa9", rx=4, parent=g)
        c.text(20, y + 19, _data.TRACKS[t], weight="bold", parent=g)
        x = 130
        for grp in base["tracks"][key]:
            for v in grp["dice"]:
                _die(c, x, y + 4, v, grp["player"], parent=g)
                x += 23
            x += 14
        y += 32
    y += 6

    # The rows and decks.
    c.text(12, y + 16, "provinces", weight="bold")
    x = 100
    for nm in base["rows"]["provinces"]:
        name, fill, sub = _province(nm)
        c.card(x, y, 150, 34, name, fill=fill, sub=sub, size=10)
        x += 154
    y += 40
    c.text(12, y + 16, "senate", weight="bold")
    c.row_of_cards(100, y, base["rows"]["senate"], w=120, fill=SENATE_FILL)
    y += 32
    c.text(12, y + 16, "arena", weight="bold")
    c.row_of_cards(100, y, base["rows"]["arena"], w=100, fill=_arena_fill)
    y += 32
    decks = base["decks"]
    c.text(12, y + 14, f"decks: provinces {len(decks['provinces'])}, senate {len(decks['senate'])}, "
           f"arena {decks['arena_size']}   removed from the arena: {len(base['arena_removed'])}", fill=MUTED)
    y += 24

    panel_w = (WIDTH - 36) / 2
    tops = [y, y]  # two columns of panels, each as tall as its contents
    for q in range(n):
        col = q % 2
        px = 12 + col * (panel_w + 12)
        h = _player_panel(c, views, base, q, px, tops[col], panel_w, player, scores)
        tops[col] += h + 10
    y = max(tops)
    if base["phase"] == "over" and scores is not None:
        c.text(12, y + 14, "final: " + ", ".join(f"{player_name(q)} {scores[q]} VP" for q in range(n)), weight="bold")
        y += 24
    c.legend(y, [("box", PLAYER_COLOURS[0], "die (seat colour)"), ("box", TYPE_FILL[_data.VILLA], "villa province"),
                 ("box", TYPE_FILL[_data.ARENA], "arena province"),
                 ("box", TYPE_FILL[_data.ARMY_CAMP], "army camp province"),
                 ("text", "O/W/J", "olives, wine, jewelry"), ("box", SENATE_FILL, "senate card"),
                 ("box", CATEGORY_FILL[_data.ROMAN], "roman"), ("box", CATEGORY_FILL[_data.BEAST], "beast"),
                 ("box", CATEGORY_FILL[_data.BARBARIAN], "barbarian"), ("box", HIDDEN_FILL, "face-down card"),
                 ("text", "\u25b6", "to move")])


def _player_panel(c: Canvas, views, base, q, x, y, w, player, scores) -> float:
    pd = base["players"][q]
    colour = PLAYER_COLOURS[q]
    g = c.group("player")
    frame = c.rect(x, y, w, 10, fill="#ffffff", stroke=colour, rx=6, parent=g, stroke_width=2 if q == player else 1)
    mark = "\u25b6 " if q == base["current_player"] else ""
    c.text(x + 10, y + 20, f"{mark}{player_name(q)}" + ("  (you)" if q == player else ""), size=14, weight="bold",
           fill=colour, parent=g)
    vp = f"VP {scores[q]}   " if scores is not None else ""
    c.text(x + 120, y + 20, f"{vp}forum {pd['vp_forum']}  arena {pd['vp_arena']}", parent=g)
    cy = y + 30
    # The forum tracks.
    for i, (res, v) in enumerate(pd["forum"].items()):
        fx = x + 10 + i * 140
        c.text(fx, cy + 12, f"{res} {v}", size=11, parent=g)
        c.rect(fx + 62, cy + 3, 60, 10, fill="#f0f0f0", stroke="#bbbbbb", parent=g)
        c.rect(fx + 62, cy + 3, 60 * min(v, 10) / 10, 10, fill=colour, stroke=None, parent=g)
    cy += 22
    c.text(x + 10, cy + 14, "dice", size=11, parent=g)
    dx = x + 44
    for v in pd["dice"]:
        _die(c, dx, cy, v, q, parent=g)
        dx += 23
    if not pd["dice"]:
        c.text(dx, cy + 14, "-", fill=MUTED, parent=g)
    bonus = [f"{k.replace('_', ' ')} {pd[k]}" for k in ("military_bonus", "coin_bonus", "tribunus") if pd.get(k)]
    if bonus:
        c.text(x + 200, cy + 14, ", ".join(bonus), size=11, fill=MUTED, parent=g)
    cy += 26
    c.text(x + 10, cy + 14, "provinces", size=11, parent=g)
    px = x + 74
    for nm in pd["provinces"]:
        name, fill, sub = _province(nm)
        if px + 110 > x + w - 6:
            px, cy = x + 74, cy + 34
        c.card(px, cy, 108, 30, name, fill=fill, sub=sub, size=9, parent=g)
        px += 112
    if not pd["provinces"]:
        c.text(px, cy + 14, "-", fill=MUTED, parent=g)
    cy += 36
    c.text(x + 10, cy + 14, "senate", size=11, parent=g)
    _, cy = c.row_of_cards(x + 74, cy, [s["card"] for s in pd["senate"]], w=108, h=20, fill=SENATE_FILL,
                           parent=g, size=9, wrap=x + w - 6)
    if not pd["senate"]:
        c.text(x + 74, cy + 14, "-", fill=MUTED, parent=g)
    cy += 26
    hand, hidden, show, show_hidden = _arena(views, base, q)
    c.text(x + 10, cy + 14, "arena", size=11, parent=g)
    ax, cy = c.row_of_cards(x + 74, cy, sorted(hand), w=80, h=20, fill=_arena_fill, parent=g, size=9, wrap=x + w - 6)
    ax = c.hidden_cards(ax, cy, hidden, h=20, parent=g, label="face-down arena card(s)")
    if not hand and not hidden:
        c.text(x + 74, cy + 14, "-", fill=MUTED, parent=g)
    cy += 24
    if show or show_hidden:
        c.text(x + 10, cy + 14, "show", size=11, parent=g)
        sx, cy = c.row_of_cards(x + 74, cy, sorted(show), w=80, h=20, fill=_arena_fill, parent=g, size=9,
                                wrap=x + w - 6)
        c.hidden_cards(sx, cy, show_hidden, h=20, parent=g, label="card(s) in a show being prepared")
        cy += 24
    h = cy - y + 4
    frame.set("height", str(h))
    c.grow(y + h)
    return h
