# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The hand-written evaluator of Glory to Rome, in C.

Each player's expected final score is estimated as

    points now (the kernel's final-scoring count: Influence, vault, Merchant Bonuses,
      Statue, Wall)
  + what the rest of the game is likely to add, scaled by the share of the game left
    (the smaller of the draw pile left and the in-town sites left):
      unfinished structures: the Influence each would give, times the share of its
      materials already in, plus a little for the start;
      clients (each a future action), cards in hand and Jacks, stockpile materials
      (future vault or building material), building functions in force,

and the estimates become return estimates by a softmax whose temperature shrinks as the
game nears its end.  A Forum victory in reach (Forum function and at most one role
missing) adds a bonus.  At the end the values are the exact returns.  The weights live
in ``WEIGHTS`` (one table); ``make_evaluator(game, "heuristic", **overrides)`` changes
any of them.
"""
from libc.stdint cimport int32_t, uint64_t
from libc.string cimport memset

from romecore.core.kernel cimport rc_popcount64
from romecore.core.evaluator cimport Evaluator, rc_softmax_shares
from romecore.core.evaluator import merge_weights
from romecore.core.state cimport State
from romecore.games.glory_to_rome.kernel cimport (
    gr_returns,
    GRState, GR_MAXP, GR_NMAT, GR_NCARDS, GR_NJACKS, Z_HAND, Z_STOCK, Z_CLIENT, Z_FOUND, Z_MAT,
    PH_OVER, SF_DONE, B_FORUM, SC_TOTAL, SC_N, gr_score, gr_hand_size, gr_card_material,
)

from romecore.games.glory_to_rome import data as _data
from romecore.spec import EvaluatorSpec

GAME_ID = "glory_to_rome"

#: The evaluator's weights (points unless said otherwise).
WEIGHTS = {
    "structure_progress": 0.9,   # x the site's Influence x share of materials in
    "structure_started": 0.4,    # x the site's Influence, for every unfinished structure
    "client": 1.3,               # per client
    "hand_card": 0.35,           # per Orders card in hand
    "jack": 0.7,                 # per Jack in hand
    "stockpile": 0.45,           # per material in the stockpile
    "function": 0.5,             # per building function in force
    "forum_near": 6.0,           # Forum function and at most one role missing
    "temperature": 1.5,          # softmax temperature at the end of the game (points)
    "temperature_per_left": 6.0, # + this x the share of the game left
}


cdef struct gr_weights:
    double progress, started, client, hand_card, jack, stockpile, function, forum_near
    double temperature, temperature_per_left
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


cdef void gr_estimates(const GRState *s, const gr_weights *w, double *est) noexcept nogil:
    """Expected final score of every player (see the module docstring)."""
    cdef int32_t sc[SC_N]
    cdef int n = s.nplayers, p, k, m, missing, clients, stock
    cdef double left = game_left(s, w), future
    for p in range(n):
        gr_score(s, p, sc)
        est[p] = sc[SC_TOTAL]
        future = 0.0
        for k in range(s.nstruct):
            if s.st_owner[k] == p and not (s.st_flags[k] & SF_DONE):
                m = s.st_site[k]
                future += w.value[m] * (w.started + w.progress * s.st_nmat[k] / <double>w.value[m])
        clients = 0
        stock = 0
        missing = 0
        for m in range(GR_NMAT):
            clients += s.cnt[Z_CLIENT + p][m]
            stock += s.cnt[Z_STOCK + p][m]
            missing += s.cnt[Z_CLIENT + p][m] == 0
        future += w.client * clients + w.stockpile * stock + w.jack * s.jacks[p]
        future += w.hand_card * (gr_hand_size(s, p) - s.jacks[p])
        future += w.function * rc_popcount64(s.func[p])
        if (s.func[p] >> B_FORUM) & 1 and missing <= 1:
            future += w.forum_near
        est[p] += left * future


cdef void gr_heuristic(const void *vs, const void *vp, double *out) noexcept nogil:
    """Return estimates in [0, 1] summing to 1 (exact returns at the end)."""
    cdef const GRState *s = <const GRState *>vs
    cdef const gr_weights *w = <const gr_weights *>vp
    cdef double est[GR_MAXP]
    cdef double t
    cdef int n = s.nplayers, p
    if s.phase == PH_OVER:
        gr_returns(s, out)  # exact at the end: the kernel's own returns
        return
    gr_estimates(s, w, est)
    t = w.temperature + w.temperature_per_left * game_left(s, w)
    rc_softmax_shares(est, n, t, out)


cdef class GloryToRomeHeuristic(Evaluator):
    """Glory to Rome's hand-written evaluator (C); see the module docstring."""

    cdef gr_weights w
    cdef readonly dict weights

    def __init__(self, game=None, **overrides):
        wt = merge_weights(WEIGHTS, overrides, game, GAME_ID)
        self.weights = wt
        memset(&self.w, 0, sizeof(gr_weights))
        self.w.progress = wt["structure_progress"]
        self.w.started = wt["structure_started"]
        self.w.client = wt["client"]
        self.w.hand_card = wt["hand_card"]
        self.w.jack = wt["jack"]
        self.w.stockpile = wt["stockpile"]
        self.w.function = wt["function"]
        self.w.forum_near = wt["forum_near"]
        self.w.temperature = wt["temperature"]
        self.w.temperature_per_left = wt["temperature_per_left"]
        for m, md in enumerate(_data.MATERIALS):
            self.w.value[m] = md.value
        for n in range(2, GR_MAXP + 1):
            self.w.deck_after_setup[n] = GR_NCARDS - (_data.START_HAND + 1) * n
        self.fn = gr_heuristic
        self.params = &self.w
        self.game_id = GAME_ID
        self.name = "heuristic"

    def estimates(self, State state):
        """Each player's expected final score (the numbers behind the values)."""
        cdef double est[GR_MAXP]
        if state.game.game_id != GAME_ID:
            raise ValueError(f"this evaluator is for {GAME_ID}")
        gr_estimates(<const GRState *>state.s, &self.w, est)
        return [est[p] for p in range(state.num_players())]


def evaluator_specs():
    return [EvaluatorSpec(GAME_ID, "heuristic", GloryToRomeHeuristic,
                          "expected final score from Influence, vault, structures under way, "
                          "clients, hand and stockpile, as a softmax over players")]
