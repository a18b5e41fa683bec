"""The Great City of Rome played by clicking the board (issue 53): every legal move's board
keys (``picture.action_targets``) lie on elements of the mover's picture, tell the moves
apart, are the ones the move's own name and the state's dict say (an oracle that reads the
truth's card ids through the data tables, not the action names the renderer parses), and do
not depend on cards the mover cannot see.  Positions: seeded random games of 2, 3 and 4
players, played by a policy leaning to Schools so that the rare School phases come up."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from functools import cache

import pytest

import romecore
from romecore.games.great_city_of_rome import data, kernel
from romecore.picture import action_targets, to_svg

SVG = "{http://www.w3.org/2000/svg}"
B = kernel.ACTION_BLOCKS
CARDS = data.card_table()
RARE = {"draft_pick", "school_deck", "school_keep", "school_bottom"}
SCHOOLS = {"School", "University"}
CONFIGS = [(n, seed) for n in (2, 3, 4) for seed in (0, 1, 2)]


def _card_name(card_id: int) -> str:
    return data.TYPES[CARDS[card_id][0]].name


def _neighbours(d: dict, p: int, text: str) -> int:
    """How many of seat p's buildings touch the cell a ``build ... at (r,c)`` names."""
    r, c = map(int, re.search(r"at \((\d+),(\d+)\)", text).groups())
    return sum(abs(b["row"] - r) + abs(b["col"] - c) == 1 for b in d["players"][p]["city"])


def _lean_to_schools(st: romecore.State, rng: random.Random) -> int:
    """A random move, leaning to taking and building Schools where they draw most."""
    acts = st.legal_actions()
    names = [st.action_to_string(a) for a in acts]
    if st.to_dict()["turn"]["selected"] in SCHOOLS:
        d = st.to_dict()
        best = max(_neighbours(d, st.current_player(), t) for t in names)
        return rng.choice([a for a, t in zip(acts, names) if _neighbours(d, st.current_player(), t) == best])
    weights = [20 if t.startswith(("take", "build")) and any(s in t for s in SCHOOLS) else
               5 if t.startswith("build") else 1 for t in names]
    return rng.choices(acts, weights)[0]


@cache
def _positions(n: int, seed: int, every: int = 4) -> tuple[romecore.State, ...]:
    """Decision states of one game: every rare-phase one and every ``every``-th other one."""
    st = romecore.load_game("great_city_of_rome", players=n).new_initial_state(seed=seed)
    rng, out, k = random.Random(seed), [], 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_random_chance()
            continue
        k += 1
        if k % every == 0 or st.to_dict()["phase"] in RARE:
            out.append(st.clone())
        st.apply_action(_lean_to_schools(st, rng))
    return tuple(out)


def _elements(svg: str) -> dict[str, list[ET.Element]]:
    """The picture's elements by their board key."""
    found: dict[str, list[ET.Element]] = {}
    for e in ET.fromstring(svg).iter():
        key = e.get("data-target")
        if key is not None:
            found.setdefault(key, []).append(e)
    return found


def _titles(elements: list[ET.Element]) -> list[str]:
    return [t.text or "" for e in elements for t in e.iter(SVG + "title")]


def _expected(st: romecore.State, a: int) -> tuple[tuple[str, ...], str]:
    """A move's keys from its name and the truth's dict, and what each key's element must be
    titled (a name, a "(r,c)" or a space or deck): the oracle."""
    d, p, text = st.to_dict(), st.current_player(), st.action_to_string(a)
    if text in ("produce", "end turn"):
        return (), ""
    if m := re.fullmatch(r"build .+ at \((\d+),(\d+)\)( replacing .+)?", text):
        return (f"city:{p}:{m[1]},{m[2]}",), f"({m[1]},{m[2]})"
    if m := re.fullmatch(r"build (.+)", text):
        return (f"hand:{p}:{m[1]}",), m[1]
    if m := re.fullmatch(r"emissary to space (\d)( \(.*\))?", text):
        return (f"strip:{m[1]}",), f"strip space {m[1]}"
    if m := re.fullmatch(r"School draws from deck (I+V?)", text):
        return (f"deck:{m[1]}",), f"deck {m[1]}:"
    if text.startswith("take "):
        name = d["offer"][a - B["A_TAKE"]]["building"]  # offer slots in card-id order
        return (f"offer:{name}",), name
    slot = {"draft": B["A_DRAFT"], "keep": B["A_KEEP"], "put": B["A_BOTTOM"]}[text.split()[0]]
    name = _card_name(d["drawn"][a - slot])
    if text.startswith("put "):
        deck = data.DECK_NAMES[d["school"]["deck"]]
        return (f"drawn:{p}:{name}", f"deck:{deck}"), name
    return (f"drawn:{p}:{name}",), name


@pytest.mark.parametrize("n,seed", CONFIGS)
def test_every_key_of_every_legal_move_is_on_the_movers_picture_and_is_the_oracles(n, seed):
    seen: set[str] = set()
    for st in _positions(n, seed):
        p = st.current_player()
        elements = _elements(to_svg(st, p))
        for a in st.legal_actions():
            keys = action_targets(st, a)
            want, title = _expected(st, a)
            assert keys == want, (st.action_to_string(a), keys, want)
            for key in keys:
                assert key in elements, f"{st.action_to_string(a)}: {key} is not on P{p}'s picture"
            if keys:  # the element clicked first is the thing the move's name says
                titles = _titles(elements[keys[0]])
                assert titles and all(title in t for t in titles), (keys[0], titles, title)
            seen.add(keys[0].split(":")[0] if keys else st.action_to_string(a).split()[0])
    assert {"city", "hand", "offer", "strip", "drawn", "end"} <= seen, seen


def test_the_school_moves_come_up_and_name_the_drawn_card_then_the_deck():
    """The rare School moves are checked above too: this makes sure the games reach them."""
    kinds: set[str] = set()
    for n, seed in CONFIGS:
        for st in _positions(n, seed):
            phase = st.to_dict()["phase"]
            if phase.startswith("school"):
                kinds.add(phase)
                if phase == "school_bottom":
                    for a in st.legal_actions():
                        first, last = action_targets(st, a)
                        assert first.startswith(f"drawn:{st.current_player()}:") and last.startswith("deck:")
    assert kinds == {"school_deck", "school_keep", "school_bottom"}, kinds


@pytest.mark.parametrize("n,seed", CONFIGS)
def test_key_sets_tell_the_legal_moves_apart_but_produce_and_end_turn(n, seed):
    """Only moves that name nothing (produce, end turn: buttons) share a key set."""
    for st in _positions(n, seed):
        sets = {a: frozenset(action_targets(st, a)) for a in st.legal_actions()}
        empty = {st.action_to_string(a) for a, s in sets.items() if not s}
        assert empty <= {"produce", "end turn"}, empty
        named = [s for s in sets.values() if s]
        assert len(set(named)) == len(named), [st.action_to_string(a) for a in sets]


@pytest.mark.parametrize("n,seed", CONFIGS)
def test_keys_never_depend_on_what_the_mover_cannot_see(n, seed):
    differ = 0
    for st in _positions(n, seed)[::2]:
        p = st.current_player()
        one, two = st.resample(p, seed=1), st.resample(p, seed=2)
        differ += one.to_dict() != two.to_dict()
        assert one.legal_actions() == two.legal_actions() == st.legal_actions()
        for a in st.legal_actions():
            assert action_targets(one, a) == action_targets(two, a) == action_targets(st, a)
    assert differ > 0  # the worlds differed in hidden cards, so the check had something to catch


@pytest.mark.parametrize("n", [2, 4])
def test_a_built_cell_and_a_taken_strip_space_stay_keyed_for_every_seat_after_the_move(n):
    """The page highlights the last move's keys that still exist: a new building's cell and
    the emissary's space are on every seat's next picture."""
    checked = 0
    for st in _positions(n, 0)[:40]:
        for a in st.legal_actions()[:2]:
            keys = action_targets(st, a)
            if not keys or keys[0].split(":")[0] not in ("city", "strip"):
                continue
            after = st.clone()
            after.apply_action(a)
            for q in range(n):
                assert keys[-1] in _elements(to_svg(after, q)), (st.action_to_string(a), q)
            checked += 1
    assert checked >= 5


def test_spectators_picture_carries_the_keys_too():
    st = _positions(3, 1)[len(_positions(3, 1)) // 2]
    elements = _elements(to_svg(st, None))
    assert all(k in elements for a in st.legal_actions() for k in action_targets(st, a))
