"""The Great City of Rome as an SVG picture: the action strip, the offer, the influence
cards and every player's city on the 8x8 board (rows and columns numbered as build actions
name them), hand and counters.  Drawn from observations only (see :mod:`romecore.picture`)."""

from __future__ import annotations

from romecore.games.great_city_of_rome import data as _data
from romecore.picture import HIDDEN_FILL, INK, MUTED, PLAYER_COLOURS, Canvas, player_name

WIDTH = 920
CELL = 27
BOARD = 8  # the board a city lies on is 8x8 (cell = row * 8 + col)

KIND_FILL = {
    _data.FARM_VEG: "#b7dc8c", _data.FARM_GRAIN: "#e9d77a", _data.FARM_SHEEP: "#d7e8c4",
    _data.VINEYARD: "#b592c4", _data.RESIDENTIAL: "#e8c9a0", _data.AQUEDUCT: "#9fd3e6",
    _data.TEMPLE: "#f2f2f2",
}
PUBLIC_FILL = {_data.YELLOW: "#f6dd52", _data.RED: "#e8776b", _data.GREEN: "#6fbf73", _data.BLUE: "#6f9fd8"}
_TYPES = {t.name: t for t in _data.TYPES}
SPACE = {"B": "brick", "C": "cog"}


def _fill(name: str) -> str:
    t = _TYPES.get(name)
    if t is None:
        return HIDDEN_FILL
    return PUBLIC_FILL[t.colour] if t.kind == _data.PUBLIC and t.colour else KIND_FILL[t.kind]


def _label(name: str) -> str:
    t = _TYPES.get(name)
    return name if t is None else t.short + "*" * t.stars


def _holder(h) -> str:
    """An influence card's holder: a seat, or a word (unused, in play)."""
    return player_name(h) if isinstance(h, int) else str(h)


def _hand(views: dict[int, dict], base: dict, q: int) -> tuple[list[str], int]:
    """Seat q's hand as the picture's knowledge has it: names, and how many are unknown."""
    if q in views:
        return list(views[q]["hand"]), 0
    opp = base["opponents"][str(q)]
    return list(opp["known"]), opp["size"] - len(opp["known"])


def draw(c: Canvas, views: dict[int, dict], player: int | None, game, scores: list | None) -> None:
    base = views[player if player is not None else 0]
    scores = scores if scores is not None else base.get("scores")
    n = game.num_players()
    mover = base["current_player"]
    over = base["phase"] == "over"
    info = (f"round {base['round']}/{base['rounds']}   phase {base['phase']}   "
            + (f"{player_name(mover)} to move   " if mover >= 0 else "")
            + f"first player {player_name(base['first_player'])} (\u2605)")
    y = c.title("The Great City of Rome", player, info)

    # The action strip: five spaces, the emissary on each.
    c.text(12, y + 17, "strip", weight="bold")
    face = base.get("face")
    for k in range(5):
        x = 70 + k * 70
        label = f"{k + 1}: {SPACE.get(face[k], '?')}" if face else f"{k + 1}"
        c.card(x, y, 64, 26, label, fill="#f4ead8" if face else HIDDEN_FILL)
        owner = base["emissaries"][k] if k < len(base["emissaries"]) else None
        if owner is not None:
            c.circle(x + 58, y + 6, 6, fill=PLAYER_COLOURS[owner], title=f"{player_name(owner)}'s emissary")
    # The offer and the decks.
    x = 440
    c.text(x, y + 17, "offer", weight="bold")
    for i, nm in enumerate(base["offer"]):
        c.card(x + 42 + i * 50, y, 46, 26, _label(nm), fill=_fill(nm), size=10, title=nm)
    decks = "  ".join(f"{k}:{v}" for k, v in base["deck_sizes"].items())
    c.text(WIDTH - 12, y + 17, f"decks {decks}", anchor="end", fill=MUTED)
    y += 36
    infl = ", ".join(f"{ic['value']} ({_holder(ic['holder'])})" for ic in base["influence_cards"])
    c.text(12, y + 12, f"influence cards: {infl}")
    y += 24

    # The players: two panels a row.
    panel_w = (WIDTH - 36) / 2
    panel_h = 40 + BOARD * CELL + 60
    for q in range(n):
        px = 12 + (q % 2) * (panel_w + 12)
        py = y + (q // 2) * (panel_h + 10)
        _player_panel(c, views, base, q, px, py, panel_w, panel_h, scores, player)
    y += ((n + 1) // 2) * (panel_h + 10)
    if over and scores is not None:
        best = max(scores)
        c.text(12, y + 14, "final: " + ", ".join(f"{player_name(q)} {scores[q]}" for q in range(n))
               + "   best score: " + ", ".join(player_name(q) for q in range(n) if scores[q] == best), weight="bold")
        y += 24
    c.legend(y, [("box", KIND_FILL[_data.FARM_VEG], "farm"), ("box", KIND_FILL[_data.VINEYARD], "vineyard"),
                 ("box", KIND_FILL[_data.RESIDENTIAL], "residential (value)"),
                 ("box", PUBLIC_FILL[_data.YELLOW], "market"), ("box", PUBLIC_FILL[_data.RED], "arena"),
                 ("box", PUBLIC_FILL[_data.GREEN], "school"), ("box", PUBLIC_FILL[_data.BLUE], "baths"),
                 ("box", KIND_FILL[_data.AQUEDUCT], "aqueduct"), ("box", KIND_FILL[_data.TEMPLE], "temple"),
                 ("box", HIDDEN_FILL, "unknown card"), ("box", "#ffffff", "cell the city may grow onto"),
                 ("box", "#e6e1d6", "out of the city's 4x4 reach"), ("text", "*", "a star"),
                 ("text", "+n", "tokens on a building"), ("text", "\u2605", "first player"),
                 ("text", "\u25b6", "to move"), ("dot", PLAYER_COLOURS[0], "emissary (seat colour)")])


def _player_panel(c: Canvas, views, base, q, x, y, w, h, score, player) -> None:
    g = c.group("player")
    colour = PLAYER_COLOURS[q]
    c.rect(x, y, w, h, fill="#ffffff", stroke=colour, rx=6, parent=g, stroke_width=2 if q == player else 1)
    mark = ("\u25b6 " if q == base["current_player"] else "") + ("\u2605 " if q == base["first_player"] else "")
    you = "  (you)" if q == player else ""
    c.text(x + 10, y + 20, f"{mark}{player_name(q)}{you}", size=14, weight="bold", fill=colour, parent=g)
    held = [str(ic["value"]) for ic in base["influence_cards"] if ic["holder"] == q]
    c.text(x + 150, y + 20, f"{base['coins'][q]} coins   {base['influence'][q]} influence"
           + (f"   cards {'+'.join(held)}" if held else "")
           + (f"   score {score[q]}" if score is not None else ""), parent=g)

    # The city on its 8x8 board, the 4x4 reach left open.
    city = base["cities"][q]
    rows = [b[1] for b in city]
    cols = [b[2] for b in city]
    r0, r1 = (max(0, max(rows) - 3), min(BOARD - 1, min(rows) + 3)) if city else (0, BOARD - 1)
    c0, c1 = (max(0, max(cols) - 3), min(BOARD - 1, min(cols) + 3)) if city else (0, BOARD - 1)
    bx, by = x + 28, y + 46
    for col in range(BOARD):
        c.text(bx + col * CELL + CELL / 2, by - 4, col, size=10, anchor="middle", fill=MUTED, parent=g)
    for r in range(BOARD):
        c.text(bx - 6, by + r * CELL + CELL / 2 + 4, r, size=10, anchor="end", fill=MUTED, parent=g)
    c.rect(bx, by, BOARD * CELL, BOARD * CELL, fill="#e6e1d6", stroke=None, parent=g)
    taken = {(b[1], b[2]) for b in city}
    for r in range(r0, r1 + 1):  # each open cell on its own, named, so a click can pick it
        for col in range(c0, c1 + 1):
            if (r, col) not in taken:
                c.rect(bx + col * CELL, by + r * CELL, CELL, CELL, fill="#ffffff", stroke=None, parent=g,
                       title=f"open cell ({r},{col}): the city may still grow here")
    c.grid(bx, by, BOARD, BOARD, CELL, parent=g)
    c.text(bx + BOARD * CELL / 2, by + BOARD * CELL + 14, "(row, col)", size=10, anchor="middle",
           fill=MUTED, parent=g)
    for name, r, col, tokens in city:
        c.card(bx + col * CELL + 1, by + r * CELL + 1, CELL - 2, CELL - 2, _label(name), fill=_fill(name),
               sub=f"+{tokens}" if tokens else None, size=8, parent=g, title=f"{name} at ({r},{col})")

    # The hand.
    hx = bx + BOARD * CELL + 16
    names, unknown = _hand(views, base, q)
    c.text(hx, by + 8, "hand" + ("" if q in views else " (as known)"), weight="bold", parent=g)
    cy = by + 16
    for nm in sorted(names):
        c.card(hx, cy, w - (hx - x) - 10, 18, nm, fill=_fill(nm), size=10, parent=g)
        cy += 21
    if unknown:
        c.card(hx, cy, w - (hx - x) - 10, 18, f"{unknown} unknown card(s)", fill=HIDDEN_FILL, size=10, parent=g)
        cy += 21
    if not names and not unknown:
        c.text(hx, cy + 12, "(empty)", fill=MUTED, parent=g)
    if q in views and player is not None:
        own = views[q]
        if own.get("drawn"):
            drawn = [nm if nm is not None else "hidden" for nm in own["drawn"]]  # None: unknown to p
            c.text(hx, cy + 14, "drawn: " + ", ".join(drawn), size=10, fill=INK, parent=g)
