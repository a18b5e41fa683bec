"""The Great City of Rome's public view, what a spectator sees (issue 55): honest (equal in
every world resampled from any seat's knowledge, so it shows nothing one seat could hide
from another, and a deliberately leaky view fails the same check) and complete (the board,
counters, scores, hand sizes and the cards every seat saw taken from the offer are there,
checked against the state's dict and the game's history, not through the code under test).
Positions: seeded random games of 2, 3 and 4 players (the game's only option), played by a
policy leaning to Schools so that drawn cards and cards under the decks come up."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable
from functools import cache

import pytest

import romecore
from romecore.games.great_city_of_rome import kernel
from romecore.picture import PUBLIC, public_view, to_svg

B = kernel.ACTION_BLOCKS
SCHOOLS = ("School", "University")
RARE = {"draft_pick", "school_keep", "school_bottom"}
CONFIGS = [(n, seed) for n in (2, 3, 4) for seed in (0, 1)]
SEEDS = (11, 12)  # resampling seeds


def _policy(st: romecore.State, rng: random.Random) -> int:
    """A random move, leaning to taking and building Schools (they draw and bury cards)."""
    acts = st.legal_actions()
    names = [st.action_to_string(a) for a in acts]
    weights = [20 if t.startswith(("take", "build")) and any(s in t for s in SCHOOLS) else
               5 if t.startswith("build") else 1 for t in names]
    return rng.choices(acts, weights)[0]


@cache
def _game(n: int, seed: int, every: int = 4) -> tuple[tuple[romecore.State, frozenset[int]], ...]:
    """Decision states of one game (every rare-phase one, every ``every``-th other one),
    each with the ids of the cards every seat saw taken from the offer so far."""
    st = romecore.load_game("great_city_of_rome", players=n).new_initial_state(seed=seed)
    rng, out, k = random.Random(seed), [], 0
    taken: set[int] = set()
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_random_chance()
            continue
        k += 1
        if k % every == 0 or st.to_dict(history=False)["phase"] in RARE:
            out.append((st.clone(), frozenset(taken)))
        a = _policy(st, rng)
        if B["A_TAKE"] <= a < B["A_EMISSARY"]:
            before = {c["id"] for c in st.to_dict(history=False)["offer"]}
            st.apply_action(a)
            after = {c["id"] for c in st.to_dict(history=False)["offer"]}
            taken |= before - after
        else:
            st.apply_action(a)
    return tuple(out)


def _positions(n: int, seed: int) -> list[romecore.State]:
    return [st for st, _ in _game(n, seed)]


def _leaks(view: Callable[[romecore.State], object], states: list[romecore.State]) -> list[str]:
    """Where ``view`` differs between a state and a world resampled from some seat's view."""
    out = []
    for st in states:
        truth = view(st)
        for p in range(st.game.num_players()):
            for seed in SEEDS:
                if view(st.resample(p, seed)) != truth:
                    out.append(f"round {st.to_dict(history=False)['round']}: resampled for P{p}, seed {seed}")
    return out


# -- honesty --------------------------------------------------------------------------------
@pytest.mark.parametrize("n,seed", CONFIGS)
def test_public_view_is_equal_in_every_resampled_world(n, seed):
    states = _positions(n, seed)
    assert len(states) > 20
    assert _leaks(public_view, states) == []


@pytest.mark.parametrize("n,seed", CONFIGS)
def test_public_picture_is_equal_in_every_resampled_world(n, seed):
    states = _positions(n, seed)[::2]
    assert _leaks(lambda st: to_svg(st, PUBLIC), states) == []


def _world(st: romecore.State) -> dict:
    """The state's dict without its dealer RNG (which resampling always reseeds)."""
    d = st.to_dict(history=False)
    del d["rng"]
    return d


@pytest.mark.parametrize("n,seed", CONFIGS)
def test_resampled_worlds_really_differ(n, seed):
    """The honesty checks have teeth: many resampled worlds are other worlds, with other
    hand cards, and some with other drawn cards."""
    pairs = [(_world(st), _world(st.resample(p, s))) for st in _positions(n, seed) for p in range(n) for s in SEEDS]
    assert sum(a != b for a, b in pairs) > len(pairs) // 10
    assert sum(a["players"] != b["players"] for a, b in pairs) >= 5
    assert any(a["drawn"] != b["drawn"] for a, b in pairs)


def _leaky_hand(st: romecore.State) -> dict:
    """A public view that keeps seat 0's hand."""
    return {**public_view(st), "hand": st.observation(0)["hand"]}


def _leaky_drawn(st: romecore.State) -> dict:
    """A public view that names the drawn cards as the seat picking from them knows them."""
    mover = st.current_player()
    return {**public_view(st), "drawn": st.observation(mover)["drawn"] if mover >= 0 else []}


@pytest.mark.parametrize("leaky", [_leaky_hand, _leaky_drawn])
def test_a_leaky_view_fails_the_honesty_check(leaky):
    states = [st for n, seed in CONFIGS for st in _positions(n, seed)]
    assert _leaks(leaky, states)


# -- completeness ---------------------------------------------------------------------------
@pytest.mark.parametrize("n,seed", CONFIGS)
def test_what_every_seat_sees_alike_is_public(n, seed):
    """Every field all seats' observations hold alike is in the public view, unchanged."""
    for st in _positions(n, seed):
        obs = [st.observation(p) for p in range(n)]
        view = public_view(st)
        assert set(view) == set(obs[0])
        shared = [k for k in obs[0] if all(o[k] == obs[0][k] for o in obs[1:])]
        assert {"round", "phase", "coins", "influence", "cities", "offer", "scores", "deck_sizes"} <= set(shared)
        for k in shared:
            assert view[k] == obs[0][k], k
        assert view["player"] is None and view["hand"] == [] and view["draft_group"] == []


@pytest.mark.parametrize("n,seed", CONFIGS)
def test_public_view_against_the_state(n, seed):
    """Counters, cities, offer, decks, scores, hands and drawn cards checked against the
    state's dict; the hand cards every seat saw taken from the offer are named, and a named
    hand card is one every other seat's observation names too."""
    for st, taken in _game(n, seed):
        d = st.to_dict(history=False)
        view = public_view(st)
        obs = [st.observation(p) for p in range(n)]
        assert view["scores"] == list(st.scores())
        assert view["round"] == d["round"] and view["phase"] == d["phase"]
        assert view["offer"] == [c["building"] for c in d["offer"]]
        assert list(view["deck_sizes"].values()) == [len(k["pool"]) + len(k["bottom"]) for k in d["decks"]]
        assert [len(b) for b in view["deck_bottoms"].values()] == [len(k["bottom"]) for k in d["decks"][1:]]
        assert len(view["drawn"]) == len(d["drawn"])
        for q, pd in enumerate(d["players"]):
            assert view["coins"][q] == pd["coins"] and view["influence"][q] == pd["influence"]
            assert Counter(b[0] for b in view["cities"][q]) == Counter(b["building"] for b in pd["city"])
            seen = view["opponents"][str(q)]
            hand = Counter(c["building"] for c in pd["hand"])
            known = Counter(seen["known"])
            assert seen["size"] == len(pd["hand"]) == len(seen["known"]) + sum(seen["hidden_by_deck"].values())
            assert known <= hand
            assert Counter(c["building"] for c in pd["hand"] if c["id"] in taken) <= known
            for p in range(n):
                if p != q:
                    assert known <= Counter(obs[p]["opponents"][str(q)]["known"])


def test_public_picture_shows_every_seat_as_an_opponent():
    st = _positions(4, 0)[len(_positions(4, 0)) // 2]
    svg = to_svg(st, PUBLIC)
    text = " ".join(t for e in ET.fromstring(svg).iter() for t in [e.text or ""])
    assert "public view: what every player may see" in text
    assert "(you)" not in text
    assert text.count("hand (known to all)") == 4
    for q in range(4):
        assert f"{st.to_dict(history=False)['players'][q]['coins']} coins" in text
