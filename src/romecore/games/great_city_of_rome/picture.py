"""The Great City of Rome as an SVG picture: the action strip, the offer, the decks, the
influence cards, the drawn cards and every player's city on the 8x8 board (rows and columns
numbered as build actions name them), hand and counters.  Drawn from observations only (see
:mod:`romecore.picture`), or, for spectators, from :func:`public_view`: what every seat knows.

Every thing a move names is its own element carrying a board key (``data-target``), and
:func:`targets` gives each legal move's keys, so the browser table plays by clicking:

==========================  =========================================================
key                         the element
==========================  =========================================================
``strip:K``                 action strip space K (1-5, 1 next to the emperor)
``offer:NAME``              the offer card(s) of building NAME
``deck:D``                  deck D (I, II, III, IV): its pile, with the cards left
``drawn:P:NAME``            a drawn card of building NAME that seat P picks from
``hand:P:NAME``             seat P's hand card(s) of building NAME (only known ones)
``city:P:R,C``              cell (R, C) of seat P's city board, built on or open
``influence:V``             the influence card of value V (no move names one)
==========================  =========================================================
"""

from __future__ import annotations

from romecore.games.great_city_of_rome import data as _data
from romecore.games.great_city_of_rome.kernel import ACTION_BLOCKS as _B
from romecore.games.great_city_of_rome.state import card_name
from romecore.picture import HIDDEN_FILL, INK, MUTED, PLAYER_COLOURS, PUBLIC, Canvas, player_name

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
GRID = "#c9c2b4"  # Canvas.grid's line colour: a cell's own outline lies on the grid line


# -- board keys (see the module docstring) -----------------------------------------------
def strip_key(space: int) -> str:
    return f"strip:{space}"


def offer_key(name: str) -> str:
    return f"offer:{name}"


def deck_key(deck: str) -> str:
    return f"deck:{deck}"


def drawn_key(q: int, name: str) -> str:
    return f"drawn:{q}:{name}"


def hand_key(q: int, name: str) -> str:
    return f"hand:{q}:{name}"


def city_key(q: int, r: int, col: int) -> str:
    return f"city:{q}:{r},{col}"


def influence_key(value: int) -> str:
    return f"influence:{value}"


def _between(text: str, head: str, tail: str = "") -> str:
    """The part of an action's name between ``head`` and ``tail`` (a card's name)."""
    if not (text.startswith(head) and text.endswith(tail)):
        raise ValueError(f"action name {text!r} is not {head!r}...{tail!r}")
    return text[len(head):len(text) - len(tail)]


def targets(state, action: int) -> tuple[str, ...]:
    """The board keys ``action`` names, in click order, the destination last: build a chosen
    card (its hand card), place it (the city cell), take an offer card, put the emissary on
    a strip space, keep a drafted or School card (the drawn card), draw for the School (the
    deck), put a School card under the deck (the drawn card, then the deck).  Produce and
    end turn name nothing (buttons).  The kernel lists one move per building among cards of
    the same building (offer, drawn), so names tell moves apart; the only moves sharing a
    key set are those that name nothing (produce and end turn, both ``()``)."""
    p = state.current_player()
    a = int(action)
    if p < 0 or a >= _B["CH_CARD"]:
        return ()
    if a < _B["A_BUILD"]:
        r, col = divmod(a - _B["A_PLACE"], BOARD)
        return (city_key(p, r, col),)
    if a < _B["A_PRODUCE"]:
        return (hand_key(p, _data.TYPES[a - _B["A_BUILD"]].name),)
    if a < _B["A_TAKE"]:
        return ()
    if a < _B["A_EMISSARY"]:
        head = state.action_to_string(a).rpartition(" (deck ")[0]  # "take NAME (deck D)"
        return (offer_key(_between(head, "take ")),)
    if a < _B["A_DRAFT"]:
        return (strip_key(a - _B["A_EMISSARY"] + 1),)
    if a < _B["A_SCHOOL_DECK"]:
        return (drawn_key(p, _between(state.action_to_string(a), "draft ")),)
    if a < _B["A_KEEP"]:
        return (deck_key(_data.DECK_NAMES[a - _B["A_SCHOOL_DECK"] + 1]),)
    if a < _B["A_BOTTOM"]:
        return (drawn_key(p, _between(state.action_to_string(a), "keep ")),)
    text = state.action_to_string(a)
    deck = text.rsplit(" ", 1)[1]
    return drawn_key(p, _between(text, "put ", f" under deck {deck}")), deck_key(deck)


# -- the public view (spectators) -------------------------------------------------------
#: The observation's fields that every seat's observation holds alike: the board, the strip,
#: the offer, the counters, deck sizes and the scores (counted from cities and counters).
COMMON = ("round", "rounds", "phase", "first_player", "current_player", "strips", "face", "emissaries", "turn",
          "coins", "influence", "influence_cards", "cities", "offer", "deck_sizes", "school", "scores")


def public_view(state) -> dict:
    """What every player may see, in the shape of a seat's observation with ``player``
    None: the common fields as every seat sees them; each seat's hand as its opponents see
    it, narrowed to the cards every seat knows (``known``) and the rest counted by deck
    (card backs show the deck); the drawn cards and the cards under the decks named where
    every seat knows them, else None.  No seat's own hand or draft group.

    Who knows a card is read per card from ``to_dict()["known"]``: intersecting the names
    the observations list would not do, since two seats may each know a different copy of
    one building in a third seat's hand, which neither copy makes public."""
    n = state.game.num_players()
    base = state.observation(0)
    d = state.to_dict(history=False)
    everyone = set(range(n))
    public = {int(c) for c, seats in d["known"].items() if set(seats) == everyone}

    def known(c: int) -> bool:
        return c in public

    opponents = {}
    for q, pd in enumerate(d["players"]):
        hidden: dict[str, int] = {}
        for card in pd["hand"]:
            if not known(card["id"]):
                hidden[card["deck"]] = hidden.get(card["deck"], 0) + 1
        opponents[str(q)] = {"size": len(pd["hand"]), "known": sorted(c["building"] for c in pd["hand"]
                                                                      if known(c["id"])),
                             "hidden_by_deck": hidden, "draft_cards_hidden": 0}
    bottoms = {_data.DECK_NAMES[k]: [card_name(c) if known(c) else None for c in deck["bottom"]]
               for k, deck in enumerate(d["decks"]) if k > 0}
    drawn = d["drawn"]
    return {
        **{k: base[k] for k in COMMON},
        "player": None,
        "hand": [],
        "opponents": opponents,
        "draft_group": [],
        "deck_bottoms": bottoms,
        "drawn": sorted(card_name(c) for c in drawn if known(c)) + [None] * sum(not known(c) for c in drawn),
    }


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


def _drawn_row(c: Canvas, views: dict[int, dict], base: dict, x: float, y: float) -> None:
    """The cards drawn to pick from (the draft, a School's draws), keyed for the seat to
    move, who picks; those this picture does not know are named ``hidden`` in the label."""
    mover = base["current_player"]
    drawn = views.get(mover, base)["drawn"]  # the truth draws them as the picker knows them
    if not drawn:
        return
    names = [nm for nm in drawn if nm is not None]
    hidden = len(drawn) - len(names)
    label = "drawn:" + (" " + ", ".join(["hidden"] * hidden) if hidden else "")
    c.text(x, y + 15, label, weight="bold")
    c.row_of_cards(x + 10 + 7.2 * len(label), y, names, w=80, h=22, fill=_fill, wrap=WIDTH - 12,
                   target=(lambda i, nm: drawn_key(mover, nm)) if mover >= 0 else None)


def _table(c: Canvas, y: float, face: list | None, emissaries: list, offer: list, deck_sizes: dict,
           influence_cards: list) -> None:
    """What lies on the table from ``y``: the action strip (its five spaces, the emissary on
    each), the offer, the decks, and below them the influence cards."""
    # The action strip: five spaces, the emissary on each.
    c.text(12, y + 17, "strip", weight="bold")
    for k in range(5):
        x = 70 + k * 70
        label = f"{k + 1}: {SPACE.get(face[k], '?')}" if face else f"{k + 1}"
        g = c.card(x, y, 64, 26, label, fill="#f4ead8" if face else HIDDEN_FILL, target=strip_key(k + 1),
                   title=f"strip space {k + 1}" + (f": {SPACE.get(face[k], '?')}" if face else ""))
        owner = emissaries[k] if k < len(emissaries) else None
        if owner is not None:
            c.circle(x + 58, y + 6, 6, fill=PLAYER_COLOURS[owner], title=f"{player_name(owner)}'s emissary", parent=g)
    # The offer and the decks.
    x = 440
    c.text(x, y + 17, "offer", weight="bold")
    for i, nm in enumerate(offer):
        c.card(x + 42 + i * 50, y, 46, 26, _label(nm), fill=_fill(nm), size=10, title=nm, target=offer_key(nm))
    c.text(WIDTH - 12 - 4 * 42, y + 17, "decks", anchor="end", weight="bold")
    for i, (deck, size) in enumerate(deck_sizes.items()):
        c.card(WIDTH - 12 - (4 - i) * 42 + 4, y, 38, 26, f"{deck} {size}", fill=HIDDEN_FILL, size=10,
               title=f"deck {deck}: {size} cards", target=deck_key(deck))
    y += 34
    # The influence cards, then the cards drawn to pick from (the draft, the School).
    c.text(12, y + 15, "influence", weight="bold")
    for i, ic in enumerate(influence_cards):
        h = ic["holder"]
        c.card(90 + i * 84, y, 80, 22, f"{ic['value']}: {_holder(h)}", size=10,
               fill="#fff4c2" if isinstance(h, int) else "#ffffff",
               stroke=PLAYER_COLOURS[h] if isinstance(h, int) else INK,
               title=f"influence card {ic['value']}: {_holder(h)}", target=influence_key(ic["value"]))


def draw(c: Canvas, views: dict, player: int | str | None, game, scores: list | None) -> None:
    """The picture of ``views[player]`` (a seat's view, the public view for ``PUBLIC``: every
    seat drawn as an opponent is), or of every seat's view for the whole truth (None)."""
    base = views[player if player is not None else 0]
    scores = scores if scores is not None else base.get("scores")
    n = game.num_players()
    mover = base["current_player"]
    over = base["phase"] == "over"
    info = (f"round {base['round']}/{base['rounds']}   phase {base['phase']}   "
            + (f"{player_name(mover)} to move   " if mover >= 0 else "")
            + f"first player {player_name(base['first_player'])} (\u2605)")
    y = c.title("The Great City of Rome", player, info)

    # The strip, the offer, the decks and the influence cards (alike in every seat's picture)
    c.cached(_table, y, base.get("face"), base["emissaries"], base["offer"], base["deck_sizes"],
             base["influence_cards"])
    y += 34
    _drawn_row(c, views, base, 440, y)
    y += 32
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


def _city(c: Canvas, q: int, bx: float, by: float, city: list) -> None:
    """Seat ``q``'s city on its 8x8 board at (bx, by), the 4x4 reach left open."""
    rows = [b[1] for b in city]
    cols = [b[2] for b in city]
    r0, r1 = (max(0, max(rows) - 3), min(BOARD - 1, min(rows) + 3)) if city else (0, BOARD - 1)
    c0, c1 = (max(0, max(cols) - 3), min(BOARD - 1, min(cols) + 3)) if city else (0, BOARD - 1)
    for col in range(BOARD):
        c.text(bx + col * CELL + CELL / 2, by - 4, col, size=10, anchor="middle", fill=MUTED)
    for r in range(BOARD):
        c.text(bx - 6, by + r * CELL + CELL / 2 + 4, r, size=10, anchor="end", fill=MUTED)
    c.rect(bx, by, BOARD * CELL, BOARD * CELL, fill="#e6e1d6", stroke=None)
    c.grid(bx, by, BOARD, BOARD, CELL, stroke=GRID)
    c.text(bx + BOARD * CELL / 2, by + BOARD * CELL + 14, "(row, col)", size=10, anchor="middle", fill=MUTED)
    built = {(b[1], b[2]): b for b in city}
    reach = {(r, col) for r in range(r0, r1 + 1) for col in range(c0, c1 + 1)}
    for r, col in sorted(reach | set(built)):  # each cell on its own, keyed, so a click can pick it
        cx, cy = bx + col * CELL, by + r * CELL
        b = built.get((r, col))
        if b is None:
            c.rect(cx, cy, CELL, CELL, fill="#ffffff", stroke=GRID, data_target=city_key(q, r, col),
                   title=f"open cell ({r},{col}): the city may still grow here")
        else:
            name, tokens = b[0], b[3]
            c.card(cx + 1, cy + 1, CELL - 2, CELL - 2, _label(name), fill=_fill(name),
                   sub=f"+{tokens}" if tokens else None, size=8, title=f"{name} at ({r},{col})",
                   target=city_key(q, r, col))


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

    # The city on its 8x8 board (drawn once for each layout: it changes one move in many).
    bx, by = x + 28, y + 46
    c.cached(_city, q, bx, by, base["cities"][q], parent=g)

    # The hand (the card being placed marked), then nothing more: drawn cards lie on the table.
    hx = bx + BOARD * CELL + 16
    names, unknown = _hand(views, base, q)
    heading = "" if q in views else " (known to all)" if player == PUBLIC else " (as known)"
    c.text(hx, by + 8, "hand" + heading, weight="bold", parent=g)
    turn = base.get("turn") or {}
    placing = turn.get("selected") if q == base["current_player"] and base["phase"] == "place" else None
    cy = by + 16
    for nm in sorted(names):
        chosen = nm == placing
        placing = None if chosen else placing  # one card of the kind is the one being placed
        c.card(hx, cy, w - (hx - x) - 10, 18, nm + ("  \u2190 placing" if chosen else ""), fill=_fill(nm),
               size=10, parent=g, title=nm, target=hand_key(q, nm))
        cy += 21
    if unknown:
        c.card(hx, cy, w - (hx - x) - 10, 18, f"{unknown} unknown card(s)", fill=HIDDEN_FILL, size=10, parent=g)
        cy += 21
    if not names and not unknown:
        c.text(hx, cy + 12, "(empty)", fill=MUTED, parent=g)
