# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The hand-written evaluator of The Great City of Rome, in C.

Each player's expected final score is estimated as

    points now (the kernel's final-scoring count: city, coins, influence tokens and cards)
  + what the rest of the game is likely to add, scaled by the share of the game left:
      cards in hand: a per-building worth, and what the card would score if built now
      (a temple's own points; the area points a public or residential building adds
      at its best free cell; the aqueducts in hand counted together, since each
      aqueduct is worth more than the one before),
      houses in areas that no public building touches yet (they score nothing now),
      production to come (vegetable farms and vineyard: coins; sheep: influence;
      grain: brick tokens), per remaining round,
  + influence cards: those in play go to the strict influence leader (who returns their
    tokens); those still to surface are shared in proportion to influence,
  + the emissaries still to act this round: the offer card each will take (the offer
    ranked by hand worth, taken in strip order), the strip's bricks it will get, and
    what a produce will bring, less the cogs it must buy.  Without this term every
    emissary placement looks alike, and a search that stops after one player's turn
    but before another's sees the one who acted ahead,
  + the tempo: the player to move gains for the choice still theirs (the pick of the
    free spaces, or of what to build and where), so that positions with either player
    to move compare fairly,

and the estimates become return estimates by a softmax whose temperature shrinks as the
game nears its end.  At the end the values are the exact returns.  The weights live in
``WEIGHTS`` (one table); ``make_evaluator(game, "heuristic", **overrides)`` changes any.
"""

from libc.stdint cimport int32_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset

from romecore.core.kernel cimport (
    rc_popcount64, rc_pop_lsb64, rc_set128, rc_s128_empty, rc_s128_pop,
)
from romecore.core.evaluator cimport HeuristicEvaluator
from romecore.core.evaluator import merge_weights
from romecore.games.great_city_of_rome.kernel cimport (
    GCState, GC_NTYPES, GC_NINFL, GC_MAXP, GC_NSPACES, GC_MAXOFFER, GC_NONE,
    Z_HAND, Z_CITY, PH_OVER, PH_EMISSARY, PH_TAKE, PH_SCHOOL_BOTTOM, F_TOOK, F_BUILT, F_PRODUCED,
    gc_returns, gc_offer, gc_tokens, gc_space_bricks, gc_space_cogs, gc_emissaries,
    INFL_IN_PLAY, INFL_NONE, M_N, M_RES2, M_YELLOW, M_RED, M_GREEN, M_BLUE,
    M_VEG, M_GRAIN, M_SHEEP, M_AQUEDUCT, M_OCC, M_TEMPLE, M_STARS,
    gc_city_masks, gc_card_type, gc_infl_round,
    gc_temple_points, gc_place_targets, gc_nbrs,
    GCAreas, gc_city_areas, gc_adjacent_colours, gc_score_city, gc_zone_cards, SC_N, SC_TOTAL,
)

from romecore.games.great_city_of_rome import data as _data
from romecore.spec import EvaluatorSpec

GAME_ID = "great_city_of_rome"

#: The evaluator's weights (points unless said otherwise).  The seven per-building
#: ``*_in_hand`` ones (which also rank the offer) are set by hand; the others were fitted
#: to the outcomes of 2,000 games of ``greedy`` on the earlier table
#: (``bench/archive/fitted-weights.md`` gives the commands and the earlier tables): least
#: squares of each player's score still to come, then the temperatures by the
#: log-likelihood of the results.  ``greedy`` on this table won 0.613 of 400 games against
#: ``greedy`` on the one before the four card features (``temple_points_in_hand`` to
#: ``residential_fit_in_hand``), which had won 0.700 against the one before it.  The two
#: tempo weights were fitted after them, alone (``fit_heuristic.py --only``), from games of
#: ``greedy`` on the rest of this table.
WEIGHTS = {
    "residential_in_hand": 0.9,     # x the building's value
    "public_in_hand": 2.5,
    "public_bonus_in_hand": 0.5,    # deck I specials: + this
    "aqueduct_in_hand": 0.4,        # x the points the next aqueduct would add
    "temple_in_hand": 3.0,
    "farm_in_hand": 1.5,
    "star_in_hand": 0.5,            # per star on the card (influence when built)
    "temple_points_in_hand": 1.595,   # x the points a temple in hand would score if built now
    "aqueduct_run_in_hand": 0.315,    # x the points the aqueducts in hand would add together
    "public_fit_in_hand": 0.892,      # x the area points a public building would add (best cell)
    "residential_fit_in_hand": 0.783, # x the same for a residential building
    "unscored_house": 0.407,        # x value, per house in an area with no public neighbour
    "veg_per_round": 2.488,         # coins a vegetable farm or the vineyard yields a round
    "sheep_per_round": 1.968,       # points (via influence) a sheep farm yields a round
    "grain_per_round": 0.0,         # points a grain farm's brick tokens save a round
    "future_influence_share": 0.251,  # weight of influence cards still to surface
    "pending_take": 1.201,          # x the hand worth of the offer card an emissary will take
    "pending_brick": 1.219,         # per strip brick an emissary still to act will get
    "pending_produce": 0.546,       # x the net yield of the produce it can still make
    "tempo_emissary": 0.64,         # the player to place the next emissary: the pick of the spaces
    "tempo_build": 1.564,           # the acting player while their build is still to come
    "temperature": 6.0,             # softmax temperature at the end of the game (points)
    "temperature_left": 1.5,        # + this per round left
}


#: The temperature's growth was spelt differently per game; the old spelling is accepted,
#: with a warning, for one release.
OLD_TEMPERATURE_LEFT = "temperature_per_round"


cdef struct gc_weights:
    double hand[GC_NTYPES]
    double offer[GC_NTYPES]        # hand worth of an offer card, for ranking the offer
    int brick_holder[GC_NTYPES]    # grain farms and the vineyard: a produce gives a brick token
    double aqueduct_in_hand
    double temple_points_in_hand, aqueduct_run_in_hand
    double public_fit_in_hand, residential_fit_in_hand
    int temple_type[GC_NTYPES]
    int stars[GC_NTYPES]
    int colour[GC_NTYPES]          # a public building's colour (0-3, as M_YELLOW..M_BLUE), else -1
    int res_value[GC_NTYPES]       # a residential building's value, else 0
    double unscored_house
    double veg, sheep, grain
    double future_influence
    double pending_take, pending_brick, pending_produce
    double tempo_emissary, tempo_build
    int aq_points[5]
    int aqueduct_type[GC_NTYPES]
    int infl_value[GC_NINFL]


cdef inline double offer_worth(const double *worth, int n, double rank) noexcept nogil:
    """Worth of the offer card taken at (fractional) ``rank``: ``worth`` best first,
    linearly between ranks; the last card past the end."""
    cdef int i = <int>rank
    if n <= 0:
        return 0.0
    if i >= n - 1:
        return worth[n - 1]
    return worth[i] + (rank - i) * (worth[i + 1] - worth[i])


cdef inline double emissary_worth(const GCState *s, const gc_weights *w, double left,
                                  const double *worth, int noffer, double rank,
                                  int bricks, int cogs, double income) noexcept nogil:
    """What an emissary still to act adds: its offer card, its bricks, a produce."""
    cdef double produce = income - (2 - (cogs if cogs < 2 else 2))  # 1 coin a missing cog
    return (w.pending_take * left * offer_worth(worth, noffer, rank)
            + w.pending_brick * bricks
            + (w.pending_produce * produce if produce > 0.0 else 0.0))


cdef void add_pending(const GCState *s, const gc_weights *w, double left,
                      const double *income, double *est) noexcept nogil:
    """Adds to ``est`` the worth of the emissaries still to act this round (see the
    module docstring).  In the emissary phase a placed emissary's take rank counts the
    emissaries still to come in proportion to the free spaces before it, and one still
    to be placed is worth the mean over the free spaces."""
    cdef uint8_t cards[GC_MAXOFFER]
    cdef double worth[GC_MAXOFFER]
    cdef double tmp, rank, mean, share
    cdef int noffer, i, j, k, p, nfree = 0, before_occ, before_free, unplaced
    cdef int placed[GC_MAXP]
    if s.phase < PH_EMISSARY or s.phase > PH_SCHOOL_BOTTOM:
        return
    noffer = gc_offer(s, cards)
    for i in range(noffer):
        worth[i] = w.offer[gc_card_type(cards[i])]
    for i in range(1, noffer):  # best first
        tmp = worth[i]
        j = i - 1
        while j >= 0 and worth[j] < tmp:
            worth[j + 1] = worth[j]
            j -= 1
        worth[j + 1] = tmp
    if s.phase == PH_EMISSARY:
        memset(placed, 0, sizeof(placed))
        for k in range(GC_NSPACES):
            if s.space_owner[k] == GC_NONE:
                nfree += 1
            else:
                placed[s.space_owner[k]] += 1
        unplaced = gc_emissaries(s) - s.place_idx
        share = (<double>unplaced / nfree) if nfree > 0 else 0.0
        before_occ = 0
        before_free = 0
        for k in range(GC_NSPACES):
            if s.space_owner[k] == GC_NONE:
                before_free += 1
                continue
            p = s.space_owner[k]
            est[p] += emissary_worth(s, w, left, worth, noffer, before_occ + share * before_free,
                                     gc_space_bricks(s, k), gc_space_cogs(s, k), income[p])
            before_occ += 1
        if unplaced <= 0 or nfree <= 0:
            return
        share = (<double>(unplaced - 1) / (nfree - 1)) if nfree > 1 else 0.0
        for p in range(s.nplayers):
            k = gc_emissaries(s) // s.nplayers - placed[p]
            if k <= 0:
                continue
            mean = 0.0
            before_occ = 0
            before_free = 0
            for i in range(GC_NSPACES):
                if s.space_owner[i] != GC_NONE:
                    before_occ += 1
                    continue
                mean += emissary_worth(s, w, left, worth, noffer, before_occ + share * before_free,
                                       gc_space_bricks(s, i), gc_space_cogs(s, i), income[p])
                before_free += 1
            est[p] += k * mean / nfree
        return
    # The action phase: the acting emissary's unused part, then the ones after it.
    p = s.actor
    rank = 0.0
    if not s.flags & F_TOOK:
        est[p] += w.pending_take * left * offer_worth(worth, noffer, 0.0)
        rank = 1.0
    if not s.flags & F_BUILT:
        est[p] += w.pending_brick * s.bricks
    if not s.flags & F_PRODUCED:
        tmp = income[p] - (2 - (s.cogs if s.cogs < 2 else 2))
        if tmp > 0.0:
            est[p] += w.pending_produce * tmp
    for k in range(s.turn_space + 1, GC_NSPACES):
        if s.space_owner[k] == GC_NONE:
            continue
        p = s.space_owner[k]
        est[p] += emissary_worth(s, w, left, worth, noffer, rank,
                                 gc_space_bricks(s, k), gc_space_cogs(s, k), income[p])
        rank += 1.0


cdef inline int most_colours_beside(const uint64_t *m, uint64_t cells) noexcept nogil:
    """The most colours of public building beside any one cell of ``cells`` (0 to 4),
    counted for every cell at once: bit-sliced, the cells beside each colour's buildings
    are added up as masks of cells with at least 1, 2, 3 and 4 colours."""
    cdef uint64_t y = gc_nbrs(m[M_YELLOW]), r = gc_nbrs(m[M_RED])
    cdef uint64_t g = gc_nbrs(m[M_GREEN]), b = gc_nbrs(m[M_BLUE])
    if cells & y & r & g & b:
        return 4
    if cells & ((y & r & (g | b)) | (g & b & (y | r))):
        return 3
    if cells & ((y & (r | g | b)) | (r & (g | b)) | (g & b)):
        return 2
    return 1 if cells & (y | r | g | b) else 0


cdef int fit_gain(const GCState *s, int p, int t, const gc_weights *w, const uint64_t *m,
                  const GCAreas *a) noexcept nogil:
    """The most area points a building of type t (public or residential) adds to p's city
    at a cell it may go now: a public building scores its colour again for every adjacent
    area that lacks it; a house joins the adjacent areas of its value and takes their
    colours and those beside its cell (thermal bath tokens aside)."""
    cdef uint64_t targets = gc_place_targets(s, p, t), bit, adj, near = 0
    cdef int e, k, g, best = 0, size, cols, old, c = w.colour[t], v = w.res_value[t]
    cdef bint joins
    for k in range(a.n):   # the areas the card can gain from
        joins = not (a.colours[k] >> c) & 1 if c >= 0 else a.value[k] == v
        if joins:
            near |= a.around[k]
    if c < 0:  # a house on a cell beside no area of its value is an area of its own
        best = v * most_colours_beside(m, targets & ~near)
    targets &= near   # (a public building beside no area without its colour gains nothing)
    while targets:
        e = rc_pop_lsb64(&targets)
        bit = (<uint64_t>1) << e
        adj = gc_nbrs(bit)
        g = 0
        if c >= 0:
            for k in range(a.n):
                if a.cells[k] & adj and not (a.colours[k] >> c) & 1:
                    g += a.value[k] * rc_popcount64(a.cells[k])
        else:
            size = 1
            cols = gc_adjacent_colours(m, adj)
            old = 0
            for k in range(a.n):
                if a.value[k] == v and a.cells[k] & adj:
                    size += rc_popcount64(a.cells[k])
                    cols |= a.colours[k]
                    old += v * rc_popcount64(a.cells[k]) * rc_popcount64(a.colours[k])
            g = v * size * rc_popcount64(cols) - old
        if g > best:
            best = g
    return best


cdef inline int temple_gain(const GCState *s, int p, int t, const gc_weights *w,
                            const uint64_t *m) noexcept nogil:
    """The points a temple of type t would score if p built it now: its rule read on the
    city with the temple in it (one more building, temple and its stars; the temple
    rules count these, not where the temple stands, so an off-board cell stands in)."""
    cdef uint64_t m2[M_N]
    cdef uint64_t spare = (<uint64_t>1) << 63   # row 7: off the board
    memcpy(m2, m, sizeof(m2))
    m2[M_OCC] |= spare
    m2[M_TEMPLE] |= spare
    m2[M_STARS] += w.stars[t]
    return gc_temple_points(s, p, t, m2)


cdef inline void add_tempo(const GCState *s, const gc_weights *w, double *est) noexcept nogil:
    """The player to move has a choice the others are yet to answer (a chess engine's
    tempo): the pick of the free strip spaces, or of what and where to build.  The other
    terms value an emissary still to place at the mean over the free spaces, and a card in
    hand without the choice of when to build it; without this term the player who has
    just moved looks ahead of the one to move, and a search's leaves after an odd and an
    even number of turns disagree."""
    if s.phase == PH_EMISSARY:
        est[s.actor] += w.tempo_emissary
    elif PH_TAKE <= s.phase <= PH_SCHOOL_BOTTOM and not s.flags & F_BUILT:
        est[s.actor] += w.tempo_build


cdef int gc_estimates(const void *vs, const void *vw, double *est) noexcept nogil:
    """Expected final score of every player (see the module docstring); returns the
    number of players."""
    cdef const GCState *s = <const GCState *>vs
    cdef const gc_weights *w = <const gc_weights *>vw
    cdef int32_t pts[SC_N]
    cdef uint64_t m[M_N]
    cdef int n = s.nplayers, p, c, t, i, naq, haq, leader, best, tied, total_infl, holders
    cdef double left = (s.nrounds - s.round + 0.5) / s.nrounds
    cdef int rounds_left = s.nrounds - s.round
    cdef double hand, unscored
    cdef GCAreas areas
    cdef bint fits = w.public_fit_in_hand != 0.0 or w.residential_fit_in_hand != 0.0
    cdef double income[GC_MAXP]
    cdef uint64_t houses, touched
    cdef rc_set128 cards
    for p in range(n):
        gc_city_masks(s, p, m)
        gc_city_areas(m, &areas)
        gc_score_city(s, p, m, &areas, pts)
        est[p] = pts[SC_TOTAL]
        naq = rc_popcount64(m[M_AQUEDUCT])
        hand = 0.0
        haq = 0
        holders = 0
        gc_zone_cards(s, Z_CITY + p, &cards)
        while not rc_s128_empty(&cards):
            c = rc_s128_pop(&cards)
            if w.brick_holder[gc_card_type(c)] and gc_tokens(s, c) == 0:
                holders += 1
        gc_zone_cards(s, Z_HAND + p, &cards)
        while not rc_s128_empty(&cards):
            c = rc_s128_pop(&cards)
            t = gc_card_type(c)
            if w.aqueduct_type[t]:
                hand += w.aqueduct_in_hand * (w.aq_points[naq + 1 if naq < 4 else 4] - w.aq_points[naq])
                haq += 1
            else:
                hand += w.hand[t]
                if w.temple_type[t]:
                    hand += w.temple_points_in_hand * temple_gain(s, p, t, w, m)
                elif fits and w.colour[t] >= 0:
                    hand += w.public_fit_in_hand * fit_gain(s, p, t, w, m, &areas)
                elif fits and w.res_value[t]:
                    hand += w.residential_fit_in_hand * fit_gain(s, p, t, w, m, &areas)
        # The aqueducts in hand together (the aqueduct points grow faster than the count).
        haq = naq + haq if naq + haq < 4 else 4
        hand += w.aqueduct_run_in_hand * (w.aq_points[haq] - w.aq_points[naq])
        # Houses that no public building touches score nothing yet.
        touched = gc_nbrs(m[M_YELLOW] | m[M_RED] | m[M_GREEN] | m[M_BLUE])
        unscored = 0.0
        for i in range(3):
            houses = m[M_RES2 + i]
            unscored += (2 + i) * rc_popcount64(houses & ~touched)
        est[p] += left * (hand + w.unscored_house * unscored)
        est[p] += rounds_left * (w.veg * rc_popcount64(m[M_VEG])   # the vineyard counts here
                                 + w.sheep * rc_popcount64(m[M_SHEEP])
                                 + w.grain * rc_popcount64(m[M_GRAIN] & ~m[M_VEG]))
        # One produce now: coins, influence (a point per 2), brick tokens on the farms
        # without one (each saves 2 coins).
        income[p] = rc_popcount64(m[M_VEG]) + 0.5 * rc_popcount64(m[M_SHEEP]) + 2.0 * holders
    add_pending(s, w, left, income, est)
    add_tempo(s, w, est)
    # Influence cards in play go to the strict leader at the round's end.
    best = -1
    leader = -1
    tied = 0
    total_infl = 0
    for p in range(n):
        total_infl += s.influence[p] + 1
        if s.influence[p] > best:
            best = s.influence[p]
            leader = p
            tied = 0
        elif s.influence[p] == best:
            tied = 1
    for i in range(GC_NINFL):
        if s.infl[i] == INFL_IN_PLAY and not tied:
            est[leader] += w.infl_value[i]
        elif s.infl[i] == INFL_NONE and gc_infl_round(n, i) > s.round:
            for p in range(n):
                est[p] += w.future_influence * w.infl_value[i] * (s.influence[p] + 1) / total_infl
    if not tied:
        for i in range(GC_NINFL):
            if s.infl[i] == INFL_IN_PLAY:
                est[leader] -= s.influence[leader] // 2  # the leader returns their tokens
                break
    return n


cdef double gc_rounds_left(const void *vs, const void *vw) noexcept nogil:
    """The heuristic's time left: the rounds after this one."""
    cdef const GCState *s = <const GCState *>vs
    return s.nrounds - s.round


cdef bint gc_over(const void *vs) noexcept nogil:
    """Whether the game is over (the values are then the exact returns)."""
    return (<const GCState *>vs).phase == PH_OVER


cdef class GreatCityHeuristic(HeuristicEvaluator):
    """The Great City of Rome's hand-written evaluator (C); see the module docstring."""

    cdef gc_weights w

    def __init__(self, game=None, **overrides):
        wt = merge_weights(WEIGHTS, overrides, game, GAME_ID, {OLD_TEMPERATURE_LEFT: "temperature_left"})
        memset(&self.w, 0, sizeof(gc_weights))
        for t, bt in enumerate(_data.TYPES):
            if bt.kind == _data.RESIDENTIAL:
                v = wt["residential_in_hand"] * bt.value
            elif bt.kind == _data.PUBLIC:
                v = wt["public_in_hand"] + wt["public_bonus_in_hand"] * bt.bonus
            elif bt.kind == _data.TEMPLE:
                v = wt["temple_in_hand"]
            elif bt.kind == _data.AQUEDUCT:
                v = 0.0
                self.w.aqueduct_type[t] = 1
            else:
                v = wt["farm_in_hand"]
            self.w.hand[t] = v + wt["star_in_hand"] * bt.stars
            self.w.brick_holder[t] = bt.kind in (_data.FARM_GRAIN, _data.VINEYARD)
            self.w.temple_type[t] = bt.kind == _data.TEMPLE
            self.w.stars[t] = bt.stars
            self.w.colour[t] = _data.COLOURS.index(bt.colour) if bt.kind == _data.PUBLIC else -1
            self.w.res_value[t] = bt.value if bt.kind == _data.RESIDENTIAL else 0
            # An aqueduct's worth depends on the city: rank it as a second one.
            self.w.offer[t] = self.w.hand[t] + (
                wt["aqueduct_in_hand"] * (_data.AQUEDUCT_POINTS[2] - _data.AQUEDUCT_POINTS[1])
                if bt.kind == _data.AQUEDUCT else 0.0)
        for i, pts in enumerate(_data.AQUEDUCT_POINTS):
            self.w.aq_points[i] = pts
        for i, val in enumerate(_data.INFLUENCE_VALUES):
            self.w.infl_value[i] = val
        self.w.aqueduct_in_hand = wt["aqueduct_in_hand"]
        self.w.temple_points_in_hand = wt["temple_points_in_hand"]
        self.w.aqueduct_run_in_hand = wt["aqueduct_run_in_hand"]
        self.w.public_fit_in_hand = wt["public_fit_in_hand"]
        self.w.residential_fit_in_hand = wt["residential_fit_in_hand"]
        self.w.unscored_house = wt["unscored_house"]
        self.w.veg = wt["veg_per_round"]
        self.w.sheep = wt["sheep_per_round"]
        self.w.grain = wt["grain_per_round"]
        self.w.future_influence = wt["future_influence_share"]
        self.w.pending_take = wt["pending_take"]
        self.w.pending_brick = wt["pending_brick"]
        self.w.pending_produce = wt["pending_produce"]
        self.w.tempo_emissary = wt["tempo_emissary"]
        self.w.tempo_build = wt["tempo_build"]
        self.set_heuristic(GAME_ID, wt, &self.w, gc_estimates, gc_rounds_left, gc_over, gc_returns)


def evaluator_specs():
    return [EvaluatorSpec(GAME_ID, "heuristic", GreatCityHeuristic,
                          "expected final score from city, coins, influence and hand, "
                          "as a softmax over players")]
