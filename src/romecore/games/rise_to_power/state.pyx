# cython: language_level=3
"""The readable side of Rome: Rise to Power: action names, the dict form, the observation
of one player, score breakdowns and the text drawing.  See ``romecore.games.rise_to_power``
for the dict schema and the action encoding."""
from libc.stdint cimport int32_t, uint32_t

from romecore.core.state cimport State, Game
from romecore.games.rise_to_power.kernel cimport *

from romecore.core.dictread import fail, read_bool, read_dict, read_int, read_list, read_name, read_seats, show
from romecore.errors import SerializationError
from romecore.games.rise_to_power import data as _data

PHASES = ("deal", "roll", "tribunus", "order", "place", "after_place", "province", "mark",
          "reroll", "pick_die", "shift", "pick_placed", "target", "discard", "target_province",
          "military", "senate", "market", "draw", "forum", "show", "over")
TRACK_KEYS = ("military", "senate", "black_market")
SCORE_CATEGORIES = ("forum", "arena", "senate", "regions")
_PROV = _data.PROVINCES
_SEN = _data.SENATE
_ARENA = _data.ARENA_TYPES
_ATYPES = _data.arena_card_types()
_PROV_NAMES = tuple(p.name for p in _PROV)
_PROV_ID = {name: i for i, name in enumerate(_PROV_NAMES)}
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


def _opt(d, key, empty):
    """A dict's optional section: ``empty`` when left out or null."""
    v = d.get(key)
    return empty if v is None else v


def _province_id(spec, what):
    """A province by id or name (not claimed)."""
    if type(spec) is str:
        return read_name(spec, _PROV_NAMES, what)
    return read_int(spec, what, 0, RP_NPROV - 1)


class _Cards:
    """The cards a dict names, by id or name, each claimed once: a name takes the free
    card of that name with the lowest id."""

    def __init__(self, int n, int intrigue):
        self.game_s = set(_bits(rp_senate_mask(n, intrigue)))
        self.game_p = set(_bits(rp_province_mask(n)))
        self.claimed_s, self.claimed_p, self.claimed_a = set(), set(), set()

    @staticmethod
    def spec(e, what, name_key="card"):
        """A card entry's id or name (an entry may be a dict with "id" or a name)."""
        if type(e) is dict:
            e = e.get("id", e.get(name_key))
        if type(e) is str or (type(e) is int and 0 <= e < 32):
            return e
        fail(f"{what}: a card is an id 0..31 or a name, got {show(e)}")

    def province(self, e, what):
        spec = self.spec(e, what, "province")
        i = spec if type(spec) is int else _PROV_ID.get(spec)
        if i is None or i not in self.game_p:
            fail(f"{what}: province {show(spec)} is not in this game")
        if i in self.claimed_p:
            fail(f"{what}: province {show(spec)} placed twice")
        self.claimed_p.add(i)
        return i

    def senate(self, e, what):
        spec = self.spec(e, what)
        if type(spec) is int:
            if spec not in self.game_s:
                fail(f"{what}: Senate card {spec} is not in this game")
            if spec in self.claimed_s:
                fail(f"{what}: Senate card {spec} placed twice")
            self.claimed_s.add(spec)
            return spec
        for c in sorted(self.game_s):
            if senate_name(c) == spec and c not in self.claimed_s:
                self.claimed_s.add(c)
                return c
        fail(f"{what}: no free Senate card {show(spec)} in this game")

    def arena(self, e, what):
        spec = self.spec(e, what)
        if type(spec) is int:
            if not 0 <= spec < RP_NARENA or spec in self.claimed_a:
                fail(f"{what}: Arena card {spec} out of range or placed twice")
            self.claimed_a.add(spec)
            return spec
        t = _ARENA_ID.get(spec)
        if t is None:
            fail(f"{what}: unknown Arena card {show(spec)}")
        for c in range(RP_NARENA):
            if _ATYPES[c] == t and c not in self.claimed_a:
                self.claimed_a.add(c)
                return c
        fail(f"{what}: no free Arena card {show(spec)} left")

    def provinces(self, x, what):
        """A list of provinces as a bit set."""
        m = 0
        for e in read_list(x, what, RP_NPROV):
            m |= 1 << self.province(e, what)
        return m

    def senates(self, x, what):
        m = 0
        for e in read_list(x, what, RP_NSENATE):
            m |= 1 << self.senate(e, what)
        return m

    def arenas(self, x, what):
        m = 0
        for e in read_list(x, what, RP_NARENA):
            m |= 1 << self.arena(e, what)
        return m


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
        """Fills the struct (a fresh game with every card in its deck) from a dict; see the
        module docs.  One reader per section, each reading its values through
        romecore.core.dictread (SerializationError names the first bad field); cards may be
        given by id or by name and are claimed in this order (players, rows, decks); the
        kernel's validate checks how the fields fit together afterwards."""
        cdef RPState *s = _st(self)
        read_dict(d, "state")
        cards = _Cards(s.nplayers, s.intrigue)
        self._read_turn(d)
        self._read_players(d, cards)
        self._read_rows(d, cards)
        self._read_exhausted(d)
        self._read_decks(d, cards)
        self._read_tracks(d)
        self._read_activation(d)
        self._read_resolution(d)
        self._read_scoring(d)

    # -- the dict's readers, one per section ----------------------------------------------
    def _read_turn(self, d):
        """Round, phase, actor, turn counters, Consul and the turn orders."""
        cdef RPState *s = _st(self)
        cdef int n = s.nplayers, i
        s.round = read_int(d.get("round", 1), "round", 1, _data.ROUNDS)
        s.phase = read_name(d.get("phase", "deal"), PHASES, "phase")
        s.actor = read_int(d.get("actor", 0), "actor", 0, n - 1)
        s.turn = read_int(d.get("turn", 0), "turn", 0, RP_DICE * n - 1)
        s.step = read_int(d.get("step", 0), "step", 0, RP_DICE * n - 1)
        s.consul = read_bool(d.get("consul", False), "consul")
        if "order" in d:
            order = read_seats(d["order"], "order", n)
            if len(order) != n:
                fail("order must list every seat once")
            for i in range(n):
                s.order[i] = order[i]
        nord = read_seats(_opt(d, "new_order", []), "new_order", n)
        if len(nord) >= n:
            fail("new_order too long")
        for i, q in enumerate(nord):
            s.nord[i] = q
        s.nord_n = len(nord)

    def _read_players(self, d, cards):
        """Each player's VP, bonuses, forum tracks, cards and unplaced dice."""
        cdef RPState *s = _st(self)
        cdef int n = s.nplayers, p, r
        cdef uint32_t pub = 0
        players = read_list(_opt(d, "players", []), "players", n)
        for p, pd in enumerate(players):
            pd = read_dict(pd, f"players[{p}]")
            what = f"players[{p}]"
            s.vp_forum[p] = read_int(pd.get("vp_forum", 0), what + " vp_forum", 0, 255)
            s.vp_arena[p] = read_int(pd.get("vp_arena", 0), what + " vp_arena", 0, 255)
            s.mil_bonus[p] = read_int(pd.get("military_bonus", 0), what + " military_bonus", 0, 255)
            s.coin_bonus[p] = read_int(pd.get("coin_bonus", 0), what + " coin_bonus", 0, 255)
            s.adj[p] = read_int(pd.get("tribunus", 0), what + " tribunus", -128, 127)
            forum = read_dict(_opt(pd, "forum", {}), what + " forum")
            for r, res in enumerate(_data.RESOURCES):
                s.forum[p][r] = read_int(forum.get(res, 0), f"{what} forum {res}", 0, _data.FORUM_MAX)
            s.p_own[p] = cards.provinces(_opt(pd, "provinces", []), what + " provinces")
            s.s_own[p] = cards.senates(_opt(pd, "senate", []), what + " senate")
            for key in ("hand", "show"):
                for e in read_list(_opt(pd, key, []), f"{what} {key}", RP_NARENA):
                    c = cards.arena(e, f"{what} {key}")
                    if key == "hand":
                        s.a_hand[p] |= 1u << c
                    else:
                        s.a_show[p] |= 1u << c
                    if type(e) is not dict or read_bool(e.get("public", True), f"{what} {key} public"):
                        pub |= 1u << c
            for v in read_list(_opt(pd, "dice", []), what + " dice", RP_DICE):
                s.dice[p][read_int(v, what + " die face", 1, RP_FACES)] += 1
        s.a_pub = pub

    def _read_rows(self, d, cards):
        cdef RPState *s = _st(self)
        rows = read_dict(_opt(d, "rows", {}), "rows")
        s.p_row = cards.provinces(_opt(rows, "provinces", []), "rows provinces")
        s.s_row = cards.senates(_opt(rows, "senate", []), "rows senate")
        s.a_row = cards.arenas(_opt(rows, "arena", []), "rows arena")

    def _read_exhausted(self, d):
        """Provinces (ids or names) and Senate cards (ids) exhausted this round."""
        cdef RPState *s = _st(self)
        exh = read_dict(_opt(d, "exhausted", {}), "exhausted")
        for e in read_list(_opt(exh, "provinces", []), "exhausted provinces", RP_NPROV):
            s.p_exh |= 1u << _province_id(e, "exhausted provinces")
        for e in read_list(_opt(exh, "senate", []), "exhausted senate", RP_NSENATE):
            s.s_exh |= 1u << read_int(e, "exhausted senate", 0, RP_NSENATE - 1)

    def _read_decks(self, d, cards):
        """The decks as given, else what the rounds have not dealt (lowest ids first) and
        the Arena deck with every card not placed elsewhere or removed."""
        cdef RPState *s = _st(self)
        cdef int K = _data.ROW_SIZE[s.nplayers]
        decks = read_dict(_opt(d, "decks", {}), "decks")
        if "provinces" in decks:
            s.p_deck = cards.provinces(_opt(decks, "provinces", []), "decks provinces")
        else:
            s.p_deck = self._fill_deck(cards.game_p - cards.claimed_p,
                                       [_PROV[i].era for i in range(RP_NPROV)], s.p_row, K)
        if "senate" in decks:
            s.s_deck = cards.senates(_opt(decks, "senate", []), "decks senate")
        else:
            s.s_deck = self._fill_deck(cards.game_s - cards.claimed_s, [c.era for c in _SEN],
                                       s.s_row, K)
        if "arena" in decks:
            s.a_deck = cards.arenas(_opt(decks, "arena", []), "decks arena")
        else:
            removed = {read_int(c, "arena_removed", 0, RP_NARENA - 1)
                       for c in read_list(_opt(d, "arena_removed", []), "arena_removed", RP_NARENA)}
            s.a_deck = 0
            for c in range(RP_NARENA):
                if c not in cards.claimed_a and c not in removed:
                    s.a_deck |= 1u << c

    def _read_tracks(self, d):
        """Each track's groups left to right, one per player; middle dice kept sorted."""
        cdef RPState *s = _st(self)
        cdef int n = s.nplayers, t, k, i, q
        tracks = read_dict(_opt(d, "tracks", {}), "tracks")
        for t, key in enumerate(TRACK_KEYS):
            what = f"tracks {key}"
            for k, g in enumerate(read_list(_opt(tracks, key, []), what, RP_MAXP)):
                g = read_dict(g, what + " group")
                q = read_int(g.get("player"), what + " player", 0, n - 1)
                dice = [read_int(v, what + " die face", 0, RP_FACES)
                        for v in read_list(_opt(g, "dice", []), what + " dice", RP_DICE)]
                if not dice:
                    fail(f"{what}: a group holds no dice")
                if s.grp[t][q].n:
                    fail(f"{what}: P{q} has two groups")
                if len(dice) > 2:  # only the ends matter; the middle is kept sorted
                    dice = [dice[0]] + sorted(dice[1:-1], reverse=True) + [dice[-1]]
                s.tord[t][k] = q
                s.grp[t][q].n = len(dice)
                for i, v in enumerate(dice):
                    s.grp[t][q].d[i] = v

    def _read_activation(self, d):
        """The Senate card being activated (id, or the actor's card of that name) and its
        own counters; null when none."""
        cdef RPState *s = _st(self)
        cdef int n = s.nplayers
        act = d.get("activation")
        if act is None:
            return
        act = read_dict(act, "activation")
        c = act.get("card")
        if type(c) is str:
            owned = [k for k in _bits(s.s_own[s.actor]) if senate_name(k) == c]
            if not owned:
                fail(f"activation card: the actor holds no Senate card {show(c)}")
            c = owned[0]
        s.card = read_int(c, "activation card", 0, RP_NSENATE - 1)
        s.ret = read_name(act.get("return", "after_place"), PHASES, "activation return")
        s.prov_left = read_int(act.get("provinces_left", 0), "activation provinces_left", 0, 2)
        fp = act.get("first_province")
        s.prov_first = RP_NONE if fp is None else _province_id(fp, "activation first_province")
        s.target = read_int(act.get("target", s.actor), "activation target", 0, n - 1)
        s.marks = read_int(act.get("marks", 0), "activation marks", 0, RP_DICE)
        s.mark_floor = read_int(act.get("mark_floor", 0), "activation mark_floor", 0, RP_FACES)
        s.passes = read_int(act.get("passes", 0), "activation passes", 0, 1)
        s.optional = read_bool(act.get("optional", False), "activation optional")
        s.die = read_int(act.get("die", 0), "activation die", 0, RP_FACES)
        pos = act.get("placed_die")
        if pos is None:
            s.rr_pos = RP_NONE
            return
        pos = read_list(pos, "activation placed_die", 2)
        if len(pos) != 2:
            fail("activation placed_die must be [track, position] or null")
        s.rr_pos = read_int(pos[0], "activation placed_die track", 0, RP_NTRACKS - 1) * RP_DICE \
            + read_int(pos[1], "activation placed_die position", 0, RP_DICE - 1)

    def _read_resolution(self, d):
        cdef RPState *s = _st(self)
        res = read_dict(_opt(d, "resolution", {}), "resolution")
        s.rpos = read_int(res.get("section", 0), "resolution section", 0, RP_MAXP - 1)
        s.budget = read_int(res.get("budget", 0), "resolution budget", 0, 255)
        s.floor = read_int(res.get("floor", 0), "resolution floor", 0, RP_NPROV)
        s.picks = read_int(res.get("picks", 0), "resolution picks", 0, RP_DICE)

    def _read_scoring(self, d):
        cdef RPState *s = _st(self)
        sc = read_dict(_opt(d, "scoring", {}), "scoring")
        s.ftrack = read_int(sc.get("forum_track", 0), "scoring forum_track", 0, RP_NRES - 1)
        for q in read_seats(_opt(sc, "show_bonus", []), "scoring show_bonus", s.nplayers):
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
            fail("decks: not enough free cards for the decks of this round")
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
