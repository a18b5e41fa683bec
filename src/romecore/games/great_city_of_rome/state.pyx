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

from romecore.errors import SerializationError
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


def _type_id(name):
    if isinstance(name, int) and not isinstance(name, bool):
        if 0 <= name < GC_NTYPES:
            return name
        raise ValueError(f"building type {name} out of range")
    try:
        return _data.TYPE_ID[name]
    except KeyError:
        raise ValueError(f"unknown building {name!r}") from None


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
        cdef uint8_t buf[4]
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
            targets = gc_place_targets(s, p, s.sel_type)
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

    # -- scores ---------------------------------------------------------------------------
    def _scores(self):
        cdef int32_t out[SC_N]
        res = []
        for p in range(_st(self).nplayers):
            gc_score(_st(self), p, out)
            res.append(out[SC_TOTAL])
        return res

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
                "draft_card": None if s.draft_card[p] == 0xFF else s.draft_card[p],
            })
        return {
            "round": s.round,
            "phase": PHASES[s.phase],
            "first_player": s.first_player,
            "actor": s.actor,
            "strip_order": [s.strip_order[i] for i in range(s.strips_revealed)],
            "emissaries": [None if s.space_owner[k] == 0xFF else s.space_owner[k] for k in range(5)],
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
        docs.  Cards may be named by id or by building name (then a free card of that
        building is used)."""
        cdef GCState *s = _st(self)
        cdef int n = s.nplayers, p, c, i, k
        allp = (1 << n) - 1
        claimed = set()

        def claim(spec, owner=None):
            if isinstance(spec, dict):
                spec = spec.get("id", spec.get("building"))
            if isinstance(spec, int) and not isinstance(spec, bool):
                if not 0 <= spec < GC_NCARDS:
                    raise ValueError(f"card id {spec} out of range")
                if spec in claimed:
                    raise ValueError(f"card {spec} placed twice")
                claimed.add(spec)
                return spec
            t = _type_id(spec)
            prefer = []
            if owner is not None:
                prefer = [GC_NDECKCARDS + 2 * owner, GC_NDECKCARDS + 2 * owner + 1]
            for cand in prefer + list(range(GC_NDECKCARDS)):
                if cand not in claimed and _CARDS[cand][0] == t and (
                        cand >= GC_NDECKCARDS or s.loc[cand] < Z_OFFER):
                    claimed.add(cand)
                    return cand
            raise ValueError(f"no free {_TYPES[t].name} card left")

        def move(int card, int zone, int knowers):
            old = s.loc[card]
            if old < Z_BOTTOM:
                s.pool_n[old] -= 1
            s.loc[card] = zone
            s.known[card] = knowers
            s.cell[card] = 0xFF
            if zone < Z_BOTTOM:
                s.pool_n[zone] += 1

        for key in ("round", "first_player", "actor", "emissaries_placed", "draw_index"):
            if key in d and (not isinstance(d[key], int) or isinstance(d[key], bool)):
                raise ValueError(f"{key} must be an int")
        s.round = d.get("round", s.round)
        s.first_player = d.get("first_player", s.first_player)
        s.actor = d.get("actor", s.actor)
        phase = d.get("phase", "draft_deal")
        if phase not in PHASES:
            raise ValueError(f"unknown phase {phase!r} (phases: {', '.join(PHASES)})")
        s.phase = PHASES.index(phase)
        if "strip_order" in d:
            order = list(d["strip_order"])
        else:
            k = 0 if s.phase <= PH_DRAFT_PICK else s.round - 1 if s.phase == PH_STRIP else \
                s.nrounds if s.phase == PH_OVER else s.round
            order = list(range(min(k, 6)))
        if len(order) > 6:
            raise ValueError("strip_order has more than six strips")
        memset(s.strip_order, 0, 6)
        for i, k in enumerate(order):
            s.strip_order[i] = k
        s.strips_revealed = len(order)
        if "emissaries" in d:
            em = list(d["emissaries"])
            if len(em) != 5:
                raise ValueError("emissaries lists the five strip spaces")
            for k in range(5):
                s.space_owner[k] = 0xFF if em[k] is None else em[k]
            s.place_idx = d.get("emissaries_placed", sum(e is not None for e in em))
        s.draw_idx = d.get("draw_index", 0)
        turn = d.get("turn", {})
        s.turn_space = turn.get("space", 0)
        s.bricks = turn.get("bricks", 0)
        s.cogs = turn.get("cogs", 0)
        s.flags = (F_TOOK * bool(turn.get("took"))) | (F_BUILT * bool(turn.get("built"))) | \
                  (F_PRODUCED * bool(turn.get("produced")))
        if turn.get("selected") is not None:
            s.sel_type = _type_id(turn["selected"])
        school = d.get("school", {})
        s.school_deck = school.get("deck", 0)
        s.school_left = school.get("draws_left", 0)
        if "influence_cards" in d:
            memset(s.infl, INFL_NONE, GC_NINFL)
            for entry in d["influence_cards"]:
                i = _data.INFLUENCE_VALUES.index(entry["value"])
                h = entry.get("holder", "unused")
                s.infl[i] = INFL_NONE if h == "unused" else INFL_IN_PLAY if h == "in play" else h
        players = d.get("players", [])
        if len(players) > n:
            raise ValueError(f"{len(players)} players given for a {n}-player game")
        # Cities first (they may use the starting buildings), then hands and the rest.
        for p, pd in enumerate(players):
            if "coins" in pd:
                s.coins[p] = pd["coins"]
            if "influence" in pd:
                s.influence[p] = pd["influence"]
            if "city" in pd:
                for c in range(GC_NCARDS):
                    if s.loc[c] == Z_CITY + p:
                        s.loc[c] = Z_BOX
                        s.cell[c] = 0xFF
                s.occ[p] = 0
                s.aq_rows[p] = 0
                s.aq_cols[p] = 0
                for entry in pd["city"]:
                    c = claim(entry, p)
                    r, col = entry["row"], entry["col"]
                    if not (0 <= r <= 6 and 0 <= col <= 5):
                        raise ValueError(f"city cell ({r},{col}) is off the board (rows 0-6, cols 0-5)")
                    move(c, Z_CITY + p, allp)
                    s.cell[c] = r * 8 + col
                    s.occ[p] |= (<uint64_t>1) << (r * 8 + col)
                    if _TYPES[_CARDS[c][0]].kind == _data.AQUEDUCT:
                        s.aq_rows[p] |= 1 << r
                        s.aq_cols[p] |= 1 << col
                    tok = entry.get("tokens", 0)
                    if tok:
                        if not 0 <= tok <= 5:
                            raise ValueError("tokens out of range")
                        if gc_set_tokens(s, c, tok) < 0:
                            raise ValueError(f"{card_name(c)} cannot hold tokens")
            else:
                for c in range(GC_NCARDS):
                    if s.loc[c] == Z_CITY + p:
                        claimed.add(c)
        for p, pd in enumerate(players):
            for entry in pd.get("hand", []):
                c = claim(entry)
                move(c, Z_HAND + p, allp if entry_public(entry) else 1 << p)
            if pd.get("draft_card") is not None:
                s.draft_card[p] = pd["draft_card"]
        for entry in d.get("offer", []):
            move(claim(entry), Z_OFFER, allp)
        drawn = [claim(e) for e in d.get("drawn", [])]
        if len(drawn) > GC_MAXDRAWN:
            raise ValueError("too many drawn cards")
        for c in sorted(drawn):
            move(c, Z_DRAWN, 1 << s.actor)
            s.drawn[s.drawn_n] = c
            s.drawn_n += 1
        for c in d.get("box", []):
            if isinstance(c, int) and c < GC_NDECKCARDS and s.loc[c] < Z_OFFER:
                move(claim(c), Z_BOX, allp)
        if "decks" in d:
            for dk, deck in enumerate(d["decks"]):
                for c in deck.get("bottom", []):
                    c = claim(c)
                    if s.bot_n[dk] >= GC_BOTTOM:
                        raise ValueError("deck bottom too long")
                    move(c, Z_BOTTOM + dk, 0)
                    s.bot[dk][s.bot_n[dk]] = c
                    s.bot_n[dk] += 1
        for key, who in d.get("known", {}).items():
            c = int(key)
            if not 0 <= c < GC_NCARDS:
                raise ValueError(f"known: card {c} out of range")
            mask = 0
            for q in who:
                if not 0 <= q < n:
                    raise ValueError(f"known: player {q} out of range")
                mask |= 1 << q
            s.known[c] = mask

    # -- observation ----------------------------------------------------------------------
    def _observation(self, int p):
        cdef GCState *s = _st(self)
        n = s.nplayers
        pbit = 1 << p
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
            "drawn": ([card_name(s.drawn[i]) if (s.known[s.drawn[i]] >> p) & 1 else None
                       for i in range(s.drawn_n)]),
            "school": d["school"] if s.phase >= PH_SCHOOL_DECK and s.phase < PH_OVER else None,
            "scores": self._scores(),
        }
        return obs

    # -- drawing --------------------------------------------------------------------------
    def _render(self):
        cdef GCState *s = _st(self)
        n = s.nplayers
        lines = [f"The Great City of Rome  round {s.round}/{s.nrounds}  phase {PHASES[s.phase]}"]
        if s.strips_revealed and s.phase < PH_OVER and s.phase >= PH_EMISSARY:
            face = self._face()
            spaces = []
            for k in range(5):
                who = "" if s.space_owner[k] == 0xFF else f"P{s.space_owner[k]}"
                spaces.append(f"{k + 1}:{face[k]}{('=' + who) if who else ''}")
            lines.append("strip  " + "  ".join(spaces))
        offer = self._offer()
        if offer:
            lines.append("offer  " + ", ".join(f"{card_name(c)} ({_card_deck(c)})" for c in offer))
        held = [f"{_data.INFLUENCE_VALUES[i]}" for i in range(GC_NINFL) if s.infl[i] == INFL_IN_PLAY]
        if held:
            lines.append("influence cards in play: " + ", ".join(held))
        scores = self._scores()
        for p in range(n):
            cards = [f"{_data.INFLUENCE_VALUES[i]}" for i in range(GC_NINFL) if s.infl[i] == p]
            mark = "*" if p == s.first_player else " "
            lines.append(f"{mark}P{p}: {s.coins[p]} coins, {s.influence[p]} influence"
                         + (f", influence cards {'+'.join(cards)}" if cards else "")
                         + f", hand {len(self._hand(p))}, score {scores[p]}")
            lines.extend("    " + row for row in self._city_rows(p))
        if s.phase == PH_OVER:
            lines.append("final: " + ", ".join(f"P{p} {scores[p]}" for p in range(n))
                         + "  winners: " + ", ".join(f"P{p}" for p in self.winners()))
        return "\n".join(lines)

    def _city_rows(self, int p):
        cdef GCState *s = _st(self)
        cells = {s.cell[c]: c for c in self._city(p)}
        rows = [cell >> 3 for cell in cells]
        cols = [cell & 7 for cell in cells]
        r0 = min(min(rows), 3)  # a 4x4 window on the board (rows 0-6, cols 0-5)
        c0 = min(min(cols), 2)
        out = ["     " + " ".join(f"{c:^5}" for c in range(c0, c0 + 4))]
        for r in range(r0, r0 + 4):
            row = []
            for col in range(c0, c0 + 4):
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


def entry_public(entry):
    return isinstance(entry, dict) and bool(entry.get("public"))
