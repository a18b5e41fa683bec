# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The Great City of Rome: the rules as C functions over one fixed-size struct.

Cities live on an 8x8 bitboard (bit = row * 8 + col); each seat's starting Vegetable
Farm sits at (3, 2) and its Residential 2 at (3, 3), and the 4x4 bound keeps every city
inside rows 0-6 and columns 0-5.  Card zones are one byte per card (``loc``), and who
knows which card is one byte per card (``known``).  All printed numbers come from
``data.py``, copied into the C tables below at import.

Decisions are small steps with fixed action ids (kernel.pxd; the package docstring
has the table): place an emissary,
take an offer card, then build (choose the building, then its cell) and produce in either
order, then end the turn.  A build pays with the strip's bricks first, then brick tokens,
then 2 coins a brick; a produce with the strip's cogs, then 1 coin a cog (spending
tokens before coins is never worse, so the engine does not ask).  Steps with a single
possible outcome (an empty turn, the last draft card, a lone School card, the sixth
strip, draws from a deck's known bottom) are taken automatically: gc_apply is gc_step
(the one decision or outcome) and then gc_forced (every step with no choice).

Chance is explicit: the draft deal, every deck draw (outcome = building type, weighted by
copies) and each strip reveal are chance nodes.  Decks are drawn lazily, which is the
same distribution as a shuffle whose order nobody knows; cards a School put under a deck
are drawn, in order, once the unknown part is gone.
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, int64_t, uint64_t

from romecore.core.kernel cimport (
    rc_shuffle_u8,
    rc_kernel_capsule, rc_share_wins,
    rc_kernel, rc_rng, rc_rng_below, rc_popcount64, rc_popcount32, rc_lsb32, rc_pop_lsb32,
    rc_pop_lsb64, rc_set128, rc_s128_where, rc_s128_empty, rc_s128_count, rc_s128_nth,
    rc_s128_pop, rc_nonzero_bytes, rc_bytes_of_bits, rc_check_padding,
    RC_ABI_VERSION, RC_CHANCE, RC_TERMINAL, RC_HIDDEN,
)

from romecore.games.great_city_of_rome import data as _data


# =======================================================================================
# Tables: the C copies of data.py's tables (filled by "Tables from data" below)

cdef enum:
    K_VEG = 0
    K_GRAIN = 1
    K_SHEEP = 2
    K_VINEYARD = 3
    K_RES = 4
    K_PUBLIC = 5
    K_AQUEDUCT = 6
    K_TEMPLE = 7

# file-local bounds and codes (those that data.py decides are checked against it at import)
cdef enum:
    MIN_PLAYERS = 2
    TWO_PLAYER_EMISSARIES = 4   # with two players each seat places two
    START_BUILDINGS = 2   # cards GC_NDECKCARDS.. are each seat's farm, then its house
    BOARD_SIDE = 8        # GC_NCELLS = BOARD_SIDE * BOARD_SIDE
    AQ_SCORED = 4         # aqueducts past this many score no more
    MAX_VEG_CARDS = 8
    MAX_SHEEP_CARDS = 4
    MAX_TOKENS = 5        # a bath's point tokens: its four neighbours and its bonus
    TYPE_NMASKS = 4       # M_* masks a building joins, at most (a vineyard's)
    TYPE_NPLANES = 3      # of them up to M_TEMPLE, at most
    COLOUR_YELLOW = 0     # public buildings by colour (data.COLOURS): coins,
    COLOUR_RED = 1        # influence, School draws, bath tokens
    COLOUR_SCHOOL = 2
    COLOUR_BATH = 3
    WORD_BITS = 64        # bits of a card-set word (rc_set128 has two)
    BYTE_VALUES = 256     # every value a uint8_t zone id can hold
    F_ALL = F_TOOK | F_BUILT | F_PRODUCED

cdef uint8_t CARD_TYPE[GC_NCARDS]
cdef int8_t CARD_DECK[GC_NCARDS]
cdef int8_t TOK_SLOT[GC_NCARDS]
cdef uint8_t TOK_CARD[GC_NTOK]        # slots 0-3 hold brick tokens, 4-7 bath tokens
cdef uint8_t DECK_LO[GC_NDECKS]
cdef uint8_t DECK_HI[GC_NDECKS]       # one past the last id
cdef uint8_t TYPE_KIND[GC_NTYPES]
cdef uint8_t TYPE_COST[GC_NTYPES]
cdef uint8_t TYPE_STARS[GC_NTYPES]
cdef uint8_t TYPE_VALUE[GC_NTYPES]
cdef int8_t TYPE_COLOUR[GC_NTYPES]
cdef uint8_t TYPE_BONUS[GC_NTYPES]
cdef uint32_t TYPE_MASKS[GC_NTYPES]   # which M_* masks a building of the type joins
cdef uint8_t TYPE_MASK_IDS[GC_NTYPES][TYPE_NMASKS]   # the same as indices, M_OCC repeated
cdef uint8_t TYPE_PLANES[GC_NTYPES][TYPE_NPLANES]    # those up to M_TEMPLE (the tensor's planes)
cdef uint8_t FACE_BRICKS[GC_NFACES][GC_NSPACES]   # bricks from space 0 through k, per face
cdef uint8_t FACE_COGS[GC_NFACES][GC_NSPACES]
cdef uint8_t OFFER_DECK[GC_MAXP + 1][GC_MAXOFFER]   # per player count
cdef uint8_t OFFER_N[GC_MAXP + 1]
cdef uint8_t INFL_ROUND[GC_MAXP + 1][GC_NINFL]  # round an influence card surfaces (0: not used)
cdef int32_t INFL_VALUE[GC_NINFL]
cdef int32_t AQ_POINTS[AQ_SCORED + 1]      # by aqueducts, the last for AQ_SCORED or more
cdef uint8_t ROUNDS[GC_MAXP + 1]
cdef int16_t START_COINS
cdef int32_t BRICK_PRICE, COG_PRICE, COGS_TO_PRODUCE
cdef int T_MINERVA, T_FORTUNA, T_CUPID, T_JUNO, T_SATURN
cdef int T_LUNA, T_MARS, T_VENUS, T_JUPITER, T_MERCURY
cdef int32_t MINERVA_BUILDINGS, MINERVA_POINTS, FORTUNA_POINTS, CUPID_RES2, CUPID_POINTS
cdef int32_t JUNO_TEMPLES, JUNO_POINTS, SATURN_FARMS, SATURN_POINTS, MARS_POINTS
cdef int32_t VENUS_PER_RES2, JUPITER_PER_TEMPLE, MERCURY_COINS
cdef uint8_t VEG_CARDS[MAX_VEG_CARDS]   # cards that produce coins (veg farms, vineyard)
cdef int N_VEG_CARDS
cdef uint8_t SHEEP_CARDS[MAX_SHEEP_CARDS]
cdef int N_SHEEP_CARDS
cdef int START_FARM_CELL = 3 * 8 + 2
cdef int START_HOUSE_CELL = 3 * 8 + 3


# =======================================================================================
# Bits: board geometry on the 8x8 bitboard, over the rc_bits.h helpers

cdef uint64_t ROW_BYTE = 0xFF                 # one row of the board


cdef inline int row_of(int cell) noexcept nogil:
    return cell // BOARD_SIDE


cdef inline int col_of(int cell) noexcept nogil:
    return cell % BOARD_SIDE


cdef inline int row_bits(uint64_t m) noexcept nogil:
    """Rows holding a cell of m (the board's rows are the bytes of a mask)."""
    return <int>rc_nonzero_bytes(m)


cdef inline int col_bits(uint64_t m) noexcept nogil:
    m |= m >> 32
    m |= m >> 16
    m |= m >> 8
    return <int>(m & ROW_BYTE)


cdef inline uint64_t rows_mask(int rows) noexcept nogil:
    """Every cell of the rows in a set of rows."""
    return rc_bytes_of_bits(<uint32_t>rows)


cdef inline uint64_t cols_mask(int cols) noexcept nogil:
    return (<uint64_t>cols & ROW_BYTE) * GC_FILE_A


cdef inline int top_bit8(uint32_t bits) noexcept nogil:
    """Index of the highest set bit of a non-zero row (or column) set of 8 bits."""
    bits |= bits >> 1
    bits |= bits >> 2
    bits |= bits >> 4
    return rc_popcount32(bits) - 1


cdef inline int span(int bits) noexcept nogil:
    """Rows (or columns) from the first to the last of a non-empty set, minus one."""
    return top_bit8(bits) - rc_lsb32(bits)


cdef inline int span_bits(int bits) noexcept nogil:
    """Rows (or columns) a new building may use so that the span stays within four."""
    cdef int lo = rc_lsb32(bits), hi = top_bit8(bits)
    cdef int a = hi - (GC_CITY_SPAN - 1), b = lo + (GC_CITY_SPAN - 1)
    if a < 0:
        a = 0
    if b > BOARD_SIDE - 1:
        b = BOARD_SIDE - 1
    return ((1 << (b + 1)) - 1) & ~((1 << a) - 1)


# =======================================================================================
# Queries: read-only facts about a state

cdef inline int nplayers_bits(const GCState *s) noexcept nogil:
    return (1 << s.nplayers) - 1


cdef inline int start_seat(int card) noexcept nogil:
    """The seat a starting building (card >= GC_NDECKCARDS) belongs to."""
    return (card - GC_NDECKCARDS) // START_BUILDINGS


cdef int gc_card_type(int card) noexcept nogil:
    return CARD_TYPE[card]


cdef int gc_tokens(const GCState *s, int card) noexcept nogil:
    cdef int slot = TOK_SLOT[card]
    return s.tok[slot] if slot >= 0 else 0


cdef int gc_face(const GCState *s) noexcept nogil:
    """Face in use this round: strip k's front is k, its back 6 + k."""
    cdef int idx = (s.round - 1) % GC_NFACES
    return s.strip_order[idx % GC_NSTRIPS] + (GC_NSTRIPS if idx >= GC_NSTRIPS else 0)


cdef int gc_turn_bricks(const GCState *s) noexcept nogil:
    return FACE_BRICKS[gc_face(s)][s.turn_space]


cdef int gc_turn_cogs(const GCState *s) noexcept nogil:
    return FACE_COGS[gc_face(s)][s.turn_space]


cdef int gc_space_bricks(const GCState *s, int space) noexcept nogil:
    """Bricks an emissary on ``space`` of this round's face gets (spaces 0..space)."""
    return FACE_BRICKS[gc_face(s)][space]


cdef int gc_space_cogs(const GCState *s, int space) noexcept nogil:
    return FACE_COGS[gc_face(s)][space]


cdef int gc_emissaries(const GCState *s) noexcept nogil:
    """Emissaries placed in a round, all seats together."""
    return emissaries(s)


cdef int gc_infl_round(int nplayers, int infl) noexcept nogil:
    return INFL_ROUND[nplayers][infl]


cdef int gc_offer(const GCState *s, uint8_t *out) noexcept nogil:
    """The offer's cards by card id into out (GC_MAXOFFER slots, never more, whatever
    the state says); returns their number."""
    cdef int n = 0
    cdef rc_set128 offer
    gc_zone_cards(s, Z_OFFER, &offer)
    while not rc_s128_empty(&offer) and n < GC_MAXOFFER:
        out[n] = rc_s128_pop(&offer)
        n += 1
    return n


cdef inline int deck_remaining(const GCState *s, int d) noexcept nogil:
    return s.pool_n[d] + s.bot_n[d]


cdef inline uint32_t hand_types(const GCState *s, int p) noexcept nogil:
    cdef uint32_t m = 0
    cdef rc_set128 hand
    gc_zone_cards(s, Z_HAND + p, &hand)
    while not rc_s128_empty(&hand):
        m |= 1u << CARD_TYPE[rc_s128_pop(&hand)]
    return m


cdef int gc_build_card(const GCState *s, int p, int t) noexcept nogil:
    """The hand card of type t that p builds: the one the most players already know
    (so building reveals least), then the lowest id.  -1 if p holds none."""
    cdef int c, best = -1, best_k = -1, k
    cdef rc_set128 hand
    gc_zone_cards(s, Z_HAND + p, &hand)
    while not rc_s128_empty(&hand):
        c = rc_s128_pop(&hand)
        if CARD_TYPE[c] == t:
            k = rc_popcount32(s.known[c])
            if k > best_k:
                best, best_k = c, k
    return best


cdef inline int brick_tokens(const GCState *s, int p) noexcept nogil:
    cdef int i, n = 0
    for i in range(GC_NBRICKTOK):
        if s.loc[TOK_CARD[i]] == Z_CITY + p and s.tok[i]:
            n += 1
    return n


cdef inline int city_count(const GCState *s, const uint8_t *cards, int ncards, int p) noexcept nogil:
    cdef int i, n = 0
    for i in range(ncards):
        if s.loc[cards[i]] == Z_CITY + p:
            n += 1
    return n


cdef inline int build_budget(const GCState *s, int p) noexcept nogil:
    """The most a building may cost p now: the turn's bricks, p's brick tokens and the
    bricks p's coins buy."""
    return s.bricks + brick_tokens(s, p) + s.coins[p] // BRICK_PRICE


cdef inline bint can_afford_build(const GCState *s, int p, int t) noexcept nogil:
    return TYPE_COST[t] <= build_budget(s, p)


cdef inline int cogs_to_buy(const GCState *s) noexcept nogil:
    return COGS_TO_PRODUCE - s.cogs if s.cogs < COGS_TO_PRODUCE else 0


cdef inline bint can_produce(const GCState *s, int p) noexcept nogil:
    cdef int i
    if s.flags & F_PRODUCED or s.coins[p] < cogs_to_buy(s) * COG_PRICE:
        return False
    if city_count(s, VEG_CARDS, N_VEG_CARDS, p) or city_count(s, SHEEP_CARDS, N_SHEEP_CARDS, p):
        return True
    for i in range(GC_NBRICKTOK):
        if s.loc[TOK_CARD[i]] == Z_CITY + p and not s.tok[i]:
            return True
    return False


cdef inline uint64_t empty_targets(const GCState *s, int p) noexcept nogil:
    """Empty cells where p may put a building: beside the city, keeping its span."""
    cdef uint64_t occ = s.occ[p]
    cdef uint64_t allowed = rows_mask(span_bits(row_bits(occ))) & cols_mask(span_bits(col_bits(occ)))
    return gc_nbrs(occ) & ~occ & allowed & GC_BOARD


cdef inline uint64_t aqueduct_targets(const GCState *s, int p, uint64_t empty) noexcept nogil:
    """Cells for an aqueduct (``empty``: empty_targets): one per row and column; it may
    also replace any non-aqueduct building (an aqueduct's own cell lies in a forbidden
    row, so it is never a target)."""
    return (empty | s.occ[p]) & ~(rows_mask(s.aq_rows[p]) | cols_mask(s.aq_cols[p]))


cdef uint64_t gc_place_targets(const GCState *s, int p, int t) noexcept nogil:
    """Cells where player p may put a building of type t now."""
    cdef uint64_t empty = empty_targets(s, p)
    return aqueduct_targets(s, p, empty) if TYPE_KIND[t] == K_AQUEDUCT else empty


cdef inline uint32_t buildable_types(const GCState *s, int p) noexcept nogil:
    """The types in p's hand that p can pay for and place now (gc_place_targets, the
    cells worked out once for every type); none once p has built this turn."""
    cdef uint32_t types, out = 0
    cdef int t, budget
    cdef uint64_t empty, aqueduct
    if s.flags & F_BUILT:
        return 0
    types = hand_types(s, p)
    if not types:
        return 0
    budget = build_budget(s, p)
    empty = empty_targets(s, p)
    aqueduct = aqueduct_targets(s, p, empty)
    while types:
        t = rc_pop_lsb32(&types)
        if TYPE_COST[t] <= budget and (aqueduct if TYPE_KIND[t] == K_AQUEDUCT else empty):
            out |= 1u << t
    return out


cdef inline bint deck_in_play(int nplayers, int d) noexcept nogil:
    """Decks I and II always, III from three players, IV with four."""
    return not (d == 3 and nplayers < 4 or d == 2 and nplayers < 3)


cdef inline int school_decks_end(const GCState *s) noexcept nogil:
    """One past the last deck a School may draw from (deck II on, the decks in play)."""
    return OFFER_N[s.nplayers] if s.nplayers > 2 else 2


cdef inline int chance_deck(const GCState *s) noexcept nogil:
    if s.phase == PH_DRAFT_DEAL:
        return 1
    if s.phase == PH_OFFER:
        return OFFER_DECK[s.nplayers][s.draw_idx]
    return s.school_deck


cdef inline int emissaries(const GCState *s) noexcept nogil:
    return TWO_PLAYER_EMISSARIES if s.nplayers == 2 else s.nplayers


cdef inline int next_space(const GCState *s, int after) noexcept nogil:
    cdef int k
    for k in range(after + 1, GC_NSPACES):
        if s.space_owner[k] != GC_NONE:
            return k
    return -1


cdef inline int distinct_slots(const uint8_t *cards, int n, int32_t base, int32_t *out) noexcept nogil:
    """One action per distinct type among cards (the first slot of each type)."""
    cdef uint32_t seen = 0
    cdef int i, k = 0, t
    for i in range(n):
        t = CARD_TYPE[cards[i]]
        if not (seen >> t) & 1:
            seen |= 1u << t
            out[k] = base + i
            k += 1
    return k


# =======================================================================================
# Scoring: one player's points by score-pad category (gc_score)

cdef inline void city_add(uint64_t *m, int t, int cell) noexcept nogil:
    """Adds a building of type t at cell to a city's masks m[M_*] (a fixed number of ORs,
    no branch on the type)."""
    cdef uint64_t b = (<uint64_t>1) << cell
    cdef int i
    for i in range(TYPE_NMASKS):
        m[TYPE_MASK_IDS[t][i]] |= b
    if TYPE_KIND[t] == K_TEMPLE:
        m[M_TEMPLE_TYPES] |= (<uint64_t>1) << t
    m[M_STARS] += TYPE_STARS[t]


cdef void gc_city_masks(const GCState *s, int p, uint64_t *m) noexcept nogil:
    """Player p's city as masks M_* (its cards found eight at a time)."""
    cdef int c
    cdef rc_set128 city
    memset(m, 0, sizeof(uint64_t) * M_N)
    rc_s128_where(&city, s.loc, GC_NCARDS, <uint8_t>(Z_CITY + p))
    while not rc_s128_empty(&city):
        c = rc_s128_pop(&city)
        city_add(m, CARD_TYPE[c], s.cell[c])


cdef int gc_temple_points(const GCState *s, int p, int t, const uint64_t *m) noexcept nogil:
    """Points the temple of type t scores for p (whether or not p has it)."""
    cdef int temples = rc_popcount64(m[M_TEMPLE])
    if t == T_MINERVA:
        return MINERVA_POINTS if rc_popcount64(m[M_OCC]) >= MINERVA_BUILDINGS else 0
    if t == T_FORTUNA:
        return FORTUNA_POINTS if (m[M_YELLOW] and m[M_RED] and m[M_GREEN] and m[M_BLUE]) else 0
    if t == T_CUPID:
        return CUPID_POINTS if rc_popcount64(m[M_RES2]) >= CUPID_RES2 else 0
    if t == T_JUNO:
        return JUNO_POINTS if temples >= JUNO_TEMPLES else 0
    if t == T_SATURN:
        return SATURN_POINTS if rc_popcount64(m[M_PRODUCTION]) >= SATURN_FARMS else 0
    if t == T_LUNA:
        return <int>m[M_STARS]
    if t == T_MARS:
        return MARS_POINTS if m[M_RES4] else 0
    if t == T_VENUS:
        return VENUS_PER_RES2 * rc_popcount64(m[M_RES2])
    if t == T_JUPITER:
        return JUPITER_PER_TEMPLE * temples
    if t == T_MERCURY:
        return s.coins[p] // MERCURY_COINS
    return 0


cdef inline int bath_bonus(const GCState *s, int p, uint64_t around) noexcept nogil:
    """Tokens of the adjacent thermal bath with the most tokens."""
    cdef int i, c, best = 0
    for i in range(GC_NBRICKTOK, GC_NTOK):
        c = TOK_CARD[i]
        if s.loc[c] == Z_CITY + p and (around >> s.cell[c]) & 1 and s.tok[i] > best:
            best = s.tok[i]
    return best


cdef void gc_score(const GCState *s, int p, int32_t *out) noexcept nogil:
    """Final-scoring points of player p by score-pad category (SC_*)."""
    cdef uint64_t m[M_N]
    cdef GCAreas areas
    gc_city_masks(s, p, m)
    gc_city_areas(m, &areas)
    gc_score_city(s, p, m, &areas, out)


cdef void gc_city_areas(const uint64_t *m, GCAreas *a) noexcept nogil:
    """The residential areas of a city given by its masks (gc_city_masks).  A city holds
    at most GC_MAXBUILDINGS buildings (gc_validate), so at most as many areas; the bound
    is checked all the same, so that no masks can write past the arrays."""
    cdef uint64_t rem, comp
    cdef int v
    a.n = 0
    for v in range(2, 5):    # Residential 2, 3 and 4 (M_RES2..)
        rem = m[M_RES2 + v - 2]
        while rem and a.n < GC_MAXBUILDINGS:
            comp = gc_flood(rem & (~rem + 1), m[M_RES2 + v - 2])
            rem &= ~comp
            a.cells[a.n] = comp
            a.around[a.n] = gc_nbrs(comp) & ~comp
            a.value[a.n] = v
            a.colours[a.n] = gc_adjacent_colours(m, a.around[a.n])
            a.n += 1


cdef void gc_score_city(const GCState *s, int p, const uint64_t *m, const GCAreas *a,
                        int32_t *out) noexcept nogil:
    """gc_score from p's city masks (gc_city_masks) and residential areas (gc_city_areas),
    for a caller that reads them too."""
    cdef int k, colours, i, t
    cdef uint64_t temples
    memset(out, 0, sizeof(int32_t) * SC_N)
    for k in range(a.n):
        colours = rc_popcount64(a.colours[k])
        if colours:
            out[SC_RES2 + a.value[k] - 2] += (a.value[k] * rc_popcount64(a.cells[k]) * colours
                                              + bath_bonus(s, p, a.around[k]))
    i = rc_popcount64(m[M_AQUEDUCT])
    out[SC_AQUEDUCTS] = AQ_POINTS[i if i < AQ_SCORED else AQ_SCORED]
    temples = m[M_TEMPLE_TYPES]
    while temples:
        t = rc_pop_lsb64(&temples)
        out[SC_TEMPLES] += gc_temple_points(s, p, t, m)
    out[SC_COINS] = s.coins[p]
    out[SC_INFLUENCE_TOKENS] = s.influence[p] // 2
    for i in range(GC_NINFL):
        if s.infl[i] == p:
            out[SC_INFLUENCE_CARDS] += INFL_VALUE[i]
    for i in range(SC_TOTAL):
        out[SC_TOTAL] += out[i]


# =======================================================================================
# Changes: small mutators (cards between zones, coins, tokens, builds), each keeping
# the struct's invariants

cdef inline void gain(int16_t *x, int g) noexcept nogil:
    """Adds g to a coin or influence count, saturating at GC_MAXCOUNT (the int16 bound)."""
    cdef int v = x[0] + g
    x[0] = <int16_t>(v if v < GC_MAXCOUNT else GC_MAXCOUNT)


cdef int gc_set_tokens(GCState *s, int card, int tok) noexcept nogil:
    cdef int slot = TOK_SLOT[card]
    if slot < 0:
        return -1
    s.tok[slot] = tok
    return 0


cdef inline void sort_drawn(GCState *s) noexcept nogil:
    cdef int i, j
    cdef uint8_t x
    for i in range(1, s.drawn_n):
        x = s.drawn[i]
        j = i - 1
        while j >= 0 and s.drawn[j] > x:
            s.drawn[j + 1] = s.drawn[j]
            j -= 1
        s.drawn[j + 1] = x


cdef inline int take_drawn(GCState *s, int slot) noexcept nogil:
    cdef int c = s.drawn[slot], i
    for i in range(slot, s.drawn_n - 1):
        s.drawn[i] = s.drawn[i + 1]
    s.drawn_n -= 1
    s.drawn[s.drawn_n] = 0
    return c


cdef inline int keep_drawn(GCState *s, int slot) noexcept nogil:
    """The drawn card in slot goes to the actor's hand (whoever knew it still does)."""
    cdef int c = take_drawn(s, slot)
    s.loc[c] = Z_HAND + s.actor
    s.known[c] |= 1 << s.actor
    return c


cdef inline int draw_from_pool(GCState *s, int d, int t) noexcept nogil:
    """Removes the lowest-id card of type t from deck d's unknown part."""
    cdef int c
    cdef rc_set128 pool
    gc_zone_cards(s, Z_POOL + d, &pool)
    while not rc_s128_empty(&pool):
        c = rc_s128_pop(&pool)
        if CARD_TYPE[c] == t:
            s.pool_n[d] -= 1
            return c
    return -1


cdef inline int draw_from_bottom(GCState *s, int d) noexcept nogil:
    cdef int c = s.bot[d][0], i
    for i in range(s.bot_n[d] - 1):
        s.bot[d][i] = s.bot[d][i + 1]
    s.bot_n[d] -= 1
    s.bot[d][s.bot_n[d]] = 0
    return c


cdef inline void to_drawn(GCState *s, int c, uint8_t knowers) noexcept nogil:
    """Card c joins the drawn cards.  The list never outgrows GC_MAXDRAWN (validate keeps
    every reachable state below it; a full list sends the card to the box)."""
    if c < 0:
        return
    if s.drawn_n >= GC_MAXDRAWN:
        s.loc[c] = Z_BOX
        s.known[c] = nplayers_bits(s)
        return
    s.loc[c] = Z_DRAWN
    s.known[c] = knowers
    s.drawn[s.drawn_n] = c
    s.drawn_n += 1
    sort_drawn(s)


cdef inline void to_offer(GCState *s, int c) noexcept nogil:
    if c < 0:
        return
    s.loc[c] = Z_OFFER
    s.known[c] = nplayers_bits(s)


cdef inline void put_bottom(GCState *s, int slot) noexcept nogil:
    """The drawn card in slot goes under the School's deck, next in order.  Whoever knew
    it still does (a card put under by a School stays known to its placer).  The bottom
    list never outgrows GC_BOTTOM (validate keeps every reachable state below it; a full
    list would shuffle the card into the deck's unknown part)."""
    cdef int d = s.school_deck
    cdef int c = take_drawn(s, slot)
    s.known[c] |= 1 << s.actor
    if s.bot_n[d] >= GC_BOTTOM:
        s.loc[c] = Z_POOL + d
        s.known[c] = 0
        s.pool_n[d] += 1
        return
    s.loc[c] = Z_BOTTOM + d
    s.bot[d][s.bot_n[d]] = c
    s.bot_n[d] += 1


cdef inline void do_build(GCState *s, int cell) noexcept nogil:
    cdef int p = s.actor, t = s.sel_type
    cdef int card = gc_build_card(s, p, t)
    cdef int need = TYPE_COST[t], i, old, adj, slot
    cdef uint64_t bit = (<uint64_t>1) << cell
    if card < 0:
        return
    # Pay: the strip's bricks, then brick tokens, then coins.
    need -= s.bricks if s.bricks < need else need
    for i in range(GC_NBRICKTOK):
        if need and s.loc[TOK_CARD[i]] == Z_CITY + p and s.tok[i]:
            s.tok[i] = 0
            need -= 1
    s.coins[p] -= need * BRICK_PRICE
    s.bricks = 0
    if s.occ[p] & bit:  # an aqueduct replacing a building: the old one goes to the box
        for old in range(GC_NCARDS):
            if s.loc[old] == Z_CITY + p and s.cell[old] == cell:
                s.loc[old] = Z_BOX
                s.known[old] = nplayers_bits(s)
                s.cell[old] = GC_NONE
                slot = TOK_SLOT[old]
                if slot >= 0:
                    s.tok[slot] = 0
                break
    s.loc[card] = Z_CITY + p
    s.cell[card] = cell
    s.known[card] = nplayers_bits(s)
    s.occ[p] |= bit
    s.flags |= F_BUILT
    s.sel_type = 0
    s.phase = PH_MAIN
    gain(&s.influence[p], TYPE_STARS[t])
    if TYPE_KIND[t] == K_AQUEDUCT:
        s.aq_rows[p] |= 1 << row_of(cell)
        s.aq_cols[p] |= 1 << col_of(cell)
    elif TYPE_KIND[t] == K_PUBLIC:
        adj = rc_popcount64(gc_nbrs(bit) & s.occ[p]) + TYPE_BONUS[t]
        if TYPE_COLOUR[t] == COLOUR_YELLOW:
            gain(&s.coins[p], adj)
        elif TYPE_COLOUR[t] == COLOUR_RED:
            gain(&s.influence[p], adj)
        elif TYPE_COLOUR[t] == COLOUR_SCHOOL:
            s.school_left = adj
            s.phase = PH_SCHOOL_DECK
        else:
            s.tok[TOK_SLOT[card]] = adj


cdef inline void do_produce(GCState *s) noexcept nogil:
    cdef int p = s.actor, i
    s.coins[p] -= cogs_to_buy(s) * COG_PRICE
    s.cogs = 0
    gain(&s.coins[p], city_count(s, VEG_CARDS, N_VEG_CARDS, p))
    gain(&s.influence[p], city_count(s, SHEEP_CARDS, N_SHEEP_CARDS, p))
    for i in range(GC_NBRICKTOK):
        if s.loc[TOK_CARD[i]] == Z_CITY + p:
            s.tok[i] = 1
    s.flags |= F_PRODUCED


# =======================================================================================
# Turn flow: turns and rounds (begin_*, end_*) and gc_forced

cdef inline void begin_turn(GCState *s) noexcept nogil:
    s.actor = s.space_owner[s.turn_space]
    cdef int face = gc_face(s)
    s.bricks = FACE_BRICKS[face][s.turn_space]
    s.cogs = FACE_COGS[face][s.turn_space]
    s.flags = 0
    s.phase = PH_TAKE


cdef inline void end_round(GCState *s) noexcept nogil:
    cdef int i, p, best = -1, best_v = -1, tied = 0
    cdef bint any_in_play = False
    for i in range(GC_NINFL):
        if s.infl[i] == INFL_IN_PLAY:
            any_in_play = True
    if any_in_play:
        for p in range(s.nplayers):
            if s.influence[p] > best_v:
                best, best_v, tied = p, s.influence[p], 0
            elif s.influence[p] == best_v:
                tied = 1
        if not tied:
            for i in range(GC_NINFL):
                if s.infl[i] == INFL_IN_PLAY:
                    s.infl[i] = best
            s.influence[best] = 0
    memset(s.space_owner, GC_NONE, GC_NSPACES)
    s.turn_space = 0
    s.place_idx = 0
    s.flags = 0
    if s.round >= s.nrounds:
        s.phase = PH_OVER
        return
    s.first_player = (s.first_player + 1) % s.nplayers
    s.actor = s.first_player
    s.round += 1
    s.phase = PH_STRIP


cdef inline void end_turn(GCState *s) noexcept nogil:
    cdef int nxt = next_space(s, s.turn_space)
    s.bricks = 0
    s.cogs = 0
    if nxt < 0:
        end_round(s)
    else:
        s.turn_space = nxt
        begin_turn(s)


cdef inline bint forced_draft_deal(GCState *s) noexcept nogil:
    """Once every seat's draft card is dealt, the picks start from the last seat."""
    if s.drawn_n < s.nplayers:
        return False
    s.phase = PH_DRAFT_PICK
    s.actor = (s.first_player + s.nplayers - 1) % s.nplayers
    return True


cdef inline bint forced_draft_pick(GCState *s) noexcept nogil:
    """The last draft card left goes to the last seat to pick."""
    if s.drawn_n != 1:
        return False
    s.draft_card[s.actor] = keep_drawn(s, 0)
    s.actor = s.first_player
    s.phase = PH_STRIP
    return True


cdef inline bint forced_strip(GCState *s) noexcept nogil:
    """The round's strip: with it revealed the offer starts; the last strip needs no draw."""
    cdef int k = (s.round - 1) % GC_NFACES % GC_NSTRIPS, i
    if k < s.strips_revealed:
        s.phase = PH_OFFER
        s.draw_idx = 0
    elif s.strips_revealed == GC_NSTRIPS - 1:
        i = GC_NSTRIPS * (GC_NSTRIPS - 1) // 2
        for k in range(GC_NSTRIPS - 1):
            i -= s.strip_order[k]
        s.strip_order[GC_NSTRIPS - 1] = i
        s.strips_revealed = GC_NSTRIPS
    else:
        return False
    return True


cdef inline bint forced_offer(GCState *s) noexcept nogil:
    """The offer fills from the decks' bottoms until a draw is due; then the round's
    influence tiles come into play and emissaries are placed."""
    cdef int d, i
    if s.draw_idx < OFFER_N[s.nplayers]:
        d = OFFER_DECK[s.nplayers][s.draw_idx]
        if s.pool_n[d]:
            return False
        if s.bot_n[d]:
            to_offer(s, draw_from_bottom(s, d))
        s.draw_idx += 1
        return True
    for i in range(GC_NINFL):
        if INFL_ROUND[s.nplayers][i] == s.round:
            s.infl[i] = INFL_IN_PLAY
    s.draw_idx = 0
    s.phase = PH_EMISSARY
    s.place_idx = 0
    return True


cdef inline bint forced_emissary(GCState *s) noexcept nogil:
    """The next seat places an emissary; once all are placed the first space's turn begins."""
    cdef int k
    if s.place_idx < emissaries(s):
        s.actor = (s.first_player + s.place_idx) % s.nplayers
        return False
    k = next_space(s, -1)
    if k < 0:
        end_round(s)
        return True
    s.turn_space = k
    begin_turn(s)
    return True


cdef inline bint forced_take(GCState *s) noexcept nogil:
    """With the offer empty there is nothing to take: on to the main step."""
    cdef rc_set128 offer
    gc_zone_cards(s, Z_OFFER, &offer)
    if not rc_s128_empty(&offer):
        return False
    s.phase = PH_MAIN
    return True


cdef inline bint forced_main(GCState *s) noexcept nogil:
    """With nothing to build or produce the turn ends."""
    if buildable_types(s, s.actor) or can_produce(s, s.actor):
        return False
    end_turn(s)
    return True


cdef inline bint forced_school_deck(GCState *s) noexcept nogil:
    """The school's deck: none left ends the school, a single one is chosen."""
    cdef int k = 0, c = 0, d
    for d in range(1, school_decks_end(s)):
        if deck_remaining(s, d):
            k += 1
            c = d
    if k == 0:
        s.school_left = 0
        s.phase = PH_MAIN
    elif k == 1:
        s.school_deck = c
        s.phase = PH_SCHOOL_DRAW
    else:
        return False
    return True


cdef inline bint forced_school_draw(GCState *s) noexcept nogil:
    """The school draws from the deck's bottom until a draw is due or none are left."""
    cdef int d = s.school_deck, c
    if s.school_left and deck_remaining(s, d):
        if s.pool_n[d]:
            return False
        c = draw_from_bottom(s, d)
        to_drawn(s, c, s.known[c] | (1 << s.actor))
        s.school_left -= 1
        return True
    s.school_left = 0
    s.phase = PH_SCHOOL_KEEP
    return True


cdef inline bint forced_school_end(GCState *s, bint keep) noexcept nogil:
    """A lone drawn card is kept (keep) or put at the bottom, and the main step resumes."""
    if s.drawn_n > 1:
        return False
    if s.drawn_n == 1:
        if keep:
            keep_drawn(s, 0)
        else:
            put_bottom(s, 0)
    s.school_deck = 0
    s.phase = PH_MAIN
    return True


cdef inline bint forced_phase(GCState *s) noexcept nogil:
    """One forced step of the current phase; False where a decision or chance is due."""
    if s.phase == PH_DRAFT_DEAL:
        return forced_draft_deal(s)
    if s.phase == PH_DRAFT_PICK:
        return forced_draft_pick(s)
    if s.phase == PH_STRIP:
        return forced_strip(s)
    if s.phase == PH_OFFER:
        return forced_offer(s)
    if s.phase == PH_EMISSARY:
        return forced_emissary(s)
    if s.phase == PH_TAKE:
        return forced_take(s)
    if s.phase == PH_MAIN:
        return forced_main(s)
    if s.phase == PH_SCHOOL_DECK:
        return forced_school_deck(s)
    if s.phase == PH_SCHOOL_DRAW:
        return forced_school_draw(s)
    if s.phase == PH_SCHOOL_KEEP:
        return forced_school_end(s, True)
    if s.phase == PH_SCHOOL_BOTTOM:
        return forced_school_end(s, False)
    return False


cdef void gc_forced(GCState *s) noexcept nogil:
    """Takes every step that needs no decision and no chance, until one does (at most
    GC_MAX_FORCED of them, more than any one action can set off)."""
    cdef int _step
    for _step in range(GC_MAX_FORCED):
        if not forced_phase(s):
            return


# =======================================================================================
# Interface: the rc_kernel functions, in the table's order

cdef void gc_init(void *vs, const int32_t *params) noexcept nogil:
    cdef GCState *s = <GCState *>vs
    cdef int n = params[0], c, d, p
    memset(s, 0, sizeof(GCState))
    s.nplayers = n
    s.nrounds = ROUNDS[n]
    s.round = 1
    s.first_player = 0
    memset(s.space_owner, GC_NONE, GC_NSPACES)
    memset(s.infl, INFL_NONE, GC_NINFL)
    memset(s.draft_card, GC_NONE, GC_MAXP)
    memset(s.cell, GC_NONE, GC_NCARDS)
    for c in range(GC_NCARDS):
        d = CARD_DECK[c]
        if d < 0:
            p = start_seat(c)
            if p < n:
                s.loc[c] = Z_CITY + p
                s.cell[c] = START_FARM_CELL if (c - GC_NDECKCARDS) % START_BUILDINGS == 0 else START_HOUSE_CELL
                s.occ[p] |= (<uint64_t>1) << s.cell[c]
            else:
                s.loc[c] = Z_BOX
            s.known[c] = nplayers_bits(s)
        elif not deck_in_play(n, d):
            s.loc[c] = Z_BOX
            s.known[c] = nplayers_bits(s)
        else:
            s.loc[c] = Z_POOL + d
            s.pool_n[d] += 1
    for p in range(n):
        s.coins[p] = START_COINS
    s.phase = PH_DRAFT_DEAL


cdef int gc_num_players(const void *vs) noexcept nogil:
    return (<const GCState *>vs).nplayers


cdef int gc_current_player(const void *vs) noexcept nogil:
    cdef const GCState *s = <const GCState *>vs
    cdef int ph = s.phase
    if ph == PH_OVER:
        return RC_TERMINAL
    if ph == PH_DRAFT_DEAL or ph == PH_STRIP or ph == PH_OFFER or ph == PH_SCHOOL_DRAW:
        return RC_CHANCE
    return s.actor


cdef int gc_legal(const void *vs, int32_t *out) noexcept nogil:
    cdef const GCState *s = <const GCState *>vs
    cdef int n = 0, k, d, p = s.actor
    cdef uint32_t types
    cdef uint64_t cells
    cdef uint8_t offer[GC_MAXOFFER]
    cdef double probs_unused[GC_NTYPES]
    cdef int ph = s.phase
    if ph == PH_OVER:
        return 0
    if ph == PH_DRAFT_DEAL or ph == PH_STRIP or ph == PH_OFFER or ph == PH_SCHOOL_DRAW:
        return gc_chance_outcomes(vs, out, probs_unused)
    if ph == PH_EMISSARY:
        for k in range(GC_NSPACES):
            if s.space_owner[k] == GC_NONE:
                out[n] = A_EMISSARY + k
                n += 1
        return n
    if ph == PH_MAIN:
        types = buildable_types(s, p)
        while types:
            out[n] = A_BUILD + rc_pop_lsb32(&types)
            n += 1
        if can_produce(s, p):
            out[n] = A_PRODUCE
            n += 1
        out[n] = A_END
        return n + 1
    if ph == PH_PLACE:
        cells = gc_place_targets(s, p, s.sel_type)
        while cells:
            out[n] = A_PLACE + rc_pop_lsb64(&cells)
            n += 1
        return n
    if ph == PH_TAKE:
        k = gc_offer(s, offer)
        return distinct_slots(offer, k, A_TAKE, out)
    if ph == PH_DRAFT_PICK:
        return distinct_slots(s.drawn, s.drawn_n, A_DRAFT, out)
    if ph == PH_SCHOOL_DECK:
        for d in range(1, school_decks_end(s)):
            if deck_remaining(s, d):
                out[n] = A_SCHOOL_DECK + d - 1
                n += 1
        return n
    if ph == PH_SCHOOL_KEEP:
        return distinct_slots(s.drawn, s.drawn_n, A_KEEP, out)
    if ph == PH_SCHOOL_BOTTOM:
        return distinct_slots(s.drawn, s.drawn_n, A_BOTTOM, out)
    return 0


cdef int gc_chance_outcomes(const void *vs, int32_t *acts, double *probs) noexcept nogil:
    cdef const GCState *s = <const GCState *>vs
    cdef int counts[GC_NTYPES]
    cdef int c, t, n = 0, d, total
    cdef rc_set128 pool
    if s.phase == PH_STRIP:
        for t in range(GC_NSTRIPS):
            for c in range(s.strips_revealed):
                if s.strip_order[c] == t:
                    break
            else:
                acts[n] = CH_STRIP + t
                n += 1
        for c in range(n):
            probs[c] = 1.0 / n
        return n
    d = chance_deck(s)
    memset(counts, 0, sizeof(counts))
    gc_zone_cards(s, Z_POOL + d, &pool)
    while not rc_s128_empty(&pool):
        counts[CARD_TYPE[rc_s128_pop(&pool)]] += 1
    total = s.pool_n[d]
    for t in range(GC_NTYPES):
        if counts[t]:
            acts[n] = CH_CARD + t
            probs[n] = counts[t] / <double>total
            n += 1
    return n


cdef int32_t gc_sample_chance(const void *vs, rc_rng *rng) noexcept nogil:
    cdef const GCState *s = <const GCState *>vs
    cdef int k, c, d, t
    cdef rc_set128 pool
    if s.phase == PH_STRIP:
        k = rc_rng_below(rng, GC_NSTRIPS - s.strips_revealed)
        for t in range(GC_NSTRIPS):
            for c in range(s.strips_revealed):
                if s.strip_order[c] == t:
                    break
            else:
                if k == 0:
                    return CH_STRIP + t
                k -= 1
        return CH_STRIP
    d = chance_deck(s)
    k = rc_rng_below(rng, s.pool_n[d])
    gc_zone_cards(s, Z_POOL + d, &pool)
    if k >= rc_s128_count(&pool):
        return CH_CARD
    return CH_CARD + CARD_TYPE[rc_s128_nth(&pool, k)]


cdef void gc_step(GCState *s, int32_t a) noexcept nogil:
    """Applies one decision or chance outcome and its direct effects."""
    cdef int ph = s.phase, c, j, d
    cdef uint8_t offer[GC_MAXOFFER]
    if ph == PH_DRAFT_DEAL:
        to_drawn(s, draw_from_pool(s, 1, a - CH_CARD), 1 << ((s.first_player + s.nplayers - 1) % s.nplayers))
    elif ph == PH_DRAFT_PICK:
        c = take_drawn(s, a - A_DRAFT)
        s.loc[c] = Z_HAND + s.actor
        s.known[c] = 1 << s.actor
        s.draft_card[s.actor] = c
        # The rest go on to the next seat: only the passer and the receiver know them now
        # (earlier holders know the set, which the draft-group class in resample keeps).
        j = 1 << s.actor
        s.actor = (s.actor + s.nplayers - 1) % s.nplayers
        for d in range(s.drawn_n):
            s.known[s.drawn[d]] = j | (1 << s.actor)
    elif ph == PH_STRIP:
        s.strip_order[s.strips_revealed] = a - CH_STRIP
        s.strips_revealed += 1
    elif ph == PH_OFFER:
        d = OFFER_DECK[s.nplayers][s.draw_idx]
        to_offer(s, draw_from_pool(s, d, a - CH_CARD))
        s.draw_idx += 1
    elif ph == PH_EMISSARY:
        s.space_owner[a - A_EMISSARY] = s.actor
        s.place_idx += 1
    elif ph == PH_TAKE:
        j = a - A_TAKE
        if j >= gc_offer(s, offer):
            return
        c = offer[j]
        s.loc[c] = Z_HAND + s.actor
        s.flags |= F_TOOK
        s.phase = PH_MAIN
    elif ph == PH_MAIN:
        if a == A_END:
            end_turn(s)
        elif a == A_PRODUCE:
            do_produce(s)
        else:
            # Choosing the building shows everyone which card the player holds: it is
            # public from now on, so a resampled world keeps it in the player's hand.
            c = gc_build_card(s, s.actor, a - A_BUILD)
            if c < 0:
                return
            s.known[c] = nplayers_bits(s)
            s.sel_type = a - A_BUILD
            s.phase = PH_PLACE
    elif ph == PH_PLACE:
        do_build(s, a - A_PLACE)
    elif ph == PH_SCHOOL_DECK:
        s.school_deck = a - A_SCHOOL_DECK + 1
        s.phase = PH_SCHOOL_DRAW
    elif ph == PH_SCHOOL_DRAW:
        to_drawn(s, draw_from_pool(s, s.school_deck, a - CH_CARD), 1 << s.actor)
        s.school_left -= 1
    elif ph == PH_SCHOOL_KEEP:
        keep_drawn(s, a - A_KEEP)
        s.phase = PH_SCHOOL_BOTTOM
    elif ph == PH_SCHOOL_BOTTOM:
        put_bottom(s, a - A_BOTTOM)


cdef void gc_apply(void *vs, int32_t a) noexcept nogil:
    gc_step(<GCState *>vs, a)
    gc_forced(<GCState *>vs)


cdef void gc_returns(const void *vs, double *out) noexcept nogil:
    """Winners (most points, then influence tokens, then coins) share 1.0."""
    cdef const GCState *s = <const GCState *>vs
    cdef int32_t sc[SC_N]
    cdef int64_t key[GC_MAXP]
    cdef int p
    for p in range(s.nplayers):
        gc_score(s, p, sc)
        key[p] = (<int64_t>sc[SC_TOTAL] << 40) + (<int64_t>s.influence[p] << 20) + s.coins[p]
    rc_share_wins(key, s.nplayers, out)


cdef void gc_scores(const void *vs, int32_t *out) noexcept nogil:
    """Each player's SC_TOTAL, as final scoring would count it now."""
    cdef const GCState *s = <const GCState *>vs
    cdef int32_t sc[SC_N]
    cdef int p
    for p in range(s.nplayers):
        gc_score(s, p, sc)
        out[p] = sc[SC_TOTAL]


cdef void gc_resample(void *vs, int p, rc_rng *rng) noexcept nogil:
    """Redraws every card whose identity p does not know, within its class.

    Classes: the cards p passed on in the set-up draft and that are still hidden in the
    hands of the seats after p (p knows they are those cards); and, per deck, every
    other hidden card (the deck's unknown part, its bottom cards that others put there,
    hidden hand cards drawn from it, and cards drawn but not yet placed).  Card backs
    show the deck, so hidden cards never change deck.  Slots keep their zone and who
    knows them; only identities move.
    """
    cdef GCState *s = <GCState *>vs
    cdef uint8_t mapping[GC_NCARDS]
    cdef uint8_t cls[GC_NCARDS]
    cdef uint8_t members[GC_NCARDS]
    cdef uint8_t shuffled[GC_NCARDS]
    cdef uint8_t loc[GC_NCARDS]
    cdef uint8_t known[GC_NCARDS]
    cdef int c, q, z, k, n, i, d
    cdef uint8_t pbit = 1 << p
    for c in range(GC_NCARDS):
        mapping[c] = c
        cls[c] = GC_NONE
    # Draft group: seats drafting after p, while their draft card is still hidden.
    for q in range(s.nplayers):
        c = s.draft_card[q]
        if q == p or c == GC_NONE:
            continue
        # seat q drafted after p exactly when q comes later in the order n-1, n-2, ..., 0
        if q < p and s.loc[c] == Z_HAND + q and not (s.known[c] & pbit):
            cls[c] = GC_NDECKS
    # ...and, while the draft goes on, the cards still being passed on below p.
    if s.phase == PH_DRAFT_PICK and s.actor < p:
        for i in range(s.drawn_n):
            c = s.drawn[i]
            if not (s.known[c] & pbit):
                cls[c] = GC_NDECKS
    for c in range(GC_NDECKCARDS):
        if cls[c] != GC_NONE or s.known[c] & pbit:
            continue
        z = s.loc[c]
        if z < Z_OFFER or (Z_HAND <= z < Z_HAND + GC_MAXP and z != Z_HAND + p) or z == Z_DRAWN:
            cls[c] = CARD_DECK[c]
    for k in range(GC_NDECKS + 1):
        n = 0
        for c in range(GC_NDECKCARDS):
            if cls[c] == k:
                members[n] = c
                shuffled[n] = c
                n += 1
        rc_shuffle_u8(shuffled, n, rng)
        for i in range(n):
            mapping[members[i]] = shuffled[i]
    memcpy(loc, s.loc, GC_NCARDS)
    memcpy(known, s.known, GC_NCARDS)
    for c in range(GC_NDECKCARDS):
        if mapping[c] != c:
            s.loc[mapping[c]] = loc[c]
            s.known[mapping[c]] = known[c]
    for i in range(s.drawn_n):
        s.drawn[i] = mapping[s.drawn[i]]
    sort_drawn(s)
    for d in range(GC_NDECKS):
        for i in range(s.bot_n[d]):
            s.bot[d][i] = mapping[s.bot[d][i]]
    for q in range(GC_MAXP):
        if s.draft_card[q] != GC_NONE:
            s.draft_card[q] = mapping[s.draft_card[q]]


cdef enum:   # what others see of a hidden step (observe_action): RC_HIDDEN | SEEN_*
    SEEN_DEAL = 1             # a draft card dealt
    SEEN_SCHOOL_DRAW = 2      # + deck: a card drawn by the School
    SEEN_CHOICE = 8           # + phase: a hidden card kept or put back


cdef uint32_t gc_observe_action(const void *vs, int observer, int32_t a) noexcept nogil:
    cdef const GCState *s = <const GCState *>vs
    cdef int ph = s.phase
    if ph == PH_DRAFT_DEAL:
        return <uint32_t>a if observer == (s.first_player + s.nplayers - 1) % s.nplayers else RC_HIDDEN | SEEN_DEAL
    if ph == PH_SCHOOL_DRAW:
        return <uint32_t>a if observer == s.actor else RC_HIDDEN | (SEEN_SCHOOL_DRAW + s.school_deck)
    if ph == PH_DRAFT_PICK or ph == PH_SCHOOL_KEEP or ph == PH_SCHOOL_BOTTOM:
        return <uint32_t>a if observer == s.actor else RC_HIDDEN | (SEEN_CHOICE + ph)
    return <uint32_t>a


cdef int32_t gc_tensor_size(const int32_t *params) noexcept nogil:
    """A common block, then one per-player block per seat (params[0] = players)."""
    return GC_TENSOR_COMMON + params[0] * GC_TENSOR_PER_PLAYER


cdef inline float scaled(int v, int scale) noexcept nogil:
    """v on a learner's scale: v / scale, capped at 1."""
    return 1.0 if v >= scale else <float>v / scale


cdef enum:   # what the tensor reads of a card in a zone, two bits (ZONE_KIND)
    ZK_NONE = 0
    ZK_CITY = 1
    ZK_HAND = 2
    ZK_OTHER = 3          # the offer, the drawn cards, under decks II-IV

cdef uint8_t ZONE_KIND[GC_MAXP + 1][BYTE_VALUES]   # [players][zone]: ZK_*


cdef void fill_zone_kinds() noexcept nogil:
    cdef int n, q
    memset(ZONE_KIND, ZK_NONE, sizeof(ZONE_KIND))
    for n in range(GC_MAXP + 1):
        for q in range(n):
            ZONE_KIND[n][Z_CITY + q] = ZK_CITY
            ZONE_KIND[n][Z_HAND + q] = ZK_HAND
        ZONE_KIND[n][Z_OFFER] = ZONE_KIND[n][Z_DRAWN] = ZK_OTHER
        for q in range(Z_BOTTOM + 1, Z_BOTTOM + GC_NDECKS):
            ZONE_KIND[n][q] = ZK_OTHER


fill_zone_kinds()


cdef inline void tensor_common(const GCState *s, int n, float *common, float **blk) noexcept nogil:
    """The common block: phase, round, strips, the face, the turn, decks, the School and
    the influence tiles (a taken one in its holder's block)."""
    cdef int k, d, face, bricks
    cdef int ph = s.phase
    common[O_PHASE + (ph if ph < GC_NPHASES else PH_OVER)] = 1.0
    if 1 <= s.round <= GC_MAXROUNDS:
        common[O_ROUND + s.round - 1] = 1.0
    common[O_PROGRESS] = <float>s.round / s.nrounds if s.nrounds else 0.0
    for k in range(GC_NSTRIPS):
        if k < s.strips_revealed and s.strip_order[k] < GC_NSTRIPS:
            common[O_STRIPS + k * GC_NSTRIPS + s.strip_order[k]] = 1.0
    if PH_EMISSARY <= ph < PH_OVER:
        face = gc_face(s)
        common[O_FACE_SHOWN] = 1.0
        bricks = 0
        for k in range(GC_NSPACES):
            common[O_FACE + k] = FACE_BRICKS[face][k] - bricks
            bricks = FACE_BRICKS[face][k]
    if PH_TAKE <= ph < PH_OVER:
        if s.turn_space < GC_NSPACES:
            common[O_TURN_SPACE + s.turn_space] = 1.0
        common[O_TURN_BRICKS] = <float>s.bricks / GC_NSPACES
        common[O_TURN_COGS] = <float>s.cogs / GC_NSPACES
        for k in range(N_TURN_FLAGS):
            common[O_TURN_FLAGS + k] = (s.flags >> k) & 1
        if ph == PH_PLACE and s.sel_type < GC_NTYPES:
            common[O_SELECTED + s.sel_type] = 1.0
    for d in range(GC_NDECKS):
        common[O_DECK_SIZES + d] = <float>(s.pool_n[d] + s.bot_n[d]) / (DECK_HI[d] - DECK_LO[d])
    if PH_SCHOOL_DECK <= ph <= PH_SCHOOL_BOTTOM:
        if 1 <= s.school_deck < GC_NDECKS:
            common[O_SCHOOL_DECK + s.school_deck - 1] = 1.0
        common[O_SCHOOL_LEFT] = <float>s.school_left / GC_MAXDRAWN
    for k in range(GC_NINFL):
        if s.infl[k] == INFL_IN_PLAY:
            common[O_INFL_IN_PLAY + k] = 1.0
        elif s.infl[k] < n:
            blk[s.infl[k]][P_INFL_CARDS + k] = 1.0


cdef inline void tensor_seats(const GCState *s, int n, float **blk) noexcept nogil:
    """Each seat's scalars: first player, coins, influence, emissaries, the actor."""
    cdef int q, k
    cdef float *pb
    for q in range(n):
        pb = blk[q]
        pb[P_FIRST] = q == s.first_player
        pb[P_COINS] = scaled(s.coins[q], O_COUNT_SCALE)
        pb[P_COINS + 1] = <float>s.coins[q] / GC_MAXCOUNT
        pb[P_INFLUENCE] = scaled(s.influence[q], O_COUNT_SCALE)
        pb[P_INFLUENCE + 1] = <float>s.influence[q] / GC_MAXCOUNT
    for k in range(GC_NSPACES):
        q = s.space_owner[k]
        if q < n:
            blk[q][P_EMISSARY + k] = 1.0
    if gc_current_player(s) >= 0 and s.actor < n:
        blk[s.actor][P_ACTOR] = 1.0


cdef inline void zone_kind_bits(const GCState *s, const uint8_t *kind, uint64_t *lo, uint64_t *hi) noexcept nogil:
    """Two bits of ZONE_KIND per card, as sets of ids (start buildings count only in a city)."""
    cdef int c, k
    lo[0] = lo[1] = hi[0] = hi[1] = 0
    for c in range(WORD_BITS):
        k = kind[s.loc[c]]
        lo[0] |= <uint64_t>(k & 1) << c
        hi[0] |= <uint64_t>(k >> 1) << c
    for c in range(WORD_BITS, GC_NDECKCARDS):
        k = kind[s.loc[c]]
        lo[1] |= <uint64_t>(k & 1) << (c - WORD_BITS)
        hi[1] |= <uint64_t>(k >> 1) << (c - WORD_BITS)
    for c in range(GC_NDECKCARDS, GC_NCARDS):
        lo[1] |= <uint64_t>(kind[s.loc[c]] == ZK_CITY) << (c - WORD_BITS)


cdef inline void tensor_city_cards(const GCState *s, int w, uint64_t bits, float **blk,
                                   uint64_t (*m)[M_N]) noexcept nogil:
    """The city cards of word w: types, planes and bath tokens, and each city's masks."""
    cdef int c, q, t, cell, i, k
    cdef float *pb
    cdef float type_step = 1.0 / O_TYPE_BOUND
    while bits:
        c = WORD_BITS * w + rc_pop_lsb64(&bits)
        q = s.loc[c] - Z_CITY
        t = CARD_TYPE[c]
        pb = blk[q]
        pb[P_CITY_TYPES + t] += type_step
        city_add(m[q], t, s.cell[c])
        if s.cell[c] >= GC_NCELLS or not (GC_BOARD >> s.cell[c]) & 1:
            continue
        cell = s.cell[c] // BOARD_SIDE * GC_CITY_COLS + s.cell[c] % BOARD_SIDE
        for i in range(TYPE_NPLANES):   # M_OCC repeated: a fixed number of stores
            pb[P_PLANES + TYPE_PLANES[t][i] * GC_CITY_CELLS + cell] = 1.0
        k = TOK_SLOT[c]
        if k >= 0 and s.tok[k]:
            if k < GC_NBRICKTOK:
                pb[P_PLANES + PL_BRICK_TOKEN * GC_CITY_CELLS + cell] = 1.0
            else:
                pb[P_PLANES + PL_BATH_TOKENS * GC_CITY_CELLS + cell] = <float>s.tok[k] / MAX_TOKENS


cdef inline void tensor_hand_cards(const GCState *s, int p, int w, uint64_t bits, float **blk,
                                   float *common) noexcept nogil:
    """The hand cards of word w: known ones by type, a hidden draft card, others by deck."""
    cdef int c, q, t, d
    cdef uint8_t pbit = 1 << p
    cdef float *pb
    cdef float type_step = 1.0 / O_TYPE_BOUND
    while bits:
        c = WORD_BITS * w + rc_pop_lsb64(&bits)
        q = s.loc[c] - Z_HAND
        t = CARD_TYPE[c]
        pb = blk[q]
        if q == p or s.known[c] & pbit:
            pb[P_HAND + t] += type_step
        elif c == s.draft_card[q] and q < p:
            pb[P_DRAFT_HIDDEN] = 1.0
            common[O_DRAFT_GROUP + t] += 1.0 / O_DRAFT_BOUND
        else:
            d = CARD_DECK[c]
            pb[P_HAND_HIDDEN + d] += 1.0 / (DECK_HI[d] - DECK_LO[d])


cdef inline int tensor_other_cards(const GCState *s, int p, int w, uint64_t bits, int slot,
                                   float *common) noexcept nogil:
    """The other cards of word w: offer slots (from slot on; returns the next slot), drawn
    cards and the cards under decks II-IV."""
    cdef int c, z, t, k
    cdef uint8_t pbit = 1 << p
    while bits:
        c = WORD_BITS * w + rc_pop_lsb64(&bits)
        z = s.loc[c]
        t = CARD_TYPE[c]
        if z == Z_OFFER:
            if slot < GC_MAXOFFER:
                common[O_OFFER + slot * GC_NTYPES + t] = 1.0
            slot += 1
        elif z == Z_DRAWN:
            if s.known[c] & pbit:
                common[O_DRAWN + t] += 1.0 / GC_MAXDRAWN
            else:
                common[O_DRAWN_HIDDEN] += 1.0 / GC_MAXDRAWN
                if s.phase == PH_DRAFT_PICK and s.actor < p:
                    common[O_DRAFT_GROUP + t] += 1.0 / O_DRAFT_BOUND
        else:
            k = O_BOTTOM + (z - Z_BOTTOM - 1) * (GC_NTYPES + 1)
            common[k + (t if s.known[c] & pbit else GC_NTYPES)] += 1.0 / GC_BOTTOM
    return slot


cdef void gc_observation_tensor(const void *vs, int p, float *out) noexcept nogil:
    """What p knows (the package docstring's table): public facts, p's own cards, and the
    others' cards through the known bits (hidden ones as counts by deck), seat-relative.
    The cards are read as sets by zone kind; one pass over a city's cards fills its
    planes and its masks, which give its score."""
    cdef const GCState *s = <const GCState *>vs
    cdef int n = s.nplayers, q, w, slot
    cdef uint64_t lo[2]                 # ZONE_KIND's low bit of cards 0-63, 64-
    cdef uint64_t hi[2]                 # and its high bit
    cdef uint64_t m[GC_MAXP][M_N]       # each city's masks (gc_city_masks)
    cdef GCAreas areas
    cdef float *blk[GC_MAXP]            # each seat's block
    cdef int32_t sc[SC_N]
    memset(out, 0, sizeof(float) * (GC_TENSOR_COMMON + n * GC_TENSOR_PER_PLAYER))
    memset(m, 0, sizeof(m))
    for q in range(n):   # seat q's block is (q - p) mod n
        blk[q] = out + GC_TENSOR_COMMON + (q - p + (n if q < p else 0)) * GC_TENSOR_PER_PLAYER
    tensor_common(s, n, out, blk)
    tensor_seats(s, n, blk)
    # the cards, each set in id order (so the k-th offer card is offer slot k)
    zone_kind_bits(s, ZONE_KIND[n], lo, hi)
    slot = 0
    for w in range(2):
        tensor_city_cards(s, w, lo[w] & ~hi[w], blk, m)
        tensor_hand_cards(s, p, w, hi[w] & ~lo[w], blk, out)
        slot = tensor_other_cards(s, p, w, hi[w] & lo[w], slot, out)
    # each seat's score, from its city's masks
    for q in range(n):
        gc_city_areas(m[q], &areas)
        gc_score_city(s, q, m[q], &areas, sc)
        blk[q][P_SCORE] = scaled(sc[SC_TOTAL], O_SCORE_SCALE)


# =======================================================================================
# Validation: gc_validate, a sequence of named checks

cdef struct Tally:
    # what check_cards counts, for the checks after it
    int zone_count[Z_N]
    uint64_t occ[GC_MAXP]
    uint8_t aq_rows[GC_MAXP]
    uint8_t aq_cols[GC_MAXP]


cdef const char *check_round(const GCState *s) noexcept nogil:
    """Player count, round, phase, first player and actor are in range and agree."""
    cdef int n = s.nplayers
    if n < MIN_PLAYERS or n > GC_MAXP:
        return "nplayers must be 2, 3 or 4"
    if s.nrounds != ROUNDS[n]:
        return "nrounds does not match the player count"
    if s.round < 1 or s.round > s.nrounds:
        return "round out of range"
    if s.phase > PH_OVER:
        return "unknown phase"
    if s.first_player >= n or s.actor >= n:
        return "first_player or actor out of range"
    if s.first_player != (s.round - 1) % n:
        return "first_player does not match the round (it passes clockwise each round)"
    return NULL


cdef inline const char *check_padding(const GCState *s) noexcept nogil:
    """The bytes after the last field (known)."""
    return rc_check_padding(s.known + GC_NCARDS, <const uint8_t *>s + sizeof(GCState))


cdef const char *check_seats(const GCState *s) noexcept nogil:
    """Coins and influence in range; seats not in the game hold nothing."""
    cdef int p
    for p in range(GC_MAXP):
        if p < s.nplayers:
            # gains saturate at GC_MAXCOUNT, so every count in 0..GC_MAXCOUNT stays valid
            if s.coins[p] < 0 or s.influence[p] < 0:
                return "coins or influence out of range"
        elif s.coins[p] or s.influence[p] or s.occ[p] or s.aq_rows[p] or s.aq_cols[p]:
            return "an unused seat holds something"
    return NULL


cdef const char *check_strips(const GCState *s) noexcept nogil:
    """The strips revealed so far match the round."""
    cdef int k, i
    if s.strips_revealed > GC_NSTRIPS:
        return "strips_revealed out of range"
    k = 0
    for i in range(s.strips_revealed):
        if s.strip_order[i] >= GC_NSTRIPS or (k >> s.strip_order[i]) & 1:
            return "strip order is not a permutation"
        k |= 1 << s.strip_order[i]
    for i in range(s.strips_revealed, GC_NSTRIPS):
        if s.strip_order[i]:
            return "unrevealed strip slot is not zero"
    if s.phase <= PH_DRAFT_PICK:
        k = 0
    elif s.phase == PH_STRIP:
        k = s.round - 1
        if k >= GC_NSTRIPS - 1:
            return "strip phase after the fifth round"
    elif s.phase == PH_OVER:
        k = s.nrounds
    else:
        k = s.round
    if s.strips_revealed != (k if k < GC_NSTRIPS else GC_NSTRIPS) or (s.phase <= PH_DRAFT_PICK and s.round != 1):
        return "strip reveals out of step with the round"
    return NULL


cdef const char *check_emissaries(const GCState *s) noexcept nogil:
    """The emissaries on the strip match the phase and the placing order."""
    cdef int n = s.nplayers, p, k, i, cnt
    cnt = 0
    for k in range(GC_NSPACES):
        if s.space_owner[k] != GC_NONE:
            if s.space_owner[k] >= n:
                return "space owner out of range"
            cnt += 1
    if s.phase < PH_EMISSARY or s.phase == PH_OVER:
        if cnt:
            return "emissaries on the strip outside the round's middle"
    elif s.phase == PH_EMISSARY:
        if cnt != s.place_idx or s.place_idx >= emissaries(s):
            return "emissary count does not match place_idx"
    else:
        if cnt != emissaries(s) or s.place_idx != emissaries(s):
            return "not every emissary is placed"
        if s.turn_space >= GC_NSPACES or s.space_owner[s.turn_space] != s.actor:
            return "turn_space does not hold the actor's emissary"
    # Emissaries go down in turn from the first player: after m placements, seat q has
    # one for each of the first m seats of that order that is q.
    if s.phase == PH_EMISSARY:
        cnt = s.place_idx
        if s.actor != (s.first_player + cnt) % n:
            return "actor is not the seat whose emissary goes down next"
    elif PH_TAKE <= s.phase <= PH_SCHOOL_BOTTOM:
        cnt = emissaries(s)
    else:
        cnt = 0
        if s.place_idx:
            return "emissaries_placed set outside the round's middle"
    for p in range(n):
        k = 0
        for i in range(GC_NSPACES):
            k += s.space_owner[i] == p
        if k != cnt // n + ((p - s.first_player + n) % n < cnt % n):
            return "emissaries on the strip do not follow the placing order"
    return NULL


cdef const char *check_turn(const GCState *s) noexcept nogil:
    """The turn's counters and the School's fields are set only where the phase uses them."""
    cdef int n = s.nplayers
    if s.phase == PH_OFFER and s.draw_idx > OFFER_N[n]:
        return "draw_idx out of range"
    if s.bricks > GC_NSPACES or s.cogs > GC_NSPACES or s.flags > F_ALL or s.school_left > GC_MAXDRAWN:
        return "turn counters out of range"
    if (s.phase == PH_PLACE and s.sel_type >= GC_NTYPES) or (s.phase != PH_PLACE and s.sel_type):
        return "selected type out of range"
    if s.phase != PH_OFFER and s.draw_idx:
        return "draw_idx set outside the offer"
    if not (PH_SCHOOL_DRAW <= s.phase <= PH_SCHOOL_BOTTOM) and s.school_deck:
        return "school deck set outside a School"
    if not (PH_SCHOOL_DECK <= s.phase <= PH_SCHOOL_DRAW) and s.school_left:
        return "School draws left outside a School"
    if not (PH_TAKE <= s.phase <= PH_SCHOOL_BOTTOM) and (s.flags or s.bricks or s.cogs or s.turn_space):
        return "turn fields set outside a turn"
    if s.phase < PH_EMISSARY and s.phase != PH_DRAFT_PICK and s.actor != s.first_player:
        return "actor set at a chance node"
    if PH_SCHOOL_DECK < s.phase <= PH_SCHOOL_BOTTOM:
        if s.school_deck < 1 or s.school_deck >= school_decks_end(s):
            return "school deck out of range"
    return NULL


cdef const char *check_influence(const GCState *s) noexcept nogil:
    """Influence cards are held by seats in the game, and only once they surfaced."""
    cdef int n = s.nplayers, i
    for i in range(GC_NINFL):
        if s.infl[i] != INFL_NONE and s.infl[i] != INFL_IN_PLAY and s.infl[i] >= n:
            return "influence card owner out of range"
        if s.infl[i] != INFL_NONE and (INFL_ROUND[n][i] == 0 or INFL_ROUND[n][i] > s.round):
            return "influence card in play before it surfaces"
    return NULL


cdef const char *check_draft_cards(const GCState *s) noexcept nogil:
    """Each seat's draft card is a deck II card."""
    cdef int n = s.nplayers, p, d
    for p in range(GC_MAXP):
        d = s.draft_card[p]
        if d != GC_NONE and (p >= n or d >= GC_NDECKCARDS or CARD_DECK[d] != 1):
            return "draft card out of range"
    return NULL


cdef const char *check_cards(const GCState *s, Tally *tl) noexcept nogil:
    """Every card's zone, cell, tokens and knowers; counts zones and cities into tl."""
    cdef int n = s.nplayers, p, c, d, z
    cdef int allp = nplayers_bits(s)
    cdef uint64_t bit
    memset(tl, 0, sizeof(Tally))
    for c in range(GC_NCARDS):
        z = s.loc[c]
        d = CARD_DECK[c]
        if z > Z_DRAWN:
            return "card zone out of range"
        if s.known[c] & ~allp:
            return "card known to a seat not in the game"
        if d < 0:
            p = start_seat(c)
            if not (z == Z_BOX or (p < n and z == Z_CITY + p)):
                return "starting building outside its city"
        elif not deck_in_play(n, d):
            if z != Z_BOX:
                return "card of an unused deck in play"
        if z < Z_OFFER and (z - Z_POOL) % GC_NDECKS != d:
            return "card in another deck"
        if Z_BOTTOM <= z < Z_OFFER and d == 0:
            return "card under deck I"
        if (Z_HAND <= z < Z_HAND + GC_MAXP and z - Z_HAND >= n) or (Z_CITY <= z < Z_CITY + GC_MAXP and z - Z_CITY >= n):
            return "card with a seat not in the game"
        if (z == Z_OFFER or z == Z_BOX or Z_CITY <= z < Z_CITY + GC_MAXP) and s.known[c] != allp:
            return "public card not known to all"
        if Z_HAND <= z < Z_HAND + GC_MAXP and not (s.known[c] >> (z - Z_HAND)) & 1:
            return "hand card unknown to its owner"
        if z < Z_BOTTOM and s.known[c]:
            return "card in a deck's unknown part is known"
        # A dealt draft card is known to the seat that will pick from the deal (as gc_step
        # deals it); any other drawn card to the seat choosing now.
        if z == Z_DRAWN and not (s.known[c] >> (
                (s.first_player + n - 1) % n if s.phase == PH_DRAFT_DEAL else s.actor)) & 1:
            return "drawn card unknown to the player choosing"
        if Z_CITY <= z < Z_CITY + GC_MAXP:
            p = z - Z_CITY
            if s.cell[c] >= GC_NCELLS or not (GC_BOARD >> s.cell[c]) & 1:
                return "city card off the board"
            bit = (<uint64_t>1) << s.cell[c]
            if tl.occ[p] & bit:
                return "two buildings on one cell"
            tl.occ[p] |= bit
            if TYPE_KIND[CARD_TYPE[c]] == K_AQUEDUCT:
                if (tl.aq_rows[p] >> row_of(s.cell[c])) & 1 or (tl.aq_cols[p] >> col_of(s.cell[c])) & 1:
                    return "two aqueducts in one row or column"
                tl.aq_rows[p] |= 1 << row_of(s.cell[c])
                tl.aq_cols[p] |= 1 << col_of(s.cell[c])
        elif s.cell[c] != GC_NONE:
            return "cell set for a card outside a city"
        if TOK_SLOT[c] >= 0 and s.tok[TOK_SLOT[c]] and not (Z_CITY <= z < Z_CITY + GC_MAXP):
            return "token on a card outside a city"
        tl.zone_count[z] += 1
    return NULL


cdef const char *check_tokens(const GCState *s) noexcept nogil:
    """Token counts fit their cards."""
    cdef int i
    for i in range(GC_NTOK):
        if (i < GC_NBRICKTOK and s.tok[i] > 1) or s.tok[i] > MAX_TOKENS:
            return "token count out of range"
    return NULL


cdef const char *check_decks(const GCState *s, Tally *tl) noexcept nogil:
    """Pool and bottom counts match the zones, bottom lists are sound."""
    cdef int c, d, k, i
    for d in range(GC_NDECKS):
        if tl.zone_count[Z_POOL + d] != s.pool_n[d]:
            return "pool_n does not match the deck"
        if s.bot_n[d] > GC_BOTTOM or tl.zone_count[Z_BOTTOM + d] != s.bot_n[d]:
            return "bot_n does not match the deck bottom"
        for i in range(s.bot_n[d]):
            c = s.bot[d][i]
            if c >= GC_NDECKCARDS or s.loc[c] != Z_BOTTOM + d:
                return "deck bottom lists a card not there"
            for k in range(i):
                if s.bot[d][k] == c:
                    return "deck bottom lists a card twice"
        for i in range(s.bot_n[d], GC_BOTTOM):
            if s.bot[d][i]:
                return "unused deck bottom slot is not zero"
    return NULL


cdef const char *check_drawn(const GCState *s, Tally *tl) noexcept nogil:
    """The drawn list matches the drawn cards, in order, from the right deck."""
    cdef int n = s.nplayers, c, i
    if tl.zone_count[Z_DRAWN] != s.drawn_n or s.drawn_n > GC_MAXDRAWN:
        return "drawn_n does not match the drawn cards"
    for i in range(s.drawn_n):
        c = s.drawn[i]
        if c >= GC_NDECKCARDS or s.loc[c] != Z_DRAWN or (i and s.drawn[i - 1] >= c):
            return "drawn list does not match the drawn cards"
        if CARD_DECK[c] != (1 if s.phase <= PH_DRAFT_PICK else s.school_deck):
            return "drawn card from another deck than the draft's or the School's"
    for i in range(s.drawn_n, GC_MAXDRAWN):
        if s.drawn[i]:
            return "unused drawn slot is not zero"
    if s.drawn_n and not (s.phase <= PH_DRAFT_PICK or PH_SCHOOL_DRAW <= s.phase <= PH_SCHOOL_BOTTOM):
        return "cards drawn outside the draft or a School"
    if s.phase == PH_DRAFT_DEAL and s.drawn_n >= n:
        return "draft deal already complete"
    return NULL


cdef const char *check_offer(const GCState *s, Tally *tl) noexcept nogil:
    """The offer holds at most one card per draw so far this upkeep, and never more than
    the turns still to take one (so every turn that ends leaves a state within bounds)."""
    cdef int k, i
    if s.phase < PH_OFFER or s.phase == PH_OVER:
        k = 0
    elif s.phase == PH_OFFER:
        k = s.draw_idx
    elif s.phase == PH_EMISSARY:
        k = emissaries(s)
    else:
        k = s.phase == PH_TAKE
        for i in range(s.turn_space + 1, GC_NSPACES):
            k += s.space_owner[i] != GC_NONE
    if tl.zone_count[Z_OFFER] > k or tl.zone_count[Z_OFFER] > GC_MAXOFFER:
        return "offer holds more cards than the draws or turns allow"
    return NULL


cdef const char *check_school(const GCState *s) noexcept nogil:
    """The School's drawn cards and draws to come fit the drawn list, and the cards that
    can still go under a deck (these, and 3 per School not yet built, 4 for the
    University) fit the bottom lists."""
    cdef int c, d, k, t
    k = 0
    if PH_SCHOOL_DECK <= s.phase <= PH_SCHOOL_BOTTOM:
        if s.drawn_n + s.school_left > GC_MAXDRAWN:
            return "School draws exceed the drawn cards' room"
        k = s.drawn_n + s.school_left - (s.phase != PH_SCHOOL_BOTTOM)
    for d in range(GC_NDECKS):
        k += s.bot_n[d]
    for c in range(GC_NDECKCARDS):
        t = CARD_TYPE[c]
        if TYPE_KIND[t] == K_PUBLIC and TYPE_COLOUR[t] == COLOUR_SCHOOL and s.loc[c] != Z_BOX and \
                not (Z_CITY <= s.loc[c] < Z_CITY + GC_MAXP):
            k += 3 + TYPE_BONUS[t]
    if k > GC_BOTTOM:
        return "more cards could go under the decks than the game allows"
    return NULL


cdef const char *check_draft(const GCState *s) noexcept nogil:
    """The set-up draft: seats pick in turn from the one before the first player
    backwards, so the picker and the seats that kept a card follow from the cards left."""
    cdef int n = s.nplayers, p, q, c, k
    if s.phase == PH_DRAFT_PICK and s.actor != (s.first_player + s.drawn_n + n - 1) % n:
        return "actor is not the seat whose draft pick is next"
    if s.phase == PH_DRAFT_DEAL and s.pool_n[1] < n - s.drawn_n:
        return "deck II cannot complete the draft deal"
    for p in range(n):
        c = s.draft_card[p]
        for q in range(p):
            if c != GC_NONE and s.draft_card[q] == c:
                return "two seats kept the same draft card"
        if s.phase <= PH_DRAFT_PICK:
            k = s.phase == PH_DRAFT_PICK and (p - s.first_player + n) % n >= s.drawn_n
            if k != (c != GC_NONE) or (k and s.loc[c] != Z_HAND + p):
                return "draft cards do not match the seats that picked"
    return NULL


cdef const char *check_cities(const GCState *s, Tally *tl) noexcept nogil:
    """Each city is sound: matches its masks, connected, within 4x4."""
    cdef int n = s.nplayers, p
    for p in range(n):
        if tl.occ[p] != s.occ[p]:
            return "occupancy mask does not match the city"
        if tl.occ[p] == 0:
            return "empty city"
        if rc_popcount64(tl.occ[p]) > GC_MAXBUILDINGS:
            return "more than 16 buildings"
        if gc_flood(tl.occ[p] & (~tl.occ[p] + 1), tl.occ[p]) != tl.occ[p]:
            return "city is not connected"
        if span(row_bits(tl.occ[p])) > GC_CITY_SPAN - 1:
            return "city taller than four"
        if span(col_bits(tl.occ[p])) > GC_CITY_SPAN - 1:
            return "city wider than four"
        if tl.aq_rows[p] != s.aq_rows[p] or tl.aq_cols[p] != s.aq_cols[p]:
            return "aqueduct rows and columns do not match the city"
    return NULL


cdef const char *check_live(const GCState *s) noexcept nogil:
    """A chance node has a card to draw, a placement a cell, a choice two cards.  (That a
    live state has a legal action at all, State._check_struct checks for every game.)"""
    cdef int n = s.nplayers, c, d
    cdef int allp = nplayers_bits(s)
    if s.phase == PH_DRAFT_DEAL or s.phase == PH_OFFER or s.phase == PH_SCHOOL_DRAW:
        d = chance_deck(s) if not (s.phase == PH_OFFER and s.draw_idx >= OFFER_N[n]) else -1
        if d < 0 or s.pool_n[d] == 0:
            return "chance node with nothing to draw"
    if s.phase == PH_PLACE:
        c = gc_build_card(s, s.actor, s.sel_type)
        if c < 0 or not can_afford_build(s, s.actor, s.sel_type) or not gc_place_targets(s, s.actor, s.sel_type):
            return "selected building cannot be placed"
        if s.known[c] != allp:
            return "selected building not known to all (everyone saw it chosen)"
    if s.phase == PH_SCHOOL_DRAW and s.school_left == 0:
        return "School draw with no draws left"
    if (s.phase == PH_DRAFT_PICK or s.phase == PH_SCHOOL_KEEP or s.phase == PH_SCHOOL_BOTTOM) and s.drawn_n < 2:
        return "choice among fewer than two drawn cards"
    return NULL


cdef const char *gc_validate(const void *vs) noexcept nogil:
    """NULL when every field is in range and the zones, cities and phase agree as in a
    state the game could reach, so that every legal step from it stays within the
    kernel's arrays and gives a state this accepts too; else the first fault."""
    cdef const GCState *s = <const GCState *>vs
    cdef Tally tl
    cdef const char *msg
    msg = check_round(s)
    if msg != NULL:
        return msg
    msg = check_padding(s)
    if msg != NULL:
        return msg
    msg = check_seats(s)
    if msg != NULL:
        return msg
    msg = check_strips(s)
    if msg != NULL:
        return msg
    msg = check_emissaries(s)
    if msg != NULL:
        return msg
    msg = check_turn(s)
    if msg != NULL:
        return msg
    msg = check_influence(s)
    if msg != NULL:
        return msg
    msg = check_draft_cards(s)
    if msg != NULL:
        return msg
    msg = check_cards(s, &tl)
    if msg != NULL:
        return msg
    msg = check_tokens(s)
    if msg != NULL:
        return msg
    msg = check_decks(s, &tl)
    if msg != NULL:
        return msg
    msg = check_drawn(s, &tl)
    if msg != NULL:
        return msg
    msg = check_offer(s, &tl)
    if msg != NULL:
        return msg
    msg = check_school(s)
    if msg != NULL:
        return msg
    msg = check_draft(s)
    if msg != NULL:
        return msg
    msg = check_cities(s, &tl)
    if msg != NULL:
        return msg
    msg = check_live(s)
    if msg != NULL:
        return msg
    return NULL


# =======================================================================================
# Tables from data: run at import, fills the Tables section from data.py

def _load_types():
    """Each building type: kind, cost, stars, value, colour, bonus and city masks."""
    kinds = {_data.FARM_VEG: K_VEG, _data.FARM_GRAIN: K_GRAIN, _data.FARM_SHEEP: K_SHEEP,
             _data.VINEYARD: K_VINEYARD, _data.RESIDENTIAL: K_RES, _data.PUBLIC: K_PUBLIC,
             _data.AQUEDUCT: K_AQUEDUCT, _data.TEMPLE: K_TEMPLE}
    assert len(_data.TYPES) == GC_NTYPES
    for t, bt in enumerate(_data.TYPES):
        k = kinds[bt.kind]
        TYPE_KIND[t] = k
        TYPE_COST[t] = bt.cost
        TYPE_STARS[t] = bt.stars
        TYPE_VALUE[t] = bt.value
        TYPE_COLOUR[t] = _data.COLOURS.index(bt.colour) if bt.colour else -1
        TYPE_BONUS[t] = bt.bonus
        m = 1 << M_OCC
        if k == K_RES:
            m |= 1 << (M_RES2 + bt.value - 2)
        if k == K_PUBLIC:
            m |= 1 << (M_YELLOW + TYPE_COLOUR[t])
        if k == K_AQUEDUCT:
            m |= 1 << M_AQUEDUCT
        if k in (K_VEG, K_VINEYARD):
            m |= 1 << M_VEG
        if k in (K_GRAIN, K_VINEYARD):
            m |= 1 << M_GRAIN
        if k == K_SHEEP:
            m |= 1 << M_SHEEP
        if k in (K_VEG, K_GRAIN, K_SHEEP, K_VINEYARD):
            m |= 1 << M_PRODUCTION
        if k == K_TEMPLE:
            m |= 1 << M_TEMPLE
        TYPE_MASKS[t] = m
        ids = [i for i in range(M_TEMPLE + 2) if (m >> i) & 1]
        planes = [i for i in ids if i <= M_TEMPLE]
        assert ids[0] == M_OCC and len(ids) <= TYPE_NMASKS and len(planes) <= TYPE_NPLANES
        for i in range(TYPE_NMASKS):
            TYPE_MASK_IDS[t][i] = ids[i] if i < len(ids) else M_OCC
        for i in range(TYPE_NPLANES):
            TYPE_PLANES[t][i] = planes[i] if i < len(planes) else M_OCC


def _load_cards(cards):
    """Each card's type and deck, the decks' id ranges, token slots and farm lists."""
    global N_VEG_CARDS, N_SHEEP_CARDS
    assert len(cards) == GC_NCARDS
    for d in range(GC_NDECKS):
        ids = [i for i, (_, dk) in enumerate(cards) if dk == d]
        DECK_LO[d], DECK_HI[d] = min(ids), max(ids) + 1
    brick_slots, bath_slots, veg, sheep = [], [], [], []
    for c, (t, d) in enumerate(cards):
        CARD_TYPE[c] = t
        CARD_DECK[c] = d
        TOK_SLOT[c] = -1
        k = TYPE_KIND[t]
        if k in (K_GRAIN, K_VINEYARD):
            brick_slots.append(c)
        if k == K_PUBLIC and TYPE_COLOUR[t] == COLOUR_BATH:
            bath_slots.append(c)
        if k in (K_VEG, K_VINEYARD):
            veg.append(c)
        if k == K_SHEEP:
            sheep.append(c)
    assert len(brick_slots) == GC_NBRICKTOK and len(bath_slots) == GC_NTOK - GC_NBRICKTOK
    assert len(veg) <= MAX_VEG_CARDS and len(sheep) <= MAX_SHEEP_CARDS
    assert len(_data.AQUEDUCT_POINTS) == AQ_SCORED + 1 and max(_data.ROUNDS) <= GC_MAXP
    assert _data.COLOURS.index(_data.BLUE) == COLOUR_BATH
    for i, c in enumerate(brick_slots + bath_slots):
        TOK_SLOT[c] = i
        TOK_CARD[i] = c
    for i, c in enumerate(veg):
        VEG_CARDS[i] = c
    N_VEG_CARDS = len(veg)
    for i, c in enumerate(sheep):
        SHEEP_CARDS[i] = c
    N_SHEEP_CARDS = len(sheep)


def _check_bounds(cards):
    """The data fits the kernel's named bounds (the tensor's among them)."""
    assert len(_data.STRIP_FRONTS) == GC_NSTRIPS and GC_NFACES == 2 * GC_NSTRIPS
    assert GC_NCELLS == BOARD_SIDE * BOARD_SIDE
    assert BOARD_SIDE == 8   # a row is a byte of a cell mask (row_bits, rows_mask)
    # the tensor's bounds: a type's copies and a city's buildings, the draft group, the
    # city's reach (GC_BOARD) and the rounds
    assert max(sum(1 for ty, _ in cards if ty == t) for t in range(GC_NTYPES)) <= O_TYPE_BOUND
    assert GC_MAXBUILDINGS <= O_TYPE_BOUND and O_DRAFT_BOUND == GC_MAXP - 1
    assert GC_BOARD == sum(1 << (r * BOARD_SIDE + c) for r in range(GC_CITY_ROWS) for c in range(GC_CITY_COLS))
    assert GC_MAXROUNDS == max(_data.ROUNDS.values())
    assert GC_NDECKS == len(_data.DECK_NAMES) and GC_NINFL == len(_data.INFLUENCE_VALUES)
    assert GC_MAXP == max(_data.ROUNDS) and MIN_PLAYERS == min(_data.ROUNDS)
    assert GC_MAXOFFER == max(len(decks) for decks in _data.OFFER_DECKS.values())
    assert all(len(front) == GC_NSPACES for front in _data.STRIP_FRONTS)
    assert GC_NDECKCARDS == sum(1 for _, deck in _data.card_table() if deck >= 0)


def _load_faces():
    """Bricks and cogs up to each space of each strip face."""
    for f in range(GC_NFACES):
        front = _data.STRIP_FRONTS[f % GC_NSTRIPS]
        face = front if f < GC_NSTRIPS else front[::-1]
        b = c_ = 0
        for k in range(GC_NSPACES):
            b += face[k] == "B"
            c_ += face[k] == "C"
            FACE_BRICKS[f][k] = b
            FACE_COGS[f][k] = c_


def _load_player_counts():
    """Per player count: the offer's decks, the rounds and when influence tiles come."""
    memset(OFFER_N, 0, sizeof(OFFER_N))
    memset(ROUNDS, 0, sizeof(ROUNDS))
    memset(INFL_ROUND, 0, sizeof(INFL_ROUND))
    for n in range(MIN_PLAYERS, GC_MAXP + 1):
        decks = _data.OFFER_DECKS[n]
        OFFER_N[n] = len(decks)
        for i, d in enumerate(decks):
            OFFER_DECK[n][i] = d
        ROUNDS[n] = _data.ROUNDS[n]
        per_round = sum(1 for d in decks if d == 0)
        for value, after in _data.INFLUENCE_CARDS["2" if n == 2 else "3-4"]:
            assert after % per_round == 0
            INFL_ROUND[n][_data.INFLUENCE_VALUES.index(value)] = after // per_round
    for i, v in enumerate(_data.INFLUENCE_VALUES):
        INFL_VALUE[i] = v
    for i, v in enumerate(_data.AQUEDUCT_POINTS):
        AQ_POINTS[i] = v


def _load_points():
    """The prices, the temples' ids and their points."""
    global START_COINS, BRICK_PRICE, COG_PRICE, COGS_TO_PRODUCE
    global T_MINERVA, T_FORTUNA, T_CUPID, T_JUNO, T_SATURN, T_LUNA, T_MARS, T_VENUS, T_JUPITER, T_MERCURY
    global MINERVA_BUILDINGS, MINERVA_POINTS, FORTUNA_POINTS, CUPID_RES2, CUPID_POINTS
    global JUNO_TEMPLES, JUNO_POINTS, SATURN_FARMS, SATURN_POINTS, MARS_POINTS
    global VENUS_PER_RES2, JUPITER_PER_TEMPLE, MERCURY_COINS
    START_COINS = _data.START_COINS
    BRICK_PRICE, COG_PRICE, COGS_TO_PRODUCE = _data.BRICK_PRICE, _data.COG_PRICE, _data.COGS_TO_PRODUCE
    tid = _data.TYPE_ID
    T_MINERVA, T_FORTUNA, T_CUPID = tid["Temple of Minerva"], tid["Temple of Fortuna"], tid["Temple of Cupid"]
    T_JUNO, T_SATURN, T_LUNA = tid["Temple of Juno"], tid["Temple of Saturn"], tid["Temple of Luna"]
    T_MARS, T_VENUS, T_JUPITER = tid["Temple of Mars"], tid["Temple of Venus"], tid["Temple of Jupiter"]
    T_MERCURY = tid["Temple of Mercury"]
    MINERVA_BUILDINGS, MINERVA_POINTS = _data.MINERVA_BUILDINGS, _data.MINERVA_POINTS
    FORTUNA_POINTS = _data.FORTUNA_POINTS
    CUPID_RES2, CUPID_POINTS = _data.CUPID_RES2, _data.CUPID_POINTS
    JUNO_TEMPLES, JUNO_POINTS = _data.JUNO_TEMPLES, _data.JUNO_POINTS
    SATURN_FARMS, SATURN_POINTS = _data.SATURN_FARMS, _data.SATURN_POINTS
    MARS_POINTS, VENUS_PER_RES2 = _data.MARS_POINTS, _data.VENUS_PER_RES2
    JUPITER_PER_TEMPLE, MERCURY_COINS = _data.JUPITER_PER_TEMPLE, _data.MERCURY_COINS_PER_POINT


def _load_tables():
    """Fills the Tables section from data.py."""
    cards = _data.card_table()
    _load_types()
    _load_cards(cards)
    _check_bounds(cards)
    _load_faces()
    _load_player_counts()
    _load_points()


_load_tables()


# =======================================================================================
# Kernel table: GC_KERNEL, slot by slot, and its capsule

cdef rc_kernel GC_KERNEL
GC_KERNEL.abi_version = RC_ABI_VERSION
GC_KERNEL.state_size = sizeof(GCState)
GC_KERNEL.state_version = 1
GC_KERNEL.num_actions = GC_NUM_ACTIONS
GC_KERNEL.max_legal = GC_MAXLEGAL
GC_KERNEL.max_game_length = GC_MAX_GAME_LENGTH
GC_KERNEL.init = gc_init
GC_KERNEL.num_players = gc_num_players
GC_KERNEL.current_player = gc_current_player
GC_KERNEL.legal_actions = gc_legal
GC_KERNEL.chance_outcomes = gc_chance_outcomes
GC_KERNEL.sample_chance = gc_sample_chance
GC_KERNEL.apply = gc_apply
GC_KERNEL.returns = gc_returns
GC_KERNEL.scores = gc_scores
GC_KERNEL.resample = gc_resample
GC_KERNEL.observe_action = gc_observe_action
GC_KERNEL.validate = gc_validate
GC_KERNEL.max_tensor_size = GC_MAX_TENSOR
GC_KERNEL.tensor_size = gc_tensor_size
GC_KERNEL.observation_tensor = gc_observation_tensor

kernel_capsule = rc_kernel_capsule(&GC_KERNEL)
STATE_SIZE = sizeof(GCState)
NUM_ACTIONS = GC_NUM_ACTIONS
MAX_LEGAL = GC_MAXLEGAL
MAX_GAME_LENGTH = GC_MAX_GAME_LENGTH
# the first id of each action block, in id order (the package docstring's table)
ACTION_BLOCKS = {
    "A_PLACE": A_PLACE, "A_BUILD": A_BUILD, "A_PRODUCE": A_PRODUCE, "A_END": A_END,
    "A_TAKE": A_TAKE, "A_EMISSARY": A_EMISSARY, "A_DRAFT": A_DRAFT,
    "A_SCHOOL_DECK": A_SCHOOL_DECK, "A_KEEP": A_KEEP, "A_BOTTOM": A_BOTTOM,
    "CH_CARD": CH_CARD, "CH_STRIP": CH_STRIP,
}
# the observation tensor's slices, name -> (offset, length): O_* in the common block, P_*
# in each per-player block (offsets within the block; the package docstring's table)
TENSOR_COMMON = GC_TENSOR_COMMON
TENSOR_PER_PLAYER = GC_TENSOR_PER_PLAYER
TENSOR_BLOCKS = {
    "O_PHASE": (O_PHASE, GC_NPHASES), "O_ROUND": (O_ROUND, GC_MAXROUNDS),
    "O_PROGRESS": (O_PROGRESS, 1), "O_STRIPS": (O_STRIPS, GC_NSTRIPS * GC_NSTRIPS),
    "O_FACE": (O_FACE, GC_NSPACES), "O_FACE_SHOWN": (O_FACE_SHOWN, 1),
    "O_TURN_SPACE": (O_TURN_SPACE, GC_NSPACES), "O_TURN_BRICKS": (O_TURN_BRICKS, 1),
    "O_TURN_COGS": (O_TURN_COGS, 1), "O_TURN_FLAGS": (O_TURN_FLAGS, 3),
    "O_SELECTED": (O_SELECTED, GC_NTYPES), "O_OFFER": (O_OFFER, GC_MAXOFFER * GC_NTYPES),
    "O_DRAWN": (O_DRAWN, GC_NTYPES), "O_DRAWN_HIDDEN": (O_DRAWN_HIDDEN, 1),
    "O_DRAFT_GROUP": (O_DRAFT_GROUP, GC_NTYPES),
    "O_BOTTOM": (O_BOTTOM, GC_SCHOOL_DECKS * (GC_NTYPES + 1)),
    "O_DECK_SIZES": (O_DECK_SIZES, GC_NDECKS), "O_INFL_IN_PLAY": (O_INFL_IN_PLAY, GC_NINFL),
    "O_SCHOOL_DECK": (O_SCHOOL_DECK, GC_SCHOOL_DECKS), "O_SCHOOL_LEFT": (O_SCHOOL_LEFT, 1),
    "P_ACTOR": (P_ACTOR, 1), "P_FIRST": (P_FIRST, 1), "P_EMISSARY": (P_EMISSARY, GC_NSPACES),
    "P_COINS": (P_COINS, 2), "P_INFLUENCE": (P_INFLUENCE, 2), "P_SCORE": (P_SCORE, 1),
    "P_INFL_CARDS": (P_INFL_CARDS, GC_NINFL), "P_HAND": (P_HAND, GC_NTYPES),
    "P_HAND_HIDDEN": (P_HAND_HIDDEN, GC_NDECKS), "P_DRAFT_HIDDEN": (P_DRAFT_HIDDEN, 1),
    "P_CITY_TYPES": (P_CITY_TYPES, GC_NTYPES), "P_PLANES": (P_PLANES, GC_NPLANES * GC_CITY_CELLS),
}
