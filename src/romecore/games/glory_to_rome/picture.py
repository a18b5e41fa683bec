"""Glory to Rome as an SVG picture: the pool, the draw and Jack piles, the sites left, the
six roles, and each player's hand, vault, clientele, stockpile, camp and buildings.  Drawn
from observations only (see :mod:`romecore.picture`): a player's picture shows opponents'
hands and vaults as the cards that player saw plus a count, and no scores, which depend on
vaults.

Every thing a move names carries a board key (``data-target``, see :func:`targets`), so the
browser table is played by clicking the board.  :func:`public_view` is what every player may
see (a spectator's picture while the game is under way): every hand and vault as a count and
the cards all seats know."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from romecore.games.glory_to_rome import data as _data
from romecore.games.glory_to_rome import kernel as _kernel
from romecore.picture import HIDDEN_FILL, INK, MUTED, PLAYER_COLOURS, PUBLIC, Canvas, player_name

WIDTH = 960
MATERIAL_FILL = {"yellow": "#f3e18a", "green": "#9ccf8a", "grey": "#c4c4c4", "red": "#e58e7c",
                 "blue": "#8fb5e3", "purple": "#c5a3d9"}
_MAT = {m.name: m for m in _data.MATERIALS}
_ROLE = {m.role: m for m in _data.MATERIALS}
_CARD_MAT = {b.name: _data.MATERIALS[b.material] for b in _data.BUILDINGS}
JACK_FILL = "#ffffff"
EMPTY_FILL = "#f2efe8"     # a pool box or site box with nothing in it
LABEL_FILL = "#f6f3ec"     # a player's row label: the zone itself, where a move may land
LABEL_STROKE = "#ddd5c6"


def _card_fill(name: str) -> str:
    m = _CARD_MAT.get(name)
    return JACK_FILL if m is None else MATERIAL_FILL[m.colour]


def _material_fill(name: str) -> str:
    return MATERIAL_FILL[_MAT[name].colour]


def _slug(name: str) -> str:
    """A name as a board key's detail: "Circus Maximus" -> "Circus_Maximus" (keys hold no spaces)."""
    return name.replace(" ", "_")


def _counts(names, key) -> dict[str, int]:
    out: dict[str, int] = {}
    for nm in names:
        k = key(nm)
        out[k] = out.get(k, 0) + 1
    return out


# -- what every player may see -----------------------------------------------------------------
def public_view(state: Any) -> dict:
    """What every player may see, in the shape of a seat's observation with ``"player":
    None``: what all seats' observations hold alike (the pool, piles, sites, roles, every
    seat's stockpile, clientele, camp, buildings, Influence, hand and vault sizes, the turn),
    no hand of its own (``"hand": []``), and for every seat's hand and vault only the cards
    all the seats know (a Legionary reveal; a Merchant's sale), the rest a count.  A card
    one seat knows alone (its hand, a Basilica card, a Fountain draw and the card it places)
    is hidden, and so are the cards nobody knows (an Atrium card, the draw pile).  Anything
    else the seats see differently is left out (the tests check that nothing is)."""
    n = state.game.num_players()
    seen = [state.observation(q) for q in range(n)]
    view = {k: v for k, v in seen[0].items() if all(o[k] == v for o in seen[1:])}
    view["player"] = None
    view["hand"] = []
    view["known_in_hands"] = {str(q): _common(o["known_in_hands"][str(q)] for o in seen if o["player"] != q)
                              for q in range(n)}
    view["vaults"] = [_public_vault([o["vaults"][q] for o in seen]) for q in range(n)]
    view["drawn"] = [_agreed(o["drawn"][i] for o in seen) for i in range(len(seen[0]["drawn"]))]
    turns = [o["turn"] for o in seen]
    view["turn"] = {k: _agreed(t[k] for t in turns) for k in turns[0]}   # the card placed: if all know it
    return {k: view[k] for k in seen[0] if k in view}   # in the observation's order


def _common(lists) -> list[str]:
    """The cards every list names (a multiset meet): what all those seats know of a zone."""
    lists = [Counter(x) for x in lists]
    meet = lists[0]
    for c in lists[1:]:
        meet &= c
    return sorted(meet.elements())


def _public_vault(vaults: list[dict]) -> dict:
    """A vault as every seat's view has it: the cards all know, the rest face down."""
    known = _common(v["known"] for v in vaults)
    return {"known": known, "hidden": len(vaults[0]["known"]) + vaults[0]["hidden"] - len(known)}


def _agreed(values) -> Any:
    """The value every seat sees, else None (what one seat alone sees of it)."""
    values = list(values)
    return values[0] if all(v == values[0] for v in values[1:]) else None


def draw(c: Canvas, views: dict, player: int | str | None, game, scores: list | None) -> None:
    """``player``'s picture from ``views`` (see :mod:`romecore.picture`); for
    :data:`~romecore.picture.PUBLIC` views holds only :func:`public_view`, so every seat is
    drawn as the others see it: a hand and a vault as the cards all know plus a count."""
    base = views[player if player is not None else 0]
    n = game.num_players()
    mover = base["current_player"]
    info = (f"phase {base['phase']}   leader {player_name(base['leader'])} (\u2605)"
            + (f"   {player_name(mover)} to move" if mover >= 0 else "") + _placing(views))
    y = c.title("Glory to Rome", player, info)
    y = c.cached(_supply, {k: base[k] for k in ("pool", "deck_size", "jack_pile", "sites", "role")}, y)

    tops = [y, y]
    panel_w = (WIDTH - 36) / 2
    for q in range(n):
        col = q % 2
        h = _player_panel(c, views, base, q, 12 + col * (panel_w + 12), tops[col], panel_w, player, scores)
        tops[col] += h + 10
    y = max(tops)
    if player is not None and scores is None:
        c.text(12, y + 14, _no_scores(base, player), size=11, fill=MUTED)
        y += 20
    elif scores is not None and base["phase"] == "over":
        c.text(12, y + 14, "final: " + ", ".join(f"{player_name(q)} {scores[q]}" for q in range(n)), weight="bold")
        y += 22
    c.legend(y, [("box", MATERIAL_FILL[m.colour], f"{m.name} / {m.role}") for m in _data.MATERIALS]
             + [("box", JACK_FILL, "Jack"), ("box", HIDDEN_FILL, "unseen card(s)"),
                ("text", "\u2605", "leader"), ("text", "\u25b6", "to move"), ("text", "\u2713", "complete"),
                ("text", "out", "out of town")])


def _no_scores(base: dict, player: int | str) -> str:
    """Why a seat's or the public picture shows no scores."""
    if player != PUBLIC:
        return "scores are not shown: they depend on vaults that this player cannot see"
    if any(v["hidden"] for v in base["vaults"]):
        return "scores are not shown: they depend on face-down vault cards"
    return "scores are not shown in the public view"


def _placing(views: dict) -> str:
    """The card a Craftsman, Architect or Stairway action is placing, when a view knows it
    (a Fountain draw only its drawer sees is named as such)."""
    sel = next((v["turn"]["selected"] for v in views.values() if v["turn"].get("selected")), None)
    if not sel:
        base = next(iter(views.values()))
        return "   placing an unseen Fountain draw" if base["phase"] == "act" and None in base["drawn"] else ""
    src = sel["from"]   # a hand card or a Fountain draw by its building, else by its material
    what = sel["card"] if src in ("hand", "drawn") else _CARD_MAT[sel["card"]].name
    return f"   placing {what} from the {'Fountain draw' if src == 'drawn' else src}"


def _supply(c: Canvas, base: dict, y: float) -> float:
    """The rows every player shares: the pool by material with the draw pile and the Jack
    pile, the sites left in and out of town, and the six roles (the led one marked);
    returns the y below them."""
    c.text(12, y + 18, "pool", weight="bold")
    pool = _counts(base["pool"], lambda nm: _CARD_MAT[nm].name)
    x = 80
    for m in _data.MATERIALS:
        k = pool.get(m.name, 0)
        names = ", ".join(nm for nm in base["pool"] if _CARD_MAT[nm].name == m.name)
        c.card(x, y, 104, 28, f"{m.name} \u00d7{k}", fill=MATERIAL_FILL[m.colour] if k else EMPTY_FILL,
               size=11, title=names or f"no {m.name}", target=f"pool:{m.name}")
        x += 108
    x += 8
    c.card(x, y, 100, 28, f"draw pile {base['deck_size']}", fill=HIDDEN_FILL, size=11, target="pile:deck")
    c.card(x + 104, y, 100, 28, f"Jacks {base['jack_pile']}", fill=JACK_FILL, size=11,
           title=f"{base['jack_pile']} Jack(s) in the pile", target="pile:jacks")
    y += 34
    c.text(12, y + 15, "sites", weight="bold")
    x = 80
    for m in _data.MATERIALS:
        for dx, where, word in ((0, "in_town", "in"), (54, "out_of_town", "out")):
            k = base["sites"][where].get(m.name, 0)
            c.card(x + dx, y, 50, 22, f"{word} {k}", fill=MATERIAL_FILL[m.colour] if k else EMPTY_FILL, size=10,
                   stroke=INK if word == "in" else MUTED, target=f"site:{word}:{m.name}",
                   title=f"{k} {m.name} site(s) {'in town' if word == 'in' else 'out of town'}")
        x += 108
    y += 28
    c.text(12, y + 15, "roles", weight="bold")
    x = 80
    for m in _data.MATERIALS:
        led = base["role"] == m.role
        c.card(x, y, 104, 22, f"\u25b6 {m.role}" if led else m.role, fill=MATERIAL_FILL[m.colour], size=11,
               stroke=INK if led else MUTED, title=f"{m.role} (led)" if led else m.role, target=f"role:{m.role}")
        x += 108
    return y + 30


def _hand(views, base, q) -> tuple[list[str], int]:
    if q in views:
        return sorted(views[q]["hand"]), 0
    known = sorted(base["known_in_hands"].get(str(q), []))
    return known, base["hand_sizes"][q] - len(known)


def _vault(views, base, q) -> tuple[list[str], int]:
    v = (views[q] if q in views else base)["vaults"][q]
    return sorted(v["known"]), v["hidden"]


def _petitions(views, q) -> list[str]:
    """Chips for the materials a petition could use: two or more of them in q's hand (three
    are needed, two with a Circus), for a hand this picture shows whole."""
    if q not in views:
        return []
    by_mat = _counts(views[q]["hand"], lambda nm: _CARD_MAT[nm].name)
    return [f"{by_mat[m.name]} {m.name}" for m in _data.MATERIALS if by_mat.get(m.name, 0) >= 2]


def _zone_label(c: Canvas, x: float, y: float, label: str, key: str | None, parent) -> None:
    """A row's label in a light box; with ``key``, the box is the zone itself (a vault, a
    stockpile ...), the board key of a move that puts a card there."""
    g = c.group("zone", parent, data_target=key)
    c.rect(x, y, 66, 20, fill=LABEL_FILL, stroke=LABEL_STROKE, rx=3, parent=g, title=label)
    c.text(x + 5, y + 14, label, size=11, parent=g)


def _player_panel(c: Canvas, views, base, q, x, y, w, player, scores) -> float:
    """Seat ``q``'s panel, drawn from what it shows (a panel no move changed comes from the
    picture cache); returns its height."""
    mark = ("\u25b6 " if q == base["current_player"] else "") + ("\u2605 " if q == base["leader"] else "")
    head = f"influence {base['influence'][q]}" + (f"   score {scores[q]}" if scores else "")
    colour = PLAYER_COLOURS[q]
    g = c.group("player")
    frame = c.rect(x, y, w, 10, fill="#ffffff", stroke=colour, rx=6, parent=g, stroke_width=2 if q == player else 1)
    c.text(x + 10, y + 20, f"{mark}{player_name(q)}" + ("  (you)" if q == player else ""), size=14,
           weight="bold", fill=colour, parent=g)
    c.text(x + 130, y + 20, head, parent=g)
    hand, hidden = _hand(views, base, q)
    h = c.cached(_panel_rows, q, x, y, w, hand + ["Jack"] * base["jacks"][q], hidden, _petitions(views, q),
                 _vault(views, base, q), base["clienteles"][q], base["stockpiles"][q],
                 base["camps"][q] + ["Jack"] * base["jacks_played"][q],
                 [sd for sd in base["structures"] if sd["owner"] == q], parent=g)
    frame.set("height", str(h))
    c.grow(y + h)
    return h


def _panel_rows(c: Canvas, q: int, x: float, y: float, w: float, hand: list[str], hidden: int, chips: list[str],
                vault_seen: tuple[list[str], int], clientele: list[str], stockpile: list[str], camp: list[str],
                structures: list[dict]) -> float:
    """The rows of seat ``q``'s panel at (x, y) (what changes only when a card moves);
    returns the panel's height."""
    g = None  # the rows go straight into the panel's group
    right = x + w - 6
    cy = y + 28

    def row(label: str, names: list[str], fill, unknown: int = 0, unknown_label: str = "unseen",
            zone: str | None = None, key: Callable[[str], str] | None = None) -> None:
        nonlocal cy
        _zone_label(c, x + 8, cy, label, f"{zone}:{q}" if zone else None, g)
        nx, cy = c.row_of_cards(x + 80, cy, names, w=74, h=20, fill=fill, parent=g, size=9, wrap=right,
                                target=(lambda i, name: key(name)) if key else None)
        nx = c.hidden_cards(nx, cy, unknown, h=20, parent=g, label=unknown_label)
        if not names and not unknown:
            c.text(x + 80, cy + 14, "-", fill=MUTED, parent=g)
        cy += 24

    row("hand", hand, _card_fill, hidden, "card(s) in hand", zone="hand", key=lambda nm: f"hand:{q}:{_slug(nm)}")
    if chips:
        _zone_label(c, x + 8, cy, "petition", None, g)
        _, cy = c.row_of_cards(x + 80, cy, chips, w=74, h=20, fill=lambda s: _material_fill(s.split()[1]),
                               parent=g, size=9, wrap=right,
                               target=lambda i, s: f"petition:{q}:{s.split()[1]}")
        cy += 24
    vault, vhidden = vault_seen
    row("vault", vault, _card_fill, vhidden, "face-down vault card(s)", zone="vault")
    row("clientele", [_CARD_MAT[nm].role for nm in clientele], lambda r: MATERIAL_FILL[_ROLE[r].colour],
        zone="clientele", key=lambda r: f"clientele:{q}:{r}")
    row("stockpile", [_CARD_MAT[nm].name for nm in stockpile], _material_fill,
        zone="stockpile", key=lambda m: f"stockpile:{q}:{m}")
    if camp:  # the cards and Jacks played this turn: a Sewer takes a card by material, a Senate a Jack
        row("camp", camp, _card_fill, key=lambda nm: f"camp:{q}:{nm if nm == 'Jack' else _CARD_MAT[nm].name}")
    _zone_label(c, x + 8, cy, "buildings", None, g)
    bx = x + 80
    for sd in structures:
        need = _MAT[sd["site"]].value
        state = "\u2713" if sd["complete"] else f"{len(sd['materials'])}/{need}"
        label = f"{sd['building']} {state}" + (" out" if sd["out_of_town"] else "")
        if bx + 120 > right:
            bx, cy = x + 80, cy + 24
        c.card(bx, cy, 118, 20, label, fill=_material_fill(sd["site"]), size=9, parent=g,
               stroke=INK if sd["complete"] else "#8a8276", target=f"building:{q}:{_slug(sd['building'])}",
               title=f"{sd['building']} on a {sd['site']} site" + (" out of town" if sd["out_of_town"] else "")
               + (f", materials: {', '.join(sd['materials'])}" if sd["materials"] else ""))
        bx += 122
    if bx == x + 80:
        c.text(bx, cy + 14, "-", fill=MUTED, parent=g)
    cy += 26
    return cy - y + 2


# -- board keys ---------------------------------------------------------------------------------
_BLOCKS = sorted(_kernel.ACTION_BLOCKS.items(), key=lambda kv: kv[1])
_MATERIAL_NAMES = tuple(m.name for m in _data.MATERIALS)
_ROLE_NAMES = tuple(m.role for m in _data.MATERIALS)
_UNIT_PHASES = ("lead", "follow", "palace")
# where an action role's card lands, when the move itself says so (a zone key of the mover)
_HAND_DEST = {"Laborer": "stockpile", "Merchant": "vault", "Patron": "clientele"}   # Dock, Basilica, Aqueduct
_POOL_DEST = {"Laborer": "stockpile", "Patron": "clientele"}                        # Archway, Stairway: a target
_DECK_DEST = {"Merchant": "vault", "Patron": "clientele"}                           # Atrium, Bar (Fountain: a target)


def _decode(action: int) -> tuple[str, int]:
    """The action's block in ``kernel.ACTION_BLOCKS`` and its offset there."""
    name, first = next((nm, f) for nm, f in reversed(_BLOCKS) if f <= action)
    return name, action - first


def targets(state: Any, action: int) -> tuple[str, ...]:
    """The board keys a legal ``action`` names, in click order (the destination last):

    ======================  =====================================================================
    key                     the element
    ======================  =====================================================================
    ``hand:P:Road``         a card of P's hand (``hand:P:Jack`` a Jack); copies share the key
    ``hand:P``              P's hand itself (the label): a Thinker draw, a Jack taken or kept
    ``petition:P:Rubble``   P's petition chip of that material (2+ such cards in the hand)
    ``role:Laborer``        a role (the roles row): what a lead, follow or Palace play is for
    ``pool:Rubble``         the pool's box of that material
    ``pile:deck``           the draw pile; ``pile:jacks`` the Jack pile
    ``site:in:Rubble``      the sites of that material left in town (``site:out:...`` out of town)
    ``building:P:Insula``   P's structure (a foundation or a completed building)
    ``stockpile:P:Rubble``  a stockpile card of that material; ``stockpile:P`` the stockpile
    ``clientele:P:Laborer`` a client of that role; ``clientele:P`` the clientele
    ``vault:P``             P's vault (a destination only: no move picks a vault card)
    ``camp:P:Rubble``       a card of that material P played this turn; ``camp:P:Jack`` a Jack
    ======================  =====================================================================

    A building's name in a key has ``_`` for a space (``building:P:Circus_Maximus``).  A card
    moved to a zone names the zone last (Laborer: ``pool:Rubble``, ``stockpile:P``).  A
    Craftsman's, Architect's or Stairway's card is picked by one move and placed by the next,
    which names only the site or building.

    Not unique: the moves that name nothing share the empty key set, and the page offers them
    as buttons: think (at a lead or follow), play no more cards (Palace), decline or end an
    action, Rome demands!, Vomitorium (discard the whole hand), spare the other clients
    (Coliseum), take no more Jacks (Senate), Sewer done.  Two of them can be legal at once (a
    Thinker offers the Vomitorium and, from a School or Academy, the decline).  Every other
    key set belongs to one legal move.  Keys come from the mover's observation, so they name
    nothing hidden from the mover."""
    p = state.current_player()
    if p < 0:
        return ()
    return _keys(state.observation(p), p, action)


def _keys(obs: dict, p: int, action: int) -> tuple[str, ...]:
    """The keys of ``action`` for ``p``, the seat to move, from p's observation ``obs``."""
    block, i = _decode(action)
    phase = obs["phase"]
    frames = obs["frames"]
    act_role: str = frames[-1]["role"] if phase == "act" and frames else ""
    if block in ("A_THINK", "A_VOMIT", "A_DONE"):
        return ()
    if block == "A_CARD":
        name = _data.BUILDINGS[i].name
        card = f"hand:{p}:{_slug(name)}"
        if phase in _UNIT_PHASES:
            return card, f"role:{_CARD_MAT[name].role}"
        if phase == "think":  # Latrine: the card goes to the pool
            return card, f"pool:{_CARD_MAT[name].name}"
        if phase == "give":  # to the stockpile of the player whose Legionary demands it
            return card, f"stockpile:{(obs['leader'] + obs['turn']['act_index']) % len(obs['influence'])}"
        dest = _HAND_DEST.get(act_role) if phase == "act" else None
        return (card, f"{dest}:{p}") if dest else (card,)
    if block == "A_JACK":
        return f"hand:{p}:Jack", f"role:{_ROLE_NAMES[i]}"
    if block == "A_PETITION":
        r, m = divmod(i, len(_MATERIAL_NAMES))
        return f"petition:{p}:{_MATERIAL_NAMES[m]}", f"role:{_ROLE_NAMES[r]}"
    if block == "A_THINK_JACK":
        return "pile:jacks", f"hand:{p}"
    if block == "A_THINK_DRAW":
        return "pile:deck", f"hand:{p}"
    if block == "A_POOL":
        dest = _POOL_DEST.get(act_role)
        return (f"pool:{_MATERIAL_NAMES[i]}",) + ((f"{dest}:{p}",) if dest else ())
    if block == "A_STOCK":
        return (f"stockpile:{p}:{_MATERIAL_NAMES[i]}",) + ((f"vault:{p}",) if act_role == "Merchant" else ())
    if block == "A_DECK":
        dest = _DECK_DEST.get(act_role)
        return ("pile:deck",) + ((f"{dest}:{p}",) if dest else ())
    if block == "A_FOUND_IN":
        return (f"site:in:{_MATERIAL_NAMES[i]}",)
    if block == "A_FOUND_OUT":
        return (f"site:out:{_MATERIAL_NAMES[i]}",)
    if block == "A_STRUCT":
        sd = obs["structures"][i]
        return (f"building:{sd['owner']}:{_slug(sd['building'])}",)
    if block == "A_TO_HAND":
        return (f"hand:{p}",)
    if block == "A_SENATE":
        return f"camp:{(p + i + 1) % len(obs['influence'])}:Jack", f"hand:{p}"
    if block == "A_COLISEUM":  # the victim's client goes to the Legionary's vault
        victim = (p + obs["legionary"]["victim_offset"]) % len(obs["influence"])
        return f"clientele:{victim}:{_ROLE_NAMES[i]}", f"vault:{p}"
    if block == "A_SEWER":
        return f"camp:{p}:{_MATERIAL_NAMES[i]}", f"stockpile:{p}"
    return ()   # chance outcomes name nothing a player clicks
