# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The hand-written evaluator of The Great City of Rome, in C.

Each player's expected final score is estimated as

    points now (the kernel's final-scoring count: city, coins, influence tokens and cards)
  + what the rest of the game is likely to add, scaled by the share of the game left:
      cards in hand (a per-building worth),
      houses in areas that no public building touches yet (they score nothing now),
      production to come (vegetable farms and vineyard: coins; sheep: influence;
      grain: brick tokens), per remaining round,
  + influence cards: those in play go to the strict influence leader (who returns their
    tokens); those still to surface are shared in proportion to influence,

and the estimates become return estimates by a softmax whose temperature shrinks as the
game nears its end.  At the end the values are the exact returns.  The weights live in
``WEIGHTS`` (one table); ``make_evaluator(game, "heuristic", **overrides)`` changes any.
"""
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset

from romecore.core.kernel cimport rc_popcount64, RC_MAX_PLAYERS
from romecore.core.evaluator cimport Evaluator, rc_softmax_shares
from romecore.core.evaluator import merge_weights
from romecore.core.state cimport State
from romecore.games.great_city_of_rome.kernel cimport (
    GCState, GC_NTYPES, GC_NDECKCARDS, GC_NINFL, GC_MAXP, Z_HAND, Z_CITY, PH_OVER,
    gc_returns,
    INFL_IN_PLAY, INFL_NONE, M_N, M_RES2, M_YELLOW, M_RED, M_GREEN, M_BLUE,
    M_VEG, M_GRAIN, M_SHEEP, M_AQUEDUCT, gc_scores, gc_city_masks, gc_card_type, gc_infl_round,
)

from romecore.games.great_city_of_rome import data as _data
from romecore.spec import EvaluatorSpec
from romecore.core.evaluator import checked_state

GAME_ID = "great_city_of_rome"

#: The evaluator's weights (points unless said otherwise).
WEIGHTS = {
    "residential_in_hand": 0.9,     # x the building's value
    "public_in_hand": 2.5,
    "public_bonus_in_hand": 0.5,    # deck I specials: + this
    "aqueduct_in_hand": 0.4,        # x the points the next aqueduct would add
    "temple_in_hand": 3.0,
    "farm_in_hand": 1.5,
    "star_in_hand": 0.5,            # per star on the card (influence when built)
    "unscored_house": 0.8,          # x value, per house in an area with no public neighbour
    "veg_per_round": 0.45,          # coins a vegetable farm or the vineyard yields a round
    "sheep_per_round": 0.25,        # points (via influence) a sheep farm yields a round
    "grain_per_round": 0.35,        # points a grain farm's brick tokens save a round
    "future_influence_share": 0.6,  # weight of influence cards still to surface
    "temperature": 4.0,             # softmax temperature at the end of the game (points)
    "temperature_per_round": 1.5,   # + this per round left
}


cdef struct gc_weights:
    double hand[GC_NTYPES]
    double aqueduct_in_hand
    double unscored_house
    double veg, sheep, grain
    double future_influence
    double temperature, temperature_per_round
    int aq_points[5]
    int aqueduct_type[GC_NTYPES]
    int infl_value[GC_NINFL]


cdef void gc_estimates(const GCState *s, const gc_weights *w, double *est) noexcept nogil:
    """Expected final score of every player (see the module docstring)."""
    cdef int32_t pts[RC_MAX_PLAYERS]
    cdef uint64_t m[M_N]
    cdef int n = s.nplayers, p, c, t, i, naq, leader, best, tied, total_infl
    cdef double left = (s.nrounds - s.round + 0.5) / s.nrounds
    cdef int rounds_left = s.nrounds - s.round
    cdef double hand, unscored
    cdef uint64_t houses, touched
    gc_scores(s, pts)
    for p in range(n):
        gc_city_masks(s, p, m)
        est[p] = pts[p]
        naq = rc_popcount64(m[M_AQUEDUCT])
        hand = 0.0
        for c in range(GC_NDECKCARDS):
            if s.loc[c] == Z_HAND + p:
                t = gc_card_type(c)
                if w.aqueduct_type[t]:
                    hand += w.aqueduct_in_hand * (w.aq_points[naq + 1 if naq < 4 else 4] - w.aq_points[naq])
                else:
                    hand += w.hand[t]
        # Houses that no public building touches score nothing yet.
        touched = m[M_YELLOW] | m[M_RED] | m[M_GREEN] | m[M_BLUE]
        touched = ((touched << 1) | (touched >> 1) | (touched << 8) | (touched >> 8))
        unscored = 0.0
        for i in range(3):
            houses = m[M_RES2 + i]
            unscored += (2 + i) * rc_popcount64(houses & ~touched)
        est[p] += left * (hand + w.unscored_house * unscored)
        est[p] += rounds_left * (w.veg * rc_popcount64(m[M_VEG])   # the vineyard counts here
                                 + w.sheep * rc_popcount64(m[M_SHEEP])
                                 + w.grain * rc_popcount64(m[M_GRAIN] & ~m[M_VEG]))
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


cdef void gc_heuristic(const void *vs, const void *vp, double *out) noexcept nogil:
    """Return estimates in [0, 1] summing to 1 (exact returns at the end)."""
    cdef const GCState *s = <const GCState *>vs
    cdef const gc_weights *w = <const gc_weights *>vp
    cdef double est[GC_MAXP]
    if s.phase == PH_OVER:
        gc_returns(s, out)  # exact at the end: the kernel's own returns
        return
    gc_estimates(s, w, est)
    rc_softmax_shares(est, s.nplayers, w.temperature + w.temperature_per_round * (s.nrounds - s.round), out)


cdef class GreatCityHeuristic(Evaluator):
    """The Great City of Rome's hand-written evaluator (C); see the module docstring."""

    cdef gc_weights w
    cdef readonly dict weights

    def __init__(self, game=None, **overrides):
        wt = merge_weights(WEIGHTS, overrides, game, GAME_ID)
        self.weights = wt
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
        for i, pts in enumerate(_data.AQUEDUCT_POINTS):
            self.w.aq_points[i] = pts
        for i, val in enumerate(_data.INFLUENCE_VALUES):
            self.w.infl_value[i] = val
        self.w.aqueduct_in_hand = wt["aqueduct_in_hand"]
        self.w.unscored_house = wt["unscored_house"]
        self.w.veg = wt["veg_per_round"]
        self.w.sheep = wt["sheep_per_round"]
        self.w.grain = wt["grain_per_round"]
        self.w.future_influence = wt["future_influence_share"]
        self.w.temperature = wt["temperature"]
        self.w.temperature_per_round = wt["temperature_per_round"]
        self.fn = gc_heuristic
        self.params = &self.w
        self.game_id = GAME_ID
        self.name = "heuristic"

    def estimates(self, state):
        """Each player's expected final score (the numbers behind the values)."""
        cdef double est[GC_MAXP]
        cdef State st = checked_state(state, GAME_ID)
        gc_estimates(<const GCState *>st.s, &self.w, est)
        return [est[p] for p in range(st.num_players())]


def evaluator_specs():
    return [EvaluatorSpec(GAME_ID, "heuristic", GreatCityHeuristic,
                          "expected final score from city, coins, influence and hand, "
                          "as a softmax over players")]
