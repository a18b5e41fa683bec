"""City of Marble's board keys (``picture.targets``, issue 53): the browser table picks moves
by clicking the places, tiles and pieces of the mover's picture, so along seeded random games
of every player count each legal move's keys must be on clickable elements of that picture,
pick one move, say what the move's text says, and ignore what the mover cannot know.  The
oracle reads each move's meaning from ``action_to_string`` (coordinates, colours, places),
not from the code under test."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import romecore
from romecore import picture
from romecore.games.city_of_marble import data

GAME = "city_of_marble"
SEEDS = (1, 2)
EVERY = 5                      # check every fifth decision along each game (and every rare one)
COLOUR_OF = {c.building: c.name for c in data.COLOURS}
COORD = re.compile(r"\((-?\d+),(-?\d+)\)")


def _rare(st) -> bool:
    """Whether a decision is one a random game meets seldom (aqueduct pieces, magistrates
    leaving a site, Imperium spent, the order of two completed sites)."""
    return st.observation(st.current_player())["phase"] in ("aqueduct_start", "expand", "send", "extra", "order")


def _walk(n: int, seed: int):
    """Every EVERY-th decision node of one seeded random game and every rare one; the moves
    are random, playing a tile or laying aqueduct nine times in ten where one can (uniform
    moves mostly draw and recall, and games end before the city fills)."""
    game = romecore.load_game(GAME, players=n)
    st, rng, k = game.new_initial_state(seed=seed), random.Random(seed), 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_random_chance()
            continue
        if k % EVERY == 0 or _rare(st):
            yield st.clone()
        k += 1
        acts = st.legal_actions()
        building = [a for a in acts if not st.action_to_string(a).startswith(("draw", "recall"))]
        st.apply_action(rng.choice(building if building and rng.random() < 0.9 else acts))


def _order_position(n: int):
    """A rim tile with a magistrate completes both its sites, so its player picks which
    resolves first (the rulebook's example; random games almost never get there): the
    position before each of its player's decisions from the tile's colour to the send."""
    board = data.BOARD
    a, b = board.site_id[(1, 1)], board.site_id[(2, 0)]

    def rims(i: int) -> set[int]:
        return {pl for t in board.site_triangles(i) for pl in board.tri_pls[t]
                if len({board.tri_site[x] for x in board.pl_tris[pl]}) == 2}

    shared = min(rims(a) & rims(b))
    tiles = [{"colour": "green", "vertices": [list(v) for v in board.pl_vertices(pl)], "magistrate": None}
             for pl in sorted((rims(a) | rims(b)) - {shared})]
    players = [{"tiles": {"red": 1}}] + [{"tiles": {}}] * (n - 1)
    st = romecore.load_game(GAME, players=n).state_from_dict(
        {"hills": [list(board.sites[h]) for h in (5, 7, 16)], "tiles": tiles, "players": players})
    corners = " ".join(f"({q},{r})" for q, r in board.pl_vertices(shared))
    w, off = divmod(shared, 64)
    site = "site ({},{})".format(*board.sites[7 * w + off // 9])     # the numbering in data.py
    wanted = ("play red tile with magistrate", site, "tile on " + corners, "resolve site", "send magistrate")
    out = []
    for text in wanted:       # a step with one choice is the kernel's own: skip it
        move = [x for x in st.legal_actions() if st.action_to_string(x).startswith(text)]
        if move:
            out.append(st.clone())
            st.apply_action(move[0])
    return out


@cache
def _positions() -> tuple:
    walked = [st for n in (2, 3, 4) for seed in SEEDS for st in _walk(n, seed)]
    return tuple(walked + [st for n in (2, 3, 4) for st in _order_position(n)])


def _keys(st) -> dict[int, tuple[str, ...]]:
    return {a: picture.action_targets(st, a) for a in st.legal_actions()}


def _clickable(svg: str) -> tuple[set[str], ET.Element, dict]:
    """The keys on elements that take clicks (no ``pointer-events="none"`` on them or
    inherited), the parsed tree and its child -> parent map."""
    root = ET.fromstring(svg)
    parent = {ch: e for e in root.iter() for ch in e}
    out = set()
    for e in root.iter():
        key = e.get("data-target")
        if key is None:
            continue
        x = e
        while x is not None and x.get("pointer-events") is None:
            x = parent.get(x)
        if x is None or x.get("pointer-events") != "none":
            out.add(key)
    return out, root, parent


def _verts(text: str) -> set[tuple[int, int]]:
    return {(int(q), int(r)) for q, r in COORD.findall(text)}


def _key_verts(key: str) -> set[tuple[int, int]]:
    detail = key.rsplit(":", 1)[1]
    return {tuple(map(int, v.split(","))) for v in detail.split("/")}


def _imperium_colour(text: str) -> str:
    """The colour of "the <Building> Imperium space"."""
    return COLOUR_OF[re.fullmatch(r"the (\w+) Imperium space", text)[1]]


def _place(text: str, p: int) -> str:
    """The magistrate key of a place as a move's text names it."""
    if text.startswith("tile "):
        return f"magistrate:{p}:tile:" + "/".join(f"{q},{r}" for q, r in sorted(_verts(text)))
    if text == "the Treasury":
        return f"magistrate:{p}:treasury"
    return f"magistrate:{p}:imperium:{_imperium_colour(text)}"


def _expected(text: str, p: int) -> set[str] | None:
    """Keys a move's text implies (all of them, or None for a tile placement, checked by
    its vertices instead)."""
    if m := re.fullmatch(r"play (\w+) tile( with magistrate)?", text):
        return {f"hand:{p}:{m[1]}"} | ({f"magistrate:{p}:centre"} if m[2] else set())
    if m := re.fullmatch(r"(?:resolve )?site \((-?\d+),(-?\d+)\)(?: first)?", text):
        return {f"site:{m[1]},{m[2]}"}
    if text.startswith("tile on "):
        return None
    if m := re.fullmatch(r"draw (\w+)(?: and (\w+))?", text):
        return {f"stack:{c}" for c in m.groups() if c}
    if m := re.fullmatch(r"recall magistrate from (.+)", text):
        return {_place(m[1], p)}
    if m := re.fullmatch(r"(\w+) aqueduct to \((-?\d+),(-?\d+)\)", text):
        return {f"aqueduct:{m[1]}", f"vertex:{m[2]},{m[3]}"}
    if m := re.fullmatch(r"send magistrate from (.+) to (.+)", text):
        dest = f"treasury:{p}" if m[2] == "the Treasury" else f"imperium:{p}:{_imperium_colour(m[2])}"
        return {_place(m[1], p), dest}
    if m := re.fullmatch(r"spend (\w+) Imperium for an extra action", text):
        return {f"imperium:{p}:{m[1]}"}
    if text in ("keep magistrates on the site", "end turn"):
        return set()
    raise AssertionError(f"unknown move text {text!r}")


def test_every_key_of_every_legal_move_is_a_clickable_element_of_the_movers_picture():
    seen = 0
    for st in _positions():
        p = st.current_player()
        clickable, _, _ = _clickable(picture.to_svg(st, p))
        for a, keys in _keys(st).items():
            missing = set(keys) - clickable
            assert not missing, f"{st.action_to_string(a)}: {missing} not clickable in P{p}'s picture"
            seen += len(keys)
    assert seen > 1000


def test_no_two_legal_moves_share_a_key_set_and_only_a_magistrate_extends_another():
    """Distinct key sets; and a move's keys strictly hold another's (the page cannot play the
    smaller on its last click) only for a tile played with a magistrate over the same tile
    played without one."""
    pairs = 0
    for st in _positions():
        keys = _keys(st)
        sets = [frozenset(k) for k in keys.values() if k]
        assert len(set(sets)) == len(sets), [st.action_to_string(a) for a in keys]
        for a, ka in keys.items():
            for b, kb in keys.items():
                if ka and set(ka) < set(kb):
                    ta, tb = st.action_to_string(a), st.action_to_string(b)
                    assert tb == ta + " with magistrate", (ta, tb)
                    pairs += 1
    assert pairs > 0


def test_keys_say_what_the_move_text_says():
    kinds = set()
    for st in _positions():
        p = st.current_player()
        for a, keys in _keys(st).items():
            text = st.action_to_string(a)
            want = _expected(text, p)
            if want is None:      # a tile's place: two triangles, together its four corners
                assert len(keys) == 2 and all(k.startswith("tri:") for k in keys), (text, keys)
                corners = [_key_verts(k) for k in keys]
                assert all(len(c) == 3 for c in corners) and corners[0] | corners[1] == _verts(text), (text, keys)
                kinds.add("tile")
            else:
                assert set(keys) == want and len(keys) == len(want), (text, keys)
                kinds.add(text.split()[0])
    assert kinds >= {"play", "site", "tile", "draw", "recall", "send", "spend", "end", "keep", "gray", "brown",
                     "white", "resolve"}, kinds


def test_a_destination_comes_last():
    for st in _positions()[::4]:
        for a, keys in _keys(st).items():
            text = st.action_to_string(a)
            if " aqueduct to " in text:
                assert keys[-1].startswith("vertex:"), (text, keys)
            elif text.startswith("send "):
                assert keys[-1].startswith(("imperium:", "treasury:")), (text, keys)


def test_a_hill_click_names_no_move():
    """Each hill triangle is inside its hill's key, which no move names (a hill click once
    played a tile placement: the page matched the hill's coordinates in the move texts)."""
    checked = 0
    for st in _positions()[::5]:
        p = st.current_player()
        _, root, parent = _clickable(picture.to_svg(st, p))
        named = {k for keys in _keys(st).values() for k in keys}
        for e in root.iter():
            title = e.find("{http://www.w3.org/2000/svg}title")
            if title is None or not (title.text or "").startswith("hill ("):
                continue
            x = e
            while x.get("data-target") is None:
                x = parent[x]
            s, t = COORD.search(title.text).groups()
            assert x.get("data-target") == f"hill:{s},{t}" and x.get("data-target") not in named
            checked += 1
    assert checked > 100


def test_no_key_sits_inside_another():
    """A click finds the innermost keyed element, so a key inside another would hide it."""
    for st in _positions()[::10]:
        _, root, _ = _clickable(picture.to_svg(st, st.current_player()))
        for e in root.iter():
            if e.get("data-target") is not None:
                inner = [d.get("data-target") for d in e.iter() if d is not e and d.get("data-target")]
                assert not inner, (e.get("data-target"), inner)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_keys_depend_on_nothing_hidden_from_the_mover(n):
    checked = 0
    for st in _positions():
        if st.game.num_players() != n or len(st.history()) % 2:
            continue
        p = st.current_player()
        a, b = st.resample(p, seed=1), st.resample(p, seed=2)
        assert a.legal_actions() == b.legal_actions() == st.legal_actions()
        assert _keys(a) == _keys(b) == _keys(st)
        checked += 1
    assert checked > 20
