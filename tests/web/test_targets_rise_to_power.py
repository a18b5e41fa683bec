"""Board keys of Rise to Power's moves (``picture.action_targets``, issue 53): the browser table
is played by clicking the board, so over seeded random games (every player count, with and
without the Intrigue cards) and over built positions that reach the rare moves (Senator,
Military Tribune, Intrigue Hispania Maximus discarding one of two Legatus), for the seat to
move:

- every key of every legal move is on an element of that seat's picture;
- no two legal moves share a key set, except the moves naming nothing (done, pass, Vicarius
  +1 / -1), which the rule below tells apart by their action ids alone;
- the keys a move's text names (``state.action_to_string``, read by regular expressions) are
  among its keys, and the element carrying each shows the thing named (title or face);
- two worlds resampled from the seat's knowledge give the same moves with the same keys.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

import pytest

import romecore
from romecore import picture
from romecore.games.rise_to_power.kernel import ACTION_BLOCKS as B

SVG = "{http://www.w3.org/2000/svg}"
CONFIGS = [(n, intrigue) for n in (2, 3, 4) for intrigue in ("none", "all")]
NAMELESS = {B["A_DONE"], B["A_PLUS"], B["A_MINUS"]}  # the moves that name no place, card or die
TRACK = {"Military": "military", "Senate": "senate", "Black Market": "black_market"}


def _board(svg: str) -> dict[str, list[ET.Element]]:
    """The picture's elements by board key."""
    out: dict[str, list[ET.Element]] = defaultdict(list)
    for e in ET.fromstring(svg).iter():
        key = e.get("data-target")
        if key is not None:
            out[key].append(e)
    return out


def _shows(elements: list[ET.Element], name: str) -> bool:
    """Whether a title or text inside the elements carrying one key is ``name`` (a faded
    card's title adds that it is exhausted)."""
    shown = {(t.text or "").strip() for e in elements for t in e.iter() if t.tag in (SVG + "title", SVG + "text")}
    return name in shown or f"{name} (exhausted this round)" in shown


def _faded(elements: list[ET.Element]) -> bool:
    return any(e.get("opacity") for e in elements)


def _expected(text: str, seat: int) -> tuple[set[str], dict[str, str], str | None]:
    """What a move's text names: exact keys, and for each key the name its element shows;
    plus the title of a held Senate card it names (its key may carry a copy mark)."""
    m = re.fullmatch(r"place a (\d) on (Military|Senate|Black Market)( with Consul)?", text)
    if m:
        die = f"die:{seat}:{m[1]}"
        return {die, f"track:{TRACK[m[2]]}"}, {die: f"P{seat}'s die: {m[1]}"}, None
    if m := re.fullmatch(r"(activate|discard) (.+?)", text):
        if not (m[1] == "discard" and re.search(r" of P\d$", text)):
            return set(), {}, m[2]
    if m := re.fullmatch(r"discard (.+) of P(\d)", text):
        key = f"province:{m[2]}:{m[1]}"
        return {key}, {key: m[1]}, None
    if m := re.fullmatch(r"conquer (.+) \(\d+\)", text):
        key = f"row:provinces:{m[1]}"
        return {key, f"province:{seat}"}, {key: m[1]}, None
    if m := re.fullmatch(r"take (.+)", text):
        key = f"row:senate:{m[1]}"
        return {key, f"senate:{seat}"}, {key: m[1]}, None
    if m := re.fullmatch(r"place .+ on (.+)", text):
        key = f"province:{seat}:{m[1]}"
        return {key}, {key: m[1]}, None
    if text.startswith("buy a face-down Arena card"):
        return {"deck:arena", f"hand:{seat}"}, {}, None
    if m := re.fullmatch(r"buy (.+) \(\d+ coins\)", text):
        key = f"row:arena:{m[1]}"
        return {key, f"hand:{seat}"}, {key: m[1]}, None
    if m := re.fullmatch(r"add (.+) to the show", text):
        key = f"hand:{seat}:{m[1]}"
        return {key, f"show:{seat}"}, {key: m[1]}, None
    if m := re.fullmatch(r"(?:mark a (\d) to re-roll|invert a (\d) into a \d|change a (\d))", text):
        v = m[1] or m[2] or m[3]
        key = f"die:{seat}:{v}"  # Censor, Proconsul, Quaestor, Vicarius act on the player's own dice
        return {key}, {key: f"P{seat}'s die: {v}"}, None
    if m := re.fullmatch(r"re-roll P(\d)'s (\d)", text):
        key = f"die:{m[1]}:{m[2]}"
        return {key}, {key: f"P{m[1]}'s die: {m[2]}"}, None
    if m := re.fullmatch(r"(?:lower|re-roll) the (\d) at position (\d) on (.+)", text):
        key = f"track:{TRACK[m[3]]}:{seat}:{int(m[2]) - 1}"
        return {key}, {key: f"P{seat}'s die: {m[1]}"}, None
    if m := re.fullmatch(r"target P(\d)", text):
        key = f"player:{m[1]}"
        return {key}, {key: f"P{m[1]}"}, None
    return set(), {}, None


def _check(state: romecore.State, seen: Counter) -> None:
    """Every check of the module docstring at one position with a player to move."""
    seat = state.current_player()
    board = _board(picture.to_svg(state, seat))
    legal = state.legal_actions()
    keys = {a: picture.action_targets(state, a) for a in legal}
    by_set: dict[frozenset, list[int]] = defaultdict(list)
    for a, ks in keys.items():
        text = state.action_to_string(a)
        assert len(set(ks)) == len(ks), (text, ks)
        assert set(ks) <= board.keys(), (text, set(ks) - board.keys())
        assert (ks == ()) == (a in NAMELESS), (text, ks)
        by_set[frozenset(ks)].append(a)
        want, shows, senate_title = _expected(text, seat)
        assert want <= set(ks), (text, ks, want)
        for key, name in shows.items():
            assert _shows(board[key], name), (text, key, name)
        if senate_title is not None:  # the seat's own card of that title, drawn unexhausted
            mine = [k for k in ks if re.fullmatch(rf"senate:{seat}:{re.escape(senate_title)}(#\d)?", k)]
            assert len(mine) == 1 and ks == tuple(mine), (text, ks)
            assert _shows(board[mine[0]], senate_title), (text, mine)
            if text.startswith("activate"):
                assert not _faded(board[mine[0]]), (text, mine)
        seen[state.observation(seat)["phase"], text.split()[0]] += 1
    for ks, acts in by_set.items():
        if len(acts) > 1:  # only the moves naming nothing may share a key set: Vicarius's +1 / -1
            assert ks == frozenset() and set(acts) == {B["A_PLUS"], B["A_MINUS"]}, \
                [state.action_to_string(a) for a in acts]
    worlds = [state.resample(seat, seed=k) for k in (1, 2)]
    for w in worlds:
        assert w.legal_actions() == legal
        assert {a: picture.action_targets(w, a) for a in legal} == keys


def _walk(game: romecore.Game, seed: int, seen: Counter) -> None:
    state, rng = game.new_initial_state(seed=seed), random.Random(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        _check(state, seen)
        legal = state.legal_actions()
        activations = [a for a in legal if B["A_ACTIVATE"] <= a < B["A_PROVINCE"]]
        # activate cards more often than at random, to reach their follow-up choices
        state.apply_action(rng.choice(activations if activations and rng.random() < 0.5 else legal))


@pytest.mark.parametrize("n,intrigue", CONFIGS, ids=[f"{n}p-{i}" for n, i in CONFIGS])
def test_random_games_every_key_is_on_the_board_distinct_and_named(n, intrigue):
    game = romecore.load_game("rise_to_power", players=n, intrigue=intrigue)
    seen: Counter = Counter()
    for seed in range(3):
        _walk(game, seed, seen)
    verbs = {verb for _, verb in seen}
    assert {"place", "activate", "conquer", "take", "buy", "add"} <= verbs, verbs


def _explore(state: romecore.State, depth: int, seen: Counter, rng: random.Random) -> None:
    """Checks every position the player choices of the next ``depth`` moves reach (chance
    events drawn at random)."""
    while state.is_chance_node():
        state.apply_random_chance()
    if state.is_terminal() or depth == 0:
        return
    _check(state, seen)
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        _explore(child, depth - 1, seen, rng)


def _position(n: int, intrigue: str, p0: dict, exhausted: dict) -> romecore.State:
    """Round 5, P0 to place its last die with the given cards; the others hold dice only."""
    game = romecore.load_game("rise_to_power", players=n, intrigue=intrigue)
    return game.state_from_dict({
        "round": 5, "phase": "place", "actor": 0, "order": [0, 1, 2], "turn": 3,
        "tracks": {"military": [{"player": 0, "dice": [5, 3]}, {"player": 1, "dice": [6]}],
                   "senate": [{"player": 0, "dice": [2]}], "black_market": [{"player": 2, "dice": [4]}]},
        "players": [{"dice": [4], **p0}, {"dice": [3, 2, 2], "provinces": ["Epirus"], "forum": {"Jewelry": 2}},
                    {"dice": [6, 6, 1], "provinces": ["Bithynia"]}],
        "exhausted": exhausted,
    })


def test_placed_dice_twin_cards_and_province_choices_are_clickable():
    """Senator and Military Tribune name placed dice; of two Legatus, the unexhausted one
    (drawn unfaded, the second copy) is the card activated."""
    state = _position(3, "none", {
        "provinces": ["Etruria", "Gallia Narbonensis", "Campania", "Achaea", "Numidia"],
        "senate": ["Senator", "Military Tribune", "Legatus", "Legatus"],
    }, {"provinces": ["Gallia Narbonensis"], "senate": [0]})
    seen: Counter = Counter()
    _explore(state, 4, seen, random.Random(1))
    phases = {ph for ph, _ in seen}
    assert {"place", "province", "pick_placed"} <= phases, phases
    assert seen["pick_placed", "lower"] and seen["pick_placed", "re-roll"], seen
    assert picture.action_targets(state, B["A_ACTIVATE"] + 1) == ("senate:0:Legatus#2",)


def test_intrigue_choices_name_players_provinces_dice_and_one_of_two_twins():
    """Intrigue Hispania Maximus discards one of two Legatus (one exhausted: two moves, two
    keys) and any player's Era I province; Intrigue Vicarius and Africanus name a player,
    then Vicarius a die of theirs."""
    state = _position(3, "Vicarius,Hispania Maximus,Africanus Maximus", {
        "provinces": ["Etruria", "Gallia Narbonensis", "Cyrenaica", "Achaea", "Numidia"],
        "senate": ["Hispania Maximus (Intrigue)", "Vicarius (Intrigue)", "Africanus Maximus (Intrigue)",
                   "Legatus", "Legatus"],
    }, {"provinces": ["Gallia Narbonensis"], "senate": [0]})
    seen: Counter = Counter()
    _explore(state, 4, seen, random.Random(2))
    phases = {ph for ph, _ in seen}
    assert {"discard", "target_province", "target", "pick_die"} <= phases, phases
    assert seen["discard", "discard"] >= 3 and seen["target_province", "discard"], seen
