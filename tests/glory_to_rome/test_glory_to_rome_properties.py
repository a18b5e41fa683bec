"""Glory to Rome property tests over many random games, 2 to 5 players: conservation
of the 193 cards, limits, legal lists, round trips, determinism, honest views
(resample never changes what a player knows), snapshot fuzzing."""

import copy
import random

import pytest

import romecore
from romecore import SerializationError
from romecore.games.glory_to_rome import data

HIDDEN = 0x80000000


def game(n, training=False):
    return romecore.load_game("glory_to_rome", players=n, training=training)


def conserved(st):
    """The 193 cards: 144 Orders cards each in one zone, 6 Jacks, 36 sites, and the
    Leader and 6 Merchant Bonus cards (state, not cards, in the engine)."""
    d = st.to_dict()
    n = len(d["players"])
    ids = list(d["deck"]) + list(d["pool"]) + list(d["drawn"])
    for pd in d["players"]:
        for zone in ("hand", "stockpile", "vault", "clientele", "camp"):
            ids += pd[zone]
    for sd in d["structures"]:
        ids += [sd["card"]] + sd["materials"]
    assert sorted(ids) == list(range(144))
    assert d["jack_pile"] + sum(pd["jacks"] + pd["jacks_played"] for pd in d["players"]) == 6
    sites = sum(d["sites"]["in_town"].values()) + sum(d["sites"]["out_of_town"].values()) + len(d["structures"])
    assert sites == 36
    for m in data.MATERIALS:
        assert d["sites"]["in_town"][m.name] + sum(
            1 for sd in d["structures"] if sd["site"] == m.name and not sd["out_of_town"]) == n
    return d


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_random_playouts(n):
    g = game(n)
    ends = set()
    for seed in range(600):
        st = g.new_initial_state(seed=seed)
        r = st.playout(seed)
        assert st.is_terminal() and abs(sum(r) - 1.0) < 1e-9 and all(x in (0.0, 1.0) or 0 < x < 1 for x in r)
        assert len(st.history()) <= g.max_game_length()
        if seed % 20 == 0:
            d = conserved(st)
            ends.add("forum" if d["forum_winners"] else "deck" if not d["deck"] else "other")
            assert g.deserialize(st.serialize()) == st
    assert "deck" in ends


def test_training_playouts():
    for n in (2, 5):
        g = game(n, training=True)
        for seed in range(200):
            st = g.new_initial_state(seed=seed)
            st.playout(seed)
            assert st.is_terminal() and not st.to_dict()["forum_winners"]
            assert all(st.functions(p) == [] for p in range(n))


def test_determinism_by_seed():
    g = game(4)
    a, b = g.new_initial_state(seed=11), g.new_initial_state(seed=11)
    a.playout(99)
    b.playout(99)
    assert a.history() == b.history() and a == b
    c = g.new_initial_state(seed=11)
    for x in a.history():
        c.apply_action(x)
    assert c == a


def _step_checks(st, g, rng, counts):
    la = st.legal_actions()
    assert la and la == sorted(set(la)) and len(la) <= g.max_legal_actions()
    assert all(0 <= a < g.num_distinct_actions() for a in la)
    names = [st.action_to_string(a) for a in la]
    assert len(set(names)) == len(names)
    assert st.string_to_action(names[0]) == la[0]
    c = st.clone()
    assert c == st and g.deserialize(st.serialize()) == st
    if rng.random() < 0.08:
        assert g.state_from_dict(st.to_dict()) == st
        conserved(st)
        for p in range(g.num_players()):
            obs = st.observation(p)
            for seed in range(2):
                w = st.resample(p, seed)
                assert w.observation(p) == obs
                assert g.deserialize(w.serialize()) == w          # a valid world
                if w.state_bytes() != st.state_bytes():
                    counts["resample_changed"] += 1
        counts["deep"] += 1


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_step_invariants(n):
    g = game(n)
    rng = random.Random(n)
    counts = {"deep": 0, "resample_changed": 0, "steps": 0}
    for gi in range(75):
        st = g.new_initial_state(seed=1000 + gi)
        prev_clients = [0] * n
        prev_vault = [0] * n
        while not st.is_terminal():
            if counts["steps"] % 3 == 0:
                _step_checks(st, g, rng, counts)
            if st.is_chance_node():
                a = st.sample_chance()
            else:
                a = rng.choice(st.legal_actions())
            # what each player sees of the action
            for p in range(n):
                seen = st.observe_action(p, a)
                assert seen == a or seen & HIDDEN
            st.apply_action(a)
            counts["steps"] += 1
            d = st.to_dict()
            for p in range(n):
                cl, vt = len(d["players"][p]["clientele"]), len(d["players"][p]["vault"])
                lim = st.limits(p)
                if cl > prev_clients[p]:
                    assert cl <= lim["clientele"]
                if vt > prev_vault[p] and not d["forum_winners"]:
                    assert vt <= lim["vault"]
                prev_clients[p], prev_vault[p] = cl, vt
        assert abs(sum(st.returns()) - 1.0) < 1e-9
    assert counts["deep"] > 50 and counts["resample_changed"] > 0


def _petition_can_go_on(d):
    """The petitioner holds the petition's remaining cards: enough cards of its material,
    in building order from the last one given (read from the dict, not the kernel)."""
    pet = d["turn"]["petition"]
    cards = data.card_table()
    mine = [cards[c] for c in d["players"][d["actor"]]["hand"]
            if data.MATERIALS[data.BUILDINGS[cards[c]].material].name == pet["material"]]
    return sum(b >= pet["last"] for b in mine) >= pet["left"]


@pytest.mark.parametrize("n", [2, 3])
def test_resampled_petitions_can_go_on(n):
    """Regression (issue 57): with the no-legal-action check moved from the kernel's
    validate into core, resample accepted worlds where the petitioner's redrawn hand could
    not finish the petition (2 players, game seed 2, step 367, resample(0, 0))."""
    g = game(n)
    petitions = 0
    for gs in range(30):
        st, rng = g.new_initial_state(seed=gs), random.Random(gs)
        while not st.is_terminal():
            if st.to_dict()["phase"] == "petition":
                petitions += 1
                for p in range(n):
                    for seed in range(2):
                        w = st.resample(p, seed)
                        assert _petition_can_go_on(w.to_dict()) and w.legal_actions()
                        assert g.deserialize(w.serialize()) == w
            st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
    assert petitions > 10, petitions


@pytest.mark.parametrize("n", [2, 5])
def test_apply_hands_on_the_next_legal_list(n):
    """apply_action keeps the legal list the kernel's forced steps made (apply_legal) as
    the cache: it must be what a fresh listing of the same position gives (a clone has
    no cache), at every step, chance nodes and the end included; and a playout that
    starts from the cache (and keeps apply_legal's lists) plays as one that lists."""
    g = game(n)
    for gs in range(6):
        st, rng = g.new_initial_state(seed=gs), random.Random(gs)
        while True:
            la = st.legal_actions()
            assert la == st.clone().legal_actions()
            if not la:
                assert st.is_terminal()
                break
            if len(st.history()) % 50 == 0:       # a playout from the cache, and from none
                cached, fresh = st.clone(), st.clone()
                cached.legal_actions()
                cached.playout(gs)
                fresh.playout(gs)
                assert cached.history() == fresh.history() and cached == fresh
            st.apply_action(rng.choice(la))


def test_draws_are_hidden_from_others():
    g = game(3)
    st = g.new_initial_state(seed=4)
    a = st.legal_actions()[0]
    assert st.observe_action(0, a) == a          # the first deal goes to seat 0
    assert st.observe_action(1, a) & HIDDEN and st.observe_action(2, a) & HIDDEN


def test_views_hide_hands_vaults_and_deck():
    g = game(4)
    for seed in range(30):
        st = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randrange(40, 400)):
            if st.is_terminal():
                break
            st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
        if st.is_terminal():
            continue
        d = st.to_dict()
        for p in range(4):
            obs = st.observation(p)
            assert sorted(obs["hand"]) == sorted(data.BUILDINGS[data.card_table()[c]].name
                                                 for c in d["players"][p]["hand"])
            assert "deck" not in obs and obs["deck_size"] == len(d["deck"])
            for q in range(4):
                if q != p:
                    assert len(obs["known_in_hands"][str(q)]) <= len(d["players"][q]["hand"])


def test_snapshot_fuzzing():
    """Flipped bytes either fail validation or give a state every kernel function can
    run to the end on."""
    g = game(4)
    rng = random.Random(7)
    base = []
    for seed in range(12):
        st = g.new_initial_state(seed=seed)
        for _ in range(rng.randrange(0, 500)):
            if st.is_terminal():
                break
            st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
        base.append(st)
    accepted = 0
    for i in range(3000):
        st = base[i % len(base)]
        raw = bytearray(st.state_bytes())
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(raw))
            if rng.random() < 0.5:
                raw[k] ^= 1 << rng.randrange(8)          # a flipped bit
            else:
                raw[k] = rng.choice((0, 1, 2, 5, 6, 35, 36, 143, 144, 255, rng.randrange(256)))
        blob = st.serialize().replace(st.state_bytes(), bytes(raw))
        try:
            w = g.deserialize(blob)
        except SerializationError:
            continue
        accepted += 1
        w.legal_actions()
        w.to_dict()
        w.observation(0)
        w.resample(1, 3)
        w.playout(i)
        assert w.is_terminal()
    assert accepted > 0


def _leaves(d, path=()):
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _leaves(v, path + (k,))
    elif isinstance(d, list):
        for i, v in enumerate(d):
            yield from _leaves(v, path + (i,))
    yield path


def test_dict_fuzzing():
    """Mangled dicts either load into a valid state or raise SerializationError."""
    g = game(3)
    rng = random.Random(5)
    bases = []
    for i in range(8):
        st = g.new_initial_state(seed=i)
        for _ in range(rng.randrange(0, 600)):
            if st.is_terminal():
                break
            st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
        bases.append(st.to_dict())
    values = [None, -1, 0, 1, 2, 5, 300, 10 ** 20, "x", "Tower", "Stone", "Patron", [], {}, [1, 2],
              {"a": 1}, True, 1.5]
    loaded = 0
    for it in range(1500):
        d = copy.deepcopy(bases[it % len(bases)])
        paths = [p for p in _leaves(d) if p and p[0] not in ("game", "options")]
        for _ in range(rng.randrange(1, 3)):
            path = rng.choice(paths)
            cur = d
            try:
                for k in path[:-1]:
                    cur = cur[k]
                cur[path[-1]] = rng.choice(values)
            except (KeyError, IndexError, TypeError):
                pass
        try:
            st = g.state_from_dict(d)
        except SerializationError:
            continue
        loaded += 1
        st.playout(it)
        assert st.is_terminal()
    assert loaded > 0
