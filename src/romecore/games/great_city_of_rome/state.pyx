# cython: language_level=3
"""The readable side of The Great City of Rome: action names, the dict form, the
observation of one player, score breakdowns and the terminal drawing.

Coordinates are ``(row, col)`` on the engine's board: each seat's starting Vegetable
Farm is at (3, 2) and its Residential 2 at (3, 3), and a city of at most 4x4 can spread
over rows 0-6 and columns 0-5.  See ``romecore.games.great_city_of_rome`` for the dict
schema.
"""
from libc.stdint cimport uint8_t, int32_t, uint64_t
from libc.string cimport memset

from romecore.core.state cimport State
from romecore.games.great_city_of_rome.kernel cimport *

from romecore.core.dictread import fail, read_bool, read_dict, read_int, read_list, read_name, show
from romecore.games.great_city_of_rome import data as _data

PHASES = ("draft_deal", "draft_pick", "strip", "offer", "emissary", "take", "main", "place",
          "school_deck", "school_draw", "school_keep", "school_bottom", "over")
_TYPES = _data.TYPES
_CARDS = _data.card_table()
_DECKS = _data.DECK_NAMES
SCORE_CATEGORIES = ("residential_2", "residential_3", "residential_4", "aqueducts", "temples",
                    "coins", "influence_tokens", "influence_cards")


def card_name(int c):
    return _TYPES[_CARDS[c][0]].name


def _card_deck(int c):
    d = _CARDS[c][1]
    return "start" if d < 0 else _DECKS[d]


def _cell(int c):
    return (c >> 3, c & 7)


_TOP_KEYS = ("game", "options", "rng", "seed", "history", "round", "phase", "first_player", "actor",
             "strip_order", "emissaries", "emissaries_placed", "turn", "draw_index", "offer", "decks",
             "box", "drawn", "school", "influence_cards", "players", "known")
_TURN_KEYS = ("space", "bricks", "cogs", "took", "built", "produced", "selected")
_PLAYER_KEYS = ("coins", "influence", "city", "hand", "draft_card")
_CARD_KEYS = ("id", "building", "deck", "public")
_CITY_KEYS = ("id", "building", "deck", "row", "col", "tokens")
_DECK_NAMES_ALL = ("start",) + tuple(_DECKS)   # deck + 1
_TYPE_NAMES = tuple(t.name for t in _TYPES)


def _deck_id(name, what):
    """A deck (-1 for the starting buildings) from its name."""
    return read_name(name, _DECK_NAMES_ALL, f"{what} deck") - 1


def _type_id(name, what="building"):
    """A building type from its name or type id."""
    if type(name) is int:
        return read_int(name, what, 0, GC_NTYPES - 1)
    return read_name(name, _TYPE_NAMES, what)


def _everyone(int n):
    """The knowers mask of every seat in an n-player game."""
    return (1 << n) - 1


cdef inline GCState *_st(State st):
    return <GCState *>st.s


cdef class GreatCityState(State):
    """A state of The Great City of Rome (see :class:`romecore.State` for the API)."""

    # -- reading helpers ------------------------------------------------------------------
    def _hand(self, int p):
        cdef GCState *s = _st(self)
        return [c for c in range(GC_NDECKCARDS) if s.loc[c] == Z_HAND + p]

    def _city(self, int p):
        cdef GCState *s = _st(self)
        return sorted((c for c in range(GC_NCARDS) if s.loc[c] == Z_CITY + p),
                      key=lambda c: s.cell[c])

    def _offer(self):
        cdef uint8_t buf[GC_MAXOFFER]
        cdef int n = gc_offer(_st(self), buf)
        return [buf[i] for i in range(n)]

    def _face(self):
        cdef GCState *s = _st(self)
        f = gc_face(s)
        front = _data.STRIP_FRONTS[f % 6]
        return front if f < 6 else front[::-1]

    # -- names ----------------------------------------------------------------------------
    def _action_to_string(self, int a):
        cdef GCState *s = _st(self)
        cdef int ph = s.phase
        if A_PLACE <= a < A_BUILD:
            r, c = _cell(a - A_PLACE)
            what = _TYPES[s.sel_type].name if ph == PH_PLACE else "building"
            text = f"build {what} at ({r},{c})"
            if ph == PH_PLACE and (s.occ[s.actor] >> (a - A_PLACE)) & 1:
                for card in range(GC_NCARDS):
                    if s.loc[card] == Z_CITY + s.actor and s.cell[card] == a - A_PLACE:
                        text += f" replacing {card_name(card)}"
            return text
        if A_BUILD <= a < A_PRODUCE:
            return f"build {_TYPES[a - A_BUILD].name}"
        if a == A_PRODUCE:
            return "produce"
        if a == A_END:
            return "end turn"
        if A_TAKE <= a < A_EMISSARY:
            offer = self._offer()
            j = a - A_TAKE
            if j < len(offer):
                return f"take {card_name(offer[j])} (deck {_card_deck(offer[j])})"
            return f"take offer card {j + 1}"
        if A_EMISSARY <= a < A_DRAFT:
            k = a - A_EMISSARY
            if PH_EMISSARY <= ph < PH_OVER and s.strips_revealed:
                face = self._face()[:k + 1]
                return (f"emissary to space {k + 1} ({face.count('B')} bricks, "
                        f"{face.count('C')} cogs)")
            return f"emissary to space {k + 1}"
        if A_DRAFT <= a < A_SCHOOL_DECK:
            j = a - A_DRAFT
            return f"draft {card_name(s.drawn[j])}" if j < s.drawn_n else f"draft card {j + 1}"
        if A_SCHOOL_DECK <= a < A_KEEP:
            return f"School draws from deck {_DECKS[a - A_SCHOOL_DECK + 1]}"
        if A_KEEP <= a < A_BOTTOM:
            j = a - A_KEEP
            return f"keep {card_name(s.drawn[j])}" if j < s.drawn_n else f"keep card {j + 1}"
        if A_BOTTOM <= a < CH_CARD:
            j = a - A_BOTTOM
            name = card_name(s.drawn[j]) if j < s.drawn_n else f"card {j + 1}"
            return f"put {name} under deck {_DECKS[s.school_deck]}"
        if CH_CARD <= a < CH_STRIP:
            name = _TYPES[a - CH_CARD].name
            if ph == PH_OFFER:
                d = _data.OFFER_DECKS[s.nplayers][s.draw_idx]
                return f"deck {_DECKS[d]} reveals {name}"
            if ph == PH_DRAFT_DEAL:
                return f"draft deal: {name}"
            if ph == PH_SCHOOL_DRAW:
                return f"School draws {name}"
            return f"draw {name}"
        k = a - CH_STRIP
        return f"strip {k + 1} ({_data.STRIP_FRONTS[k]}) comes up"

    def _why_illegal(self, int a):
        cdef GCState *s = _st(self)
        cdef int ph = s.phase, p = s.actor
        phase = PHASES[ph]
        if ph == PH_PLACE and A_PLACE <= a < A_BUILD:
            cell = a - A_PLACE
            r, c = _cell(cell)
            if not (0 <= r <= 6 and 0 <= c <= 5):
                return f"({r},{c}) is off the board"
            occ = s.occ[p]
            if (occ >> cell) & 1:
                if _TYPES[s.sel_type].kind != _data.AQUEDUCT:
                    return f"({r},{c}) is already built on"
                return "an aqueduct may not share a row or column with another aqueduct"
            if _TYPES[s.sel_type].kind == _data.AQUEDUCT and (occ >> cell) & 1 == 0:
                if ((s.aq_rows[p] >> r) & 1) or ((s.aq_cols[p] >> c) & 1):
                    return "an aqueduct may not share a row or column with another aqueduct"
            around = ((occ << 1) | (occ >> 1) | (occ << 8) | (occ >> 8))
            if not (around >> cell) & 1:
                return f"({r},{c}) is not next to a building of the city"
            return f"building at ({r},{c}) would make the city larger than 4x4"
        if ph == PH_MAIN and A_BUILD <= a < A_PRODUCE:
            t = a - A_BUILD
            name = _TYPES[t].name
            if s.flags & F_BUILT:
                return "you have already built this turn"
            if gc_build_card(s, p, t) < 0:
                return f"you hold no {name}"
            return f"you cannot pay {_TYPES[t].cost} bricks for {name} or it has no legal cell"
        if ph == PH_MAIN and a == A_PRODUCE:
            if s.flags & F_PRODUCED:
                return "you have already produced this turn"
            return "you cannot pay for 2 cogs, or your city would produce nothing"
        if ph in (PH_DRAFT_DEAL, PH_STRIP, PH_OFFER, PH_SCHOOL_DRAW):
            return "this is a chance node: apply one of chance_outcomes()"
        return f"it is not one of the legal actions in the {phase} phase"

    # -- scores (the totals come from the kernel's scores slot) ---------------------------
    def _score_breakdown(self, int p):
        cdef int32_t out[SC_N]
        cdef uint64_t m[M_N]
        cdef GCState *s = _st(self)
        gc_score(s, p, out)
        gc_city_masks(s, p, m)
        d = {name: out[i] for i, name in enumerate(SCORE_CATEGORIES)}
        d["residential"] = out[SC_RES2] + out[SC_RES3] + out[SC_RES4]
        d["temple_detail"] = {
            _TYPES[t].name: gc_temple_points(s, p, t, m)
            for t in range(GC_NTYPES) if (m[M_TEMPLE_TYPES] >> t) & 1
        }
        d["total"] = out[SC_TOTAL]
        return d

    # -- dict form ------------------------------------------------------------------------
    def _card_dict(self, int c):
        return {"id": c, "building": card_name(c), "deck": _card_deck(c)}

    def _to_dict(self):
        cdef GCState *s = _st(self)
        n = s.nplayers
        players = []
        for p in range(n):
            city = []
            for c in self._city(p):
                r, col = _cell(s.cell[c])
                entry = {"id": c, "building": card_name(c), "row": r, "col": col}
                tok = gc_tokens(s, c)
                if tok:
                    entry["tokens"] = tok
                city.append(entry)
            players.append({
                "coins": s.coins[p],
                "influence": s.influence[p],
                "city": city,
                "hand": [self._card_dict(c) for c in self._hand(p)],
                "draft_card": None if s.draft_card[p] == GC_NONE else s.draft_card[p],
            })
        return {
            "round": s.round,
            "phase": PHASES[s.phase],
            "first_player": s.first_player,
            "actor": s.actor,
            "strip_order": [s.strip_order[i] for i in range(s.strips_revealed)],
            "emissaries": [None if s.space_owner[k] == GC_NONE else s.space_owner[k]
                           for k in range(GC_NSPACES)],
            "emissaries_placed": s.place_idx,
            "turn": {"space": s.turn_space, "bricks": s.bricks, "cogs": s.cogs,
                     "took": bool(s.flags & F_TOOK), "built": bool(s.flags & F_BUILT),
                     "produced": bool(s.flags & F_PRODUCED),
                     "selected": _TYPES[s.sel_type].name if s.phase == PH_PLACE else None},
            "draw_index": s.draw_idx,
            "offer": [self._card_dict(c) for c in self._offer()],
            "decks": [{"pool": [c for c in range(GC_NDECKCARDS) if s.loc[c] == Z_POOL + d],
                       "bottom": [s.bot[d][i] for i in range(s.bot_n[d])]}
                      for d in range(GC_NDECKS)],
            "box": [c for c in range(GC_NCARDS) if s.loc[c] == Z_BOX],
            "drawn": [s.drawn[i] for i in range(s.drawn_n)],
            "school": {"deck": s.school_deck, "draws_left": s.school_left},
            "influence_cards": [
                {"value": _data.INFLUENCE_VALUES[i],
                 "holder": ("unused" if s.infl[i] == INFL_NONE else
                            "in play" if s.infl[i] == INFL_IN_PLAY else s.infl[i])}
                for i in range(GC_NINFL) if gc_infl_round(n, i)
            ],
            "players": players,
            # who knows each card that lies face down (hands, decks, drawn cards)
            "known": {c: [p for p in range(n) if (s.known[c] >> p) & 1]
                      for c in range(GC_NCARDS)
                      if s.loc[c] != Z_OFFER and s.loc[c] != Z_BOX and not Z_CITY <= s.loc[c] < Z_CITY + GC_MAXP},
        }

    def _load_dict(self, dict d):
        """Fills the struct (already holding a fresh set-up) from a dict; see the module
        docs.  One reader per section of the dict, each checking every value through
        romecore.core.dictread before it sizes or indexes anything (SerializationError
        names the first bad one); the kernel's validate checks how the fields fit
        together afterwards."""
        read_dict(d, "state", _TOP_KEYS)
        claimed = set()
        self._read_round(d)
        self._read_strips(d)
        self._read_emissaries(d)
        self._read_turn(d)
        self._read_influence(d)
        # cards: cities first (they may use the starting buildings), then the rest
        players = self._read_cities(d, claimed)
        self._read_hands(players, claimed)
        self._read_offer(d, claimed)
        self._read_drawn(d, claimed)
        box = self._read_box(d, claimed)
        decks = self._read_bottoms(d, claimed)
        self._check_listed(d, decks, box)
        self._read_known(d)

    # -- the dict's readers, one per section ------------------------------------------------
    def _claim(self, spec, what, claimed, owner=-1, deck=None):
        """The card a dict entry names: by id, or by building name (then a free card of
        that building, a starting one of ``owner`` first); each card is claimed once."""
        cdef GCState *s = _st(self)
        card_id = name = None
        if isinstance(spec, dict):
            read_dict(spec, what, _CARD_KEYS)
            card_id, name = spec.get("id"), spec.get("building")
            if "deck" in spec:
                deck = _deck_id(spec["deck"], what)
        elif type(spec) is int:
            card_id = spec
        else:
            name = spec
        if card_id is not None:
            card = read_int(card_id, what + " id", 0, GC_NCARDS - 1)
            if name is not None and _type_id(name, what) != _CARDS[card][0]:
                fail(f"{what}: card {card} is a {card_name(card)}, not {show(name)}")
            if deck is not None and _CARDS[card][1] != deck:
                fail(f"{what}: card {card} is not from deck {_DECK_NAMES_ALL[deck + 1]}")
            if card in claimed:
                fail(f"{what}: card {card} is placed twice")
            claimed.add(card)
            return card
        if name is None:
            fail(f"{what} names no card")
        t = _type_id(name, what)
        prefer = [GC_NDECKCARDS + 2 * owner, GC_NDECKCARDS + 2 * owner + 1] if owner >= 0 else []
        for cand in prefer + list(range(GC_NDECKCARDS)):
            if cand not in claimed and _CARDS[cand][0] == t and (deck is None or _CARDS[cand][1] == deck) \
                    and (cand >= GC_NDECKCARDS or s.loc[cand] < Z_BOTTOM):
                claimed.add(cand)
                return cand
        fail(f"{what}: no free {_TYPES[t].name} card left")

    def _move(self, int card, int zone, int knowers):
        """Card to a zone, known to ``knowers``, keeping the pool counts."""
        cdef GCState *s = _st(self)
        if s.loc[card] < Z_BOTTOM:
            s.pool_n[s.loc[card]] -= 1
        s.loc[card] = zone
        s.known[card] = knowers
        s.cell[card] = GC_NONE
        if zone < Z_BOTTOM:
            s.pool_n[zone] += 1

    def _read_round(self, d):
        """round, first_player, phase."""
        cdef GCState *s = _st(self)
        s.round = read_int(d.get("round", s.round), "round", 1, s.nrounds)
        s.first_player = read_int(d.get("first_player", (s.round - 1) % s.nplayers), "first_player",
                                  0, s.nplayers - 1)
        s.phase = read_name(d.get("phase", "draft_deal"), PHASES, "phase")

    def _read_strips(self, d):
        """strip_order (by default the strips the round implies, in id order)."""
        cdef GCState *s = _st(self)
        if "strip_order" in d:
            order = read_list(d["strip_order"], "strip_order", GC_NSTRIPS)
        else:
            k = 0 if s.phase <= PH_DRAFT_PICK else s.round - 1 if s.phase == PH_STRIP else \
                s.nrounds if s.phase == PH_OVER else s.round
            order = list(range(min(k, GC_NSTRIPS)))
        memset(s.strip_order, 0, GC_NSTRIPS)
        for i, x in enumerate(order):
            s.strip_order[i] = read_int(x, "strip_order entry", 0, GC_NSTRIPS - 1)
        s.strips_revealed = len(order)

    def _read_emissaries(self, d):
        """emissaries (a seat or null per strip space), emissaries_placed."""
        cdef GCState *s = _st(self)
        if "emissaries" in d:
            em = read_list(d["emissaries"], "emissaries", GC_NSPACES)
            if len(em) != GC_NSPACES:
                fail("emissaries lists the five strip spaces")
            for k in range(GC_NSPACES):
                s.space_owner[k] = GC_NONE if em[k] is None else \
                    read_int(em[k], "emissaries entry", 0, s.nplayers - 1)
            s.place_idx = read_int(d.get("emissaries_placed", sum(e is not None for e in em)),
                                   "emissaries_placed", 0, GC_NSPACES)
        elif "emissaries_placed" in d:
            s.place_idx = read_int(d["emissaries_placed"], "emissaries_placed", 0, GC_NSPACES)
        s.draw_idx = read_int(d.get("draw_index", 0), "draw_index", 0, GC_MAXOFFER)

    def _read_turn(self, d):
        """turn {space, bricks, cogs, took, built, produced, selected}, school."""
        cdef GCState *s = _st(self)
        turn = read_dict(d.get("turn", {}), "turn", _TURN_KEYS)
        s.turn_space = read_int(turn.get("space", 0), "turn space", 0, GC_NSPACES - 1)
        s.bricks = read_int(turn.get("bricks", 0), "turn bricks", 0, GC_NSPACES)
        s.cogs = read_int(turn.get("cogs", 0), "turn cogs", 0, GC_NSPACES)
        s.flags = (F_TOOK * read_bool(turn.get("took", False), "turn took")) | \
                  (F_BUILT * read_bool(turn.get("built", False), "turn built")) | \
                  (F_PRODUCED * read_bool(turn.get("produced", False), "turn produced"))
        if turn.get("selected") is not None:
            s.sel_type = _type_id(turn["selected"], "turn selected")
        school = read_dict(d.get("school", {}), "school", ("deck", "draws_left"))
        s.school_deck = read_int(school.get("deck", 0), "school deck", 0, GC_NDECKS - 1)
        s.school_left = read_int(school.get("draws_left", 0), "school draws_left", 0, GC_MAXDRAWN)

    def _read_influence(self, d):
        """influence_cards [{value, holder}]."""
        cdef GCState *s = _st(self)
        if "influence_cards" not in d:
            return
        memset(s.infl, INFL_NONE, GC_NINFL)
        seen = set()
        for entry in read_list(d["influence_cards"], "influence_cards", GC_NINFL):
            entry = read_dict(entry, "influence card", ("value", "holder"))
            v = read_int(entry.get("value"), "influence card value", 0, 99)
            if v not in _data.INFLUENCE_VALUES or v in seen:
                fail(f"influence card value {v} is unknown or listed twice")
            seen.add(v)
            h = entry.get("holder", "unused")
            s.infl[_data.INFLUENCE_VALUES.index(v)] = (
                INFL_NONE if h == "unused" else INFL_IN_PLAY if h == "in play"
                else read_int(h, "influence card holder", 0, s.nplayers - 1))

    def _read_cities(self, d, claimed):
        """players: each seat's coins, influence and city; returns the player dicts."""
        cdef GCState *s = _st(self)
        cdef int n = s.nplayers, p, c
        players = [read_dict(pd, "player", _PLAYER_KEYS)
                   for pd in read_list(d.get("players", []), "players", n)]
        for p in range(n):
            if p >= len(players) or "city" not in players[p]:
                for c in range(GC_NCARDS):
                    if s.loc[c] == Z_CITY + p:
                        claimed.add(c)
        for p, pd in enumerate(players):
            s.coins[p] = read_int(pd.get("coins", s.coins[p]), "coins", 0, GC_MAXCOUNT)
            s.influence[p] = read_int(pd.get("influence", s.influence[p]), "influence", 0, GC_MAXCOUNT)
            if "city" not in pd:
                continue
            for c in range(GC_NCARDS):
                if s.loc[c] == Z_CITY + p:
                    s.loc[c] = Z_BOX
                    s.cell[c] = GC_NONE
            s.occ[p] = 0
            s.aq_rows[p] = 0
            s.aq_cols[p] = 0
            for entry in read_list(pd["city"], "city", 16):
                entry = read_dict(entry, "city entry", _CITY_KEYS)
                r = read_int(entry.get("row"), "city row", 0, 6)
                col = read_int(entry.get("col"), "city col", 0, 5)
                tok = read_int(entry.get("tokens", 0), "city tokens", 0, 5)
                c = self._claim({key: entry[key] for key in _CARD_KEYS if key in entry}, "city entry",
                                claimed, p)
                self._move(c, Z_CITY + p, _everyone(n))
                s.cell[c] = r * 8 + col
                s.occ[p] |= (<uint64_t>1) << (r * 8 + col)
                if _TYPES[_CARDS[c][0]].kind == _data.AQUEDUCT:
                    s.aq_rows[p] |= 1 << r
                    s.aq_cols[p] |= 1 << col
                if tok and gc_set_tokens(s, c, tok) < 0:
                    fail(f"city entry: {card_name(c)} cannot hold tokens")
        return players

    def _read_hands(self, players, claimed):
        """players: each seat's hand and draft_card."""
        cdef GCState *s = _st(self)
        for p, pd in enumerate(players):
            for entry in read_list(pd.get("hand", []), "hand", GC_NDECKCARDS):
                c = self._claim(entry, "hand entry", claimed)
                public = isinstance(entry, dict) and read_bool(entry.get("public", False), "hand public")
                self._move(c, Z_HAND + p, _everyone(s.nplayers) if public else 1 << p)
            if pd.get("draft_card") is not None:
                s.draft_card[p] = read_int(pd["draft_card"], "draft_card", 0, GC_NDECKCARDS - 1)

    def _read_offer(self, d, claimed):
        """offer: the cards on offer."""
        for entry in read_list(d.get("offer", []), "offer", GC_MAXOFFER):
            self._move(self._claim(entry, "offer entry", claimed), Z_OFFER,
                       _everyone(_st(self).nplayers))

    def _read_drawn(self, d, claimed):
        """drawn, and actor (by default the seat the phase names), who knows them."""
        cdef GCState *s = _st(self)
        cdef int n = s.nplayers
        drawn = sorted(self._claim(e, "drawn entry", claimed)
                       for e in read_list(d.get("drawn", []), "drawn", GC_MAXDRAWN))
        if "actor" in d:
            s.actor = read_int(d["actor"], "actor", 0, n - 1)
        elif s.phase == PH_DRAFT_PICK:
            s.actor = (s.first_player + len(drawn) + n - 1) % n
        elif s.phase == PH_EMISSARY:
            s.actor = (s.first_player + s.place_idx) % n
        elif PH_TAKE <= s.phase <= PH_SCHOOL_BOTTOM and s.space_owner[s.turn_space] != GC_NONE:
            s.actor = s.space_owner[s.turn_space]
        else:
            s.actor = s.first_player
        for c in drawn:
            self._move(c, Z_DRAWN, 1 << s.actor)
            s.drawn[s.drawn_n] = c
            s.drawn_n += 1

    def _read_box(self, d, claimed):
        """box: the cards out of the game; returns the list (None when not given)."""
        cdef GCState *s = _st(self)
        if "box" not in d:
            return None
        box = read_list(d["box"], "box", GC_NCARDS)
        for entry in box:
            c = self._claim(read_int(entry, "box entry", 0, GC_NCARDS - 1), "box entry", claimed)
            if s.loc[c] != Z_BOX:
                self._move(c, Z_BOX, _everyone(s.nplayers))
        return box

    def _read_bottoms(self, d, claimed):
        """decks: each deck's bottom cards, in order; returns the deck dicts."""
        cdef GCState *s = _st(self)
        decks = read_list(d.get("decks", []), "decks", GC_NDECKS)
        decks = [read_dict(deck, "deck", ("pool", "bottom")) for deck in decks]
        for dk, deck in enumerate(decks):
            for entry in read_list(deck.get("bottom", []), "deck bottom", GC_BOTTOM):
                c = self._claim(entry, "deck bottom entry", claimed, deck=dk)
                self._move(c, Z_BOTTOM + dk, 0)
                s.bot[dk][s.bot_n[dk]] = c
                s.bot_n[dk] += 1
        return decks

    def _check_listed(self, d, decks, box):
        """Zones listed in full (a deck's pool, the box) hold exactly what they list."""
        cdef GCState *s = _st(self)
        for dk, deck in enumerate(decks):
            if "pool" in deck:
                pool = read_list(deck["pool"], "deck pool", GC_NDECKCARDS)
                for x in pool:
                    read_int(x, "deck pool entry", 0, GC_NDECKCARDS - 1)
                if sorted(pool) != [c for c in range(GC_NDECKCARDS) if s.loc[c] == Z_POOL + dk]:
                    fail(f"deck {_DECKS[dk]} pool does not match the cards left in it")
        if box is not None and sorted(box) != [c for c in range(GC_NCARDS) if s.loc[c] == Z_BOX]:
            fail("box does not match the cards out of the game")

    def _read_known(self, d):
        """known: {card id: [seats]} for the face-down cards."""
        cdef GCState *s = _st(self)
        known = read_dict(d.get("known", {}), "known")
        if len(known) > GC_NCARDS:
            fail("known has more entries than cards")
        for key, who in known.items():
            if type(key) is str and key.isdigit() and len(key) <= 3:
                key = int(key)
            c = read_int(key, "known key", 0, GC_NCARDS - 1)
            mask = 0
            for q in read_list(who, "known entry", s.nplayers):
                mask |= 1 << read_int(q, "known seat", 0, s.nplayers - 1)
            s.known[c] = mask

    # -- observation ----------------------------------------------------------------------
    def _observation(self, int p):
        cdef GCState *s = _st(self)
        n = s.nplayers
        names = lambda cards: sorted(card_name(c) for c in cards)
        opponents = {}
        draft_group = []
        for q in range(n):
            if q == p:
                continue
            hand = self._hand(q)
            known = [c for c in hand if (s.known[c] >> p) & 1]
            in_group = [c for c in hand if c == s.draft_card[q] and q < p and not (s.known[c] >> p) & 1]
            draft_group += in_group
            hidden = {}
            for c in hand:
                if c not in known and c not in in_group:
                    hidden[_card_deck(c)] = hidden.get(_card_deck(c), 0) + 1
            opponents[str(q)] = {"size": len(hand), "known": names(known), "hidden_by_deck": hidden,
                                 "draft_cards_hidden": len(in_group)}
        if s.phase == PH_DRAFT_PICK and s.actor < p:
            draft_group += [s.drawn[i] for i in range(s.drawn_n) if not (s.known[s.drawn[i]] >> p) & 1]
        my_bottom = {}
        for dk in range(1, GC_NDECKS):
            cards = [s.bot[dk][i] for i in range(s.bot_n[dk])]
            my_bottom[_DECKS[dk]] = [card_name(c) if (s.known[c] >> p) & 1 else None for c in cards]
        drawn = [s.drawn[i] for i in range(s.drawn_n)]
        d = self._to_dict()
        obs = {
            "player": p,
            "round": s.round,
            "rounds": s.nrounds,
            "phase": d["phase"],
            "first_player": s.first_player,
            "current_player": self.current_player(),
            "strips": [_data.STRIP_FRONTS[k] for k in d["strip_order"]],
            "face": self._face() if PH_EMISSARY <= s.phase < PH_OVER else None,
            "emissaries": d["emissaries"],
            "turn": d["turn"] if PH_TAKE <= s.phase < PH_OVER else None,
            "coins": [s.coins[q] for q in range(n)],
            "influence": [s.influence[q] for q in range(n)],
            "influence_cards": d["influence_cards"],
            "cities": [[(e["building"], e["row"], e["col"], e.get("tokens", 0)) for e in pd["city"]]
                       for pd in d["players"]],
            "offer": [card_name(c) for c in self._offer()],
            "hand": names(self._hand(p)),
            "opponents": opponents,
            "draft_group": names(draft_group),
            "deck_sizes": {_DECKS[dk]: s.pool_n[dk] + s.bot_n[dk] for dk in range(GC_NDECKS)},
            "deck_bottoms": my_bottom,
            # the names p knows, sorted, then None per card p does not know (the cards'
            # slots follow card ids, which p cannot see for the hidden ones)
            "drawn": (names([c for c in drawn if (s.known[c] >> p) & 1])
                      + [None] * sum(1 for c in drawn if not (s.known[c] >> p) & 1)),
            "school": d["school"] if s.phase >= PH_SCHOOL_DECK and s.phase < PH_OVER else None,
            "scores": self.scores(),
        }
        return obs

    # -- drawing --------------------------------------------------------------------------
    def _render(self):
        return self._draw(-1)

    def _render_view(self, int p):
        return self._draw(p)

    def _draw(self, int viewer):
        """The drawing: what everyone sees (strip, offer, cities on (row, col) grids, counts),
        and for a viewer seat (>= 0) what that seat alone knows, taken from its
        observation so that the drawing never shows more than the observation does."""
        cdef GCState *s = _st(self)
        n = s.nplayers
        obs = self._observation(viewer) if viewer >= 0 else None
        mover = self.current_player()
        lines = [f"The Great City of Rome  round {s.round}/{s.nrounds}  phase {PHASES[s.phase]}"
                 + (f"  P{mover} to move" if mover >= 0 else "")
                 + f"  first player P{s.first_player} (*)"
                 + (f"  (view of P{viewer})" if viewer >= 0 else "")]
        if s.strips_revealed and s.phase < PH_OVER and s.phase >= PH_EMISSARY:
            face = self._face()
            spaces = []
            for k in range(GC_NSPACES):
                who = "" if s.space_owner[k] == GC_NONE else f"P{s.space_owner[k]}"
                spaces.append(f"{k + 1}:{face[k]}{('=' + who) if who else ''}")
            lines.append("strip  " + "  ".join(spaces))
        offer = self._offer()
        if offer:
            lines.append("offer  " + ", ".join(f"{card_name(c)} ({_card_deck(c)})" for c in offer))
        held = [f"{_data.INFLUENCE_VALUES[i]}" for i in range(GC_NINFL) if s.infl[i] == INFL_IN_PLAY]
        if held:
            lines.append("influence cards in play: " + ", ".join(held))
        scores = self.scores()
        for p in range(n):
            cards = [f"{_data.INFLUENCE_VALUES[i]}" for i in range(GC_NINFL) if s.infl[i] == p]
            mark = "*" if p == s.first_player else " "
            lines.append(f"{mark}P{p}: {s.coins[p]} coins, {s.influence[p]} influence"
                         + (f", influence cards {'+'.join(cards)}" if cards else "")
                         + f", hand {len(self._hand(p))}, score {scores[p]}")
            if obs is not None:
                lines.extend("    " + line for line in _hand_lines(obs, p))
            lines.extend("    " + row for row in self._city_rows(p))
        if obs is not None:
            lines.extend(_private_lines(obs))
        if s.phase == PH_OVER:
            lines.append("final: " + ", ".join(f"P{p} {scores[p]}" for p in range(n))
                         + "  winners: " + ", ".join(f"P{p}" for p in self.winners()))
        return "\n".join(lines)

    def _city_rows(self, int p):
        cdef GCState *s = _st(self)
        cells = {s.cell[c]: c for c in self._city(p)}
        rows = [cell >> 3 for cell in cells]
        cols = [cell & 7 for cell in cells]
        # Every cell the city may still grow onto: its 4x4 square can lie anywhere on the
        # 8x8 board that holds the buildings, so the grid spans (row, col) as actions name them.
        r0, r1 = max(0, max(rows) - 3), min(7, min(rows) + 3)
        c0, c1 = max(0, max(cols) - 3), min(7, min(cols) + 3)
        out = [" r\\c " + " ".join(f"{c:^5}" for c in range(c0, c1 + 1))]
        for r in range(r0, r1 + 1):
            row = []
            for col in range(c0, c1 + 1):
                c = cells.get(r * 8 + col)
                if c is None:
                    row.append("  .  ")
                else:
                    label = _TYPES[_CARDS[c][0]].short
                    tok = gc_tokens(s, c)
                    if tok:
                        label += str(tok)
                    row.append(f"{label:^5}")
            out.append(f"{r:>3}  " + " ".join(row))
        return out


def _hand_lines(obs, int q):
    """Seat q's hand as obs's player knows it: all of it for their own seat, else the
    cards known to them and the hidden ones counted by deck."""
    if q == obs["player"]:
        return ["hand: " + (", ".join(obs["hand"]) or "-")]
    o = obs["opponents"][str(q)]
    parts = list(o["known"])
    parts += [f"{k} hidden from deck {dk}" for dk, k in sorted(o["hidden_by_deck"].items())]
    if o["draft_cards_hidden"]:
        parts.append(f"{o['draft_cards_hidden']} from the draft group")
    return ["hand: " + ", ".join(parts)] if parts else []


def _private_lines(obs):
    """The rest of what obs's player alone knows: the draft group, the drawn cards, and
    the cards under each deck."""
    out = []
    if obs["draft_group"]:
        out.append("draft group (passed on): " + ", ".join(obs["draft_group"]))
    if obs["drawn"]:
        out.append("drawn: " + ", ".join(name or "?" for name in obs["drawn"]))
    for dk, cards in obs["deck_bottoms"].items():
        if cards:
            out.append(f"under deck {dk}: " + ", ".join(name or "?" for name in cards))
    return out
