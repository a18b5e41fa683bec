# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The hand-written evaluator of Rome: City of Marble, in C.

Each player's expected final score is estimated as

    points now (the kernel's final-scoring count: track, bridges, aqueduct and fountain
    bonuses, coins, the most-coins bonus and the Imperium majorities),
  + influence standing on open sites: for every open site with tiles, the building it
    will most likely become (from its tiles so far) goes to the player with the most
    magistrates on tiles of that colour there, weighted by how full the site is (a tie
    shares a little, as a fountain pays only coins),
  + magistrates waiting on Imperium spaces and the Treasury (a tile or a coin at the end
    of their owner's turn),
  + the bridge spaces a tile may cover now, at the mean value of the bridge tiles not yet
    taken, to the player about to act (as many as their actions left),
  + a share of the aqueduct points of each civic building no aqueduct reaches yet,
  + what the rest of the game is likely to add, scaled by the share of the tiles still in
    the stacks: tiles in hand, Imperium tiles (extra actions) and free magistrates,

and the estimates become return estimates by a softmax whose temperature shrinks as the
stacks run out.  At the end the values are the exact returns.  The weights live in
``WEIGHTS`` (one table); ``make_evaluator(game, "heuristic", **overrides)`` changes any.
The ``fitted`` evaluator is the same code on ``FITTED``, the weights fitted to game
outcomes, which ``ismcts`` judges by (see ``FITTED``).
"""
from libc.stdint cimport int32_t
from libc.string cimport memset

from romecore.core.kernel cimport RC_MAX_PLAYERS
from romecore.core.evaluator cimport HeuristicEvaluator
from romecore.core.evaluator import merge_weights
from romecore.games.city_of_marble.kernel cimport (
    cm_returns,
    CMState, CM_MAXP, CM_NCOL, CM_NMAG, SITE_OPEN, PH_OVER,
    LOC_IMPERIUM, LOC_TREASURY, CM_NBVAL, cm_points, cm_open_bridges, cm_bridge_pool,
    cm_nsites, cm_site_cover, cm_influence, CM_MAXSITES,
)

from romecore.games.city_of_marble import data as _data
from romecore.spec import EvaluatorSpec

GAME_ID = "city_of_marble"

#: The evaluator's weights (points unless said otherwise).
WEIGHTS = {
    "site_lead": 0.8,              # x the building's points x the site's filled share
    "site_tie": 0.15,              # the same, to each tied leader
    "spoke_rate": 0.35,            # expected share of a site's free triangle pairs laid as spokes
    "imperium_waiting": 1.5,       # a magistrate on an Imperium space
    "treasury_waiting": 1.0,       # a magistrate on the Treasury
    "tile_in_hand": 1.2,           # per tile in the centre or drawn box, x the game left
    "imperium_action": 1.0,        # per Imperium tile held (an extra action), x the game left
    "free_magistrate": 0.5,        # per magistrate in the centre box, x the game left
    "bridge_reach": 0.651,         # x a reachable bridge's mean value, to the player to act
    "unconnected": 0.332,          # per civic building off the aqueducts, x the game left
    "temperature": 3.0,            # softmax temperature at the end of the game (points)
    "temperature_left": 6.0,       # + this x the share of the game left
}

#: The weights fitted to the outcomes of 400 two-player games of ``greedy`` on ``WEIGHTS``
#: (least squares of the score still to come, then the temperatures by the log-likelihood
#: of the results; ``bench/archive/fitted-weights.md`` gives the command).  They predict the
#: results better (held-out log-loss 0.646 against 0.682) but rank one turn's moves no
#: better: ``greedy`` keeps ``WEIGHTS``, and ``ismcts``, whose leaves lie at different
#: depths and phases and so must be comparable, judges by these (the ``fitted`` evaluator).
FITTED = {**WEIGHTS,
          "site_lead": 0.34, "site_tie": 0.0, "imperium_waiting": 2.785,
          "treasury_waiting": 3.433, "tile_in_hand": 0.756, "imperium_action": 0.0,
          "free_magistrate": 0.0, "bridge_reach": 0.743, "unconnected": 0.0,
          "temperature_left": 12.0}


cdef struct cm_weights:
    double site_lead, site_tie, spoke_rate, imperium_waiting, treasury_waiting
    double tile_in_hand, imperium_action, free_magistrate, bridge_reach, unconnected
    int points[CM_NCOL]
    int size_colour[7]
    int stack_total                # tiles in the stacks at the start, by player count
    int start_tiles                # tiles each player takes from the stacks at set-up


cdef inline double game_left(const CMState *s, const cm_weights *w) noexcept nogil:
    """Share of the tiles still in the stacks (1 at the start, 0 when they are gone)."""
    cdef int left = s.stack[0] + s.stack[1] + s.stack[2] + s.stack[3]
    cdef int start = w.stack_total - s.nplayers * w.start_tiles
    if start <= 0 or left >= start:
        return 1.0
    return left / <double>start


cdef int cm_estimates(const void *vs, const void *vw, double *est) noexcept nogil:
    """Expected final score of every player (see the module docstring); returns the
    number of players."""
    cdef const CMState *s = <const CMState *>vs
    cdef const cm_weights *w = <const cm_weights *>vw
    cdef int32_t pts[RC_MAX_PLAYERS]
    cdef int infl[CM_MAXP]
    cdef int unconnected[CM_MAXP]
    cdef int tiles[CM_MAXSITES]
    cdef int spokes[CM_MAXSITES]
    cdef int n = s.nplayers, p, i, j, c, k, loc, size, best, ties, covered
    cdef int reach = 0, pool = 0, pool_points = 0, left_of_value
    cdef double left = game_left(s, w), fill, hand, bridges = 0.0
    cm_points(s, pts, unconnected)
    if w.bridge_reach != 0.0 and cm_open_bridges(s, &reach) and s.actions_left:
        for k in range(1, CM_NBVAL + 1):
            left_of_value = cm_bridge_pool(s, k)
            pool += left_of_value
            pool_points += k * left_of_value
        if reach > s.actions_left:
            reach = s.actions_left
        if pool:
            bridges = w.bridge_reach * reach * pool_points / <double>pool
    for p in range(n):
        est[p] = pts[p] + (bridges if p == s.turn_player else 0.0)
        hand = 0.0
        for c in range(CM_NCOL):
            hand += w.tile_in_hand * (s.centre[p][c] + (s.pending[c] if p == s.turn_player else 0))
            hand += w.imperium_action * s.imp[p][c]
        for j in range(CM_NMAG):
            loc = s.mag[p][j]
            if LOC_IMPERIUM <= loc < LOC_IMPERIUM + CM_NCOL:
                est[p] += w.imperium_waiting
            elif loc == LOC_TREASURY:
                est[p] += w.treasury_waiting
            elif loc > LOC_TREASURY:
                hand += w.free_magistrate
        hand += w.unconnected * unconnected[p]
        est[p] += left * hand
    # triangles covered so far in each site, and tiles lying on two of them (spokes)
    cm_site_cover(s, tiles, spokes)
    for i in range(cm_nsites()):
        if s.site[i] != SITE_OPEN or tiles[i] == 0:
            continue
        covered = tiles[i] + spokes[i]
        if covered >= 6:
            continue            # a hill in play, or a completion being resolved
        size = <int>(6 - spokes[i] - w.spoke_rate * (6 - covered) / 2.0 + 0.5)
        if size < 3:
            size = 3
        c = w.size_colour[size]
        if c < 0:
            continue
        cm_influence(s, i, c, infl)
        best = 0
        ties = 0
        for p in range(n):
            if infl[p] > best:
                best = infl[p]
                ties = 1
            elif infl[p] == best and best > 0:
                ties += 1
        if best == 0:
            continue
        fill = covered / 6.0
        for p in range(n):
            if infl[p] == best:
                est[p] += (w.site_lead if ties == 1 else w.site_tie) * w.points[c] * fill
    return n


cdef double cm_game_left(const void *vs, const void *vw) noexcept nogil:
    """The heuristic's time left: the share of the tiles still in the stacks."""
    return game_left(<const CMState *>vs, <const cm_weights *>vw)


cdef bint cm_over(const void *vs) noexcept nogil:
    """Whether the game is over (the values are then the exact returns)."""
    return (<const CMState *>vs).phase == PH_OVER


cdef class CityOfMarbleHeuristic(HeuristicEvaluator):
    """Rome: City of Marble's hand-written evaluator (C); see the module docstring."""

    cdef cm_weights w

    def __init__(self, game=None, **overrides):
        wt = merge_weights(WEIGHTS, overrides, game, GAME_ID)
        if not 0.0 <= wt["spoke_rate"] <= 1.0:
            raise ValueError("spoke_rate is a share between 0 and 1")
        memset(&self.w, 0, sizeof(cm_weights))
        self.w.site_lead = wt["site_lead"]
        self.w.site_tie = wt["site_tie"]
        self.w.spoke_rate = wt["spoke_rate"]
        self.w.imperium_waiting = wt["imperium_waiting"]
        self.w.treasury_waiting = wt["treasury_waiting"]
        self.w.tile_in_hand = wt["tile_in_hand"]
        self.w.imperium_action = wt["imperium_action"]
        self.w.free_magistrate = wt["free_magistrate"]
        self.w.bridge_reach = wt["bridge_reach"]
        self.w.unconnected = wt["unconnected"]
        for k in range(7):
            self.w.size_colour[k] = -1
        for c, col in enumerate(_data.COLOURS):
            self.w.points[c] = col.points
            self.w.size_colour[col.site_size] = c
        self.w.stack_total = sum(col.tiles for col in _data.COLOURS)
        self.w.start_tiles = _data.STARTING_TILES * len(_data.COLOURS)
        self.set_heuristic(GAME_ID, wt, &self.w, cm_estimates, cm_game_left, cm_over, cm_returns)


cdef class CityOfMarbleFitted(CityOfMarbleHeuristic):
    """The heuristic on :data:`FITTED` (any weight may still be overridden): the evaluator
    ``ismcts`` judges by at City of Marble (the game's ``agent_defaults``)."""

    def __init__(self, game=None, **overrides):
        super().__init__(game, **{**FITTED, **overrides})
        self.name = "fitted"


def evaluator_specs():
    return [EvaluatorSpec(GAME_ID, "heuristic", CityOfMarbleHeuristic,
                          "expected final score from points, open-site influence, waiting "
                          "magistrates, tiles and Imperium, as a softmax over players"),
            EvaluatorSpec(GAME_ID, "fitted", CityOfMarbleFitted,
                          "the heuristic with its weights and temperatures fitted to game "
                          "outcomes (scripts/fit_heuristic.py): the search agents' evaluator")]
