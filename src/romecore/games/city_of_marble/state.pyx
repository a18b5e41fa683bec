# cython: language_level=3
"""The readable side of Rome: City of Marble: action names, the dict form, the observation
of one player, score breakdowns and the terminal drawing.

Coordinates are the board file's: vertices ``[q, r]`` (axial), triangles as their three
vertices, sites ``[s, t]``.  See ``romecore.games.city_of_marble`` for the dict schema.
"""
from libc.stdint cimport int32_t, uint64_t

from romecore.core.state cimport State
from romecore.games.city_of_marble.kernel cimport *

from romecore.core.dictread import fail, read_bool, read_dict, read_int, read_list, read_name, show
from romecore.games.city_of_marble import data as _data

PHASES = ("hills", "action", "site", "tile", "bridge", "aqueduct_start", "order", "send",
          "expand", "extra", "over")
SCORE_CATEGORIES = ("track", "bridges", "aqueducts", "fountains", "coins", "most_coins", "imperium")
_B = _data.BOARD
_COL = _data.COLOURS
_AQ = _data.AQUEDUCTS
_PAIRS = [(a, b) for a in range(CM_NCOL) for b in range(a + 1, CM_NCOL)]
_BUILDING_LETTER = {"Arena": "A", "Theater": "H", "Temple": "T", "Baths": "B"}
_AQ_MARK = ("#", "%", "&")


def _vert(int v):
    return list(_B.verts[v])


def _tri(int t):
    return [list(v) for v in _B.tri_verts[t]]


def _site(int i):
    return list(_B.sites[i])


def _fmt_v(v):
    return f"({v[0]},{v[1]})"


def _pl_text(int pl):
    return " ".join(_fmt_v(v) for v in _B.pl_vertices(pl))


_COLOUR_NAMES = tuple(c.name for c in _COL) + tuple(c.building for c in _COL)   # either names a colour
_BUILDINGS = tuple(c.building for c in _COL)
_COORDS = [x for v in _B.verts for x in v] + [x for st in _B.sites for x in st]
_COORD_LO, _COORD_HI = min(_COORDS), max(_COORDS)


def _colour_id(x, what="colour"):
    """A colour, by its name or its building's name."""
    return read_name(x, _COLOUR_NAMES, what) % CM_NCOL


def _pair(x, what):
    """Two ints (a vertex [q, r] or a site [s, t]) as a tuple, without hashing the input."""
    xs = read_list(x, what, 2)
    if len(xs) != 2:
        fail(f"{what} must be two ints, got {show(x)}")
    return (read_int(xs[0], what, _COORD_LO, _COORD_HI), read_int(xs[1], what, _COORD_LO, _COORD_HI))


def _site_id(x, what="site"):
    key = _pair(x, what)
    if key not in _B.site_id:
        fail(f"{what} {show(x)} is not a site [s, t] of the board")
    return _B.site_id[key]


def _vert_id(x, what="vertex"):
    key = _pair(x, what)
    if key not in _B.vert_id:
        fail(f"{what} {show(x)} is not a vertex [q, r] of the board")
    return _B.vert_id[key]


def _placement(dict entry):
    """The placement of a tile entry: its two triangles or its four vertices."""
    if "triangles" in entry:
        tris = read_list(entry["triangles"], "tile triangles", 2)
        if len(tris) != 2:
            fail("tile triangles: a tile lists its two triangles")
        ids = []
        for tri in tris:
            key = tuple(sorted(_pair(v, "triangle vertex") for v in read_list(tri, "triangle", 3)))
            if len(key) != 3 or key not in _B.tri_id:
                fail(f"triangle {show(tri)} is not a board triangle")
            ids.append(_B.tri_id[key])
        for pl in _B.tri_pls[ids[0]]:
            if ids[1] in _B.pl_tris[pl]:
                return pl
        fail(f"tile triangles {show(tris)} share no edge")
    if "vertices" in entry:
        vs = {_pair(v, "tile vertex") for v in read_list(entry["vertices"], "tile vertices", 4)}
        try:
            return _B.placement_of_vertices(vs)
        except (KeyError, ValueError):
            fail(f"tile vertices: no tile of the board has the vertices {show(entry['vertices'])}")
    fail("tile needs 'triangles' or 'vertices'")


def _counts(d, what, int hi):
    """{colour: count} as four counts in 0..hi; None gives zeros."""
    out = [0, 0, 0, 0]
    if d is None:
        return out
    read_dict(d, what)
    if len(d) > CM_NCOL:
        fail(f"{what} maps the four colours to counts")
    for k, v in d.items():
        out[_colour_id(k, f"{what} colour")] = read_int(v, f"{what} count", 0, hi)
    return out


_ALL_TILES = sum(c.tiles for c in _COL)
_MAX_COLOUR_TILES = max(c.tiles for c in _COL)
_MAX_IMPERIUM = max(c.imperium for c in _COL)
_MAX_POINTS = _data.CUBES * max(c.points for c in _COL)


class _Layout:
    """Where the drawing puts each vertex, triangle and edge of the board: fixed by the
    board file, so it is worked out once (the drawing then only looks values up)."""

    def __init__(self):
        def col(q, r):
            return 4 * q + 2 * r

        xs = [col(q, r) for q, r in _B.verts]
        x0 = min(xs)
        self.width = max(xs) - x0 + 2
        self.rows = sorted({r for _, r in _B.verts})
        self.edge_tris = [(frozenset(e), ts) for e, ts in _B.edge_tris.items()]
        self.verts_by_row = {r: [] for r in self.rows}
        first_q = {}
        for q, r in _B.verts:
            first_q.setdefault(r, q)       # verts are sorted by (q, r): the row's leftmost
        labels = {r: f"({first_q[r]},{r})" for r in self.rows}
        self.margin = max(len(x) for x in labels.values()) + 1
        self.row_label = {r: x.rjust(self.margin - 1) + " " for r, x in labels.items()}
        for q, r in _B.verts:
            self.verts_by_row[r].append((col(q, r) - x0, _B.vert_id[(q, r)],
                                         frozenset(((q, r), (q + 1, r)))))
        self.tris_by_row = {}
        for t, tri in _B.tri_verts.items():
            r0 = min(v[1] for v in tri)
            up = sum(1 for v in tri if v[1] == r0) == 2
            q = min(v[0] for v in tri if v[1] == r0) - (0 if up else 1)
            x = col(q, r0) - x0 + (2 if up else 4)
            if up:
                sides = (((q, r0), (q, r0 + 1), "/", -1), ((q + 1, r0), (q, r0 + 1), "\\", 1))
            else:
                sides = (((q + 1, r0), (q, r0 + 1), "\\", -1), ((q + 1, r0), (q + 1, r0 + 1), "/", 1))
            keyed = tuple((frozenset((va, vb)), slant, x + dx) for va, vb, slant, dx in sides
                          if 0 <= x + dx < self.width)
            self.tris_by_row.setdefault(r0, []).append((t, x, keyed))


_LAYOUT = None


def _layout():
    global _LAYOUT
    if _LAYOUT is None:
        _LAYOUT = _Layout()
    return _LAYOUT


cdef inline CMState *_st(State st):
    return <CMState *>st.s


cdef class CityOfMarbleState(State):
    """A state of Rome: City of Marble (see :class:`romecore.State` for the API)."""

    # -- reading helpers ------------------------------------------------------------------
    def _placed(self):
        cdef CMState *s = _st(self)
        return [pl for pl in sorted(_B.pl_tris) if (s.placed[pl >> 6] >> (pl & 63)) & 1]

    def _mag_owner(self):
        """placement -> player whose magistrate stands on that tile."""
        cdef CMState *s = _st(self)
        out = {}
        for p in range(s.nplayers):
            for j in range(CM_NMAG):
                if s.mag[p][j] < CM_NPL:
                    out[s.mag[p][j]] = p
        return out

    def _site_status(self, int i):
        cdef CMState *s = _st(self)
        st = s.site[i]
        if st == SITE_OPEN:
            return None
        if st == SITE_FOUNTAIN:
            return {"site": _site(i), "fountain": True}
        if st == SITE_EMPTY:
            return {"site": _site(i), "empty": True}
        c = (st - SITE_BUILDING) % CM_NCOL
        return {"site": _site(i), "building": _COL[c].building, "owner": (st - SITE_BUILDING) // CM_NCOL}

    def _loc_text(self, int loc):
        if loc < CM_NPL:
            return f"tile {_pl_text(loc)}"
        if LOC_IMPERIUM <= loc < LOC_IMPERIUM + CM_NCOL:
            return f"the {_COL[loc - LOC_IMPERIUM].building} Imperium space"
        if loc == LOC_TREASURY:
            return "the Treasury"
        return "the centre box"

    def _aq_end(self, int a):
        cdef CMState *s = _st(self)
        return s.aq_path[a][s.aq_len[a]]

    def _hidden_from(self, int p):
        """True when player p cannot see other players' bridge values now."""
        return _st(self).phase != PH_OVER

    # -- names ----------------------------------------------------------------------------
    def _action_to_string(self, int a):
        cdef CMState *s = _st(self)
        cdef int ph = s.phase, p = s.actor
        if A_SITE <= a < A_TILE:
            i = a - A_SITE
            name = _fmt_v(_B.sites[i]) if i < _B.nsites else f"#{i}"
            if ph == PH_ORDER:
                return f"resolve site {name} first"
            return f"site {name}"
        if A_TILE <= a < A_PLAY:
            k = a - A_TILE
            if ph == PH_TILE:
                pl = _data.pl_pos(s.sel_site, k)
                if pl in _B.pl_tris:
                    return f"tile on {_pl_text(pl)}"
            return f"tile {k} of the chosen site"
        if A_PLAY <= a < A_DRAW:
            c = (a - A_PLAY) >> 1
            return f"play {_COL[c].name} tile" + (" with magistrate" if (a - A_PLAY) & 1 else "")
        if A_DRAW <= a < A_DRAW1:
            x, y = _PAIRS[a - A_DRAW]
            return f"draw {_COL[x].name} and {_COL[y].name}"
        if A_DRAW1 <= a < A_RECALL:
            return f"draw {_COL[a - A_DRAW1].name}"
        if A_RECALL <= a < A_PIPE:
            j = a - A_RECALL
            return f"recall magistrate from {self._loc_text(s.mag[s.turn_player][j])}"
        if A_PIPE <= a < A_SEND:
            aq, d = divmod(a - A_PIPE, 6)
            if (s.aq_started >> aq) & 1:
                e = _B.vert_edges[self._aq_end(aq)][d]
                if e is not None:
                    return f"{_AQ[aq]} aqueduct to {_fmt_v(_B.verts[e[0]])}"
            return f"{_AQ[aq]} aqueduct, direction {d}"
        if A_SEND <= a < A_KEEP:
            j = a - A_SEND
            where = "there"
            if ph == PH_SEND:
                st = s.site[s.res_site]
                where = "the Treasury" if st == SITE_FOUNTAIN else \
                    f"the {_COL[(st - SITE_BUILDING) % CM_NCOL].building} Imperium space"
            return f"send magistrate from {self._loc_text(s.mag[p][j])} to {where}"
        if a == A_KEEP:
            return "keep magistrates on the site"
        if A_SPEND <= a < A_END:
            return f"spend {_COL[a - A_SPEND].name} Imperium for an extra action"
        if a == A_END:
            return "end turn"
        if CH_HILL <= a < CH_BRIDGE:
            return f"hill {_fmt_v(_B.sites[_B.hills[a - CH_HILL]])} revealed"
        return f"bridge tile worth {a - CH_BRIDGE + 1}"

    def _why_illegal(self, int a):
        cdef CMState *s = _st(self)
        cdef int ph = s.phase, p = s.turn_player
        if ph in (PH_HILLS, PH_BRIDGE):
            return "this is a chance node: apply one of chance_outcomes()"
        if ph == PH_ACTION:
            if A_PLAY <= a < A_DRAW:
                c = (a - A_PLAY) >> 1
                if not s.centre[p][c]:
                    return f"you have no {_COL[c].name} tile in your centre box"
                if (a - A_PLAY) & 1 and s.mag[p][CM_NMAG - 1] != LOC_CENTRE:
                    return "you have no magistrate in your centre box"
                return "no tile can be placed: every free pair of triangles is away from the city"
            if A_DRAW <= a < A_RECALL:
                nonempty = sum(1 for c in range(CM_NCOL) if s.stack[c])
                if A_DRAW1 <= a and nonempty > 1:
                    return "draw two different colours while two stacks remain"
                return "that stack is empty"
            if A_RECALL <= a < A_PIPE:
                return "that magistrate slot is not on the board (or repeats the one before it)"
            if A_PIPE <= a < A_SEND:
                return self._why_pipe(a)
            return "choose an action: play a tile, draw, recall a magistrate or expand an aqueduct"
        if ph == PH_SITE:
            return "no legal tile placement touches that site" if A_SITE <= a < A_TILE else \
                "choose the site for the tile"
        if ph == PH_TILE:
            if A_TILE <= a < A_PLAY:
                return ("that place is taken, off the board, or shares no edge with a hill or a tile")
            return "choose where in the site the tile goes"
        if ph in (PH_AQSTART, PH_EXPAND2):
            if A_PIPE <= a < A_SEND:
                if ph == PH_AQSTART and (a - A_PIPE) // 6 != s.aq_cur:
                    return f"the {_AQ[s.aq_cur]} aqueduct is being started"
                return self._why_pipe(a)
            return "place an aqueduct piece"
        if ph == PH_ORDER:
            return "choose which completed site resolves first"
        if ph == PH_SEND:
            return "send one of your magistrates standing in the site, or keep them"
        if ph == PH_EXTRA:
            if A_SPEND <= a < A_END:
                return f"you hold no {_COL[a - A_SPEND].name} Imperium"
            return "spend an Imperium tile or end the turn"
        return "it is not one of the legal actions here"

    def _why_pipe(self, int a):
        cdef CMState *s = _st(self)
        aq, d = divmod(a - A_PIPE, 6)
        if not (s.aq_started >> aq) & 1:
            return f"the {_AQ[aq]} aqueduct has not been started"
        if s.aq_len[aq] >= CM_AQMAX:
            return f"the {_AQ[aq]} aqueduct has no pieces left"
        e = _B.vert_edges[self._aq_end(aq)][d]
        if e is None:
            return "that edge is off the board"
        return ("that edge is not the edge of a tile, is a tile's diagonal, or leads to a vertex "
                "an aqueduct or water source already holds")

    # -- scores ---------------------------------------------------------------------------
    def _score_breakdown(self, int p):
        cdef int32_t out[SC_N]
        cdef CMState *s = _st(self)
        cm_score(s, p, out)
        d = {name: out[i] for i, name in enumerate(SCORE_CATEGORIES)}
        d["civic_buildings"] = cm_buildings(s, p)
        d["imperium_tiles"] = sum(s.imp[p][c] for c in range(CM_NCOL))
        d["total"] = out[SC_TOTAL]
        return d

    # -- dict form ------------------------------------------------------------------------
    def _tiles_list(self):
        cdef CMState *s = _st(self)
        owner = self._mag_owner()
        out = []
        for pl in self._placed():
            t1, t2 = _B.pl_tris[pl]
            out.append({"colour": _COL[cm_tile_colour(s, pl)].name, "triangles": [_tri(t1), _tri(t2)],
                        "magistrate": owner.get(pl)})
        return out

    def _public_dict(self):
        """Everything but the bridge values."""
        cdef CMState *s = _st(self)
        n = s.nplayers
        players = []
        for p in range(n):
            mags = {"centre": 0, "treasury": 0, "imperium": {c.name: 0 for c in _COL}}
            for j in range(CM_NMAG):
                loc = s.mag[p][j]
                if loc == LOC_CENTRE:
                    mags["centre"] += 1
                elif loc == LOC_TREASURY:
                    mags["treasury"] += 1
                elif LOC_IMPERIUM <= loc < LOC_IMPERIUM + CM_NCOL:
                    mags["imperium"][_COL[loc - LOC_IMPERIUM].name] += 1
            players.append({
                "points": s.points[p],
                "coins": s.coins[p],
                "tiles": {c.name: s.centre[p][i] for i, c in enumerate(_COL)},
                "imperium": {c.name: s.imp[p][i] for i, c in enumerate(_COL)},
                "magistrates": mags,
            })
        aqs = []
        for a in range(CM_NAQ):
            started = bool((s.aq_started >> a) & 1)
            aqs.append({"colour": _AQ[a], "started": started,
                        "path": [_vert(s.aq_path[a][i]) for i in range(s.aq_len[a] + 1)] if started else []})
        play = None
        if s.phase in (PH_SITE, PH_TILE):
            play = {"colour": _COL[s.sel_colour].name, "magistrate": bool(s.sel_mag),
                    "site": _site(s.sel_site) if s.phase == PH_TILE else None}
        res = None
        if PH_BRIDGE <= s.phase <= PH_SEND:
            res = {"bridges_to_take": s.pend_bridges,
                   "aqueducts_to_start": [_AQ[a] for a in range(CM_NAQ) if (s.aq_todo >> a) & 1],
                   "aqueduct": _AQ[s.aq_cur] if s.aq_left else None,
                   "pieces_left": s.aq_left,
                   "sites": [_site(s.pend_sites[i]) for i in range(s.pend_n)],
                   "site": _site(s.res_site) if s.phase == PH_SEND else None,
                   "seat": s.res_seat}
        return {
            "phase": PHASES[s.phase],
            "turn_player": s.turn_player,
            "actor": s.actor,
            "actions_left": s.actions_left,
            "final_turns_left": s.final_left,
            "hills": [_site(_B.hills[h]) for h in range(CM_NHILLS) if (s.hills >> h) & 1],
            "stacks": {c.name: s.stack[i] for i, c in enumerate(_COL)},
            "tiles": self._tiles_list(),
            "sites": [d for d in (self._site_status(i) for i in range(_B.nsites)) if d is not None],
            "aqueducts": aqs,
            "drawn": {c.name: s.pending[i] for i, c in enumerate(_COL)},
            "tile_play": play,
            "resolution": res,
            "players": players,
        }

    def _bridge_values(self, int p):
        cdef CMState *s = _st(self)
        return [v for v in range(1, CM_NBVAL + 1) for _ in range(s.bridges[p][v - 1])]

    def _to_dict(self):
        d = self._public_dict()
        for p, pd in enumerate(d["players"]):
            pd["bridges"] = self._bridge_values(p)
        return d

    def _load_dict(self, dict d):
        """Fills the struct (already holding a fresh game before the hills) from a dict; see
        the module docs.  Left out: stacks hold what no one else holds; points are the
        buildings' points; players keep their fresh set-up.  Every field is type- and
        range-checked before it sizes or indexes anything; validate judges the whole."""
        self._read_turn(d)
        on_tiles = self._read_tiles(d)
        self._read_sites(d)
        self._read_aqueducts(d)
        self._read_players(d, on_tiles)
        self._read_supply(d)
        self._read_tile_play(d)
        self._read_resolution(d)
        cm_rebuild_caches(_st(self))

    def _read_turn(self, dict d):
        """hills, phase, turn_player, final_turns_left, actor, actions_left."""
        cdef CMState *s = _st(self)
        cdef int n = s.nplayers, i, h
        for x in read_list(d.get("hills", []), "hills", CM_NHILLS):
            i = _site_id(x, "hill")
            if i not in _B.hills:
                fail(f"hills: site {show(x)} is not a hill")
            h = _B.hills.index(i)
            if (s.hills >> h) & 1:
                fail(f"hills: hill {show(x)} is listed twice")
            s.hills |= 1 << h
        s.hills_drawn = bin(s.hills).count("1")
        phase = d.get("phase")
        if phase is None:
            phase = "hills" if s.hills_drawn < _data.HILLS_IN_PLAY else "action"
        s.phase = read_name(phase, PHASES, "phase")
        if s.hills_drawn < _data.HILLS_IN_PLAY and s.phase != PH_HILLS:
            fail(f"hills: {_data.HILLS_IN_PLAY} hills are revealed before play")
        s.turn_player = read_int(d.get("turn_player", 0), "turn_player", 0, n - 1)
        s.final_left = read_int(d.get("final_turns_left", 0), "final_turns_left", 0, n)
        s.actor = read_int(d.get("actor", s.turn_player), "actor", 0, n - 1)
        default_actions = 0 if s.phase in (PH_HILLS, PH_OVER, PH_EXTRA) else (1 if s.final_left else 2)
        s.actions_left = read_int(d.get("actions_left", default_actions), "actions_left", 0,
                                  _data.ACTIONS_PER_TURN)

    def _read_tiles(self, dict d):
        """tiles and the magistrates on them; returns each player's count of those."""
        cdef CMState *s = _st(self)
        cdef int n = s.nplayers, p, c, pl
        on_tiles = [0] * n
        for entry in read_list(d.get("tiles", []), "tiles", _ALL_TILES):
            pl = _placement(read_dict(entry, "tile"))
            if (s.placed[pl >> 6] >> (pl & 63)) & 1:
                fail(f"tiles: two tiles on {_pl_text(pl)}")
            c = _colour_id(entry.get("colour"), "tile colour")
            t1, t2 = _B.pl_tris[pl]
            s.tri[c][t1 >> 6] |= (<uint64_t>1) << (t1 & 63)
            s.tri[c][t2 >> 6] |= (<uint64_t>1) << (t2 & 63)
            s.placed[pl >> 6] |= (<uint64_t>1) << (pl & 63)
            owner = entry.get("magistrate")
            if owner is not None:
                p = read_int(owner, "tile magistrate", 0, n - 1)
                if on_tiles[p] >= CM_NMAG:
                    fail(f"tile magistrate: player {p} has more than {CM_NMAG} magistrates")
                s.mag[p][on_tiles[p]] = pl
                on_tiles[p] += 1
        return on_tiles

    def _read_sites(self, dict d):
        """sites: the completed ones, each a building, a fountain or empty."""
        cdef CMState *s = _st(self)
        cdef int i, p
        for entry in read_list(d.get("sites", []), "sites", _B.nsites):
            i = _site_id(read_dict(entry, "sites entry").get("site"))
            if s.site[i] != SITE_OPEN:
                fail(f"sites: site {_site(i)} is listed twice")
            fountain = read_bool(entry.get("fountain", False), "sites fountain")
            empty = read_bool(entry.get("empty", False), "sites empty")
            if fountain and empty:
                fail(f"sites: site {_site(i)} is both a fountain and empty")
            if fountain:
                s.site[i] = SITE_FOUNTAIN
            elif empty:
                s.site[i] = SITE_EMPTY
            else:
                b = read_name(entry.get("building"), _BUILDINGS, f"site {_site(i)} building")
                p = read_int(entry.get("owner"), "building owner", 0, s.nplayers - 1)
                s.site[i] = SITE_BUILDING + CM_NCOL * p + b

    def _read_aqueducts(self, dict d):
        """aqueducts: started or not, and each path from its water source."""
        cdef CMState *s = _st(self)
        cdef int a, i
        for a, entry in enumerate(read_list(d.get("aqueducts", []), "aqueducts", CM_NAQ)):
            read_dict(entry, "aqueduct")
            if "colour" in entry and read_name(entry["colour"], _AQ, "aqueduct colour") != a:
                fail(f"aqueducts: aqueduct {a} is {_AQ[a]}, not {show(entry['colour'])}")
            path = read_list(entry.get("path", []), "aqueduct path", CM_AQMAX + 1)
            if not read_bool(entry.get("started", bool(path)), "aqueduct started"):
                if path:
                    fail(f"aqueducts: the {_AQ[a]} aqueduct has a path but is not started")
                continue
            ids = [_vert_id(v, "aqueduct vertex") for v in path] or [_B.water[a]]
            s.aq_started |= 1 << a
            s.aq_len[a] = len(ids) - 1
            for i, v in enumerate(ids):
                s.aq_path[a][i] = v

    def _read_players(self, dict d, on_tiles):
        """players: points, coins, tiles, Imperium tiles, bridges, magistrates off tiles."""
        cdef CMState *s = _st(self)
        cdef int n = s.nplayers, p, c, _j, k, i
        players = read_list(d.get("players", []), "players", n)
        points = [0] * n
        for i in range(_B.nsites):
            if SITE_BUILDING <= s.site[i] < SITE_FOUNTAIN:
                points[(s.site[i] - SITE_BUILDING) // CM_NCOL] += _COL[(s.site[i] - SITE_BUILDING) % CM_NCOL].points
        for p in range(n):
            pd = read_dict(players[p], "player") if p < len(players) else {}
            s.points[p] = read_int(pd.get("points", points[p]), "points", 0, _MAX_POINTS)
            s.coins[p] = read_int(pd.get("coins", 0), "coins", 0, _data.COINS)
            if "tiles" in pd:
                for c, k in enumerate(_counts(pd["tiles"], "tiles", _MAX_COLOUR_TILES)):
                    s.centre[p][c] = k
            for c, k in enumerate(_counts(pd.get("imperium"), "imperium", _MAX_IMPERIUM)):
                s.imp[p][c] = k
            for x in read_list(pd.get("bridges", []), "bridges", _data.BRIDGES_DEALT):
                s.bridges[p][read_int(x, "bridge value", 1, CM_NBVAL) - 1] += 1
            mags = read_dict(pd.get("magistrates", {}), "magistrates")
            imp = _counts(mags.get("imperium"), "imperium magistrates", CM_NMAG)
            treasury = read_int(mags.get("treasury", 0), "treasury magistrates", 0, CM_NMAG)
            k = on_tiles[p]
            if k + sum(imp) + treasury > CM_NMAG:
                fail(f"magistrates: player {p} has more than {CM_NMAG} magistrates")
            if "centre" in mags and read_int(mags["centre"], "centre magistrates", 0, CM_NMAG) \
                    != CM_NMAG - k - sum(imp) - treasury:
                fail(f"magistrates: player {p}'s magistrates do not add up to {CM_NMAG}")
            for c in range(CM_NCOL):
                for _j in range(imp[c]):
                    s.mag[p][k] = LOC_IMPERIUM + c
                    k += 1
            for _j in range(treasury):
                s.mag[p][k] = LOC_TREASURY
                k += 1
            while k < CM_NMAG:
                s.mag[p][k] = LOC_CENTRE
                k += 1
            cm_sort_mags(s, p)

    def _read_supply(self, dict d):
        """drawn, and stacks (given, or what nobody holds)."""
        cdef CMState *s = _st(self)
        cdef int n = s.nplayers, c, k
        drawn = _counts(d.get("drawn"), "drawn", _MAX_COLOUR_TILES)
        for c in range(CM_NCOL):
            s.pending[c] = drawn[c]
        if "stacks" in d:
            for c, k in enumerate(_counts(d["stacks"], "stacks", _MAX_COLOUR_TILES)):
                s.stack[c] = k
            return
        for c in range(CM_NCOL):
            held = drawn[c] + sum(s.centre[p][c] for p in range(n))
            held += sum(1 for pl in self._placed() if cm_tile_colour(s, pl) == c)
            if held > _COL[c].tiles:
                fail(f"stacks: more than {_COL[c].tiles} {_COL[c].name} tiles")
            s.stack[c] = _COL[c].tiles - held

    def _read_tile_play(self, dict d):
        """tile_play: the tile being played."""
        cdef CMState *s = _st(self)
        play = d.get("tile_play")
        if play is None or not read_dict(play, "tile_play"):
            return
        s.sel_colour = _colour_id(play.get("colour"), "tile_play colour")
        s.sel_mag = read_bool(play.get("magistrate", False), "tile_play magistrate")
        if play.get("site") is not None:
            s.sel_site = _site_id(play["site"], "tile_play site")

    def _read_resolution(self, dict d):
        """resolution: the steps of a placed tile still to take."""
        cdef CMState *s = _st(self)
        cdef int i
        res = d.get("resolution")
        if res is None or not read_dict(res, "resolution"):
            return
        s.pend_bridges = read_int(res.get("bridges_to_take", 0), "bridges_to_take", 0, CM_TILE_TRIS)
        for x in read_list(res.get("aqueducts_to_start", []), "aqueducts_to_start", CM_NAQ):
            s.aq_todo |= 1 << read_name(x, _AQ, "aqueducts_to_start")
        if res.get("aqueduct") is not None:
            s.aq_cur = read_name(res["aqueduct"], _AQ, "resolution aqueduct")
            s.aq_left = read_int(res.get("pieces_left", 0), "pieces_left", 0,
                                 _data.AQUEDUCT_START_PIECES)
        sites = sorted(_site_id(x, "pending site")
                       for x in read_list(res.get("sites", []), "pending sites", CM_TILE_TRIS))
        for i, x in enumerate(sites):
            s.pend_sites[i] = x
        s.pend_n = len(sites)
        if res.get("site") is not None:
            s.res_site = _site_id(res["site"], "resolution site")
        s.res_seat = read_int(res.get("seat", 0), "seat", 0, s.nplayers - 1)

    # -- observation ----------------------------------------------------------------------
    def _observation(self, int p):
        cdef CMState *s = _st(self)
        d = self._public_dict()
        over = s.phase == PH_OVER
        for q, pd in enumerate(d["players"]):
            values = self._bridge_values(q)
            pd["bridge_count"] = len(values)
            pd["bridges"] = values if (q == p or over) else None
        d["player"] = p
        d["current_player"] = self.current_player()
        d["bridge_spaces_open"] = [_tri(t) for t in _B.bridges
                                   if not (s.blocked[t >> 6] >> (t & 63)) & 1]
        d["scores"] = self.scores() if over else None
        return d

    # -- drawing --------------------------------------------------------------------------
    def _render(self):
        return self._drawing(-1)

    def _render_view(self, int p):
        return self._drawing(p)

    def _bridges_text(self, int p, int viewer):
        """p's bridge tiles as the viewer sees them (-1: the whole truth)."""
        values = self._bridge_values(p)
        if viewer < 0 or viewer == p or not self._hidden_from(viewer):
            return f"bridges {values}"
        return f"{len(values)} bridge(s)"

    def _drawing(self, int viewer):
        """The drawing for one player (viewer), or the whole truth (viewer -1): only the
        bridge values differ."""
        cdef CMState *s = _st(self)
        n = s.nplayers
        lines = [f"Rome: City of Marble  phase {PHASES[s.phase]}  "
                 + (f"turn of P{s.turn_player}, {s.actions_left} action(s) left"
                    if PH_HILLS < s.phase < PH_OVER else "")
                 + (f"  FINAL ROUND ({s.final_left} turn(s) left)" if s.final_left else "")]
        lines += self._board_lines()
        lines.append("stacks  " + "  ".join(f"{c.name} {s.stack[i]}" for i, c in enumerate(_COL))
                     + f"   fountains left {_data.FOUNTAINS - cm_fountains(s)}")
        scores = self.scores()
        for p in range(n):
            mags = [self._loc_text(s.mag[p][j]).replace("the ", "") for j in range(CM_NMAG)]
            lines.append(f"{'*' if p == s.turn_player and s.phase != PH_OVER else ' '}P{p}: "
                         f"{s.points[p]} pts, {s.coins[p]} coins, tiles "
                         + "".join(f"{c.short}{s.centre[p][i]}" for i, c in enumerate(_COL))
                         + ", imperium " + "".join(f"{c.short}{s.imp[p][i]}" for i, c in enumerate(_COL))
                         + f", {self._bridges_text(p, viewer)}, magistrates: " + "; ".join(mags))
        for a in range(CM_NAQ):
            if (s.aq_started >> a) & 1:
                path = " ".join(_fmt_v(_B.verts[s.aq_path[a][i]]) for i in range(s.aq_len[a] + 1))
                lines.append(f"{_AQ[a]} aqueduct ({_AQ_MARK[a]}), {s.aq_len[a]} pieces: {path}")
        if s.phase == PH_OVER:
            lines.append("final: " + ", ".join(f"P{p} {scores[p]}" for p in range(n))
                         + "  winners: " + ", ".join(f"P{p}" for p in self.winners()))
        lines.append("legend: r/y/g/b tile (a digit: that player's magistrate on the tile), "
                     "^ hill, = bridge space, . free; at site centres A/H/T/B building + owner, "
                     "F fountain, X empty; o water source; #/%/& gray/brown/white aqueduct; "
                     "(q,r) before a row is its first vertex, q + 1 at each vertex to the right; "
                     "* the player whose turn it is")
        return "\n".join(lines)

    def _board_lines(self):
        cdef CMState *s = _st(self)
        owner = self._mag_owner()
        tri_char = {}
        tile_of = {}
        for pl in self._placed():
            t1, t2 = _B.pl_tris[pl]
            ch = _COL[cm_tile_colour(s, pl)].short.lower()
            tri_char[t1] = ch
            tri_char[t2] = str(owner[pl]) if pl in owner else ch
            tile_of[t1] = tile_of[t2] = pl
        for h in range(CM_NHILLS):
            if (s.hills >> h) & 1:
                for t in _B.site_triangles(_B.hills[h]):
                    tri_char[t] = "^"
                    tile_of[t] = -1 - h
        for t in _B.bridges:
            tri_char.setdefault(t, "=")
        vmark = {}
        for i in range(_B.nsites):
            st = self._site_status(i)
            if st is None:
                continue
            c = _B.vert_id[_B.centres[i]]
            if st.get("fountain"):
                vmark[c] = "F "
            elif st.get("empty"):
                vmark[c] = "X "
            else:
                vmark[c] = _BUILDING_LETTER[st["building"]] + str(st["owner"])
        for v in _B.water:
            vmark.setdefault(v, "o ")
        aq_edge = {}
        for a in range(CM_NAQ):
            if (s.aq_started >> a) & 1:
                for i in range(s.aq_len[a] + 1):
                    vmark[s.aq_path[a][i]] = _AQ_MARK[a] + " "
                for i in range(s.aq_len[a]):
                    aq_edge[frozenset((_B.verts[s.aq_path[a][i]], _B.verts[s.aq_path[a][i + 1]]))] = _AQ_MARK[a]

        lay = _layout()
        edges = {}
        for key, ts in lay.edge_tris:
            side = [tile_of.get(t) for t in ts] + ([None] if len(ts) == 1 else [])
            boundary = side[0] != side[1] and (side[0] is not None or side[1] is not None)
            edges[key] = aq_edge.get(key) or (True if boundary else None)
        out = []
        for r in reversed(lay.rows):
            line = [" "] * lay.width
            for x, vid, right in lay.verts_by_row[r]:
                m = vmark.get(vid, "+ ")
                line[x] = m[0]
                e = edges.get(right)
                if e is not None:
                    fill = "---" if e is True else e * 3
                    line[x + 1:x + 4] = fill
                if m[1] != " ":
                    line[x + 1] = m[1]
            out.append(lay.row_label[r] + "".join(line).rstrip())
            if r == lay.rows[0]:
                break
            line = [" "] * lay.width  # triangles between vertex rows r - 1 and r
            for t, x, sides in lay.tris_by_row.get(r - 1, ()):
                line[x] = tri_char.get(t, ".")
                for key, slant, xs in sides:
                    val = edges.get(key)
                    if val is not None:
                        line[xs] = slant if val is True else val
            out.append((" " * lay.margin + "".join(line)).rstrip())
        return out
