# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Glory to Rome: the rules as C functions over one fixed-size struct.

Cards.  The 144 Orders cards have fixed ids, grouped by material (24 each) and within a
material by building, so "a card of material m in zone z" is a scan of 24 bytes.  Each
card has a zone (``loc``) and the set of players who know it there (``known``); counts
per material of the pool, hands, stockpiles, vaults and clienteles, the draw pile per
building, each player's Influence and building functions are derived fields, kept in
step by the one card mover ``mv`` and ``refresh_struct`` (``validate`` recomputes them).
Jacks are identical, so they are counts; sites are counts per material, in and out of
town, plus the site under each structure.  Structures live in slots 0..nstruct-1 in the
order they were founded (a structure never leaves play; the Prison only changes owner).

Turn.  The leader leads (a card, a Jack, a petition; more with a Palace) or thinks; the
others in seat order follow or think; then each player, leader first, executes the role's
actions.  Actions run on a stack of frames: the role turn of the player acting (its
action count is recomputed as clients come and go: Ludus Magna, Storeroom, Circus
Maximus, Coliseum slayings, clients hired this turn), and above it the one-time bursts
of School, Foundry, Garden and Amphitheatre, Bath's single action of a new client and
Prison's steal.  A Legionary's demands are revealed one card at a time (others act only
once all are revealed) and then resolve: pool, each victim's hand (the victim chooses
which card when that matters), Bridge stockpiles, Coliseum clients.  End of turn: Senate
Jacks, Sewer cards, played cards to the pool, Academy thinks.

Decisions are small steps (see kernel.pxd for the ids): pick a hand card by building, a
pool or stockpile card by material (only the material of a card outside a hand ever
matters again), then its target.  A step with a single legal action is taken inside
apply (``gr_forced``); the game also ends by the engine limit ``data.MAX_ACTIONS``.

Chance.  The draw pile is drawn lazily: every draw (set-up deals, tie-break cards,
Thinker draws, Fountain, Atrium, Bar) is a chance node whose outcome is the building of
the card drawn, weighted by the copies left in the pile.
"""
from libc.string cimport memcmp, memcpy, memset
from libc.stdint cimport uint8_t, int16_t, int32_t, uint32_t, int64_t, uint64_t

from romecore.core.kernel cimport (
    rc_shuffle_u8,
    rc_kernel_capsule, rc_share_wins,
    rc_kernel, rc_rng, rc_rng_below, rc_popcount64, rc_popcount32, rc_lsb64, rc_lsb32,
    rc_pop_lsb64, rc_bytes_eq16, rc_nonzero_bytes, rc_check_padding,
    RC_ABI_VERSION, RC_CHANCE, RC_TERMINAL, RC_HIDDEN,
)

from romecore.games.glory_to_rome import data as _data


# =======================================================================================
# Tables: the C copies of data.py's tables (filled from data at import, below)

cdef uint8_t CARD_B[GR_NCARDS]        # building of each card
cdef uint8_t CARD_M[GR_NCARDS]        # material of each card
cdef uint8_t B_MAT[GR_NBUILD]
cdef uint8_t B_LO[GR_NBUILD]          # first card id of the building
cdef uint8_t B_HI[GR_NBUILD]          # one past the last
cdef uint8_t RANK[GR_NBUILD]          # alphabet rank of the building's name
cdef uint8_t VALUE[GR_NMAT]
cdef int START_HAND, START_INFL, HAND_LIMIT, PET_CARDS, CIRCUS_PET_CARDS
cdef int SHRINE_HAND, TEMPLE_HAND, INSULA_CLIENTS, MARKET_VAULT, STATUE_POINTS, WALL_PER
cdef int MERCHANT_BONUS, SITES_PER_MAT
cdef int MAX_COPIES                   # the most cards of one building
cdef float COPIES_FRAC[GR_NBUILD][GR_PER_MAT + 1]   # k / copies of the building, k <= copies
cdef enum:
    T_NONE = GR_MAX_TENSOR            # the observation tensor's counts: a scratch cell past
                                      # every offset, where cards that count nowhere go
    T_JUNK = T_NONE + GR_NBUILD       # + card: a scratch count of its own for each card
                                      # (no chain of increments through one cell)
    WORD_BITS = 64                    # bits of a card-set word
    CARD_WORDS = (GR_NCARDS + WORD_BITS - 1) // WORD_BITS   # words of a set of card ids
    BYTE_VALUES = 256                 # every value a uint8_t zone id can hold
cdef uint8_t ZONE_READ[BYTE_VALUES]   # zone: 1 where a card there counts somewhere for some
                                      # observer (not the deck, not a foundation)
cdef int16_t ZONE_SLICE[2][Z_END]     # [knows][zone]: tensor offset of the zone's by-building
                                      # slice (the seats' zones are set per observer), T_NONE none
cdef int16_t ZONE_COUNT[2][Z_END]     # [knows][zone]: the cell counting a card there, T_NONE none
cdef int16_t ZONE_MATERIAL[Z_END]     # zone: the by-material slice of a structure's materials
cdef int INFL_BOUND                   # Influence with every site in camp
cdef int STRUCT_MAT_BOUND             # materials in a structure: the dearest site, one more by Stairway


# =======================================================================================
# Queries: read-only facts about a state

cdef inline uint8_t allp(const GRState *s) noexcept nogil:
    return <uint8_t>((1 << s.nplayers) - 1)


cdef inline bint HAS(const GRState *s, int p, int b) noexcept nogil:
    return (s.func[p] >> b) & 1


cdef int gr_card_building(int c) noexcept nogil:
    return CARD_B[c]


cdef int gr_card_material(int c) noexcept nogil:
    return CARD_M[c]


cdef inline int zsum(const GRState *s, int z) noexcept nogil:
    cdef const uint8_t *k = s.cnt[z]
    return k[0] + k[1] + k[2] + k[3] + k[4] + k[5]


cdef int gr_hand_size(const GRState *s, int p) noexcept nogil:
    """Cards in hand, Jacks included (the hand limit counts them)."""
    return zsum(s, Z_HAND + p) + s.jacks[p]


cdef int gr_hand_limit(const GRState *s, int p) noexcept nogil:
    return HAND_LIMIT + SHRINE_HAND * HAS(s, p, B_SHRINE) + TEMPLE_HAND * HAS(s, p, B_TEMPLE)


cdef int gr_client_cap(const GRState *s, int p) noexcept nogil:
    return (s.infl[p] + INSULA_CLIENTS * HAS(s, p, B_INSULA)) * (1 + HAS(s, p, B_AQUEDUCT))


cdef int gr_vault_cap(const GRState *s, int p) noexcept nogil:
    return s.infl[p] + MARKET_VAULT * HAS(s, p, B_MARKET)


cdef inline bint client_room(const GRState *s, int p) noexcept nogil:
    return zsum(s, Z_CLIENT + p) < gr_client_cap(s, p)


cdef inline bint vault_room(const GRState *s, int p) noexcept nogil:
    return zsum(s, Z_VAULT + p) < gr_vault_cap(s, p)


cdef inline int petition_size(const GRState *s, int p) noexcept nogil:
    return CIRCUS_PET_CARDS if HAS(s, p, B_CIRCUS) else PET_CARDS


cdef inline int actp(const GRState *s) noexcept nogil:
    """The player whose actions are being executed (leader and act_i are both below
    nplayers, as validate checks, so one subtraction does the modulo's work)."""
    cdef int p = s.leader + s.act_i
    return p - s.nplayers if p >= s.nplayers else p


cdef inline int find_mat(const GRState *s, int z, int m) noexcept nogil:
    """The lowest card id of material m in zone z, or -1."""
    cdef uint64_t cards = material_cards(s, z, m)
    return GR_PER_MAT * m + rc_lsb64(cards) if cards else -1


cdef inline int find_building(const GRState *s, int z, int b) noexcept nogil:
    """A card of building b in zone z: the one most players already know (so using it
    reveals least), then the lowest id; -1 if none."""
    cdef int c, best = -1, best_k = -1, k
    for c in range(B_LO[b], B_HI[b]):
        if s.loc[c] == z:
            k = rc_popcount32(s.known[c] & GR_SEATS)
            if k > best_k:
                best, best_k = c, k
    return best


cdef inline int draw_card(GRState *s, int b) noexcept nogil:
    """Takes the lowest-id card of building b from the draw pile (to nowhere yet)."""
    cdef int c
    for c in range(B_LO[b], B_HI[b]):
        if s.loc[c] == Z_DECK:
            return c
    return B_LO[b]


cdef inline uint64_t material_cards(const GRState *s, int z, int m) noexcept nogil:
    """The cards of material m in zone z, bit i for card GR_PER_MAT * m + i: the
    material's 24 slots compared sixteen at a time, the second compare overlapping the
    first (the hot loop of the legal lists)."""
    cdef int base = GR_PER_MAT * m
    return (<uint64_t>rc_bytes_eq16(&s.loc[base], <uint8_t>z)
            | <uint64_t>rc_bytes_eq16(&s.loc[base + GR_PER_MAT - 16], <uint8_t>z) << (GR_PER_MAT - 16))


cdef inline uint64_t zone_buildings(const GRState *s, int z, int only_m) noexcept nogil:
    """Buildings with a card in counted zone z (only material only_m when >= 0)."""
    cdef uint64_t mask = 0, cards
    cdef int m, lo = 0, hi = GR_NMAT
    if only_m >= 0:
        lo, hi = only_m, only_m + 1
    for m in range(lo, hi):
        if s.cnt[z][m] == 0:
            continue
        cards = material_cards(s, z, m)
        while cards:
            mask |= (<uint64_t>1) << CARD_B[GR_PER_MAT * m + rc_pop_lsb64(&cards)]
    return mask


cdef inline uint64_t zone_range8(const uint8_t *loc, uint8_t lo, uint8_t hi) noexcept nogil:
    """Bit i set where lo <= loc[i] < hi, i < 8: eight zones tested at once (every zone
    is below 0x80, Z_END, so setting each byte's top bit keeps the subtractions apart)."""
    cdef uint64_t v
    cdef uint64_t ones = 0x0101010101010101ULL, top = 0x8080808080808080ULL
    memcpy(&v, loc, 8)
    v |= top
    return rc_nonzero_bytes((v - ones * lo) & ~(v - ones * hi) & top)


cdef inline int acts_total(const GRState *s, int p, int r) noexcept nogil:
    """Actions p gets for role r this turn: one per card played plus one per client of
    the role (clients hired this turn do not act), with Storeroom, Ludus Magna and
    Circus Maximus."""
    cdef const uint8_t *cl = s.cnt[Z_CLIENT + p]
    cdef const uint8_t *fr = s.fresh[p]
    cdef int c = 0, i
    if r >= GR_NMAT:
        return s.units[p]
    if r == R_LABORER and HAS(s, p, B_STOREROOM):
        for i in range(GR_NMAT):
            c += cl[i] - fr[i]
    else:
        c = cl[r] - fr[r]
        if r != R_MERCHANT and HAS(s, p, B_LUDUS_MAGNA):
            c += cl[R_MERCHANT] - fr[R_MERCHANT]
    if c < 0:
        c = 0
    if s.units[p] and HAS(s, p, B_CIRCUS_MAXIMUS):
        c *= 2
    c += s.units[p]
    return c if c < GR_U8_MAX - 1 else GR_U8_MAX - 1   # fr_n saturates: a turn always ends


cdef int gr_acts_left(const GRState *s) noexcept nogil:
    """Actions left in the top frame, the one being executed counted."""
    cdef int k = s.nframes - 1, left
    if k < 0:
        return 0
    if s.fr_role[k] & FR_BASE:
        left = acts_total(s, actp(s), s.fr_role[k] & FR_ROLE) - s.fr_n[k]
        return left if left > 0 else 0
    return s.fr_n[k]


cdef bint gr_forum_ok(const GRState *s, int p) noexcept nogil:
    """A client of every role, counting Ludus Magna (a Merchant client as any one role)
    and Storeroom (any client as a Laborer); each client counts once."""
    cdef const uint8_t *cl = s.cnt[Z_CLIENT + p]
    cdef int r, missing = 0, spare = 0, spare_m, lab_missing
    for r in range(GR_NMAT):
        if cl[r] == 0:
            if r != R_LABORER:
                missing += 1
        else:
            spare += cl[r] - 1
    lab_missing = cl[R_LABORER] == 0
    spare_m = cl[R_MERCHANT] - 1 if cl[R_MERCHANT] else 0
    if missing and not HAS(s, p, B_LUDUS_MAGNA):
        return False
    if missing > spare_m:
        return False
    if not lab_missing:
        return True
    if HAS(s, p, B_STOREROOM) and spare >= missing + 1:
        return True
    return HAS(s, p, B_LUDUS_MAGNA) and spare_m >= missing + 1


cdef inline bint can_found(const GRState *s, int p, int b, int m, bint out, int left) noexcept nogil:
    """May p lay a foundation of building b on a site of material m (out of town: two
    actions, one with a Tower)?"""
    if (s.owned[p] >> b) & 1:
        return False
    if m != B_MAT[b] and not (b == B_STATUE and not s.training):
        return False
    if out:
        return s.out_town[m] > 0 and (left >= 2 or HAS(s, p, B_TOWER))
    return s.in_town[m] > 0


cdef inline bint can_found_any(const GRState *s, int p, int b, int left) noexcept nogil:
    cdef int m
    if (s.owned[p] >> b) & 1:
        return False
    if b == B_STATUE and not s.training:
        for m in range(GR_NMAT):
            if can_found(s, p, b, m, False, left) or can_found(s, p, b, m, True, left):
                return True
        return False
    m = B_MAT[b]
    return can_found(s, p, b, m, False, left) or can_found(s, p, b, m, True, left)


cdef inline bint accepts(const GRState *s, int p, int k, int m) noexcept nogil:
    """Does p's unfinished structure in slot k take a material m from p?"""
    cdef int site, b
    if s.st_owner[k] != p or s.st_flags[k] & SF_DONE:
        return False
    site = s.st_site[k]
    if m == site:
        return True
    b = CARD_B[s.st_card[k]]
    if m == M_MARBLE and b == B_STATUE and not s.training:
        return True
    if m == M_RUBBLE and HAS(s, p, B_TOWER):
        return True
    if site == M_STONE and HAS(s, p, B_ROAD):
        return True
    return m == M_MARBLE and HAS(s, p, B_SCRIPTORIUM)


cdef inline uint8_t accepted_materials(const GRState *s, int p) noexcept nogil:
    """Bit m set when some unfinished structure of p takes material m."""
    cdef uint8_t out = 0
    cdef int k, m
    for k in range(s.nstruct):
        if s.st_owner[k] != p or s.st_flags[k] & SF_DONE:
            continue
        for m in range(GR_NMAT):
            if not (out >> m) & 1 and accepts(s, p, k, m):
                out |= 1 << m
    return out


cdef inline bint stair_accepts(const GRState *s, int p, int k, int m) noexcept nogil:
    """Stairway: may p put a material m into the opponent's completed structure k to
    make it public?  The material must be the structure's own (Statue: or Marble)."""
    if s.st_owner[k] == p or not (s.st_flags[k] & SF_DONE) or s.st_flags[k] & SF_PUBLIC:
        return False
    return m == s.st_site[k] or (m == M_MARBLE and CARD_B[s.st_card[k]] == B_STATUE)


cdef inline uint8_t stair_materials(const GRState *s, int p) noexcept nogil:
    cdef uint8_t out = 0
    cdef int k, m
    for k in range(s.nstruct):
        for m in range(GR_NMAT):
            if stair_accepts(s, p, k, m):
                out |= 1 << m
    return out


cdef inline bint stealable(const GRState *s, int p, int k) noexcept nogil:
    """Prison: a completed structure of an opponent, of a building p has not in play."""
    return (s.st_owner[k] != p and s.st_flags[k] & SF_DONE
            and not (s.owned[p] >> CARD_B[s.st_card[k]]) & 1)


cdef inline bint is_victim(const GRState *s, int p, int q, int off) noexcept nogil:
    """Does p's Legionary (or Coliseum) reach q, `off` seats to p's left?"""
    cdef bint bridge = HAS(s, p, B_BRIDGE)
    if s.nplayers > 3 and not bridge and off != 1 and off != s.nplayers - 1:
        return False
    if HAS(s, q, B_WALL):
        return False
    return not (HAS(s, q, B_PALISADE) and not bridge)


cdef inline bint coliseum_options(const GRState *s, int p, int q) noexcept nogil:
    cdef int m
    if not vault_room(s, p):
        return False
    for m in range(s.leg_last, GR_NMAT):
        if s.dem[m] > s.col_taken[m] and s.cnt[Z_CLIENT + q][m]:
            return True
    return False


cdef inline uint64_t unrevealed_buildings(const GRState *s, int p) noexcept nogil:
    cdef uint64_t mask = 0, cards
    cdef int m, c
    cdef uint8_t z = Z_HAND + p
    for m in range(GR_NMAT):
        if s.cnt[z][m] == 0:
            continue
        cards = material_cards(s, z, m)
        while cards:
            c = GR_PER_MAT * m + rc_pop_lsb64(&cards)
            if not (s.known[c] & KN_REVEALED):
                mask |= (<uint64_t>1) << CARD_B[c]
    return mask


cdef inline bint camp_has_cards(const GRState *s, int p) noexcept nogil:
    cdef int c
    for c in range(GR_NCARDS):
        if s.loc[c] == Z_CAMP + p:
            return True
    return False


cdef inline bint is_chance_phase(int ph) noexcept nogil:
    return ph == PH_SETUP or ph == PH_DRAW or ph == PH_ACT_DRAW


cdef inline bint single_chance(const GRState *s) noexcept nogil:
    """Only one building left in the draw pile: the draw is certain."""
    cdef int b, kinds = 0
    if s.deck_total > MAX_COPIES:
        return False
    for b in range(GR_NBUILD):
        if s.deck_n[b]:
            kinds += 1
    return kinds == 1


cdef inline int first_chance(const GRState *s) noexcept nogil:
    cdef int b
    for b in range(GR_NBUILD):
        if s.deck_n[b]:
            return CH_CARD + b
    return CH_CARD


# the legal actions of each phase (gr_legal dispatches)

cdef inline int emit_buildings(uint64_t mask, int32_t *out, int n) noexcept nogil:
    while mask:
        out[n] = A_CARD + rc_pop_lsb64(&mask)
        n += 1
    return n


cdef inline int emit_pool(const GRState *s, int32_t *out, int n) noexcept nogil:
    """Every material in the pool, once (a Laborer or Patron takes from the pool)."""
    cdef int m
    for m in range(GR_NMAT):
        if s.cnt[Z_POOL][m]:
            out[n] = A_POOL + m
            n += 1
    return n


cdef inline int emit_materials(const GRState *s, int p, uint8_t acc, int32_t *out, int n) noexcept nogil:
    """Materials of the set ``acc`` an Architect can add: from the stockpile, and from
    the pool with an Archway."""
    cdef int m
    if HAS(s, p, B_ARCHWAY):
        for m in range(GR_NMAT):
            if (acc >> m) & 1 and s.cnt[Z_POOL][m]:
                out[n] = A_POOL + m
                n += 1
    for m in range(GR_NMAT):
        if (acc >> m) & 1 and s.cnt[Z_STOCK + p][m]:
            out[n] = A_STOCK + m
            n += 1
    return n


cdef int legal_units(const GRState *s, int p, int role, int min_a, int32_t *out) noexcept nogil:
    """Ways to lead (role < 0: any role) or follow role: a card, a Jack, a petition;
    only action ids >= min_a (a Palace plays its units in id order)."""
    cdef int n = 0, r, m, a, k = petition_size(s, p), rlo = 0, rhi = GR_NMAT, enough = 0
    cdef uint64_t mask = zone_buildings(s, Z_HAND + p, role)
    while mask:
        a = A_CARD + rc_pop_lsb64(&mask)
        if a >= min_a:
            out[n] = a
            n += 1
    if role >= 0:
        rlo, rhi = role, role + 1
    if s.jacks[p]:
        for r in range(rlo, rhi):
            if A_JACK + r >= min_a:
                out[n] = A_JACK + r
                n += 1
    for m in range(GR_NMAT):
        if s.cnt[Z_HAND + p][m] >= k:
            enough |= 1 << m
    if enough:
        for r in range(rlo, rhi):
            for m in range(GR_NMAT):
                a = A_PETITION + r * GR_NMAT + m
                if (enough >> m) & 1 and a >= min_a:
                    out[n] = a
                    n += 1
    return n


cdef int legal_think(const GRState *s, int32_t *out) noexcept nogil:
    cdef int p = s.actor, n = 0
    if not s.think_used and HAS(s, p, B_LATRINE):
        n = emit_buildings(zone_buildings(s, Z_HAND + p, -1), out, n)
    if s.jpile:
        out[n] = A_THINK_JACK
        n += 1
    out[n] = A_THINK_DRAW
    n += 1
    if not s.think_used and HAS(s, p, B_VOMITORIUM) and gr_hand_size(s, p):
        out[n] = A_VOMIT
        n += 1
    if s.think_ret == RET_ACADEMY or s.think_ret == RET_FRAME:
        out[n] = A_DONE
        n += 1
    return n


cdef int legal_target(const GRState *s, int p, int r, int32_t *out) noexcept nogil:
    """Where the selected card may go: a new foundation (in or out of town), an
    unfinished structure, or (a Fountain draw) the hand."""
    cdef int n = 0, c = s.sel_card, b = CARD_B[c], m = CARD_M[c], k, site, left
    cdef int src = s.sel_src
    left = gr_acts_left(s)
    if src == SRC_HAND or src == SRC_DRAWN:
        for site in range(GR_NMAT):
            if can_found(s, p, b, site, False, left):
                out[n] = A_FOUND_IN + site
                n += 1
        for site in range(GR_NMAT):
            if can_found(s, p, b, site, True, left):
                out[n] = A_FOUND_OUT + site
                n += 1
    if src != SRC_HAND or r == R_CRAFTSMAN:
        for k in range(s.nstruct):
            if accepts(s, p, k, m):
                out[n] = A_STRUCT + k
                n += 1
    if src == SRC_DRAWN:
        out[n] = A_TO_HAND
        n += 1
    return n


cdef inline int act_prison(const GRState *s, int p, int32_t *out) noexcept nogil:
    """The Prison: each structure p may take, then done."""
    cdef int n = 0, b
    for b in range(s.nstruct):
        if stealable(s, p, b):
            out[n] = A_STRUCT + b
            n += 1
    out[n] = A_DONE
    return n + 1


cdef inline int act_stair_target(const GRState *s, int p, int32_t *out) noexcept nogil:
    """The Stairway's structure for the chosen material."""
    cdef int n = 0, b, m = CARD_M[s.sel_card]
    for b in range(s.nstruct):
        if stair_accepts(s, p, b, m):
            out[n] = A_STRUCT + b
            n += 1
    return n


cdef inline int act_craftsman(const GRState *s, int p, int32_t *out, int n) noexcept nogil:
    """Craftsman: hand buildings to add or found, and the Fountain's deck card."""
    cdef int b
    cdef uint8_t acc = accepted_materials(s, p)
    cdef int left = gr_acts_left(s)
    cdef uint64_t mask = zone_buildings(s, Z_HAND + p, -1)
    while mask:
        b = rc_pop_lsb64(&mask)
        if (acc >> B_MAT[b]) & 1 or can_found_any(s, p, b, left):
            out[n] = A_CARD + b
            n += 1
    if HAS(s, p, B_FOUNTAIN):
        out[n] = A_DECK
        n += 1
    return n


cdef inline int act_architect(const GRState *s, int p, int32_t *out, int n) noexcept nogil:
    """Architect: hand buildings to found, and stockpile materials to add."""
    cdef int b
    cdef uint8_t acc = accepted_materials(s, p)
    cdef int left = gr_acts_left(s)
    cdef uint64_t mask = zone_buildings(s, Z_HAND + p, -1)
    while mask:
        b = rc_pop_lsb64(&mask)
        if can_found_any(s, p, b, left):
            out[n] = A_CARD + b
            n += 1
    return emit_materials(s, p, acc, out, n)


cdef inline int act_merchant(const GRState *s, int p, int st, int32_t *out, int n) noexcept nogil:
    """Merchant (with vault room): the Basilica's hand card, stockpile materials, the
    Atrium's deck card."""
    cdef int m
    if not vault_room(s, p):
        return n
    if HAS(s, p, B_BASILICA):
        n = emit_buildings(zone_buildings(s, Z_HAND + p, -1), out, n)
    if st == ST_MAIN:
        for m in range(GR_NMAT):
            if s.cnt[Z_STOCK + p][m]:
                out[n] = A_STOCK + m
                n += 1
        if HAS(s, p, B_ATRIUM):
            out[n] = A_DECK
            n += 1
    return n


cdef inline int act_legionary(const GRState *s, int p, int32_t *out, int n) noexcept nogil:
    """Legionary: while actions are left, hand buildings to reveal, in building order."""
    cdef int m, demanded = 0
    cdef uint64_t mask
    for m in range(GR_NMAT):
        demanded += s.dem[m]
    if demanded < gr_acts_left(s):
        mask = unrevealed_buildings(s, p) & ~((<uint64_t>1 << s.leg_last) - 1)
        n = emit_buildings(mask, out, n)
    return n


cdef inline int act_patron(const GRState *s, int p, int st, int32_t *out, int n) noexcept nogil:
    """Patron (with client room): the Aqueduct's hand card, the pool, the Bar's deck card."""
    if not client_room(s, p):
        return n
    if HAS(s, p, B_AQUEDUCT):
        n = emit_buildings(zone_buildings(s, Z_HAND + p, -1), out, n)
    if st == ST_MAIN:
        n = emit_pool(s, out, n)
    if st != ST_AQ and HAS(s, p, B_BAR):
        out[n] = A_DECK
        n += 1
    return n


cdef int legal_act(const GRState *s, int32_t *out) noexcept nogil:
    cdef int p = actp(s), k = s.nframes - 1, n = 0
    cdef int r = s.fr_role[k] & FR_ROLE, st = s.fr_stage[k]
    if r == R_PRISON:
        return act_prison(s, p, out)
    if st == ST_TARGET:
        return legal_target(s, p, r, out)
    if st == ST_STAIR:
        n = emit_materials(s, p, stair_materials(s, p), out, n)
        out[n] = A_DONE
        return n + 1
    if st == ST_STAIR_TARGET:
        return act_stair_target(s, p, out)
    if r == R_LABORER:
        if HAS(s, p, B_DOCK):
            n = emit_buildings(zone_buildings(s, Z_HAND + p, -1), out, n)
        if st == ST_MAIN:
            n = emit_pool(s, out, n)
    elif r == R_CRAFTSMAN:
        n = act_craftsman(s, p, out, n)
    elif r == R_ARCHITECT:
        n = act_architect(s, p, out, n)
    elif r == R_MERCHANT:
        n = act_merchant(s, p, st, out, n)
    elif r == R_LEGIONARY:
        n = act_legionary(s, p, out, n)
    elif r == R_PATRON:
        n = act_patron(s, p, st, out, n)
    out[n] = A_DONE
    return n + 1


cdef int legal_cards_in_order(const GRState *s, int p, int mat, int last, int left,
                              int32_t *out) noexcept nogil:
    """Cards of material ``mat`` that p may give next when several go one at a time
    (petitions, Legionary demands): in building order from ``last`` on, each leaving
    enough of the material in hand (``left`` cards counting itself) for the rest."""
    cdef uint64_t mask = zone_buildings(s, Z_HAND + p, mat)
    cdef int m, j, k, n = 0
    while mask:
        m = rc_pop_lsb64(&mask)
        if m < last:
            continue
        k = 0
        for j in range(B_LO[m], GR_PER_MAT * (mat + 1)):
            if s.loc[j] == Z_HAND + p:
                k += 1
        if k >= left:
            out[n] = A_CARD + m
            n += 1
    return n


# =======================================================================================
# Scoring: one player's points by category, as final scoring counts them now

cdef void gr_score(const GRState *s, int p, int32_t *out) noexcept nogil:
    """Points of player p as final scoring counts them now (SC_* categories)."""
    cdef int m, q, v
    cdef bint best
    memset(out, 0, sizeof(int32_t) * SC_N)
    out[SC_INFLUENCE] = s.infl[p]
    for m in range(GR_NMAT):
        v = s.cnt[Z_VAULT + p][m]
        out[SC_VAULT] += v * VALUE[m]
        if v:
            best = True
            for q in range(s.nplayers):
                if q != p and s.cnt[Z_VAULT + q][m] >= v:
                    best = False
            if best:
                out[SC_BONUS] += MERCHANT_BONUS
    if not s.training:   # "if your Statue has been completed": one's own, finished
        for q in range(s.nstruct):
            if s.st_owner[q] == p and CARD_B[s.st_card[q]] == B_STATUE and s.st_flags[q] & SF_DONE:
                out[SC_STATUE] = STATUE_POINTS
    if HAS(s, p, B_WALL):
        out[SC_WALL] = zsum(s, Z_STOCK + p) // WALL_PER
    for m in range(SC_TOTAL):
        out[SC_TOTAL] += out[m]


# =======================================================================================
# Changes: card moves, derived fields and structures, each keeping the invariants

cdef inline void mv(GRState *s, int c, int z) noexcept nogil:
    """Moves card c to zone z, keeping the derived counts in step."""
    cdef int z0 = s.loc[c], m = CARD_M[c]
    if z0 < Z_NCOUNTED:
        s.cnt[z0][m] -= 1
    elif z0 == Z_DECK:
        s.deck_n[CARD_B[c]] -= 1
        s.deck_total -= 1
    elif z0 >= Z_MAT:
        s.st_nmat[z0 - Z_MAT] -= 1
    s.loc[c] = z
    if z < Z_NCOUNTED:
        s.cnt[z][m] += 1
    elif z == Z_DECK:
        s.deck_n[CARD_B[c]] += 1
        s.deck_total += 1
    elif z >= Z_MAT:
        s.st_nmat[z - Z_MAT] += 1


cdef inline void mv_public(GRState *s, int c, int z) noexcept nogil:
    mv(s, c, z)
    s.known[c] = allp(s)


cdef void refresh_struct(GRState *s) noexcept nogil:
    """Recomputes buildings owned, functions and Influence from the structures."""
    cdef int p, k, b, owner
    cdef uint64_t public = 0
    cdef uint8_t gate = 0
    cdef uint8_t flags
    for p in range(GR_MAXP):
        s.owned[p] = 0
        s.func[p] = 0
        s.infl[p] = START_INFL if p < s.nplayers else 0
    for k in range(s.nstruct):
        b = CARD_B[s.st_card[k]]
        owner = s.st_owner[k]
        flags = s.st_flags[k]
        s.owned[owner] |= (<uint64_t>1) << b
        if flags & SF_DONE:
            s.infl[s.st_holder[k]] += VALUE[s.st_site[k]]
            if b == B_GATE:
                gate |= 1 << owner
            if flags & SF_PUBLIC:
                public |= (<uint64_t>1) << b
    if s.training:
        return
    if (public >> B_GATE) & 1:
        gate = allp(s)
    for k in range(s.nstruct):
        b = CARD_B[s.st_card[k]]
        owner = s.st_owner[k]
        flags = s.st_flags[k]
        if flags & SF_DONE or ((gate >> owner) & 1 and (B_MAT[b] == M_MARBLE or flags & SF_MARBLE)):
            s.func[owner] |= (<uint64_t>1) << b
    for p in range(s.nplayers):
        s.func[p] |= public


cdef void gr_refresh(GRState *s) noexcept nogil:
    """Recomputes every derived field from the cards and structures."""
    cdef int c, z, m
    memset(s.cnt, 0, sizeof(s.cnt))
    memset(s.deck_n, 0, sizeof(s.deck_n))
    memset(s.st_nmat, 0, sizeof(s.st_nmat))
    s.deck_total = 0
    for c in range(GR_NCARDS):
        z = s.loc[c]
        m = CARD_M[c]
        if z < Z_NCOUNTED:
            s.cnt[z][m] += 1
        elif z == Z_DECK:
            s.deck_n[CARD_B[c]] += 1
            s.deck_total += 1
        elif Z_MAT <= z < Z_MAT + GR_NSLOTS:
            s.st_nmat[z - Z_MAT] += 1
    refresh_struct(s)


cdef void game_over(GRState *s, uint8_t forum_mask) noexcept nogil:
    """Ends the game at once; vaults are uncovered for the scoring."""
    cdef int c
    cdef uint8_t a = allp(s)
    s.phase = PH_OVER
    s.forum_win = forum_mask
    for c in range(GR_NCARDS):
        if Z_VAULT <= s.loc[c] < Z_VAULT + GR_MAXP:
            s.known[c] = a


cdef inline void push_frame(GRState *s, int role, int n) noexcept nogil:
    """A new action frame on top; beyond GR_MAXF nested frames the push is dropped
    (only a long chain of Bath hires inside Bar / Aqueduct actions could get there)."""
    cdef int k = s.nframes
    if k >= GR_MAXF:
        return
    s.fr_role[k] = role
    s.fr_stage[k] = ST_MAIN
    s.fr_n[k] = n if n < GR_U8_MAX else GR_U8_MAX
    s.nframes += 1


cdef inline void finish_action(GRState *s, int k, int used) noexcept nogil:
    """Frame k has executed (or declined) `used` actions."""
    cdef int v
    if s.fr_role[k] & FR_BASE:
        v = s.fr_n[k] + used
        s.fr_n[k] = v if v < GR_U8_MAX else GR_U8_MAX
    else:
        v = s.fr_n[k] - used
        s.fr_n[k] = v if v > 0 else 0
    s.fr_stage[k] = ST_MAIN


cdef inline void clear_frames(GRState *s) noexcept nogil:
    memset(s.fr_role, 0, sizeof(s.fr_role))
    memset(s.fr_stage, 0, sizeof(s.fr_stage))
    memset(s.fr_n, 0, sizeof(s.fr_n))
    s.nframes = 0


cdef void on_complete(GRState *s, int p, int b) noexcept nogil:
    """'Upon completion' effects of building b for p (also when p steals it)."""
    if s.training:
        return
    if b == B_CATACOMB:
        game_over(s, 0)
    elif b == B_SCHOOL:
        push_frame(s, R_THINKER, s.infl[p])
    elif b == B_FOUNDRY:
        push_frame(s, R_LABORER, s.infl[p])
    elif b == B_GARDEN:
        push_frame(s, R_PATRON, s.infl[p])
    elif b == B_AMPHITHEATRE:
        push_frame(s, R_CRAFTSMAN, s.infl[p])
    elif b == B_PRISON:
        push_frame(s, R_PRISON, 1)


cdef void complete(GRState *s, int k) noexcept nogil:
    s.st_flags[k] |= SF_DONE
    s.st_holder[k] = s.st_owner[k]
    refresh_struct(s)
    on_complete(s, s.st_owner[k], CARD_B[s.st_card[k]])


cdef void lay(GRState *s, int p, int c, int m, bint out) noexcept nogil:
    """Lays card c as p's foundation on a site of material m."""
    cdef int k = s.nstruct, i, left = 0
    s.nstruct += 1
    s.st_card[k] = c
    s.st_owner[k] = p
    s.st_site[k] = m
    s.st_flags[k] = SF_OUT if out else 0
    s.st_holder[k] = p
    mv_public(s, c, Z_FOUND + k)
    if out:
        s.out_town[m] -= 1
    else:
        s.in_town[m] -= 1
    refresh_struct(s)
    if not out:
        for i in range(GR_NMAT):
            left += s.in_town[i]
        if left == 0:
            game_over(s, 0)


cdef void add_material(GRState *s, int p, int c, int k, bint architect) noexcept nogil:
    """Puts card c as a material into p's structure k; completes it when due (value of
    the site, a Marble with a Scriptorium, any Architect material in a Villa)."""
    cdef int m = CARD_M[c], b = CARD_B[s.st_card[k]]
    mv_public(s, c, Z_MAT + k)
    if m == M_MARBLE and not (s.st_flags[k] & SF_MARBLE):
        s.st_flags[k] |= SF_MARBLE
        refresh_struct(s)
    if (s.st_nmat[k] >= VALUE[s.st_site[k]]
            or (m == M_MARBLE and HAS(s, p, B_SCRIPTORIUM))
            or (b == B_VILLA and architect and not s.training)):
        complete(s, k)


cdef void steal(GRState *s, int p, int k) noexcept nogil:
    """Prison: p takes structure k; the victim gets the Prison's site (+3 Influence)."""
    cdef int q = s.st_owner[k], j
    for j in range(s.nstruct):
        if s.st_owner[j] == p and CARD_B[s.st_card[j]] == B_PRISON and s.st_holder[j] == p:
            s.st_holder[j] = q
            break
    s.st_owner[k] = p
    refresh_struct(s)
    on_complete(s, p, CARD_B[s.st_card[k]])


cdef void make_public(GRState *s, int k, int c) noexcept nogil:
    """Stairway: material c into structure k makes its function everyone's."""
    mv_public(s, c, Z_MAT + k)
    if CARD_M[c] == M_MARBLE:
        s.st_flags[k] |= SF_MARBLE
    s.st_flags[k] |= SF_PUBLIC
    refresh_struct(s)


cdef inline void hire(GRState *s, int p, int c) noexcept nogil:
    mv_public(s, c, Z_CLIENT + p)
    s.fresh[p][CARD_M[c]] += 1


cdef void bath(GRState *s, int p, int r) noexcept nogil:
    """Bath: the new client of role r acts once, at once (before anything else)."""
    cdef int k = s.nframes - 1
    if not HAS(s, p, B_BATH) or s.phase == PH_OVER:
        return
    if not (s.fr_role[k] & FR_BASE) and s.fr_n[k] == 0 and s.fr_stage[k] == ST_MAIN:
        s.fr_role[k] = r          # the frame below is spent: take its place
        s.fr_n[k] = 1
        return
    push_frame(s, r, 1)


cdef void filch(GRState *s, int p, int b) noexcept nogil:
    """Basilica: a hand card into the vault, unseen by the others (who from now on
    cannot tell which of p's hand cards left)."""
    cdef int c = find_building(s, Z_HAND + p, b)
    cdef uint8_t me = 1 << p
    mv(s, c, Z_VAULT + p)
    s.known[c] = me
    for c in range(GR_NCARDS):
        if s.loc[c] == Z_HAND + p:
            s.known[c] &= me | KN_REVEALED


cdef void reveal(GRState *s, int p, int b) noexcept nogil:
    """Legionary: shows a hand card of building b to all as a demand."""
    cdef int c, best = -1, best_k = -1, k
    for c in range(B_LO[b], B_HI[b]):
        if s.loc[c] == Z_HAND + p and not (s.known[c] & KN_REVEALED):
            k = rc_popcount32(s.known[c] & GR_SEATS)
            if k > best_k:
                best, best_k = c, k
    s.known[best] = allp(s) | KN_REVEALED
    s.dem[CARD_M[best]] += 1
    s.leg_last = b


# =======================================================================================
# Turn flow: phases and turns, gr_step (one decision or draw), gr_forced (the rest)

cdef void start_turn(GRState *s, int leader) noexcept nogil:
    s.leader = leader
    s.actor = leader
    s.role = GR_NONE
    memset(s.units, 0, sizeof(s.units))
    memset(s.fresh, 0, sizeof(s.fresh))
    s.did_craft = 0
    s.follow_i = 0
    s.act_i = 0
    s.eot_step = EOT_SENATE
    s.eot_i = 0
    s.last_unit = 0
    clear_frames(s)
    s.phase = PH_LEAD


cdef inline void start_think(GRState *s, int p, int ret) noexcept nogil:
    s.actor = p
    s.think_ret = ret
    s.think_used = 0
    s.phase = PH_THINK


cdef inline void start_actor(GRState *s) noexcept nogil:
    clear_frames(s)
    s.fr_role[0] = s.role | FR_BASE
    s.nframes = 1
    s.actor = actp(s)
    s.phase = PH_ACT


cdef inline void next_follower(GRState *s) noexcept nogil:
    s.last_unit = 0
    s.follow_i += 1
    if s.follow_i >= s.nplayers:
        s.follow_i = 0
        s.act_i = 0
        start_actor(s)
    else:
        s.actor = (s.leader + s.follow_i) % s.nplayers
        s.phase = PH_FOLLOW


cdef void end_think(GRState *s) noexcept nogil:
    cdef int ret = s.think_ret, k
    s.think_ret = 0
    s.think_used = 0
    s.draw_left = 0
    if ret == RET_LEAD:
        start_turn(s, (s.leader + 1) % s.nplayers)
    elif ret == RET_FOLLOW:
        next_follower(s)
    elif ret == RET_ACADEMY:
        s.phase = PH_EOT
    else:
        k = s.nframes - 1
        if s.fr_n[k]:
            s.fr_n[k] -= 1
        s.actor = actp(s)
        s.phase = PH_ACT


cdef inline void after_unit(GRState *s) noexcept nogil:
    """A card, Jack or petition has been played to lead or follow."""
    s.units[s.actor] += 1
    if HAS(s, s.actor, B_PALACE):
        s.phase = PH_PALACE
    else:
        next_follower(s)


cdef int setup_step(GRState *s) noexcept nogil:
    """After the deals: the lowest alphabet rank leads; ties deal again.  Returns 1 when
    it moved on, 0 when a chance deal is due."""
    cdef int n = s.nplayers, p, best = GR_NONE, cnt = 0, who = 0
    cdef uint8_t cands, tied = 0
    if s.setup_i < (START_HAND + 1) * n or s.tie_dealt != s.tie_mask:
        return 0
    cands = s.tie_mask if s.tie_mask else allp(s)
    for p in range(n):
        if (cands >> p) & 1 and s.setup_rank[p] < best:
            best = s.setup_rank[p]
    for p in range(n):
        if (cands >> p) & 1 and s.setup_rank[p] == best:
            tied |= 1 << p
            cnt += 1
            who = p
    if cnt == 1:
        s.tie_mask = 0
        s.tie_dealt = 0
        start_turn(s, who)
        return 1
    s.tie_mask = tied
    s.tie_dealt = 0
    return 0


cdef inline void take_demanded(GRState *s, int zone, int p) noexcept nogil:
    """Each demanded material that zone holds, up to the demand, into p's stockpile."""
    cdef int m, c, _i
    for m in range(GR_NMAT):
        for _i in range(s.dem[m]):
            c = find_mat(s, zone, m)
            if c < 0:
                break
            mv_public(s, c, Z_STOCK + p)


cdef inline int legion_pool(GRState *s, int p) noexcept nogil:
    """The pool gives first; then the victims' hands, from the next seat."""
    take_demanded(s, Z_POOL, p)
    s.leg_stage = LEG_HANDS
    s.leg_v = 1
    s.leg_m = 0
    s.leg_last = 0
    s.give_left = 0
    return 1


cdef inline int legion_give_hand(GRState *s, int p, int q) noexcept nogil:
    """Victim q gives the current material from hand: by itself where there is no
    choice (all it has, or one building), else q chooses (PH_GIVE)."""
    cdef int m = s.leg_m, c
    cdef int have = s.cnt[Z_HAND + q][m]
    cdef uint64_t types
    if s.give_left == 0:
        s.give_left = s.dem[m] if s.dem[m] < have else have
        if s.give_left == 0:
            s.leg_m += 1
            return 1
    types = zone_buildings(s, Z_HAND + q, m) & ~((<uint64_t>1 << s.leg_last) - 1)
    if s.give_left >= have or rc_popcount64(types) == 1:
        while s.give_left and types:
            c = find_building(s, Z_HAND + q, rc_lsb64(types))
            if c < 0:
                types &= types - 1
                continue
            mv_public(s, c, Z_STOCK + p)
            s.give_left -= 1
        s.give_left = 0
        s.leg_last = 0
        s.leg_m += 1
        return 1
    s.actor = q
    s.phase = PH_GIVE
    return 1


cdef inline int legion_hands(GRState *s, int p) noexcept nogil:
    """Each victim in seat order gives from hand, material by material, then (with p's
    Bridge) from the stockpile; after the last, the Coliseum."""
    cdef int n = s.nplayers, q
    if s.leg_v >= n:
        s.leg_stage = LEG_COLISEUM
        s.leg_v = 1
        s.leg_last = 0
        memset(s.col_taken, 0, sizeof(s.col_taken))
        return 1
    q = (p + s.leg_v) % n
    if not is_victim(s, p, q, s.leg_v) or s.leg_m >= GR_NMAT:
        if s.leg_m >= GR_NMAT and HAS(s, p, B_BRIDGE):
            take_demanded(s, Z_STOCK + q, p)
        s.leg_v += 1
        s.leg_m = 0
        s.leg_last = 0
        s.give_left = 0
        return 1
    return legion_give_hand(s, p, q)


cdef inline int legion_coliseum(GRState *s, int p) noexcept nogil:
    """With p's Coliseum, each victim in seat order with clients to take: p chooses."""
    cdef int n = s.nplayers, q
    if s.leg_v >= n or not HAS(s, p, B_COLISEUM):
        s.leg_stage = LEG_DONE
        return 1
    q = (p + s.leg_v) % n
    if not is_victim(s, p, q, s.leg_v) or not coliseum_options(s, p, q):
        s.leg_v += 1
        s.leg_last = 0
        memset(s.col_taken, 0, sizeof(s.col_taken))
        return 1
    s.actor = p
    s.phase = PH_COLISEUM
    return 1


cdef inline int legion_done(GRState *s, int p) noexcept nogil:
    """Every Legionary action of the frame is spent: revealed cards hide again, the
    demands clear, and the frame's base actions (or none) remain."""
    cdef int c, i, k
    for c in range(GR_NCARDS):
        s.known[c] &= ~KN_REVEALED
    memset(s.dem, 0, sizeof(s.dem))
    memset(s.col_taken, 0, sizeof(s.col_taken))
    s.leg_stage = LEG_POOL
    s.leg_v = 0
    s.leg_m = 0
    s.leg_last = 0
    k = s.nframes - 1
    if s.fr_role[k] & FR_BASE:
        i = acts_total(s, p, s.fr_role[k] & FR_ROLE)
        s.fr_n[k] = i if i < GR_U8_MAX else GR_U8_MAX
    else:
        s.fr_n[k] = 0
    s.fr_stage[k] = ST_MAIN
    s.actor = p
    s.phase = PH_ACT
    return 1


cdef int legion_step(GRState *s) noexcept nogil:
    """One automatic step of resolving the demands in dem[]; sets PH_GIVE or
    PH_COLISEUM when someone has to choose.  The pool gives first, then each victim
    in seat order (hand, then with a Bridge the stockpile), then the Coliseum."""
    cdef int p = actp(s)
    if s.leg_stage == LEG_POOL:
        return legion_pool(s, p)
    if s.leg_stage == LEG_HANDS:
        return legion_hands(s, p)
    if s.leg_stage == LEG_COLISEUM:
        return legion_coliseum(s, p)
    return legion_done(s, p)


cdef int eot_step(GRState *s) noexcept nogil:
    """One automatic step of the end of the turn: Senates (in turn order), Sewers,
    played cards to the pool and Jacks to the pile, Academies, next leader."""
    cdef int n = s.nplayers, p, q, base, others
    cdef uint64_t camp
    if s.eot_step == EOT_SENATE:
        while s.eot_i < n:
            p = (s.leader + s.eot_i) % n
            if HAS(s, p, B_SENATE):
                others = 0
                for q in range(n):
                    if q != p:
                        others += s.jplayed[q]
                if others:
                    s.actor = p
                    s.phase = PH_SENATE
                    return 1
            s.eot_i += 1
        s.eot_step = EOT_SEWER
        s.eot_i = 0
        return 1
    if s.eot_step == EOT_SEWER:
        while s.eot_i < n:
            p = (s.leader + s.eot_i) % n
            if HAS(s, p, B_SEWER) and camp_has_cards(s, p):
                s.actor = p
                s.eot_last = 0
                s.phase = PH_SEWER
                return 1
            s.eot_i += 1
        s.eot_step = EOT_POOL
        s.eot_i = 0
        return 1
    if s.eot_step == EOT_POOL:
        for base in range(0, GR_NCARDS, 8):    # GR_NCARDS is a multiple of 8 (_load_tables)
            camp = zone_range8(&s.loc[base], Z_CAMP, Z_CAMP + GR_MAXP)
            while camp:
                mv_public(s, base + rc_pop_lsb64(&camp), Z_POOL)
        for p in range(n):
            s.jpile += s.jplayed[p]
            s.jplayed[p] = 0
        s.eot_step = EOT_ACADEMY
        s.eot_i = 0
        return 1
    while s.eot_i < n:
        p = (s.leader + s.eot_i) % n
        s.eot_i += 1
        if HAS(s, p, B_ACADEMY) and (s.did_craft >> p) & 1:
            start_think(s, p, RET_ACADEMY)
            return 1
    start_turn(s, (s.leader + 1) % n)
    return 1


cdef int act_step(GRState *s) noexcept nogil:
    """Frame bookkeeping in PH_ACT: pop spent frames, move to the next player, start
    a School's Thinker action.  Returns 1 when it changed something."""
    cdef int k, r, left, p
    if s.nframes == 0:
        s.act_i += 1
        if s.act_i >= s.nplayers:
            s.act_i = 0
            s.eot_step = EOT_SENATE
            s.eot_i = 0
            s.phase = PH_EOT
        else:
            start_actor(s)
        return 1
    k = s.nframes - 1
    r = s.fr_role[k] & FR_ROLE
    p = actp(s)
    s.actor = p
    if s.fr_stage[k] == ST_MAIN:
        if s.fr_role[k] & FR_BASE:
            left = acts_total(s, p, r) - s.fr_n[k]
        else:
            left = s.fr_n[k]
        if left <= 0:
            s.fr_role[k] = 0
            s.fr_n[k] = 0
            s.nframes -= 1
            return 1
        if r == R_THINKER:
            start_think(s, p, RET_FRAME)
            return 1
    elif s.fr_stage[k] == ST_STAIR and not HAS(s, p, B_STAIRWAY):
        s.fr_stage[k] = ST_MAIN
        return 1
    return 0


cdef void apply_setup(GRState *s, int b) noexcept nogil:
    cdef int n = s.nplayers, i = s.setup_i, c = draw_card(s, b), p
    cdef uint8_t todo
    if i < START_HAND * n:
        p = i % n
        mv(s, c, Z_HAND + p)
        s.known[c] = 1 << p
    else:
        if i < (START_HAND + 1) * n:
            p = i - START_HAND * n
        else:
            todo = s.tie_mask & ~s.tie_dealt
            p = rc_lsb32(todo) if todo else 0
            s.tie_dealt |= 1 << p
        mv_public(s, c, Z_POOL)
        s.setup_rank[p] = RANK[b]
    if s.setup_i < GR_U8_MAX:
        s.setup_i += 1
    if s.deck_total == 0:
        game_over(s, 0)


cdef void apply_units(GRState *s, int a) noexcept nogil:
    """PH_LEAD / PH_FOLLOW / PH_PALACE."""
    cdef int p = s.actor, b, c, r
    if a == A_THINK:
        start_think(s, p, RET_LEAD if s.phase == PH_LEAD else RET_FOLLOW)
        return
    if a == A_DONE:
        next_follower(s)
        return
    s.last_unit = a
    if a < A_JACK:
        b = a - A_CARD
        c = find_building(s, Z_HAND + p, b)
        mv_public(s, c, Z_CAMP + p)
        if s.phase == PH_LEAD:
            s.role = B_MAT[b]
        after_unit(s)
    elif a < A_PETITION:
        s.jacks[p] -= 1
        s.jplayed[p] += 1
        if s.phase == PH_LEAD:
            s.role = a - A_JACK
        after_unit(s)
    else:
        r = (a - A_PETITION) // GR_NMAT
        if s.phase == PH_LEAD:
            s.role = r
        s.pet_mat = (a - A_PETITION) % GR_NMAT
        s.pet_left = petition_size(s, p)
        s.pet_last = 0
        s.phase = PH_PETITION


cdef void apply_think(GRState *s, int a) noexcept nogil:
    cdef int p = s.actor, c, h, lim
    if a < A_JACK:
        c = find_building(s, Z_HAND + p, a - A_CARD)
        mv_public(s, c, Z_POOL)
        s.think_used = 1
    elif a == A_VOMIT:
        for c in range(GR_NCARDS):
            if s.loc[c] == Z_HAND + p:
                mv_public(s, c, Z_POOL)
        s.jpile += s.jacks[p]
        s.jacks[p] = 0
        s.think_used = 1
    elif a == A_THINK_JACK:
        s.jpile -= 1
        s.jacks[p] += 1
        end_think(s)
    elif a == A_THINK_DRAW:
        h = gr_hand_size(s, p)
        lim = gr_hand_limit(s, p)
        s.draw_left = lim - h if h < lim else 1
        s.phase = PH_DRAW
    else:
        end_think(s)


cdef void apply_target(GRState *s, int a) noexcept nogil:
    cdef int p = actp(s), k = s.nframes - 1, r = s.fr_role[k] & FR_ROLE
    cdef int c = s.sel_card
    s.sel_card = 0
    s.sel_src = 0
    if r == R_CRAFTSMAN:
        s.did_craft |= 1 << p
    if a == A_TO_HAND:
        finish_action(s, k, 1)
        mv(s, c, Z_HAND + p)
        return
    if a >= A_STRUCT:
        finish_action(s, k, 1)
        if r == R_ARCHITECT:
            s.fr_stage[k] = ST_STAIR
        add_material(s, p, c, a - A_STRUCT, r == R_ARCHITECT)
    elif a >= A_FOUND_OUT:
        finish_action(s, k, 1 if HAS(s, p, B_TOWER) else 2)
        if r == R_ARCHITECT:
            s.fr_stage[k] = ST_STAIR
        lay(s, p, c, a - A_FOUND_OUT, True)
    else:
        finish_action(s, k, 1)
        if r == R_ARCHITECT:
            s.fr_stage[k] = ST_STAIR
        lay(s, p, c, a - A_FOUND_IN, False)


cdef inline void do_stair(GRState *s, int p, int k, int a) noexcept nogil:
    """The Stairway: done, or a material chosen from the pool or stockpile."""
    if a == A_DONE:
        s.fr_stage[k] = ST_MAIN
        return
    if a < A_STOCK:
        s.sel_card = find_mat(s, Z_POOL, a - A_POOL)
        s.sel_src = SRC_POOL
    else:
        s.sel_card = find_mat(s, Z_STOCK + p, a - A_STOCK)
        s.sel_src = SRC_STOCK
    s.fr_stage[k] = ST_STAIR_TARGET


cdef inline void do_stair_target(GRState *s, int k, int a) noexcept nogil:
    """The Stairway's material added to the chosen structure, which becomes public."""
    cdef int c = s.sel_card
    s.sel_card = 0
    s.sel_src = 0
    s.fr_stage[k] = ST_MAIN
    make_public(s, a - A_STRUCT, c)


cdef inline void do_done(GRState *s, int k, int r, int st) noexcept nogil:
    """Done: a Legionary's demands resolve; otherwise the action ends (an Architect's
    main action then offers the Stairway)."""
    if r == R_LEGIONARY:
        s.phase = PH_LEGION
        s.leg_stage = LEG_POOL
        return
    finish_action(s, k, 1)
    if r == R_ARCHITECT and st == ST_MAIN:
        s.fr_stage[k] = ST_STAIR


cdef inline void do_laborer(GRState *s, int p, int k, int a) noexcept nogil:
    """Laborer: a hand card (Dock) or a pool material into the stockpile."""
    if a < A_JACK:
        mv_public(s, find_building(s, Z_HAND + p, a - A_CARD), Z_STOCK + p)
        finish_action(s, k, 1)
        return
    mv_public(s, find_mat(s, Z_POOL, a - A_POOL), Z_STOCK + p)
    if HAS(s, p, B_DOCK):
        s.fr_stage[k] = ST_DOCK
    else:
        finish_action(s, k, 1)


cdef inline void do_build(GRState *s, int p, int k, int a) noexcept nogil:
    """Craftsman or Architect: the card to build with is chosen (its target next), or
    the Fountain draws."""
    if a == A_DECK:
        s.xdraw = X_FOUNTAIN
        s.phase = PH_ACT_DRAW
        return
    if a < A_JACK:
        s.sel_card = find_building(s, Z_HAND + p, a - A_CARD)
        s.sel_src = SRC_HAND
        s.known[s.sel_card] = allp(s)   # the choice names the card
    elif a < A_STOCK:
        s.sel_card = find_mat(s, Z_POOL, a - A_POOL)
        s.sel_src = SRC_POOL
    else:
        s.sel_card = find_mat(s, Z_STOCK + p, a - A_STOCK)
        s.sel_src = SRC_STOCK
    s.fr_stage[k] = ST_TARGET


cdef inline void do_merchant(GRState *s, int p, int k, int a) noexcept nogil:
    """Merchant: a hand card (Basilica), the Atrium's draw, or a stockpile material
    into the vault."""
    if a < A_JACK:
        filch(s, p, a - A_CARD)
        finish_action(s, k, 1)
    elif a == A_DECK:
        s.xdraw = X_ATRIUM
        s.phase = PH_ACT_DRAW
    else:
        mv_public(s, find_mat(s, Z_STOCK + p, a - A_STOCK), Z_VAULT + p)
        if HAS(s, p, B_BASILICA):
            s.fr_stage[k] = ST_BASILICA
        else:
            finish_action(s, k, 1)


cdef inline void do_patron(GRState *s, int p, int k, int a) noexcept nogil:
    """Patron: the Bar's draw, or a client hired from hand (Aqueduct) or the pool,
    then the Bath."""
    cdef int c
    if a == A_DECK:
        s.xdraw = X_BAR
        s.phase = PH_ACT_DRAW
        return
    if a < A_JACK:
        c = find_building(s, Z_HAND + p, a - A_CARD)
        hire(s, p, c)
        finish_action(s, k, 1)
    else:
        c = find_mat(s, Z_POOL, a - A_POOL)
        hire(s, p, c)
        if HAS(s, p, B_BAR) or HAS(s, p, B_AQUEDUCT):
            s.fr_stage[k] = ST_BAR
        else:
            finish_action(s, k, 1)
    bath(s, p, CARD_M[c])


cdef void apply_act(GRState *s, int a) noexcept nogil:
    cdef int p = actp(s), k = s.nframes - 1
    cdef int r = s.fr_role[k] & FR_ROLE, st = s.fr_stage[k]
    if r == R_PRISON:
        s.fr_n[k] = 0
        if a != A_DONE:
            steal(s, p, a - A_STRUCT)
    elif st == ST_TARGET:
        apply_target(s, a)
    elif st == ST_STAIR:
        do_stair(s, p, k, a)
    elif st == ST_STAIR_TARGET:
        do_stair_target(s, k, a)
    elif a == A_DONE:
        do_done(s, k, r, st)
    elif r == R_LABORER:
        do_laborer(s, p, k, a)
    elif r == R_CRAFTSMAN or r == R_ARCHITECT:
        do_build(s, p, k, a)
    elif r == R_MERCHANT:
        do_merchant(s, p, k, a)
    elif r == R_LEGIONARY:
        reveal(s, p, a - A_CARD)
    elif r == R_PATRON:
        do_patron(s, p, k, a)


cdef void apply_act_draw(GRState *s, int b) noexcept nogil:
    """Fountain, Atrium or Bar: the card drawn is of building b."""
    cdef int p = actp(s), k = s.nframes - 1, c = draw_card(s, b), x = s.xdraw
    s.xdraw = 0
    s.phase = PH_ACT
    if x == X_FOUNTAIN:
        mv(s, c, Z_DRAWN)
        s.known[c] = 1 << p
        s.sel_card = c
        s.sel_src = SRC_DRAWN
        s.fr_stage[k] = ST_TARGET
    elif x == X_ATRIUM:
        mv(s, c, Z_VAULT + p)
        s.known[c] = 0
        if HAS(s, p, B_BASILICA):
            s.fr_stage[k] = ST_BASILICA
        else:
            finish_action(s, k, 1)
    else:
        hire(s, p, c)
        if HAS(s, p, B_AQUEDUCT):
            s.fr_stage[k] = ST_AQ
        else:
            finish_action(s, k, 1)
    if s.deck_total == 0:
        game_over(s, 0)
        return
    if x == X_BAR:
        bath(s, p, CARD_M[c])


cdef void step_effects(GRState *s, int a) noexcept nogil:
    """One decision or chance outcome and its direct effects, by phase."""
    cdef int ph = s.phase, p = s.actor, c, q
    if ph == PH_SETUP:
        apply_setup(s, a - CH_CARD)
    elif ph == PH_DRAW:
        c = draw_card(s, a - CH_CARD)
        mv(s, c, Z_HAND + p)
        s.known[c] = 1 << p
        if s.draw_left:
            s.draw_left -= 1
        if s.deck_total == 0:
            game_over(s, 0)
        elif s.draw_left == 0:
            end_think(s)
    elif ph == PH_ACT_DRAW:
        apply_act_draw(s, a - CH_CARD)
    elif ph == PH_ACT:
        apply_act(s, a)
    elif ph == PH_LEAD or ph == PH_FOLLOW or ph == PH_PALACE:
        apply_units(s, a)
    elif ph == PH_PETITION:
        c = find_building(s, Z_HAND + p, a - A_CARD)
        mv_public(s, c, Z_CAMP + p)
        s.pet_last = a - A_CARD
        s.pet_left -= 1
        if s.pet_left == 0:
            s.pet_mat = 0
            s.pet_last = 0
            after_unit(s)
    elif ph == PH_THINK:
        apply_think(s, a)
    elif ph == PH_GIVE:
        c = find_building(s, Z_HAND + p, a - A_CARD)
        mv_public(s, c, Z_STOCK + actp(s))
        s.give_left -= 1
        s.leg_last = a - A_CARD
        if s.give_left == 0:
            s.leg_m += 1
            s.leg_last = 0
        s.phase = PH_LEGION
    elif ph == PH_COLISEUM:
        if a == A_DONE:
            s.leg_v += 1
            s.leg_last = 0
            memset(s.col_taken, 0, sizeof(s.col_taken))
        else:
            q = (p + s.leg_v) % s.nplayers
            c = find_mat(s, Z_CLIENT + q, a - A_COLISEUM)
            mv_public(s, c, Z_VAULT + p)
            # a slain client is one that would have acted this turn, if any
            if s.fresh[q][a - A_COLISEUM] > s.cnt[Z_CLIENT + q][a - A_COLISEUM]:
                s.fresh[q][a - A_COLISEUM] -= 1
            s.col_taken[a - A_COLISEUM] += 1
            s.leg_last = a - A_COLISEUM
        s.phase = PH_LEGION
    elif ph == PH_SENATE:
        if a == A_DONE:
            s.eot_i += 1
            s.eot_last = 0
            s.phase = PH_EOT
        else:
            q = (p + a - A_SENATE + 1) % s.nplayers
            s.jplayed[q] -= 1
            s.jacks[p] += 1
            s.eot_last = a - A_SENATE
    elif ph == PH_SEWER:
        if a == A_DONE:
            s.eot_i += 1
            s.eot_last = 0
            s.phase = PH_EOT
        else:
            c = find_mat(s, Z_CAMP + p, a - A_SEWER)
            mv_public(s, c, Z_STOCK + p)
            s.eot_last = a - A_SEWER


cdef void gr_step(GRState *s, int a) noexcept nogil:
    """Applies exactly one decision or chance outcome (counted in steps, the history's
    length) and its direct effects; a forced step is the same effects, uncounted."""
    if s.steps < GR_STEPS_MAX:
        s.steps += 1
    step_effects(s, a)


cdef inline uint8_t forum_winners(const GRState *s) noexcept nogil:
    """The seats (bit p) whose Forum wins now.  Most states have no Forum built: one
    test of every seat's functions together (unused seats have none) settles those."""
    cdef uint64_t funcs = 0
    cdef uint8_t forum = 0
    cdef int p
    for p in range(GR_MAXP):
        funcs |= s.func[p]
    if (funcs >> B_FORUM) & 1:
        for p in range(s.nplayers):
            if HAS(s, p, B_FORUM) and gr_forum_ok(s, p):
                forum |= 1 << p
    return forum


cdef int gr_forced(GRState *s, int32_t *buf) noexcept nogil:
    """Takes every step that needs no decision and no chance (and every decision or
    draw with a single outcome) until one does; then the engine limit may end the game.
    Returns the legal actions of the state it stops at, written to buf (GR_MAXLEGAL
    entries) when it listed them on the way (a decision: gr_legal's list), 0 at the end
    of the game, else -1 (a draw: not listed)."""
    cdef int ph, n = -1, _i
    cdef uint8_t forum
    cdef bint effects = True   # a step's effects since the Forum was last looked at
    for _i in range(GR_FORCED_MAX):
        ph = s.phase
        if ph == PH_OVER:
            break
        # Only a step's effects hire clients or change buildings' functions: the
        # bookkeeping steps between them cannot make a Forum win.
        if effects:
            effects = False
            forum = forum_winners(s)
            if forum:
                game_over(s, forum)
                break
        if ph == PH_SETUP:
            if setup_step(s):
                continue
            if single_chance(s):
                step_effects(s, first_chance(s))
                effects = True
                continue
            break
        if ph == PH_DRAW or ph == PH_ACT_DRAW:
            if single_chance(s):
                step_effects(s, first_chance(s))
                effects = True
                continue
            break
        if ph == PH_ACT:
            if act_step(s):
                continue
        elif ph == PH_LEGION:
            legion_step(s)
            continue
        elif ph == PH_EOT:
            eot_step(s)
            continue
        n = gr_legal(s, buf)
        if n == 1:
            step_effects(s, buf[0])
            effects = True
            n = -1
            continue
        break
    else:
        game_over(s, 0)   # never reached: no chain of forced steps is this long
    if s.phase != PH_OVER and s.steps >= GR_MAX_GAME_LENGTH:
        game_over(s, 0)
    return 0 if s.phase == PH_OVER else n


# =======================================================================================
# Interface: the rc_kernel functions, in the table's order

cdef void gr_init(void *vs, const int32_t *params) noexcept nogil:
    cdef GRState *s = <GRState *>vs
    cdef int n = params[0], c, m, p
    if n < GR_MINP:
        n = GR_MINP
    if n > GR_MAXP:
        n = GR_MAXP
    memset(s, 0, sizeof(GRState))
    s.nplayers = n
    s.training = 1 if params[1] else 0
    for c in range(GR_NCARDS):
        s.loc[c] = Z_DECK
    for p in range(n):
        s.jacks[p] = 1
    s.jpile = GR_NJACKS - n
    for m in range(GR_NMAT):
        s.in_town[m] = n
        s.out_town[m] = SITES_PER_MAT - n
    s.role = GR_NONE
    gr_refresh(s)
    s.phase = PH_SETUP


cdef int gr_num_players(const void *vs) noexcept nogil:
    return (<const GRState *>vs).nplayers


cdef int gr_current_player(const void *vs) noexcept nogil:
    cdef const GRState *s = <const GRState *>vs
    if s.phase == PH_OVER:
        return RC_TERMINAL
    if is_chance_phase(s.phase):
        return RC_CHANCE
    return s.actor


cdef inline int legal_draws(const GRState *s, int32_t *out) noexcept nogil:
    """The buildings left in the draw pile: gr_chance_outcomes' list, without the
    probabilities (a quarter of a step loop's listings are draws)."""
    cdef int b, n = 0
    for b in range(GR_NBUILD):
        if s.deck_n[b]:
            out[n] = CH_CARD + b
            n += 1
    return n


cdef int gr_legal(const void *vs, int32_t *out) noexcept nogil:
    cdef const GRState *s = <const GRState *>vs
    cdef int ph = s.phase, p = s.actor, n = 0, m, j, q
    if ph == PH_OVER:
        return 0
    if is_chance_phase(ph):
        return legal_draws(s, out)
    if ph == PH_ACT:
        return legal_act(s, out)
    if ph == PH_LEAD:
        n = legal_units(s, p, -1, 0, out)
        out[n] = A_THINK
        return n + 1
    if ph == PH_FOLLOW:
        n = legal_units(s, p, s.role, 0, out)
        out[n] = A_THINK
        return n + 1
    if ph == PH_PALACE:
        n = legal_units(s, p, s.role, s.last_unit, out)
        out[n] = A_DONE
        return n + 1
    if ph == PH_PETITION:
        return n + legal_cards_in_order(s, p, s.pet_mat, s.pet_last, s.pet_left, out + n)
    if ph == PH_THINK:
        return legal_think(s, out)
    if ph == PH_GIVE:
        return n + legal_cards_in_order(s, p, s.leg_m, s.leg_last, s.give_left, out + n)
    if ph == PH_COLISEUM:
        q = (actp(s) + s.leg_v) % s.nplayers
        if vault_room(s, p):
            for m in range(s.leg_last, GR_NMAT):
                if s.dem[m] > s.col_taken[m] and s.cnt[Z_CLIENT + q][m]:
                    out[n] = A_COLISEUM + m
                    n += 1
        out[n] = A_DONE
        return n + 1
    if ph == PH_SENATE:
        for j in range(s.eot_last + 1, s.nplayers):
            if s.jplayed[(p + j) % s.nplayers]:
                out[n] = A_SENATE + j - 1
                n += 1
        out[n] = A_DONE
        return n + 1
    if ph == PH_SEWER:
        for m in range(s.eot_last, GR_NMAT):
            if find_mat(s, Z_CAMP + p, m) >= 0:
                out[n] = A_SEWER + m
                n += 1
        out[n] = A_DONE
        return n + 1
    return 0


cdef int gr_chance_outcomes(const void *vs, int32_t *acts, double *probs) noexcept nogil:
    cdef const GRState *s = <const GRState *>vs
    cdef int b, n = 0
    cdef double total = s.deck_total
    for b in range(GR_NBUILD):
        if s.deck_n[b]:
            acts[n] = CH_CARD + b
            probs[n] = s.deck_n[b] / total
            n += 1
    return n


cdef int32_t gr_sample_chance(const void *vs, rc_rng *rng) noexcept nogil:
    """The k-th card of the draw pile by building: eight buildings' counts are summed at
    once (bytes of at most MAX_COPIES, so eight fit in the multiply's top byte)."""
    cdef const GRState *s = <const GRState *>vs
    cdef int b = 0, k, eight
    cdef uint64_t v
    if s.deck_total == 0:
        return CH_CARD
    k = rc_rng_below(rng, s.deck_total)
    while b < GR_NBUILD - 8:
        memcpy(&v, &s.deck_n[b], 8)
        eight = <int>((v * 0x0101010101010101ULL) >> 56)
        if k < eight:
            break
        k -= eight
        b += 8
    for b in range(b, GR_NBUILD):
        if k < s.deck_n[b]:
            return CH_CARD + b
        k -= s.deck_n[b]
    return CH_CARD


cdef void gr_apply(void *vs, int32_t a) noexcept nogil:
    cdef GRState *s = <GRState *>vs
    cdef int32_t buf[GR_MAXLEGAL]
    gr_step(s, a)
    gr_forced(s, buf)


cdef int gr_apply_legal(void *vs, int32_t a, int32_t *out) noexcept nogil:
    """gr_apply, handing on the legal list gr_forced made of the state it stopped at (so
    a step loop does not list it again), or -1 where it made none."""
    cdef GRState *s = <GRState *>vs
    gr_step(s, a)
    return gr_forced(s, out)


cdef void gr_returns(const void *vs, double *out) noexcept nogil:
    """Winners share 1.0: the Forum winner(s), else everyone; among them most points,
    then most cards in hand."""
    cdef const GRState *s = <const GRState *>vs
    cdef int32_t sc[SC_N]
    cdef int64_t key[GR_MAXP]
    cdef int p
    cdef uint8_t cands = s.forum_win if s.forum_win else allp(s)
    for p in range(s.nplayers):
        key[p] = -1
        if (cands >> p) & 1:
            gr_score(s, p, sc)
            key[p] = (<int64_t>sc[SC_TOTAL] << 16) + gr_hand_size(s, p)
    rc_share_wins(key, s.nplayers, out)


cdef void gr_scores(const void *vs, int32_t *out) noexcept nogil:
    """Each player's points as final scoring would count them now."""
    cdef const GRState *s = <const GRState *>vs
    cdef int32_t sc[SC_N]
    cdef int p
    for p in range(s.nplayers):
        gr_score(s, p, sc)
        out[p] = sc[SC_TOTAL]


cdef enum:
    RESAMPLE_TRIES = 4000


cdef int resample_once(GRState *s, int p, int frozen, rc_rng *rng) noexcept nogil:
    """One uniform permutation of the identities p does not know (cards in seat
    `frozen`'s hand excepted when frozen >= 0); returns the number permuted."""
    cdef uint8_t members[GR_NCARDS]
    cdef uint8_t shuffled[GR_NCARDS]
    cdef uint8_t mapping[GR_NCARDS]
    cdef uint8_t loc[GR_NCARDS]
    cdef uint8_t known[GR_NCARDS]
    cdef int c, n = 0, i
    cdef uint8_t pbit = 1 << p
    for c in range(GR_NCARDS):
        mapping[c] = c
        if not (s.known[c] & pbit) and not (frozen >= 0 and s.loc[c] == Z_HAND + frozen):
            members[n] = c
            shuffled[n] = c
            n += 1
    rc_shuffle_u8(shuffled, n, rng)
    for i in range(n):
        mapping[members[i]] = shuffled[i]
    memcpy(loc, s.loc, GR_NCARDS)
    memcpy(known, s.known, GR_NCARDS)
    for i in range(n):
        c = members[i]
        s.loc[mapping[c]] = loc[c]
        s.known[mapping[c]] = known[c]
    if s.sel_src == SRC_DRAWN and s.phase == PH_ACT:
        s.sel_card = mapping[s.sel_card]
    gr_refresh(s)
    return n


cdef bint world_ok(const GRState *s) noexcept nogil:
    """Whether a resampled world is a state the game could be in: gr_validate accepts it,
    and, as State._check_struct checks of every game, a live one has a legal action.  The
    latter is what refuses a petitioner's or a Legionary victim's redrawn hand without
    enough cards of the material (from the last one given on)."""
    cdef int32_t buf[GR_MAXLEGAL]
    return gr_validate(s) == NULL and (s.phase == PH_OVER or gr_legal(s, buf) > 0)


cdef void gr_resample(void *vs, int p, rc_rng *rng) noexcept nogil:
    """Redraws the identity of every card p does not know where it is (the draw pile,
    opponents' hidden hand cards, hidden vault cards, someone else's Fountain draw):
    one knowledge class, since p learns nothing about such a card but that it is
    none of the cards p has seen.  Slots keep their zone and who knows them.

    A few public commitments also constrain hidden hands: a petition being chosen
    (the petitioner still holds enough cards of its material, in building order from
    the last one given) and a Legionary victim about to give.  Worlds breaking them are
    rejected (world_ok decides), which keeps the draw uniform over the consistent
    worlds; after RESAMPLE_TRIES misses the deciding player's hand keeps its true cards
    and the rest is redrawn."""
    cdef GRState *s = <GRState *>vs
    cdef GRState orig
    cdef int _attempt
    memcpy(&orig, s, sizeof(GRState))
    for _attempt in range(RESAMPLE_TRIES):
        resample_once(s, p, -1, rng)
        if world_ok(s):
            return
        memcpy(s, &orig, sizeof(GRState))
    resample_once(s, p, s.actor, rng)


cdef enum:
    # the public part of a hidden action (gr_observe_action): what kind of card moved
    SEEN_HAND_DRAW = 1    # a card dealt or drawn into someone's hand
    SEEN_FOUNTAIN = 2     # someone's Fountain draw
    SEEN_ATRIUM = 3       # an Atrium draw into a vault, seen by nobody
    SEEN_BASILICA = 4     # a hand card into the acting Merchant's vault


cdef uint32_t gr_observe_action(const void *vs, int observer, int32_t a) noexcept nogil:
    """What observer sees of action a: draws into a hand are seen by the drawer only,
    a Fountain draw by the drawer, an Atrium draw by nobody, a Basilica card by its
    owner; everything else is public."""
    cdef const GRState *s = <const GRState *>vs
    cdef int ph = s.phase, k
    if ph == PH_SETUP:
        if s.setup_i < START_HAND * s.nplayers and observer != s.setup_i % s.nplayers:
            return RC_HIDDEN | SEEN_HAND_DRAW
        return <uint32_t>a
    if ph == PH_DRAW:
        return <uint32_t>a if observer == s.actor else RC_HIDDEN | SEEN_HAND_DRAW
    if ph == PH_ACT_DRAW:
        if s.xdraw == X_ATRIUM:
            return RC_HIDDEN | SEEN_ATRIUM
        if s.xdraw == X_FOUNTAIN and observer != s.actor:
            return RC_HIDDEN | SEEN_FOUNTAIN
        return <uint32_t>a
    if ph == PH_ACT and a < A_JACK and s.nframes:
        k = s.nframes - 1
        if (s.fr_role[k] & FR_ROLE) == R_MERCHANT and s.fr_stage[k] != ST_TARGET and observer != s.actor:
            return RC_HIDDEN | SEEN_BASILICA
    return <uint32_t>a


cdef int32_t gr_tensor_size(const int32_t *params) noexcept nogil:
    """A common block and one block per seat."""
    return GR_TENSOR_COMMON + params[0] * GR_TENSOR_PLAYER


cdef inline void put_count(float *out, const uint8_t *cnt, int d, int b, float *junk) noexcept nogil:
    """Writes the count at offset d (a card of building b counts there) divided by the
    building's copies; T_NONE goes to junk (a pointer select, not a branch per card)."""
    cdef float *w = out + d if d < T_NONE else junk
    w[0] = COPIES_FRAC[b][cnt[d]]


cdef inline int or_junk(int d, int i, int c) noexcept nogil:
    """d + i, or card c's scratch count where d is T_NONE (a mask, not a branch)."""
    cdef int none = -(d >= T_NONE)
    return ((d + i) & ~none) | ((T_JUNK + c) & none)


cdef inline void seat_zone_offsets(const GRState *s, int player, int16_t (*slice_of)[Z_END],
                                   int16_t (*count_of)[Z_END]) noexcept nogil:
    """The seats' zones in player's tensor: each seat's by-building slices and counts."""
    cdef int j, q, base
    for j in range(s.nplayers):
        q = (player + j) % s.nplayers
        base = GR_TENSOR_COMMON + GR_TENSOR_PLAYER * j
        slice_of[1][Z_HAND + q] = base + TP_HAND
        count_of[0][Z_HAND + q] = base + TP_HAND_SIZE
        count_of[1][Z_HAND + q] = base + TP_HAND_SIZE
        slice_of[0][Z_STOCK + q] = base + TP_STOCK
        slice_of[1][Z_STOCK + q] = base + TP_STOCK
        slice_of[1][Z_VAULT + q] = base + TP_VAULT
        count_of[0][Z_VAULT + q] = base + TP_VAULT_HIDDEN
        slice_of[0][Z_CLIENT + q] = base + TP_CLIENTS
        slice_of[1][Z_CLIENT + q] = base + TP_CLIENTS
        slice_of[0][Z_CAMP + q] = base + TP_CAMP
        slice_of[1][Z_CAMP + q] = base + TP_CAMP


cdef inline void read_cards(const GRState *s, uint64_t *read) noexcept nogil:
    """The cards in zones that count (ZONE_READ) as a set of ids: the deck and the
    foundations, most cards, are skipped."""
    cdef int j, c, first, last
    cdef uint64_t word
    for j in range(CARD_WORDS):
        first = WORD_BITS * j
        last = first + WORD_BITS if first + WORD_BITS < GR_NCARDS else GR_NCARDS
        word = 0
        for c in range(first, last):
            word |= <uint64_t>ZONE_READ[s.loc[c]] << (c - first)
        read[j] = word


cdef inline void count_cards(const GRState *s, int player, const uint64_t *read,
                             int16_t (*slice_of)[Z_END], int16_t (*count_of)[Z_END],
                             uint8_t *cnt, int16_t *dst, float *out) noexcept nogil:
    """Counts each read card at its by-building offset, its zone's card count and its
    structure's materials (by player's knowledge of it), then writes the by-building
    counts."""
    cdef int j, c, b, z, k
    cdef uint64_t bits
    cdef float junk
    for j in range(CARD_WORDS):
        bits = read[j]
        while bits:
            c = WORD_BITS * j + rc_pop_lsb64(&bits)
            b = CARD_B[c]
            z = s.loc[c]
            k = (s.known[c] >> player) & 1
            dst[c] = slice_of[k][z] + b
            cnt[dst[c]] += 1
            cnt[or_junk(count_of[k][z], 0, c)] += 1
            cnt[or_junk(ZONE_MATERIAL[z], CARD_M[c], c)] += 1
    for j in range(CARD_WORDS):
        bits = read[j]
        while bits:
            c = WORD_BITS * j + rc_pop_lsb64(&bits)
            put_count(out, cnt, dst[c], CARD_B[c], &junk)


cdef inline void count_revealed(const GRState *s, uint8_t *cnt, float *out) noexcept nogil:
    """The cards revealed to a Legionary's demand, by building."""
    cdef int c
    cdef float junk
    cdef uint8_t revealed = 0
    for c in range(GR_NCARDS):
        revealed |= s.known[c]
    if not revealed & KN_REVEALED:   # only while a demand is being made
        return
    for c in range(GR_NCARDS):
        if s.known[c] & KN_REVEALED:
            cnt[TC_REVEALED + CARD_B[c]] += 1
    for c in range(GR_NCARDS):
        if s.known[c] & KN_REVEALED:
            put_count(out, cnt, TC_REVEALED + CARD_B[c], CARD_B[c], &junk)


cdef inline void tensor_town(const GRState *s, int player, const uint8_t *cnt, float *out) noexcept nogil:
    """Phase, role, counts of the deck and piles, sites and demands by material, and the
    selected card where player knows it."""
    cdef int m, top
    out[TC_DRAWN_HIDDEN] = cnt[TC_DRAWN_HIDDEN] / <float>GR_NCARDS
    out[TC_PHASE + s.phase] = 1
    if s.role < GR_NMAT:
        out[TC_ROLE + s.role] = 1
    out[TC_STEPS] = s.steps / <float>GR_MAX_GAME_LENGTH
    out[TC_DECK] = s.deck_total / <float>GR_NCARDS
    out[TC_JACK_PILE] = s.jpile / <float>GR_NJACKS
    for m in range(GR_NMAT):
        out[TC_IN_TOWN + m] = s.in_town[m] / <float>SITES_PER_MAT
        out[TC_OUT_TOWN + m] = s.out_town[m] / <float>SITES_PER_MAT
        out[TC_PET_MAT + m] = s.pet_mat == m
        out[TC_DEMANDS + m] = s.dem[m] / <float>GR_PER_MAT
        out[TC_COL_TAKEN + m] = s.col_taken[m] / <float>GR_PER_MAT
    top = s.nframes - 1
    if (s.phase == PH_ACT and s.nframes and (s.fr_stage[top] == ST_TARGET or s.fr_stage[top] == ST_STAIR_TARGET)
            and (s.known[s.sel_card] >> player) & 1):
        out[TC_SELECTED + CARD_B[s.sel_card]] = 1
        out[TC_SEL_SRC + s.sel_src] = 1


cdef inline void tensor_structs(const GRState *s, int player, const uint8_t *cnt, float *out) noexcept nogil:
    """Each structure's slot: building, owner, holder, site, flags and materials."""
    cdef int n = s.nplayers, k, m, d
    cdef float *t
    for k in range(s.nstruct):
        t = out + TC_STRUCTS + GR_TENSOR_SLOT * k
        t[TS_BUILDING + CARD_B[s.st_card[k]]] = 1
        t[TS_OWNER + (s.st_owner[k] - player + n) % n] = 1
        t[TS_HOLDER + (s.st_holder[k] - player + n) % n] = 1
        t[TS_SITE + s.st_site[k]] = 1
        t[TS_OUT] = (s.st_flags[k] & SF_OUT) != 0
        t[TS_DONE] = (s.st_flags[k] & SF_DONE) != 0
        t[TS_PUBLIC] = (s.st_flags[k] & SF_PUBLIC) != 0
        for m in range(GR_NMAT):    # a site's value, one more on a Stairway's target
            d = cnt[TC_STRUCTS + GR_TENSOR_SLOT * k + TS_MATERIALS + m]
            t[TS_MATERIALS + m] = (d if d < STRUCT_MAT_BOUND else STRUCT_MAT_BOUND) / <float>STRUCT_MAT_BOUND


cdef inline void tensor_flow(const GRState *s, float *out) noexcept nogil:
    """The turn's flow: each action frame, the follow, act and end-of-turn steps, the
    Legionary's and the draws' counters."""
    cdef int k
    cdef float *t
    for k in range(s.nframes):
        t = out + TC_FRAMES + GR_TENSOR_FRAME * k
        t[TF_ROLE + (s.fr_role[k] & FR_ROLE)] = 1
        t[TF_BASE] = (s.fr_role[k] & FR_BASE) != 0
        t[TF_STAGE + s.fr_stage[k]] = 1
        t[TF_N] = s.fr_n[k] / <float>GR_U8_MAX
    out[TC_FOLLOW_I + s.follow_i] = 1
    out[TC_ACT_I + s.act_i] = 1
    out[TC_EOT_STEP + s.eot_step] = 1
    out[TC_EOT_I + s.eot_i] = 1
    out[TC_THINK_RET + s.think_ret] = 1
    out[TC_THINK_USED] = s.think_used
    out[TC_DRAW_LEFT] = s.draw_left / <float>GR_U8_MAX
    out[TC_PET_LEFT] = s.pet_left / <float>PET_CARDS
    out[TC_XDRAW + s.xdraw] = 1
    out[TC_LEG_STAGE + s.leg_stage] = 1
    out[TC_LEG_V + s.leg_v] = 1
    out[TC_LEG_M + s.leg_m] = 1
    out[TC_GIVE_LEFT] = s.give_left / <float>GR_PER_MAT
    out[TC_SETUP_DEALT] = s.setup_i / <float>GR_U8_MAX


cdef inline void tensor_seat(const GRState *s, int q, int cur, const uint8_t *cnt, int base,
                             float *out) noexcept nogil:
    """Seat q's block at offset base: hidden counts, Jacks, influence, clients and flags."""
    cdef int m
    cdef float *o = out + base
    o[TP_HAND_SIZE] = cnt[base + TP_HAND_SIZE] / <float>GR_NCARDS
    o[TP_VAULT_HIDDEN] = cnt[base + TP_VAULT_HIDDEN] / <float>GR_NCARDS
    o[TP_JACKS] = s.jacks[q] / <float>GR_NJACKS
    o[TP_JACKS_PLAYED] = s.jplayed[q] / <float>GR_NJACKS
    o[TP_INFLUENCE] = s.infl[q] / <float>INFL_BOUND
    o[TP_UNITS] = s.units[q] / <float>GR_U8_MAX
    for m in range(GR_NMAT):
        o[TP_NEW_CLIENTS + m] = s.fresh[q][m] / <float>GR_PER_MAT
    o[TP_LEADER] = q == s.leader
    o[TP_ACTOR] = q == cur
    o[TP_DID_CRAFT] = (s.did_craft >> q) & 1
    o[TP_TIE] = (s.tie_mask >> q) & 1
    o[TP_TIE_DEALT] = (s.tie_dealt >> q) & 1
    o[TP_FORUM_WIN] = (s.forum_win >> q) & 1


cdef void gr_observation_tensor(const void *vs, int player, float *out) noexcept nogil:
    """What player knows as the layout of kernel.pxd's TC_* / TS_* / TF_* / TP_* slices:
    every public zone by building, the hand and vault cards player knows (the rest as
    counts), and the turn, frame and demand fields.  Cards are counted through tables of
    offsets by zone and knowledge (no branch per card), only those in zones that count."""
    cdef const GRState *s = <const GRState *>vs
    cdef int n = s.nplayers, j, cur
    cdef int size = GR_TENSOR_COMMON + n * GR_TENSOR_PLAYER
    cdef uint8_t cnt[T_JUNK + GR_NCARDS]   # cards counted at each offset (T_NONE: nowhere)
    cdef int16_t slice_of[2][Z_END]        # [knows][zone]: its by-building slice
    cdef int16_t count_of[2][Z_END]        # [knows][zone]: the cell counting it as a card
    cdef int16_t dst[GR_NCARDS]            # each card's offset in its by-building slice
    cdef uint64_t read[CARD_WORDS]
    memset(out, 0, sizeof(float) * size)
    memset(cnt, 0, sizeof(cnt))
    memcpy(slice_of, ZONE_SLICE, sizeof(slice_of))
    memcpy(count_of, ZONE_COUNT, sizeof(count_of))
    seat_zone_offsets(s, player, slice_of, count_of)
    read_cards(s, read)
    count_cards(s, player, read, slice_of, count_of, cnt, dst, out)
    count_revealed(s, cnt, out)
    tensor_town(s, player, cnt, out)
    tensor_structs(s, player, cnt, out)
    tensor_flow(s, out)
    cur = gr_current_player(vs)
    for j in range(n):
        tensor_seat(s, (player + j) % n, cur, cnt, GR_TENSOR_COMMON + GR_TENSOR_PLAYER * j, out)


# =======================================================================================
# Validation: gr_validate, a sequence of named checks of a struct from outside

cdef inline bint zone_ok(int z, int n, int nstruct) noexcept nogil:
    if z == Z_POOL or z == Z_DECK or z == Z_DRAWN:
        return True
    if Z_HAND <= z < Z_CAMP + GR_MAXP:
        return (z - Z_HAND) % GR_MAXP < n
    if Z_FOUND <= z < Z_FOUND + GR_NSLOTS:
        return z - Z_FOUND < nstruct
    if Z_MAT <= z < Z_MAT + GR_NSLOTS:
        return z - Z_MAT < nstruct
    return False


cdef const char *check_stage(int role, int stage, bint top) noexcept nogil:
    if stage > ST_STAIR_TARGET:
        return "frame stage out of range"
    if stage == ST_MAIN:
        return NULL
    if role >= R_THINKER:
        return "a Thinker or Prison frame in a sub-stage"
    if (stage == ST_TARGET or stage == ST_STAIR_TARGET) and not top:
        return "a card selection below the top frame"
    if stage == ST_TARGET and role != R_CRAFTSMAN and role != R_ARCHITECT:
        return "a target stage outside Craftsman or Architect"
    if stage == ST_DOCK and role != R_LABORER:
        return "Dock stage outside a Laborer frame"
    if stage == ST_BASILICA and role != R_MERCHANT:
        return "Basilica stage outside a Merchant frame"
    if (stage == ST_BAR or stage == ST_AQ) and role != R_PATRON:
        return "Bar stage outside a Patron frame"
    if (stage == ST_STAIR or stage == ST_STAIR_TARGET) and role != R_ARCHITECT:
        return "Stairway stage outside an Architect frame"
    return NULL


cdef inline const char *check_padding(const GRState *s) noexcept nogil:
    """The compiler's alignment gaps: after st_nmat, after fr_n, and after forum_win."""
    cdef const char *msg = rc_check_padding(&s.st_nmat[GR_NSLOTS - 1] + 1, &s.owned[0])
    if msg == NULL:
        msg = rc_check_padding(&s.fr_n[GR_MAXF - 1] + 1, &s.steps)
    if msg == NULL:
        msg = rc_check_padding(&s.forum_win + 1, <const uint8_t *>s + sizeof(GRState))
    return msg


cdef const char *check_header(const GRState *s) noexcept nogil:
    """The player count, padding, the Training flag, the phase and the counters."""
    cdef int n = s.nplayers
    cdef uint8_t a
    cdef const char *msg
    if n < GR_MINP or n > GR_MAXP:
        return "nplayers out of range"
    a = allp(s)
    msg = check_padding(s)
    if msg != NULL:
        return msg
    if s.training > 1:
        return "training must be 0 or 1"
    if s.phase > PH_OVER or s.phase == PH_LEGION or s.phase == PH_EOT:
        return "phase out of range (or an internal phase)"
    if s.actor >= n or s.leader >= n:
        return "actor or leader out of range"
    if s.steps > GR_MAX_GAME_LENGTH:
        return "steps beyond the engine limit"
    if s.nstruct > GR_NSLOTS or s.nframes > GR_MAXF:
        return "nstruct or nframes out of range"
    if s.forum_win & ~a or (s.forum_win and s.phase != PH_OVER):
        return "forum_win out of range"
    return NULL


cdef const char *check_cards(const GRState *s) noexcept nogil:
    """Every card's zone and who knows it there."""
    cdef int n = s.nplayers, c, z
    cdef uint8_t a = allp(s), kn
    for c in range(GR_NCARDS):
        z = s.loc[c]
        kn = s.known[c]
        if not zone_ok(z, n, s.nstruct):
            return "card zone out of range"
        if kn & ~(GR_SEATS | KN_REVEALED) or kn & GR_SEATS & ~a:
            return "card known to a seat not in the game"
        if kn & KN_REVEALED:
            if not (Z_HAND <= z < Z_HAND + GR_MAXP) or (kn & a) != a:
                return "revealed card outside a hand, or not shown to all"
        if z == Z_DECK:
            if kn:
                return "a draw pile card is known"
        elif Z_HAND <= z < Z_HAND + GR_MAXP:
            if not (kn >> (z - Z_HAND)) & 1:
                return "hand card unknown to its owner"
        elif Z_VAULT <= z < Z_VAULT + GR_MAXP or z == Z_DRAWN:
            pass
        elif kn != a:
            return "public card not known to all"
        if z == Z_DRAWN and (s.phase != PH_OVER and not (s.phase == PH_ACT and s.sel_src == SRC_DRAWN
                                                         and s.sel_card == c and kn == 1 << actp(s))):
            return "a drawn card outside a Fountain action"
        if Z_FOUND <= z < Z_FOUND + GR_NSLOTS and s.st_card[z - Z_FOUND] != c:
            return "structure card does not match its slot"
    return NULL


cdef const char *check_structure_fields(const GRState *s) noexcept nogil:
    """The structure fields gr_refresh indexes arrays with."""
    cdef int n = s.nplayers, k
    for k in range(s.nstruct):
        if s.st_card[k] >= GR_NCARDS or s.st_owner[k] >= n or s.st_holder[k] >= n \
                or s.st_site[k] >= GR_NMAT or s.st_flags[k] & ~SF_ALL:
            return "structure field out of range"
    return NULL


cdef const char *check_counts(const GRState *s) noexcept nogil:
    """The derived card counts against the cards."""
    cdef GRState t
    memcpy(&t, s, sizeof(GRState))
    gr_refresh(&t)
    if memcmp(t.cnt, s.cnt, sizeof(s.cnt)) or memcmp(t.deck_n, s.deck_n, sizeof(s.deck_n)) \
            or t.deck_total != s.deck_total or memcmp(t.st_nmat, s.st_nmat, sizeof(s.st_nmat)):
        return "card counts do not match the cards"
    return NULL


cdef const char *check_structures(const GRState *s) noexcept nogil:
    """The structures in their slots and the sites they use."""
    cdef int n = s.nplayers, c, z, k, m, b, j
    cdef int slots_in[GR_NMAT]
    cdef int slots_out[GR_NMAT]
    cdef uint8_t marble[GR_NSLOTS]
    memset(marble, 0, sizeof(marble))
    for c in range(GR_NCARDS):
        z = s.loc[c]
        if Z_MAT <= z < Z_MAT + GR_NSLOTS and CARD_M[c] == M_MARBLE:
            marble[z - Z_MAT] = SF_MARBLE
    memset(slots_in, 0, sizeof(slots_in))
    memset(slots_out, 0, sizeof(slots_out))
    for k in range(GR_NSLOTS):
        if k >= s.nstruct:
            if s.st_card[k] or s.st_owner[k] or s.st_site[k] or s.st_flags[k] or s.st_holder[k]:
                return "unused structure slot is not zero"
            continue
        c = s.st_card[k]
        if c >= GR_NCARDS or s.loc[c] != Z_FOUND + k:
            return "structure card is not in its slot"
        b = CARD_B[c]
        if s.st_owner[k] >= n or s.st_holder[k] >= n or s.st_site[k] >= GR_NMAT or s.st_flags[k] & ~SF_ALL:
            return "structure field out of range"
        if s.st_site[k] != B_MAT[b] and not (b == B_STATUE and not s.training):
            return "structure on a site of another material"
        if (s.st_flags[k] & SF_MARBLE) != marble[k]:
            return "Marble flag does not match the structure's materials"
        if not (s.st_flags[k] & SF_DONE):
            if s.st_holder[k] != s.st_owner[k] or s.st_flags[k] & SF_PUBLIC:
                return "unfinished structure with a site holder or public"
            if s.st_nmat[k] >= VALUE[s.st_site[k]]:
                return "unfinished structure holds enough materials"
        if s.st_flags[k] & SF_OUT:
            slots_out[s.st_site[k]] += 1
        else:
            slots_in[s.st_site[k]] += 1
        for j in range(k):
            if s.st_owner[j] == s.st_owner[k] and CARD_B[s.st_card[j]] == b:
                return "a player has two structures of one building"
    for m in range(GR_NMAT):
        if s.in_town[m] + slots_in[m] != n or s.out_town[m] + slots_out[m] != SITES_PER_MAT - n:
            return "sites do not add up"
    return NULL


cdef const char *check_functions(const GRState *s) noexcept nogil:
    """Buildings owned, functions and Influence against the structures."""
    cdef GRState t
    memcpy(&t, s, sizeof(GRState))
    refresh_struct(&t)
    if memcmp(t.owned, s.owned, sizeof(s.owned)) or memcmp(t.func, s.func, sizeof(s.func)) \
            or memcmp(t.infl, s.infl, sizeof(s.infl)):
        return "functions or Influence do not match the structures"
    return NULL


cdef const char *check_players(const GRState *s) noexcept nogil:
    """The seats' Jacks, plays and new clients."""
    cdef int n = s.nplayers, p, m, total
    total = s.jpile
    for p in range(GR_MAXP):
        if p >= n:
            if s.jacks[p] or s.jplayed[p] or s.units[p] or s.setup_rank[p]:
                return "an unused seat holds something"
            for m in range(GR_NMAT):
                if s.fresh[p][m]:
                    return "an unused seat holds something"
            continue
        total += s.jacks[p] + s.jplayed[p]
        if s.setup_rank[p] >= GR_NBUILD:
            return "setup rank out of range"
        for m in range(GR_NMAT):
            if s.fresh[p][m] > s.cnt[Z_CLIENT + p][m]:
                return "more new clients than clients"
    if total != GR_NJACKS:
        return "Jacks do not add up to six"
    return NULL


cdef const char *check_demands(const GRState *s) noexcept nogil:
    """Legionary demands against the revealed cards, and who crafted."""
    cdef int c, m
    cdef int rev[GR_NMAT]
    cdef uint8_t a = allp(s)
    memset(rev, 0, sizeof(rev))
    for c in range(GR_NCARDS):
        if s.known[c] & KN_REVEALED:
            rev[CARD_M[c]] += 1
    for m in range(GR_NMAT):
        if s.dem[m] != rev[m]:
            return "demands do not match the revealed cards"
        if s.col_taken[m] > s.dem[m]:
            return "Coliseum took more than demanded"
    # The cards still to give of the demanded material: at most its demand (none once every
    # material is done), so the tensor's share stays in [0, 1].
    if s.give_left > (s.dem[s.leg_m] if s.leg_m < GR_NMAT else 0):
        return "give_left beyond the demand"
    if s.did_craft & ~a:
        return "did_craft out of range"
    return NULL


cdef const char *check_frames(const GRState *s) noexcept nogil:
    """The action frames and their stages."""
    cdef int k, r
    cdef const char *msg
    for k in range(GR_MAXF):
        if k >= s.nframes:
            if s.fr_role[k] or s.fr_stage[k] or s.fr_n[k]:
                return "unused frame is not zero"
            continue
        r = s.fr_role[k] & FR_ROLE
        if s.fr_role[k] > (FR_BASE | FR_ROLE) or ((s.fr_role[k] & FR_BASE) != 0) != (k == 0):
            return "frame role out of range, or the base frame misplaced"
        if k == 0 and (r != s.role or s.role >= GR_NMAT):
            return "base frame is not the led role"
        msg = check_stage(r, s.fr_stage[k], k == s.nframes - 1)
        if msg != NULL:
            return msg
    if s.nframes and not (s.phase == PH_ACT or s.phase == PH_ACT_DRAW or s.phase == PH_GIVE
                          or s.phase == PH_COLISEUM or s.phase == PH_OVER
                          or (s.phase == PH_THINK and s.think_ret == RET_FRAME)
                          or (s.phase == PH_DRAW and s.think_ret == RET_FRAME)):
        return "action frames outside the action phase"
    return NULL


cdef const char *check_turn(const GRState *s) noexcept nogil:
    """The turn fields in range."""
    cdef int n = s.nplayers, m, reveals = 0
    cdef uint8_t a = allp(s)
    for m in range(GR_NMAT):
        reveals += s.dem[m]   # as many as the revealed cards (check_demands)
    if s.role != GR_NONE and s.role >= GR_NMAT:
        return "role out of range"
    if s.follow_i >= n or s.act_i >= n or s.eot_i > n or s.eot_step > EOT_ACADEMY:
        return "turn counters out of range"
    if s.think_ret > RET_FRAME or s.think_used > 1 or s.pet_mat >= GR_NMAT or s.pet_left > PET_CARDS \
            or s.pet_last >= GR_NBUILD or s.sel_card >= GR_NCARDS or s.sel_src > SRC_DRAWN \
            or s.xdraw > X_BAR or s.leg_m > GR_NMAT or s.leg_v >= n or s.leg_stage > LEG_COLISEUM \
            or s.leg_last >= GR_NBUILD or s.eot_last >= GR_NMAT or s.tie_mask & ~a \
            or s.tie_dealt & ~s.tie_mask:
        return "a turn field is out of range"
    if s.last_unit >= A_THINK:
        return "last_unit out of range"
    if (reveals or s.leg_stage) and not ((s.phase == PH_ACT or s.phase == PH_GIVE or s.phase == PH_COLISEUM
                                          or s.phase == PH_OVER)
                                         and s.nframes and (s.fr_role[s.nframes - 1] & FR_ROLE) == R_LEGIONARY):
        return "a demand outside a Legionary action"
    return NULL


cdef const char *check_phase(const GRState *s) noexcept nogil:
    """The phase's own fields in step with it."""
    cdef int n = s.nplayers, c, z, top, r, st
    cdef uint8_t a = allp(s)
    cdef int p = (s.leader + s.follow_i) % n
    if s.phase == PH_SETUP:
        if s.role != GR_NONE or not (s.setup_i < (START_HAND + 1) * n or s.tie_dealt != s.tie_mask):
            return "set-up fields out of step"
    elif s.phase == PH_LEAD:
        if s.role != GR_NONE or s.follow_i or s.actor != s.leader:
            return "lead fields out of step"
    elif s.phase == PH_FOLLOW:
        if s.role >= GR_NMAT or s.follow_i == 0 or s.actor != p:
            return "follow fields out of step"
    elif s.phase == PH_PETITION or s.phase == PH_PALACE:
        if s.role >= GR_NMAT or s.actor != p:
            return "petition or Palace fields out of step"
        if s.phase == PH_PETITION and s.pet_left == 0:
            return "petition with no card to choose"
    elif s.phase == PH_THINK or s.phase == PH_DRAW:
        if s.think_ret == RET_LEAD and (s.actor != s.leader or s.follow_i):
            return "leader's think out of step"
        if s.think_ret == RET_FOLLOW and (s.actor != p or s.follow_i == 0 or s.role >= GR_NMAT):
            return "follower's think out of step"
        if s.think_ret == RET_ACADEMY and (s.eot_step != EOT_ACADEMY or s.eot_i == 0
                                           or s.actor != (s.leader + s.eot_i - 1) % n):
            return "Academy think out of step"
        if s.think_ret == RET_FRAME and (s.nframes == 0 or (s.fr_role[s.nframes - 1] & FR_ROLE) != R_THINKER
                                         or s.fr_n[s.nframes - 1] == 0 or s.actor != actp(s)
                                         or s.fr_stage[s.nframes - 1] != ST_MAIN):
            return "School think out of step"
        if s.phase == PH_DRAW and s.draw_left == 0:
            return "a draw with nothing to draw"
    elif s.phase == PH_ACT or s.phase == PH_ACT_DRAW:
        if s.nframes == 0 or s.role >= GR_NMAT or s.actor != actp(s):
            return "action fields out of step"
        top = s.nframes - 1
        r = s.fr_role[top] & FR_ROLE
        st = s.fr_stage[top]
        if s.phase == PH_ACT_DRAW:
            if st != ST_MAIN and not (st == ST_BAR and s.xdraw == X_BAR):
                return "in-action draw from a sub-stage"
            if (s.xdraw == X_FOUNTAIN and r != R_CRAFTSMAN) or (s.xdraw == X_ATRIUM and r != R_MERCHANT) \
                    or (s.xdraw == X_BAR and r != R_PATRON):
                return "in-action draw of the wrong role"
        elif st == ST_TARGET:
            c = s.sel_card
            z = s.loc[c]
            if not ((s.sel_src == SRC_HAND and z == Z_HAND + s.actor and s.known[c] & GR_SEATS == a)
                    or (s.sel_src == SRC_STOCK and z == Z_STOCK + s.actor and r == R_ARCHITECT)
                    or (s.sel_src == SRC_POOL and z == Z_POOL and r == R_ARCHITECT)
                    or (s.sel_src == SRC_DRAWN and z == Z_DRAWN and r == R_CRAFTSMAN)):
                return "selected card is not where it should be"
        elif st == ST_STAIR_TARGET:
            c = s.sel_card
            z = s.loc[c]
            if not ((s.sel_src == SRC_STOCK and z == Z_STOCK + s.actor) or (s.sel_src == SRC_POOL and z == Z_POOL)):
                return "Stairway material is not where it should be"
        if r == R_LEGIONARY:
            for c in range(GR_NCARDS):
                if s.known[c] & KN_REVEALED and s.loc[c] != Z_HAND + s.actor:
                    return "revealed card in another hand"
    elif s.phase == PH_GIVE:
        if s.leg_stage != LEG_HANDS or s.leg_v == 0 or s.leg_m >= GR_NMAT or s.nframes == 0 \
                or s.actor != (actp(s) + s.leg_v) % n or s.give_left == 0 \
                or s.give_left > s.cnt[Z_HAND + s.actor][s.leg_m]:  # the demand: check_demands
            return "give fields out of step"
    elif s.phase == PH_COLISEUM:
        if s.leg_stage != LEG_COLISEUM or s.leg_v == 0 or s.nframes == 0 or s.actor != actp(s) or s.leg_last >= GR_NMAT:
            return "Coliseum fields out of step"
    elif s.phase == PH_SENATE:
        if s.eot_step != EOT_SENATE or s.eot_i >= n or s.actor != (s.leader + s.eot_i) % n:
            return "Senate fields out of step"
    elif s.phase == PH_SEWER:
        if s.eot_step != EOT_SEWER or s.eot_i >= n or s.actor != (s.leader + s.eot_i) % n:
            return "Sewer fields out of step"
    return NULL


cdef const char *check_live(const GRState *s) noexcept nogil:
    """A live state has a draw to make.  (That it has a legal action, State._check_struct
    checks for every game.)"""
    # The game ends the moment the draw pile runs out (every draw checks), so a live
    # state always has a card to draw: else its next Think or draw would have none.
    if s.phase != PH_OVER and s.deck_total == 0:
        return "a live game with an empty draw pile"
    return NULL


cdef const char *gr_validate(const void *vs) noexcept nogil:
    """NULL when every field is in range and the cards, structures, counts and the
    phase agree; else the first fault.  A validated struct is safe for every kernel
    function, and each of them terminates on it.  The checks run in this order: each
    may rely on the fields the ones before it checked."""
    cdef const GRState *s = <const GRState *>vs
    cdef const char *msg = check_header(s)
    if msg == NULL:
        msg = check_cards(s)
    if msg == NULL:
        msg = check_structure_fields(s)
    if msg == NULL:
        msg = check_counts(s)
    if msg == NULL:
        msg = check_structures(s)
    if msg == NULL:
        msg = check_functions(s)
    if msg == NULL:
        msg = check_players(s)
    if msg == NULL:
        msg = check_demands(s)
    if msg == NULL:
        msg = check_frames(s)
    if msg == NULL:
        msg = check_turn(s)
    if msg == NULL:
        msg = check_phase(s)
    if msg == NULL:
        msg = check_live(s)
    return msg


# =======================================================================================
# Tables from data: fills the Tables section from data.py at import

def _load_tables():
    global START_HAND, START_INFL, HAND_LIMIT, PET_CARDS, CIRCUS_PET_CARDS, SHRINE_HAND
    global TEMPLE_HAND, INSULA_CLIENTS, MARKET_VAULT, STATUE_POINTS, WALL_PER
    global MERCHANT_BONUS, SITES_PER_MAT, MAX_COPIES
    global INFL_BOUND, STRUCT_MAT_BOUND
    assert len(_data.BUILDINGS) == GR_NBUILD and len(_data.MATERIALS) == GR_NMAT
    assert 16 <= GR_PER_MAT <= 32 and GR_NCARDS % 8 == 0    # material_cards, EOT_POOL's scan
    assert Z_END <= 0x80                                 # zone_range8's bound on a zone
    expected = {
        "Bar": B_BAR, "Insula": B_INSULA, "Latrine": B_LATRINE, "Road": B_ROAD,
        "Circus": B_CIRCUS, "Dock": B_DOCK, "Market": B_MARKET, "Palisade": B_PALISADE,
        "Amphitheatre": B_AMPHITHEATRE, "Aqueduct": B_AQUEDUCT, "Bridge": B_BRIDGE,
        "Senate": B_SENATE, "Storeroom": B_STOREROOM, "Tower": B_TOWER,
        "Vomitorium": B_VOMITORIUM, "Wall": B_WALL, "Academy": B_ACADEMY,
        "Archway": B_ARCHWAY, "Atrium": B_ATRIUM, "Bath": B_BATH, "Foundry": B_FOUNDRY,
        "Gate": B_GATE, "School": B_SCHOOL, "Shrine": B_SHRINE, "Catacomb": B_CATACOMB,
        "Circus Maximus": B_CIRCUS_MAXIMUS, "Coliseum": B_COLISEUM, "Garden": B_GARDEN,
        "Prison": B_PRISON, "Scriptorium": B_SCRIPTORIUM, "Sewer": B_SEWER, "Villa": B_VILLA,
        "Basilica": B_BASILICA, "Forum": B_FORUM, "Fountain": B_FOUNTAIN,
        "Ludus Magna": B_LUDUS_MAGNA, "Palace": B_PALACE, "Stairway": B_STAIRWAY,
        "Statue": B_STATUE, "Temple": B_TEMPLE,
    }
    for name, b in expected.items():
        assert _data.BUILDING_ID[name] == b, name
    for name, m in (("Rubble", M_RUBBLE), ("Wood", M_WOOD), ("Concrete", M_CONCRETE),
                    ("Brick", M_BRICK), ("Stone", M_STONE), ("Marble", M_MARBLE)):
        assert _data.MATERIAL_ID[name] == m, name
    cards = _data.card_table()
    assert len(cards) == GR_NCARDS
    ranks = _data.alphabet_rank()
    for b, bd in enumerate(_data.BUILDINGS):
        B_MAT[b] = bd.material
        RANK[b] = ranks[b]
        ids = [c for c, x in enumerate(cards) if x == b]
        B_LO[b], B_HI[b] = min(ids), max(ids) + 1
        assert B_HI[b] - B_LO[b] == len(ids)
    for c, b in enumerate(cards):
        CARD_B[c] = b
        CARD_M[c] = _data.BUILDINGS[b].material
        assert CARD_M[c] == c // GR_PER_MAT
    for m, md in enumerate(_data.MATERIALS):
        VALUE[m] = md.value
    START_HAND, START_INFL, HAND_LIMIT = _data.START_HAND, _data.START_INFLUENCE, _data.HAND_LIMIT
    PET_CARDS, CIRCUS_PET_CARDS = _data.PETITION_CARDS, _data.CIRCUS_PETITION_CARDS
    SHRINE_HAND, TEMPLE_HAND = _data.SHRINE_HAND, _data.TEMPLE_HAND
    INSULA_CLIENTS, MARKET_VAULT = _data.INSULA_CLIENTS, _data.MARKET_VAULT
    STATUE_POINTS, WALL_PER = _data.STATUE_POINTS, _data.WALL_MATERIALS_PER_POINT
    MERCHANT_BONUS, SITES_PER_MAT = _data.MERCHANT_BONUS, _data.SITES_PER_MATERIAL
    MAX_COPIES = max(md.copies for md in _data.MATERIALS)
    assert GR_NBUILD % 8 == 0 and 8 * MAX_COPIES < 256      # gr_sample_chance's sums
    INFL_BOUND = START_INFL + SITES_PER_MAT * sum(md.value for md in _data.MATERIALS)
    STRUCT_MAT_BOUND = max(md.value for md in _data.MATERIALS) + 1
    for z in range(Z_END):
        ZONE_MATERIAL[z] = T_NONE
        for k in range(2):
            ZONE_SLICE[k][z] = T_NONE
            ZONE_COUNT[k][z] = T_NONE
    ZONE_SLICE[0][Z_POOL] = ZONE_SLICE[1][Z_POOL] = TC_POOL
    ZONE_SLICE[1][Z_DRAWN] = TC_DRAWN
    ZONE_COUNT[0][Z_DRAWN] = TC_DRAWN_HIDDEN
    for k in range(GR_NSLOTS):
        ZONE_SLICE[0][Z_MAT + k] = ZONE_SLICE[1][Z_MAT + k] = TC_STRUCT_MATS
        ZONE_MATERIAL[Z_MAT + k] = TC_STRUCTS + GR_TENSOR_SLOT * k + TS_MATERIALS
    for z in range(BYTE_VALUES):
        ZONE_READ[z] = z < Z_END and (Z_HAND <= z < Z_CAMP + GR_MAXP or ZONE_MATERIAL[z] != T_NONE or any(
            ZONE_SLICE[k][z] != T_NONE or ZONE_COUNT[k][z] != T_NONE for k in range(2)))
    for b, bd in enumerate(_data.BUILDINGS):
        for k in range(GR_PER_MAT + 1):
            COPIES_FRAC[b][k] = min(k, bd.copies) / bd.copies
    assert _data.JACKS == GR_NJACKS and SITES_PER_MAT * GR_NMAT == GR_NSLOTS
    assert _data.MAX_ACTIONS == GR_MAX_GAME_LENGTH < GR_STEPS_MAX
    assert GR_PER_MAT * GR_NMAT == GR_NCARDS


_load_tables()


# =======================================================================================
# Kernel table: GR_KERNEL, slot by slot, and its capsule

cdef rc_kernel GR_KERNEL
GR_KERNEL.abi_version = RC_ABI_VERSION
GR_KERNEL.state_size = sizeof(GRState)
GR_KERNEL.state_version = 1
GR_KERNEL.num_actions = GR_NUM_ACTIONS
GR_KERNEL.max_legal = GR_MAXLEGAL
GR_KERNEL.max_game_length = GR_MAX_GAME_LENGTH
GR_KERNEL.init = gr_init
GR_KERNEL.num_players = gr_num_players
GR_KERNEL.current_player = gr_current_player
GR_KERNEL.legal_actions = gr_legal
GR_KERNEL.chance_outcomes = gr_chance_outcomes
GR_KERNEL.sample_chance = gr_sample_chance
GR_KERNEL.apply = gr_apply
GR_KERNEL.returns = gr_returns
GR_KERNEL.scores = gr_scores
GR_KERNEL.resample = gr_resample
GR_KERNEL.observe_action = gr_observe_action
GR_KERNEL.validate = gr_validate
GR_KERNEL.max_tensor_size = GR_MAX_TENSOR
GR_KERNEL.tensor_size = gr_tensor_size
GR_KERNEL.observation_tensor = gr_observation_tensor
GR_KERNEL.apply_legal = gr_apply_legal

kernel_capsule = rc_kernel_capsule(&GR_KERNEL)
STATE_SIZE = sizeof(GRState)
NUM_ACTIONS = GR_NUM_ACTIONS
# the action-id blocks in order, each with its first id (the package docs table them)
ACTION_BLOCKS = {
    "A_CARD": A_CARD, "A_JACK": A_JACK, "A_PETITION": A_PETITION, "A_THINK": A_THINK,
    "A_THINK_JACK": A_THINK_JACK, "A_THINK_DRAW": A_THINK_DRAW, "A_VOMIT": A_VOMIT,
    "A_POOL": A_POOL, "A_STOCK": A_STOCK, "A_DECK": A_DECK, "A_FOUND_IN": A_FOUND_IN,
    "A_FOUND_OUT": A_FOUND_OUT, "A_STRUCT": A_STRUCT, "A_TO_HAND": A_TO_HAND,
    "A_SENATE": A_SENATE, "A_COLISEUM": A_COLISEUM, "A_SEWER": A_SEWER, "A_DONE": A_DONE,
    "CH_CARD": CH_CARD,
}
MAX_LEGAL = GR_MAXLEGAL
# the observation tensor's slices: name -> (offset, length); TC_* in the common block
# (TS_* within each structure slot of TC_STRUCTS, TF_* within each frame of TC_FRAMES),
# TP_* in each seat's block (the package docstring's table)
TENSOR_COMMON = GR_TENSOR_COMMON
TENSOR_PLAYER = GR_TENSOR_PLAYER
TENSOR_SLOT = GR_TENSOR_SLOT
TENSOR_FRAME = GR_TENSOR_FRAME
TENSOR_BLOCKS = {
    "TC_PHASE": (TC_PHASE, PH_OVER + 1), "TC_ROLE": (TC_ROLE, GR_NMAT), "TC_STEPS": (TC_STEPS, 1),
    "TC_DECK": (TC_DECK, 1), "TC_JACK_PILE": (TC_JACK_PILE, 1), "TC_POOL": (TC_POOL, GR_NBUILD),
    "TC_IN_TOWN": (TC_IN_TOWN, GR_NMAT), "TC_OUT_TOWN": (TC_OUT_TOWN, GR_NMAT),
    "TC_REVEALED": (TC_REVEALED, GR_NBUILD), "TC_DRAWN": (TC_DRAWN, GR_NBUILD),
    "TC_DRAWN_HIDDEN": (TC_DRAWN_HIDDEN, 1), "TC_SELECTED": (TC_SELECTED, GR_NBUILD),
    "TC_SEL_SRC": (TC_SEL_SRC, SRC_DRAWN + 1), "TC_STRUCT_MATS": (TC_STRUCT_MATS, GR_NBUILD),
    "TC_STRUCTS": (TC_STRUCTS, GR_NSLOTS * GR_TENSOR_SLOT),
    "TC_FRAMES": (TC_FRAMES, GR_MAXF * GR_TENSOR_FRAME),
    "TC_FOLLOW_I": (TC_FOLLOW_I, GR_MAXP), "TC_ACT_I": (TC_ACT_I, GR_MAXP),
    "TC_EOT_STEP": (TC_EOT_STEP, EOT_ACADEMY + 1), "TC_EOT_I": (TC_EOT_I, GR_MAXP + 1),
    "TC_THINK_RET": (TC_THINK_RET, RET_FRAME + 1), "TC_THINK_USED": (TC_THINK_USED, 1),
    "TC_DRAW_LEFT": (TC_DRAW_LEFT, 1), "TC_PET_MAT": (TC_PET_MAT, GR_NMAT),
    "TC_PET_LEFT": (TC_PET_LEFT, 1), "TC_XDRAW": (TC_XDRAW, X_BAR + 1),
    "TC_DEMANDS": (TC_DEMANDS, GR_NMAT), "TC_LEG_STAGE": (TC_LEG_STAGE, LEG_DONE + 1),
    "TC_LEG_V": (TC_LEG_V, GR_MAXP), "TC_LEG_M": (TC_LEG_M, GR_NMAT + 1),
    "TC_GIVE_LEFT": (TC_GIVE_LEFT, 1), "TC_COL_TAKEN": (TC_COL_TAKEN, GR_NMAT),
    "TC_SETUP_DEALT": (TC_SETUP_DEALT, 1),
    "TS_BUILDING": (TS_BUILDING, GR_NBUILD), "TS_OWNER": (TS_OWNER, GR_MAXP),
    "TS_HOLDER": (TS_HOLDER, GR_MAXP), "TS_SITE": (TS_SITE, GR_NMAT), "TS_OUT": (TS_OUT, 1),
    "TS_DONE": (TS_DONE, 1), "TS_PUBLIC": (TS_PUBLIC, 1), "TS_MATERIALS": (TS_MATERIALS, GR_NMAT),
    "TF_ROLE": (TF_ROLE, R_PRISON + 1), "TF_BASE": (TF_BASE, 1),
    "TF_STAGE": (TF_STAGE, ST_STAIR_TARGET + 1), "TF_N": (TF_N, 1),
    "TP_HAND": (TP_HAND, GR_NBUILD), "TP_HAND_SIZE": (TP_HAND_SIZE, 1), "TP_JACKS": (TP_JACKS, 1),
    "TP_JACKS_PLAYED": (TP_JACKS_PLAYED, 1), "TP_STOCK": (TP_STOCK, GR_NBUILD),
    "TP_CLIENTS": (TP_CLIENTS, GR_NBUILD), "TP_CAMP": (TP_CAMP, GR_NBUILD),
    "TP_VAULT": (TP_VAULT, GR_NBUILD), "TP_VAULT_HIDDEN": (TP_VAULT_HIDDEN, 1),
    "TP_INFLUENCE": (TP_INFLUENCE, 1), "TP_UNITS": (TP_UNITS, 1),
    "TP_NEW_CLIENTS": (TP_NEW_CLIENTS, GR_NMAT),
    "TP_LEADER": (TP_LEADER, 1), "TP_ACTOR": (TP_ACTOR, 1), "TP_DID_CRAFT": (TP_DID_CRAFT, 1),
    "TP_TIE": (TP_TIE, 1), "TP_TIE_DEALT": (TP_TIE_DEALT, 1), "TP_FORUM_WIN": (TP_FORUM_WIN, 1),
}
