# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The hand-written evaluator of Glory to Rome, in C.

Each player's expected final score is estimated as

    points now (the kernel's final-scoring count: Influence, vault, Merchant Bonuses,
      Statue, Wall)
  + the actions of the led role still to come this turn (cards played to lead or follow
    and clients of the role, per role): a led card acts only after the others have
    followed, so without this leading looked like losing a card and thinking won;
  + what the rest of the game is likely to add, scaled by the share of the game left
    (the smaller of the draw pile left and the in-town sites left): materials in
    unfinished structures and their sites' Influence, clients, cards in hand and Jacks,
    stockpile materials, building functions in force, a Forum victory in reach (Forum
    function and at most one role missing),

and the estimates become return estimates by a softmax whose temperature shrinks as the
game nears its end.  At the end the values are the exact returns.  The weights live in
``WEIGHTS`` (one table, tuned by ``scripts/tune_heuristic.py``);
``make_evaluator(game, "heuristic", **overrides)`` changes any of them, and
``features(state)`` gives the numbers they multiply.
"""

from libc.stdint cimport int32_t
from libc.string cimport memset

from romecore.core.kernel cimport rc_popcount64, RC_MAX_PLAYERS
from romecore.core.evaluator cimport HeuristicEvaluator
from romecore.core.evaluator import merge_weights
from romecore.core.state cimport State
from romecore.games.glory_to_rome.kernel cimport (
    gr_returns,
    GRState, GR_MAXP, GR_NMAT, GR_NCARDS, Z_STOCK, Z_CLIENT,
    PH_OVER, PH_FOLLOW, PH_PETITION, PH_PALACE, PH_THINK, PH_DRAW, PH_ACT, PH_ACT_DRAW,
    PH_LEGION, PH_GIVE, PH_COLISEUM, RET_LEAD, RET_FOLLOW, RET_FRAME,
    SF_DONE, B_FORUM, gr_scores, gr_hand_size, gr_acts_left,
)

from romecore.games.glory_to_rome import data as _data
from romecore.errors import InvalidArgumentError
from romecore.spec import EvaluatorSpec
from romecore.core.evaluator import checked_state

GAME_ID = "glory_to_rome"

#: The evaluator's weights (points unless said otherwise), tuned for greedy play by
#: ``python scripts/tune_heuristic.py glory_to_rome --games 100 --sweeps 1 --seed 1``
#: (coordinate search on greedy's results against random at 2-5 players, from every
#: weight at 0.5).  Clients and Jacks came out at 0 as lasting assets: a client counts as
#: the actions it gives when its role is led, a Jack as the card it leads or follows with.
WEIGHTS = {
    "structure_progress": 0.5,   # per material in an unfinished structure (with the next,
    "structure_started": 0.25,   # x the site's Influence: at most 1, the completed worth)
    "client": 0.0,               # per client
    "hand_card": 0.25,           # per Orders card in hand
    "jack": 0.0,                 # per Jack in hand
    "stockpile": 0.25,           # per material in the stockpile
    "function": 1.0,             # per building function in force
    "forum_near": 0.5,           # Forum function and at most one role missing
    "pending_laborer": 0.5,      # per action of the led role still to come this turn
    "pending_craftsman": 0.5,
    "pending_architect": 0.5,
    "pending_legionary": 0.5,
    "pending_merchant": 0.5,
    "pending_patron": 0.5,
    "temperature": 1.5,          # softmax temperature at the end of the game (points)
    "temperature_left": 6.0,     # + this x the share of the game left
}

#: The features in WEIGHTS order (all but the temperatures): ``features(state)`` returns
#: them per player, so an estimate is the score now plus their dot product with WEIGHTS.
FEATURES = tuple(k for k in WEIGHTS if not k.startswith("temperature"))

cdef enum:
    F_PROGRESS = 0
    F_STARTED = 1
    F_CLIENT = 2
    F_HAND = 3
    F_JACK = 4
    F_STOCK = 5
    F_FUNCTION = 6
    F_FORUM = 7
    F_PENDING = 8        # + role
    F_N = 14


#: The temperature's growth was spelt differently per game; the old spelling is accepted,
#: with a warning, for one release.
OLD_TEMPERATURE_LEFT = "temperature_per_left"


cdef struct gr_weights:
    double f[F_N]        # the feature weights, in FEATURES order
    int value[GR_NMAT]
    int deck_after_setup[GR_MAXP + 1]


cdef double game_left(const GRState *s, const gr_weights *w) noexcept nogil:
    cdef int m, sites = 0
    cdef double d, t
    for m in range(GR_NMAT):
        sites += s.in_town[m]
    d = s.deck_total / <double>w.deck_after_setup[s.nplayers]
    t = sites / <double>(GR_NMAT * s.nplayers)
    if d > 1.0:
        d = 1.0
    return d if d < t else t


cdef int pending_actions(const GRState *s, int p) noexcept nogil:
    """Actions of the led role that p still gets this turn: before the actions, the
    cards p played to lead or follow and p's clients of the role (not those hired this
    turn); while p acts, the kernel's count of actions left; after, none."""
    cdef int ph = s.phase, order, c
    cdef bint before, acting
    cdef bint thinking = ph == PH_THINK or ph == PH_DRAW
    if s.role >= GR_NMAT:
        return 0
    before = ph == PH_FOLLOW or ph == PH_PETITION or ph == PH_PALACE or (
        thinking and (s.think_ret == RET_LEAD or s.think_ret == RET_FOLLOW))
    acting = ph == PH_ACT or ph == PH_ACT_DRAW or ph == PH_LEGION or ph == PH_GIVE \
        or ph == PH_COLISEUM or (thinking and s.think_ret == RET_FRAME)
    order = (p - s.leader + s.nplayers) % s.nplayers
    if acting and order == s.act_i:
        return gr_acts_left(s)
    if not (before or (acting and order > s.act_i)):
        return 0
    c = s.cnt[Z_CLIENT + p][s.role] - s.fresh[p][s.role]
    return s.units[p] + (c if c > 0 else 0)


cdef void gr_features(const GRState *s, const gr_weights *w, int p, double *x) noexcept nogil:
    """Player p's features: what the rest of the game is likely to add per unit weight
    (long-term ones scaled by the share of the game left)."""
    cdef int k, m, missing = 0, clients = 0, stock = 0, progress = 0, started = 0
    cdef double left = game_left(s, w)
    memset(x, 0, sizeof(double) * F_N)
    for k in range(s.nstruct):
        if s.st_owner[k] == p and not (s.st_flags[k] & SF_DONE):
            progress += s.st_nmat[k]
            started += w.value[s.st_site[k]]
    for m in range(GR_NMAT):
        clients += s.cnt[Z_CLIENT + p][m]
        stock += s.cnt[Z_STOCK + p][m]
        missing += s.cnt[Z_CLIENT + p][m] == 0
    x[F_PROGRESS] = left * progress
    x[F_STARTED] = left * started
    x[F_CLIENT] = left * clients
    x[F_HAND] = left * (gr_hand_size(s, p) - s.jacks[p])
    x[F_JACK] = left * s.jacks[p]
    x[F_STOCK] = left * stock
    x[F_FUNCTION] = left * rc_popcount64(s.func[p])
    x[F_FORUM] = left if (s.func[p] >> B_FORUM) & 1 and missing <= 1 else 0.0
    if s.role < GR_NMAT:
        x[F_PENDING + s.role] = pending_actions(s, p)


cdef int gr_estimates(const void *vs, const void *vw, double *est) noexcept nogil:
    """Expected final score of every player: points now plus the weighted features;
    returns the number of players."""
    cdef const GRState *s = <const GRState *>vs
    cdef const gr_weights *w = <const gr_weights *>vw
    cdef int32_t pts[RC_MAX_PLAYERS]
    cdef double x[F_N]
    cdef int p, i
    gr_scores(s, pts)
    for p in range(s.nplayers):
        gr_features(s, w, p, x)
        est[p] = pts[p]
        for i in range(F_N):
            est[p] += w.f[i] * x[i]
    return s.nplayers


cdef double gr_game_left(const void *vs, const void *vw) noexcept nogil:
    """The heuristic's time left: the share of the game left (see ``game_left``)."""
    return game_left(<const GRState *>vs, <const gr_weights *>vw)


cdef bint gr_over(const void *vs) noexcept nogil:
    """Whether the game is over (the values are then the exact returns)."""
    return (<const GRState *>vs).phase == PH_OVER


cdef class GloryToRomeHeuristic(HeuristicEvaluator):
    """Glory to Rome's hand-written evaluator (C); see the module docstring."""

    cdef gr_weights w

    def __init__(self, game=None, **overrides):
        wt = merge_weights(WEIGHTS, overrides, game, GAME_ID, {OLD_TEMPERATURE_LEFT: "temperature_left"})
        if wt["structure_progress"] + wt["structure_started"] > 1.0:
            # an unfinished structure would outweigh the same one completed (its Influence)
            raise InvalidArgumentError("structure_progress + structure_started must not exceed 1")
        memset(&self.w, 0, sizeof(gr_weights))
        for i, name in enumerate(FEATURES):
            self.w.f[i] = wt[name]
        for m, md in enumerate(_data.MATERIALS):
            self.w.value[m] = md.value
        for n in range(2, GR_MAXP + 1):
            self.w.deck_after_setup[n] = GR_NCARDS - (_data.START_HAND + 1) * n
        self.set_heuristic(GAME_ID, wt, &self.w, gr_estimates, gr_game_left, gr_over, gr_returns)

    def features(self, state):
        """Each player's features (a list per player, in ``FEATURES`` order): an estimate
        is the player's score now plus their dot product with the weights."""
        cdef double x[F_N]
        cdef State st = checked_state(state, GAME_ID)
        out = []
        for p in range(st.num_players()):
            gr_features(<const GRState *>st.s, &self.w, p, x)
            out.append([x[i] for i in range(F_N)])
        return out


def evaluator_specs():
    return [EvaluatorSpec(GAME_ID, "heuristic", GloryToRomeHeuristic,
                          "expected final score from Influence, vault, structures under way, "
                          "clients, hand and stockpile, as a softmax over players")]
