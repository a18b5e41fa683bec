"""Glory to Rome as an SVG picture: the pool, the sites left, and each player's hand,
vault, clientele, stockpile and buildings.  Drawn from observations only (see
:mod:`romecore.picture`): a player's picture shows opponents' hands and vaults as the cards
that player saw plus a count, and no scores, which depend on vaults."""

from __future__ import annotations

from romecore.games.glory_to_rome import data as _data
from romecore.picture import HIDDEN_FILL, INK, MUTED, PLAYER_COLOURS, Canvas, player_name

WIDTH = 960
MATERIAL_FILL = {"yellow": "#f3e18a", "green": "#9ccf8a", "grey": "#c4c4c4", "red": "#e58e7c",
                 "blue": "#8fb5e3", "purple": "#c5a3d9"}
_MAT = {m.name: m for m in _data.MATERIALS}
_ROLE = {m.role: m for m in _data.MATERIALS}
_CARD_MAT = {b.name: _data.MATERIALS[b.material] for b in _data.BUILDINGS}
JACK_FILL = "#ffffff"


def _card_fill(name: str) -> str:
    m = _CARD_MAT.get(name)
    return JACK_FILL if m is None else MATERIAL_FILL[m.colour]


def _material_fill(name: str) -> str:
    return MATERIAL_FILL[_MAT[name].colour]


def _counts(names, key) -> dict[str, int]:
    out: dict[str, int] = {}
    for nm in names:
        k = key(nm)
        out[k] = out.get(k, 0) + 1
    return out


def draw(c: Canvas, views: dict[int, dict], player: int | None, game, scores: list | None) -> None:
    base = views[player if player is not None else 0]
    n = game.num_players()
    mover = base["current_player"]
    info = (f"phase {base['phase']}   leader {player_name(base['leader'])} (\u2605)   role {base['role'] or '-'}"
            + (f"   {player_name(mover)} to move" if mover >= 0 else "")
            + f"   draw pile {base['deck_size']}   Jacks {base['jack_pile']}")
    y = c.title("Glory to Rome", player, info)

    # The pool: how many of each material, the cards as tooltips.
    c.text(12, y + 18, "pool", weight="bold")
    pool = _counts(base["pool"], lambda nm: _CARD_MAT[nm].name)
    x = 80
    for m in _data.MATERIALS:
        k = pool.get(m.name, 0)
        names = ", ".join(nm for nm in base["pool"] if _CARD_MAT[nm].name == m.name)
        c.card(x, y, 104, 28, f"{m.name} \u00d7{k}", fill=MATERIAL_FILL[m.colour] if k else "#f2efe8",
               size=11, title=names or f"no {m.name}")
        x += 108
    y += 34
    c.text(12, y + 14, "sites", weight="bold")
    x = 80
    for m in _data.MATERIALS:
        inn = base["sites"]["in_town"].get(m.name, 0)
        out = base["sites"]["out_of_town"].get(m.name, 0)
        c.text(x + 52, y + 14, f"{inn} in, {out} out", size=11, anchor="middle")
        x += 108
    y += 24

    tops = [y, y]
    panel_w = (WIDTH - 36) / 2
    for q in range(n):
        col = q % 2
        h = _player_panel(c, views, base, q, 12 + col * (panel_w + 12), tops[col], panel_w, player, scores)
        tops[col] += h + 10
    y = max(tops)
    if player is not None and scores is None:
        c.text(12, y + 14, "scores are not shown: they depend on vaults that this player cannot see",
               size=11, fill=MUTED)
        y += 20
    elif scores is not None and base["phase"] == "over":
        c.text(12, y + 14, "final: " + ", ".join(f"{player_name(q)} {scores[q]}" for q in range(n)), weight="bold")
        y += 22
    c.legend(y, [("box", MATERIAL_FILL[m.colour], f"{m.name} / {m.role}") for m in _data.MATERIALS]
             + [("box", JACK_FILL, "Jack"), ("box", HIDDEN_FILL, "unseen card(s)"),
                ("text", "\u2605", "leader"), ("text", "\u25b6", "to move"), ("text", "\u2713", "complete"),
                ("text", "out", "out of town")])


def _hand(views, base, q) -> tuple[list[str], int]:
    if q in views:
        return sorted(views[q]["hand"]), 0
    known = sorted(base["known_in_hands"].get(str(q), []))
    return known, base["hand_sizes"][q] - len(known)


def _vault(views, base, q) -> tuple[list[str], int]:
    v = (views[q] if q in views else base)["vaults"][q]
    return sorted(v["known"]), v["hidden"]


def _player_panel(c: Canvas, views, base, q, x, y, w, player, scores) -> float:
    colour = PLAYER_COLOURS[q]
    g = c.group("player")
    frame = c.rect(x, y, w, 10, fill="#ffffff", stroke=colour, rx=6, parent=g, stroke_width=2 if q == player else 1)
    mark = ("\u25b6 " if q == base["current_player"] else "") + ("\u2605 " if q == base["leader"] else "")
    c.text(x + 10, y + 20, f"{mark}{player_name(q)}" + ("  (you)" if q == player else ""), size=14,
           weight="bold", fill=colour, parent=g)
    c.text(x + 130, y + 20, f"influence {base['influence'][q]}" + (f"   score {scores[q]}" if scores else ""), parent=g)
    right = x + w - 6
    cy = y + 28

    def row(label: str, names: list[str], fill, unknown: int = 0, unknown_label: str = "unseen") -> None:
        nonlocal cy
        c.text(x + 10, cy + 14, label, size=11, parent=g)
        nx, cy = c.row_of_cards(x + 80, cy, names, w=74, h=20, fill=fill, parent=g, size=9, wrap=right)
        nx = c.hidden_cards(nx, cy, unknown, h=20, parent=g, label=unknown_label)
        if not names and not unknown:
            c.text(x + 80, cy + 14, "-", fill=MUTED, parent=g)
        cy += 24

    hand, hidden = _hand(views, base, q)
    jacks = base["jacks"][q]
    row("hand", hand + ["Jack"] * jacks, _card_fill, hidden, "card(s) in hand")
    vault, vhidden = _vault(views, base, q)
    row("vault", vault, _card_fill, vhidden, "face-down vault card(s)")
    row("clientele", [_CARD_MAT[nm].role for nm in base["clienteles"][q]], lambda r: MATERIAL_FILL[_ROLE[r].colour])
    row("stockpile", [_CARD_MAT[nm].name for nm in base["stockpiles"][q]], _material_fill)
    if base["camps"][q]:
        row("camp", base["camps"][q], _card_fill)
    c.text(x + 10, cy + 14, "buildings", size=11, parent=g)
    bx = x + 80
    for sd in (s for s in base["structures"] if s["owner"] == q):
        need = _MAT[sd["site"]].value
        state = "\u2713" if sd["complete"] else f"{len(sd['materials'])}/{need}"
        label = f"{sd['building']} {state}" + (" out" if sd["out_of_town"] else "")
        if bx + 120 > right:
            bx, cy = x + 80, cy + 24
        c.card(bx, cy, 118, 20, label, fill=_material_fill(sd["site"]), size=9, parent=g,
               stroke=INK if sd["complete"] else "#8a8276",
               title=f"{sd['building']} on a {sd['site']} site" + (" out of town" if sd["out_of_town"] else "")
               + (f", materials: {', '.join(sd['materials'])}" if sd["materials"] else ""))
        bx += 122
    if bx == x + 80:
        c.text(bx, cy + 14, "-", fill=MUTED, parent=g)
    cy += 26
    h = cy - y + 2
    frame.set("height", str(h))
    c.grow(y + h)
    return h
