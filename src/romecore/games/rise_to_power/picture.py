"""Rome: Rise to Power as an SVG picture: the three action tracks with every player's dice,
the province, Senate and Arena rows, the decks, and each player's forum tracks, dice,
provinces, Senate cards and Arena cards.  Drawn from observations only (see
:mod:`romecore.picture`).

Every place, card and die a move names carries its board key (``data-target``), and
:func:`targets` says which keys each legal move names, so the browser table is played by
clicking the board; the key scheme is in :func:`targets`' docstring.

:func:`public_view` is what every player may see (a spectator's picture while the game is
under way): every seat drawn as its opponents see it."""

from __future__ import annotations

from typing import Any

from romecore.games.rise_to_power import data as _data
from romecore.games.rise_to_power.kernel import ACTION_BLOCKS
from romecore.games.rise_to_power.state import senate_name
from romecore.picture import HIDDEN_FILL, INK, MUTED, PLAYER_COLOURS, Canvas, Element, player_name

WIDTH = 940
_PROV = {p.name: p for p in _data.PROVINCES}
_ARENA = {a.name: a for a in _data.ARENA_TYPES}
TYPE_FILL = {_data.VILLA: "#cde6b0", _data.ARENA: "#f3c6a5", _data.ARMY_CAMP: "#c9cfe8"}
RESOURCE_MARK = {_data.OLIVES: "O", _data.WINE: "W", _data.JEWELRY: "J"}
CATEGORY_FILL = {_data.ROMAN: "#f1d7d7", _data.BEAST: "#e9dfc1", _data.BARBARIAN: "#d9e3d0"}
SENATE_FILL = "#ece4f4"
CHIP_FILL = "#f4ecdc"
CHIP_STROKE = "#c9bfa9"
EXHAUSTED_OPACITY = "0.45"
TRACK_KEYS = ("military", "senate", "black_market")


def _province(name: str) -> tuple[str, str, str]:
    p = _PROV.get(name)
    if p is None:
        return name, HIDDEN_FILL, ""
    return name, TYPE_FILL[p.type], f"{p.power} power  {RESOURCE_MARK[p.resource]}  {p.region}"


def _arena_fill(name: str) -> str:
    a = _ARENA.get(name)
    return HIDDEN_FILL if a is None else CATEGORY_FILL[a.category]


def _die(c: Canvas, x: float, y: float, value: int, p: int, parent=None, key: str | None = None) -> None:
    """One die in its seat's colour; ``key`` its board key, on a group around box and face."""
    g = c.group("die", parent, data_target=key)
    c.rect(x, y, 20, 20, fill=PLAYER_COLOURS[p], stroke=INK, rx=4, parent=g,
           title=f"{player_name(p)}'s die: {value}")
    c.text(x + 10, y + 15, value, size=13, anchor="middle", weight="bold", fill="#ffffff", parent=g)


def _chip(c: Canvas, x: float, y: float, label: str, key: str, parent=None, w: float = 62) -> None:
    """A row's label as a clickable tag: the place a card lands in (board key ``key``)."""
    g = c.group("chip", parent, data_target=key)
    c.rect(x, y + 1, w, 18, fill=CHIP_FILL, stroke=CHIP_STROKE, rx=9, parent=g, title=label)
    c.text(x + w / 2, y + 14, label, size=11, anchor="middle", parent=g)


def _dim(card: Element) -> None:
    """Draws a card as exhausted this round (a Senate card lies on it, or it was used)."""
    card.set("opacity", EXHAUSTED_OPACITY)
    title = card.children[0].find("title")
    if title is not None:
        title.text = f"{title.text} (exhausted this round)"


def _names(cards) -> list[str]:
    return [c[0] if isinstance(c, (list, tuple)) else c for c in cards]


def _arena(views: dict[int, dict], base: dict, q: int) -> tuple[list[str], int, list[str], int]:
    """Seat q's Arena cards as known here: hand names, unknown hand cards, show names,
    unknown show cards."""
    if q in views:  # the owner's own cards come as (name, bought face up)
        return _names(views[q]["hand"]), 0, _names(views[q]["show"]), 0
    opp = base["opponents"][str(q)]
    return list(opp["known"]), opp["hidden"], [], opp["show_size"]


# -- the public view ----------------------------------------------------------------------
#: The observation's entries that belong to its seat alone: the seat's own Arena hand and show
#: (with the face-down cards named) and what it knows of the others (which depends on who looks).
PRIVATE = ("player", "hand", "show", "opponents")


def public_view(state: Any) -> dict:
    """What every player may see, in the shape of a seat's observation with ``"player":
    None``: every entry all seats' observations hold alike (tracks, rows, decks as the
    observation gives them, exhausted cards, each seat's forum, VP, dice, provinces and
    Senate cards, scores ...), an empty ``hand`` and ``show`` (a spectator holds no cards),
    and under ``opponents`` every seat as the others know it: its Arena cards bought face
    up, the count of its face-down ones and the size of a show being prepared (the
    rulebook's hidden information: the face-down cards' names and which cards went into a
    show)."""
    n = state.game.num_players()
    obs = [state.observation(p) for p in range(n)]
    view = {k: v for k, v in obs[0].items() if k not in PRIVATE and all(o.get(k) == v for o in obs[1:])}
    view.update(player=None, hand=[], show=[],
                opponents={str(q): obs[(q + 1) % n]["opponents"][str(q)] for q in range(n)})
    return view


# -- board keys ---------------------------------------------------------------------------
def senate_keys(p: int, held: list[dict]) -> list[str]:
    """The board keys of p's Senate cards (the observation's list, in id order): the title,
    and ``#2`` on the second of two identical cards (Legatus), which may differ in being
    exhausted."""
    seen: dict[str, int] = {}
    out = []
    for e in held:
        k = seen[e["card"]] = seen.get(e["card"], 0) + 1
        out.append(f"senate:{p}:{e['card']}" + (f"#{k}" if k > 1 else ""))
    return out


def _senate_key(view: dict, p: int, card: int) -> str:
    held = view["players"][p]["senate"]
    return senate_keys(p, held)[[e["id"] for e in held].index(card)]


def _owner(view: dict, province: str) -> int:
    return next(q for q, pd in enumerate(view["players"]) if province in pd["provinces"])


_B = ACTION_BLOCKS


def action_keys(view: dict, a: int) -> tuple[str, ...]:
    """The board keys action ``a`` names in the position ``view`` (the mover's
    observation) describes; see :func:`targets`."""
    p, phase = view["actor"], view["phase"]
    if a < _B["A_DONE"]:
        t, v = divmod(a - _B["A_PLACE"], _data.FACES)
        return f"die:{p}:{v + 1}", f"track:{TRACK_KEYS[t]}"
    if _B["A_ACTIVATE"] <= a < _B["A_PROVINCE"]:
        return (_senate_key(view, p, a - _B["A_ACTIVATE"]),)
    if _B["A_PROVINCE"] <= a < _B["A_SENATE"]:
        name = _data.PROVINCES[a - _B["A_PROVINCE"]].name
        if phase == "military":
            return f"row:provinces:{name}", f"province:{p}"
        return (f"province:{p if phase == 'province' else _owner(view, name)}:{name}",)
    if _B["A_SENATE"] <= a < _B["A_BUY"]:
        c = a - _B["A_SENATE"]
        if phase == "discard":
            return (_senate_key(view, p, c),)
        return f"row:senate:{senate_name(c)}", f"senate:{p}"
    if _B["A_BUY"] <= a < _B["A_DRAW"]:
        return f"row:arena:{_data.ARENA_TYPES[a - _B['A_BUY']].name}", f"hand:{p}"
    if a == _B["A_DRAW"]:
        return "deck:arena", f"hand:{p}"
    if _B["A_SHOW"] <= a < _B["A_DIE"]:
        return f"hand:{p}:{_data.ARENA_TYPES[a - _B['A_SHOW']].name}", f"show:{p}"
    if _B["A_DIE"] <= a < _B["A_PLACED"]:
        return (f"die:{view['activation']['target']}:{a - _B['A_DIE']}",)
    if _B["A_PLACED"] <= a < _B["A_PLUS"]:
        t, k = divmod(a - _B["A_PLACED"], _data.SECTIONS)
        return (f"track:{TRACK_KEYS[t]}:{p}:{k}",)
    if _B["A_PLAYER"] <= a < _B["CH_DIE"]:
        return (f"player:{a - _B['A_PLAYER']}",)
    return ()  # done / pass / decline / end turn, Vicarius +1 and -1, chance outcomes


def targets(state: Any, action: int) -> tuple[str, ...]:
    """The board keys a legal ``action`` names, in click order, the destination last;
    computed from the mover's observation only, so they never depend on hidden cards.

    ==========================  ==========================================================
    key                         names
    ==========================  ==========================================================
    ``die:P:V``                 an unplaced die of face V of player P (its panel); dice of
                                one face are interchangeable and share the key
    ``track:T``                 track T (``military``, ``senate``, ``black_market``): where
                                a placed die goes
    ``track:T:P:K``             P's placed die at position K (0: leftmost) of P's group on T
    ``row:provinces:NAME``      a province in the row (conquered on Military)
    ``row:senate:TITLE``        a Senate card in the row (identical cards share the key)
    ``row:arena:NAME``          a face-up Arena card in the row (copies share the key)
    ``deck:arena``              the Arena deck (a face-down purchase)
    ``player:P``                player P's name tag (the target of an Intrigue card or
                                Tribunus)
    ``province:P:NAME``         a province P holds
    ``senate:P:TITLE``          a Senate card P holds (``TITLE#2``: the second of two
                                identical cards)
    ``hand:P:NAME``             an Arena card in P's hand (drawn in P's own view only)
    ``province:P``, ``senate:P``, ``hand:P``, ``show:P``: the tags of P's province,
                                Senate, Arena hand and show rows, where a conquered,
                                taken, bought or shown card lands
    ==========================  ==========================================================

    Moves: place a die ``(die, track)``; activate or discard a Senate card ``(senate)``;
    place the activated card on a province, or discard one (Intrigue Hispania Maximus)
    ``(province)``; conquer ``(row province, province:P)``; take a Senate card ``(row
    senate, senate:P)``; buy ``(row arena or deck:arena, hand:P)``; add to the show
    ``(hand card, show:P)``; mark, invert, change or re-roll an unplaced die ``(die)``;
    lower or re-roll a placed die ``(track die)``; target a player ``(player)``.

    Documented non-unique key sets: only moves naming nothing share one, ``()``: done,
    pass, decline, end turn (alone with that set in their phase) and Vicarius's +1 and -1
    (the ``shift`` phase's two moves, told apart by a number, not a place)."""
    seat = state.current_player()
    if seat < 0:
        return ()
    return action_keys(state.observation(seat), int(action))


# -- drawing ------------------------------------------------------------------------------
def draw(c: Canvas, views: dict, player: int | str | None, game, scores: list | None) -> None:
    """Draws ``player``'s view: a seat's (its own cards named, the others' as they know them),
    the whole truth (None: every seat's observation) or the public view
    (:data:`romecore.picture.PUBLIC`: views holds only :func:`public_view`, so every seat is
    drawn as an opponent, with no "(you)" mark)."""
    base = views[player if player is not None else 0]
    scores = scores if scores is not None else base.get("scores")
    n = game.num_players()
    mover = base["current_player"]
    info = (f"round {base['round']}/{_data.ROUNDS}   phase {base['phase']}   turn order "
            + " ".join(player_name(q) for q in base["order"])
            + (f"   {player_name(mover)} to move" if mover >= 0 else ""))
    y = c.title("Rome: Rise to Power", player, info)

    # The tracks, then the rows and decks (the same in every seat's picture of a position)
    y = c.cached(_tracks, y, base["tracks"])
    y = c.cached(_rows, y, base["rows"], base["decks"], len(base["arena_removed"]))

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
                 ("text", "faded", "exhausted this round"), ("text", "\u25b6", "to move")])


def _tracks(c: Canvas, y: float, tracks: dict) -> float:
    """The tracks from ``y``: each player's dice on them, in the order placed; returns the
    y below them."""
    for t, key in enumerate(TRACK_KEYS):
        g = c.group("track")
        row = c.group("row", g, data_target=f"track:{key}")
        c.rect(12, y, WIDTH - 24, 28, fill="#f4ecdc", stroke="#c9bfa9", rx=4, parent=row,
               title=f"{_data.TRACKS[t]} track")
        c.text(20, y + 19, _data.TRACKS[t], weight="bold", parent=row)
        x = 130
        for grp in tracks[key]:
            for k, v in enumerate(grp["dice"]):
                _die(c, x, y + 4, v, grp["player"], parent=g, key=f"track:{key}:{grp['player']}:{k}")
                x += 23
            x += 14
        y += 32
    return y + 6


def _rows(c: Canvas, y: float, rows: dict, decks: dict, removed: int) -> float:
    """The rows of provinces, Senate and Arena cards and the decks from ``y``; returns the
    y below them."""
    c.text(12, y + 16, "provinces", weight="bold")
    x = 100
    for nm in rows["provinces"]:
        name, fill, sub = _province(nm)
        c.card(x, y, 150, 34, name, fill=fill, sub=sub, size=10, target=f"row:provinces:{nm}")
        x += 154
    y += 40
    c.text(12, y + 16, "senate", weight="bold")
    c.row_of_cards(100, y, rows["senate"], w=120, fill=SENATE_FILL, target=lambda i, name: f"row:senate:{name}")
    y += 32
    c.text(12, y + 16, "arena", weight="bold")
    ax, _ = c.row_of_cards(100, y, rows["arena"], w=100, fill=_arena_fill, target=lambda i, name: f"row:arena:{name}")
    c.card(max(ax, 100) + 8, y, 84, 26, f"deck {decks['arena_size']}", fill=HIDDEN_FILL, target="deck:arena",
           title=f"the Arena deck: {decks['arena_size']} face-down cards ({_data.FACE_DOWN_COST} coins each)")
    y += 32
    c.text(12, y + 14, f"decks: provinces {len(decks['provinces'])}, senate {len(decks['senate'])}, "
           f"arena {decks['arena_size']}   removed from the arena: {removed}", fill=MUTED)
    return y + 24


def _name_tag(c: Canvas, q: int, x: float, y: float, label: str, parent) -> None:
    """The player's name as a tag (board key ``player:q``): the target of a card that
    names a player."""
    g = c.group("name", parent, data_target=f"player:{q}")
    c.rect(x, y + 4, 8.6 * len(label) + 12, 22, fill="#ffffff", stroke=PLAYER_COLOURS[q], rx=4, parent=g,
           title=player_name(q))
    c.text(x + 6, y + 20, label, size=14, weight="bold", fill=PLAYER_COLOURS[q], parent=g)


def _player_panel(c: Canvas, views, base, q, x, y, w, player, scores) -> float:
    """Seat ``q``'s panel, drawn from what it shows (a panel no move changed comes from the
    picture cache); returns its height."""
    pd = base["players"][q]
    colour = PLAYER_COLOURS[q]
    g = c.group("player")
    frame = c.rect(x, y, w, 10, fill="#ffffff", stroke=colour, rx=6, parent=g, stroke_width=2 if q == player else 1)
    mark = "\u25b6 " if q == base["current_player"] else ""
    _name_tag(c, q, x + 4, y, f"{mark}{player_name(q)}" + ("  (you)" if q == player else ""), g)
    vp = f"VP {scores[q]}   " if scores is not None else ""
    h = c.cached(_panel_rows, q, x, y, w, vp, pd, base["exhausted"], _arena(views, base, q), q in views,
                 base["phase"] == "show", parent=g)
    frame.set("height", str(h))
    c.grow(y + h)
    return h


def _panel_rows(c: Canvas, q: int, x: float, y: float, w: float, vp: str, pd: dict, exhausted: dict,
                arena: tuple, own: bool, show_phase: bool) -> float:
    """The rows of seat ``q``'s panel at (x, y) (what changes only when a die or a card
    moves); returns the panel's height."""
    colour = PLAYER_COLOURS[q]
    exhausted_p, exhausted_s = set(exhausted["provinces"]), set(exhausted["senate"])
    g = None  # the rows go straight into the panel's group
    c.text(x + 140, y + 20, f"{vp}forum {pd['vp_forum']}  arena {pd['vp_arena']}", parent=g)
    cy = y + 32
    # The forum tracks.
    for i, (res, v) in enumerate(pd["forum"].items()):
        fx = x + 10 + i * 140
        c.text(fx, cy + 12, f"{res} {v}", size=11, parent=g)
        c.rect(fx + 62, cy + 3, 60, 10, fill="#f0f0f0", stroke="#bbbbbb", parent=g)
        c.rect(fx + 62, cy + 3, 60 * min(v, 10) / 10, 10, fill=colour, stroke=None, parent=g)
    cy += 22
    c.text(x + 10, cy + 14, "dice", size=11, parent=g)
    dx = x + 74
    for v in pd["dice"]:
        _die(c, dx, cy, v, q, parent=g, key=f"die:{q}:{v}")
        dx += 23
    if not pd["dice"]:
        c.text(dx, cy + 14, "-", fill=MUTED, parent=g)
    bonus = [f"{k.replace('_', ' ')} {pd[k]}" for k in ("military_bonus", "coin_bonus", "tribunus") if pd.get(k)]
    if bonus:
        c.text(x + 200, cy + 14, ", ".join(bonus), size=11, fill=MUTED, parent=g)
    cy += 26
    _chip(c, x + 8, cy, "provinces", f"province:{q}", g)
    px = x + 74
    for nm in pd["provinces"]:
        name, fill, sub = _province(nm)
        if px + 110 > x + w - 6:
            px, cy = x + 74, cy + 34
        card = c.card(px, cy, 108, 30, name, fill=fill, sub=sub, size=9, parent=g, target=f"province:{q}:{nm}")
        if nm in exhausted_p:
            _dim(card)
        px += 112
    if not pd["provinces"]:
        c.text(px, cy + 14, "-", fill=MUTED, parent=g)
    cy += 36
    _chip(c, x + 8, cy, "senate", f"senate:{q}", g)
    keys = senate_keys(q, pd["senate"])
    _, cy = c.row_of_cards(x + 74, cy, [s["card"] for s in pd["senate"]], w=108, h=20, fill=SENATE_FILL,
                           parent=g, size=9, wrap=x + w - 6, target=lambda i, name: keys[i])
    for card in c.root.iter("g"):
        key = card.get("data-target", "")
        if key in keys and pd["senate"][keys.index(key)]["id"] in exhausted_s:
            _dim(card)
    if not pd["senate"]:
        c.text(x + 74, cy + 14, "-", fill=MUTED, parent=g)
    cy += 26
    hand, hidden, show, show_hidden = arena  # keys on the cards the owner alone (own) knows in hand
    _chip(c, x + 8, cy, "arena", f"hand:{q}", g)
    ax, cy = c.row_of_cards(x + 74, cy, sorted(hand), w=80, h=20, fill=_arena_fill, parent=g, size=9, wrap=x + w - 6,
                            target=(lambda i, name: f"hand:{q}:{name}") if own else None)
    ax = c.hidden_cards(ax, cy, hidden, h=20, parent=g, label="face-down arena card(s)")
    if not hand and not hidden:
        c.text(x + 74, cy + 14, "-", fill=MUTED, parent=g)
    cy += 24
    if show or show_hidden or show_phase:
        _chip(c, x + 8, cy, "show", f"show:{q}", g)
        sx, cy = c.row_of_cards(x + 74, cy, sorted(show), w=80, h=20, fill=_arena_fill, parent=g, size=9,
                                wrap=x + w - 6)
        c.hidden_cards(sx, cy, show_hidden, h=20, parent=g, label="card(s) in a show being prepared")
        if not show and not show_hidden:
            c.text(x + 74, cy + 14, "-", fill=MUTED, parent=g)
        cy += 24
    return cy - y + 4
