# cython: language_level=3
"""The readable side of Rome: Rise to Power: action names, the dict form, the observation
of one player, score breakdowns and the text drawing.  See ``romecore.games.rise_to_power``
for the dict schema and the action encoding."""
from libc.stdint cimport uint8_t, int32_t, uint32_t

from romecore.core.state cimport State, Game
from romecore.games.rise_to_power.kernel cimport *

from reprlib import repr as _repr

from romecore.errors import SerializationError
from romecore.games.rise_to_power import data as _data

PHASES = ("deal", "roll", "tribunus", "order", "place", "after_place", "province", "mark",
          "reroll", "pick_die", "shift", "pick_placed", "target", "discard", "target_province",
          "military", "senate", "market", "draw", "forum", "show", "over")
TRACK_KEYS = ("military", "senate", "black_market")
SCORE_CATEGORIES = ("forum", "arena", "senate", "regions")
_PROV = _data.PROVINCES
_SEN = _data.SENATE
_ARENA = _data.ARENA
_ATYPES = _data.arena_card_types()
_PROV_ID = {p.name: i for i, p in enumerate(_PROV)}
_ARENA_ID = {a.name: t for t, a in enumerate(_ARENA)}


def senate_name(int c):
    """A Senate card's title, with " (Intrigue)" for the Intrigue cards."""
    card = _SEN[c]
    return card.title + (" (Intrigue)" if card.intrigue else "")


def province_name(int i):
    return _PROV[i].name


def arena_name(int c):
    """The name of Arena card id c."""
    return _ARENA[_ATYPES[c]].name


def _bits(uint32_t m):
    out = []
    cdef int i = 0
    while m:
        if m & 1:
            out.append(i)
        m >>= 1
        i += 1
    return out


cdef inline RPState *_st(State st):
    return <RPState *>st.s


def _show(x):
    """A short, always printable view of a value from a dict (for error messages)."""
    return _repr(x) if type(x) is str else f"a {type(x).__name__}"


# Dict readers: each checks the type (and an int its range) before the value is used.
def _bad(what):
    raise SerializationError(f"bad rise_to_power state dict: {what}")


def _dict(d, key):
    v = d.get(key)
    if v is None:
        return {}
    if not isinstance(v, dict):
        _bad(f"{key} must be a dict, got {type(v).__name__}")
    return v


def _list(d, key):
    v = d.get(key)
    if v is None:
        return []
    if not isinstance(v, list):
        _bad(f"{key} must be a list, got {type(v).__name__}")
    return v


def _ival(v, what, lo, hi):
    if type(v) is not int:
        _bad(f"{what} must be an int, got {type(v).__name__}")
    if not lo <= v <= hi:
        _bad(f"{what} out of range {lo}..{hi}" + (f": {v}" if -1000 < v < 1000 else ""))
    return v


def _int(d, key, default, lo, hi):
    if not isinstance(d, dict):
        _bad(f"expected a dict holding {key}, got {type(d).__name__}")
    return _ival(d.get(key, default), key, lo, hi)


def _flag(d, key):
    v = d.get(key, False)
    if type(v) is not bool:
        _bad(f"{key} must be a bool, got {type(v).__name__}")
    return v


def _seats(d, key, int n):
    """A list of distinct seats 0..n-1."""
    out = [_ival(q, key, 0, n - 1) for q in _list(d, key)]
    if len(set(out)) != len(out):
        _bad(f"{key} lists a seat twice")
    return out


cdef class RiseToPowerState(State):
    """A state of Rome: Rise to Power (see :class:`romecore.State` for the API)."""

    def _check_struct(self):
        """The kernel's check, and the struct's Intrigue set against the game's option
        (a snapshot relabelled from another option would not load back from its dict)."""
        State._check_struct(self)
        if _st(self).intrigue != (<Game>self.game).params[1]:
            raise SerializationError(
                f"rise_to_power state has Intrigue mask {_st(self).intrigue}; the options "
                f"{self.game.options['intrigue']!r} give {(<Game>self.game).params[1]}")

    # -- reading helpers ------------------------------------------------------------------
    def _group(self, int t, int p):
        cdef RPState *s = _st(self)
        return [s.grp[t][p].d[k] for k in range(s.grp[t][p].n)]

    def _track(self, int t):
        cdef RPState *s = _st(self)
        return [{"player": s.tord[t][k], "dice": self._group(t, s.tord[t][k])}
                for k in range(rp_ngroups(s, t))]

    def _unplaced(self, int p):
        cdef RPState *s = _st(self)
        return [v for v in range(6, -1, -1) for _ in range(s.dice[p][v])]

    def _card_phrase(self):
        cdef RPState *s = _st(self)
        return senate_name(s.card) if s.card < RP_NSENATE else "the card"

    # -- names ----------------------------------------------------------------------------
    def _action_to_string(self, int a):
        cdef RPState *s = _st(self)
        cdef int ph = s.phase, t, v, k
        if A_PLACE <= a < A_DONE:
            t, v = divmod(a - A_PLACE, RP_FACES)
            return f"place a {v + 1} on {_data.TRACKS[t]}" + (" with Consul" if s.consul else "")
        if a == A_DONE:
            return {PH_PLACE: "pass (no die can be placed)", PH_AFTER: "end turn",
                    PH_TRIBUNUS: "decline", PH_FORUM: "decline",
                    PH_SHOW: "no show" if not s.a_show[s.actor] else "show ready",
                    PH_MARK: "re-roll the marked dice" if s.marks else "stop re-rolling",
                    PH_MILITARY: "done conquering", PH_MARKET: "done buying"}.get(ph, "done")
        if A_ACTIVATE <= a < A_PROVINCE:
            return f"activate {senate_name(a - A_ACTIVATE)}"
        if A_PROVINCE <= a < A_SENATE:
            k = a - A_PROVINCE
            pr = _PROV[k]
            if ph == PH_MILITARY:
                return f"conquer {pr.name} ({pr.power})"
            if ph == PH_TARGET_PROV:
                owner = next((q for q in range(s.nplayers) if (s.p_own[q] >> k) & 1), None)
                return f"discard {pr.name} of P{owner}"
            return f"place {self._card_phrase()} on {pr.name}"
        if A_SENATE <= a < A_BUY:
            verb = "discard" if ph == PH_DISCARD else "take"
            return f"{verb} {senate_name(a - A_SENATE)}"
        if A_BUY <= a < A_DRAW:
            at = _ARENA[a - A_BUY]
            return f"buy {at.name} ({at.cost} coins)"
        if a == A_DRAW:
            return f"buy a face-down Arena card ({_data.FACE_DOWN_COST} coins)"
        if A_SHOW <= a < A_DIE:
            return f"add {_ARENA[a - A_SHOW].name} to the show"
        if A_DIE <= a < A_PLACED:
            v = a - A_DIE
            if ph == PH_MARK:
                return f"mark a {v} to re-roll"
            if ph == PH_PICK_DIE and s.card < RP_NSENATE:
                ab = rp_ability(s.card)
                if ab == AB_INVERT:
                    return f"invert a {v} into a {RP_FACES + 1 - v}"
                if ab == AB_SHIFT:
                    return f"change a {v}"
                return f"re-roll P{s.target}'s {v}"
            return f"die {v}"
        if A_PLACED <= a < A_PLUS:
            t, k = divmod(a - A_PLACED, RP_DICE)
            verb = "re-roll" if ph == PH_PICK_PLACED and s.card < RP_NSENATE and \
                rp_ability(s.card) == AB_REROLL_PLACED_MILITARY else "lower"
            g = self._group(t, s.actor)
            what = f"the {g[k]}" if k < len(g) else "the die"
            return f"{verb} {what} at position {k + 1} on {_data.TRACKS[t]}"
        if a == A_PLUS or a == A_MINUS:
            v = s.die if 1 <= s.die <= RP_FACES else 1
            w = v % RP_FACES + 1 if a == A_PLUS else (v + RP_FACES - 2) % RP_FACES + 1
            return f"{'raise' if a == A_PLUS else 'lower'} the {v} to a {w}"
        if A_PLAYER <= a < CH_DIE:
            return f"target P{a - A_PLAYER}"
        if CH_DIE <= a < CH_PROVINCE:
            v = a - CH_DIE + 1
            if ph == PH_ROLL:
                return f"P{s.step // RP_DICE} rolls a {v}"
            return f"the re-roll gives a {v}"
        if CH_PROVINCE <= a < CH_SENATE:
            return f"province dealt: {_PROV[a - CH_PROVINCE].name}"
        if CH_SENATE <= a < CH_ARENA:
            return f"Senate card dealt: {senate_name(a - CH_SENATE)}"
        if CH_ARENA <= a < CH_SEAT:
            name = _ARENA[a - CH_ARENA].name
            return f"face-down Arena card: {name}" if ph == PH_DRAW else f"Arena card dealt: {name}"
        return f"turn-order tie: P{a - CH_SEAT} goes next"

    def _why_illegal(self, int a):
        cdef RPState *s = _st(self)
        cdef int ph = s.phase, p = s.actor, t, v
        if ph in (PH_DEAL, PH_ROLL, PH_ORDER, PH_REROLL, PH_DRAW):
            return "this is a chance node: apply one of chance_outcomes()"
        if A_PLACE <= a < A_DONE and ph == PH_PLACE:
            t, v = divmod(a - A_PLACE, RP_FACES)
            v += 1
            if not s.dice[p][v]:
                return f"you have no unplaced {v}"
            g = self._group(t, p)
            if s.consul:
                return "with Consul active the die must exceed the rightmost die of your group"
            return (f"a die added to your group on {_data.TRACKS[t]} may not exceed its "
                    f"rightmost die ({g[-1] if g else '?'})")
        if A_ACTIVATE <= a < A_PROVINCE:
            c = a - A_ACTIVATE
            if not (s.s_own[p] >> c) & 1:
                return f"you do not hold {senate_name(c)}"
            if (s.s_exh >> c) & 1:
                return f"{senate_name(c)} is exhausted this round"
            return (f"{senate_name(c)} cannot be used now: wrong moment, no free matching "
                    f"province, or it would have no effect")
        if a == A_DONE and ph == PH_PLACE:
            return "you can place a die, so you may not pass"
        if a == A_DONE and ph == PH_SHOW:
            return f"a show has at least {_data.SHOW_MIN} cards"
        if A_PROVINCE <= a < A_SENATE and ph == PH_MILITARY:
            return "the province is not in the row, is above your remaining strength, or out of order"
        if A_BUY <= a < A_DRAW and ph == PH_MARKET:
            return "the card is not in the row, costs more than your coins, or is out of order"
        return f"it is not one of the legal actions in the {PHASES[ph]} phase"

    # -- scores ---------------------------------------------------------------------------
    def _score_breakdown(self, int p):
        cdef int32_t out[SC_N]
        cdef RPState *s = _st(self)
        rp_score(s, p, out)
        d = {name: out[i] for i, name in enumerate(SCORE_CATEGORIES)}
        d["senate_detail"] = {senate_name(c): rp_senate_endgame(s, p, c) for c in _bits(s.s_own[p])
                              if rp_senate_endgame(s, p, c)}
        d["region_detail"] = {_data.REGIONS[r]: rp_region_points(s, p, r) for r in range(RP_NREGIONS)
                              if rp_region_points(s, p, r)}
        d["provinces"] = bin(s.p_own[p]).count("1")
        d["arena_hand_cost"] = rp_hand_cost(s, p)
        d["total"] = out[SC_TOTAL]
        return d

    # -- dict form ------------------------------------------------------------------------
    def _to_dict(self):
        cdef RPState *s = _st(self)
        n = s.nplayers
        players = []
        for p in range(n):
            players.append({
                "vp_forum": s.vp_forum[p],
                "vp_arena": s.vp_arena[p],
                "forum": {_data.RESOURCES[r]: s.forum[p][r] for r in range(RP_NRES)},
                "provinces": [province_name(i) for i in _bits(s.p_own[p])],
                "senate": [{"id": c, "card": senate_name(c)} for c in _bits(s.s_own[p])],
                "hand": [{"id": c, "card": arena_name(c), "public": bool((s.a_pub >> c) & 1)}
                         for c in _bits(s.a_hand[p])],
                "show": [{"id": c, "card": arena_name(c), "public": bool((s.a_pub >> c) & 1)}
                         for c in _bits(s.a_show[p])],
                "dice": self._unplaced(p),
                "military_bonus": s.mil_bonus[p],
                "coin_bonus": s.coin_bonus[p],
                "tribunus": s.adj[p],
            })
        act = None
        if PH_PROVINCE <= s.phase <= PH_TARGET_PROV:
            act = {
                "card": s.card,
                "return": PHASES[s.ret],
                "provinces_left": s.prov_left,
                "first_province": None if s.prov_first == RP_NONE else province_name(s.prov_first),
                "target": s.target,
                "marks": s.marks,
                "mark_floor": s.mark_floor,
                "passes": s.passes,
                "optional": bool(s.optional),
                "die": s.die,
                "placed_die": None if s.rr_pos == RP_NONE else [s.rr_pos // RP_DICE, s.rr_pos % RP_DICE],
            }
        return {
            "round": s.round,
            "phase": PHASES[s.phase],
            "actor": s.actor,
            "order": [s.order[i] for i in range(n)],
            "new_order": [s.nord[i] for i in range(s.nord_n)],
            "turn": s.turn,
            "step": s.step,
            "consul": bool(s.consul),
            "tracks": {TRACK_KEYS[t]: self._track(t) for t in range(RP_NTRACKS)},
            "rows": {"provinces": [province_name(i) for i in _bits(s.p_row)],
                     "senate": [{"id": c, "card": senate_name(c)} for c in _bits(s.s_row)],
                     "arena": [{"id": c, "card": arena_name(c)} for c in _bits(s.a_row)]},
            "decks": {"provinces": [province_name(i) for i in _bits(s.p_deck)],
                      "senate": [{"id": c, "card": senate_name(c)} for c in _bits(s.s_deck)],
                      "arena": [{"id": c, "card": arena_name(c)} for c in _bits(s.a_deck)]},
            "exhausted": {"provinces": [province_name(i) for i in _bits(s.p_exh)],
                          "senate": _bits(s.s_exh)},
            "players": players,
            "activation": act,
            "resolution": {"section": s.rpos, "budget": s.budget, "floor": s.floor, "picks": s.picks},
            "scoring": {"forum_track": s.ftrack, "show_bonus": [p for p in range(n) if (s.greko >> p) & 1]},
        }

    def _load_dict(self, dict d):
        """Fills the struct (a fresh game with every card in its deck) from a dict; see
        the module docs.  Cards may be given by id or by name (a free card of that name
        is taken, from its deck first)."""
        cdef RPState *s = _st(self)
        cdef int n = s.nplayers, p, t, k, i
        K = _data.ROW_SIZE[n]
        game_s = set(_bits(rp_senate_mask(n, s.intrigue)))
        game_p = set(_bits(rp_province_mask(n)))
        claimed_s, claimed_p, claimed_a = set(), set(), set()

        def entry_key(e, name_key="card"):
            if isinstance(e, dict):
                e = e.get("id", e.get(name_key))
            if type(e) is str or (type(e) is int and 0 <= e < 32):
                return e
            _bad(f"a card is an id 0..31 or a name, got {_show(e)}")

        def province(spec):
            spec = entry_key(spec, "province")
            i = spec if type(spec) is int else _PROV_ID.get(spec)
            if i is None or i not in game_p:
                _bad(f"province {spec!r} is not in this game")
            if i in claimed_p:
                _bad(f"province {spec!r} placed twice")
            claimed_p.add(i)
            return i

        def senate(spec):
            spec = entry_key(spec)
            if type(spec) is int:
                if spec not in game_s:
                    _bad(f"Senate card {spec} is not in this game")
                if spec in claimed_s:
                    _bad(f"Senate card {spec} placed twice")
                claimed_s.add(spec)
                return spec
            for c in sorted(game_s):
                if senate_name(c) == spec and c not in claimed_s:
                    claimed_s.add(c)
                    return c
            _bad(f"no free Senate card {spec!r} in this game")

        def arena(spec):
            spec = entry_key(spec)
            if type(spec) is int:
                if not 0 <= spec < RP_NARENA or spec in claimed_a:
                    _bad(f"Arena card {spec} out of range or placed twice")
                claimed_a.add(spec)
                return spec
            t = _ARENA_ID.get(spec)
            if t is None:
                _bad(f"unknown Arena card {spec!r}")
            for c in range(RP_NARENA):
                if _ATYPES[c] == t and c not in claimed_a:
                    claimed_a.add(c)
                    return c
            _bad(f"no free Arena card {spec!r} left")

        s.round = _int(d, "round", 1, 1, _data.ROUNDS)
        phase = d.get("phase", "deal")
        if type(phase) is not str or phase not in PHASES:
            _bad(f"unknown phase {_show(phase)} (phases: {', '.join(PHASES)})")
        s.phase = PHASES.index(phase)
        s.actor = _int(d, "actor", 0, 0, n - 1)
        s.turn = _int(d, "turn", 0, 0, RP_DICE * n - 1)
        s.step = _int(d, "step", 0, 0, RP_DICE * n - 1)
        s.consul = _flag(d, "consul")
        if "order" in d:
            order = _seats(d, "order", n)
            if len(order) != n:
                _bad("order must list every seat once")
            for i in range(n):
                s.order[i] = order[i]
        nord = _seats(d, "new_order", n)
        if len(nord) >= n:
            _bad("new_order too long")
        for i, q in enumerate(nord):
            s.nord[i] = q
        s.nord_n = len(nord)
        players = _list(d, "players")
        if len(players) > n:
            _bad(f"{len(players)} players given for a {n}-player game")
        pub_bits = 0
        for p, pd in enumerate(players):
            if not isinstance(pd, dict):
                _bad(f"each player is a dict, got {type(pd).__name__}")
            s.vp_forum[p] = _int(pd, "vp_forum", 0, 0, 255)
            s.vp_arena[p] = _int(pd, "vp_arena", 0, 0, 255)
            s.mil_bonus[p] = _int(pd, "military_bonus", 0, 0, 255)
            s.coin_bonus[p] = _int(pd, "coin_bonus", 0, 0, 255)
            s.adj[p] = _int(pd, "tribunus", 0, -128, 127)
            forum = _dict(pd, "forum")
            for r, res in enumerate(_data.RESOURCES):
                s.forum[p][r] = _int(forum, res, 0, 0, _data.FORUM_MAX)
            for e in _list(pd, "provinces"):
                s.p_own[p] |= 1u << province(e)
            for e in _list(pd, "senate"):
                s.s_own[p] |= 1u << senate(e)
            for key in ("hand", "show"):
                for e in _list(pd, key):
                    c = arena(e)
                    if key == "hand":
                        s.a_hand[p] |= 1u << c
                    else:
                        s.a_show[p] |= 1u << c
                    if not (isinstance(e, dict) and "public" in e) or _flag(e, "public"):
                        pub_bits |= 1u << c
            dice = _list(pd, "dice")
            if len(dice) > RP_DICE:
                _bad("more than four unplaced dice")
            for v in dice:
                s.dice[p][_ival(v, "die face", 1, 6)] += 1
        s.a_pub = pub_bits
        rows = _dict(d, "rows")
        for e in _list(rows, "provinces"):
            s.p_row |= 1u << province(e)
        for e in _list(rows, "senate"):
            s.s_row |= 1u << senate(e)
        for e in _list(rows, "arena"):
            s.a_row |= 1u << arena(e)
        exh = _dict(d, "exhausted")
        for e in _list(exh, "provinces"):
            pi = e if type(e) is int else _PROV_ID.get(e) if type(e) is str else None
            if pi is None or not 0 <= pi < RP_NPROV:
                _bad(f"unknown province {_show(e)}")
            s.p_exh |= 1u << pi
        for e in _list(exh, "senate"):
            s.s_exh |= 1u << _ival(e, "exhausted Senate card id", 0, RP_NSENATE - 1)
        # decks: as given, else what the rounds have not dealt (lowest ids first)
        decks = _dict(d, "decks")
        if "provinces" in decks:
            s.p_deck = 0
            for e in _list(decks, "provinces"):
                s.p_deck |= 1u << province(e)
        else:
            s.p_deck = self._fill_deck(game_p - claimed_p, [_PROV[i].era for i in range(RP_NPROV)],
                                       s.p_row, K)
        if "senate" in decks:
            s.s_deck = 0
            for e in _list(decks, "senate"):
                s.s_deck |= 1u << senate(e)
        else:
            s.s_deck = self._fill_deck(game_s - claimed_s, [c.era for c in _SEN], s.s_row, K)
        if "arena" in decks:
            s.a_deck = 0
            for e in _list(decks, "arena"):
                s.a_deck |= 1u << arena(e)
        else:
            removed = {_ival(c, "arena_removed card id", 0, RP_NARENA - 1) for c in _list(d, "arena_removed")}
            s.a_deck = 0
            for c in range(RP_NARENA):
                if c not in claimed_a and c not in removed:
                    s.a_deck |= 1u << c
        tracks = _dict(d, "tracks")
        for t, key in enumerate(TRACK_KEYS):
            groups = _list(tracks, key)
            if len(groups) > RP_MAXP:
                _bad(f"track {key} has more than four sections")
            for k, g in enumerate(groups):
                q = _int(g, "player", None, 0, n - 1)
                dice = [_ival(v, "die face", 0, 6) for v in _list(g, "dice")]
                if not 1 <= len(dice) <= RP_DICE:
                    _bad(f"a group on {key} holds {len(dice)} dice, not 1..4")
                if s.grp[t][q].n:
                    _bad(f"P{q} has two groups on {key}")
                if len(dice) > 2:  # only the ends matter; the middle is kept sorted
                    dice = [dice[0]] + sorted(dice[1:-1], reverse=True) + [dice[-1]]
                s.tord[t][k] = q
                s.grp[t][q].n = len(dice)
                for i, v in enumerate(dice):
                    s.grp[t][q].d[i] = v
        act = d.get("activation")
        if act is not None:
            if not isinstance(act, dict):
                _bad(f"activation must be a dict or null, got {type(act).__name__}")
            c = act.get("card")
            if type(c) is str:  # a name: the actor's card of that name
                owned = [k for k in _bits(s.s_own[s.actor]) if senate_name(k) == c]
                if not owned:
                    _bad(f"the actor holds no Senate card {c!r}")
                c = owned[0]
            s.card = _ival(c, "activation card", 0, RP_NSENATE - 1)
            ret = act.get("return", "after_place")
            if type(ret) is not str or ret not in PHASES:
                _bad(f"unknown activation return phase {_show(ret)}")
            s.ret = PHASES.index(ret)
            s.prov_left = _int(act, "provinces_left", 0, 0, 2)
            fp = act.get("first_province")
            if fp is None:
                s.prov_first = RP_NONE
            elif type(fp) is str and fp in _PROV_ID:
                s.prov_first = _PROV_ID[fp]
            else:
                s.prov_first = _ival(fp, "first_province", 0, RP_NPROV - 1)
            s.target = _int(act, "target", s.actor, 0, n - 1)
            s.marks = _int(act, "marks", 0, 0, RP_DICE)
            s.mark_floor = _int(act, "mark_floor", 0, 0, 6)
            s.passes = _int(act, "passes", 0, 0, 1)
            s.optional = _flag(act, "optional")
            s.die = _int(act, "die", 0, 0, 6)
            pd_ = act.get("placed_die")
            if pd_ is None:
                s.rr_pos = RP_NONE
            elif not isinstance(pd_, list) or len(pd_) != 2:
                _bad("placed_die must be [track, position] or null")
            else:
                s.rr_pos = _ival(pd_[0], "placed_die track", 0, RP_NTRACKS - 1) * RP_DICE \
                    + _ival(pd_[1], "placed_die position", 0, RP_DICE - 1)
        res = _dict(d, "resolution")
        s.rpos = _int(res, "section", 0, 0, RP_MAXP - 1)
        s.budget = _int(res, "budget", 0, 0, 255)
        s.floor = _int(res, "floor", 0, 0, RP_NPROV)
        s.picks = _int(res, "picks", 0, 0, RP_DICE)
        sc = _dict(d, "scoring")
        s.ftrack = _int(sc, "forum_track", 0, 0, RP_NRES - 1)
        for q in _seats(sc, "show_bonus", n):
            s.greko |= 1 << q

    def _fill_deck(self, free, eras, uint32_t row, int K):
        """The deck a state of this round and phase holds: per era, the expected number of
        the free cards, lowest ids first (the others have left the game)."""
        cdef RPState *s = _st(self)
        dealt = K * (s.round - 1) + (bin(row).count("1") if s.phase == PH_DEAL else K)
        if s.phase == PH_OVER:
            dealt = K * _data.ROUNDS
        expect, end = [], 0
        for e in range(len(_data.ERAS)):  # era e holds the cards of its rounds not dealt yet
            size = K * _data.ERA_OF_ROUND.count(e + 1)
            end += size
            expect.append(min(size, max(0, end - dealt)))
        deck = 0
        for c in sorted(free):
            e = eras[c] - 1
            if expect[e] > 0:
                deck |= 1 << c
                expect[e] -= 1
        if any(expect):
            _bad("not enough free cards for the decks of this round")
        return deck

    # -- observation ----------------------------------------------------------------------
    def _observation(self, int p):
        cdef RPState *s = _st(self)
        n = s.nplayers
        d = self._to_dict()
        opponents = {}
        for q in range(n):
            if q == p:
                continue
            held = s.a_hand[q] | s.a_show[q]
            opponents[str(q)] = {
                "known": sorted(arena_name(c) for c in _bits(held & s.a_pub)),
                "hidden": bin(held & ~s.a_pub).count("1"),
                "show_size": bin(s.a_show[q]).count("1"),
            }
        in_game = 0
        for q in range(n):
            in_game |= s.a_hand[q] | s.a_show[q]
        removed = 0x7FFFFFFF & ~(in_game | s.a_deck | s.a_row)  # the 31 Arena cards
        names = lambda cards: sorted(c["card"] for c in cards)
        return {
            "player": p,
            "round": s.round,
            "phase": d["phase"],
            "current_player": self.current_player(),
            "actor": s.actor,
            "order": d["order"],
            "new_order": d["new_order"],
            "turn": s.turn,
            "step": s.step,
            "consul": d["consul"],
            "tracks": d["tracks"],
            "rows": {"provinces": d["rows"]["provinces"], "senate": names(d["rows"]["senate"]),
                     "arena": names(d["rows"]["arena"])},
            "decks": {"provinces": sorted(d["decks"]["provinces"]),
                      "senate": names(d["decks"]["senate"]),
                      "arena_size": bin(s.a_deck).count("1")},
            "arena_removed": sorted(arena_name(c) for c in _bits(removed)),
            "exhausted": d["exhausted"],
            "players": [{k: v for k, v in pd.items() if k not in ("hand", "show")}
                        for pd in d["players"]],
            "hand": sorted((c["card"], c["public"]) for c in d["players"][p]["hand"]),
            "show": sorted((c["card"], c["public"]) for c in d["players"][p]["show"]),
            "opponents": opponents,
            "activation": d["activation"],
            "resolution": d["resolution"],
            "scoring": d["scoring"],
            "scores": self.scores(),
        }

    # -- drawing --------------------------------------------------------------------------
    def _render(self):
        return self._draw(-1)

    def _render_view(self, int p):
        return self._draw(p)

    def _arena_text(self, int q, int viewer):
        """Player q's Arena cards as the viewer knows them: everything for a spectator or
        their owner; for others the cards bought face up, a count of the face-down ones
        and the size of a show being prepared (which cards went into it is secret)."""
        cdef RPState *s = _st(self)
        cdef uint32_t held = s.a_hand[q] | s.a_show[q]

        def cards(uint32_t m, uint32_t shown):
            hidden = bin(m & ~shown).count("1")
            return f"({bin(m).count('1')}): " + (", ".join(
                sorted(arena_name(c) for c in _bits(m & shown)) + ([f"{hidden} face down"] if hidden else [])) or "-")

        if viewer < 0 or viewer == q:
            text = "    arena hand " + cards(s.a_hand[q], s.a_hand[q])
            return text + ("   show " + cards(s.a_show[q], s.a_show[q]) if s.a_show[q] else "")
        text = "    arena cards " + cards(held, s.a_pub)
        return text + (f"   show being prepared: {bin(s.a_show[q]).count('1')} cards" if s.a_show[q] else "")

    def _draw(self, int viewer):
        """The drawing: the whole truth for viewer -1, else what the viewer knows (the
        other players' face-down Arena cards and secret shows only as counts)."""
        cdef RPState *s = _st(self)
        n = s.nplayers
        d = self._to_dict()
        lines = [f"Rome: Rise to Power  round {s.round}/{_data.ROUNDS}  phase {PHASES[s.phase]}"
                 f"  order {' '.join(f'P{q}' for q in d['order'])}"]
        for t, key in enumerate(TRACK_KEYS):
            groups = "  ".join(f"P{g['player']} [{' '.join(map(str, g['dice']))}]" for g in d["tracks"][key])
            lines.append(f"{_data.TRACKS[t]:>12}: {groups or '-'}")
        lines.append("provinces row: " + (", ".join(
            f"{pr} ({_PROV[_PROV_ID[pr]].power})" for pr in d["rows"]["provinces"]) or "-"))
        lines.append("senate row:    " + (", ".join(c["card"] for c in d["rows"]["senate"]) or "-"))
        lines.append("arena row:     " + (", ".join(c["card"] for c in d["rows"]["arena"]) or "-"))
        scores = self.scores()
        for p in range(n):
            pd = d["players"][p]
            forum = "/".join(str(v) for v in pd["forum"].values())
            lines.append(f"P{p}: VP {scores[p]} (forum {pd['vp_forum']}, arena {pd['vp_arena']})"
                         f"  forum O/W/J {forum}  dice {' '.join(map(str, pd['dice'])) or '-'}")
            lines.append(f"    provinces: {', '.join(pd['provinces']) or '-'}")
            lines.append(f"    senate: {', '.join(c['card'] for c in pd['senate']) or '-'}")
            lines.append(self._arena_text(p, viewer))
        if s.phase == PH_OVER:
            lines.append("final: " + ", ".join(f"P{p} {scores[p]}" for p in range(n))
                         + "  winners: " + self._winners_text(viewer, scores))
        return "\n".join(lines)

    def _winners_text(self, int viewer, scores):
        """The winners, unless a tie on VP and provinces is broken by Arena hand costs
        that the viewer cannot see."""
        cdef RPState *s = _st(self)
        key = [(scores[p], bin(s.p_own[p]).count("1")) for p in range(s.nplayers)]
        tied = [p for p in range(s.nplayers) if key[p] == max(key)]
        if viewer >= 0 and len(tied) > 1 and any(
                (s.a_hand[q] | s.a_show[q]) & ~s.a_pub for q in tied if q != viewer):
            return "by the tied players' Arena hand costs (" + ", ".join(f"P{p}" for p in tied) + ")"
        return ", ".join(f"P{p}" for p in self.winners())
