"""Glory to Rome's public view (``picture.public_view``, ``to_svg(state, PUBLIC)``: what a
spectator sees) over positions of seeded random games: every player count, the Training
Game, and games started with Basilica, Atrium, Fountain, Bar and Legionary-friendly hands,
so that vault cards one seat knows alone or nobody knows, Fountain draws and revealed hand
cards come up.

- honesty: the view and its picture are equal in worlds resampled from any seat's view;
- completeness: every seat's public zones, sizes and the cards all seats know are there,
  checked against the truth (``to_dict``) by the rules of who knows what;
- a view that leaks a seat's hand fails the honesty check.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import romecore
from romecore import picture
from romecore.games.glory_to_rome import data
from romecore.games.glory_to_rome import picture as gtr_picture

EVERY = 7       # check every seventh position of a game (chance nodes included)
SVG_EVERY = 6   # and the picture at every sixth of those (it is drawn from the view alone)
NAME = [data.BUILDINGS[b].name for b in data.card_table()]   # card id -> building name
MATERIALS = [m.name for m in data.MATERIALS]
# who knows a card by default, by zone (the game's docs): the draw pile nobody, a hand its
# owner, a Fountain draw its drawer, every other zone everyone
PRIVATE_ZONES = ("hand", "drawn", "deck")


def _rich_start(n: int, seed: int) -> romecore.State:
    """A lead where the seats own (complete) Basilica, Atrium, Fountain, Bar, Palace and
    Senate between them, each with five hand cards, a Jack and a stockpile card."""
    game = romecore.load_game("glory_to_rome", players=n)
    rng = random.Random(seed)
    rare = ["Basilica", "Atrium", "Fountain", "Bar", "Palace", "Senate", "Market", "Sewer"]
    rng.shuffle(rare)
    structures = [{"owner": i % n, "building": b, "complete": True} for i, b in enumerate(rare[:2 * n])]
    players = [{"hand": [rng.choice(MATERIALS) for _ in range(5)], "jacks": 1, "stockpile": [rng.choice(MATERIALS)]}
               for _ in range(n)]
    return game.state_from_dict({"phase": "lead", "leader": 0, "players": players, "structures": structures,
                                 "pool": MATERIALS[:2]})


def _starts() -> list[tuple[str, romecore.State, int]]:
    out = []
    for n in range(2, 6):
        out.append((f"{n}p-seed{n}", romecore.load_game("glory_to_rome", players=n).new_initial_state(seed=n), n))
        out.append((f"{n}p-rich", _rich_start(n, 10 + n), 10 + n))
    out.append(("3p-training", romecore.load_game("glory_to_rome", players=3, training=True).new_initial_state(seed=3),
                3))
    return out


@functools.lru_cache(maxsize=1)
def _positions() -> list[tuple[str, romecore.State]]:
    """Every EVERY-th position of each start's random game (a clone), chance nodes included,
    and its last position."""
    out = []
    for name, st, seed in _starts():
        rng, k = random.Random(seed), 0
        while not st.is_terminal():
            if k % EVERY == 0:
                out.append((f"{name}@{len(st.history())}", st.clone()))
            k += 1
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        out.append((f"{name}@end", st.clone()))
    return out


def _svg(view: dict, game) -> str:
    """The public picture drawn from ``view`` (what ``to_svg(state, PUBLIC)`` does)."""
    canvas = picture.Canvas(gtr_picture.WIDTH)
    gtr_picture.draw(canvas, {picture.PUBLIC: view}, picture.PUBLIC, game, None)
    return canvas.to_string()


def _leaks(view_of, positions, seeds=(1, 2), svg_every=SVG_EVERY) -> tuple[list[str], int, int]:
    """Where ``view_of(state)`` differs between a state and a world resampled from some
    seat's view, or (at every ``svg_every``-th position) the picture drawn from it; with the
    number of worlds tried and of those whose hidden zones (a hand, a vault, a Fountain
    draw) really differ from the state's."""
    leaks, worlds, redrawn = [], 0, 0
    for i, (where, st) in enumerate(positions):
        view, truth = view_of(st), st.to_dict()
        svg = _svg(view, st.game) if i % svg_every == 0 else None
        for p in range(st.game.num_players()):
            for seed in seeds:
                other = st.resample(p, seed=seed)
                worlds += 1
                assert other.to_dict() != truth, f"{where}: P{p}'s world {seed} is the state itself"
                redrawn += _hidden_zones(other.to_dict()) != _hidden_zones(truth)
                if view_of(other) != view:
                    leaks.append(f"{where}: P{p}'s world {seed}: the view")
                elif svg is not None and _svg(view_of(other), st.game) != svg:
                    leaks.append(f"{where}: P{p}'s world {seed}: the picture")
    return leaks, worlds, redrawn


def _hidden_zones(d: dict) -> list:
    return [(sorted(pd["hand"]), sorted(pd["vault"])) for pd in d["players"]] + [sorted(d["drawn"])]


def test_the_positions_hold_secrets_of_every_kind():
    """Guards the tests below against a sample without the secrets they are about: a
    revealed hand card, a vault card one seat alone knows, one nobody knows (Atrium), and
    a Fountain draw, each somewhere; and a finished game in every start."""
    kinds: Counter[str] = Counter()
    for _, st in _positions():
        d, n = st.to_dict(), st.game.num_players()
        for c, who in d["known"].items():
            zone = _zone_of(d, int(c))
            kinds[f"{zone}:{'all' if len(who) == n else len(who)}"] += 1
        kinds["drawn"] += bool(d["drawn"])
        kinds["over"] += st.is_terminal()
    assert kinds["hand:all"] and kinds["vault:1"] and kinds["vault:0"] and kinds["drawn"], kinds
    assert kinds["over"] == len(_starts())


def test_the_public_view_is_equal_in_every_world_a_seat_may_imagine():
    positions = _positions()
    leaks, worlds, redrawn = _leaks(picture.public_view, positions)
    assert not leaks, leaks[:5]
    # the same for the picture the module entry point draws
    for where, st in positions[::25]:
        svg = picture.to_svg(st, picture.PUBLIC)
        for p in range(st.game.num_players()):
            assert picture.to_svg(st.resample(p, seed=3), picture.PUBLIC) == svg, f"{where}: P{p}"
    assert worlds > 1000 and redrawn > worlds // 2, (worlds, redrawn)


def test_a_view_that_keeps_seat_0s_hand_fails_the_honesty_check():
    def leaky(st: romecore.State) -> dict:
        view = picture.public_view(st)
        return view | {"known_in_hands": view["known_in_hands"] | {"0": st.observation(0)["hand"]}}

    leaks, worlds, _ = _leaks(leaky, _positions()[::4], seeds=(1,), svg_every=10**9)
    assert len(leaks) > worlds // 4, (len(leaks), worlds)


def _zone_of(d: dict, c: int) -> str:
    """The zone of card ``c`` in the dict form: ``hand``, ``vault``, ``drawn``, ``deck`` ..."""
    for zone in ("hand", "stockpile", "vault", "clientele", "camp"):
        if any(c in pd[zone] for pd in d["players"]):
            return zone
    for zone in ("pool", "drawn", "deck"):
        if c in d[zone]:
            return zone
    return "structure"


def _known_to_all(d: dict, c: int, n: int) -> bool:
    """Whether every seat knows card ``c``: the dict's ``known`` list, else the zone's default."""
    who = d["known"].get(str(c))
    return len(who) == n if who is not None else _zone_of(d, c) not in PRIVATE_ZONES


def _names(cards) -> list[str]:
    return sorted(NAME[c] for c in cards)


def test_the_public_view_holds_everything_public():
    """Against the truth (``to_dict``) by who knows what: each seat's open zones, its hand
    and vault as the cards all seats know plus the rest as a count, a Fountain draw and the
    card being placed only if all know it; and every field that every seat's observation
    shows alike."""
    for where, st in _positions():
        d, n, view = st.to_dict(), st.game.num_players(), picture.public_view(st)
        seen = [st.observation(p) for p in range(n)]
        assert set(view) == set(seen[0]), where
        assert view["player"] is None and view["hand"] == [], where
        assert view["pool"] == _names(d["pool"]) and view["deck_size"] == len(d["deck"]), where
        assert view["jack_pile"] == d["jack_pile"] and view["sites"] == d["sites"], where
        assert [s["building"] for s in view["structures"]] == [NAME[s["card"]] for s in d["structures"]], where
        for q, pd in enumerate(d["players"]):
            assert view["stockpiles"][q] == _names(pd["stockpile"]), where
            assert view["clienteles"][q] == _names(pd["clientele"]), where
            assert view["camps"][q] == _names(pd["camp"]), where
            assert view["influence"][q] == pd["influence"] and view["jacks"][q] == pd["jacks"], where
            assert view["hand_sizes"][q] == len(pd["hand"]), where
            public_hand = _names(c for c in pd["hand"] if _known_to_all(d, c, n))
            assert view["known_in_hands"][str(q)] == public_hand, f"{where}: P{q}'s hand"
            public_vault = _names(c for c in pd["vault"] if _known_to_all(d, c, n))
            assert view["vaults"][q] == {"known": public_vault, "hidden": len(pd["vault"]) - len(public_vault)}, \
                f"{where}: P{q}'s vault"
        assert view["drawn"] == [NAME[c] if _known_to_all(d, c, n) else None for c in d["drawn"]], where
        placing = view["turn"]["selected"]   # the card an action is placing, named only if all know it
        if placing is not None:
            card = d["turn"]["selected"]["card"]
            assert _known_to_all(d, card, n) and NAME[card] == placing["card"], where
        for key in seen[0]:
            if all(o[key] == seen[0][key] for o in seen):
                assert view[key] == seen[0][key], f"{where}: {key}"


def test_the_public_picture_draws_every_seat_as_an_opponent():
    """No seat is 'you'; each seat's panel and the heading say it is the public view, and
    a hand all seats cannot see is drawn as a count of card backs."""
    for where, st in _positions()[::10]:
        svg = picture.to_svg(st, picture.PUBLIC)
        assert "(you)" not in svg and "public view" in svg, where
        for q in range(st.game.num_players()):
            assert f">P{q}<" in svg or f" P{q}<" in svg, f"{where}: P{q}'s panel"
        view = picture.public_view(st)
        for q, size in enumerate(view["hand_sizes"]):
            unseen = size - len(view["known_in_hands"][str(q)])
            if unseen:
                assert f"{unseen} card(s) in hand" in svg, f"{where}: P{q}'s hidden hand"
