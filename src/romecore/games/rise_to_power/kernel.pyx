# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Rome: Rise to Power: the rules as C functions over one fixed-size struct.

Card zones are bit sets over card ids (31 Arena cards, 25 Senate cards, 20 provinces fit
one 32-bit word each); cards in no set are out of the game.  Unplaced Power Dice are a
count per face; each track lists its groups left to right, one group per player, each
group its dice leftmost first.  All printed numbers come from ``data.py``, copied into
the C tables below at import.

Decisions are small steps with fixed action ids (see kernel.pxd).  A Senate card is
activated with ``A_ACTIVATE``, placed on its province(s) with ``A_PROVINCE`` and then
asks for its own parameters (dice, a player, a province).  Sets (provinces conquered,
Arena cards bought, dice re-rolled, show cards) are chosen one element at a time and
closed with ``A_DONE``; conquests go in ascending province id, purchases in ascending
Arena type and re-roll marks in ascending face, so each set has one way to be chosen.
Applying an action is ``rp_step`` (the action and its direct effects) then ``rp_forced``
(every step that has exactly one legal action, chance included).

Chance is explicit: each row card dealt, each Power Die rolled or re-rolled, each
face-down Arena card and each round-1 turn-order tie are chance nodes.  Decks are drawn
lazily (Era I first), which is the same distribution as a shuffle whose order nobody
knows.

Engine rulings beyond rise-to-power.md (documented in the package docstring): taking a
Senate card on the Senate track is compulsory while cards last (taking one is never
worse); a player holds at most 8 provinces (one Arch each); an Intrigue card keeps the
2-player status of the card it replaces; Consul, once activated, makes the next die
exceed the rightmost die of the player's group on its track; Senator on a placed 1 makes
it a 0 that becomes the leftmost die of its group, and the group moves to the front.
"""
from libc.string cimport memset, memcpy
from libc.stdint cimport int8_t, uint8_t, int32_t, uint32_t, int64_t

from romecore.core.kernel cimport (
    rc_shuffle_u8,
    rc_kernel_capsule, rc_share_wins,
    rc_kernel, rc_rng, rc_rng_below, rc_popcount32, rc_lsb32, rc_pop_lsb32, rc_nth_bit64,
    rc_check_padding,
    RC_ABI_VERSION, RC_CHANCE, RC_TERMINAL, RC_HIDDEN,
)

from romecore.games.rise_to_power import data as _data


# =======================================================================================
# Tables: the C copies of data.py's tables (filled at import, below)

cdef enum:
    CTX_PLACE = 0        # phase 2, before the turn's die
    CTX_AFTER = 1        # phase 2, after it
    CTX_TRIBUNUS = 2     # phase 1
    CTX_FORUM = 3        # phase 4, forum scoring
    CTX_SHOW = 4         # phase 4, the show
    CTX_N = 5
    FACES_MASK = (2 << RP_FACES) - 2   # bit v for each face 1..6
    # limits validate puts on counters the rules bound only loosely
    MAX_VP = 60          # forum or arena VP
    MAX_BONUS = 8        # military or coin bonus in one round
    MIN_ADJ = -8         # Tribunus change to a dice sum
    MAX_ADJ = 20
    MAX_BUDGET = 40      # strength or coins left in a resolution
    MAX_SYMBOLS = 2      # provinces one activation exhausts, at most (a card's symbols)
    CAT_ROMAN = 0
    CAT_BEAST = 1
    CAT_BARBARIAN = 2
    T_MILITARY = 0
    T_SENATE = 1
    T_MARKET = 2

cdef uint8_t P_ERA[RP_NPROV]
cdef uint8_t P_POWER[RP_NPROV]
cdef uint8_t P_TYPE[RP_NPROV]
cdef uint8_t P_RES[RP_NPROV]
cdef uint8_t P_REGION[RP_NPROV]
cdef uint32_t P_TYPE_MASK[RP_NPTYPES]
cdef uint32_t P_RES_MASK[RP_NRES]
cdef uint32_t P_ERA_MASK[RP_NERAS]
cdef uint32_t P_REGION_MASK[RP_NREGIONS]
cdef uint32_t P_GAME[RP_MAXP + 1]
cdef uint8_t S_ERA[RP_NSENATE]
cdef uint8_t S_SYM[RP_NSENATE]
cdef uint8_t S_NSYM[RP_NSENATE]
cdef uint8_t S_AB[RP_NSENATE]
cdef uint8_t S_AMOUNT[RP_NSENATE]
cdef uint8_t S_RES[RP_NSENATE]
cdef uint8_t S_PTYPE[RP_NSENATE]
cdef uint8_t S_CANON[RP_NSENATE]       # lowest id of the identical cards
cdef uint32_t S_TWIN_LOWER[RP_NSENATE] # identical cards with a lower id
cdef uint32_t S_TWINS[RP_NSENATE]      # identical cards, itself included
cdef uint32_t S_ERA_MASK[RP_NERAS]
cdef uint32_t S_CTX_MASK[CTX_N]        # cards whose ability suits each CTX_* moment
cdef uint32_t S_GAME[RP_MAXP + 1][RP_INTRIGUE_ALL + 1]
cdef uint8_t A_TYPE[RP_NARENA]
cdef uint8_t AT_CAT[RP_NATYPES]
cdef uint8_t AT_COST[RP_NATYPES]
cdef uint32_t AT_MASK[RP_NATYPES]
cdef uint8_t RANK_VP[RP_NRANKS]
cdef uint8_t ROW_SIZE[RP_MAXP + 1]
cdef uint8_t ERA_ROUNDS[RP_NERAS]      # rounds whose rows come from each era
cdef uint8_t SCORING_ROUND[RP_ROUNDS + 1]
cdef int ROUNDS, FORUM_MAX, ARCHES, FACE_DOWN_COST, ARENA_ROW, SHOW_MIN, BEST_SHOW_BONUS
cdef int REGION_MAJORITY_VP, REGION_ALL_VP, REGION_TIE_VP, DISCARD_ERA
cdef int SHOW_BONUS_AMOUNT             # Intrigue Greko Maximus: + VP and + rank
cdef uint32_t ARENA_ALL = (1u << RP_NARENA) - 1


# =======================================================================================
# Queries: read-only facts about a state

cdef int rp_row_size(int n) noexcept nogil:
    return ROW_SIZE[n] if RP_MINP <= n <= RP_MAXP else 0


cdef uint32_t rp_province_mask(int n) noexcept nogil:
    return P_GAME[n] if RP_MINP <= n <= RP_MAXP else 0


cdef uint32_t rp_senate_mask(int n, int intrigue) noexcept nogil:
    return S_GAME[n][intrigue & RP_INTRIGUE_ALL] if RP_MINP <= n <= RP_MAXP else 0


cdef int rp_arena_type(int card) noexcept nogil:
    return A_TYPE[card]


cdef int rp_ability(int card) noexcept nogil:
    return S_AB[card]


cdef inline uint32_t owned_provinces(const RPState *s) noexcept nogil:
    cdef uint32_t m = 0
    cdef int q
    for q in range(s.nplayers):
        m |= s.p_own[q]
    return m


cdef inline int unplaced(const RPState *s, int p) noexcept nogil:
    cdef int v, n = 0
    for v in range(RP_FACES + 1):
        n += s.dice[p][v]
    return n


cdef int rp_dice_sum(const RPState *s, int p) noexcept nogil:
    """Sum of the player's unplaced dice (all of them in phase 1)."""
    cdef int v, n = 0
    for v in range(RP_FACES + 1):
        n += v * s.dice[p][v]
    return n


cdef int rp_ngroups(const RPState *s, int t) noexcept nogil:
    cdef int k = 0
    while k < RP_MAXP and s.tord[t][k] != RP_NONE:
        k += 1
    return k


cdef int rp_group_index(const RPState *s, int t, int p) noexcept nogil:
    cdef int k
    for k in range(RP_MAXP):
        if s.tord[t][k] == p:
            return k
    return -1


cdef int rp_group_sum(const RPState *s, int t, int p) noexcept nogil:
    cdef const RPGroup *g = &s.grp[t][p]
    cdef int k, n = 0
    for k in range(g.n):
        n += g.d[k]
    return n


cdef inline uint32_t prov_avail(const RPState *s, int p, int c) noexcept nogil:
    """Unexhausted provinces of p that Senate card c may be placed on."""
    cdef uint32_t m
    if S_AB[c] == AB_FORUM_MOVE:
        m = P_RES_MASK[S_RES[c]]
    else:
        m = P_TYPE_MASK[S_SYM[c]]
    return s.p_own[p] & ~s.p_exh & m


cdef inline uint32_t lowest_in(uint32_t set_, uint32_t of) noexcept nogil:
    """The lowest card of `of` in `set_` as a one-bit mask (0 when none)."""
    cdef uint32_t m = set_ & of
    return (1u << rc_lsb32(m)) if m else 0


cdef inline uint32_t face_mask(const RPState *s, int p) noexcept nogil:
    """Bit v set for each face v (1..6) among p's unplaced dice."""
    cdef uint32_t m = 0
    cdef int v
    for v in range(1, RP_FACES + 1):
        if s.dice[p][v]:
            m |= 1u << v
    return m


cdef inline uint32_t track_faces(const RPState *s, int p, int t) noexcept nogil:
    """Faces (bit v) that p may place on track t now.  A die joins p's group there and
    may not exceed its rightmost die (with Consul: must exceed it); without a group a
    section is always free (one section per player at most), unless Consul asks for a
    die above a group."""
    cdef const RPGroup *g = &s.grp[t][p]
    cdef int r
    if g.n:
        if g.n >= RP_DICE:
            return 0
        r = g.d[g.n - 1]
        if s.consul:
            return FACES_MASK & ~((2u << r) - 1)
        return ((2u << r) - 2) & FACES_MASK
    return 0 if s.consul else FACES_MASK


cdef int rp_chance_kind(const RPState *s) noexcept nogil:
    """In PH_DEAL: what is dealt next, a province, a Senate card or an Arena card
    (DEAL_*); DEAL_DONE once the rows are complete."""
    cdef int k = ROW_SIZE[s.nplayers]
    if rc_popcount32(s.p_row) < k and s.p_deck:
        return DEAL_PROVINCE
    if rc_popcount32(s.s_row) < k and s.s_deck:
        return DEAL_SENATE
    if rc_popcount32(s.a_row) < ARENA_ROW and s.a_deck:
        return DEAL_ARENA
    return DEAL_DONE


cdef inline uint32_t era_pool(uint32_t deck, const uint32_t *era_masks) noexcept nogil:
    """The part of a deck that is drawn next: its earliest era still there."""
    cdef int e
    for e in range(RP_NERAS):
        if deck & era_masks[e]:
            return deck & era_masks[e]
    return 0


cdef inline uint32_t compute_order(const RPState *s, const int8_t *adj) noexcept nogil:
    """The order (packed one byte per seat) that the sums with Tribunus changes `adj`
    give, ties kept in the previous order.  Used from round 2 on."""
    cdef int n = s.nplayers, k, i, q, best, best_sum, sm
    cdef uint32_t used = 0, out = 0
    for k in range(n):
        best = -1
        best_sum = 0
        for i in range(n):
            q = s.order[i]
            if (used >> q) & 1:
                continue
            sm = rp_dice_sum(s, q) + adj[q]
            if best < 0 or sm < best_sum:
                best = q
                best_sum = sm
        used |= 1u << best
        out |= (<uint32_t>best) << (8 * k)
    return out


cdef inline bint order_changes(const RPState *s, int q, int delta) noexcept nogil:
    cdef int8_t adj[RP_MAXP]
    memcpy(adj, s.adj, sizeof(adj))
    adj[q] += delta
    return compute_order(s, adj) != compute_order(s, s.adj)


cdef inline int order_candidates(const RPState *s, uint32_t *cands) noexcept nogil:
    """Players not yet in the new order with the lowest adjusted sum; their number."""
    cdef int q, sm, best = 1 << 20
    cdef uint32_t used = 0, m = 0
    cdef int i
    for i in range(s.nord_n):
        used |= 1u << s.nord[i]
    for q in range(s.nplayers):
        if (used >> q) & 1:
            continue
        sm = rp_dice_sum(s, q) + s.adj[q]
        if sm < best:
            best = sm
            m = 0
        if sm == best:
            m |= 1u << q
    cands[0] = m
    return rc_popcount32(m)


cdef inline bint any_placed_at_least(const RPState *s, int p, int lo) noexcept nogil:
    cdef int t, k
    for t in range(RP_NTRACKS):
        for k in range(s.grp[t][p].n):
            if s.grp[t][p].d[k] >= lo:
                return True
    return False


cdef inline bint consul_possible(const RPState *s, int p) noexcept nogil:
    cdef int t, v
    cdef const RPGroup *g
    for t in range(RP_NTRACKS):
        g = &s.grp[t][p]
        if g.n == 0 or g.n >= RP_DICE:
            continue
        for v in range(g.d[g.n - 1] + 1, RP_FACES + 1):
            if s.dice[p][v]:
                return True
    return False


cdef inline bint target_ok(const RPState *s, int c, int p, int q) noexcept nogil:
    """Whether player q is a target with an effect for card c activated by p."""
    cdef int ab = S_AB[c]
    if ab == AB_TURN_ORDER_OTHER:
        return q != p and order_changes(s, q, S_AMOUNT[c])
    if ab == AB_REROLL_ANY:
        return unplaced(s, q) > 0
    if ab == AB_STEAL:
        return q != p and s.forum[q][S_RES[c]] > 0
    return False


ctypedef struct Facts:
    int unplaced          # p's unplaced dice
    uint32_t free         # p's unexhausted provinces


cdef inline void gather(const RPState *s, int p, Facts *f) noexcept nogil:
    f.unplaced = unplaced(s, p)
    f.free = s.p_own[p] & ~s.p_exh


cdef bint card_usable(const RPState *s, int p, int c, int ctx, const Facts *f) noexcept nogil:
    """Whether p may activate Senate card c now: it is p's, unexhausted, has its
    province(s) free, suits the moment and would have an effect."""
    cdef int ab = S_AB[c], q
    cdef bint phase2 = ctx == CTX_PLACE or ctx == CTX_AFTER
    if not ((s.s_own[p] >> c) & 1) or (s.s_exh >> c) & 1:
        return False
    if rc_popcount32(f.free & (P_RES_MASK[S_RES[c]] if ab == AB_FORUM_MOVE else P_TYPE_MASK[S_SYM[c]])) < S_NSYM[c]:
        return False
    if ab == AB_MILITARY_BONUS:
        return phase2 and (s.grp[T_MILITARY][p].n > 0 or f.unplaced > 0)
    if ab == AB_COIN_BONUS:
        return phase2 and (s.grp[T_MARKET][p].n > 0 or f.unplaced > 0)
    if ab == AB_REROLL_PLACED_MILITARY:
        return phase2 and s.grp[T_MILITARY][p].n > 0
    if ab == AB_REROLL_UNPLACED or ab == AB_INVERT or ab == AB_SHIFT:
        return phase2 and f.unplaced > 0
    if ab == AB_CONSUL:
        return ctx == CTX_PLACE and consul_possible(s, p)
    if ab == AB_LOWER_PLACED:
        return phase2 and any_placed_at_least(s, p, 1)
    if ab == AB_REROLL_ANY or ab == AB_STEAL or ab == AB_TURN_ORDER_OTHER:
        if ab == AB_TURN_ORDER_OTHER:
            if ctx != CTX_TRIBUNUS:
                return False
        elif not phase2:
            return False
        for q in range(s.nplayers):
            if target_ok(s, c, p, q):
                return True
        return False
    if ab == AB_DISCARD_PROVINCE:
        return phase2 and (owned_provinces(s) & P_ERA_MASK[DISCARD_ERA - 1]) != 0
    if ab == AB_TURN_ORDER_SELF:
        return ctx == CTX_TRIBUNUS and order_changes(s, p, -<int>S_AMOUNT[c])
    if ab == AB_FORUM_MOVE:
        return ctx == CTX_FORUM and S_RES[c] == s.ftrack and s.forum[p][S_RES[c]] < FORUM_MAX
    if ab == AB_SHOW_BONUS:
        return ctx == CTX_SHOW and rc_popcount32(s.a_show[p]) >= SHOW_MIN
    return False


cdef inline int add_activations(const RPState *s, int p, int ctx, int32_t *out, int n) noexcept nogil:
    cdef uint32_t avail = s.s_own[p] & ~s.s_exh
    cdef uint32_t m = avail & S_CTX_MASK[ctx]
    cdef int c
    cdef Facts f
    if s.consul or not m:
        return n
    gather(s, p, &f)
    while m:
        c = rc_pop_lsb32(&m)
        if avail & S_TWIN_LOWER[c]:
            continue  # an identical card with a lower id stands for it
        if card_usable(s, p, c, ctx, &f):
            out[n] = A_ACTIVATE + c
            n += 1
    return n


# =======================================================================================
# Scoring: one player's points by category, as final scoring would count them now

cdef int rp_forum_points(const RPState *s, int p, int track) noexcept nogil:
    """1 VP for at least one of the resource, plus 1 per player strictly lower."""
    cdef int v = s.forum[p][track], q, n = 0
    if v == 0:
        return 0
    for q in range(s.nplayers):
        if s.forum[q][track] < v:
            n += 1
    return 1 + n


cdef int rp_show_rank(const uint8_t *cnt) noexcept nogil:
    """Best rank (0..4) of a show with these counts per Arena type; -1 if under 3 cards."""
    cdef int t, total = 0, distinct = 0, romans = 0
    cdef int beasts = 0, barbs = 0
    for t in range(RP_NATYPES):
        if not cnt[t]:
            continue
        total += cnt[t]
        distinct += 1
        if AT_CAT[t] == CAT_ROMAN:
            romans += cnt[t]
        elif AT_CAT[t] == CAT_BEAST:
            beasts += 1
        else:
            barbs += 1
    if total < SHOW_MIN:
        return -1
    if barbs >= 2 and romans >= 3:
        return 4
    if beasts >= 3 or barbs >= 3:
        return 3
    if romans and beasts and barbs:
        return 2
    if distinct >= 3:
        return 1
    return 0


cdef int rp_show_vp(const RPState *s, int p, int *rank, int *cost) noexcept nogil:
    """VP of p's prepared show (0 if none); *rank is its rank for 'best show' (the
    Intrigue Greko Maximus adds to both), -1 without a show; *cost its coin value."""
    cdef uint8_t cnt[RP_NATYPES]
    cdef uint32_t m = s.a_show[p]
    cdef int c, r, bonus = 0
    memset(cnt, 0, sizeof(cnt))
    cost[0] = 0
    while m:
        c = rc_pop_lsb32(&m)
        cnt[A_TYPE[c]] += 1
        cost[0] += AT_COST[A_TYPE[c]]
    r = rp_show_rank(cnt)
    if r < 0:
        rank[0] = -1
        return 0
    if (s.greko >> p) & 1:
        bonus = SHOW_BONUS_AMOUNT
    rank[0] = r + bonus
    return RANK_VP[r] + bonus


cdef int rp_region_points(const RPState *s, int p, int region) noexcept nogil:
    cdef uint32_t rm = P_REGION_MASK[region]
    cdef int q, tot, best = -1, nbest = 0, mine = 0
    cdef uint32_t m
    if not (s.p_own[p] & rm):
        return 0
    for q in range(s.nplayers):
        m = s.p_own[q] & rm
        if not m:
            continue
        tot = 0
        while m:
            tot += P_POWER[rc_pop_lsb32(&m)]
        if tot > best:
            best = tot
            nbest = 1
        elif tot == best:
            nbest += 1
        if q == p:
            mine = tot
    if nbest > 1:
        return REGION_TIE_VP
    if mine != best:
        return 0
    if (s.p_own[p] & rm) == (rm & P_GAME[s.nplayers]):
        return REGION_ALL_VP
    return REGION_MAJORITY_VP


cdef int rp_senate_endgame(const RPState *s, int p, int c) noexcept nogil:
    """End-game VP of Senate card c held by p (0 for cards that do not score)."""
    cdef int ab = S_AB[c], r, n = 0, t, ncards, nprov
    cdef uint32_t m
    if ab == AB_ENDGAME_REGIONS:
        for r in range(RP_NREGIONS):
            if s.p_own[p] & P_REGION_MASK[r]:
                n += 1
        return n * S_AMOUNT[c]
    if ab == AB_ENDGAME_TYPE:
        return rc_popcount32(s.p_own[p] & P_TYPE_MASK[S_PTYPE[c]]) * S_AMOUNT[c]
    if ab == AB_ENDGAME_PAIRS:
        # a maximum matching of Senate cards to provinces by symbol = province type
        for t in range(RP_NPTYPES):
            ncards = 0
            m = s.s_own[p]
            while m:
                if S_SYM[rc_pop_lsb32(&m)] == t:
                    ncards += 1
            nprov = rc_popcount32(s.p_own[p] & P_TYPE_MASK[t])
            n += ncards if ncards < nprov else nprov
        return n * S_AMOUNT[c]
    return 0


cdef int rp_hand_cost(const RPState *s, int p) noexcept nogil:
    cdef uint32_t m = s.a_hand[p]
    cdef int n = 0
    while m:
        n += AT_COST[A_TYPE[rc_pop_lsb32(&m)]]
    return n


cdef void rp_score(const RPState *s, int p, int32_t *out) noexcept nogil:
    """VP by category: forum and arena as scored so far, and the end-game Senate cards
    and region control as they would score now."""
    cdef uint32_t m = s.s_own[p]
    cdef int r
    out[SC_FORUM] = s.vp_forum[p]
    out[SC_ARENA] = s.vp_arena[p]
    out[SC_SENATE] = 0
    while m:
        out[SC_SENATE] += rp_senate_endgame(s, p, rc_pop_lsb32(&m))
    out[SC_REGIONS] = 0
    for r in range(RP_NREGIONS):
        out[SC_REGIONS] += rp_region_points(s, p, r)
    out[SC_TOTAL] = out[SC_FORUM] + out[SC_ARENA] + out[SC_SENATE] + out[SC_REGIONS]


# =======================================================================================
# Changes: small mutators, each keeping the struct's invariants

cdef inline void canonical(RPGroup *g) noexcept nogil:
    """Sorts the middle dice (neither leftmost nor rightmost) in descending order: only
    the leftmost (ordering), the rightmost (next die) and the sum matter."""
    cdef int i, j
    cdef uint8_t x
    for i in range(2, g.n - 1):
        x = g.d[i]
        j = i - 1
        while j >= 1 and g.d[j] < x:
            g.d[j + 1] = g.d[j]
            j -= 1
        g.d[j + 1] = x


cdef inline void add_capped(uint8_t *x, int v, int cap) noexcept nogil:
    """``x += v``, stopping at ``cap``: validate's bound for the counter, so no legal step
    takes an accepted state past it (real games stay far below)."""
    v += x[0]
    x[0] = <uint8_t>(cap if v > cap else v)


cdef inline void place_die(RPState *s, int p, int t, int v) noexcept nogil:
    cdef RPGroup *g = &s.grp[t][p]
    cdef int k, pos, ng
    s.dice[p][v] -= 1
    if g.n:
        g.d[g.n] = v
        g.n += 1
        canonical(g)
        return
    ng = rp_ngroups(s, t)
    pos = ng
    for k in range(ng):
        if s.grp[t][s.tord[t][k]].d[0] > v:
            pos = k
            break
    for k in range(ng, pos, -1):
        s.tord[t][k] = s.tord[t][k - 1]
    s.tord[t][pos] = p
    g.n = 1
    g.d[0] = v


cdef inline void move_to_front(RPState *s, int t, int p) noexcept nogil:
    cdef int k = rp_group_index(s, t, p)
    while k > 0:
        s.tord[t][k] = s.tord[t][k - 1]
        k -= 1
    s.tord[t][0] = p


cdef inline void lower_die(RPState *s, int p, int t, int pos) noexcept nogil:
    """Senator: the die drops by one; a 1 becomes a 0 that leads its group, and the group
    moves to the leftmost section."""
    cdef RPGroup *g = &s.grp[t][p]
    cdef int k
    if g.d[pos] > 1:
        g.d[pos] -= 1
        canonical(g)
        return
    for k in range(pos, 0, -1):
        g.d[k] = g.d[k - 1]
    g.d[0] = 0
    canonical(g)
    move_to_front(s, t, p)


cdef inline void clear_tracks(RPState *s) noexcept nogil:
    memset(s.tord, RP_NONE, sizeof(s.tord))
    memset(s.grp, 0, sizeof(s.grp))
    memset(s.dice, 0, sizeof(s.dice))


# =======================================================================================
# Turn flow: phases, rounds and turns, one step, and the forced steps after it

cdef inline void begin_round(RPState *s) noexcept nogil:
    s.phase = PH_DEAL
    if rp_chance_kind(s) == DEAL_DONE:
        begin_roll(s)


cdef inline void begin_roll(RPState *s) noexcept nogil:
    clear_tracks(s)
    memset(s.adj, 0, sizeof(s.adj))
    s.step = 0
    s.phase = PH_ROLL


cdef inline void begin_tribunus(RPState *s) noexcept nogil:
    s.phase = PH_TRIBUNUS
    s.step = 0
    s.actor = s.order[0]


cdef inline void begin_order(RPState *s) noexcept nogil:
    s.phase = PH_ORDER
    s.nord_n = 0
    order_step(s)


cdef inline void order_step(RPState *s) noexcept nogil:
    """Extends the new order while it needs no chance; a round-1 tie waits for one."""
    cdef uint32_t cands
    cdef int k, i, q
    while s.nord_n < s.nplayers:
        k = order_candidates(s, &cands)
        if k > 1 and s.round == 1:
            return
        for i in range(s.nplayers):
            q = s.order[i]
            if (cands >> q) & 1:
                break
        s.nord[s.nord_n] = q
        s.nord_n += 1
    memcpy(s.order, s.nord, RP_MAXP)
    begin_place(s)


cdef inline void begin_place(RPState *s) noexcept nogil:
    memset(s.adj, 0, sizeof(s.adj))  # Tribunus changes counted only for the order
    memset(s.nord, RP_NONE, sizeof(s.nord))
    s.nord_n = 0
    s.turn = 0
    s.consul = 0
    s.actor = s.order[0]
    s.phase = PH_PLACE


cdef inline void next_turn(RPState *s) noexcept nogil:
    s.turn += 1
    s.consul = 0
    if s.turn >= RP_DICE * s.nplayers:
        s.turn = 0
        begin_military(s)
        return
    s.actor = s.order[s.turn % s.nplayers]
    s.phase = PH_PLACE


cdef inline void begin_military(RPState *s) noexcept nogil:
    s.phase = PH_MILITARY
    s.rpos = 0
    military_setup(s)


cdef inline void military_setup(RPState *s) noexcept nogil:
    cdef int p
    if s.rpos < rp_ngroups(s, T_MILITARY):
        p = s.tord[T_MILITARY][s.rpos]
        s.actor = p
        s.budget = rp_group_sum(s, T_MILITARY, p) + s.mil_bonus[p]
        s.floor = 0
        return
    begin_senate(s)


cdef inline void begin_senate(RPState *s) noexcept nogil:
    s.phase = PH_SENATE
    s.rpos = 0
    senate_setup(s)


cdef inline void senate_setup(RPState *s) noexcept nogil:
    cdef int p
    if s.s_row and s.rpos < rp_ngroups(s, T_SENATE):
        p = s.tord[T_SENATE][s.rpos]
        s.actor = p
        s.picks = s.grp[T_SENATE][p].n
        return
    s.picks = 0
    begin_market(s)


cdef inline void begin_market(RPState *s) noexcept nogil:
    s.phase = PH_MARKET
    s.rpos = 0
    market_setup(s)


cdef inline void market_setup(RPState *s) noexcept nogil:
    cdef int p
    if s.rpos < rp_ngroups(s, T_MARKET):
        p = s.tord[T_MARKET][s.rpos]
        s.actor = p
        s.budget = rp_group_sum(s, T_MARKET, p) + s.coin_bonus[p]
        s.floor = 0
        return
    end_resolution(s)


cdef inline void end_resolution(RPState *s) noexcept nogil:
    """Phase 3 is over: dice go back to their players."""
    clear_tracks(s)
    s.rpos = 0
    s.budget = 0
    s.floor = 0
    if SCORING_ROUND[s.round]:
        s.phase = PH_FORUM
        s.ftrack = 0
        s.step = 0
        s.actor = s.order[0]
    else:
        cleanup(s)


cdef inline void score_forum(RPState *s, int t) noexcept nogil:
    cdef int pts[RP_MAXP]
    cdef int p
    for p in range(s.nplayers):
        pts[p] = rp_forum_points(s, p, t)
    for p in range(s.nplayers):
        add_capped(&s.vp_forum[p], pts[p], MAX_VP)


cdef inline void forum_next(RPState *s) noexcept nogil:
    s.step += 1
    if s.step >= s.nplayers:
        score_forum(s, s.ftrack)
        s.ftrack += 1
        s.step = 0
        if s.ftrack >= RP_NRES:
            s.ftrack = 0
            s.phase = PH_SHOW
            s.greko = 0
    s.actor = s.order[s.step]


cdef inline void show_next(RPState *s) noexcept nogil:
    s.step += 1
    if s.step >= s.nplayers:
        reveal_shows(s)
        return
    s.actor = s.order[s.step]


cdef inline void reveal_shows(RPState *s) noexcept nogil:
    """All shows are revealed together and scored; their cards leave the game."""
    cdef int p, vp, rank, cost, best = -1, best_rank = -1, best_cost = -1, tied = 0
    for p in range(s.nplayers):
        vp = rp_show_vp(s, p, &rank, &cost)
        add_capped(&s.vp_arena[p], vp, MAX_VP)
        if rank < 0:
            continue
        if rank > best_rank or (rank == best_rank and cost > best_cost):
            best, best_rank, best_cost, tied = p, rank, cost, 0
        elif rank == best_rank and cost == best_cost:
            tied = 1
    if best >= 0 and not tied:
        add_capped(&s.vp_arena[best], BEST_SHOW_BONUS, MAX_VP)
    for p in range(s.nplayers):
        s.a_pub &= ~s.a_show[p]
        s.a_show[p] = 0
    s.step = 0
    if s.round >= ROUNDS:
        s.phase = PH_OVER
        s.greko = 0
    else:
        cleanup(s)


cdef inline void cleanup(RPState *s) noexcept nogil:
    """Phase 5: the rows leave the game, cards and provinces are refreshed."""
    s.p_row = 0
    s.s_row = 0
    s.a_row = 0
    s.p_exh = 0
    s.s_exh = 0
    s.greko = 0
    memset(s.mil_bonus, 0, sizeof(s.mil_bonus))
    memset(s.coin_bonus, 0, sizeof(s.coin_bonus))
    s.round += 1
    s.step = 0
    s.turn = 0
    begin_round(s)


cdef inline void begin_activation(RPState *s, int c, int ret) noexcept nogil:
    s.s_exh |= 1u << c
    s.card = c
    s.ret = ret
    s.prov_left = S_NSYM[c]
    s.prov_first = RP_NONE
    s.target = s.actor
    s.phase = PH_PROVINCE


cdef inline void finish_activation(RPState *s) noexcept nogil:
    s.phase = s.ret
    s.ret = 0
    s.card = RP_NONE
    s.prov_left = 0
    s.prov_first = RP_NONE
    s.target = RP_NONE
    s.marks = 0
    s.mark_floor = 0
    s.passes = 0
    s.optional = 0
    s.die = 0
    s.rr_pos = RP_NONE


cdef inline void run_ability(RPState *s) noexcept nogil:
    """The card lies on its province(s): its effect, or the first of its own choices."""
    cdef int c = s.card, p = s.actor, ab = S_AB[c], r
    if ab == AB_MILITARY_BONUS:
        add_capped(&s.mil_bonus[p], S_AMOUNT[c], MAX_BONUS)
    elif ab == AB_COIN_BONUS:
        add_capped(&s.coin_bonus[p], S_AMOUNT[c], MAX_BONUS)
    elif ab == AB_REROLL_PLACED_MILITARY or ab == AB_LOWER_PLACED:
        s.phase = PH_PICK_PLACED
        return
    elif ab == AB_REROLL_UNPLACED:
        s.marks = 0
        s.mark_floor = 1
        s.passes = S_AMOUNT[c] - 1
        s.optional = 0
        s.phase = PH_MARK
        return
    elif ab == AB_INVERT or ab == AB_SHIFT:
        s.phase = PH_PICK_DIE
        return
    elif ab == AB_CONSUL:
        s.consul = 1
    elif ab == AB_TURN_ORDER_SELF:
        s.adj[p] -= S_AMOUNT[c]
    elif ab == AB_TURN_ORDER_OTHER or ab == AB_REROLL_ANY or ab == AB_STEAL:
        s.phase = PH_TARGET
        return
    elif ab == AB_DISCARD_PROVINCE:
        s.phase = PH_DISCARD
        return
    elif ab == AB_FORUM_MOVE:
        r = S_RES[c]
        if s.forum[p][r] < FORUM_MAX:
            s.forum[p][r] += 1
    elif ab == AB_SHOW_BONUS:
        s.greko |= 1 << p
    finish_activation(s)


cdef inline void after_reroll(RPState *s) noexcept nogil:
    if s.marks:
        return
    if s.passes:
        s.passes -= 1
        s.optional = 1
        s.mark_floor = 1
        s.phase = PH_MARK
        return
    finish_activation(s)


cdef inline void step_deal(RPState *s, int32_t a) noexcept nogil:
    """A card dealt to its row (a province, the lowest of identical Senate cards, the
    lowest of an Arena type); once the rows are full the dice are rolled."""
    cdef int k = rp_chance_kind(s), c
    cdef uint32_t bit
    if k == DEAL_PROVINCE:
        bit = 1u << (a - CH_PROVINCE)
        s.p_deck &= ~bit
        s.p_row |= bit
    elif k == DEAL_SENATE:
        c = a - CH_SENATE
        bit = lowest_in(era_pool(s.s_deck, S_ERA_MASK), S_TWINS[c])
        s.s_deck &= ~bit
        s.s_row |= bit
    else:
        bit = lowest_in(s.a_deck, AT_MASK[a - CH_ARENA])
        s.a_deck &= ~bit
        s.a_row |= bit
    if rp_chance_kind(s) == DEAL_DONE:
        begin_roll(s)


cdef inline void step_roll(RPState *s, int32_t a) noexcept nogil:
    """One Power Die rolled for the seat whose dice are being rolled."""
    s.dice[s.step // RP_DICE][a - CH_DIE + 1] += 1
    s.step += 1
    if s.step >= RP_DICE * s.nplayers:
        s.step = 0
        begin_tribunus(s)


cdef inline void step_done(RPState *s, int ph) noexcept nogil:
    """A_DONE in a turn phase: the next Tribunus seat, forum seat, show or turn."""
    if ph == PH_TRIBUNUS:
        s.step += 1
        if s.step >= s.nplayers:
            s.step = 0
            begin_order(s)
        else:
            s.actor = s.order[s.step]
    elif ph == PH_FORUM:
        forum_next(s)
    elif ph == PH_SHOW:
        show_next(s)
    else:
        next_turn(s)


cdef inline void step_turn(RPState *s, int ph, int32_t a) noexcept nogil:
    """A turn phase's decision: done, a card activated, a die placed or a card shown."""
    cdef int p = s.actor, t
    cdef uint32_t bit
    if a == A_DONE:
        step_done(s, ph)
    elif A_ACTIVATE <= a < A_PROVINCE:
        begin_activation(s, a - A_ACTIVATE, ph)
    elif a < A_DONE:
        t = (a - A_PLACE) // RP_FACES
        place_die(s, p, t, a - A_PLACE - t * RP_FACES + 1)
        s.consul = 0
        s.phase = PH_AFTER
    else:  # A_SHOW: the copy every player knows goes first, so no knowledge is lost
        t = a - A_SHOW
        bit = lowest_in(s.a_hand[p] & s.a_pub, AT_MASK[t])
        if not bit:
            bit = lowest_in(s.a_hand[p], AT_MASK[t])
        s.a_hand[p] &= ~bit
        s.a_show[p] |= bit


cdef inline void step_province(RPState *s, int32_t a) noexcept nogil:
    """A province exhausted to pay for an activation; the last one runs the ability."""
    cdef int k = a - A_PROVINCE
    s.p_exh |= 1u << k
    s.prov_first = k
    s.prov_left -= 1
    if s.prov_left == 0:
        run_ability(s)


cdef inline void step_mark(RPState *s, int32_t a) noexcept nogil:
    """A die marked for a reroll, or done: the marked dice are rerolled."""
    cdef int v
    if a == A_DONE:
        if s.marks:
            s.rr_pos = RP_NONE
            s.phase = PH_REROLL
        else:
            finish_activation(s)
    else:
        v = a - A_DIE
        s.dice[s.target][v] -= 1
        s.marks += 1
        s.mark_floor = v


cdef inline void step_reroll(RPState *s, int32_t a) noexcept nogil:
    """A rerolled die's new face, in the pool or in its placed group."""
    cdef int v = a - CH_DIE + 1
    cdef RPGroup *g
    if s.rr_pos == RP_NONE:
        s.dice[s.target][v] += 1
    else:
        g = &s.grp[s.rr_pos // RP_DICE][s.target]
        g.d[s.rr_pos % RP_DICE] = v
        canonical(g)
    s.marks -= 1
    after_reroll(s)


cdef inline void step_pick_die(RPState *s, int32_t a) noexcept nogil:
    """The die an ability works on: inverted, shifted next, or rerolled."""
    cdef int v = a - A_DIE
    cdef int ab = S_AB[s.card]
    if ab == AB_INVERT:
        s.dice[s.target][v] -= 1
        s.dice[s.target][RP_FACES + 1 - v] += 1
        finish_activation(s)
    elif ab == AB_SHIFT:
        s.die = v
        s.phase = PH_SHIFT
    else:  # AB_REROLL_ANY
        s.dice[s.target][v] -= 1
        s.marks = 1
        s.passes = 0
        s.rr_pos = RP_NONE
        s.phase = PH_REROLL


cdef inline void step_shift(RPState *s, int32_t a) noexcept nogil:
    """The chosen die one face up (A_PLUS) or down, wrapping around."""
    cdef int v = s.die
    s.dice[s.target][v] -= 1
    s.dice[s.target][v % RP_FACES + 1 if a == A_PLUS else (v + RP_FACES - 2) % RP_FACES + 1] += 1
    finish_activation(s)


cdef inline void step_pick_placed(RPState *s, int32_t a) noexcept nogil:
    """A placed die lowered, or picked for a reroll."""
    cdef int k = a - A_PLACED
    if S_AB[s.card] == AB_LOWER_PLACED:
        lower_die(s, s.actor, k // RP_DICE, k % RP_DICE)
        finish_activation(s)
    else:
        s.rr_pos = k
        s.marks = 1
        s.passes = 0
        s.phase = PH_REROLL


cdef inline void step_target(RPState *s, int32_t a) noexcept nogil:
    """The player an ability targets: turn order moved, dice to pick, or a resource stolen."""
    cdef int p = s.actor, q = a - A_PLAYER, c = s.card, t
    cdef int ab = S_AB[c]
    if ab == AB_TURN_ORDER_OTHER:
        s.adj[q] += S_AMOUNT[c]
        finish_activation(s)
    elif ab == AB_REROLL_ANY:
        s.target = q
        s.phase = PH_PICK_DIE
    else:  # AB_STEAL
        t = S_RES[c]
        if s.forum[p][t] < FORUM_MAX:
            s.forum[p][t] += 1
        s.forum[q][t] -= 1
        finish_activation(s)


cdef inline void step_discard(RPState *s, int32_t a) noexcept nogil:
    """A Senate card discarded; a province to remove is chosen next."""
    cdef uint32_t bit = 1u << (a - A_SENATE)
    s.s_own[s.actor] &= ~bit
    s.s_exh &= ~bit
    s.phase = PH_TARGET_PROV


cdef inline void step_target_prov(RPState *s, int32_t a) noexcept nogil:
    """A province removed from its owner, with its forum resource."""
    cdef int k = a - A_PROVINCE, q
    cdef uint32_t bit = 1u << k
    for q in range(s.nplayers):
        if s.p_own[q] & bit:
            s.p_own[q] &= ~bit
            if s.forum[q][P_RES[k]]:
                s.forum[q][P_RES[k]] -= 1
    s.p_exh &= ~bit
    finish_activation(s)


cdef inline void step_military(RPState *s, int32_t a) noexcept nogil:
    """A province conquered from the row within the budget, or done."""
    cdef int p = s.actor, k
    if a == A_DONE:
        s.rpos += 1
        military_setup(s)
        return
    k = a - A_PROVINCE
    s.p_row &= ~(1u << k)
    s.p_own[p] |= 1u << k
    if s.forum[p][P_RES[k]] < FORUM_MAX:
        s.forum[p][P_RES[k]] += 1
    s.budget -= P_POWER[k]
    s.floor = k + 1


cdef inline void step_senate(RPState *s, int32_t a) noexcept nogil:
    """A Senate card taken from the row; after the last pick the next seat's turn."""
    cdef uint32_t bit = 1u << (a - A_SENATE)
    s.s_row &= ~bit
    s.s_own[s.actor] |= bit
    s.picks -= 1
    if s.picks == 0 or not s.s_row:
        s.rpos += 1
        senate_setup(s)


cdef inline void step_market(RPState *s, int32_t a) noexcept nogil:
    """An Arena card bought from the row, a face-down draw paid for, or done."""
    cdef int p = s.actor, t
    cdef uint32_t bit
    if a == A_DONE:
        s.rpos += 1
        market_setup(s)
    elif a == A_DRAW:
        s.budget -= FACE_DOWN_COST
        s.phase = PH_DRAW
    else:
        t = a - A_BUY
        bit = lowest_in(s.a_row, AT_MASK[t])
        s.a_row &= ~bit
        s.a_hand[p] |= bit
        s.a_pub |= bit
        s.budget -= AT_COST[t]
        s.floor = t


cdef inline void step_draw(RPState *s, int32_t a) noexcept nogil:
    """The face-down Arena card drawn, known to its owner only."""
    cdef uint32_t bit = lowest_in(s.a_deck, AT_MASK[a - CH_ARENA])
    s.a_deck &= ~bit
    s.a_hand[s.actor] |= bit  # known to its owner only
    s.phase = PH_MARKET


cdef void rp_step(RPState *s, int32_t a) noexcept nogil:
    """One decision or chance outcome and its direct effects; no forced steps."""
    cdef int ph = s.phase
    if ph == PH_DEAL:
        step_deal(s, a)
    elif ph == PH_ROLL:
        step_roll(s, a)
    elif ph == PH_TRIBUNUS or ph == PH_FORUM or ph == PH_AFTER or ph == PH_PLACE or ph == PH_SHOW:
        step_turn(s, ph, a)
    elif ph == PH_ORDER:
        s.nord[s.nord_n] = a - CH_SEAT
        s.nord_n += 1
        order_step(s)
    elif ph == PH_PROVINCE:
        step_province(s, a)
    elif ph == PH_MARK:
        step_mark(s, a)
    elif ph == PH_REROLL:
        step_reroll(s, a)
    elif ph == PH_PICK_DIE:
        step_pick_die(s, a)
    elif ph == PH_SHIFT:
        step_shift(s, a)
    elif ph == PH_PICK_PLACED:
        step_pick_placed(s, a)
    elif ph == PH_TARGET:
        step_target(s, a)
    elif ph == PH_DISCARD:
        step_discard(s, a)
    elif ph == PH_TARGET_PROV:
        step_target_prov(s, a)
    elif ph == PH_MILITARY:
        step_military(s, a)
    elif ph == PH_SENATE:
        step_senate(s, a)
    elif ph == PH_MARKET:
        step_market(s, a)
    elif ph == PH_DRAW:
        step_draw(s, a)


cdef enum:
    OPEN = -1        # two or more legal actions (or the game is over)
    UNKNOWN = -2     # look at the legal list


cdef inline int32_t quick_forced(const RPState *s) noexcept nogil:
    """The forced action of a state with a single legal action, OPEN when there are
    more, or UNKNOWN: quick answers for the common phases of a game."""
    cdef int ph = s.phase, p = s.actor, t, k
    cdef uint32_t m
    if ph == PH_ROLL or ph == PH_REROLL or ph == PH_OVER:
        return OPEN  # a die always has six outcomes
    if ph == PH_PLACE:
        if s.consul:
            return UNKNOWN
        m = face_mask(s, p)
        k = (rc_popcount32(track_faces(s, p, 0) & m) + rc_popcount32(track_faces(s, p, 1) & m)
             + rc_popcount32(track_faces(s, p, 2) & m))
        return OPEN if k >= 2 else UNKNOWN
    if ph == PH_AFTER or ph == PH_TRIBUNUS or ph == PH_FORUM:
        k = CTX_AFTER if ph == PH_AFTER else CTX_TRIBUNUS if ph == PH_TRIBUNUS else CTX_FORUM
        if s.s_own[p] & ~s.s_exh & S_CTX_MASK[k]:
            return UNKNOWN
        return A_DONE  # no card to activate: done
    if ph == PH_SHOW:
        k = rc_popcount32(s.a_show[p])
        if k == 0 and rc_popcount32(s.a_hand[p]) < SHOW_MIN:
            return A_DONE  # no show possible
        return UNKNOWN
    if ph == PH_DEAL:
        k = rp_chance_kind(s)
        if k == DEAL_PROVINCE:
            return OPEN if rc_popcount32(era_pool(s.p_deck, P_ERA_MASK)) >= 2 else UNKNOWN
        if k == DEAL_SENATE:
            m = era_pool(s.s_deck, S_ERA_MASK)
            return OPEN if m & ~S_TWINS[rc_lsb32(m)] else UNKNOWN
        m = s.a_deck
        return OPEN if m & ~AT_MASK[A_TYPE[rc_lsb32(m)]] else UNKNOWN
    if ph == PH_SENATE:
        m = s.s_row
        return OPEN if m & ~S_TWINS[rc_lsb32(m)] else UNKNOWN
    if ph == PH_MARKET:  # done, and a purchase
        if s.budget >= FACE_DOWN_COST and s.a_deck:
            return OPEN
        for t in range(s.floor, RP_NATYPES):
            if s.a_row & AT_MASK[t] and AT_COST[t] <= s.budget:
                return OPEN
        return A_DONE
    if ph == PH_MILITARY:  # done, and a conquest
        if rc_popcount32(s.p_own[p]) >= ARCHES:
            return A_DONE
        m = s.p_row & ~((1u << s.floor) - 1)
        while m:
            if P_POWER[rc_pop_lsb32(&m)] <= s.budget:
                return OPEN
        return A_DONE
    return UNKNOWN


cdef void rp_forced(RPState *s) noexcept nogil:
    """Takes every step with a single legal action (chance included) until a player or
    chance has a real choice or the game ends; each step moves the game on, so a game's
    length bounds the loop."""
    cdef int32_t buf[RP_MAXLEGAL]
    cdef int _guard
    cdef int32_t f
    for _guard in range(RP_MAX_GAME_LENGTH):
        f = quick_forced(s)
        if f == OPEN:
            return
        if f == UNKNOWN:
            if rp_legal(s, buf) != 1:
                return
            f = buf[0]
        rp_step(s, f)


# =======================================================================================
# Interface: the rc_kernel functions, in the table's order

cdef void rp_init(void *vs, const int32_t *params) noexcept nogil:
    cdef RPState *s = <RPState *>vs
    cdef int n = params[0], p
    if n < RP_MINP or n > RP_MAXP:
        n = RP_MAXP
    memset(s, 0, sizeof(RPState))
    s.nplayers = n
    s.intrigue = params[1] & RP_INTRIGUE_ALL
    s.round = 1
    s.a_deck = ARENA_ALL
    s.s_deck = S_GAME[n][s.intrigue]
    s.p_deck = P_GAME[n]
    for p in range(RP_MAXP):
        s.order[p] = p if p < n else RP_NONE
        s.nord[p] = RP_NONE
    clear_tracks(s)
    s.card = RP_NONE
    s.prov_first = RP_NONE
    s.target = RP_NONE
    s.rr_pos = RP_NONE
    s.phase = PH_DEAL


cdef int rp_num_players(const void *vs) noexcept nogil:
    return (<const RPState *>vs).nplayers


cdef int rp_current_player(const void *vs) noexcept nogil:
    cdef const RPState *s = <const RPState *>vs
    cdef int ph = s.phase
    if ph == PH_OVER:
        return RC_TERMINAL
    if ph == PH_DEAL or ph == PH_ROLL or ph == PH_ORDER or ph == PH_REROLL or ph == PH_DRAW:
        return RC_CHANCE
    return s.actor


cdef inline int legal_place(const RPState *s, int32_t *out) noexcept nogil:
    """Each die face on each track it may go to (or a pass), and the activations."""
    cdef int p = s.actor, n = 0, t
    cdef uint32_t m, avail = face_mask(s, p)
    for t in range(RP_NTRACKS):
        m = track_faces(s, p, t) & avail
        while m:
            out[n] = A_PLACE + t * RP_FACES + rc_pop_lsb32(&m) - 1
            n += 1
    if n == 0:
        out[0] = A_DONE  # no die can be placed: pass
        n = 1
    return add_activations(s, p, CTX_PLACE, out, n)


cdef inline int legal_show(const RPState *s, int32_t *out) noexcept nogil:
    """Done (with no show or a full one), the activations, and each Arena type to show."""
    cdef int p = s.actor, n = 0, t
    cdef int k = rc_popcount32(s.a_show[p])
    if k == 0 or k >= SHOW_MIN:
        out[n] = A_DONE
        n += 1
    n = add_activations(s, p, CTX_SHOW, out, n)
    if k + rc_popcount32(s.a_hand[p]) >= SHOW_MIN:
        for t in range(RP_NATYPES):
            if s.a_hand[p] & AT_MASK[t]:
                out[n] = A_SHOW + t
                n += 1
    return n


cdef inline int legal_province(const RPState *s, int32_t *out) noexcept nogil:
    """Provinces to exhaust for an activation, in increasing id order."""
    cdef int n = 0, k
    cdef uint32_t m, avail = prov_avail(s, s.actor, s.card)
    if s.prov_first != RP_NONE:
        avail &= ~((2u << s.prov_first) - 1)
    m = avail
    while m:
        k = rc_pop_lsb32(&m)
        if s.prov_left >= 2 and not (avail >> (k + 1)):
            break  # a second province must follow with a higher id
        out[n] = A_PROVINCE + k
        n += 1
    return n


cdef inline int legal_dice(const RPState *s, int lowest, int32_t *out, int n) noexcept nogil:
    """The target's pool dice from face lowest on, after out[0 .. n - 1]."""
    cdef int v
    for v in range(lowest, RP_FACES + 1):
        if s.dice[s.target][v]:
            out[n] = A_DIE + v
            n += 1
    return n


cdef inline int legal_mark(const RPState *s, int32_t *out) noexcept nogil:
    """Done (where allowed) and each die to mark for a reroll, from mark_floor up."""
    cdef int n = 0
    if s.marks or s.optional:
        out[n] = A_DONE
        n += 1
    return legal_dice(s, s.mark_floor, out, n)


cdef inline int legal_pick_placed(const RPState *s, int32_t *out) noexcept nogil:
    """The placed dice an ability may lower or reroll (equal middle dice once)."""
    cdef int p = s.actor, n = 0, t, k
    cdef int ab = S_AB[s.card]
    cdef const RPGroup *g
    for t in range(RP_NTRACKS):
        if ab == AB_REROLL_PLACED_MILITARY and t != T_MILITARY:
            break
        g = &s.grp[t][p]
        for k in range(g.n):
            if ab == AB_LOWER_PLACED and g.d[k] == 0:
                continue
            if 1 < k < g.n - 1 and g.d[k] == g.d[k - 1]:
                continue  # equal middle dice are interchangeable
            out[n] = A_PLACED + t * RP_DICE + k
            n += 1
    return n


cdef inline int legal_target(const RPState *s, int32_t *out) noexcept nogil:
    """The players the activated card may target."""
    cdef int n = 0, q
    for q in range(s.nplayers):
        if target_ok(s, s.card, s.actor, q):
            out[n] = A_PLAYER + q
            n += 1
    return n


cdef inline int legal_discard(const RPState *s, int32_t *out) noexcept nogil:
    """Own Senate cards to discard, one of each identical and equally exhausted kind."""
    cdef int p = s.actor, n = 0, c
    cdef uint32_t m = s.s_own[p], avail
    while m:
        c = rc_pop_lsb32(&m)
        avail = s.s_own[p] & S_TWIN_LOWER[c]
        avail &= s.s_exh if (s.s_exh >> c) & 1 else ~s.s_exh
        if avail:
            continue
        out[n] = A_SENATE + c
        n += 1
    return n


cdef inline int legal_bits(uint32_t m, int32_t base, int32_t *out, int n) noexcept nogil:
    """base + each member of m, after out[0 .. n - 1]."""
    while m:
        out[n] = base + rc_pop_lsb32(&m)
        n += 1
    return n


cdef inline int legal_military(const RPState *s, int32_t *out) noexcept nogil:
    """Done, and the provinces in the row from floor on within the budget."""
    cdef int p = s.actor, n = 0, k
    cdef uint32_t m
    out[n] = A_DONE
    n += 1
    if rc_popcount32(s.p_own[p]) < ARCHES:
        m = s.p_row & ~((1u << s.floor) - 1)
        while m:
            k = rc_pop_lsb32(&m)
            if P_POWER[k] <= s.budget:
                out[n] = A_PROVINCE + k
                n += 1
    return n


cdef inline int legal_senate(const RPState *s, int32_t *out) noexcept nogil:
    """The Senate row's cards, one of each identical pair."""
    cdef int n = 0, c
    cdef uint32_t m = s.s_row
    while m:
        c = rc_pop_lsb32(&m)
        if s.s_row & S_TWIN_LOWER[c]:
            continue
        out[n] = A_SENATE + c
        n += 1
    return n


cdef inline int legal_market(const RPState *s, int32_t *out) noexcept nogil:
    """Done, the Arena types in the row from floor on within the budget, a face-down draw."""
    cdef int n = 0, t
    out[n] = A_DONE
    n += 1
    for t in range(s.floor, RP_NATYPES):
        if s.a_row & AT_MASK[t] and AT_COST[t] <= s.budget:
            out[n] = A_BUY + t
            n += 1
    if s.budget >= FACE_DOWN_COST and s.a_deck:
        out[n] = A_DRAW
        n += 1
    return n


cdef inline int legal_done_then(const RPState *s, int ctx, int32_t *out) noexcept nogil:
    """Done, then the activations of context ctx."""
    out[0] = A_DONE
    return add_activations(s, s.actor, ctx, out, 1)


cdef int rp_legal(const void *vs, int32_t *out) noexcept nogil:
    cdef const RPState *s = <const RPState *>vs
    cdef double probs[RP_MAXLEGAL]
    cdef int ph = s.phase
    if ph == PH_OVER:
        return 0
    if ph == PH_DEAL or ph == PH_ROLL or ph == PH_ORDER or ph == PH_REROLL or ph == PH_DRAW:
        return rp_chance_outcomes(vs, out, probs)
    if ph == PH_PLACE:
        return legal_place(s, out)
    if ph == PH_AFTER:
        return legal_done_then(s, CTX_AFTER, out)
    if ph == PH_TRIBUNUS:
        return legal_done_then(s, CTX_TRIBUNUS, out)
    if ph == PH_FORUM:
        return legal_done_then(s, CTX_FORUM, out)
    if ph == PH_SHOW:
        return legal_show(s, out)
    if ph == PH_PROVINCE:
        return legal_province(s, out)
    if ph == PH_MARK:
        return legal_mark(s, out)
    if ph == PH_PICK_DIE:
        return legal_dice(s, 1, out, 0)
    if ph == PH_SHIFT:
        out[0] = A_PLUS
        out[1] = A_MINUS
        return 2
    if ph == PH_PICK_PLACED:
        return legal_pick_placed(s, out)
    if ph == PH_TARGET:
        return legal_target(s, out)
    if ph == PH_DISCARD:
        return legal_discard(s, out)
    if ph == PH_TARGET_PROV:
        return legal_bits(owned_provinces(s) & P_ERA_MASK[DISCARD_ERA - 1], A_PROVINCE, out, 0)
    if ph == PH_MILITARY:
        return legal_military(s, out)
    if ph == PH_SENATE:
        return legal_senate(s, out)
    if ph == PH_MARKET:
        return legal_market(s, out)
    return 0


cdef int rp_chance_outcomes(const void *vs, int32_t *acts, double *probs) noexcept nogil:
    cdef const RPState *s = <const RPState *>vs
    cdef int ph = s.phase, n = 0, k, t, total, c
    cdef uint32_t pool, m, cands
    if ph == PH_ROLL or ph == PH_REROLL:
        for k in range(RP_FACES):
            acts[k] = CH_DIE + k
            probs[k] = 1.0 / RP_FACES
        return RP_FACES
    if ph == PH_ORDER:
        k = order_candidates(s, &cands)
        while cands:
            acts[n] = CH_SEAT + rc_pop_lsb32(&cands)
            probs[n] = 1.0 / k
            n += 1
        return n
    k = DEAL_ARENA if ph == PH_DRAW else rp_chance_kind(s)
    if k == DEAL_PROVINCE:
        pool = era_pool(s.p_deck, P_ERA_MASK)
        total = rc_popcount32(pool)
        while pool:
            acts[n] = CH_PROVINCE + rc_pop_lsb32(&pool)
            probs[n] = 1.0 / total
            n += 1
        return n
    if k == DEAL_SENATE:
        pool = era_pool(s.s_deck, S_ERA_MASK)
        total = rc_popcount32(pool)
        m = pool
        while m:
            c = rc_pop_lsb32(&m)
            if pool & S_TWIN_LOWER[c]:
                continue
            acts[n] = CH_SENATE + c
            probs[n] = rc_popcount32(pool & S_TWINS[c]) / <double>total
            n += 1
        return n
    if k == DEAL_ARENA:
        total = rc_popcount32(s.a_deck)
        for t in range(RP_NATYPES):
            c = rc_popcount32(s.a_deck & AT_MASK[t])
            if c:
                acts[n] = CH_ARENA + t
                probs[n] = c / <double>total
                n += 1
        return n
    return 0


cdef int32_t rp_sample_chance(const void *vs, rc_rng *rng) noexcept nogil:
    cdef const RPState *s = <const RPState *>vs
    cdef int ph = s.phase, k, c, kind
    cdef uint32_t pool, cands
    if ph == PH_ROLL or ph == PH_REROLL:
        return CH_DIE + <int32_t>rc_rng_below(rng, RP_FACES)
    if ph == PH_ORDER:
        k = order_candidates(s, &cands)
        return CH_SEAT + rc_nth_bit64(cands, rc_rng_below(rng, k))
    kind = DEAL_ARENA if ph == PH_DRAW else rp_chance_kind(s)
    if kind == DEAL_PROVINCE:
        pool = era_pool(s.p_deck, P_ERA_MASK)
    elif kind == DEAL_SENATE:
        pool = era_pool(s.s_deck, S_ERA_MASK)
    else:
        pool = s.a_deck
    c = rc_nth_bit64(pool, rc_rng_below(rng, rc_popcount32(pool)))
    if kind == DEAL_PROVINCE:
        return CH_PROVINCE + c
    if kind == DEAL_SENATE:
        return CH_SENATE + rc_lsb32(pool & S_TWINS[c])  # the lowest identical card left
    return CH_ARENA + A_TYPE[c]


cdef void rp_apply(void *vs, int32_t a) noexcept nogil:
    """Applies a legal action, then every step that has a single legal action."""
    rp_step(<RPState *>vs, a)
    rp_forced(<RPState *>vs)


cdef void rp_returns(const void *vs, double *out) noexcept nogil:
    """Winners (most VP, then most provinces, then the costliest Arena hand) share 1.0."""
    cdef const RPState *s = <const RPState *>vs
    cdef int32_t sc[SC_N]
    cdef int64_t key[RP_MAXP]
    cdef int p
    for p in range(s.nplayers):
        rp_score(s, p, sc)
        key[p] = (<int64_t>sc[SC_TOTAL] << 32) + (<int64_t>rc_popcount32(s.p_own[p]) << 16) + rp_hand_cost(s, p)
    rc_share_wins(key, s.nplayers, out)


cdef void rp_scores(const void *vs, int32_t *out) noexcept nogil:
    """Each player's total as final scoring would count it now."""
    cdef const RPState *s = <const RPState *>vs
    cdef int32_t sc[SC_N]
    cdef int p
    for p in range(s.nplayers):
        rp_score(s, p, sc)
        out[p] = sc[SC_TOTAL]


cdef void rp_resample(void *vs, int p, rc_rng *rng) noexcept nogil:
    """Redraws every Arena card p cannot identify: the deck and the face-down cards in the
    other players' hands and shows form one class whose identities are shuffled over
    their places; then each other player's prepared show is redrawn from their cards
    (p sees only its size).  Everything else is public."""
    cdef RPState *s = <RPState *>vs
    cdef uint8_t ids[RP_NARENA]
    cdef uint32_t cls = s.a_deck, hid, held, show, m
    cdef int n = 0, _i, q, k, cnt
    for q in range(s.nplayers):
        if q != p:
            cls |= (s.a_hand[q] | s.a_show[q]) & ~s.a_pub
    m = cls
    while m:
        ids[n] = rc_pop_lsb32(&m)
        n += 1
    rc_shuffle_u8(ids, n, rng)
    k = 0
    cnt = rc_popcount32(s.a_deck)
    s.a_deck = 0
    for _i in range(cnt):
        s.a_deck |= 1u << ids[k]
        k += 1
    for q in range(s.nplayers):
        if q == p:
            continue
        held = s.a_hand[q] | s.a_show[q]
        hid = held & ~s.a_pub
        held &= s.a_pub
        for _i in range(rc_popcount32(hid)):
            held |= 1u << ids[k]
            k += 1
        cnt = rc_popcount32(s.a_show[q])
        show = 0
        m = held
        for _i in range(cnt):
            hid = 1u << rc_nth_bit64(m, rc_rng_below(rng, rc_popcount32(m)))
            show |= hid
            m &= ~hid
        s.a_show[q] = show
        s.a_hand[q] = held & ~show


cdef enum:   # what others see of a hidden step (observe_action): RC_HIDDEN | SEEN_*
    SEEN_SHOW = 1            # a card joins the show, face down
    SEEN_DRAW = 2            # a face-down Arena card drawn


cdef uint32_t rp_observe_action(const void *vs, int observer, int32_t a) noexcept nogil:
    cdef const RPState *s = <const RPState *>vs
    if observer == s.actor:
        return <uint32_t>a
    if s.phase == PH_SHOW and A_SHOW <= a < A_SHOW + RP_NATYPES:
        return RC_HIDDEN | SEEN_SHOW
    if s.phase == PH_DRAW:
        return RC_HIDDEN | SEEN_DRAW
    return <uint32_t>a


cdef int32_t rp_tensor_size(const int32_t *params) noexcept nogil:
    """A common block, then one per-player block per seat (params[0] = players)."""
    return RP_TENSOR_COMMON + params[0] * RP_TENSOR_PER_PLAYER


cdef inline void arena_counts(float *out, uint32_t cards) noexcept nogil:
    """Arena cards by type, each divided by O_ARENA_COPIES."""
    while cards:
        out[A_TYPE[rc_pop_lsb32(&cards)]] += 1.0 / O_ARENA_COPIES


cdef inline void senate_counts(float *out, uint32_t cards) noexcept nogil:
    """Senate cards by the lowest id of identical cards, each divided by O_SENATE_COPIES."""
    while cards:
        out[S_CANON[rc_pop_lsb32(&cards)]] += 1.0 / O_SENATE_COPIES


cdef inline void flags(float *out, uint32_t bits, int nbits) noexcept nogil:
    cdef int i
    for i in range(nbits):
        out[i] = (bits >> i) & 1


cdef inline float *seat_block(float *out, int q, int p, int n) noexcept nogil:
    """Seat q's block in p's tensor: (q - p) mod n."""
    return out + RP_TENSOR_COMMON + (q - p + n) % n * RP_TENSOR_PER_PLAYER


cdef inline void tensor_cards(const RPState *s, int p, float *out) noexcept nogil:
    """The common block's round, rows, decks, exhausted cards and p's own Arena cards."""
    cdef int ph = s.phase
    out[O_PHASE + (ph if ph < RP_NPHASES else PH_OVER)] = 1.0
    if 1 <= s.round <= RP_ROUNDS:
        out[O_ROUND + s.round - 1] = 1.0
    out[O_TURN] = <float>s.turn / (RP_MAXP * RP_DICE)
    out[O_STEP] = <float>s.step / (RP_MAXP * RP_DICE)
    out[O_CONSUL] = s.consul != 0
    flags(out + O_INTRIGUE, s.intrigue, RP_NINTRIGUE)
    flags(out + O_ROW_PROV, s.p_row, RP_NPROV)
    senate_counts(out + O_ROW_SENATE, s.s_row)
    arena_counts(out + O_ROW_ARENA, s.a_row)
    flags(out + O_DECK_PROV, s.p_deck, RP_NPROV)
    senate_counts(out + O_DECK_SENATE, s.s_deck)
    out[O_DECK_ARENA] = <float>rc_popcount32(s.a_deck) / RP_NARENA
    flags(out + O_EXH_PROV, s.p_exh, RP_NPROV)
    flags(out + O_EXH_SENATE, s.s_exh, RP_NSENATE)
    arena_counts(out + O_OWN_ARENA + OWN_HAND_PUBLIC * RP_NATYPES, s.a_hand[p] & s.a_pub)
    arena_counts(out + O_OWN_ARENA + OWN_HAND_HIDDEN * RP_NATYPES, s.a_hand[p] & ~s.a_pub)
    arena_counts(out + O_OWN_ARENA + OWN_SHOW_PUBLIC * RP_NATYPES, s.a_show[p] & s.a_pub)
    arena_counts(out + O_OWN_ARENA + OWN_SHOW_HIDDEN * RP_NATYPES, s.a_show[p] & ~s.a_pub)


cdef inline void tensor_activation(const RPState *s, int p, float *out) noexcept nogil:
    """An activation in progress: its card, return phase, provinces, counters, placed
    die and target; then the resolution's counters and forum track."""
    cdef int n = s.nplayers
    if PH_PROVINCE <= s.phase <= PH_TARGET_PROV:
        out[O_ACT] = 1.0
        if s.card < RP_NSENATE:
            out[O_ACT_CARD + s.card] = 1.0
        if s.ret < RP_NPHASES:
            out[O_ACT_RETURN + s.ret] = 1.0
        out[O_ACT_PROV_LEFT] = <float>s.prov_left / MAX_SYMBOLS
        if s.prov_first < RP_NPROV:
            out[O_ACT_FIRST + s.prov_first] = 1.0
        out[O_ACT_COUNTERS + ACT_MARKS] = <float>s.marks / RP_DICE
        out[O_ACT_COUNTERS + ACT_MARK_FLOOR] = <float>s.mark_floor / RP_FACES
        out[O_ACT_COUNTERS + ACT_PASSES] = s.passes != 0
        out[O_ACT_COUNTERS + ACT_OPTIONAL] = s.optional != 0
        out[O_ACT_COUNTERS + ACT_DIE] = <float>s.die / RP_FACES
        if s.rr_pos < RP_NTRACKS * RP_DICE:
            out[O_ACT_PLACED + s.rr_pos // RP_DICE] = 1.0
            out[O_ACT_PLACED + RP_NTRACKS + s.rr_pos % RP_DICE] = 1.0
        if s.target < n:
            seat_block(out, s.target, p, n)[PP_TARGET] = 1.0
    out[O_RESOLUTION + RES_SECTION] = <float>s.rpos / RP_MAXP
    out[O_RESOLUTION + RES_BUDGET] = <float>s.budget / MAX_BUDGET
    out[O_RESOLUTION + RES_FLOOR] = <float>s.floor / RP_NPROV
    out[O_RESOLUTION + RES_PICKS] = <float>s.picks / RP_DICE
    if s.ftrack < RP_NRES:
        out[O_FORUM_TRACK + s.ftrack] = 1.0


cdef inline void tensor_orders(const RPState *s, int p, float *out) noexcept nogil:
    """Each seat's place in the turn order and in the new order being drawn."""
    cdef int n = s.nplayers, k
    for k in range(n):
        if s.order[k] < n:
            seat_block(out, s.order[k], p, n)[PP_ORDER + k] = 1.0
        if k < s.nord_n and s.nord[k] < n:
            seat_block(out, s.nord[k], p, n)[PP_NEW_ORDER + k] = 1.0


cdef inline void tensor_tracks(const RPState *s, int q, float *pb) noexcept nogil:
    """Seat q's group on each track: its section and its dice."""
    cdef int t, k, v
    cdef const RPGroup *g
    for t in range(RP_NTRACKS):
        k = rp_group_index(s, t, q)
        if k < 0:
            continue
        pb[PP_TRACKS + t * RP_TRACK_SLICE + k] = 1.0
        g = &s.grp[t][q]
        for v in range(RP_DICE):
            if v < g.n and g.d[v] < RP_FACE_SLOTS:
                pb[PP_TRACKS + t * RP_TRACK_SLICE + RP_DICE + v * RP_FACE_SLOTS + g.d[v]] = 1.0


cdef inline uint32_t tensor_seat(const RPState *s, int q, int cur, float *pb) noexcept nogil:
    """Seat q's block; returns q's Arena cards (hand and show)."""
    cdef int k, v
    cdef uint32_t held = s.a_hand[q] | s.a_show[q]
    cdef int32_t sc[SC_N]
    pb[PP_ACTOR] = q == s.actor
    pb[PP_CURRENT] = q == cur
    pb[PP_SHOW_BONUS] = (s.greko >> q) & 1
    pb[PP_VP + VP_FORUM] = <float>s.vp_forum[q] / MAX_VP
    pb[PP_VP + VP_ARENA] = <float>s.vp_arena[q] / MAX_VP
    for k in range(RP_NRES):
        pb[PP_FORUM + k] = <float>s.forum[q][k] / FORUM_MAX
    pb[PP_BONUS + BONUS_MILITARY] = <float>s.mil_bonus[q] / MAX_BONUS
    pb[PP_BONUS + BONUS_COIN] = <float>s.coin_bonus[q] / MAX_BONUS
    pb[PP_TRIBUNUS] = <float>(s.adj[q] - MIN_ADJ) / (MAX_ADJ - MIN_ADJ)
    for v in range(RP_FACE_SLOTS):
        pb[PP_DICE + v] = <float>s.dice[q][v] / RP_DICE
    flags(pb + PP_PROVINCES, s.p_own[q], RP_NPROV)
    flags(pb + PP_SENATE, s.s_own[q], RP_NSENATE)
    arena_counts(pb + PP_ARENA_PUBLIC, held & s.a_pub)
    pb[PP_ARENA_HIDDEN] = <float>rc_popcount32(held & ~s.a_pub) / RP_NARENA
    pb[PP_SHOW_SIZE] = <float>rc_popcount32(s.a_show[q]) / RP_NARENA
    tensor_tracks(s, q, pb)
    rp_score(s, q, sc)
    pb[PP_SCORE] = 1.0 if sc[SC_TOTAL] >= O_SCORE_SCALE else <float>sc[SC_TOTAL] / O_SCORE_SCALE
    return held


cdef void rp_observation_tensor(const void *vs, int p, float *out) noexcept nogil:
    """What p knows (the package docstring's table): everything public, p's own Arena
    cards and show, and the others' face-down cards and shows as counts; seat-relative."""
    cdef const RPState *s = <const RPState *>vs
    cdef int n = s.nplayers, q, cur
    cdef uint32_t removed = ARENA_ALL
    memset(out, 0, sizeof(float) * (RP_TENSOR_COMMON + n * RP_TENSOR_PER_PLAYER))
    tensor_cards(s, p, out)
    tensor_activation(s, p, out)
    tensor_orders(s, p, out)
    cur = rp_current_player(s)
    for q in range(n):
        removed &= ~tensor_seat(s, q, cur, seat_block(out, q, p, n))
    arena_counts(out + O_REMOVED, removed & ~(s.a_deck | s.a_row))


# =======================================================================================
# Validation: a struct from outside, as a sequence of named checks

cdef inline bint ability_phase(int ph) noexcept nogil:
    return PH_PROVINCE <= ph <= PH_TARGET_PROV


cdef inline int effective_phase(const RPState *s) noexcept nogil:
    """The phase a state is in, seen through an activation (the phase it returns to)."""
    return s.ret if ability_phase(s.phase) else s.phase


cdef inline const char *check_header(const RPState *s) noexcept nogil:
    """Players, Intrigue set, round, phase, actor and an activation's return phase."""
    cdef int n = s.nplayers
    if n < RP_MINP or n > RP_MAXP:
        return "nplayers must be 2, 3 or 4"
    if s.intrigue > RP_INTRIGUE_ALL:
        return "intrigue mask out of range"
    if s.round < 1 or s.round > ROUNDS:
        return "round out of range"
    if s.phase > PH_OVER:
        return "unknown phase"
    if s.actor >= n:
        return "actor out of range"
    if ability_phase(s.phase) and s.ret != PH_TRIBUNUS and s.ret != PH_PLACE \
            and s.ret != PH_AFTER and s.ret != PH_FORUM and s.ret != PH_SHOW:
        return "activation return phase out of range"
    return NULL


cdef inline const char *check_decks(const RPState *s) noexcept nogil:
    """The two era-ordered decks hold exactly what the rounds have not dealt."""
    cdef int K = ROW_SIZE[s.nplayers]
    cdef int i, e, total, size, end, expect, dealt = K * (s.round - 1)
    cdef uint32_t m, row
    for i in range(2):
        m = s.p_deck if i == 0 else s.s_deck
        row = s.p_row if i == 0 else s.s_row
        total = dealt + (rc_popcount32(row) if s.phase == PH_DEAL else K)
        if s.phase == PH_OVER:
            total = K * ROUNDS
        end = 0
        for e in range(RP_NERAS):  # era e holds the cards of its rounds not dealt yet
            size = K * ERA_ROUNDS[e]
            end += size
            expect = end - total
            expect = 0 if expect < 0 else size if expect > size else expect
            if rc_popcount32(m & (P_ERA_MASK[e] if i == 0 else S_ERA_MASK[e])) != expect:
                return "a deck does not hold what the rounds have not dealt"
    if s.phase == PH_DEAL:
        if rc_popcount32(s.p_row) < K and (s.s_row or s.a_row):
            return "rows dealt out of order"
        if rc_popcount32(s.s_row) < K and s.a_row:
            return "rows dealt out of order"
    return NULL


cdef inline const char *check_cards(const RPState *s) noexcept nogil:
    """Every card in at most one zone, zones of unused seats empty."""
    cdef int n = s.nplayers, p, i, K = ROW_SIZE[n]
    cdef uint32_t all_s = S_GAME[n][s.intrigue], all_p = P_GAME[n], m, held = 0, owned = 0
    m = s.a_deck | s.a_row
    if s.a_deck & s.a_row or m & ~ARENA_ALL:
        return "Arena deck and row overlap"
    for p in range(RP_MAXP):
        if p >= n:
            if s.a_hand[p] or s.a_show[p] or s.s_own[p] or s.p_own[p] or s.vp_forum[p] \
                    or s.vp_arena[p] or s.mil_bonus[p] or s.coin_bonus[p] or s.adj[p]:
                return "an unused seat holds something"
            for i in range(RP_NRES):
                if s.forum[p][i]:
                    return "an unused seat holds something"
            for i in range(RP_DIE_SLOTS):
                if s.dice[p][i]:
                    return "an unused seat holds something"
            continue
        if (s.a_hand[p] | s.a_show[p]) & m or s.a_hand[p] & s.a_show[p] or \
                (s.a_hand[p] | s.a_show[p]) & ~ARENA_ALL:
            return "an Arena card is in two places"
        m |= s.a_hand[p] | s.a_show[p]
        held |= s.a_hand[p] | s.a_show[p]
    if s.a_pub & ~held:
        return "a public Arena card outside the hands"
    if rc_popcount32(s.a_row) > ARENA_ROW:
        return "Arena row too long"
    m = s.s_deck | s.s_row
    if s.s_deck & s.s_row or m & ~all_s:
        return "Senate deck and row overlap or hold a card not in this game"
    held = 0
    for p in range(n):
        if s.s_own[p] & m or s.s_own[p] & ~all_s:
            return "a Senate card is in two places"
        m |= s.s_own[p]
        held |= s.s_own[p]
    if s.s_exh & ~held:
        return "an exhausted Senate card nobody holds"
    m = s.p_deck | s.p_row
    if s.p_deck & s.p_row or m & ~all_p:
        return "province deck and row overlap or hold a province not in this game"
    for p in range(n):
        if s.p_own[p] & m or s.p_own[p] & ~all_p:
            return "a province is in two places"
        if rc_popcount32(s.p_own[p]) > ARCHES:
            return "a player holds more provinces than Arches"
        m |= s.p_own[p]
        owned |= s.p_own[p]
    if s.p_exh & ~owned:
        return "an exhausted province nobody holds"
    if rc_popcount32(s.p_row) > K or rc_popcount32(s.s_row) > K:
        return "row too long"
    return NULL


cdef inline const char *check_dice(const RPState *s) noexcept nogil:
    """Faces in range, tracks without gaps, four dice a player while they are in play."""
    cdef int n = s.nplayers, t, k, i, q, p, v, total, ep = effective_phase(s)
    cdef uint32_t seen
    cdef const RPGroup *g
    for p in range(RP_MAXP):
        for v in range(RP_FACES + 1, RP_DIE_SLOTS):
            if s.dice[p][v]:
                return "unplaced die with a face above 6"
        if s.dice[p][0]:
            return "unplaced die with face 0"
    for t in range(RP_NTRACKS):
        seen = 0
        k = rp_ngroups(s, t)
        for i in range(RP_MAXP):
            q = s.tord[t][i]
            if i < k:
                if q >= n or (seen >> q) & 1 or s.grp[t][q].n == 0:
                    return "track lists a seat twice, out of range or without dice"
                seen |= 1u << q
            elif q != RP_NONE:
                return "track has a gap"
        for q in range(RP_MAXP):
            g = &s.grp[t][q]
            if g.n > RP_DICE or (g.n > 0) != ((seen >> q) & 1):
                return "group size does not match the track"
            for i in range(RP_DICE):
                if (i < g.n and g.d[i] > RP_FACES) or (i >= g.n and g.d[i]):
                    return "die face out of range"
            for i in range(2, g.n - 1):
                if g.d[i] > g.d[i - 1]:
                    return "middle dice not in canonical order"
        if k and (ep < PH_PLACE or ep > PH_DRAW):
            return "dice on a track outside phases 2 and 3"
    for p in range(n):
        total = 0
        for v in range(RP_FACES + 1):
            total += s.dice[p][v]
        for t in range(RP_NTRACKS):
            total += s.grp[t][p].n
        if ep == PH_DEAL or ep >= PH_FORUM:
            if total:
                return "dice out of play hold a value"
            continue
        if ep == PH_ROLL:
            k = s.step - RP_DICE * p
            k = 0 if k < 0 else RP_DICE if k > RP_DICE else k
            if total != k:
                return "dice rolled do not match the roll step"
            continue
        if (s.phase == PH_MARK or s.phase == PH_REROLL) and p == s.target and s.rr_pos == RP_NONE:
            total += s.marks
        if total != RP_DICE:
            return "a player does not have four dice"
    return NULL


cdef inline const char *check_activation_card(const RPState *s) noexcept nogil:
    """The card being activated, its return phase and its own counters."""
    cdef int ph = s.phase, n = s.nplayers, c = s.card, ab, ctx
    if c >= RP_NSENATE or not ((S_GAME[n][s.intrigue] >> c) & 1):
        return "activated card is not a Senate card of this game"
    if ph != PH_TARGET_PROV and (not ((s.s_exh >> c) & 1) or not ((s.s_own[s.actor] >> c) & 1)):
        return "activated card is not an exhausted card of the actor"
    ab = S_AB[c]
    if ab == AB_TURN_ORDER_SELF or ab == AB_TURN_ORDER_OTHER:
        ctx = PH_TRIBUNUS
    elif ab == AB_FORUM_MOVE:
        ctx = PH_FORUM
    elif ab == AB_SHOW_BONUS:
        ctx = PH_SHOW
    elif ab == AB_CONSUL:
        ctx = PH_PLACE
    elif AB_ENDGAME_REGIONS <= ab <= AB_ENDGAME_PAIRS:
        return "an end-game card cannot be activated"
    else:
        ctx = PH_AFTER
    if s.ret != ctx and not (ctx == PH_AFTER and s.ret == PH_PLACE):
        return "activation returns to the wrong phase"
    if s.prov_left > S_NSYM[c] or (ph == PH_PROVINCE) != (s.prov_left > 0):
        return "provinces left out of range"
    if s.prov_first != RP_NONE and (s.prov_first >= RP_NPROV or not (s.p_exh >> s.prov_first) & 1):
        return "first province is not exhausted"
    if s.target >= n:
        return "target out of range"
    if s.target != s.actor and not (ab == AB_REROLL_ANY and (ph == PH_PICK_DIE or ph == PH_REROLL)):
        return "target set for a card that targets no one"
    if s.marks > RP_DICE or s.mark_floor > RP_FACES or s.passes > 1 or s.optional > 1 or s.die > RP_FACES:
        return "re-roll counters out of range"
    if ph == PH_REROLL and s.marks == 0:
        return "re-roll with nothing to re-roll"
    if ph != PH_MARK and ph != PH_REROLL and (s.marks or s.mark_floor or s.passes or s.optional):
        return "re-roll counters outside a re-roll"
    if s.rr_pos != RP_NONE:
        if ph != PH_REROLL or ab != AB_REROLL_PLACED_MILITARY or (s.rr_pos // RP_DICE) != T_MILITARY \
                or (s.rr_pos % RP_DICE) >= s.grp[T_MILITARY][s.actor].n or s.marks != 1:
            return "placed re-roll out of place"
    if ph == PH_MARK and ab != AB_REROLL_UNPLACED:
        return "re-roll marks for a card that does not re-roll"
    if ph == PH_REROLL and ab != AB_REROLL_UNPLACED and ab != AB_REROLL_ANY and \
            ab != AB_REROLL_PLACED_MILITARY:
        return "re-roll for a card that does not re-roll"
    if ph == PH_REROLL and ab == AB_REROLL_PLACED_MILITARY and s.rr_pos == RP_NONE:
        return "placed re-roll without its die"
    if ph == PH_SHIFT and (ab != AB_SHIFT or s.die < 1 or not s.dice[s.target][s.die]):
        return "Vicarius die out of place"
    if ph != PH_SHIFT and s.die:
        return "Vicarius die set outside Vicarius"
    if ph == PH_PICK_DIE and ab != AB_INVERT and ab != AB_SHIFT and ab != AB_REROLL_ANY:
        return "die choice for a card that chooses none"
    if ph == PH_PICK_PLACED and ab != AB_LOWER_PLACED and ab != AB_REROLL_PLACED_MILITARY:
        return "placed-die choice for a card that chooses none"
    if ph == PH_TARGET and ab != AB_TURN_ORDER_OTHER and ab != AB_REROLL_ANY and ab != AB_STEAL:
        return "target choice for a card that targets no one"
    if (ph == PH_DISCARD or ph == PH_TARGET_PROV) and ab != AB_DISCARD_PROVINCE:
        return "discard for a card that discards nothing"
    return NULL


cdef inline const char *check_counters(const RPState *s) noexcept nogil:
    """Scoring only in scoring rounds; VP, bonuses, Tribunus changes and forum tracks in
    range, Tribunus changes only in phase 1."""
    cdef int n = s.nplayers, p, i, ep = effective_phase(s)
    if s.phase != PH_OVER and ep >= PH_FORUM and not SCORING_ROUND[s.round]:
        return "scoring outside a scoring round"
    for p in range(n):
        if s.vp_forum[p] > MAX_VP or s.vp_arena[p] > MAX_VP or s.mil_bonus[p] > MAX_BONUS \
                or s.coin_bonus[p] > MAX_BONUS:
            return "VP or bonus out of range"
        if s.adj[p] < MIN_ADJ or s.adj[p] > MAX_ADJ:
            return "Tribunus change out of range"
        for i in range(RP_NRES):
            if s.forum[p][i] > FORUM_MAX:
                return "forum track beyond its end"
    if ep != PH_TRIBUNUS and ep != PH_ORDER:
        for p in range(n):
            if s.adj[p]:
                return "Tribunus change outside phase 1"
    return NULL


cdef inline const char *check_order(const RPState *s) noexcept nogil:
    """The turn order is a permutation (the previous round's in phase 1); the new order
    exists only while a round-1 tie waits (order_step copies all slots)."""
    cdef int n = s.nplayers, i
    cdef uint32_t seen = 0
    for i in range(RP_MAXP):
        if i < n:
            if s.order[i] >= n or (seen >> s.order[i]) & 1:
                return "turn order is not a permutation"
            seen |= 1u << s.order[i]
        elif s.order[i] != RP_NONE:
            return "turn order lists an unused seat"
    if s.nord_n >= n or (s.phase != PH_ORDER and s.nord_n):
        return "new turn order out of step"
    if s.phase == PH_ORDER and (s.round != 1 or order_candidates(s, &seen) < 2):
        return "turn-order chance without a round-1 tie"
    seen = 0
    for i in range(RP_MAXP):
        if i < s.nord_n:
            if s.nord[i] >= n or (seen >> s.nord[i]) & 1:
                return "new turn order repeats a seat"
            seen |= 1u << s.nord[i]
        elif s.nord[i] != RP_NONE:
            return "new turn order slot set beyond its length"
    return NULL


cdef inline const char *check_steps(const RPState *s) noexcept nogil:
    """The roll step, the seat in order of phases 1 and 4, and the forum track."""
    cdef int n = s.nplayers, ep = effective_phase(s)
    if ep == PH_ROLL and s.step >= RP_DICE * n:
        return "roll step out of range"
    if ep == PH_TRIBUNUS or ep == PH_FORUM or ep == PH_SHOW:
        if s.step >= n or s.actor != s.order[s.step]:
            return "actor is not the seat in order"
    elif ep != PH_ROLL and s.step:
        return "step set outside phases 1 and 4"
    if (ep == PH_FORUM and s.ftrack >= RP_NRES) or (ep != PH_FORUM and s.ftrack):
        return "forum track out of range"
    return NULL


cdef inline const char *check_shows(const RPState *s) noexcept nogil:
    """Shows only in the show phase, each of three cards or more once its turn is over
    (or able to reach three), and the show bonus only there."""
    cdef int n = s.nplayers, p, i, k, ep = effective_phase(s)
    for p in range(n):
        if s.a_show[p] and ep != PH_SHOW:
            return "a show outside the show phase"
    if ep == PH_SHOW:
        for i in range(n):
            p = s.order[i]
            k = rc_popcount32(s.a_show[p])
            if i > s.step and k:
                return "a show before its player's turn"
            if i < s.step and 0 < k < SHOW_MIN:
                return "a finished show of fewer than three cards"
            if i == s.step and 0 < k < SHOW_MIN and k + rc_popcount32(s.a_hand[p]) < SHOW_MIN:
                return "a show that cannot reach three cards"
    if s.greko & ~((1 << n) - 1) or (s.greko and ep != PH_SHOW):
        return "show bonus out of place"
    return NULL


cdef inline const char *check_turns(const RPState *s) noexcept nogil:
    """Placement turns and the Consul flag only in phase 2."""
    cdef int n = s.nplayers, ep = effective_phase(s)
    if ep == PH_PLACE or ep == PH_AFTER:
        if s.turn >= RP_DICE * n or s.actor != s.order[s.turn % n]:
            return "placement turn out of step"
    elif s.turn:
        return "turn set outside phase 2"
    if s.consul > 1 or (s.consul and s.phase != PH_PLACE):
        return "Consul flag out of place"
    return NULL


cdef inline const char *check_resolution(const RPState *s) noexcept nogil:
    """The section being resolved and its counters, only in phase 3."""
    cdef int ph = s.phase, t
    if PH_MILITARY <= ph <= PH_DRAW:
        t = T_MILITARY if ph == PH_MILITARY else T_SENATE if ph == PH_SENATE else T_MARKET
        if s.rpos >= rp_ngroups(s, t) or s.actor != s.tord[t][s.rpos]:
            return "resolving a section that is not there"
        # The Senate resolution keeps the counters the Military one left.
        if (ph == PH_MILITARY or ph == PH_SENATE) and (s.floor > RP_NPROV or s.budget > MAX_BUDGET):
            return "military resolution counters out of range"
        if (ph == PH_MARKET or ph == PH_DRAW) and (s.floor >= RP_NATYPES or s.budget > MAX_BUDGET):
            return "market resolution counters out of range"
        if ph == PH_DRAW and not s.a_deck:
            return "face-down draw from an empty deck"
        if ph == PH_SENATE and (s.picks == 0 or s.picks > s.grp[T_SENATE][s.actor].n or not s.s_row):
            return "Senate picks out of range"
    elif s.rpos or s.budget or s.floor:
        return "resolution counters set outside phase 3"
    if ph != PH_SENATE and s.picks:
        return "Senate picks set outside the Senate resolution"
    return NULL


cdef inline const char *check_activation(const RPState *s) noexcept nogil:
    """An activation's fields are sound, and all clear when there is none."""
    if ability_phase(s.phase):
        return check_activation_card(s)
    if s.card != RP_NONE or s.prov_left or s.prov_first != RP_NONE or s.target != RP_NONE \
            or s.marks or s.mark_floor or s.passes or s.optional or s.die or s.rr_pos != RP_NONE \
            or s.ret:
        return "activation fields set with no activation"
    return NULL


cdef inline const char *check_padding(const RPState *s) noexcept nogil:
    """The explicit pad bytes that end the struct on a word."""
    return rc_check_padding(s.pad, <const uint8_t *>s + sizeof(RPState))


cdef const char *rp_validate(const void *vs) noexcept nogil:
    """NULL when every field is in range and the zones, dice, tracks and phase agree; else
    the first failing check's message (each check may rely on those before it)."""
    cdef const RPState *s = <const RPState *>vs
    cdef const char *msg = check_header(s)
    if msg == NULL:
        msg = check_cards(s)
    if msg == NULL:
        msg = check_decks(s)
    if msg == NULL:
        msg = check_counters(s)
    if msg == NULL:
        msg = check_order(s)
    if msg == NULL:
        msg = check_dice(s)
    if msg == NULL:
        msg = check_steps(s)
    if msg == NULL:
        msg = check_shows(s)
    if msg == NULL:
        msg = check_turns(s)
    if msg == NULL:
        msg = check_resolution(s)
    if msg == NULL:
        msg = check_activation(s)
    if msg == NULL:
        msg = check_padding(s)
    return msg


# =======================================================================================
# Tables from data: fills the Tables section from data.py at import

def _ability_codes(d):
    """data.py's ability names -> AB_*."""
    return {d.MILITARY_BONUS: AB_MILITARY_BONUS, d.COIN_BONUS: AB_COIN_BONUS,
            d.REROLL_PLACED_MILITARY: AB_REROLL_PLACED_MILITARY,
            d.REROLL_UNPLACED: AB_REROLL_UNPLACED, d.INVERT: AB_INVERT, d.SHIFT: AB_SHIFT,
            d.CONSUL: AB_CONSUL, d.TURN_ORDER_SELF: AB_TURN_ORDER_SELF,
            d.TURN_ORDER_OTHER: AB_TURN_ORDER_OTHER, d.LOWER_PLACED: AB_LOWER_PLACED,
            d.FORUM_MOVE: AB_FORUM_MOVE, d.ENDGAME_REGIONS: AB_ENDGAME_REGIONS,
            d.ENDGAME_TYPE: AB_ENDGAME_TYPE, d.ENDGAME_PAIRS: AB_ENDGAME_PAIRS,
            d.REROLL_ANY: AB_REROLL_ANY, d.DISCARD_PROVINCE: AB_DISCARD_PROVINCE,
            d.STEAL: AB_STEAL, d.SHOW_BONUS: AB_SHOW_BONUS}


def _check_bounds(d, ab_codes):
    """The data fits the kernel's named bounds (the tensor's among them)."""
    assert len(ab_codes) == AB_N
    assert len(d.PROVINCES) == RP_NPROV and len(d.SENATE) == RP_NSENATE
    assert len(d.ARENA_TYPES) == RP_NATYPES and len(d.REGIONS) == RP_NREGIONS
    assert d.SECTIONS == RP_DICE and d.DICE == RP_DICE and len(d.TRACKS) == RP_NTRACKS
    assert len(d.SHOW_RANKS) == RP_NRANKS and d.FACES == RP_FACES
    assert len(d.ERAS) == RP_NERAS and len(d.INTRIGUE_TITLES) == RP_NINTRIGUE
    assert min(d.ROW_SIZE) == RP_MINP and max(d.ROW_SIZE) == RP_MAXP
    # the tensor's bounds: identical Senate cards, Arena copies of a type
    assert max(sum(1 for o in d.SENATE if _same_card(o, c)) for c in d.SENATE) <= O_SENATE_COPIES
    assert max(a.copies for a in d.ARENA_TYPES) <= O_ARENA_COPIES


def _load_provinces(d):
    """Each province's era, power, type, resource and region, and the masks by each."""
    memset(P_TYPE_MASK, 0, sizeof(P_TYPE_MASK))
    memset(P_RES_MASK, 0, sizeof(P_RES_MASK))
    memset(P_ERA_MASK, 0, sizeof(P_ERA_MASK))
    memset(P_REGION_MASK, 0, sizeof(P_REGION_MASK))
    for i, pr in enumerate(d.PROVINCES):
        P_ERA[i] = pr.era
        P_POWER[i] = pr.power
        P_TYPE[i] = d.PROVINCE_TYPES.index(pr.type)
        P_RES[i] = d.RESOURCES.index(pr.resource)
        P_REGION[i] = d.REGIONS.index(pr.region)
        P_TYPE_MASK[P_TYPE[i]] |= 1u << i
        P_RES_MASK[P_RES[i]] |= 1u << i
        P_ERA_MASK[pr.era - 1] |= 1u << i
        P_REGION_MASK[P_REGION[i]] |= 1u << i


def _load_games(d):
    """The provinces and Senate cards in play per player count (and intrigue set)."""
    memset(P_GAME, 0, sizeof(P_GAME))
    memset(S_GAME, 0, sizeof(S_GAME))
    for n in range(RP_MINP, RP_MAXP + 1):
        for i in d.provinces_in_game(n):
            P_GAME[n] |= 1u << i
        for mask in range(RP_INTRIGUE_ALL + 1):
            for c in d.senate_in_game(n, mask):
                S_GAME[n][mask] |= 1u << c


def _load_senate(d, ab_codes):
    """Each Senate card: era, symbol, ability and its numbers, and its identical twins."""
    global SHOW_BONUS_AMOUNT
    memset(S_ERA_MASK, 0, sizeof(S_ERA_MASK))
    for c, card in enumerate(d.SENATE):
        S_ERA[c] = card.era
        S_SYM[c] = d.PROVINCE_TYPES.index(card.symbol)
        S_NSYM[c] = card.symbols
        assert card.symbols <= MAX_SYMBOLS
        S_AB[c] = ab_codes[card.ability]
        S_AMOUNT[c] = card.amount
        S_RES[c] = d.RESOURCES.index(card.resource) if card.resource else RP_NONE
        S_PTYPE[c] = d.PROVINCE_TYPES.index(card.province_type) if card.province_type else RP_NONE
        S_ERA_MASK[card.era - 1] |= 1u << c
        twins = [j for j, o in enumerate(d.SENATE) if _same_card(o, card)]
        S_CANON[c] = twins[0]
        S_TWIN_LOWER[c] = 0
        S_TWINS[c] = 0
        for j in twins:
            S_TWINS[c] |= 1u << j
            if j < c:
                S_TWIN_LOWER[c] |= 1u << j
        if card.ability == d.SHOW_BONUS:
            SHOW_BONUS_AMOUNT = card.amount


def _load_timing(d):
    """The contexts (CTX_*) in which each Senate card may be activated."""
    timing_ctx = {d.PHASE_2: (CTX_PLACE, CTX_AFTER), d.PHASE_1: (CTX_TRIBUNUS,), d.END: ()}
    memset(S_CTX_MASK, 0, sizeof(S_CTX_MASK))
    for c, card in enumerate(d.SENATE):
        timing = d.ABILITY_TIMING[card.ability]
        if timing == d.SCORING:
            ctxs = (CTX_FORUM,) if card.ability == d.FORUM_MOVE else (CTX_SHOW,)
        else:
            ctxs = timing_ctx[timing]
        if card.ability == d.CONSUL:
            ctxs = (CTX_PLACE,)
        for x in ctxs:
            S_CTX_MASK[x] |= 1u << c


def _load_arena(d):
    """Each Arena card's type; each type's category and cost; the show ranks' VP."""
    types = d.arena_card_types()
    assert len(types) == RP_NARENA
    memset(AT_MASK, 0, sizeof(AT_MASK))
    for c, t in enumerate(types):
        A_TYPE[c] = t
        AT_MASK[t] |= 1u << c
    for t, at in enumerate(d.ARENA_TYPES):
        AT_CAT[t] = d.CATEGORIES.index(at.category)
        AT_COST[t] = at.cost
    for r, (_name, vp) in enumerate(d.SHOW_RANKS):
        RANK_VP[r] = vp


def _load_rounds(d):
    """Row sizes, rounds per era and the scoring rounds."""
    memset(ROW_SIZE, 0, sizeof(ROW_SIZE))
    for n, k in d.ROW_SIZE.items():
        ROW_SIZE[n] = k
    memset(ERA_ROUNDS, 0, sizeof(ERA_ROUNDS))
    memset(SCORING_ROUND, 0, sizeof(SCORING_ROUND))
    assert d.ROUNDS == RP_ROUNDS and list(d.ERA_OF_ROUND) == sorted(d.ERA_OF_ROUND)
    for e in d.ERA_OF_ROUND:
        ERA_ROUNDS[e - 1] += 1
    for r in d.SCORING_ROUNDS:
        SCORING_ROUND[r] = 1


def _load_counts(d):
    """The game's counts and points."""
    global ROUNDS, FORUM_MAX, ARCHES, FACE_DOWN_COST, ARENA_ROW, SHOW_MIN, BEST_SHOW_BONUS
    global REGION_MAJORITY_VP, REGION_ALL_VP, REGION_TIE_VP, DISCARD_ERA
    ROUNDS = d.ROUNDS
    FORUM_MAX = d.FORUM_MAX
    ARCHES = d.ARCHES
    FACE_DOWN_COST = d.FACE_DOWN_COST
    ARENA_ROW = d.ARENA_ROW
    SHOW_MIN = d.SHOW_MIN
    BEST_SHOW_BONUS = d.BEST_SHOW_BONUS
    REGION_MAJORITY_VP = d.REGION_MAJORITY_VP
    REGION_ALL_VP = d.REGION_ALL_VP
    REGION_TIE_VP = d.REGION_TIE_VP
    DISCARD_ERA = d.DISCARD_PROVINCE_ERA


def _load_tables():
    """Fills the Tables section from data.py."""
    d = _data
    ab_codes = _ability_codes(d)
    _check_bounds(d, ab_codes)
    _load_provinces(d)
    _load_games(d)
    _load_senate(d, ab_codes)
    _load_timing(d)
    _load_arena(d)
    _load_rounds(d)
    _load_counts(d)


def _same_card(a, b):
    """Two Senate cards are interchangeable in play when only their 2-player status
    differs (the two Legatus)."""
    return a._replace(two_player=True) == b._replace(two_player=True)


_load_tables()


# =======================================================================================
# Kernel table: RP_KERNEL filled slot by slot, and kernel_capsule

cdef rc_kernel RP_KERNEL
RP_KERNEL.abi_version = RC_ABI_VERSION
RP_KERNEL.state_size = sizeof(RPState)
RP_KERNEL.state_version = 1
RP_KERNEL.num_actions = RP_NUM_ACTIONS
RP_KERNEL.max_legal = RP_MAXLEGAL
RP_KERNEL.max_game_length = RP_MAX_GAME_LENGTH
RP_KERNEL.init = rp_init
RP_KERNEL.num_players = rp_num_players
RP_KERNEL.current_player = rp_current_player
RP_KERNEL.legal_actions = rp_legal
RP_KERNEL.chance_outcomes = rp_chance_outcomes
RP_KERNEL.sample_chance = rp_sample_chance
RP_KERNEL.apply = rp_apply
RP_KERNEL.returns = rp_returns
RP_KERNEL.scores = rp_scores
RP_KERNEL.resample = rp_resample
RP_KERNEL.observe_action = rp_observe_action
RP_KERNEL.validate = rp_validate
RP_KERNEL.max_tensor_size = RP_MAX_TENSOR
RP_KERNEL.tensor_size = rp_tensor_size
RP_KERNEL.observation_tensor = rp_observation_tensor

kernel_capsule = rc_kernel_capsule(&RP_KERNEL)
STATE_SIZE = sizeof(RPState)
NUM_ACTIONS = RP_NUM_ACTIONS
MAX_GAME_LENGTH = RP_KERNEL.max_game_length
MAX_LEGAL = RP_MAXLEGAL
# the first id of each action block, in id order (the package docstring documents them)
ACTION_BLOCKS = {
    "A_PLACE": A_PLACE, "A_DONE": A_DONE, "A_ACTIVATE": A_ACTIVATE, "A_PROVINCE": A_PROVINCE,
    "A_SENATE": A_SENATE, "A_BUY": A_BUY, "A_DRAW": A_DRAW, "A_SHOW": A_SHOW, "A_DIE": A_DIE,
    "A_PLACED": A_PLACED, "A_PLUS": A_PLUS, "A_MINUS": A_MINUS, "A_PLAYER": A_PLAYER,
    "CH_DIE": CH_DIE, "CH_PROVINCE": CH_PROVINCE, "CH_SENATE": CH_SENATE, "CH_ARENA": CH_ARENA,
    "CH_SEAT": CH_SEAT,
}
# the observation tensor's slices, name -> (offset, length): O_* in the common block, PP_*
# in each per-player block (offsets within the block; the package docstring's table)
TENSOR_COMMON = RP_TENSOR_COMMON
TENSOR_PER_PLAYER = RP_TENSOR_PER_PLAYER
TENSOR_BLOCKS = {
    "O_PHASE": (O_PHASE, RP_NPHASES), "O_ROUND": (O_ROUND, RP_ROUNDS), "O_TURN": (O_TURN, 1),
    "O_STEP": (O_STEP, 1), "O_CONSUL": (O_CONSUL, 1), "O_INTRIGUE": (O_INTRIGUE, RP_NINTRIGUE),
    "O_ROW_PROV": (O_ROW_PROV, RP_NPROV), "O_ROW_SENATE": (O_ROW_SENATE, RP_NSENATE),
    "O_ROW_ARENA": (O_ROW_ARENA, RP_NATYPES), "O_DECK_PROV": (O_DECK_PROV, RP_NPROV),
    "O_DECK_SENATE": (O_DECK_SENATE, RP_NSENATE), "O_DECK_ARENA": (O_DECK_ARENA, 1),
    "O_REMOVED": (O_REMOVED, RP_NATYPES), "O_EXH_PROV": (O_EXH_PROV, RP_NPROV),
    "O_EXH_SENATE": (O_EXH_SENATE, RP_NSENATE), "O_OWN_ARENA": (O_OWN_ARENA, N_OWN_ARENA * RP_NATYPES),
    "O_ACT": (O_ACT, 1), "O_ACT_CARD": (O_ACT_CARD, RP_NSENATE),
    "O_ACT_RETURN": (O_ACT_RETURN, RP_NPHASES), "O_ACT_PROV_LEFT": (O_ACT_PROV_LEFT, 1),
    "O_ACT_FIRST": (O_ACT_FIRST, RP_NPROV), "O_ACT_COUNTERS": (O_ACT_COUNTERS, N_ACT_COUNTERS),
    "O_ACT_PLACED": (O_ACT_PLACED, RP_NTRACKS + RP_DICE), "O_RESOLUTION": (O_RESOLUTION, N_RESOLUTION),
    "O_FORUM_TRACK": (O_FORUM_TRACK, RP_NRES),
    "PP_ACTOR": (PP_ACTOR, 1), "PP_CURRENT": (PP_CURRENT, 1), "PP_TARGET": (PP_TARGET, 1),
    "PP_SHOW_BONUS": (PP_SHOW_BONUS, 1), "PP_ORDER": (PP_ORDER, RP_MAXP),
    "PP_NEW_ORDER": (PP_NEW_ORDER, RP_MAXP), "PP_VP": (PP_VP, N_VP), "PP_FORUM": (PP_FORUM, RP_NRES),
    "PP_BONUS": (PP_BONUS, N_BONUS), "PP_TRIBUNUS": (PP_TRIBUNUS, 1), "PP_DICE": (PP_DICE, RP_FACE_SLOTS),
    "PP_PROVINCES": (PP_PROVINCES, RP_NPROV), "PP_SENATE": (PP_SENATE, RP_NSENATE),
    "PP_ARENA_PUBLIC": (PP_ARENA_PUBLIC, RP_NATYPES), "PP_ARENA_HIDDEN": (PP_ARENA_HIDDEN, 1),
    "PP_SHOW_SIZE": (PP_SHOW_SIZE, 1), "PP_TRACKS": (PP_TRACKS, RP_NTRACKS * RP_TRACK_SLICE),
    "PP_SCORE": (PP_SCORE, 1),
}
