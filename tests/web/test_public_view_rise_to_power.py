"""The public view of Rise to Power (``picture.public_view`` and ``to_svg(state, PUBLIC)``,
issue 55): what a spectator sees while the game is under way.  Over positions of seeded
random games (every player count, with and without the Intrigue cards):

- honesty: a world resampled from any seat's knowledge has the same public view and the
  same public picture (and the resampled worlds do differ from the truth, so the check
  bites); a public view that names seat 0's face-down cards fails it;
- completeness: what every player may see is there, read from the state's dict form (the
  truth) rather than through the observation: tracks, rows, decks, every seat's forum, VP,
  dice, provinces and Senate cards, the scores, and of each seat's Arena cards those bought
  face up, the number face down and the size of a show being prepared; the picture draws
  every seat as an opponent (no "(you)", no named hand card).
"""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

import romecore
from romecore import picture
from romecore.games.rise_to_power import picture as rtp_picture
from romecore.picture import PUBLIC

CONFIGS = [(n, intrigue) for n in (2, 3, 4) for intrigue in ("none", "all")]
EVERY = 7  # check one position in this many (and every show and face-down purchase)
HONEST = rtp_picture.public_view


def _positions(n: int, intrigue: str, seeds: range) -> list[romecore.State]:
    """Positions of random games: one decision in EVERY, every decision of a show being
    prepared or just after a face-down purchase (where the hidden information lives), and
    the final position."""
    game = romecore.load_game("rise_to_power", players=n, intrigue=intrigue)
    out = []
    for seed in seeds:
        state, rng, k = game.new_initial_state(seed=seed), random.Random(seed), 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance()
                continue
            k += 1
            phase = state.to_dict()["phase"]
            if k % EVERY == 0 or phase in ("show", "draw"):
                out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(state)
    return out


def _worlds_differ(view_fn, states: list[romecore.State]) -> tuple[int, int]:
    """(positions whose view or picture changed in a resampled world, resampled worlds that
    differ from the truth) under the public view ``view_fn``."""
    leaks = changed = 0
    for state in states:
        n = state.game.num_players()
        truth, svg = view_fn(state), picture.to_svg(state, PUBLIC)
        leaked = False
        for p in range(n):
            for seed in (1, 2):
                world = state.resample(p, seed=seed)
                changed += world.to_dict() != state.to_dict()
                leaked |= view_fn(world) != truth or picture.to_svg(world, PUBLIC) != svg
        leaks += leaked
    return leaks, changed


@pytest.fixture(scope="module")
def positions() -> dict[tuple[int, str], list[romecore.State]]:
    return {cfg: _positions(*cfg, range(2)) for cfg in CONFIGS}


@pytest.mark.parametrize("cfg", CONFIGS, ids=[f"{n}p-{i}" for n, i in CONFIGS])
def test_resampled_worlds_have_the_same_public_view_and_picture(positions, cfg):
    leaks, changed = _worlds_differ(picture.public_view, positions[cfg])
    assert leaks == 0
    assert changed >= 10, changed  # the worlds really differ: the check has teeth


def _leaky(state: romecore.State) -> dict:
    """A dishonest public view: seat 0's face-down Arena cards named among its known ones."""
    view = HONEST(state)
    p0 = state.to_dict()["players"][0]
    view["opponents"]["0"] = {"known": sorted(c["card"] for c in p0["hand"] + p0["show"]), "hidden": 0,
                              "show_size": len(p0["show"])}
    return view


def test_a_view_naming_seat_0s_face_down_cards_fails_the_honesty_check(positions, monkeypatch):
    monkeypatch.setattr(rtp_picture, "public_view", _leaky)  # what to_svg(state, PUBLIC) draws too
    held = [s for cfg in CONFIGS for s in positions[cfg] if _expected_arena(s.to_dict()["players"][0])["hidden"]]
    assert len(held) >= 10, len(held)
    leaks, _ = _worlds_differ(picture.public_view, held[::4])
    assert leaks >= len(held[::4]) // 2, (leaks, len(held[::4]))


def _expected_arena(pd: dict) -> dict:
    """What every player knows of a seat's Arena cards, from the truth: the names of those
    bought face up (hand or show), the number bought face down, the size of the show."""
    held = pd["hand"] + pd["show"]
    return {"known": sorted(c["card"] for c in held if c["public"]),
            "hidden": sum(not c["public"] for c in held), "show_size": len(pd["show"])}


@pytest.mark.parametrize("cfg", CONFIGS, ids=[f"{n}p-{i}" for n, i in CONFIGS])
def test_the_public_view_holds_what_every_player_may_see(positions, cfg):
    face_down = 0
    for state in positions[cfg]:
        d, view = state.to_dict(), picture.public_view(state)
        n = len(d["players"])
        assert view["player"] is None and view["hand"] == [] and view["show"] == []
        for key in ("round", "phase", "actor", "order", "new_order", "turn", "step", "consul", "tracks",
                    "exhausted", "activation", "resolution", "scoring"):
            assert view[key] == d[key], key
        assert view["current_player"] == state.current_player()
        assert view["scores"] == list(state.scores())
        assert view["rows"]["provinces"] == d["rows"]["provinces"]
        assert view["rows"]["senate"] == sorted(c["card"] for c in d["rows"]["senate"])
        assert view["rows"]["arena"] == sorted(c["card"] for c in d["rows"]["arena"])
        assert view["decks"]["arena_size"] == len(d["decks"]["arena"])
        assert sorted(view["opponents"]) == [str(q) for q in range(n)]
        for q, pd in enumerate(d["players"]):
            shown = view["players"][q]
            assert "hand" not in shown and "show" not in shown
            for key in ("vp_forum", "vp_arena", "forum", "provinces", "senate", "dice", "military_bonus",
                        "coin_bonus", "tribunus"):
                assert shown[key] == pd[key], (q, key)
            assert view["opponents"][str(q)] == _expected_arena(pd), q
            face_down += view["opponents"][str(q)]["hidden"]
        for p in range(n):  # what a seat sees of the others is what everyone sees of them
            obs = state.observation(p)
            assert all(obs["opponents"][str(q)] == view["opponents"][str(q)] for q in range(n) if q != p)
            assert {k: v for k, v in obs.items() if k not in rtp_picture.PRIVATE} == \
                {k: v for k, v in view.items() if k not in rtp_picture.PRIVATE}
    assert face_down > 0  # the positions hold hidden cards


def test_the_public_picture_draws_every_seat_as_an_opponent(positions):
    for state in positions[4, "all"][::3] + positions[2, "none"][::3]:
        svg = picture.to_svg(state, PUBLIC)
        root = ET.fromstring(svg)
        texts = {(e.text or "") for e in root.iter() if e.tag.endswith("text") or e.tag.endswith("title")}
        keys = {e.get("data-target") for e in root.iter()} - {None}
        d = state.to_dict()
        assert "public view: what every player may see" in texts
        assert not any("(you)" in t for t in texts)
        assert not any(k.startswith("hand:") and k.count(":") == 2 for k in keys)  # no named hand card
        for q, pd in enumerate(d["players"]):
            assert f"player:{q}" in keys
            assert {f"province:{q}:{nm}" for nm in pd["provinces"]} <= keys
            arena = _expected_arena(pd)
            assert set(arena["known"]) <= texts
            if arena["hidden"]:
                assert f"{arena['hidden']} face-down arena card(s)" in texts
