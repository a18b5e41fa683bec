# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Rome: City of Marble: the rules as C functions over one fixed-size struct.

The board is bitsets over the numbering of ``data.py``: triangles (a site's six triangles
are six adjacent bits of one word), placements (a site's nine placements are nine
adjacent bits), vertices, and 64-bit site sets.  Every board table below is copied from
``data.BOARD``, which derives them from the board file, when this module is imported.

A turn is two actions (one in the final round), each split into small steps with fixed
ids (see kernel.pxd):

* play a tile: ``A_PLAY`` (colour, with or without a magistrate), then ``A_SITE`` (the
  site), then ``A_TILE`` (which of the site's nine placements).  The tile then takes its
  bridge tiles (chance ``CH_BRIDGE``), starts its aqueducts (``A_PIPE`` per piece), and
  resolves its completed sites (``A_SITE`` picks the first of two when the order can
  matter; ``A_SEND`` / ``A_KEEP`` for each player with a magistrate in the site);
* draw tiles: ``A_DRAW`` (a pair of colours) or ``A_DRAW1`` (only one stack left);
* expand the aqueducts: the first piece is an ``A_PIPE`` in the action menu, the second
  an ``A_PIPE`` in ``PH_EXPAND2`` (any started aqueduct);
* recall a magistrate: ``A_RECALL`` (slot in the player's ascending location list).

After the second action a player holding Imperium may ``A_SPEND`` one for one more action
or ``A_END`` the turn.  Steps with one possible outcome (no decision, or a decision or
chance event with a single option) are taken in ``cm_forced``; ``cm_apply`` is
``cm_step`` then ``cm_forced``.
Chance: the three hills (one reveal at a time) and each bridge tile's value, drawn from
the tiles not yet taken when a player takes it (the same distribution as the face-down
deal, drawn lazily).

Engine rulings where the rulings are silent: a water source belongs to its aqueduct (no
other aqueduct may enter it); a player with no Commission cube left cannot build (the site
resolves as a tie); the magistrate choice is made with the tile's colour, before the
placement (nothing the placement reveals bears on it).
"""
from libc.string cimport memset, memcpy, memcmp
from libc.stdint cimport uint8_t, uint16_t, int32_t, uint32_t, int64_t, uint64_t

from romecore.core.kernel cimport (
    rc_shuffle_u8,
    rc_kernel_capsule, rc_share_wins,
    rc_kernel, rc_rng, rc_rng_below, rc_popcount64, rc_popcount32, rc_lsb64, rc_lsb32,
    rc_pop_lsb64, rc_pop_lsb32, rc_bits_has, rc_bits_add, rc_bits_del, rc_check_padding,
    RC_ABI_VERSION, RC_CHANCE, RC_TERMINAL, RC_HIDDEN,
)

from romecore.games.city_of_marble import data as _data


# =======================================================================================
# Tables: the C copies of data.py's tables (filled at import, see Tables from data)

cdef enum:
    TRI_SIDES = 3             # edges of a triangle (neighbours, placements holding it)
    TRI_FIELD = (1 << CM_SITE_TRIS) - 1   # a site's six triangle bits (or six spoke bits)
    PL_FIELD = (1 << CM_SITE_PLS) - 1     # a site's nine placement bits
    WORD_BITS = 64            # bits of a set word
    FORCED_MAX = 8 * CM_MAX_GAME_LENGTH   # passes of cm_forced's loop in one call (see there)

cdef int NSITES, NVERTS
cdef uint8_t TRI_SITE[CM_NTRI]             # CM_NONE: not a triangle
cdef uint8_t TRI_NBR[CM_NTRI][TRI_SIDES]   # edge-adjacent board triangles, CM_NONE padded
cdef uint16_t TRI_PL[CM_NTRI][TRI_SIDES]   # placements holding the triangle, CM_NO_PL padded
cdef uint8_t PL_T1[CM_NPL]                 # the placement's triangles (CM_NONE: no placement)
cdef uint8_t PL_T2[CM_NPL]
cdef uint8_t PL_S1[CM_NPL]                 # their sites
cdef uint8_t PL_S2[CM_NPL]
cdef uint8_t PL_WATER[CM_NPL]              # water sources among its four vertices
cdef uint64_t PL_VALID[CM_PLW]
cdef uint8_t SITE_NB[CM_MAXSITES][CM_SITE_TRIS]  # neighbour across rim edge k (its triangle
                                           # k + 3); CM_MAXSITES (a dummy) when there is none
cdef uint64_t WATER_PL[CM_NAQ][CM_PLW]     # placements with the water source among their vertices
cdef uint64_t TRI_VALID[CM_TRIW]
cdef uint64_t SITE_ADJ[CM_MAXSITES]
cdef uint8_t SITE_HILL[CM_MAXSITES]        # hill index of a hill site, else CM_NONE
cdef uint8_t HILL_SITE[CM_NHILLS]
cdef uint8_t BRIDGE_TRI[CM_NBRIDGES]
cdef uint64_t BRIDGE_MASK[CM_TRIW]
cdef uint8_t WATER_V[CM_NAQ]
cdef uint64_t WATER_MASK[CM_VERTW]
cdef uint8_t VE_NB[CM_NVERT][CM_NDIR]      # neighbour along a side of a board triangle, CM_NONE none
cdef uint8_t VE_TA[CM_NVERT][CM_NDIR]      # triangles beside that edge (CM_NONE: off the board)
cdef uint8_t VE_TB[CM_NVERT][CM_NDIR]
cdef uint16_t VE_PL[CM_NVERT][CM_NDIR]     # its placement when interior, else CM_NO_PL
cdef uint64_t VE_SITES[CM_NVERT][CM_NDIR]  # sites whose hexagon holds it
cdef int COL_TILES[CM_NCOL]
cdef int COL_POINTS[CM_NCOL]
cdef int COL_IMP[CM_NCOL]
cdef uint8_t SIZE_COLOUR[CM_SITE_TRIS + 1] # buildings in a site -> colour built, CM_NONE none
cdef int BRIDGE_COUNT[CM_NBVAL + 1]        # bridge tiles of each value 1..CM_NBVAL
cdef int N_FOUNTAINS, N_COINS, N_CUBES, N_START_TILES, N_ACTIONS, N_AQ_START, N_EXPAND
cdef int N_HILLS_IN_PLAY, N_FINAL_EMPTY
cdef int AQ_PTS, FOUNTAIN_PTS, COIN_PTS, MOST_COINS_PTS, IMP_SOLE_PTS, IMP_TIED_PTS
cdef int POINTS_BOUND                # score track bound: every cube on the dearest building
cdef uint64_t PL_LOW8 = 0           # the low eight bits of each site's nine-bit field
cdef uint64_t PL_HIGH = 0           # the top bit of each field
cdef uint8_t FIELD_OF_BIT[WORD_BITS]  # bit 9j + 8 -> j
cdef uint8_t PAIR_A[CM_NPAIRS]
cdef uint8_t PAIR_B[CM_NPAIRS]

# CM_MAX_GAME_LENGTH is a true bound on the actions of one game (chance included).  Tiles
# T = 60, aqueduct pieces P = 39, sites S = 37: actions <= T draws + T plays + T recalls
# + P expands = 219; steps <= 3 hills + 3T (colour, site, placement) + 7 bridges + P pieces
# + T draws + T recalls + S orders + 4S sends + 219 spends + 224 turn ends (turns <= actions
# + one pass turn + the final round) = 977.


# =======================================================================================
# Bits: board geometry over the rc_bits.h helpers

cdef inline int site_tri_base(int site) noexcept nogil:
    """Position of triangle 0 of the site (its six triangles follow)."""
    return WORD_BITS * (site // CM_TRI_SITES) + CM_SITE_TRIS * (site % CM_TRI_SITES)


cdef inline uint32_t site_tri_bits(const uint64_t *m, int site) noexcept nogil:
    return <uint32_t>((m[site // CM_TRI_SITES] >> (CM_SITE_TRIS * (site % CM_TRI_SITES))) & TRI_FIELD)


cdef inline int site_pl_base(int site) noexcept nogil:
    """Position of placement 0 of the site (its nine placements follow)."""
    return WORD_BITS * (site // CM_PL_SITES) + CM_SITE_PLS * (site % CM_PL_SITES)


cdef inline uint32_t site_pl_bits(const uint64_t *m, int site) noexcept nogil:
    return <uint32_t>((m[site // CM_PL_SITES] >> (CM_SITE_PLS * (site % CM_PL_SITES))) & PL_FIELD)


cdef inline bint any_bits(const uint64_t *m, int words) noexcept nogil:
    cdef int i
    for i in range(words):
        if m[i]:
            return True
    return False


cdef inline void tile_mask(const CMState *s, uint64_t *out) noexcept nogil:
    cdef int w, c
    for w in range(CM_TRIW):
        out[w] = s.tri[0][w]
        for c in range(1, CM_NCOL):
            out[w] |= s.tri[c][w]


cdef inline uint32_t rotl6(uint32_t x) noexcept nogil:
    """Bit k of the result is bit k - 1 of x (six bits, cyclic)."""
    return ((x << 1) | (x >> (CM_SITE_TRIS - 1))) & TRI_FIELD


cdef inline uint32_t rotr6(uint32_t x) noexcept nogil:
    return ((x >> 1) | (x << (CM_SITE_TRIS - 1))) & TRI_FIELD


# =======================================================================================
# Queries: read-only facts about a state

cdef inline int count_sum(const uint8_t *x, int n) noexcept nogil:
    """x[0] + ... + x[n - 1]: tiles by colour, bridge tiles by value."""
    cdef int i, t = 0
    for i in range(n):
        t += x[i]
    return t


cdef inline bint is_building(int st) noexcept nogil:
    """Whether a site status is a civic building (SITE_BUILDING + CM_NCOL * owner + colour)."""
    return SITE_BUILDING <= st < SITE_FOUNTAIN


cdef inline int building_owner(int st) noexcept nogil:
    return (st - SITE_BUILDING) // CM_NCOL


cdef inline int building_colour(int st) noexcept nogil:
    return (st - SITE_BUILDING) % CM_NCOL


cdef inline bint hill_chosen(const CMState *s, int site) noexcept nogil:
    cdef int h = SITE_HILL[site]
    return h != CM_NONE and (s.hills >> h) & 1


cdef int cm_nsites() noexcept nogil:
    return NSITES


cdef int cm_tile_colour(const CMState *s, int pl) noexcept nogil:
    """Colour of the tile on placement pl, -1 if none."""
    cdef int t = PL_T1[pl], c
    if t == CM_NONE or not rc_bits_has(s.placed, pl):
        return -1
    for c in range(CM_NCOL):
        if rc_bits_has(s.tri[c], t):
            return c
    return -1


cdef bint cm_site_full(const CMState *s, int site) noexcept nogil:
    return site_tri_bits(s.blocked, site) == TRI_FIELD and not hill_chosen(s, site)


cdef int cm_site_size(const CMState *s, int site) noexcept nogil:
    """Buildings in a completed site: six minus the tiles lying on two of its triangles."""
    return CM_SITE_TRIS - rc_popcount32(site_pl_bits(s.placed, site) & TRI_FIELD)


cdef inline void site_field_counts(const uint64_t *words, int per_word, int width,
                                   int *out) noexcept nogil:
    """out[i]: set bits among the six low bits of site i's field, for a bitset that packs
    per_word sites' fields of width bits into each word (triangles: 10 of 6; placements:
    7 of 9, the six spokes first).  Word by word, no division per site."""
    cdef uint64_t x = 0
    cdef int i, k = per_word, wd = 0
    for i in range(NSITES):
        if k == per_word:
            x = words[wd]
            wd += 1
            k = 0
        out[i] = rc_popcount64(x & TRI_FIELD)
        x >>= width
        k += 1


cdef void cm_site_cover(const CMState *s, int *tiles, int *spokes) noexcept nogil:
    """For every site: the distinct tiles covering some triangle of it so far, and those of
    them lying on two of its triangles (spokes, so spokes[i] == CM_SITE_TRIS -
    cm_site_size(s, i)).  One pass over the board, for evaluators that look at every site."""
    cdef uint64_t mask[CM_TRIW]
    cdef int i
    tile_mask(s, mask)
    site_field_counts(s.placed, CM_PL_SITES, CM_SITE_PLS, spokes)
    site_field_counts(mask, CM_TRI_SITES, CM_SITE_TRIS, tiles)
    for i in range(NSITES):
        tiles[i] -= spokes[i]


cdef inline bint pl_touches(int pl, int site) noexcept nogil:
    return PL_S1[pl] == site or PL_S2[pl] == site


cdef void cm_influence(const CMState *s, int site, int colour, int *out) noexcept nogil:
    """Magistrates of each player standing on tiles of the colour in the site."""
    cdef int p, j, loc
    for p in range(s.nplayers):
        out[p] = 0
        for j in range(CM_NMAG):
            loc = s.mag[p][j]
            if loc < CM_NPL and pl_touches(loc, site) and cm_tile_colour(s, loc) == colour:
                out[p] += 1


cdef inline int mags_in_site(const CMState *s, int p, int site) noexcept nogil:
    """Bit j set when p's magistrate slot j stands on a tile touching the site."""
    cdef int j, loc, m = 0
    for j in range(CM_NMAG):
        loc = s.mag[p][j]
        if loc < CM_NPL and pl_touches(loc, site):
            m |= 1 << j
    return m


cdef uint64_t cm_site_owners(const CMState *s, uint64_t *owned) noexcept nogil:
    """owned[p]: bit i set when site i holds one of p's civic buildings, for every player,
    in one pass over the sites; returns the fountain sites the same way."""
    cdef uint64_t fountains = 0, bit
    cdef int i, p, st
    for p in range(s.nplayers):
        owned[p] = 0
    for i in range(NSITES):
        st = s.site[i]
        bit = (<uint64_t>1) << i
        if st == SITE_FOUNTAIN:
            fountains |= bit
        elif is_building(st):
            owned[building_owner(st)] |= bit
    return fountains


cdef int cm_buildings(const CMState *s, int p) noexcept nogil:
    cdef uint64_t owned[CM_MAXP]
    cm_site_owners(s, owned)
    return rc_popcount64(owned[p])


cdef int cm_fountains(const CMState *s) noexcept nogil:
    cdef int i, n = 0
    for i in range(NSITES):
        n += s.site[i] == SITE_FOUNTAIN
    return n


cdef int cm_bridge_pool(const CMState *s, int value) noexcept nogil:
    """Bridge tiles of the value not yet taken by anyone (on the board or boxed)."""
    cdef int p, n = BRIDGE_COUNT[value]
    for p in range(s.nplayers):
        n -= s.bridges[p][value - 1]
    return n


cdef int cm_open_bridges(const CMState *s, int *reachable) noexcept nogil:
    """Bridge spaces no tile covers yet; ``*reachable`` gets those a tile may cover now
    (a legal placement holds the space)."""
    cdef int b, k, t, pl, n = 0, r = 0
    for b in range(CM_NBRIDGES):
        t = BRIDGE_TRI[b]
        if rc_bits_has(s.blocked, t):
            continue
        n += 1
        for k in range(TRI_SIDES):
            pl = TRI_PL[t][k]
            if pl != CM_NO_PL and rc_bits_has(s.legal_pl, pl):
                r += 1
                break
    reachable[0] = r
    return n


cdef inline int coin_supply(const CMState *s) noexcept nogil:
    cdef int p, n = N_COINS
    for p in range(s.nplayers):
        n -= s.coins[p]
    return n


cdef inline int imp_supply(const CMState *s, int c) noexcept nogil:
    cdef int p, n = COL_IMP[c]
    for p in range(s.nplayers):
        n -= s.imp[p][c]
    return n


cdef inline int empty_stacks(const CMState *s) noexcept nogil:
    cdef int c, n = 0
    for c in range(CM_NCOL):
        n += s.stack[c] == 0
    return n


cdef inline int pipe_dirs_t(const CMState *s, int a, const uint64_t *tiles) noexcept nogil:
    """Directions in which aqueduct a may take its next piece (a 6-bit mask)."""
    cdef int v, d, w, ta, tb_, pl, out = 0
    cdef uint64_t forbid[CM_VERTW]
    if not (s.aq_started >> a) & 1 or s.aq_len[a] >= CM_AQMAX:
        return 0
    v = s.aq_path[a][s.aq_len[a]]
    for w in range(CM_VERTW):
        forbid[w] = s.aq_verts[w] | WATER_MASK[w]
    for d in range(CM_NDIR):
        w = VE_NB[v][d]
        if w == CM_NONE or rc_bits_has(forbid, w):
            continue
        ta = VE_TA[v][d]
        tb_ = VE_TB[v][d]
        if not (rc_bits_has(tiles, ta) or (tb_ != CM_NONE and rc_bits_has(tiles, tb_))):
            continue
        pl = VE_PL[v][d]
        if pl != CM_NO_PL and rc_bits_has(s.placed, pl):
            continue    # the inner diagonal of one tile
        out |= 1 << d
    return out


cdef int cm_pipe_dirs(const CMState *s, int a) noexcept nogil:
    cdef uint64_t tiles[CM_TRIW]
    tile_mask(s, tiles)
    return pipe_dirs_t(s, a, tiles)


cdef inline bint any_pipe(const CMState *s) noexcept nogil:
    cdef uint64_t tiles[CM_TRIW]
    cdef int a
    if not s.aq_started:
        return False
    tile_mask(s, tiles)
    for a in range(CM_NAQ):
        if pipe_dirs_t(s, a, tiles):
            return True
    return False


cdef bint cm_menu_any(const CMState *s) noexcept nogil:
    """Whether the turn player can take any action now."""
    cdef int p = s.turn_player
    if count_sum(s.stack, CM_NCOL):
        return True
    if s.mag[p][0] != LOC_CENTRE:
        return True
    if count_sum(s.centre[p], CM_NCOL) and any_bits(s.legal_pl, CM_PLW):
        return True
    return any_pipe(s)


cdef bint cm_order_matters(const CMState *s) noexcept nogil:
    """Whether resolving the two pending sites in either order can differ: only through
    the one tile that touches both (its magistrate may leave after the first), the last
    fountain, or a player's last cubes."""
    cdef int i = s.pend_sites[0], j = s.pend_sites[1], p, k, loc
    if N_FOUNTAINS - cm_fountains(s) < 2:
        return True
    for p in range(s.nplayers):
        if N_CUBES - cm_buildings(s, p) < 2:
            return True
        for k in range(CM_NMAG):
            loc = s.mag[p][k]
            if loc < CM_NPL and pl_touches(loc, i) and pl_touches(loc, j):
                return True
    return False


cdef inline bint holds_imperium(const CMState *s, int p) noexcept nogil:
    return count_sum(s.imp[p], CM_NCOL) != 0


cdef inline int32_t single_menu_action(const CMState *s) noexcept nogil:
    """The action menu's only action when it has exactly one, else -1."""
    cdef int p = s.turn_player, n = 0, c, j, k, a, dirs, nonempty = 0
    cdef int32_t found = -1
    cdef uint64_t tiles[CM_TRIW]
    for c in range(CM_NCOL):
        nonempty += s.stack[c] != 0
    if nonempty >= 3:
        return -1
    if nonempty == 2:
        for k in range(CM_NPAIRS):
            if s.stack[PAIR_A[k]] and s.stack[PAIR_B[k]]:
                found = A_DRAW + k
        n = 1
    elif nonempty == 1:
        for c in range(CM_NCOL):
            if s.stack[c]:
                found = A_DRAW1 + c
        n = 1
    if any_bits(s.legal_pl, CM_PLW):
        for c in range(CM_NCOL):
            if s.centre[p][c]:
                n += 2 if s.mag[p][CM_NMAG - 1] == LOC_CENTRE else 1
                found = A_PLAY + 2 * c
                if n > 1:
                    return -1
    for j in range(CM_NMAG):
        if s.mag[p][j] != LOC_CENTRE and (j == 0 or s.mag[p][j] != s.mag[p][j - 1]):
            n += 1
            found = A_RECALL + j
            if n > 1:
                return -1
    if s.aq_started:
        tile_mask(s, tiles)
        for a in range(CM_NAQ):
            dirs = pipe_dirs_t(s, a, tiles)
            if dirs:
                n += rc_popcount32(dirs)
                found = A_PIPE + CM_NDIR * a + rc_lsb32(dirs)
                if n > 1:
                    return -1
    return found if n == 1 else -1


cdef inline int single_site(const CMState *s) noexcept nogil:
    """The only site with a legal placement, or -1 when there are several."""
    cdef int w, found = -1, n = 0
    cdef uint64_t field
    for w in range(CM_PLW):
        field = s.legal_pl[w]
        field = (((field & PL_LOW8) + PL_LOW8) | field) & PL_HIGH
        if field:
            n += rc_popcount64(field)
            if n > 1:
                return -1
            found = CM_PL_SITES * w + FIELD_OF_BIT[rc_lsb64(field)]
    return found


cdef inline int single_pipe(const CMState *s) noexcept nogil:
    """A_PIPE + CM_NDIR * aqueduct + direction of the only possible piece; -1 when there are
    several, -2 when there is none."""
    cdef uint64_t tiles[CM_TRIW]
    cdef int a, dirs, n = 0, found = -2
    if not s.aq_started:
        return -2
    tile_mask(s, tiles)
    for a in range(CM_NAQ):
        dirs = pipe_dirs_t(s, a, tiles)
        if dirs:
            n += rc_popcount32(dirs)
            if n > 1:
                return -1
            found = A_PIPE + CM_NDIR * a + rc_lsb32(dirs)
    return found


cdef inline int single_bridge_value(const CMState *s) noexcept nogil:
    """The value every bridge tile not yet taken shows, or -1 when they differ."""
    cdef int v, found = -1
    for v in range(1, CM_NBVAL + 1):
        if cm_bridge_pool(s, v) > 0:
            if found > 0:
                return -1
            found = v
    return found


cdef inline int menu(const CMState *s, int32_t *out) noexcept nogil:
    cdef int p = s.turn_player, n = 0, c, k, j, a, nonempty = 0
    cdef uint32_t dirs
    cdef bint has_mag = s.mag[p][CM_NMAG - 1] == LOC_CENTRE
    cdef uint64_t tiles[CM_TRIW]
    if any_bits(s.legal_pl, CM_PLW):
        for c in range(CM_NCOL):
            if s.centre[p][c]:
                out[n] = A_PLAY + 2 * c
                n += 1
                if has_mag:
                    out[n] = A_PLAY + 2 * c + 1
                    n += 1
    for c in range(CM_NCOL):
        if s.stack[c]:
            nonempty += 1
    if nonempty >= 2:
        for k in range(CM_NPAIRS):
            if s.stack[PAIR_A[k]] and s.stack[PAIR_B[k]]:
                out[n] = A_DRAW + k
                n += 1
    elif nonempty == 1:
        for c in range(CM_NCOL):
            if s.stack[c]:
                out[n] = A_DRAW1 + c
                n += 1
    for j in range(CM_NMAG):
        if s.mag[p][j] != LOC_CENTRE and (j == 0 or s.mag[p][j] != s.mag[p][j - 1]):
            out[n] = A_RECALL + j
            n += 1
    if s.aq_started:
        tile_mask(s, tiles)
        for a in range(CM_NAQ):
            dirs = pipe_dirs_t(s, a, tiles)
            while dirs:
                out[n] = A_PIPE + CM_NDIR * a + rc_pop_lsb32(&dirs)
                n += 1
    return n


# =======================================================================================
# Scoring: one player's points by category, as final scoring would count them now

cdef void cm_score(const CMState *s, int p, int32_t *out) noexcept nogil:
    """Final-scoring points of player p by category (SC_*), as if the game ended now."""
    cdef uint64_t owned[CM_MAXP]
    cdef uint64_t fountains = cm_site_owners(s, owned)
    score_of(s, p, owned[p], fountains, out)


cdef void score_of(const CMState *s, int p, uint64_t owned, uint64_t fountains,
                   int32_t *out) noexcept nogil:
    """cm_score given p's civic buildings and the fountains as site bitsets."""
    cdef uint64_t rem
    cdef int i, v, c, q, best, ties, b
    memset(out, 0, sizeof(int32_t) * SC_N)
    out[SC_TRACK] = s.points[p]
    for v in range(1, CM_NBVAL + 1):
        out[SC_BRIDGES] += v * s.bridges[p][v - 1]
    out[SC_AQUEDUCTS] = AQ_PTS * rc_popcount64(owned & s.aq_sites)
    rem = owned
    while rem:
        b = rc_pop_lsb64(&rem)
        out[SC_FOUNTAINS] += FOUNTAIN_PTS * rc_popcount64(SITE_ADJ[b] & fountains)
    out[SC_COINS] = COIN_PTS * s.coins[p]
    best = 0
    for q in range(s.nplayers):
        if s.coins[q] > best:
            best = s.coins[q]
    if best > 0 and s.coins[p] == best:
        out[SC_MOST_COINS] = MOST_COINS_PTS
    for c in range(CM_NCOL):
        best = 0
        ties = 0
        for q in range(s.nplayers):
            if s.imp[q][c] > best:
                best = s.imp[q][c]
                ties = 1
            elif s.imp[q][c] == best:
                ties += 1
        if best > 0 and s.imp[p][c] == best:
            out[SC_IMPERIUM] += IMP_SOLE_PTS if ties == 1 else IMP_TIED_PTS
    for i in range(SC_TOTAL):
        out[SC_TOTAL] += out[i]


# =======================================================================================
# Changes: small mutators, each keeping the struct's invariants and caches

cdef inline void cover_tri(CMState *s, int t) noexcept nogil:
    """Marks t covered and keeps legal_pl exact: placements on t go, placements next to
    t (both triangles free) come."""
    cdef int j, i, n, x, other
    rc_bits_add(s.blocked, t)
    for j in range(TRI_SIDES):
        x = TRI_PL[t][j]
        if x != CM_NO_PL:
            rc_bits_del(s.legal_pl, x)
    for j in range(TRI_SIDES):
        n = TRI_NBR[t][j]
        if n == CM_NONE or rc_bits_has(s.blocked, n):
            continue
        for i in range(TRI_SIDES):
            x = TRI_PL[n][i]
            if x == CM_NO_PL:
                continue
            other = PL_T1[x] ^ PL_T2[x] ^ n
            if not rc_bits_has(s.blocked, other):
                rc_bits_add(s.legal_pl, x)


cdef inline void recompute_legal(const CMState *s, uint64_t *out) noexcept nogil:
    """legal_pl from scratch, a site at a time on six-bit triangle groups: a placement is
    legal when both triangles are free and one of them has a blocked neighbour.  Missing
    neighbours are the dummy site CM_MAXSITES (nothing blocked, nothing free)."""
    cdef uint32_t blk[CM_MAXSITES + 1]
    cdef uint32_t free[CM_MAXSITES + 1]
    cdef uint32_t nbr[CM_MAXSITES + 1]
    cdef uint32_t b, fr, bits, frj
    cdef const uint8_t *nb
    cdef int i
    memset(out, 0, sizeof(uint64_t) * CM_PLW)
    for i in range(NSITES):
        blk[i] = site_tri_bits(s.blocked, i)
        free[i] = ~blk[i] & TRI_FIELD
    blk[CM_MAXSITES] = 0
    free[CM_MAXSITES] = 0
    nbr[CM_MAXSITES] = 0
    for i in range(NSITES):
        b = blk[i]
        nb = SITE_NB[i]
        # triangles k - 1 and k + 1 of the site, and triangle k + 3 across rim edge k
        nbr[i] = rotl6(b) | rotr6(b) | ((blk[nb[0]] >> 3) & 1) | (((blk[nb[1]] >> 4) & 1) << 1) \
            | (((blk[nb[2]] >> 5) & 1) << 2) | ((blk[nb[3]] & 1) << 3) \
            | (((blk[nb[4]] >> 1) & 1) << 4) | (((blk[nb[5]] >> 2) & 1) << 5)
    for i in range(NSITES):
        nb = SITE_NB[i]
        fr = free[i] & nbr[i]
        bits = free[i] & rotl6(free[i]) & (fr | rotl6(fr))      # spoke k: triangles k - 1 and k
        frj = free[nb[0]] & nbr[nb[0]]
        bits |= (free[i] & (free[nb[0]] >> 3) & (fr | (frj >> 3)) & 1) << 6
        frj = free[nb[1]] & nbr[nb[1]]
        bits |= ((free[i] >> 1) & (free[nb[1]] >> 4) & ((fr >> 1) | (frj >> 4)) & 1) << 7
        frj = free[nb[2]] & nbr[nb[2]]
        bits |= ((free[i] >> 2) & (free[nb[2]] >> 5) & ((fr >> 2) | (frj >> 5)) & 1) << 8
        out[i // CM_PL_SITES] |= (<uint64_t>bits) << (CM_SITE_PLS * (i % CM_PL_SITES))


cdef void cm_rebuild_caches(CMState *s) noexcept nogil:
    """Recomputes blocked, legal_pl, aq_verts and aq_sites from the primary fields."""
    cdef int h, k, a, i, v, d, site
    tile_mask(s, s.blocked)
    for h in range(CM_NHILLS):
        if (s.hills >> h) & 1:
            site = HILL_SITE[h]
            for k in range(CM_SITE_TRIS):
                rc_bits_add(s.blocked, site_tri_base(site) + k)
    recompute_legal(s, s.legal_pl)
    memset(s.aq_verts, 0, sizeof(s.aq_verts))
    s.aq_sites = 0
    for a in range(CM_NAQ):
        if not (s.aq_started >> a) & 1:
            continue
        rc_bits_add(s.aq_verts, s.aq_path[a][0])
        for i in range(s.aq_len[a]):
            v = s.aq_path[a][i]
            rc_bits_add(s.aq_verts, s.aq_path[a][i + 1])
            for d in range(CM_NDIR):
                if VE_NB[v][d] == s.aq_path[a][i + 1]:
                    s.aq_sites |= VE_SITES[v][d]


cdef void cm_sort_mags(CMState *s, int p) noexcept nogil:
    """Puts player p's magistrate locations in ascending order (LOC_CENTRE last)."""
    cdef uint16_t *m = s.mag[p]
    cdef uint16_t x
    if m[0] > m[1]:
        x = m[0]
        m[0] = m[1]
        m[1] = x
    if m[1] > m[2]:
        x = m[1]
        m[1] = m[2]
        m[2] = x
    if m[0] > m[1]:
        x = m[0]
        m[0] = m[1]
        m[1] = x


cdef inline void place_piece(CMState *s, int a, int d) noexcept nogil:
    cdef int v = s.aq_path[a][s.aq_len[a]]
    cdef int w = VE_NB[v][d], i
    cdef uint64_t sites = VE_SITES[v][d], rem
    s.aq_len[a] += 1
    s.aq_path[a][s.aq_len[a]] = w
    rc_bits_add(s.aq_verts, w)
    s.aq_sites |= sites
    rem = sites
    while rem:
        i = rc_pop_lsb64(&rem)
        if s.site[i] == SITE_FOUNTAIN:
            if coin_supply(s) > 0:
                s.coins[s.turn_player] += 1
            break


cdef inline void play_tile(CMState *s, int x) noexcept nogil:
    cdef int p = s.turn_player, c = s.sel_colour, t1 = PL_T1[x], t2 = PL_T2[x], st, j
    rc_bits_add(s.tri[c], t1)
    rc_bits_add(s.tri[c], t2)
    rc_bits_add(s.placed, x)
    cover_tri(s, t1)
    cover_tri(s, t2)
    s.centre[p][c] -= 1
    if s.sel_mag:
        s.mag[p][CM_NMAG - 1] = x      # a centre magistrate sorts last
        cm_sort_mags(s, p)
    s.pend_bridges = rc_bits_has(BRIDGE_MASK, t1) + rc_bits_has(BRIDGE_MASK, t2)
    s.aq_todo = PL_WATER[x] & ~s.aq_started
    s.pend_n = 0
    for j in range(CM_TILE_TRIS):
        st = PL_S1[x] if j == 0 else PL_S2[x]
        if s.site[st] == SITE_OPEN and cm_site_full(s, st) and not (s.pend_n == 1 and s.pend_sites[0] == st):
            s.pend_sites[s.pend_n] = st
            s.pend_n += 1
    if s.pend_n == 2 and s.pend_sites[0] > s.pend_sites[1]:
        st = s.pend_sites[0]
        s.pend_sites[0] = s.pend_sites[1]
        s.pend_sites[1] = st
    s.sel_colour = 0
    s.sel_mag = 0
    s.sel_site = 0
    s.phase = PH_BRIDGE


cdef inline void resolve_site(CMState *s, int i) noexcept nogil:
    """Steps 1-4 of resolving a completed site; opens the Imperium step when something
    was built."""
    cdef int size = cm_site_size(s, i), c = SIZE_COLOUR[size], p, best = 0, owner = -1
    cdef int infl[CM_MAXP]
    cm_influence(s, i, c, infl)
    for p in range(s.nplayers):
        if infl[p] > best:
            best = infl[p]
            owner = p
        elif infl[p] == best:
            owner = -1
    if owner >= 0 and cm_buildings(s, owner) < N_CUBES:
        s.site[i] = SITE_BUILDING + CM_NCOL * owner + c
        s.points[owner] += COL_POINTS[c]
    elif cm_fountains(s) < N_FOUNTAINS:
        s.site[i] = SITE_FOUNTAIN
    else:
        s.site[i] = SITE_EMPTY
        return
    s.res_site = i
    s.res_seat = 0
    s.phase = PH_SEND


cdef inline void take_pending(CMState *s, int i) noexcept nogil:
    if s.pend_sites[0] == i:
        s.pend_sites[0] = s.pend_sites[1]
    s.pend_sites[1] = 0
    s.pend_n -= 1
    if s.pend_n == 0:
        s.pend_sites[0] = 0


# =======================================================================================
# Turn flow: turns, the resolution of a tile, one step, and the forced steps

cdef inline void start_turn(CMState *s, int p) noexcept nogil:
    s.turn_player = p
    s.actor = p
    s.actions_left = 1 if s.final_left else N_ACTIONS
    s.phase = PH_ACTION


cdef inline void end_turn(CMState *s) noexcept nogil:
    """Upkeep of the turn player, the final-round trigger, and the next turn."""
    cdef int p = s.turn_player, c, j, loc
    for c in range(CM_NCOL):
        s.centre[p][c] += s.pending[c]
        s.pending[c] = 0
    for j in range(CM_NMAG):
        loc = s.mag[p][j]
        if LOC_IMPERIUM <= loc < LOC_IMPERIUM + CM_NCOL:
            if imp_supply(s, loc - LOC_IMPERIUM) > 0:
                s.imp[p][loc - LOC_IMPERIUM] += 1
            s.mag[p][j] = LOC_CENTRE
        elif loc == LOC_TREASURY:
            if coin_supply(s) > 0:
                s.coins[p] += 1
            s.mag[p][j] = LOC_CENTRE
    cm_sort_mags(s, p)
    s.actions_left = 0
    if s.final_left:
        s.final_left -= 1
        if s.final_left == 0:
            s.phase = PH_OVER
            s.actor = 0
            s.turn_player = 0
            return
    elif empty_stacks(s) >= N_FINAL_EMPTY:
        s.final_left = s.nplayers
    start_turn(s, (p + 1) % s.nplayers)


cdef inline void action_done(CMState *s) noexcept nogil:
    s.actions_left -= 1
    s.actor = s.turn_player
    if s.final_left:
        end_turn(s)
    elif s.actions_left:
        s.phase = PH_ACTION
    elif holds_imperium(s, s.turn_player) and cm_menu_any(s):
        s.phase = PH_EXTRA
    else:
        end_turn(s)


cdef void cm_step(CMState *s, int32_t a) noexcept nogil:
    """One legal action or chance outcome and its direct effects, without the forced steps
    that follow it."""
    cdef int ph = s.phase, p = s.turn_player, c, k, h, site, j
    if ph == PH_HILLS:
        h = a - CH_HILL
        s.hills |= 1 << h
        s.hills_drawn += 1
        site = HILL_SITE[h]
        for k in range(CM_SITE_TRIS):
            cover_tri(s, site_tri_base(site) + k)
    elif ph == PH_ACTION:
        if a >= A_PIPE:
            k = a - A_PIPE
            place_piece(s, k // CM_NDIR, k % CM_NDIR)
            s.phase = PH_EXPAND2
        elif a >= A_RECALL:
            s.mag[p][a - A_RECALL] = LOC_CENTRE
            cm_sort_mags(s, p)
            action_done(s)
        elif a >= A_DRAW1:
            c = a - A_DRAW1
            k = 2 if s.stack[c] >= 2 else s.stack[c]
            s.stack[c] -= k
            s.pending[c] += k
            action_done(s)
        elif a >= A_DRAW:
            k = a - A_DRAW
            s.stack[PAIR_A[k]] -= 1
            s.pending[PAIR_A[k]] += 1
            s.stack[PAIR_B[k]] -= 1
            s.pending[PAIR_B[k]] += 1
            action_done(s)
        else:
            s.sel_colour = (a - A_PLAY) >> 1
            s.sel_mag = (a - A_PLAY) & 1
            s.phase = PH_SITE
    elif ph == PH_SITE:
        s.sel_site = a - A_SITE
        s.phase = PH_TILE
    elif ph == PH_TILE:
        play_tile(s, site_pl_base(s.sel_site) + a - A_TILE)
    elif ph == PH_BRIDGE:
        s.bridges[p][a - CH_BRIDGE] += 1
        s.pend_bridges -= 1
    elif ph == PH_AQSTART:
        place_piece(s, s.aq_cur, (a - A_PIPE) % CM_NDIR)
        s.aq_left -= 1
    elif ph == PH_ORDER:
        take_pending(s, a - A_SITE)
        resolve_site(s, a - A_SITE)
    elif ph == PH_SEND:
        if a != A_KEEP:
            j = a - A_SEND
            site = s.site[s.res_site]
            s.mag[s.actor][j] = LOC_TREASURY if site == SITE_FOUNTAIN else \
                LOC_IMPERIUM + building_colour(site)
            cm_sort_mags(s, s.actor)
        s.res_seat += 1
    elif ph == PH_EXPAND2:
        k = a - A_PIPE
        place_piece(s, k // CM_NDIR, k % CM_NDIR)
        action_done(s)
    elif ph == PH_EXTRA:
        if a == A_END:
            end_turn(s)
        else:
            s.imp[p][a - A_SPEND] -= 1
            s.actions_left = 1
            s.phase = PH_ACTION


cdef inline bint forced_hills(CMState *s) noexcept nogil:
    """The set-up's hills: the first turn starts once they are all drawn."""
    if s.hills_drawn < N_HILLS_IN_PLAY:
        return False
    start_turn(s, 0)
    return True


cdef inline bint forced_action(CMState *s) noexcept nogil:
    """The action menu: an empty menu passes, a single entry is taken."""
    cdef int32_t only
    if not cm_menu_any(s):
        end_turn(s)      # nothing to do: pass
        return True
    only = single_menu_action(s)
    if only < 0:
        return False
    cm_step(s, only)
    return True


cdef inline bint forced_site(CMState *s) noexcept nogil:
    """A single site to build on is chosen."""
    cdef int i = single_site(s)
    if i < 0:
        return False
    s.sel_site = i
    s.phase = PH_TILE
    return True


cdef inline bint forced_tile(CMState *s) noexcept nogil:
    """A single tile placement on the chosen site is played."""
    cdef uint32_t bits = site_pl_bits(s.legal_pl, s.sel_site)
    if rc_popcount32(bits) > 1:
        return False
    play_tile(s, site_pl_base(s.sel_site) + rc_lsb32(bits))
    return True


cdef inline bint forced_bridge(CMState *s) noexcept nogil:
    """Pending bridges with a single value are taken; with none left, aqueducts start."""
    cdef int v
    if s.pend_bridges:
        v = single_bridge_value(s)
        if v < 0:
            return False
        s.bridges[s.turn_player][v - 1] += 1
        s.pend_bridges -= 1
        return True
    s.phase = PH_AQSTART
    return True


cdef inline bint forced_aqstart(CMState *s) noexcept nogil:
    """Aqueduct starts: a single pipe direction is laid, then the next water source
    starts, and with none left the site order follows."""
    cdef int a, dirs
    if s.aq_left:
        dirs = cm_pipe_dirs(s, s.aq_cur)
        if dirs:
            if rc_popcount32(dirs) > 1:
                return False
            place_piece(s, s.aq_cur, rc_lsb32(dirs))
            s.aq_left -= 1
            return True
    s.aq_left = 0
    s.aq_cur = 0
    if s.aq_todo:
        a = rc_lsb32(s.aq_todo)
        s.aq_todo &= ~(1 << a)
        s.aq_started |= 1 << a
        s.aq_path[a][0] = WATER_V[a]
        rc_bits_add(s.aq_verts, WATER_V[a])
        s.aq_cur = a
        s.aq_left = N_AQ_START
        return True
    s.phase = PH_ORDER
    return True


cdef inline bint forced_order(CMState *s) noexcept nogil:
    """Pending sites resolve in order; only two whose order matters wait for a choice."""
    cdef int i
    if s.pend_n == 0:
        action_done(s)
    elif s.pend_n == 2 and cm_order_matters(s):
        return False
    else:
        i = s.pend_sites[0]
        take_pending(s, i)
        resolve_site(s, i)
    return True


cdef inline bint forced_send(CMState *s) noexcept nogil:
    """The next seat with magistrates in the resolving site decides; after the last seat
    the site order resumes."""
    cdef int q
    while s.res_seat < s.nplayers:
        q = (s.turn_player + s.res_seat) % s.nplayers
        if mags_in_site(s, q, s.res_site):
            s.actor = q
            return False
        s.res_seat += 1
    s.res_site = 0
    s.res_seat = 0
    s.actor = s.turn_player
    s.phase = PH_ORDER
    return True


cdef inline bint forced_expand2(CMState *s) noexcept nogil:
    """The second expansion: a single pipe is laid (or none is possible) and the action ends."""
    cdef int32_t only = single_pipe(s)
    if only == -1:
        return False
    if only >= 0:
        place_piece(s, (only - A_PIPE) // CM_NDIR, (only - A_PIPE) % CM_NDIR)
    action_done(s)
    return True


cdef inline bint forced_phase(CMState *s) noexcept nogil:
    """One forced step of the current phase; False where a real choice or draw is due."""
    if s.phase == PH_HILLS:
        return forced_hills(s)
    if s.phase == PH_ACTION:
        return forced_action(s)
    if s.phase == PH_SITE:
        return forced_site(s)
    if s.phase == PH_TILE:
        return forced_tile(s)
    if s.phase == PH_BRIDGE:
        return forced_bridge(s)
    if s.phase == PH_AQSTART:
        return forced_aqstart(s)
    if s.phase == PH_ORDER:
        return forced_order(s)
    if s.phase == PH_SEND:
        return forced_send(s)
    if s.phase == PH_EXPAND2:
        return forced_expand2(s)
    return False


cdef void cm_forced(CMState *s) noexcept nogil:
    """Takes every step that needs no decision, and every decision or chance event with a
    single possible outcome, until a real choice or draw is due.  Each pass of the loop
    takes a step (counted in CM_MAX_GAME_LENGTH) or moves the phase on, a few times at
    most between two steps, so FORCED_MAX passes are never reached."""
    cdef int _it
    for _it in range(FORCED_MAX):
        if not forced_phase(s):
            return


# =======================================================================================
# Interface: the rc_kernel functions in the table's order

cdef void cm_init(void *vs, const int32_t *params) noexcept nogil:
    cdef CMState *s = <CMState *>vs
    cdef int n = params[0], c, p, j
    memset(s, 0, sizeof(CMState))
    s.nplayers = n
    s.phase = PH_HILLS
    for c in range(CM_NCOL):
        s.stack[c] = COL_TILES[c] - n * N_START_TILES
        for p in range(n):
            s.centre[p][c] = N_START_TILES
    for p in range(n):
        for j in range(CM_NMAG):
            s.mag[p][j] = LOC_CENTRE


cdef int cm_num_players(const void *vs) noexcept nogil:
    return (<const CMState *>vs).nplayers


cdef int cm_current_player(const void *vs) noexcept nogil:
    cdef const CMState *s = <const CMState *>vs
    if s.phase == PH_OVER:
        return RC_TERMINAL
    if s.phase == PH_HILLS or s.phase == PH_BRIDGE:
        return RC_CHANCE
    return s.actor


cdef int cm_legal(const void *vs, int32_t *out) noexcept nogil:
    cdef const CMState *s = <const CMState *>vs
    cdef int n = 0, a, c, p, w
    cdef uint32_t dirs
    cdef uint64_t field
    cdef uint32_t bits
    cdef double probs_unused[CM_MAXLEGAL]
    cdef uint64_t tiles[CM_TRIW]
    cdef int ph = s.phase
    if ph == PH_ACTION:
        return menu(s, out)
    if ph == PH_SITE:
        for w in range(CM_PLW):
            # bit 9j + 8 set when site 7w + j has a legal placement (per-field carry trick)
            field = s.legal_pl[w]
            field = (((field & PL_LOW8) + PL_LOW8) | field) & PL_HIGH
            while field:
                out[n] = A_SITE + CM_PL_SITES * w + FIELD_OF_BIT[rc_pop_lsb64(&field)]
                n += 1
        return n
    if ph == PH_TILE:
        bits = site_pl_bits(s.legal_pl, s.sel_site)
        while bits:
            out[n] = A_TILE + rc_pop_lsb32(&bits)
            n += 1
        return n
    if ph == PH_HILLS or ph == PH_BRIDGE:
        return cm_chance_outcomes(vs, out, probs_unused)
    if ph == PH_AQSTART:
        dirs = cm_pipe_dirs(s, s.aq_cur)
        while dirs:
            out[n] = A_PIPE + CM_NDIR * s.aq_cur + rc_pop_lsb32(&dirs)
            n += 1
        return n
    if ph == PH_EXPAND2:
        tile_mask(s, tiles)
        for a in range(CM_NAQ):
            dirs = pipe_dirs_t(s, a, tiles)
            while dirs:
                out[n] = A_PIPE + CM_NDIR * a + rc_pop_lsb32(&dirs)
                n += 1
        return n
    if ph == PH_ORDER:
        out[0] = A_SITE + s.pend_sites[0]
        out[1] = A_SITE + s.pend_sites[1]
        return 2
    if ph == PH_SEND:
        bits = mags_in_site(s, s.actor, s.res_site)
        while bits:
            out[n] = A_SEND + rc_pop_lsb32(&bits)
            n += 1
        out[n] = A_KEEP
        return n + 1
    if ph == PH_EXTRA:
        p = s.turn_player
        for c in range(CM_NCOL):
            if s.imp[p][c]:
                out[n] = A_SPEND + c
                n += 1
        out[n] = A_END
        return n + 1
    return 0


cdef int cm_chance_outcomes(const void *vs, int32_t *acts, double *probs) noexcept nogil:
    cdef const CMState *s = <const CMState *>vs
    cdef int h, v, n = 0, k, total = 0
    if s.phase == PH_HILLS:
        for h in range(CM_NHILLS):
            if not (s.hills >> h) & 1:
                acts[n] = CH_HILL + h
                n += 1
        for h in range(n):
            probs[h] = 1.0 / n
        return n
    if s.phase == PH_BRIDGE:
        for v in range(1, CM_NBVAL + 1):
            total += cm_bridge_pool(s, v)
        for v in range(1, CM_NBVAL + 1):
            k = cm_bridge_pool(s, v)
            if k > 0:
                acts[n] = CH_BRIDGE + v - 1
                probs[n] = k / <double>total
                n += 1
        return n
    return 0


cdef int32_t cm_sample_chance(const void *vs, rc_rng *rng) noexcept nogil:
    cdef const CMState *s = <const CMState *>vs
    cdef int h, v, k, total = 0
    if s.phase == PH_HILLS:
        k = rc_rng_below(rng, CM_NHILLS - s.hills_drawn)
        for h in range(CM_NHILLS):
            if not (s.hills >> h) & 1:
                if k == 0:
                    return CH_HILL + h
                k -= 1
        return CH_HILL
    for v in range(1, CM_NBVAL + 1):
        total += cm_bridge_pool(s, v)
    k = rc_rng_below(rng, total)
    for v in range(1, CM_NBVAL + 1):
        k -= cm_bridge_pool(s, v)
        if k < 0:
            return CH_BRIDGE + v - 1
    return CH_BRIDGE


cdef void cm_apply(void *vs, int32_t a) noexcept nogil:
    cm_step(<CMState *>vs, a)
    cm_forced(<CMState *>vs)


cdef void cm_returns(const void *vs, double *out) noexcept nogil:
    """Winners (most points, then most civic buildings, then most Imperium) share 1.0."""
    cdef const CMState *s = <const CMState *>vs
    cdef int32_t sc[SC_N]
    cdef int64_t key[CM_MAXP]
    cdef uint64_t owned[CM_MAXP]
    cdef uint64_t fountains = cm_site_owners(s, owned)
    cdef int p, imps
    for p in range(s.nplayers):
        score_of(s, p, owned[p], fountains, sc)
        imps = count_sum(s.imp[p], CM_NCOL)
        key[p] = (<int64_t>sc[SC_TOTAL] << 32) + (<int64_t>rc_popcount64(owned[p]) << 16) + imps
    rc_share_wins(key, s.nplayers, out)


cdef void cm_scores(const void *vs, int32_t *out) noexcept nogil:
    """Each player's points as final scoring would count them now (SC_TOTAL of cm_score)."""
    cm_points(<const CMState *>vs, out, NULL)


cdef void cm_points(const CMState *s, int32_t *points, int *unconnected) noexcept nogil:
    """Each player's points as final scoring would count them now, and (unless NULL) their
    civic buildings that no aqueduct reaches yet: one pass over the sites serves both."""
    cdef int32_t sc[SC_N]
    cdef uint64_t owned[CM_MAXP]
    cdef uint64_t fountains = cm_site_owners(s, owned)
    cdef int p
    for p in range(s.nplayers):
        score_of(s, p, owned[p], fountains, sc)
        points[p] = sc[SC_TOTAL]
        if unconnected != NULL:
            unconnected[p] = rc_popcount64(owned[p] & ~s.aq_sites)

cdef void cm_resample(void *vs, int p, rc_rng *rng) noexcept nogil:
    """Redeals the bridge tiles other players hold from those p has not seen (all but
    p's own): each opponent keeps their number of bridges.  At the end every bridge is
    turned over, so nothing is hidden."""
    cdef CMState *s = <CMState *>vs
    cdef uint8_t vals[CM_NBTILES]
    cdef int n = 0, v, k, q, i, _j, _k
    if s.phase == PH_OVER:
        return
    for v in range(1, CM_NBVAL + 1):
        for _k in range(BRIDGE_COUNT[v] - s.bridges[p][v - 1]):
            vals[n] = v
            n += 1
    rc_shuffle_u8(vals, n, rng)
    i = 0
    for q in range(s.nplayers):
        if q == p:
            continue
        k = count_sum(s.bridges[q], CM_NBVAL)
        memset(s.bridges[q], 0, sizeof(s.bridges[q]))
        for _j in range(k):
            s.bridges[q][vals[i] - 1] += 1
            i += 1


cdef enum:   # what others see of a hidden step (observe_action): RC_HIDDEN | SEEN_*
    SEEN_BRIDGE = 1          # a bridge tile taken, its value hidden


cdef uint32_t cm_observe_action(const void *vs, int observer, int32_t a) noexcept nogil:
    """Only the taker sees a bridge tile's value; everything else is public."""
    cdef const CMState *s = <const CMState *>vs
    if s.phase == PH_BRIDGE and observer != s.turn_player:
        return RC_HIDDEN | SEEN_BRIDGE
    return <uint32_t>a


cdef int32_t cm_tensor_size(const int32_t *params) noexcept nogil:
    """A common block and one block per seat."""
    return CM_TENSOR_COMMON + params[0] * CM_TENSOR_PLAYER


cdef inline void one_hot_sites(float *out, uint64_t sites) noexcept nogil:
    """out[site] = 1 for each site of a site set."""
    while sites:
        out[rc_pop_lsb64(&sites)] = 1.0


cdef inline int mag_slot(int loc) noexcept nogil:
    """The seat-block slice that counts a magistrate off the board at loc."""
    if loc == LOC_CENTRE:
        return TP_MAG_CENTRE
    if loc == LOC_TREASURY:
        return TP_MAG_TREASURY
    return TP_MAG_IMPERIUM + loc - LOC_IMPERIUM


cdef inline void tensor_board(const CMState *s, int player, float *out) noexcept nogil:
    """The board: tiles by colour, hills, and each site's building (with its owner's seat
    block), fountain or emptiness."""
    cdef int n = s.nplayers, c, w, pl, i, q, h
    cdef uint64_t rem
    for w in range(CM_PLW):
        rem = s.placed[w]
        while rem:
            pl = WORD_BITS * w + rc_pop_lsb64(&rem)
            out[TC_TILES + CM_NPL * cm_tile_colour(s, pl) + pl] = 1.0
    for h in range(CM_NHILLS):
        out[TC_HILLS + h] = (s.hills >> h) & 1
    for i in range(NSITES):
        c = s.site[i]
        if is_building(c):
            out[TC_BUILDING + CM_MAXSITES * building_colour(c) + i] = 1.0
            q = (building_owner(c) - player + n) % n      # the owner's seat block
            out[CM_TENSOR_COMMON + CM_TENSOR_PLAYER * q + TP_BUILDINGS + i] = 1.0
        elif c == SITE_FOUNTAIN:
            out[TC_FOUNTAIN + i] = 1.0
        elif c == SITE_EMPTY:
            out[TC_EMPTY + i] = 1.0


cdef inline void tensor_aqueducts(const CMState *s, float *out) noexcept nogil:
    """Each started aqueduct: its length, its steps as directions, its end and its sites."""
    cdef int a, i, v, d
    for a in range(CM_NAQ):
        if not (s.aq_started >> a) & 1:
            continue
        out[TC_AQ_STARTED + a] = 1.0
        out[TC_AQ_LEN + a] = s.aq_len[a] / <float>CM_AQMAX
        for i in range(s.aq_len[a]):
            v = s.aq_path[a][i]
            for d in range(CM_NDIR):
                if VE_NB[v][d] == s.aq_path[a][i + 1]:
                    out[TC_AQ_STEPS + CM_AQMAX * CM_NDIR * a + CM_NDIR * i + d] = 1.0
        out[TC_AQ_END + CM_NVERT * a + s.aq_path[a][s.aq_len[a]]] = 1.0
    one_hot_sites(out + TC_AQ_SITES, s.aq_sites)


cdef inline void tensor_turn(const CMState *s, float *out) noexcept nogil:
    """The stacks, the phase and the turn's pending choices."""
    cdef int c, a, i
    for c in range(CM_NCOL):
        out[TC_STACKS + c] = s.stack[c] / <float>COL_TILES[c]
        out[TC_DRAWN + c] = s.pending[c] / <float>COL_TILES[c]
    out[TC_PHASE + s.phase] = 1.0
    out[TC_ACTIONS_LEFT] = s.actions_left / <float>N_ACTIONS
    out[TC_FINAL_LEFT] = s.final_left / <float>CM_MAXP
    if s.phase == PH_SITE or s.phase == PH_TILE:
        out[TC_SEL_COLOUR + s.sel_colour] = 1.0
        out[TC_SEL_MAG] = s.sel_mag
        if s.phase == PH_TILE:
            out[TC_SEL_SITE + s.sel_site] = 1.0
    out[TC_PEND_BRIDGES] = s.pend_bridges / <float>CM_TILE_TRIS
    for a in range(CM_NAQ):
        out[TC_AQ_TODO + a] = (s.aq_todo >> a) & 1
    if s.aq_left:
        out[TC_AQ_CUR + s.aq_cur] = 1.0
    out[TC_AQ_LEFT] = s.aq_left / <float>N_AQ_START
    for i in range(s.pend_n):
        out[TC_PEND_SITES + s.pend_sites[i]] = 1.0
    if s.phase == PH_SEND:
        out[TC_RES_SITE + s.res_site] = 1.0
    out[TC_RES_SEAT] = s.res_seat / <float>CM_MAXP


cdef inline void tensor_seat(const CMState *s, int q, bint bridges_seen, float *o) noexcept nogil:
    """Seat q's block: points, coins, tiles, Imperium, magistrates and bridges (their
    values only where bridges_seen)."""
    cdef int c, i, v, loc
    o[TP_POINTS] = s.points[q] / <float>POINTS_BOUND
    o[TP_COINS] = s.coins[q] / <float>N_COINS
    for c in range(CM_NCOL):
        o[TP_TILES + c] = s.centre[q][c] / <float>COL_TILES[c]
        o[TP_IMPERIUM + c] = s.imp[q][c] / <float>COL_IMP[c]
    for i in range(CM_NMAG):
        loc = s.mag[q][i]
        if loc < CM_NPL:
            o[TP_MAG_TILES + loc] = 1.0
        else:     # off the board: a count of magistrates per space (whole numbers)
            o[mag_slot(loc)] += 1.0
    o[TP_MAG_CENTRE] /= CM_NMAG
    o[TP_MAG_TREASURY] /= CM_NMAG
    for c in range(CM_NCOL):
        o[TP_MAG_IMPERIUM + c] /= CM_NMAG
    o[TP_BRIDGE_COUNT] = count_sum(s.bridges[q], CM_NBVAL) / <float>CM_NBRIDGES
    if bridges_seen:
        for v in range(CM_NBVAL):
            o[TP_BRIDGE_VALUES + v] = s.bridges[q][v] / <float>BRIDGE_COUNT[v + 1]
    o[TP_TURN] = q == s.turn_player
    o[TP_ACTOR] = q == s.actor


cdef void cm_observation_tensor(const void *vs, int player, float *out) noexcept nogil:
    """What player knows as the layout of kernel.pxd's TC_* / TP_* slices: all of the
    state but the values of other players' bridge tiles before the game ends."""
    cdef const CMState *s = <const CMState *>vs
    cdef int n = s.nplayers, j, q
    cdef bint over = s.phase == PH_OVER
    memset(out, 0, sizeof(float) * (CM_TENSOR_COMMON + n * CM_TENSOR_PLAYER))
    tensor_board(s, player, out)
    tensor_aqueducts(s, out)
    tensor_turn(s, out)
    for j in range(n):
        q = (player + j) % n
        tensor_seat(s, q, q == player or over, out + CM_TENSOR_COMMON + CM_TENSOR_PLAYER * j)


# =======================================================================================
# Validation: cm_validate as a sequence of named checks on a struct from outside

cdef const char *check_header(const CMState *s) noexcept nogil:
    """Players, padding, phase, the seats to move and the hills."""
    cdef int n = s.nplayers
    cdef const char *msg
    if n < CM_MINP or n > CM_MAXP:
        return "nplayers must be 2, 3 or 4"
    msg = rc_check_padding(<const uint8_t *>&s.site[0] + sizeof(s.site), <const uint8_t *>s + sizeof(CMState))
    if msg != NULL:
        return msg
    if s.phase > PH_OVER:
        return "unknown phase"
    if s.actor >= n or s.turn_player >= n:
        return "actor or turn player out of range"
    if s.hills >= (1 << CM_NHILLS) or rc_popcount32(s.hills) != s.hills_drawn:
        return "hills do not match hills_drawn"
    if (s.phase == PH_HILLS) != (s.hills_drawn < N_HILLS_IN_PLAY):
        return "hills drawn out of step with the phase"
    return NULL


cdef const char *check_unused_seats(const CMState *s) noexcept nogil:
    """Seats past nplayers hold nothing."""
    cdef int p, j, c, v
    for p in range(s.nplayers, CM_MAXP):
        for j in range(CM_NMAG):
            if s.mag[p][j]:
                return "an unused seat holds a magistrate"
        for c in range(CM_NCOL):
            if s.centre[p][c] or s.imp[p][c]:
                return "an unused seat holds tiles"
        for v in range(CM_NBVAL):
            if s.bridges[p][v]:
                return "an unused seat holds bridges"
        if s.coins[p] or s.points[p]:
            return "an unused seat holds coins or points"
    return NULL


cdef const char *check_tiles(const CMState *s) noexcept nogil:
    """Tiles lie on board placements, one colour each, without overlap, off the hills."""
    cdef uint64_t tiles[CM_TRIW]
    cdef uint64_t seen[CM_TRIW]
    cdef uint64_t rem
    cdef int c, w, k, t1, t2, i
    memset(seen, 0, sizeof(seen))
    for c in range(CM_NCOL):
        for w in range(CM_TRIW):
            if s.tri[c][w] & ~TRI_VALID[w]:
                return "tile on a non-triangle"
            if s.tri[c][w] & seen[w]:
                return "two tiles overlap"
            seen[w] |= s.tri[c][w]
    tile_mask(s, tiles)
    for w in range(CM_PLW):
        if s.placed[w] & ~PL_VALID[w]:
            return "tile on a non-placement"
    memset(seen, 0, sizeof(seen))
    for w in range(CM_PLW):
        rem = s.placed[w]
        while rem:
            k = WORD_BITS * w + rc_pop_lsb64(&rem)
            t1 = PL_T1[k]
            t2 = PL_T2[k]
            if rc_bits_has(seen, t1) or rc_bits_has(seen, t2):
                return "two placements share a triangle"
            rc_bits_add(seen, t1)
            rc_bits_add(seen, t2)
            c = cm_tile_colour(s, k)
            if c < 0 or not rc_bits_has(s.tri[c], t2):
                return "a tile's two triangles differ in colour"
    for w in range(CM_TRIW):
        if seen[w] != tiles[w]:
            return "covered triangles do not match the placements"
    for i in range(NSITES):
        if hill_chosen(s, i) and site_tri_bits(tiles, i):
            return "tile on a hill"
    return NULL


cdef const char *check_aqueduct_ranges(const CMState *s) noexcept nogil:
    """The aqueduct fields index within their tables (before the caches are rebuilt)."""
    cdef int a, i
    if s.aq_started >= (1 << CM_NAQ):
        return "aq_started out of range"
    for a in range(CM_NAQ):
        if s.aq_len[a] > CM_AQMAX:
            return "aqueduct too long"
        for i in range(CM_AQMAX + 1):
            if s.aq_path[a][i] >= NVERTS:
                return "aqueduct vertex out of range"
    return NULL


cdef const char *check_board_caches(const CMState *s, const CMState *r) noexcept nogil:
    """blocked and legal_pl as rebuilt (r) from the tiles and hills."""
    if memcmp(r.blocked, s.blocked, sizeof(r.blocked)) or memcmp(r.legal_pl, s.legal_pl, sizeof(r.legal_pl)):
        return "board caches do not match the tiles"
    return NULL


cdef const char *check_aqueducts(const CMState *s) noexcept nogil:
    """Each started aqueduct is a path of tile edges from its water source, apart from the
    others; an aqueduct not started is all zero."""
    cdef uint64_t tiles[CM_TRIW]
    cdef uint64_t verts[CM_VERTW]
    cdef int a, i, v, d
    tile_mask(s, tiles)
    memset(verts, 0, sizeof(verts))
    for a in range(CM_NAQ):
        if not (s.aq_started >> a) & 1:
            if s.aq_len[a]:
                return "pieces on an aqueduct not started"
            for i in range(CM_AQMAX + 1):
                if s.aq_path[a][i]:
                    return "path of an aqueduct not started"
            continue
        if s.aq_path[a][0] != WATER_V[a]:
            return "aqueduct does not start at its water source"
        for i in range(s.aq_len[a] + 1, CM_AQMAX + 1):
            if s.aq_path[a][i]:
                return "unused aqueduct path slot is not zero"
        for i in range(s.aq_len[a] + 1):
            v = s.aq_path[a][i]
            if rc_bits_has(verts, v):
                return "aqueducts share a vertex"
            if i and rc_bits_has(WATER_MASK, v):
                return "aqueduct enters a water source"
            rc_bits_add(verts, v)
        for i in range(s.aq_len[a]):
            v = s.aq_path[a][i]
            for d in range(CM_NDIR):
                if VE_NB[v][d] == s.aq_path[a][i + 1]:
                    break
            else:
                return "aqueduct pieces are not lattice edges"
            if not (rc_bits_has(tiles, VE_TA[v][d]) or (VE_TB[v][d] != CM_NONE and rc_bits_has(tiles, VE_TB[v][d]))):
                return "aqueduct piece not on a tile edge"
            if VE_PL[v][d] != CM_NO_PL and rc_bits_has(s.placed, VE_PL[v][d]):
                return "aqueduct piece on a tile's diagonal"
    return NULL


cdef const char *check_aqueduct_caches(const CMState *s, const CMState *r) noexcept nogil:
    """aq_verts and aq_sites as rebuilt (r) from the paths."""
    if memcmp(r.aq_verts, s.aq_verts, sizeof(r.aq_verts)) or r.aq_sites != s.aq_sites:
        return "aqueduct caches do not match the paths"
    return NULL


cdef const char *check_sites(const CMState *s) noexcept nogil:
    """Only completed sites are resolved (or pending), each as its size and the fountains
    allow; the score track counts the buildings."""
    cdef int owned[CM_MAXP]
    cdef int pts[CM_MAXP]
    cdef int fountains = 0, empty_sites = 0, i, st, p, c
    memset(owned, 0, sizeof(owned))
    memset(pts, 0, sizeof(pts))
    for i in range(CM_MAXSITES):
        st = s.site[i]
        if i >= NSITES:
            if st:
                return "status of a site off the board"
            continue
        if st > SITE_EMPTY:
            return "site status out of range"
        if st == SITE_OPEN:
            if cm_site_full(s, i) and not ((s.pend_n >= 1 and s.pend_sites[0] == i) or
                                           (s.pend_n == 2 and s.pend_sites[1] == i)):
                return "a completed site is unresolved"
            continue
        if hill_chosen(s, i) or not cm_site_full(s, i):
            return "an incomplete site holds a building"
        if st == SITE_FOUNTAIN:
            fountains += 1
        elif st == SITE_EMPTY:
            empty_sites += 1
        elif st < SITE_FOUNTAIN:
            p = building_owner(st)
            c = building_colour(st)
            if p >= s.nplayers:
                return "building owner out of range"
            if SIZE_COLOUR[cm_site_size(s, i)] != c:
                return "building does not match the site's size"
            owned[p] += 1
            pts[p] += COL_POINTS[c]
    if fountains > N_FOUNTAINS:
        return "too many fountains"
    if empty_sites and fountains < N_FOUNTAINS:
        return "a site left empty while fountains remain"
    for p in range(s.nplayers):
        if owned[p] > N_CUBES:
            return "more buildings than cubes"
        if s.points[p] != pts[p]:
            return "score track does not match the buildings"
    return NULL


cdef const char *check_magistrates(const CMState *s) noexcept nogil:
    """Locations ascending, each a held tile (one magistrate a tile), a space or the centre."""
    cdef uint64_t on_tile[CM_PLW]
    cdef int p, j, loc
    memset(on_tile, 0, sizeof(on_tile))
    for p in range(s.nplayers):
        for j in range(CM_NMAG):
            loc = s.mag[p][j]
            if j and loc < s.mag[p][j - 1]:
                return "magistrates not in ascending order"
            if loc < CM_NPL:
                if not rc_bits_has(s.placed, loc):
                    return "magistrate on an empty placement"
                if rc_bits_has(on_tile, loc):
                    return "two magistrates on one tile"
                rc_bits_add(on_tile, loc)
            elif not (LOC_IMPERIUM <= loc <= LOC_TREASURY or loc == LOC_CENTRE):
                return "magistrate location out of range"
    return NULL


cdef const char *check_supplies(const CMState *s) noexcept nogil:
    """Tiles, Imperium tiles, coins and bridge tiles are conserved; the aqueducts started
    are those whose water source a tile touches."""
    cdef uint64_t tiles[CM_TRIW]
    cdef int c, k, w, p, v, a, total, bridges_taken = 0, covered_bridges = 0
    cdef bint touched
    tile_mask(s, tiles)
    for c in range(CM_NCOL):
        k = 0
        for w in range(CM_TRIW):
            k += rc_popcount64(s.tri[c][w])
        total = s.stack[c] + s.pending[c] + k // 2
        for p in range(s.nplayers):
            total += s.centre[p][c]
        if total != COL_TILES[c]:
            return "Neighborhood tiles are not conserved"
        if imp_supply(s, c) < 0:
            return "too many Imperium tiles"
    if coin_supply(s) < 0:
        return "too many coins"
    for v in range(1, CM_NBVAL + 1):
        if cm_bridge_pool(s, v) < 0:
            return "too many bridge tiles of one value"
    for p in range(s.nplayers):
        bridges_taken += count_sum(s.bridges[p], CM_NBVAL)
    for w in range(CM_TRIW):
        covered_bridges += rc_popcount64(tiles[w] & BRIDGE_MASK[w])
    if bridges_taken + s.pend_bridges != covered_bridges:
        return "bridge tiles taken do not match the bridge spaces covered"
    for a in range(CM_NAQ):
        touched = False
        for w in range(CM_PLW):
            if s.placed[w] & WATER_PL[a][w]:
                touched = True
        if (<int>touched) != (((s.aq_started | s.aq_todo) >> a) & 1):
            return "aqueducts started do not match the tiles at the water sources"
    return NULL


cdef const char *check_turn(const CMState *s) noexcept nogil:
    """The final round, the actions left and the player to move fit the phase."""
    cdef uint64_t tiles[CM_TRIW]
    cdef int ph = s.phase, c
    if s.final_left > s.nplayers:
        return "final_left out of range"
    if s.final_left and empty_stacks(s) < N_FINAL_EMPTY:
        return "final round without three empty stacks"
    if ph == PH_HILLS or ph == PH_OVER:
        if s.actions_left or s.actor or s.turn_player or s.final_left:
            return "turn fields set outside play"
    if ph != PH_HILLS and ph != PH_OVER:
        if s.actions_left < 1 and ph != PH_EXTRA:
            return "no action left in an action phase"
        if s.actions_left > N_ACTIONS or (s.final_left and s.actions_left > 1):
            return "actions_left out of range"
    if ph == PH_HILLS:
        tile_mask(s, tiles)
        if any_bits(tiles, CM_TRIW) or s.aq_started:
            return "tiles on the board before the hills are revealed"
    for c in range(CM_NCOL):
        if s.pending[c] and (ph == PH_HILLS or ph == PH_OVER):
            return "drawn tiles outside a turn"
    if ph != PH_SEND and s.actor != s.turn_player:
        return "actor is not the turn player"
    return NULL


cdef const char *check_tile_play(const CMState *s) noexcept nogil:
    """The tile being played (colour, magistrate, site) is held and may go somewhere."""
    cdef int ph = s.phase, p = s.turn_player
    if ph != PH_SITE and ph != PH_TILE and (s.sel_colour or s.sel_mag or s.sel_site):
        return "tile selection outside a tile play"
    if ph == PH_SITE or ph == PH_TILE:
        if s.sel_colour >= CM_NCOL or s.sel_mag > 1 or not s.centre[p][s.sel_colour]:
            return "selected tile not held"
        if s.sel_mag and s.mag[p][CM_NMAG - 1] != LOC_CENTRE:
            return "selected magistrate not in the centre box"
        if ph == PH_SITE and s.sel_site:
            return "site selected too early"
        if ph == PH_TILE and (s.sel_site >= NSITES or not site_pl_bits(s.legal_pl, s.sel_site)):
            return "selected site has no legal tile"
    return NULL


cdef const char *check_resolution(const CMState *s) noexcept nogil:
    """The resolution of a placed tile (bridges, aqueduct starts, completed sites, the
    Imperium step) is in its own phase and consistent."""
    cdef int ph = s.phase, i
    if s.pend_bridges > CM_TILE_TRIS or (s.pend_bridges and ph != PH_BRIDGE):
        return "pending bridges outside the bridge step"
    if ph == PH_BRIDGE and not s.pend_bridges:
        return "bridge step with no bridge"
    if s.aq_todo >= (1 << CM_NAQ) or s.aq_todo & s.aq_started:
        return "aq_todo out of range"
    if s.aq_todo and ph != PH_BRIDGE and ph != PH_AQSTART:
        return "aqueduct start pending outside the tile's resolution"
    if s.aq_left > N_AQ_START or s.aq_cur >= CM_NAQ or (not s.aq_left and s.aq_cur):
        return "aqueduct start counters out of range"
    if s.aq_left and (ph != PH_AQSTART or not (s.aq_started >> s.aq_cur) & 1
                      or s.aq_len[s.aq_cur] + s.aq_left != N_AQ_START):
        return "aqueduct start outside its step"
    if ph == PH_AQSTART and not (s.aq_left and cm_pipe_dirs(s, s.aq_cur)):
        return "aqueduct start step with no piece to place"
    if s.pend_n > CM_TILE_TRIS:
        return "pend_n out of range"
    for i in range(CM_TILE_TRIS):
        if i >= s.pend_n:
            if s.pend_sites[i]:
                return "unused pending site slot is not zero"
        elif s.pend_sites[i] >= NSITES or s.site[s.pend_sites[i]] != SITE_OPEN \
                or not cm_site_full(s, s.pend_sites[i]):
            return "pending site is not an unresolved completed site"
    if s.pend_n == 2 and s.pend_sites[0] >= s.pend_sites[1]:
        return "pending sites not in ascending order"
    if s.pend_n and not (PH_BRIDGE <= ph <= PH_SEND):
        return "pending sites outside the tile's resolution"
    if ph == PH_ORDER and not (s.pend_n == 2 and cm_order_matters(s)):
        return "order step without two sites whose order matters"
    if ph == PH_SEND:
        if s.res_site >= NSITES or not (is_building(s.site[s.res_site]) or s.site[s.res_site] == SITE_FOUNTAIN):
            return "Imperium step on a site with nothing built"
        if s.res_seat >= s.nplayers or s.actor != (s.turn_player + s.res_seat) % s.nplayers \
                or not mags_in_site(s, s.actor, s.res_site):
            return "Imperium step for a player with no magistrate there"
    elif s.res_site or s.res_seat:
        return "Imperium step fields outside the step"
    return NULL


cdef const char *check_progress(const CMState *s) noexcept nogil:
    """A live state has a real choice in its phase; a finished one has three empty stacks.
    (That a live state has a legal action at all, State._check_struct checks for every game.)"""
    cdef int ph = s.phase
    if ph == PH_EXTRA and (s.actions_left or s.final_left or not holds_imperium(s, s.turn_player)
                           or not cm_menu_any(s)):
        return "extra-action step without Imperium or anything to do"
    if ph == PH_ACTION and not cm_menu_any(s):
        return "action step with nothing to do"
    if ph == PH_EXPAND2 and not any_pipe(s):
        return "second aqueduct piece with nowhere to go"
    if ph == PH_SITE and not any_bits(s.legal_pl, CM_PLW):
        return "tile play with no legal placement"
    if ph == PH_OVER and empty_stacks(s) < N_FINAL_EMPTY:
        return "game over without three empty stacks"
    return NULL


cdef const char *cm_validate(const void *vs) noexcept nogil:
    """NULL when every field is in range and the board, pieces, caches and phase agree;
    else the first fault, check by check (each check may rely on those before it)."""
    cdef const CMState *s = <const CMState *>vs
    cdef CMState r
    cdef const char *msg
    msg = check_header(s)
    if msg != NULL:
        return msg
    msg = check_unused_seats(s)
    if msg != NULL:
        return msg
    msg = check_tiles(s)
    if msg != NULL:
        return msg
    msg = check_aqueduct_ranges(s)
    if msg != NULL:
        return msg
    memcpy(&r, s, sizeof(CMState))
    cm_rebuild_caches(&r)
    msg = check_board_caches(s, &r)
    if msg != NULL:
        return msg
    msg = check_aqueducts(s)
    if msg != NULL:
        return msg
    msg = check_aqueduct_caches(s, &r)
    if msg != NULL:
        return msg
    msg = check_sites(s)
    if msg != NULL:
        return msg
    msg = check_magistrates(s)
    if msg != NULL:
        return msg
    msg = check_supplies(s)
    if msg != NULL:
        return msg
    msg = check_turn(s)
    if msg != NULL:
        return msg
    msg = check_tile_play(s)
    if msg != NULL:
        return msg
    msg = check_resolution(s)
    if msg != NULL:
        return msg
    return check_progress(s)


# =======================================================================================
# Tables from data: fills the Tables section from data.py at import

def _check_bounds(b):
    """The data fits the kernel's named bounds."""
    assert b.nsites <= CM_MAXSITES and b.nverts <= CM_NVERT
    assert len(b.hills) == CM_NHILLS and len(b.bridges) == CM_NBRIDGES and len(b.water) == CM_NAQ
    assert len(_data.COLOURS) == CM_NCOL and _data.AQUEDUCT_PIECES == CM_AQMAX
    assert _data.MAGISTRATES == CM_NMAG and len(_data.AQUEDUCTS) == CM_NAQ
    assert (_data.SITES_PER_TRI_WORD, _data.SITES_PER_PL_WORD, _data.PLACEMENTS_PER_SITE) == \
        (CM_TRI_SITES, CM_PL_SITES, CM_SITE_PLS)
    assert (_data.TRI_WORDS, _data.PL_WORDS, _data.VERT_WORDS) == (CM_TRIW, CM_PLW, CM_VERTW)
    assert len(_data.DIRS) == CM_NDIR and len(_data.BRIDGE_VALUES) == CM_NBTILES
    assert max(_data.BRIDGE_VALUES) == CM_NBVAL and min(_data.BRIDGE_VALUES) == 1
    # every list legal() writes fits CM_MAXLEGAL: the menu, the sites, a site's placements,
    # the hills, the bridge values, a send step
    assert max(2 * CM_NCOL + CM_NPAIRS + CM_NMAG + CM_NDIR * CM_NAQ, CM_MAXSITES, CM_SITE_PLS,
               CM_NHILLS, CM_NBVAL, CM_NMAG + 1) <= CM_MAXLEGAL


def _clear_geometry():
    """Every geometry table empty: CM_NONE, CM_NO_PL or no bits."""
    memset(TRI_SITE, CM_NONE, sizeof(TRI_SITE))
    memset(TRI_NBR, CM_NONE, sizeof(TRI_NBR))
    memset(PL_T1, CM_NONE, sizeof(PL_T1))
    memset(PL_T2, CM_NONE, sizeof(PL_T2))
    memset(PL_S1, CM_NONE, sizeof(PL_S1))
    memset(PL_S2, CM_NONE, sizeof(PL_S2))
    memset(PL_WATER, 0, sizeof(PL_WATER))
    memset(PL_VALID, 0, sizeof(PL_VALID))
    memset(TRI_VALID, 0, sizeof(TRI_VALID))
    memset(SITE_ADJ, 0, sizeof(SITE_ADJ))
    memset(SITE_HILL, CM_NONE, sizeof(SITE_HILL))
    memset(BRIDGE_MASK, 0, sizeof(BRIDGE_MASK))
    memset(WATER_MASK, 0, sizeof(WATER_MASK))
    memset(VE_NB, CM_NONE, sizeof(VE_NB))
    memset(VE_TA, CM_NONE, sizeof(VE_TA))
    memset(VE_TB, CM_NONE, sizeof(VE_TB))
    for v in range(CM_NVERT):
        for d in range(CM_NDIR):
            VE_PL[v][d] = CM_NO_PL
    for t in range(CM_NTRI):
        for j in range(TRI_SIDES):
            TRI_PL[t][j] = CM_NO_PL
    memset(VE_SITES, 0, sizeof(VE_SITES))
    memset(SITE_NB, CM_MAXSITES, sizeof(SITE_NB))
    memset(WATER_PL, 0, sizeof(WATER_PL))


def _load_triangles(b):
    """Each board triangle: its site, neighbours and placements."""
    for t, site in b.tri_site.items():
        TRI_SITE[t] = site
        rc_bits_add(TRI_VALID, t)
        for j, n in enumerate(b.tri_nbrs[t]):
            TRI_NBR[t][j] = n
        for j, pl in enumerate(b.tri_pls[t]):
            TRI_PL[t][j] = pl


def _load_placements(b):
    """Each placement: its two triangles and sites, its water, and (for a rim placement)
    the neighbouring sites it joins."""
    for pl in sorted(b.pl_tris):
        t1, t2 = b.pl_tris[pl]
        PL_T1[pl] = t1
        PL_T2[pl] = t2
        PL_S1[pl] = b.tri_site[t1]
        PL_S2[pl] = b.tri_site[t2]
        PL_WATER[pl] = b.pl_water[pl]
        rc_bits_add(PL_VALID, pl)
        for a in range(CM_NAQ):
            if (b.pl_water[pl] >> a) & 1:
                rc_bits_add(WATER_PL[a], pl)
        i, k = divmod(pl, WORD_BITS)
        i, k = CM_PL_SITES * i + k // CM_SITE_PLS, k % CM_SITE_PLS
        spoke = (k + CM_SITE_TRIS - 1) % CM_SITE_TRIS if k < CM_SITE_TRIS else k - CM_SITE_TRIS
        assert t1 == _data.tri_pos(i, spoke)
        if k >= CM_SITE_TRIS:
            j = b.tri_site[t2]
            opposite = k - CM_SITE_TRIS + CM_SITE_TRIS // 2
            assert t2 == _data.tri_pos(j, opposite), "a rim tile joins triangle k to the neighbour's k + 3"
            SITE_NB[i][k - CM_SITE_TRIS] = j
            SITE_NB[j][opposite] = i


def _load_sites(b):
    """Site adjacency, hills, bridges and water sources."""
    for i in range(NSITES):
        SITE_ADJ[i] = b.site_adj[i]
    for h, site in enumerate(b.hills):
        HILL_SITE[h] = site
        SITE_HILL[site] = h
    for j, t in enumerate(b.bridges):
        BRIDGE_TRI[j] = t
        rc_bits_add(BRIDGE_MASK, t)
    for a, v in enumerate(b.water):
        WATER_V[a] = v
        rc_bits_add(WATER_MASK, v)


def _load_vertices(b):
    """Each vertex's edges: neighbour, triangles, placement and the sites it touches."""
    for v in range(NVERTS):
        for d in range(CM_NDIR):
            e = b.vert_edges[v][d]
            if e is None:
                continue
            w, tris, pl = e
            VE_NB[v][d] = w
            VE_TA[v][d] = tris[0]
            VE_TB[v][d] = tris[1] if len(tris) > 1 else CM_NONE
            VE_PL[v][d] = pl if pl >= 0 else CM_NO_PL
            VE_SITES[v][d] = b.edge_sites(v, w)


def _load_colours():
    """The colours' tiles, points and Imperium, and the bridge tiles per value."""
    memset(SIZE_COLOUR, CM_NONE, sizeof(SIZE_COLOUR))
    for c, col in enumerate(_data.COLOURS):
        COL_TILES[c] = col.tiles
        COL_POINTS[c] = col.points
        COL_IMP[c] = col.imperium
        assert 3 <= col.site_size <= CM_SITE_TRIS
        SIZE_COLOUR[col.site_size] = c
    memset(BRIDGE_COUNT, 0, sizeof(BRIDGE_COUNT))
    for v in _data.BRIDGE_VALUES:
        BRIDGE_COUNT[v] += 1


def _load_counts():
    """The game's counts and points."""
    global N_FOUNTAINS, N_COINS, N_CUBES, N_START_TILES, N_ACTIONS
    global N_AQ_START, N_EXPAND, N_HILLS_IN_PLAY, N_FINAL_EMPTY
    global AQ_PTS, FOUNTAIN_PTS, COIN_PTS, MOST_COINS_PTS, IMP_SOLE_PTS, IMP_TIED_PTS
    global POINTS_BOUND
    N_FOUNTAINS = _data.FOUNTAINS
    N_COINS = _data.COINS
    N_CUBES = _data.CUBES
    N_START_TILES = _data.STARTING_TILES
    N_ACTIONS = _data.ACTIONS_PER_TURN
    N_AQ_START = _data.AQUEDUCT_START_PIECES
    N_EXPAND = _data.EXPAND_PIECES
    assert N_EXPAND == 2, "the Expand action is modelled as two steps"
    N_HILLS_IN_PLAY = _data.HILLS_IN_PLAY
    N_FINAL_EMPTY = _data.FINAL_ROUND_EMPTY_STACKS
    AQ_PTS = _data.AQUEDUCT_POINTS
    FOUNTAIN_PTS = _data.FOUNTAIN_POINTS
    COIN_PTS = _data.COIN_POINTS
    MOST_COINS_PTS = _data.MOST_COINS_POINTS
    IMP_SOLE_PTS = _data.IMPERIUM_SOLE_POINTS
    IMP_TIED_PTS = _data.IMPERIUM_TIED_POINTS
    POINTS_BOUND = N_CUBES * max(col.points for col in _data.COLOURS)


def _load_fields():
    """The placement words' field masks, and the colour pairs of a two-stack draw."""
    global PL_LOW8, PL_HIGH
    for j in range(CM_PL_SITES):
        PL_LOW8 |= (<uint64_t>PL_FIELD >> 1) << (CM_SITE_PLS * j)
        PL_HIGH |= (<uint64_t>1) << (CM_SITE_PLS * j + CM_SITE_PLS - 1)
        FIELD_OF_BIT[CM_SITE_PLS * j + CM_SITE_PLS - 1] = j
    k = 0
    for a in range(CM_NCOL):
        for c in range(a + 1, CM_NCOL):
            PAIR_A[k] = a
            PAIR_B[k] = c
            k += 1


def _load_tables():
    """Fills the Tables section from data.py."""
    global NSITES, NVERTS
    b = _data.BOARD
    _check_bounds(b)
    NSITES = b.nsites
    NVERTS = b.nverts
    _clear_geometry()
    _load_triangles(b)
    _load_placements(b)
    _load_sites(b)
    _load_vertices(b)
    _load_colours()
    _load_counts()
    _load_fields()


_load_tables()


# =======================================================================================
# Kernel table: CM_KERNEL slot by slot, and the capsule

cdef rc_kernel CM_KERNEL
CM_KERNEL.abi_version = RC_ABI_VERSION
CM_KERNEL.state_size = sizeof(CMState)
CM_KERNEL.state_version = 1
CM_KERNEL.num_actions = CM_NUM_ACTIONS
CM_KERNEL.max_legal = CM_MAXLEGAL
CM_KERNEL.max_game_length = CM_MAX_GAME_LENGTH
CM_KERNEL.init = cm_init
CM_KERNEL.num_players = cm_num_players
CM_KERNEL.current_player = cm_current_player
CM_KERNEL.legal_actions = cm_legal
CM_KERNEL.chance_outcomes = cm_chance_outcomes
CM_KERNEL.sample_chance = cm_sample_chance
CM_KERNEL.apply = cm_apply
CM_KERNEL.returns = cm_returns
CM_KERNEL.scores = cm_scores
CM_KERNEL.resample = cm_resample
CM_KERNEL.observe_action = cm_observe_action
CM_KERNEL.validate = cm_validate
CM_KERNEL.max_tensor_size = CM_MAX_TENSOR
CM_KERNEL.tensor_size = cm_tensor_size
CM_KERNEL.observation_tensor = cm_observation_tensor

kernel_capsule = rc_kernel_capsule(&CM_KERNEL)
STATE_SIZE = sizeof(CMState)
NUM_ACTIONS = CM_NUM_ACTIONS
MAX_LEGAL = CM_MAXLEGAL
GAME_LENGTH_BOUND = CM_MAX_GAME_LENGTH
# the first id of each action block, in id order (the package docstring's table)
ACTION_BLOCKS = {
    "A_SITE": A_SITE, "A_TILE": A_TILE, "A_PLAY": A_PLAY, "A_DRAW": A_DRAW,
    "A_DRAW1": A_DRAW1, "A_RECALL": A_RECALL, "A_PIPE": A_PIPE, "A_SEND": A_SEND,
    "A_KEEP": A_KEEP, "A_SPEND": A_SPEND, "A_END": A_END, "CH_HILL": CH_HILL,
    "CH_BRIDGE": CH_BRIDGE,
}
# the observation tensor's slices: name -> (offset, length); TC_* in the common block,
# TP_* in each seat's block (the package docstring's table)
TENSOR_COMMON = CM_TENSOR_COMMON
TENSOR_PLAYER = CM_TENSOR_PLAYER
TENSOR_BLOCKS = {
    "TC_TILES": (TC_TILES, CM_NCOL * CM_NPL), "TC_HILLS": (TC_HILLS, CM_NHILLS),
    "TC_BUILDING": (TC_BUILDING, CM_NCOL * CM_MAXSITES), "TC_FOUNTAIN": (TC_FOUNTAIN, CM_MAXSITES),
    "TC_EMPTY": (TC_EMPTY, CM_MAXSITES), "TC_AQ_STARTED": (TC_AQ_STARTED, CM_NAQ),
    "TC_AQ_LEN": (TC_AQ_LEN, CM_NAQ), "TC_AQ_STEPS": (TC_AQ_STEPS, CM_NAQ * CM_AQMAX * CM_NDIR),
    "TC_AQ_END": (TC_AQ_END, CM_NAQ * CM_NVERT), "TC_AQ_SITES": (TC_AQ_SITES, CM_MAXSITES),
    "TC_STACKS": (TC_STACKS, CM_NCOL), "TC_DRAWN": (TC_DRAWN, CM_NCOL),
    "TC_PHASE": (TC_PHASE, PH_OVER + 1), "TC_ACTIONS_LEFT": (TC_ACTIONS_LEFT, 1),
    "TC_FINAL_LEFT": (TC_FINAL_LEFT, 1), "TC_SEL_COLOUR": (TC_SEL_COLOUR, CM_NCOL),
    "TC_SEL_MAG": (TC_SEL_MAG, 1), "TC_SEL_SITE": (TC_SEL_SITE, CM_MAXSITES),
    "TC_PEND_BRIDGES": (TC_PEND_BRIDGES, 1), "TC_AQ_TODO": (TC_AQ_TODO, CM_NAQ),
    "TC_AQ_CUR": (TC_AQ_CUR, CM_NAQ), "TC_AQ_LEFT": (TC_AQ_LEFT, 1),
    "TC_PEND_SITES": (TC_PEND_SITES, CM_MAXSITES), "TC_RES_SITE": (TC_RES_SITE, CM_MAXSITES),
    "TC_RES_SEAT": (TC_RES_SEAT, 1),
    "TP_POINTS": (TP_POINTS, 1), "TP_COINS": (TP_COINS, 1), "TP_TILES": (TP_TILES, CM_NCOL),
    "TP_IMPERIUM": (TP_IMPERIUM, CM_NCOL), "TP_MAG_CENTRE": (TP_MAG_CENTRE, 1),
    "TP_MAG_TREASURY": (TP_MAG_TREASURY, 1), "TP_MAG_IMPERIUM": (TP_MAG_IMPERIUM, CM_NCOL),
    "TP_MAG_TILES": (TP_MAG_TILES, CM_NPL), "TP_BUILDINGS": (TP_BUILDINGS, CM_MAXSITES),
    "TP_BRIDGE_COUNT": (TP_BRIDGE_COUNT, 1), "TP_BRIDGE_VALUES": (TP_BRIDGE_VALUES, CM_NBVAL),
    "TP_TURN": (TP_TURN, 1), "TP_ACTOR": (TP_ACTOR, 1),
}
