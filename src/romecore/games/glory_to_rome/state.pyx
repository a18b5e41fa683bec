# cython: language_level=3
"""The readable side of Glory to Rome: action names, the dict form, one player's
observation, score breakdowns and a text drawing.  See ``romecore.games.glory_to_rome``
for the dict schema and the action encoding."""
from libc.stdint cimport int32_t, uint64_t

from romecore.core.state cimport State, Game
from romecore.games.glory_to_rome.kernel cimport *

from romecore.core.dictread import (fail, read_bool, read_dict, read_int, read_list, read_name,
                                    show)
from romecore.errors import SerializationError
from romecore.games.glory_to_rome import data as _data

PHASES = ("setup", "lead", "follow", "petition", "palace", "think", "draw", "act", "act_draw",
          "legion", "give", "coliseum", "senate", "sewer", "eot", "over")
STAGES = ("main", "target", "dock", "basilica", "bar", "aqueduct", "stairway", "stairway_target")
SOURCES = ("hand", "stockpile", "pool", "drawn")
DRAWS = ("Fountain", "Atrium", "Bar")
RETURNS = ("lead", "follow", "academy", "frame")
MATERIALS = tuple(m.name for m in _data.MATERIALS)
ROLES = tuple(m.role for m in _data.MATERIALS)
FRAME_ROLES = ROLES + ("Thinker", "Prison")
BUILDINGS = tuple(b.name for b in _data.BUILDINGS)
_CARDS = _data.card_table()
SCORE_CATEGORIES = ("influence", "vault", "merchant_bonus", "statue", "wall")


def card_name(int c):
    return BUILDINGS[_CARDS[c]]


def card_material(int c):
    return MATERIALS[_data.BUILDINGS[_CARDS[c]].material]


def _a(word):
    return ("an " if word[0] in "AEIOU" else "a ") + word


def _opt_dict(d, key):
    """The dict at ``key`` ({} when absent or None)."""
    v = d.get(key)
    return {} if v is None else read_dict(v, key)


def _opt_list(d, key, int max_len):
    """The list at ``key`` ([] when absent or None)."""
    v = d.get(key)
    return [] if v is None else read_list(v, key, max_len)


def _seat_mask(x, what, int n):
    """A list of seats 0..n-1 as a bit mask (a seat listed twice is one seat)."""
    m = 0
    for q in read_list(x, what, GR_U8_MAX):
        m |= 1 << read_int(q, what, 0, n - 1)
    return m


def _name_or_index(x, names, what):
    """The index of a name in `names` (an int index also works)."""
    if type(x) is int:
        return read_int(x, what, 0, len(names) - 1)
    return read_name(x, names, what)


def _material_id(x, what):
    """A material by id, material name or role name."""
    if type(x) is str:
        if x in _data.MATERIAL_ID:
            return _data.MATERIAL_ID[x]
        if x in _data.ROLE_ID:
            return _data.ROLE_ID[x]
    elif type(x) is int and 0 <= x < GR_NMAT:
        return x
    fail(f"{what}: unknown material or role {show(x)}")


def _counts(d, key):
    """{material or role: n} as six counts."""
    out = [0] * GR_NMAT
    for k, v in _opt_dict(d, key).items():
        out[_material_id(k, key)] = read_int(v, key, 0, GR_U8_MAX)
    return out


def _player_list(mask, n):
    return [p for p in range(n) if (mask >> p) & 1]


# ---------------------------------------------------------------------------------------
# The dict loader's readers, one per section of the dict (GloryToRomeState._load_dict)

def _card_specs(src, key, int zone, list requests):
    """Queues the cards listed at ``key`` for ``zone``: ids, or names of a kind."""
    for spec in _opt_list(src, key, GR_NCARDS):
        if type(spec) is int:
            read_int(spec, key + " card id", 0, GR_NCARDS - 1)
        elif type(spec) is not str:
            fail(f"{key}: a card is an id or a name, got {show(spec)}")
        requests.append((zone, spec))


def _read_cards(dict d, players, structs):
    """Every card's zone, {card: zone}: named ids first, then cards named by building,
    then by material or role, each an unplaced card of that kind."""
    cdef int p, k
    requests = []   # (zone, spec)
    for p, pd in enumerate(players):
        _card_specs(pd, "hand", Z_HAND + p, requests)
        _card_specs(pd, "stockpile", Z_STOCK + p, requests)
        _card_specs(pd, "vault", Z_VAULT + p, requests)
        _card_specs(pd, "clientele", Z_CLIENT + p, requests)
        _card_specs(pd, "camp", Z_CAMP + p, requests)
    _card_specs(d, "pool", Z_POOL, requests)
    _card_specs(d, "drawn", Z_DRAWN, requests)
    for k, sd in enumerate(structs):
        read_dict(sd, "each structure")
        spec = sd.get("card", sd.get("building"))
        if type(spec) is int:
            read_int(spec, "structure card id", 0, GR_NCARDS - 1)
        elif type(spec) is not str:
            fail(f"structure {k} names no card")
        requests.append((Z_FOUND + k, spec))
        _card_specs(sd, "materials", Z_MAT + k, requests)
    deck_given = "deck" in d
    if deck_given:
        _card_specs(d, "deck", Z_DECK, requests)
    placed = {}
    reserved = {spec for _, spec in requests if type(spec) is int}

    def resolve(spec):
        if type(spec) is int:
            if spec in placed:
                fail(f"card {spec} placed twice")
            return spec
        if spec in _data.BUILDING_ID:
            b = _data.BUILDING_ID[spec]
            ids = [c for c in range(GR_NCARDS) if _CARDS[c] == b]
        else:
            m = _material_id(spec, "card")
            ids = range(GR_PER_MAT * m, GR_PER_MAT * (m + 1))
        for c in ids:
            if c not in placed and c not in reserved:
                return c
        fail(f"no unplaced {spec} card left")

    order = sorted(range(len(requests)), key=lambda i: (
        0 if type(requests[i][1]) is int else 1 if requests[i][1] in _data.BUILDING_ID else 2, i))
    for i in order:
        zone, spec = requests[i]
        c = resolve(spec)
        reserved.discard(c)
        placed[c] = zone
    if deck_given and len(placed) != GR_NCARDS:
        missing = [c for c in range(GR_NCARDS) if c not in placed]
        fail(f"cards {missing[:8]} are in no zone")
    return placed


cdef int _read_structures(GRState *s, structs, dict placed) except -1:
    """Each structure's card, owner, site and flags (the cards are placed already)."""
    cdef int n = s.nplayers, k, c, site
    s.nstruct = len(structs)
    for k, sd in enumerate(structs):
        c = [x for x, z in placed.items() if z == Z_FOUND + k][0]
        s.st_card[k] = c
        s.st_owner[k] = read_int(sd.get("owner", 0), "structure owner", 0, n - 1)
        site = _material_id(sd.get("site", _data.BUILDINGS[_CARDS[c]].material), "structure site")
        s.st_site[k] = site
        f = (SF_OUT if read_bool(sd.get("out_of_town", False), "out_of_town") else 0) \
            | (SF_DONE if read_bool(sd.get("complete", False), "complete") else 0) \
            | (SF_PUBLIC if read_bool(sd.get("public", False), "public") else 0)
        if any(placed.get(x) == Z_MAT + k and x // GR_PER_MAT == M_MARBLE for x in placed):
            f |= SF_MARBLE
        s.st_flags[k] = f
        s.st_holder[k] = read_int(sd.get("site_holder", s.st_owner[k]), "site_holder", 0, n - 1)
    return 0


cdef int _read_sites(GRState *s, dict sites) except -1:
    """Sites left in and out of town (default: all those no structure uses)."""
    cdef int n = s.nplayers, k, m
    used_in = [0] * GR_NMAT
    used_out = [0] * GR_NMAT
    for k in range(s.nstruct):
        (used_out if s.st_flags[k] & SF_OUT else used_in)[s.st_site[k]] += 1
    in_town, out_town = _opt_dict(sites, "in_town"), _opt_dict(sites, "out_of_town")
    for m in range(GR_NMAT):
        s.in_town[m] = read_int(in_town.get(MATERIALS[m], n - used_in[m]), "in-town sites",
                                0, _data.SITES_PER_MATERIAL)
        s.out_town[m] = read_int(out_town.get(MATERIALS[m], _data.SITES_PER_MATERIAL - n - used_out[m]),
                                 "out-of-town sites", 0, _data.SITES_PER_MATERIAL)
    return 0


cdef int _read_players(GRState *s, players, dict d) except -1:
    """Each seat's Jacks, plays this turn, new clients and set-up rank; the Jack pile
    (default: the Jacks nobody holds or played)."""
    cdef int n = s.nplayers, p, m, total_jacks = 0
    for p, pd in enumerate(players):
        s.jacks[p] = read_int(pd.get("jacks", 0), "jacks", 0, GR_NJACKS)
        s.jplayed[p] = read_int(pd.get("jacks_played", 0), "jacks_played", 0, GR_NJACKS)
        s.units[p] = read_int(pd.get("units", 0), "units", 0, GR_U8_MAX)
        s.setup_rank[p] = read_int(pd.get("setup_rank", 0), "setup_rank", 0, GR_NBUILD - 1)
        for m, v in enumerate(_counts(pd, "new_clients")):
            s.fresh[p][m] = v
        total_jacks += s.jacks[p] + s.jplayed[p]
    for p in range(len(players), n):
        s.jacks[p] = 0
    s.jpile = read_int(d.get("jack_pile", max(0, GR_NJACKS - total_jacks)), "jack_pile", 0, GR_NJACKS)
    return 0


cdef int _read_phase(GRState *s, dict d) except -1:
    """The phase, the steps taken, the leader and the led role."""
    s.phase = read_name(d.get("phase", "lead"), PHASES, "phase")
    s.steps = read_int(d.get("steps", 0), "steps", 0, GR_STEPS_MAX)
    s.leader = read_int(d.get("leader", 0), "leader", 0, s.nplayers - 1)
    role = d.get("role")
    s.role = GR_NONE if role is None else _material_id(role, "role")
    return 0


cdef int _read_turn(GRState *s, dict t) except -1:
    """The turn's counters, the think and petition in progress, the selected card."""
    cdef int n = s.nplayers
    s.follow_i = read_int(t.get("follow_index", 0), "follow_index", 0, n - 1)
    s.act_i = read_int(t.get("act_index", 0), "act_index", 0, n - 1)
    s.eot_step = read_int(t.get("eot_step", 0), "eot_step", 0, EOT_ACADEMY)
    s.eot_i = read_int(t.get("eot_index", 0), "eot_index", 0, n)
    s.did_craft = _seat_mask(t.get("did_craft", []), "did_craft", n)
    s.think_ret = _name_or_index(t.get("think_return", "lead"), RETURNS, "think_return")
    s.think_used = read_bool(t.get("think_used", False), "think_used")
    s.draw_left = read_int(t.get("draw_left", 0), "draw_left", 0, GR_U8_MAX)
    pet = _opt_dict(t, "petition")
    s.pet_mat = _material_id(pet.get("material", 0), "petition material")
    s.pet_left = read_int(pet.get("left", 0), "petition left", 0, _data.PETITION_CARDS)
    s.pet_last = read_int(pet.get("last", 0), "petition last", 0, GR_NBUILD - 1)
    s.last_unit = read_int(t.get("last_unit", 0), "last_unit", 0, A_THINK - 1)
    sel = _opt_dict(t, "selected")
    s.sel_card = read_int(sel.get("card", 0), "selected card", 0, GR_NCARDS - 1)
    s.sel_src = _name_or_index(sel.get("from", "hand"), SOURCES, "selected from")
    s.xdraw = _name_or_index(t.get("draw", "Fountain"), DRAWS, "draw")
    s.eot_last = read_int(t.get("eot_last", 0), "eot_last", 0, GR_NMAT - 1)
    return 0


cdef int _read_legionary(GRState *s, dict lg) except -1:
    """The demands being made and how far they have resolved."""
    cdef int m
    for m, v in enumerate(_counts(lg, "demands")):
        s.dem[m] = v
    s.leg_stage = read_int(lg.get("stage", 0), "legionary stage", 0, LEG_COLISEUM)
    s.leg_v = read_int(lg.get("victim_offset", 0), "victim_offset", 0, s.nplayers - 1)
    s.leg_m = read_int(lg.get("material", 0), "legionary material", 0, GR_NMAT)
    s.give_left = read_int(lg.get("give_left", 0), "give_left", 0, GR_U8_MAX)
    for m, v in enumerate(_counts(lg, "coliseum_taken")):
        s.col_taken[m] = v
    s.leg_last = read_int(lg.get("last", 0), "last", 0, GR_NBUILD - 1)
    return 0


cdef int _read_setup(GRState *s, dict d) except -1:
    """The deal so far, the tie-break, and who won by the Forum."""
    cdef int n = s.nplayers
    su = _opt_dict(d, "setup")
    s.setup_i = read_int(su.get("dealt", 0), "setup dealt", 0, GR_U8_MAX)
    s.tie_mask = _seat_mask(su.get("tie", []), "tie", n)
    s.tie_dealt = _seat_mask(su.get("tie_dealt", []), "tie_dealt", n)
    s.forum_win = _seat_mask(d.get("forum_winners", []), "forum_winners", n)
    return 0


cdef int _read_frames(GRState *s, dict d) except -1:
    """The action frames, bottom first (default: the led role's turn in the act phases)."""
    cdef int k, r
    if d.get("frames") is None:
        frames = ([{"role": ROLES[s.role], "base": True}]
                  if s.phase in (PH_ACT, PH_ACT_DRAW) and s.role < GR_NMAT else [])
    else:
        frames = read_list(d["frames"], "frames", GR_MAXF)
    for k, fd in enumerate(frames):
        read_dict(fd, "each frame")
        r = _name_or_index(fd.get("role", "Laborer"), FRAME_ROLES, "frame role")
        base = read_bool(fd.get("base", k == 0), "frame base")
        s.fr_role[k] = r | (FR_BASE if base else 0)
        s.fr_stage[k] = _name_or_index(fd.get("stage", "main"), STAGES, "frame stage")
        s.fr_n[k] = read_int(fd.get("n", 0), "frame n", 0, GR_U8_MAX)
    s.nframes = len(frames)
    return 0


cdef int _read_actor(GRState *s, dict d) except -1:
    """The player to decide (default: as the phase says)."""
    cdef int n = s.nplayers
    if "actor" in d:
        s.actor = read_int(d["actor"], "actor", 0, n - 1)
    elif s.phase == PH_LEAD:
        s.actor = s.leader
    elif s.phase in (PH_ACT, PH_ACT_DRAW):
        s.actor = (s.leader + s.act_i) % n
    elif s.phase in (PH_FOLLOW, PH_PETITION, PH_PALACE):
        s.actor = (s.leader + s.follow_i) % n
    return 0


cdef int _read_known(GRState *s, dict d) except -1:
    """Who knows each card where it differs from the zone's default, and the cards
    revealed as demands (known[] holds the defaults already)."""
    cdef int c
    for key, who in _opt_dict(d, "known").items():
        if type(key) is str and key.isdigit() and len(key) <= 3:
            key = int(key)
        c = read_int(key, "known card id", 0, GR_NCARDS - 1)
        if type(who) is not list and type(who) is not tuple:
            fail(f"known: card {c} maps to a list of players, got {show(who)}")
        s.known[c] = _seat_mask(who, "known", s.nplayers)
    for x in _opt_list(d, "revealed", GR_NCARDS):
        s.known[read_int(x, "revealed card", 0, GR_NCARDS - 1)] |= KN_REVEALED
    return 0


cdef inline GRState *_st(State st):
    return <GRState *>st.s


cdef class GloryToRomeState(State):
    """A state of Glory to Rome (see :class:`romecore.State` for the API)."""

    def _check_struct(self):
        """The kernel's check, and the struct's Training Game flag against the game's
        option (a relabelled snapshot would play and score by the wrong rules)."""
        State._check_struct(self)
        if _st(self).training != (<Game>self.game).params[1]:
            raise SerializationError(
                f"glory_to_rome state has training={bool(_st(self).training)}; the options "
                f"say training={self.game.options['training']}")

    # -- reading helpers ------------------------------------------------------------------
    def _zone(self, int z):
        cdef GRState *s = _st(self)
        return [c for c in range(GR_NCARDS) if s.loc[c] == z]

    def _top(self):
        cdef GRState *s = _st(self)
        if s.nframes == 0:
            return None, None
        k = s.nframes - 1
        return s.fr_role[k] & FR_ROLE, s.fr_stage[k]

    def _actp(self):
        cdef GRState *s = _st(self)
        return (s.leader + s.act_i) % s.nplayers

    def _slot_name(self, int k):
        cdef GRState *s = _st(self)
        if k >= s.nstruct:
            return f"structure {k}"
        return f"player {s.st_owner[k]}'s {card_name(s.st_card[k])}"

    # -- names ----------------------------------------------------------------------------
    def _action_to_string(self, int a):
        cdef GRState *s = _st(self)
        cdef int ph = s.phase, p = s.actor
        if CH_CARD <= a < GR_NUM_ACTIONS:
            name = BUILDINGS[a - CH_CARD]
            if ph == PH_SETUP:
                if s.setup_i < _data.START_HAND * s.nplayers:
                    return f"deal {name} to player {s.setup_i % s.nplayers}"
                return f"deal {name} to the pool"
            if ph == PH_DRAW:
                return f"player {p} draws {name}"
            if ph == PH_ACT_DRAW:
                x = s.xdraw
                if x == X_FOUNTAIN:
                    return f"Fountain draws {name}"
                if x == X_ATRIUM:
                    return f"Atrium puts {name} into the vault"
                return f"Bar draws {name} as a client"
            return f"draw {name}"
        if ph in (PH_LEAD, PH_FOLLOW, PH_PALACE):
            return self._unit_name(a)
        if ph == PH_PETITION:
            if a < A_JACK:
                return f"petition with {BUILDINGS[a]}"
        elif ph == PH_THINK:
            if a < A_JACK:
                return f"Latrine: discard {BUILDINGS[a]}"
            if a == A_THINK_JACK:
                return "take a Jack"
            if a == A_THINK_DRAW:
                h = gr_hand_size(s, p)
                lim = gr_hand_limit(s, p)
                k = lim - h if h < lim else 1
                return f"draw {k} card{'s' if k != 1 else ''}"
            if a == A_VOMIT:
                return "Vomitorium: discard the whole hand"
            if a == A_DONE:
                return "decline the Thinker action"
        elif ph == PH_ACT:
            return self._act_name(a)
        elif ph == PH_GIVE:
            if a < A_JACK:
                return f"give {BUILDINGS[a]} to player {self._actp()}"
        elif ph == PH_COLISEUM:
            q = (self._actp() + s.leg_v) % s.nplayers
            if A_COLISEUM <= a < A_SEWER:
                return f"Coliseum: slay player {q}'s {ROLES[a - A_COLISEUM]} client"
            if a == A_DONE:
                return f"Coliseum: spare player {q}'s other clients"
        elif ph == PH_SENATE:
            if A_SENATE <= a < A_COLISEUM:
                return f"Senate: take the Jack player {(p + a - A_SENATE + 1) % s.nplayers} played"
            if a == A_DONE:
                return "Senate: take no more Jacks"
        elif ph == PH_SEWER:
            if A_SEWER <= a < A_DONE:
                return f"Sewer: put the played {MATERIALS[a - A_SEWER]} into the stockpile"
            if a == A_DONE:
                return "Sewer: done"
        return self._generic_name(a)

    def _unit_name(self, int a):
        cdef GRState *s = _st(self)
        cdef int ph = s.phase
        verb = "lead" if ph == PH_LEAD else "follow" if ph == PH_FOLLOW else "also play for"
        if a < A_JACK:
            return f"{verb} {ROLES[_data.BUILDINGS[a].material]} with {BUILDINGS[a]}"
        if a < A_PETITION:
            return f"{verb} {ROLES[a - A_JACK]} with Jack"
        if a < A_THINK:
            r, m = divmod(a - A_PETITION, GR_NMAT)
            k = _data.CIRCUS_PETITION_CARDS if (s.func[s.actor] >> B_CIRCUS) & 1 else _data.PETITION_CARDS
            return f"{verb} {ROLES[r]} with a petition of {k} {MATERIALS[m]}"
        if a == A_THINK:
            return "think"
        if a == A_DONE:
            return "play no more cards"
        return self._generic_name(a)

    def _act_name(self, int a):
        cdef GRState *s = _st(self)
        r, st = self._top()
        if r is None:
            return self._generic_name(a)
        role = FRAME_ROLES[r]
        if r == R_PRISON:
            if A_STRUCT <= a < A_TO_HAND:
                return f"Prison: steal {self._slot_name(a - A_STRUCT)}"
            if a == A_DONE:
                return "Prison: steal nothing"
            return self._generic_name(a)
        if st == ST_TARGET:
            c = s.sel_card
            name, mat = card_name(c), card_material(c)
            src = SOURCES[s.sel_src] if s.sel_src <= SRC_DRAWN else "?"
            if A_FOUND_IN <= a < A_FOUND_OUT:
                return f"lay {name} on a {MATERIALS[a - A_FOUND_IN]} site in town"
            if A_FOUND_OUT <= a < A_STRUCT:
                return f"lay {name} on a {MATERIALS[a - A_FOUND_OUT]} site out of town"
            if A_STRUCT <= a < A_TO_HAND:
                k = a - A_STRUCT
                target = card_name(s.st_card[k]) if k < s.nstruct else f"structure {k}"
                where = "Fountain draw" if src == "drawn" else src
                return f"add {mat} from {where} to {target}"
            if a == A_TO_HAND:
                return f"keep {name} in hand"
            return self._generic_name(a)
        if st in (ST_STAIR, ST_STAIR_TARGET):
            if A_POOL <= a < A_STOCK:
                return f"Stairway: use {MATERIALS[a - A_POOL]} from the pool"
            if A_STOCK <= a < A_DECK:
                return f"Stairway: use {MATERIALS[a - A_STOCK]} from the stockpile"
            if A_STRUCT <= a < A_TO_HAND:
                return (f"Stairway: add {card_material(s.sel_card)} to {self._slot_name(a - A_STRUCT)}, "
                        f"making it public")
            if a == A_DONE:
                return "no Stairway action"
            return self._generic_name(a)
        also = "also " if st != ST_MAIN else ""
        if r == R_LABORER:
            if a < A_JACK:
                return f"Dock: {also}put {BUILDINGS[a]} from hand into the stockpile"
            if A_POOL <= a < A_STOCK:
                return f"Laborer: take {MATERIALS[a - A_POOL]} from the pool"
        elif r == R_CRAFTSMAN:
            if a < A_JACK:
                return f"Craftsman: use {BUILDINGS[a]} from hand"
            if a == A_DECK:
                return "Fountain: draw a card"
        elif r == R_ARCHITECT:
            if a < A_JACK:
                return f"Architect: lay {BUILDINGS[a]} from hand"
            if A_POOL <= a < A_STOCK:
                return f"Archway: use {MATERIALS[a - A_POOL]} from the pool"
            if A_STOCK <= a < A_DECK:
                return f"Architect: use {MATERIALS[a - A_STOCK]} from the stockpile"
        elif r == R_MERCHANT:
            if a < A_JACK:
                return f"Basilica: {also}put {BUILDINGS[a]} from hand into the vault"
            if A_STOCK <= a < A_DECK:
                return f"Merchant: sell {MATERIALS[a - A_STOCK]} from the stockpile into the vault"
            if a == A_DECK:
                return "Atrium: put a card from the draw pile into the vault"
        elif r == R_LEGIONARY:
            if a < A_JACK:
                return f"Legionary: demand {MATERIALS[_data.BUILDINGS[a].material]} (reveal {BUILDINGS[a]})"
            if a == A_DONE:
                n = sum(s.dem[m] for m in range(GR_NMAT))
                return "Rome demands!" if n else "decline the Legionary action"
        elif r == R_PATRON:
            if a < A_JACK:
                return f"Aqueduct: {also}hire {BUILDINGS[a]} ({ROLES[_data.BUILDINGS[a].material]}) from hand"
            if A_POOL <= a < A_STOCK:
                return f"Patron: hire {_a(ROLES[a - A_POOL])} from the pool"
            if a == A_DECK:
                return f"Bar: {also}hire a client from the draw pile"
        if a == A_DONE:
            return f"decline the {role} action" if st == ST_MAIN else "no more this action"
        return self._generic_name(a)

    def _generic_name(self, int a):
        if a < A_JACK:
            return f"card {BUILDINGS[a]}"
        if a < A_PETITION:
            return f"Jack as {ROLES[a - A_JACK]}"
        if a < A_THINK:
            r, m = divmod(a - A_PETITION, GR_NMAT)
            return f"petition {MATERIALS[m]} as {ROLES[r]}"
        names = {A_THINK: "think", A_THINK_JACK: "take a Jack", A_THINK_DRAW: "draw cards",
                 A_VOMIT: "Vomitorium", A_DECK: "from the draw pile", A_TO_HAND: "to hand",
                 A_DONE: "done"}
        if a in names:
            return names[a]
        if A_POOL <= a < A_STOCK:
            return f"{MATERIALS[a - A_POOL]} from the pool"
        if A_STOCK <= a < A_DECK:
            return f"{MATERIALS[a - A_STOCK]} from the stockpile"
        if A_FOUND_IN <= a < A_FOUND_OUT:
            return f"{MATERIALS[a - A_FOUND_IN]} site in town"
        if A_FOUND_OUT <= a < A_STRUCT:
            return f"{MATERIALS[a - A_FOUND_OUT]} site out of town"
        if A_STRUCT <= a < A_TO_HAND:
            return f"structure {a - A_STRUCT}"
        if A_SENATE <= a < A_COLISEUM:
            return f"Senate: Jack of the player {a - A_SENATE + 1} to the left"
        if A_COLISEUM <= a < A_SEWER:
            return f"Coliseum: {ROLES[a - A_COLISEUM]} client"
        if A_SEWER <= a < A_DONE:
            return f"Sewer: {MATERIALS[a - A_SEWER]}"
        return f"draw {BUILDINGS[a - CH_CARD]}"

    def _why_illegal(self, int a):
        cdef GRState *s = _st(self)
        cdef int ph = s.phase, p = s.actor
        if ph in (PH_SETUP, PH_DRAW, PH_ACT_DRAW):
            return "this is a chance node: apply one of chance_outcomes()"
        if ph in (PH_LEAD, PH_FOLLOW, PH_PALACE, PH_PETITION, PH_THINK, PH_GIVE) and a < A_JACK:
            if not any(s.loc[c] == Z_HAND + p for c in range(GR_NCARDS) if _CARDS[c] == a):
                return f"player {p} holds no {BUILDINGS[a]}"
            if ph == PH_FOLLOW and _data.BUILDINGS[a].material != s.role:
                return f"{BUILDINGS[a]} is not a {ROLES[s.role]} card"
        if ph in (PH_LEAD, PH_FOLLOW, PH_PALACE) and A_JACK <= a < A_PETITION and s.jacks[p] == 0:
            return f"player {p} holds no Jack"
        if ph in (PH_LEAD, PH_FOLLOW, PH_PALACE) and A_PETITION <= a < A_THINK:
            return "a petition needs 3 cards of one role (2 with a Circus), and follows the led role"
        if ph == PH_ACT:
            r, st = self._top()
            if st == ST_TARGET and A_FOUND_IN <= a < A_STRUCT:
                return ("no such site is left, the player already has that building, or an out-of-town "
                        "site needs two actions (one with a Tower)")
            if st == ST_TARGET and A_STRUCT <= a < A_TO_HAND:
                return "that structure is not the player's, is finished, or does not take this material"
            if r == R_MERCHANT and gr_vault_cap(s, p) <= sum(s.cnt[Z_VAULT + p][m] for m in range(GR_NMAT)):
                return "the vault is full (its size is the Influence, +2 with a Market)"
            if r == R_PATRON and gr_client_cap(s, p) <= sum(s.cnt[Z_CLIENT + p][m] for m in range(GR_NMAT)):
                return "the clientele is full (its size is the Influence; Insula +2, Aqueduct x2)"
            if A_POOL <= a < A_STOCK:
                return "no such card in the pool, or no use for it (Archway lets an Architect use the pool)"
            if A_STOCK <= a < A_DECK:
                return "no such material in the stockpile, or nowhere to put it"
            if a == A_DECK:
                return "drawing here needs a Fountain (Craftsman), Atrium (Merchant) or Bar (Patron)"
            if a < A_JACK:
                return "that hand card has no use in this action (Dock, Basilica, Aqueduct add hand uses)"
        return f"it is not one of the legal actions in the {PHASES[ph]} phase"

    # -- public helpers -------------------------------------------------------------------
    def limits(self, player):
        """Player's current limits: hand size (Jacks count), clientele and vault."""
        cdef int p = self._player_arg(player)
        cdef GRState *s = _st(self)
        return {"hand": gr_hand_limit(s, p), "clientele": gr_client_cap(s, p), "vault": gr_vault_cap(s, p)}

    def functions(self, player):
        """Names of the buildings whose functions the player has now (own completed
        structures, Gate's Marble foundations, public structures), in id order."""
        cdef int p = self._player_arg(player)
        cdef uint64_t f = _st(self).func[p]
        return [BUILDINGS[b] for b in range(GR_NBUILD) if (f >> b) & 1]

    def influence(self, player):
        return _st(self).infl[self._player_arg(player)]

    def actions_left(self):
        """Actions left in the frame being executed (the current one included), or 0."""
        cdef GRState *s = _st(self)
        if s.phase != PH_ACT:
            return 0
        return gr_acts_left(s)

    # -- scores ---------------------------------------------------------------------------
    def _score_breakdown(self, int p):
        cdef int32_t out[SC_N]
        gr_score(_st(self), p, out)
        d = {name: out[i] for i, name in enumerate(SCORE_CATEGORIES)}
        d["hand"] = gr_hand_size(_st(self), p)
        d["total"] = out[SC_TOTAL]
        return d

    # -- dict form ------------------------------------------------------------------------
    def _default_known(self, int c):
        cdef GRState *s = _st(self)
        z = s.loc[c]
        allp = (1 << s.nplayers) - 1
        if z == Z_DECK:
            return 0
        if Z_HAND <= z < Z_HAND + GR_MAXP:
            return 1 << (z - Z_HAND)
        if z == Z_DRAWN:
            return 1 << self._actp()
        return allp

    def _to_dict(self):
        cdef GRState *s = _st(self)
        n = s.nplayers
        players = []
        for p in range(n):
            players.append({
                "hand": self._zone(Z_HAND + p),
                "jacks": s.jacks[p],
                "stockpile": self._zone(Z_STOCK + p),
                "vault": self._zone(Z_VAULT + p),
                "clientele": self._zone(Z_CLIENT + p),
                "camp": self._zone(Z_CAMP + p),
                "jacks_played": s.jplayed[p],
                "units": s.units[p],
                "new_clients": {ROLES[m]: s.fresh[p][m] for m in range(GR_NMAT) if s.fresh[p][m]},
                "setup_rank": s.setup_rank[p],
                "influence": s.infl[p],
            })
        structures = []
        for k in range(s.nstruct):
            f = s.st_flags[k]
            structures.append({
                "owner": s.st_owner[k],
                "building": card_name(s.st_card[k]),
                "card": s.st_card[k],
                "site": MATERIALS[s.st_site[k]],
                "out_of_town": bool(f & SF_OUT),
                "materials": self._zone(Z_MAT + k),
                "complete": bool(f & SF_DONE),
                "public": bool(f & SF_PUBLIC),
                "site_holder": s.st_holder[k],
            })
        frames = [{"role": FRAME_ROLES[s.fr_role[k] & FR_ROLE], "base": bool(s.fr_role[k] & FR_BASE),
                   "stage": STAGES[s.fr_stage[k]], "n": s.fr_n[k]} for k in range(s.nframes)]
        known = {}
        for c in range(GR_NCARDS):
            kn = s.known[c] & GR_SEATS
            if kn != self._default_known(c):
                known[str(c)] = _player_list(kn, n)
        return {
            "phase": PHASES[s.phase],
            "steps": s.steps,
            "leader": s.leader,
            "actor": s.actor,
            "role": ROLES[s.role] if s.role < GR_NMAT else None,
            "deck": self._zone(Z_DECK),
            "pool": self._zone(Z_POOL),
            "drawn": self._zone(Z_DRAWN),
            "jack_pile": s.jpile,
            "sites": {"in_town": {MATERIALS[m]: s.in_town[m] for m in range(GR_NMAT)},
                      "out_of_town": {MATERIALS[m]: s.out_town[m] for m in range(GR_NMAT)}},
            "players": players,
            "structures": structures,
            "frames": frames,
            "turn": {
                "follow_index": s.follow_i, "act_index": s.act_i,
                "eot_step": s.eot_step, "eot_index": s.eot_i,
                "did_craft": _player_list(s.did_craft, n),
                "think_return": RETURNS[s.think_ret] if s.think_ret <= RET_FRAME else s.think_ret,
                "think_used": bool(s.think_used), "draw_left": s.draw_left,
                "petition": {"material": MATERIALS[s.pet_mat] if s.pet_mat < GR_NMAT else s.pet_mat,
                             "left": s.pet_left, "last": s.pet_last},
                "last_unit": s.last_unit,
                "selected": {"card": s.sel_card, "from": SOURCES[s.sel_src] if s.sel_src <= SRC_DRAWN else s.sel_src},
                "draw": DRAWS[s.xdraw] if s.xdraw <= X_BAR else s.xdraw,
                "eot_last": s.eot_last,
            },
            "legionary": {
                "demands": {MATERIALS[m]: s.dem[m] for m in range(GR_NMAT) if s.dem[m]},
                "stage": s.leg_stage, "victim_offset": s.leg_v, "material": s.leg_m,
                "give_left": s.give_left,
                "coliseum_taken": {ROLES[m]: s.col_taken[m] for m in range(GR_NMAT) if s.col_taken[m]},
                "last": s.leg_last,
            },
            "setup": {"dealt": s.setup_i, "tie": _player_list(s.tie_mask, n),
                      "tie_dealt": _player_list(s.tie_dealt, n)},
            "forum_winners": _player_list(s.forum_win, n),
            "known": known,
            "revealed": [c for c in range(GR_NCARDS) if s.known[c] & KN_REVEALED],
        }

    def _load_dict(self, dict d):
        """Fills the struct (a fresh game before the deal) from a dict; see the module
        docs.  One reader per section of the dict, in this order: each may use what the
        ones before it wrote."""
        cdef GRState *s = _st(self)
        cdef int n = s.nplayers, c
        players = _opt_list(d, "players", n)
        for pd in players:
            read_dict(pd, "each player")
        structs = _opt_list(d, "structures", GR_NSLOTS)
        placed = _read_cards(d, players, structs)
        for c in range(GR_NCARDS):
            s.loc[c] = placed.get(c, Z_DECK)
        _read_structures(s, structs, placed)
        _read_sites(s, _opt_dict(d, "sites"))
        _read_players(s, players, d)
        _read_phase(s, d)
        _read_turn(s, _opt_dict(d, "turn"))
        _read_legionary(s, _opt_dict(d, "legionary"))
        _read_setup(s, d)
        _read_frames(s, d)
        _read_actor(s, d)
        for c in range(GR_NCARDS):
            s.known[c] = self._default_known(c)
        _read_known(s, d)
        gr_refresh(s)

    # -- observation ----------------------------------------------------------------------
    def _observation(self, int p):
        cdef GRState *s = _st(self)
        n = s.nplayers
        pb = 1 << p
        names = lambda cs: sorted(card_name(c) for c in cs)
        d = self._to_dict()
        vaults = []
        for q in range(n):
            v = self._zone(Z_VAULT + q)
            vaults.append({"known": names(c for c in v if s.known[c] & pb),
                           "hidden": sum(1 for c in v if not s.known[c] & pb)})
        known_hands = {}
        for q in range(n):
            if q != p:
                known_hands[str(q)] = names(c for c in self._zone(Z_HAND + q) if s.known[c] & pb)
        turn = dict(d["turn"])
        sel = s.sel_card
        turn["selected"] = ({"card": card_name(sel), "from": turn["selected"]["from"]}
                            if s.phase == PH_ACT and self._top()[1] in (ST_TARGET, ST_STAIR_TARGET)
                            and s.known[sel] & pb else None)
        drawn = self._zone(Z_DRAWN)
        return {
            "player": p,
            "phase": d["phase"],
            "current_player": self.current_player(),
            "steps": s.steps,
            "leader": s.leader,
            "role": d["role"],
            "deck_size": s.deck_total,
            "jack_pile": s.jpile,
            "pool": names(self._zone(Z_POOL)),
            "sites": d["sites"],
            "hand": names(self._zone(Z_HAND + p)),
            "hand_sizes": [sum(s.cnt[Z_HAND + q][m] for m in range(GR_NMAT)) for q in range(n)],
            "jacks": [s.jacks[q] for q in range(n)],
            "known_in_hands": known_hands,
            "revealed": names(d["revealed"]),
            "stockpiles": [names(self._zone(Z_STOCK + q)) for q in range(n)],
            "clienteles": [names(self._zone(Z_CLIENT + q)) for q in range(n)],
            "camps": [names(self._zone(Z_CAMP + q)) for q in range(n)],
            "jacks_played": [s.jplayed[q] for q in range(n)],
            "vaults": vaults,
            "influence": [s.infl[q] for q in range(n)],
            "structures": [{k: v for k, v in sd.items() if k != "card"} | {"materials": names(sd["materials"])}
                           for sd in d["structures"]],
            "units": [pd["units"] for pd in d["players"]],
            "new_clients": [pd["new_clients"] for pd in d["players"]],
            "frames": d["frames"],
            "turn": turn,
            "legionary": d["legionary"],
            "setup": d["setup"],
            "drawn": [card_name(c) if s.known[c] & pb else None for c in drawn],
            "forum_winners": d["forum_winners"],
        }

    # -- drawing --------------------------------------------------------------------------
    def _render(self):
        return self._draw(-1)

    def _render_view(self, int p):
        return self._draw(p)

    def _score_text(self, int q, int viewer, bint vaults_known):
        """Player q's score as the viewer can know it: exact when every vault card is
        known to the viewer (or for a spectator), else the points that do not depend on
        hidden vault cards (Influence, Statue, Wall and the vault cards the viewer saw)."""
        cdef int32_t out[SC_N]
        cdef GRState *s = _st(self)
        gr_score(s, q, out)
        if viewer < 0 or vaults_known:
            return f"score {out[SC_TOTAL]}"
        vb = 1 << viewer
        vault = self._zone(Z_VAULT + q)
        seen = sum(_data.MATERIALS[c // GR_PER_MAT].value for c in vault if s.known[c] & vb)
        hidden = sum(1 for c in vault if not s.known[c] & vb)
        known = out[SC_INFLUENCE] + out[SC_STATUE] + out[SC_WALL] + seen
        return f"points {known}+" + (f" ({hidden} hidden vault cards)" if hidden else "")

    def _draw(self, int viewer):
        """The drawing: the whole truth for viewer -1, else what the viewer knows (own
        hand, vault cards the viewer saw, scores only as far as they are known)."""
        cdef GRState *s = _st(self)
        n = s.nplayers
        d = self._to_dict()
        role = d["role"] or "-"
        lines = [f"Glory to Rome  phase {d['phase']}  leader P{s.leader} (*)  role {role}  "
                 f"draw pile {s.deck_total}  Jacks {s.jpile}"]
        lines.append("pool: " + (", ".join(card_name(c) for c in d["pool"]) or "-"))
        lines.append("sites in town: " + " ".join(f"{m[:3]}{v}" for m, v in d["sites"]["in_town"].items())
                     + "   out of town: " + " ".join(f"{m[:3]}{v}" for m, v in d["sites"]["out_of_town"].items()))
        vb = 1 << viewer if viewer >= 0 else GR_SEATS
        vaults_known = all(s.known[c] & vb for q in range(n) for c in self._zone(Z_VAULT + q))
        for p in range(n):
            pd = d["players"][p]
            mark = "*" if p == s.leader else " "
            lines.append(f"{mark}P{p}: influence {s.infl[p]}, {self._score_text(p, viewer, vaults_known)}, "
                         f"hand {len(pd['hand'])}+{pd['jacks']}J, vault {len(pd['vault'])}/{gr_vault_cap(s, p)}, "
                         f"clients {len(pd['clientele'])}/{gr_client_cap(s, p)}")
            if viewer >= 0:
                hand = [card_name(c) for c in pd["hand"] if s.known[c] & vb]
                vault = [card_name(c) for c in pd["vault"] if s.known[c] & vb]
                if p == viewer or hand:
                    lines.append(("    hand: " if p == viewer else "    seen in hand: ")
                                 + (", ".join(sorted(hand)) or "-"))
                if vault:
                    lines.append("    vault seen: " + ", ".join(sorted(vault)))
            lines.append("    clients: " + (", ".join(ROLES[c // GR_PER_MAT] for c in pd["clientele"]) or "-"))
            lines.append("    stockpile: " + (", ".join(MATERIALS[c // GR_PER_MAT] for c in pd["stockpile"]) or "-"))
            for sd in d["structures"]:
                if sd["owner"] == p:
                    state = ("complete" if sd["complete"]
                             else f"{len(sd['materials'])}/{_data.MATERIALS[MATERIALS.index(sd['site'])].value}")
                    extra = " public" if sd["public"] else ""
                    lines.append(f"    {sd['building']} ({sd['site']}{', out' if sd['out_of_town'] else ''}) "
                                 f"{state}{extra}")
        if viewer >= 0 and not vaults_known:
            lines.append("(vaults are hidden: Merchant bonuses and hidden vault cards are not counted)")
        if s.phase == PH_OVER:
            scores = self.scores()
            lines.append("final: " + ", ".join(f"P{p} {scores[p]}" for p in range(n))
                         + "  winners: " + ", ".join(f"P{p}" for p in self.winners()))
        return "\n".join(lines)
