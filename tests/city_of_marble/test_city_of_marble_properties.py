"""Property tests over many random games of City of Marble, and bad input.

The kernel's ``validate`` checks every invariant of the struct (tiles conserved, no
overlaps, caches, aqueducts simple and apart on tile edges, sites, supplies, phase); the
walks below run it at every step through the snapshot and dict round trips and check the
main invariants again from the outside, on the dict form."""

from __future__ import annotations

import json
import random

import pytest
from cm_helpers import (
    A_PIPE,
    A_PLAY,
    A_SEND,
    A_SITE,
    COLOURS,
    GREEN,
    B,
    data,
    game,
    legal_placements,
    make,
    site,
    spoke,
    tile,
    tile_count,
)

import romecore

TOTAL = {c.name: c.tiles for c in data.COLOURS}


def check_board(d):
    """Invariants read from the dict form."""
    assert tile_count(d) == TOTAL
    tris = [tuple(map(tuple, t)) for x in d["tiles"] for t in x["triangles"]]
    assert len(tris) == len(set(tris)), "two tiles overlap"
    hill_tris = {tuple(map(tuple, map(list, B.tri_verts[t]))) for h in d["hills"]
                 for t in B.site_triangles(site(*h))}
    assert not set(tris) & hill_tris, "a tile on a hill"
    covered = set(tris)
    done = {tuple(x["site"]) for x in d["sites"]}
    for i, st in enumerate(B.sites):
        full = all(tuple(map(tuple, B.tri_verts[t])) in covered for t in B.site_triangles(i))
        pending = d["resolution"] and list(st) in d["resolution"]["sites"]
        assert (st in done) == (full and not pending), f"site {st}"
    seen = set()
    for aq in d["aqueducts"]:
        path = [tuple(v) for v in aq["path"]]
        assert len(path) == len(set(path)), "an aqueduct visits a vertex twice"
        assert not seen & set(path), "two aqueducts touch"
        seen |= set(path)
        assert len(path) <= data.AQUEDUCT_PIECES + 1
        for v, w in zip(path, path[1:]):
            assert (w[0] - v[0], w[1] - v[1]) in data.DIRS
    mags = [x["magistrate"] for x in d["tiles"] if x["magistrate"] is not None]
    for p, pd in enumerate(d["players"]):
        m = pd["magistrates"]
        assert mags.count(p) + m["centre"] + m["treasury"] + sum(m["imperium"].values()) == 3
    assert sum(pd["coins"] for pd in d["players"]) <= data.COINS
    assert sum(1 for x in d["sites"] if x.get("fountain")) <= data.FOUNTAINS


# -- independent oracles, written from the rules on the dict form -----------------------

def _tri_ids(d):
    return {B.triangle_of(t): x for x in d["tiles"] for t in x["triangles"]}


def oracle_placements(d):
    """Placements where a tile may go: two free board triangles, one sharing an edge with a
    hill in play or a tile."""
    blocked = set(_tri_ids(d)) | {t for h in d["hills"] for t in B.site_triangles(site(*h))}
    return {pl for pl, (a, b) in B.pl_tris.items()
            if a not in blocked and b not in blocked
            and any(n in blocked for t in (a, b) for n in B.tri_nbrs[t])}


def oracle_pipes(d, only=None):
    """(aqueduct, next vertex) pairs where a piece may go."""
    tiles = _tri_ids(d)
    used = {tuple(v) for aq in d["aqueducts"] for v in aq["path"]} | {B.verts[w] for w in B.water}
    out = set()
    for a, aq in enumerate(d["aqueducts"]):
        if not aq["started"] or len(aq["path"]) > data.AQUEDUCT_PIECES or (only is not None and a != only):
            continue
        v = tuple(aq["path"][-1])
        for dq, dr in data.DIRS:
            w = (v[0] + dq, v[1] + dr)
            ts = B.edge_tris.get(tuple(sorted((v, w))))
            if not ts or w in used:
                continue
            on = [tiles.get(t) for t in ts]
            if not any(x is not None for x in on):
                continue
            if len(on) == 2 and on[0] is not None and on[0] is on[1]:
                continue                       # one tile's diagonal
            out.add((a, w))
    return out


def kernel_pipes(state):
    d = state.to_dict()
    out = set()
    for a in state.legal_actions():
        if A_PIPE <= a < A_SEND:
            aq, dd = divmod(a - A_PIPE, 6)
            v = d["aqueducts"][aq]["path"][-1]
            out.add((aq, (v[0] + data.DIRS[dd][0], v[1] + data.DIRS[dd][1])))
    return out


def _hexagon_edges():
    """(s, t) -> the twelve lattice edges of the site's hexagon (six spokes from the centre,
    six rim edges), straight from the board file and the rulings' geometry."""
    raw = json.loads(data.BOARD_FILE.read_text(encoding="utf-8"))
    nbrs = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))   # in turn around a vertex
    out = {}
    for s, t in raw["sites"]:
        c = (2 * s + t, t - s)
        ring = [(c[0] + dq, c[1] + dr) for dq, dr in nbrs]
        out[(s, t)] = ({frozenset((c, v)) for v in ring}
                       | {frozenset((ring[k], ring[(k + 1) % 6])) for k in range(6)})
    return out


HEXAGON_EDGES = _hexagon_edges()


def oracle_edge_sites(v, w):
    """Sites (s, t) whose hexagon holds the lattice edge v-w."""
    e = frozenset((tuple(v), tuple(w)))
    return {st for st, edges in HEXAGON_EDGES.items() if e in edges}


def oracle_connected(d):
    """Sites (s, t) that some aqueduct piece connects to."""
    return {st for aq in d["aqueducts"] for v, w in zip(aq["path"], aq["path"][1:])
            for st in oracle_edge_sites(v, w)}


def oracle_fountain_coins(before, after):
    """Coins the aqueduct pieces laid between two dict states pay, or None when no piece
    was laid or the step also changed what pays (a site resolved, a magistrate sent to or
    paid by the Treasury, a short coin supply)."""
    if before["sites"] != after["sites"] or before["phase"] == "send" or any(
            pd["magistrates"]["treasury"] for pd in before["players"]):
        return None
    fountains = {tuple(x["site"]) for x in before["sites"] if x.get("fountain")}
    paid = laid = 0
    for a0, a1 in zip(before["aqueducts"], after["aqueducts"]):
        assert a1["path"][:len(a0["path"])] == a0["path"]
        start = max(len(a0["path"]) - 1, 0)
        for v, w in zip(a1["path"][start:], a1["path"][start + 1:]):
            laid += 1
            paid += bool(oracle_edge_sites(v, w) & fountains)
    if not laid or paid > data.COINS - sum(pd["coins"] for pd in before["players"]):
        return None
    return paid


def oracle_scores(d):
    pts = {c.building: c.points for c in data.COLOURS}
    n = len(d["players"])
    fountains = {site(*x["site"]) for x in d["sites"] if x.get("fountain")}
    owned = [[site(*x["site"]) for x in d["sites"] if x.get("owner") == p] for p in range(n)]
    connected = {site(*st) for st in oracle_connected(d)}
    coins = [pd["coins"] for pd in d["players"]]
    out = []
    for p, pd in enumerate(d["players"]):
        sc = sum(pts[x["building"]] for x in d["sites"] if x.get("owner") == p)
        sc += sum(pd["bridges"])
        sc += data.AQUEDUCT_POINTS * sum(1 for i in owned[p] if i in connected)
        sc += data.FOUNTAIN_POINTS * sum(1 for i in owned[p] for f in fountains if B.site_adj[i] >> f & 1)
        sc += data.COIN_POINTS * pd["coins"]
        if max(coins) > 0 and pd["coins"] == max(coins):
            sc += data.MOST_COINS_POINTS
        for c in COLOURS:
            held = [q["imperium"][c] for q in d["players"]]
            if held[p] > 0 and held[p] == max(held):
                sc += data.IMPERIUM_SOLE_POINTS if held.count(held[p]) == 1 else data.IMPERIUM_TIED_POINTS
        out.append(sc)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_agrees_with_the_oracles_along_random_games(players):
    """Legal tile placements and aqueduct pieces, the coins pieces next to a Fountain pay,
    and the final scores (aqueduct connections from the board file's hexagons), recomputed
    from the rules on the dict form, match the kernel."""
    g = game(players)
    checked = paying = 0
    for seed in range(25):
        rng = random.Random(seed)
        s = g.new_initial_state(seed=seed)
        while not s.is_terminal():
            d = s.to_dict()
            if d["phase"] in ("action", "expand", "aqueduct_start"):
                only = None
                if d["phase"] == "aqueduct_start":
                    only = data.AQUEDUCTS.index(d["resolution"]["aqueduct"])
                assert kernel_pipes(s) == oracle_pipes(d, only)
            if d["phase"] == "action" and rng.random() < 0.3:
                plays = [a for a in s.legal_actions() if A_PLAY <= a < A_PLAY + 8]
                if plays:
                    colour = (plays[0] - A_PLAY) >> 1
                    assert legal_placements(s, colour) == oracle_placements(d)
                    checked += 1
                else:
                    me = d["players"][d["turn_player"]]["tiles"]
                    assert not sum(me.values()) or not oracle_placements(d)
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))] if not s.is_chance_node() else s.sample_chance())
            if d["phase"] != "hills":
                after = s.to_dict()
                paid = oracle_fountain_coins(d, after)
                if paid is not None:
                    coins = sum(pd["coins"] for pd in after["players"])
                    assert coins - sum(pd["coins"] for pd in d["players"]) == paid
                    paying += paid
        assert s.scores() == oracle_scores(s.to_dict())
    assert checked > 20 and paying > 5


@pytest.mark.parametrize("players", [2, 3, 4])
def test_thousands_of_random_playouts(players):
    g = game(players)
    lengths = []
    wins = [0.0] * players
    for seed in range(1000):
        s = g.new_initial_state(seed=seed)
        r = s.playout(seed)
        assert s.is_terminal() and abs(sum(r) - 1) < 1e-9
        assert len(s) <= g.max_game_length()
        lengths.append(len(s))
        wins = [w + x for w, x in zip(wins, r)]
        d = s.to_dict()
        check_board(d)
        assert s.scores() == oracle_scores(d)
        assert d["final_turns_left"] == 0 and d["drawn"] == dict.fromkeys(COLOURS, 0)
        assert sum(1 for v in d["stacks"].values() if v == 0) >= data.FINAL_ROUND_EMPTY_STACKS
        if seed % 100 == 0:
            assert g.deserialize(s.serialize()) == s
            assert g.state_from_dict(d) == s
    assert all(w > 0 for w in wins)
    assert max(lengths) < g.max_game_length() // 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_walks_check_every_step(players):
    g = game(players)
    for seed in range(40):
        rng = random.Random(seed)
        s = g.new_initial_state(seed=seed)
        step = 0
        while not s.is_terminal():
            d = s.to_dict()
            if d["phase"] != "hills":
                check_board(d)
            assert g.state_from_dict(d) == s
            assert g.deserialize(s.serialize()) == s
            if step % 7 == 0 and not s.is_chance_node():
                p = rng.randrange(players)
                view = s.resample(p, seed=step)
                assert view.observation(p) == s.observation(p)
                str(s)
            legal = s.legal_actions()
            assert legal and legal == sorted(set(legal))
            for a in legal:
                assert s.action_to_string(a)
            names = [" ".join(s.action_to_string(a).lower().split()) for a in legal]
            assert len(set(names)) == len(names), "two legal actions share a name"
            a = legal[rng.randrange(len(legal))] if not s.is_chance_node() else s.sample_chance()
            assert s.string_to_action(s.action_to_string(a)) == a
            s.apply_action(a)
            step += 1


def test_same_seed_same_game():
    g = game(4)
    a, b = g.new_initial_state(seed=9), g.new_initial_state(seed=9)
    a.playout(123)
    b.playout(123)
    assert a == b and a.history() == b.history()
    c = g.new_initial_state(seed=9)
    c.playout(124)
    assert c.history() != a.history()


def test_legal_list_lengths_stay_under_the_bound():
    g = game(4)
    worst = 0
    for seed in range(200):
        s = g.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            worst = max(worst, len(legal))
            s.apply_action(legal[rng.randrange(len(legal))])
    assert worst <= g.max_legal_actions()


# -- bad input ----------------------------------------------------------------------------

def test_illegal_actions_raise_and_change_nothing():
    g = game(3)
    s = g.new_initial_state(seed=1)
    s.resolve_chance()
    before = s.state_bytes()
    for bad in (-1, 108, 10**12, A_SITE, "play", 1.5, None):
        with pytest.raises(romecore.IllegalActionError):
            s.apply_action(bad)
        assert s.state_bytes() == before
    with pytest.raises(romecore.IllegalActionError, match="chance"):
        t = g.new_initial_state(seed=1)
        t.apply_action(A_PLAY)
    with pytest.raises(romecore.IllegalActionError, match="no magistrate"):
        # all three magistrates on tiles: "with magistrate" is refused with the reason
        u = make(g, tiles=[tile(spoke(site(1, 1), k), GREEN, 0) for k in (0, 2)]
                 + [tile(spoke(site(1, 0), 0), GREEN, 0)])
        u.apply_action(A_PLAY + 2 * GREEN + 1)
    with pytest.raises(romecore.IllegalActionError):
        s.string_to_action("build a colosseum")


def _bad(g, **fields):
    with pytest.raises(romecore.SerializationError):
        make(g, **fields)


def test_inconsistent_dicts_are_rejected():
    g = game(2)
    i = site(1, 1)
    t = spoke(i, 0)
    _bad(g, tiles=[tile(t, GREEN), tile(t, "red")])                      # overlap
    _bad(g, tiles=[tile(spoke(site(-2, 0), 0), GREEN)])                   # on a hill in play
    _bad(g, tiles=[tile(t, "purple")])                                    # no such colour
    _bad(g, tiles=[tile(spoke(i, k), GREEN, 0) for k in (0, 2)]
         + [tile(spoke(site(1, 0), k), GREEN, 0) for k in (0, 2)])        # four magistrates
    _bad(g, tiles=[tile(spoke(i, k), GREEN) for k in (0, 2, 4)])          # completed, unresolved
    _bad(g, tiles=[tile(spoke(i, k), GREEN) for k in (0, 2, 4)],
         sites=[{"site": [1, 1], "building": "Arena", "owner": 0}])       # 3 buildings: a Temple
    _bad(g, sites=[{"site": [1, 1], "fountain": True}])                   # not complete
    _bad(g, tiles=[tile(t, GREEN)], aqueducts=[{"path": [list(B.verts[B.water[0]]), [6, -2]]}])
    _bad(g, players=[{"bridges": [4]}, {}])                               # no bridge covered
    _bad(g, players=[{"coins": 17}, {}])
    _bad(g, players=[{"imperium": {"red": 13}}, {}])
    _bad(g, stacks={"red": 1, "yellow": 1, "green": 1, "blue": 1})       # tiles do not add up
    _bad(g, phase="dancing")
    _bad(g, hills=[[1, 1]])
    _bad(g, turn_player=2)
    with pytest.raises(romecore.SerializationError):
        g.state_from_dict(["not", "a", "dict"])
    # a tile at a water source with its aqueduct not started
    gray = site(3, 0)
    _bad(g, hills=[[2, 0], [-2, 0], [-2, 2]], tiles=[tile(spoke(gray, 0), GREEN)])
    with pytest.raises(romecore.SerializationError, match="game over without three empty"):
        make(g, phase="over")
    with pytest.raises(romecore.SerializationError, match="empty while fountains remain"):
        make(g, tiles=[tile(spoke(i, k), GREEN) for k in (0, 2, 4)],
             sites=[{"site": [1, 1], "empty": True}])


def test_a_snapshot_with_junk_in_the_struct_padding_is_refused():
    """States compare bytewise, so a padding byte set by a bit flip would survive every
    step and make the dict round trip differ: validate refuses it (the fuzz loop found it)."""
    from romecore.games.city_of_marble import kernel
    g = game(3)
    s = g.new_initial_state(seed=5)
    s.playout(5)
    blob, sb = s.serialize(), s.state_bytes()
    at = blob.find(sb)
    assert at > 0 and len(sb) == kernel.STATE_SIZE
    last = at + len(sb) - 1           # the struct ends in two bytes of alignment padding
    bad = bytearray(blob)
    bad[last] ^= 0x10
    with pytest.raises(romecore.SerializationError, match="padding"):
        g.deserialize(bytes(bad))
    assert g.deserialize(blob) == s


def _nested(depth):
    """Lists and dicts nested ``depth`` deep."""
    x = []
    for i in range(depth):
        x = [x] if i % 2 else {"a": x}
    return x


def _junk_variants(value):
    return [None, -1, 10**6, 2**40, True, "x", "3", [], {"a": 1}, [[1, 2]], 1.5, _nested(50)]


def _loaded_or_rejected(g, d):
    """state_from_dict(d): a state the kernel validated, or SerializationError."""
    try:
        st = g.state_from_dict(d)
    except romecore.SerializationError:
        return None
    st.legal_actions()
    str(st)
    return st


def _final_dict(players, seed):
    s = game(players).new_initial_state(seed=seed)
    s.playout(seed)
    return s.to_dict()


@pytest.mark.parametrize("big", [2**31, 2**40, 2**63, 2**200, -2**40])
def test_huge_counts_in_a_dict_are_refused_before_anything_is_sized(big):
    """A count from a dict never sizes a list or an allocation: 2**40 magistrates on an
    Imperium space once raised MemoryError and crashed the process at the next allocation."""
    import copy
    g = game(3)
    base = _final_dict(3, 4)
    setters = [
        lambda d: d["players"][0]["magistrates"]["imperium"].__setitem__("red", big),
        lambda d: d["players"][1]["magistrates"].__setitem__("treasury", big),
        lambda d: d["players"][1]["magistrates"].__setitem__("centre", big),
        lambda d: d["players"][2].__setitem__("coins", big),
        lambda d: d["players"][2]["tiles"].__setitem__("blue", big),
        lambda d: d["players"][0]["imperium"].__setitem__("green", big),
        lambda d: d["players"][0].__setitem__("points", big),
        lambda d: d["players"][0].__setitem__("bridges", [big]),
        lambda d: d["stacks"].__setitem__("red", big),
        lambda d: d["drawn"].__setitem__("red", big),
        lambda d: d.__setitem__("turn_player", big),
        lambda d: d.__setitem__("actor", big),
        lambda d: d.__setitem__("actions_left", big),
        lambda d: d.__setitem__("final_turns_left", big),
        lambda d: d.__setitem__("hills", [[big, 0]] + d["hills"][1:]),
        lambda d: d["tiles"][0].__setitem__("magistrate", big),
        lambda d: d.__setitem__("resolution", {"bridges_to_take": big}),
        lambda d: d.__setitem__("resolution", {"seat": big}),
        lambda d: d.__setitem__("resolution", {"aqueduct": "gray", "pieces_left": big}),
    ]
    for setter in setters:
        d = copy.deepcopy(base)
        setter(d)
        with pytest.raises(romecore.SerializationError):
            g.state_from_dict(d)


def test_wrong_types_and_shapes_in_a_dict_raise_serialization_error():
    import copy
    g = game(2)
    base = _final_dict(2, 3)
    deep = _nested(20000)          # deeper than the recursion limit
    cases = [
        {"players": "x"}, {"players": [1, 2]}, {"players": [{"magistrates": []}, {}]},
        {"turn_player": []}, {"turn_player": "1"}, {"actions_left": 1.0},
        {"hills": "abc"}, {"hills": [[0, 0], [0, 0], [2, 0]]}, {"hills": [deep]},
        {"hills": [(((), 1), 1)]}, {"phase": ["action"]}, {"phase": {"a": 1}},
        {"tiles": [deep]}, {"tiles": [{"colour": "red", "vertices": deep}]},
        {"tiles": [{"colour": "red", "triangles": [deep, deep]}]},
        {"tiles": [{"colour": "red", "vertices": [[0, 0]] * 10**6}]},
        {"sites": [{"site": deep}]}, {"sites": [{"site": [0, 1], "fountain": "yes"}]},
        {"sites": base["sites"] + base["sites"][:1]},
        {"aqueducts": [{"path": [[7, -3]] * 10**6}]}, {"aqueducts": [{"started": "no"}]},
        {"aqueducts": [{"colour": "brown", "path": []}]},
        {"players": [{"bridges": [1] * 300}, {}]},
        {"players": [{"magistrates": {"treasury": -1}}, {}]},
        {"players": [{"tiles": deep}, {}]}, {"drawn": {"red": "2"}}, {"stacks": [1, 2, 3, 4]},
        {"tile_play": {"colour": "red", "magistrate": "no"}},
        {"resolution": {"aqueducts_to_start": [deep]}}, {"resolution": {"sites": deep}},
        {"resolution": {"aqueduct": ["gray"]}},
    ]
    for fields in cases:
        d = copy.deepcopy(base) if "sites" not in fields else dict(base)
        d.update(fields)
        with pytest.raises(romecore.SerializationError):
            g.state_from_dict(d)


def test_mangled_dicts_load_or_raise_serialization_error():
    """Replacing any field of a real dict (at any depth) with junk either loads a state the
    kernel validated or raises SerializationError: never another exception."""
    g = game(3)
    s = g.new_initial_state(seed=2)
    rng = random.Random(2)
    states = []
    while not s.is_terminal():
        if rng.random() < 0.08:
            states.append(s.to_dict())
        s.apply_action(rng.choice(s.legal_actions()))
    states.append(s.to_dict())

    def paths(obj, prefix=()):
        yield prefix
        if isinstance(obj, dict):
            for k, v in obj.items():
                if prefix == () and k in ("game", "options"):
                    continue   # the generic wrapper's fields, not this game's schema
                yield from paths(v, prefix + (k,))
        elif isinstance(obj, list):
            for i, v in enumerate(obj[:3]):
                yield from paths(v, prefix + (i,))

    import copy
    loaded = rejected = 0
    for d in (states[len(states) // 2], states[-1]):
        for path in list(paths(d))[1:]:
            for junk in _junk_variants(None):
                m = copy.deepcopy(d)
                parent = m
                for key in path[:-1]:
                    parent = parent[key]
                parent[path[-1]] = junk
                if _loaded_or_rejected(g, m) is None:
                    rejected += 1
                else:
                    loaded += 1
    assert rejected and loaded
