# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The hand-written evaluator of Rome: Rise to Power, in C.

Each player's expected final score is estimated as

    points now (the kernel's count: forum and arena VP scored so far, end-game Senate
    cards and region control as they stand)
  + each forum scoring still to come, valued at what the tracks would score now,
  + the best show the Arena hand could make, for each show still to come (at most as
    many as the hand has cards for), and a little for the hand's cost (the tie-break),
  + Senate cards with abilities, per round left (they bend dice and turn order),
  + provinces still to be conquered: the player's Military strength this round (dice on
    the track plus bonuses) against the provinces in the row,

and the estimates become return estimates by a softmax whose temperature shrinks as the
game nears its end.  At the end the values are the exact returns.  The weights live in
``WEIGHTS`` (one table); ``make_evaluator(game, "heuristic", **overrides)`` changes any.
"""

from libc.stdint cimport int32_t, uint32_t, uint8_t
from libc.string cimport memset

from romecore.core.kernel cimport rc_popcount32, RC_MAX_PLAYERS
from romecore.core.evaluator cimport HeuristicEvaluator
from romecore.core.evaluator import merge_weights
from romecore.games.rise_to_power.kernel cimport (
    rp_returns,
    RPState, RP_NATYPES, RP_NRES, RP_NPROV, RP_ROUNDS,
    PH_OVER, PH_FORUM, PH_SHOW, PH_PROVINCE, PH_TARGET_PROV, PH_PLACE, PH_DRAW,
    AB_ENDGAME_REGIONS, AB_ENDGAME_PAIRS,
    rp_scores, rp_forum_points, rp_show_rank, rp_hand_cost, rp_arena_type, rp_ability,
    rp_group_sum,
)

from romecore.games.rise_to_power import data as _data
from romecore.spec import EvaluatorSpec

GAME_ID = "rise_to_power"

#: The evaluator's weights (VP unless said otherwise).
WEIGHTS = {
    "forum_scoring": 0.9,        # x the forum VP the tracks would give now, per scoring left
    "show_per_scoring": 0.8,     # x the VP of the best show the hand can make, per show left
    "hand_cost": 0.02,           # per coin of Arena cards in hand (the final tie-break)
    "ability_card": 0.35,        # per Senate card with an ability, per round left
    "military_reach": 0.25,      # per point of province power this round's strength reaches
    "temperature": 2.0,          # softmax temperature at the end of the game (VP)
    "temperature_left": 1.5,     # + this per round left
}

cdef int SCORING_ROUNDS[6]
cdef uint8_t PROV_POWER[RP_NPROV]
cdef int RANK_VP[5]


#: The temperature's growth was spelt differently per game; the old spelling is accepted,
#: with a warning, for one release.
OLD_TEMPERATURE_LEFT = "temperature_per_round"


cdef struct rp_weights:
    double forum, show, hand_cost, ability, military


cdef inline int scorings_left(const RPState *s, int phase_of_scoring) noexcept nogil:
    """Scoring phases (forum or show) still to come, this round's included."""
    cdef int r, n = 0, ph = s.phase
    if PH_PROVINCE <= ph <= PH_TARGET_PROV:
        ph = s.ret  # inside an activation: the phase it returns to
    for r in range(s.round + 1, 6):
        n += SCORING_ROUNDS[r]
    if SCORING_ROUNDS[s.round] and ph < phase_of_scoring:
        n += 1
    return n


cdef inline int best_show_vp(const RPState *s, int p) noexcept nogil:
    cdef uint8_t cnt[RP_NATYPES]
    cdef uint32_t m = s.a_hand[p] | s.a_show[p]
    cdef int c, r
    memset(cnt, 0, sizeof(cnt))
    while m:
        c = __builtin_ctz(m)
        m &= m - 1
        cnt[rp_arena_type(c)] += 1
    r = rp_show_rank(cnt)
    return RANK_VP[r] if r >= 0 else 0


cdef extern from *:
    int __builtin_ctz(unsigned int) nogil


cdef int rp_estimates(const void *vs, const void *vw, double *est) noexcept nogil:
    """Expected final score of every player (see the module docstring); returns the
    number of players."""
    cdef const RPState *s = <const RPState *>vs
    cdef const rp_weights *w = <const rp_weights *>vw
    cdef int32_t pts[RC_MAX_PLAYERS]
    cdef int n = s.nplayers, p, t, c, ab, forum_now, shows, cards, reach, budget, k
    cdef int forum_left = scorings_left(s, PH_FORUM)
    cdef int show_left = scorings_left(s, PH_SHOW)
    cdef int rounds_left = 5 - s.round
    cdef uint32_t m, row
    rp_scores(s, pts)
    for p in range(n):
        est[p] = pts[p]
        forum_now = 0
        for t in range(RP_NRES):
            forum_now += rp_forum_points(s, p, t)
        est[p] += w.forum * forum_left * forum_now
        cards = rc_popcount32(s.a_hand[p] | s.a_show[p])
        shows = show_left if show_left < cards // 3 else cards // 3
        est[p] += w.show * shows * best_show_vp(s, p) + w.hand_cost * rp_hand_cost(s, p)
        m = s.s_own[p]
        k = 0
        while m:
            c = __builtin_ctz(m)
            m &= m - 1
            ab = rp_ability(c)
            if ab < AB_ENDGAME_REGIONS or ab > AB_ENDGAME_PAIRS:
                k += 1
        est[p] += w.ability * k * rounds_left
        # this round's Military strength against the provinces in the row
        if PH_PLACE <= s.phase <= PH_DRAW and s.grp[0][p].n:
            budget = rp_group_sum(s, 0, p) + s.mil_bonus[p]
            reach = 0
            row = s.p_row
            while row:
                c = __builtin_ctz(row)
                row &= row - 1
                if PROV_POWER[c] <= budget:
                    reach = PROV_POWER[c] if PROV_POWER[c] > reach else reach
            est[p] += w.military * reach
    return n


cdef double rp_rounds_left(const void *vs, const void *vw) noexcept nogil:
    """The heuristic's time left: the rounds after this one."""
    return RP_ROUNDS - (<const RPState *>vs).round


cdef bint rp_over(const void *vs) noexcept nogil:
    """Whether the game is over (the values are then the exact returns)."""
    return (<const RPState *>vs).phase == PH_OVER


def _load_tables():
    memset(SCORING_ROUNDS, 0, sizeof(SCORING_ROUNDS))
    for r in _data.SCORING_ROUNDS:
        SCORING_ROUNDS[r] = 1
    for i, pr in enumerate(_data.PROVINCES):
        PROV_POWER[i] = pr.power
    for r, (_name, vp) in enumerate(_data.SHOW_RANKS):
        RANK_VP[r] = vp


_load_tables()


cdef class RiseToPowerHeuristic(HeuristicEvaluator):
    """Rise to Power's hand-written evaluator (C); see the module docstring."""

    cdef rp_weights w

    def __init__(self, game=None, **overrides):
        wt = merge_weights(WEIGHTS, overrides, game, GAME_ID, {OLD_TEMPERATURE_LEFT: "temperature_left"})
        self.w.forum = wt["forum_scoring"]
        self.w.show = wt["show_per_scoring"]
        self.w.hand_cost = wt["hand_cost"]
        self.w.ability = wt["ability_card"]
        self.w.military = wt["military_reach"]
        self.set_heuristic(GAME_ID, wt, &self.w, rp_estimates, rp_rounds_left, rp_over, rp_returns)


def evaluator_specs():
    return [EvaluatorSpec(GAME_ID, "heuristic", RiseToPowerHeuristic,
                          "expected final VP from scores so far, forum standings, the best show "
                          "in hand, Senate abilities and Military reach, as a softmax over players")]
