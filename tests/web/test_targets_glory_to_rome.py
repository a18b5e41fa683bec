"""Glory to Rome's board keys (``picture.targets``, the browser table's click contract) over
positions of seeded random games: every player count, the Training Game, and games started
from a dict position where every player has rare building functions (Fountain, Stairway,
Senate, Sewer, Palace ...), so that every kind of move comes up.  For the seat to move:

- every key of every legal move is a ``data-target`` of that seat's picture;
- no two legal moves share a key set, except moves with no keys at all (think, decline,
  done ...: the prompt bar's buttons), recognised by their action block;
- the keys are what the move's text says (an oracle parsing ``action_to_string``);
- the keys are the same in two worlds resampled from the seat's knowledge.
"""

from __future__ import annotations

import functools
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest

import romecore
from romecore import picture
from romecore.games.glory_to_rome import data, kernel

SVG = "{http://www.w3.org/2000/svg}"
BLOCKS = kernel.ACTION_BLOCKS
NO_KEYS = {BLOCKS["A_THINK"], BLOCKS["A_VOMIT"], BLOCKS["A_DONE"]}   # one-action blocks
EVERY = 4            # check every fourth decision of a game
RESAMPLE_EVERY = 4   # and every fourth of those in two resampled worlds
RARE_BLOCKS = {"A_DECK", "A_TO_HAND", "A_SENATE", "A_COLISEUM", "A_SEWER", "A_VOMIT"}  # Fountain ... Vomitorium
RARE = ("Fountain", "Stairway", "Basilica", "Sewer", "Aqueduct", "Palace", "Senate", "Coliseum", "Prison",
        "Latrine", "Vomitorium", "Dock", "Atrium", "Bar", "Archway", "Circus", "School", "Academy", "Bridge",
        "Tower")
MATERIALS = [m.name for m in data.MATERIALS]
MATERIAL_OF_ROLE = {m.role: m.name for m in data.MATERIALS}
MATERIAL_OF = {b.name: data.MATERIALS[b.material].name for b in data.BUILDINGS}


def _block(action: int) -> str:
    """The name of the kernel's action block that holds ``action``."""
    return max(((b, n) for n, b in BLOCKS.items() if b <= action))[1]


def _rich_start(n: int, seed: int) -> romecore.State:
    """A lead with three completed rare buildings per player, five hand cards, a Jack and
    two stockpile cards each (a building past a material's in-town sites stands out of town)."""
    game = romecore.load_game("glory_to_rome", players=n)
    rng = random.Random(seed)
    names = list(RARE)
    rng.shuffle(names)
    used: Counter[str] = Counter()
    structures = []
    for i, name in enumerate(names[:3 * n]):
        used[MATERIAL_OF[name]] += 1
        structures.append({"owner": i % n, "building": name, "complete": True,
                           "out_of_town": used[MATERIAL_OF[name]] > n})
    players = [{"hand": [rng.choice(MATERIALS) for _ in range(5)], "jacks": 1,
                "stockpile": [rng.choice(MATERIALS) for _ in range(2)]} for _ in range(n)]
    return game.state_from_dict({"phase": "lead", "leader": 0, "players": players, "structures": structures,
                                 "pool": MATERIALS[:3]})


def _thinker_start() -> romecore.State:
    """A lead where P0 has a Vomitorium, a School and an Academy: Thinker actions that may
    be declined, with the Vomitorium beside them (two moves with no keys at once)."""
    game = romecore.load_game("glory_to_rome", players=2)
    return game.state_from_dict({
        "phase": "lead", "leader": 0,
        "players": [{"hand": ["Rubble", "Wood", "Brick", "Stone", "Marble"], "jacks": 1}, {"hand": ["Rubble", "Wood"]}],
        "structures": [{"owner": 0, "building": b, "complete": True} for b in ("Vomitorium", "School", "Academy")]})


def _starts() -> list[tuple[str, romecore.State, int]]:
    out = [("2p-thinker", _thinker_start(), 0)]
    for n in range(2, 6):
        for seed in (1, 2):
            out.append((f"{n}p-seed{seed}", romecore.load_game("glory_to_rome", players=n).new_initial_state(seed=seed),
                        seed))
        out.append((f"{n}p-rich", _rich_start(n, n), n))
    out.append(("3p-training", romecore.load_game("glory_to_rome", players=3, training=True).new_initial_state(seed=3),
                3))
    return out


@functools.lru_cache(maxsize=1)
def _positions() -> list[tuple[str, romecore.State]]:
    """Every EVERY-th decision of each start's random game (a clone of the state), and every
    decision offering a move of a rare building's function (RARE_BLOCKS)."""
    out = []
    for name, st, seed in _starts():
        rng, k = random.Random(seed), 0
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_random_chance()
                continue
            if k % EVERY == 0 or any(_block(a) in RARE_BLOCKS for a in st.legal_actions()):
                out.append((f"{name}@{len(st.history())}", st.clone()))
            k += 1
            st.apply_action(rng.choice(st.legal_actions()))
    return out


def _keys(st: romecore.State) -> dict[int, tuple[str, ...]]:
    return {a: picture.action_targets(st, a) for a in st.legal_actions()}


def _on_picture(st: romecore.State, seat: int) -> set[str]:
    root = ET.fromstring(picture.to_svg(st, seat))
    return {e.get("data-target") for e in root.iter() if e.get("data-target")}


def test_the_positions_reach_every_kind_of_move():
    """Guards the tests below against a sample that misses a move kind: every action block
    a player uses is legal somewhere, and so are the Palace, Senate, Sewer and Coliseum."""
    seen, phases = set(), set()
    for _, st in _positions():
        phases.add(st.observation(st.current_player())["phase"])
        seen |= {_block(a) for a in st.legal_actions()}
    assert seen == set(BLOCKS) - {"CH_CARD"}, set(BLOCKS) - seen
    assert {"lead", "follow", "palace", "petition", "think", "act", "give", "coliseum", "senate", "sewer"} <= phases


def test_every_key_is_on_the_movers_picture_and_key_sets_tell_moves_apart():
    checked = shared = 0
    for where, st in _positions():
        seat, keys = st.current_player(), _keys(st)
        drawn = _on_picture(st, seat)
        for a, ks in keys.items():
            missing = set(ks) - drawn
            assert not missing, f"{where}: {st.action_to_string(a)!r} names {missing}, not on P{seat}'s picture"
            assert all(re.fullmatch(r"[a-z]+(:[A-Za-z0-9_]+)+", k) for k in ks), ks
        by_set: dict[frozenset, list[int]] = {}
        for a, ks in keys.items():
            by_set.setdefault(frozenset(ks), []).append(a)
        for ks, acts in by_set.items():
            if len(acts) > 1:  # only moves that name nothing share a key set (the prompt bar's buttons)
                assert not ks and all(a in NO_KEYS for a in acts), \
                    f"{where}: {[st.action_to_string(a) for a in acts]} share the keys {set(ks)}"
                shared += 1
        checked += len(keys)
    assert checked > 4000
    assert shared > 0  # the documented exception comes up (the thinker start), and passes


def _expected(text: str, p: int) -> set[str]:
    """The keys a move's text names, by the rulebook's meaning of the move: the card or Jack
    played, the role it is for, the pool, pile, site, structure or card it takes, and the
    zone the card lands in.  Fails on a text it does not know."""
    def hand(b: str) -> str:
        return f"hand:{p}:{b.replace(' ', '_')}"

    def building(q: str | int, b: str) -> str:
        return f"building:{q}:{b.replace(' ', '_')}"

    rules = [
        (r"(?:lead|follow|also play for) (\w+) with Jack", lambda m: {f"hand:{p}:Jack", f"role:{m[1]}"}),
        (r"(?:lead|follow|also play for) (\w+) with a petition of \d (\w+)",
         lambda m: {f"petition:{p}:{m[2]}", f"role:{m[1]}"}),
        (r"(?:lead|follow|also play for) (\w+) with ([\w ]+)", lambda m: {hand(m[2]), f"role:{m[1]}"}),
        (r"petition with ([\w ]+)", lambda m: {hand(m[1])}),
        (r"Latrine: discard ([\w ]+)", lambda m: {hand(m[1]), f"pool:{MATERIAL_OF[m[1]]}"}),
        (r"take a Jack", lambda m: {"pile:jacks", f"hand:{p}"}),
        (r"draw \d+ cards?", lambda m: {"pile:deck", f"hand:{p}"}),
        (r"give ([\w ]+) to player (\d)", lambda m: {hand(m[1]), f"stockpile:{m[2]}"}),
        (r"Coliseum: slay player (\d)'s (\w+) client", lambda m: {f"clientele:{m[1]}:{m[2]}", f"vault:{p}"}),
        (r"Senate: take the Jack player (\d) played", lambda m: {f"camp:{m[1]}:Jack", f"hand:{p}"}),
        (r"Sewer: put the played (\w+) into the stockpile", lambda m: {f"camp:{p}:{m[1]}", f"stockpile:{p}"}),
        (r"lay [\w ]+ on a (\w+) site in town", lambda m: {f"site:in:{m[1]}"}),
        (r"lay [\w ]+ on a (\w+) site out of town", lambda m: {f"site:out:{m[1]}"}),
        (r"add \w+ from [\w ]+ to ([\w ]+)", lambda m: {building(p, m[1])}),
        (r"keep [\w ]+ in hand", lambda m: {f"hand:{p}"}),
        (r"Prison: steal player (\d)'s ([\w ]+)", lambda m: {building(m[1], m[2])}),
        (r"Stairway: add \w+ to player (\d)'s ([\w ]+), making it public", lambda m: {building(m[1], m[2])}),
        (r"Stairway: use (\w+) from the pool", lambda m: {f"pool:{m[1]}"}),
        (r"Stairway: use (\w+) from the stockpile", lambda m: {f"stockpile:{p}:{m[1]}"}),
        (r"Dock: (?:also )?put ([\w ]+) from hand into the stockpile", lambda m: {hand(m[1]), f"stockpile:{p}"}),
        (r"Laborer: take (\w+) from the pool", lambda m: {f"pool:{m[1]}", f"stockpile:{p}"}),
        (r"Craftsman: use ([\w ]+) from hand", lambda m: {hand(m[1])}),
        (r"Fountain: draw a card", lambda m: {"pile:deck"}),
        (r"Architect: lay ([\w ]+) from hand", lambda m: {hand(m[1])}),
        (r"Archway: use (\w+) from the pool", lambda m: {f"pool:{m[1]}"}),
        (r"Architect: use (\w+) from the stockpile", lambda m: {f"stockpile:{p}:{m[1]}"}),
        (r"Basilica: (?:also )?put ([\w ]+) from hand into the vault", lambda m: {hand(m[1]), f"vault:{p}"}),
        (r"Merchant: sell (\w+) from the stockpile into the vault", lambda m: {f"stockpile:{p}:{m[1]}", f"vault:{p}"}),
        (r"Atrium: put a card from the draw pile into the vault", lambda m: {"pile:deck", f"vault:{p}"}),
        (r"Legionary: demand \w+ \(reveal ([\w ]+)\)", lambda m: {hand(m[1])}),
        (r"Aqueduct: (?:also )?hire ([\w ]+) \(\w+\) from hand", lambda m: {hand(m[1]), f"clientele:{p}"}),
        (r"Patron: hire an? (\w+) from the pool", lambda m: {f"pool:{MATERIAL_OF_ROLE[m[1]]}", f"clientele:{p}"}),
        (r"Bar: (?:also )?hire a client from the draw pile", lambda m: {"pile:deck", f"clientele:{p}"}),
        (r"think|play no more cards|decline the \w+ action|no more this action|Rome demands!|no Stairway action"
         r"|Vomitorium: discard the whole hand|Coliseum: spare player \d's other clients"
         r"|Senate: take no more Jacks|Sewer: done|Prison: steal nothing", lambda m: set()),
    ]
    for pattern, keys in rules:
        m = re.fullmatch(pattern, text)
        if m:
            return keys(m)
    raise AssertionError(f"the oracle does not know the move {text!r}")


def test_keys_are_what_the_move_text_names():
    texts = 0
    for where, st in _positions():
        seat = st.current_player()
        for a, ks in _keys(st).items():
            text = st.action_to_string(a)
            assert set(ks) == _expected(text, seat), f"{where}: {text!r} -> {ks}"
            assert len(ks) == len(set(ks))
            texts += 1
    assert texts > 4000


def test_keys_name_nothing_hidden_from_the_mover():
    """The mover's keys are equal in worlds resampled from what the mover knows (another
    player's hand, the vaults and the draw pile redrawn)."""
    worlds = 0
    for where, st in _positions()[::RESAMPLE_EVERY]:
        seat, keys = st.current_player(), _keys(st)
        for seed in (1, 2):
            other = st.resample(seat, seed=seed)
            assert sorted(other.legal_actions()) == sorted(keys), where
            assert _keys(other) == keys, f"{where}: P{seat}'s keys depend on what P{seat} cannot see"
            worlds += 1
    assert worlds > 400


@pytest.mark.parametrize("text,seat,keys", [
    ("lead Laborer with Road", 0, {"hand:0:Road", "role:Laborer"}),
    ("add Rubble from hand to Circus Maximus", 2, {"building:2:Circus_Maximus"}),
    ("Patron: hire a Laborer from the pool", 1, {"pool:Rubble", "clientele:1"}),
])
def test_the_oracle_reads_move_texts(text, seat, keys):
    assert _expected(text, seat) == keys


def test_the_oracle_refuses_a_text_it_does_not_know():
    with pytest.raises(AssertionError, match="does not know"):
        _expected("summon the Senate", 0)
