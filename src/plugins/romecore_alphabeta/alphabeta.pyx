# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Alpha-beta search for any number of players, with chance nodes.

Values are the searching ("root") player's, in [0, 1]: the exact return at the end of the
game, the evaluator's estimate at the search horizon.

* ``algorithm=paranoid`` (Sturtevant and Korf, 2000): every opponent minimises the root
  player's value; with two players this is plain minimax.
* ``algorithm=brs``, best-reply search (Schadd and Winands, 2011), for a kernel whose turn
  order is fixed: between two decisions of the root player only one opponent's moves are
  searched; every other opponent plays a default move (the one the evaluator likes best
  for them, as in BRS+, since a kernel cannot let a player pass).  At an opponent's first
  decision the minimising side chooses between "this opponent replies" (their decisions
  are searched, each a ply) and "this opponent plays the default" (no ply used), so the
  search ranges over which opponent gives the best reply.
* Chance nodes: ``chance=star1`` is *-minimax with Ballard's Star1 pruning (bounds from
  the value range); ``star2`` adds Star2's probing (one line per outcome bounds the
  outcome before the full search); ``sample`` averages ``chance_samples`` outcomes drawn
  with a generator seeded from the position (so a node is sampled the same way every
  time).  A chance node uses one ply of depth.
* Unfinished turns: when a kernel splits one move into several decisions of the same
  player (choose a building, then its cell), a leaf in the middle of it would be judged
  half-made.  With ``extend=N`` (default 8) the search goes on past the horizon while the
  player who just moved is still to move, up to N extra plies on a path.  A leaf with a
  chance event pending (a draw) is judged as the mean of ``chance_samples`` sampled
  outcomes, so a card drawn counts as drawn; that value is kept in the transposition
  table, since another order of the same moves meets the position again.
* Iterative deepening under the budget (``nodes``, ``time``, or a fixed ``depth``); the
  result of the deepest finished iteration is played, unless the unfinished one after it
  found a move that beats that move at its greater depth (``partial``; when the first
  iteration does not finish, the best of the moves it searched).  Move ordering: the
  transposition table's best move first, then, two or more plies from the horizon, the
  evaluator's one-ply estimate.  ``pvs`` (principal variation search) gives every move
  after a node's first a null window first, and searches it in full only when it beats the
  best so far (two or more plies from the horizon): the same values, and fewer leaves
  where the ordering is good (The Great City of Rome turns it on; at City of Marble it
  searched more).  Root moves that tie with the best are told apart by a seeded random
  choice.
* Late move reductions (``lmr=N``): three or more plies from the horizon, the moves from
  the N-th on are first searched a ply shallower with a null window at the bound, and in
  full only when that fails to refute them.  Not exact, so off by default; at The Great
  City of Rome, where a ply at 0.1 s a move is worth many games, it is on (``lmr=2``).
* Transposition table keyed by a Zobrist hash of the state struct: one random 64-bit key
  per (byte offset, byte value), updated incrementally from the bytes a move changed.
* Hidden information: ``pimc=N`` searches N resampled worlds (budget split evenly) and
  the worlds vote; 1 searches the world handed to ``step``.
* The decisions of one turn (``reuse``, with one world): when the move chosen leaves the
  same player to decide, and the next call hands in that same position as the player knows
  it (``SearchAgent._take_next``), the search goes on in the world it searched before,
  advanced by the move, and keeps its transposition table: the turn is planned in one
  world, not re-planned in a fresh resample at every decision.  Off by default: at 0.1 s a
  move it did not win more games (bench/archive/turn-aware-search.md).
"""
from libc.stdint cimport int8_t, uint8_t, int16_t, int32_t, uint32_t, uint64_t
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset

from romecore.core.kernel cimport (
    rc_kernel, rc_pop_lsb64, rc_rng, rc_rng_seed, rc_rng_next, rc_rng_below, rc_sample_chance, RC_CHANCE, RC_TERMINAL,
    RC_MAX_PLAYERS,
)
from romecore_search.core cimport (
    SearchAgent, stack_init, stack_free, stack_at, budget_tick, budget_done, play_chance,
)
from romecore.errors import AgentSpecError
from romecore.spec import param_values
from romecore_search import BUDGET_PARAMS, PIMC_PARAMS

cdef enum:
    CH_STAR1 = 0
    CH_STAR2 = 1
    CH_SAMPLE = 2
    TT_EXACT = 0
    TT_LOWER = 1
    TT_UPPER = 2

CHANCE_MODES = {"star1": CH_STAR1, "star2": CH_STAR2, "sample": CH_SAMPLE}
ALGORITHMS = ("paranoid", "brs")

#: The parameters and their defaults (the ``alphabeta`` spec's table).
PARAMS = {
    "nodes": (int, 0, "nodes per move (0: 20000 unless time or depth is given)"),
    **BUDGET_PARAMS,
    "depth": (int, 0, "deepest iteration (0: deepen until the budget is spent, at most 64)"),
    "algorithm": (str, "paranoid", "paranoid, or brs (best-reply search)"),
    "chance": (str, "star2", "chance nodes: star1, star2 (*-minimax) or sample"),
    "chance_samples": (int, 4, "outcomes drawn at a chance node with chance=sample, and at a chance leaf"),
    "evaluator": (str, "default", "evaluator at the horizon (default: the game's first, else playouts)"),
    "ordering": (bool, True, "order moves by the evaluator two or more plies from the horizon"),
    "tt_bits": (int, 18, "transposition table of 2**tt_bits entries (24 bytes each)"),
    **PIMC_PARAMS,
    "max_ply": (int, 256, "deepest ply (default moves of best-reply search use no depth)"),
    "extend": (int, 8, "plies searched past the horizon while the last mover's turn goes on"),
    "partial": (bool, True, "play a move that beats the last best in the unfinished iteration"),
    "pvs": (bool, False, "principal variation search: later moves first get a null window"),
    "lmr": (int, 0, "late move reductions: from this move on (0: off), moves are first tried a "
                    "ply shallower, three or more plies from the horizon"),
    "reuse": (bool, False, "while the same player decides again (the decisions of one turn), go "
                           "on in the world searched before and keep the transposition table"),
}

cdef double LO = 0.0      # the value range: returns and evaluator values lie in [0, 1]
cdef double HI = 1.0
cdef double NEG = -1.0    # outside the range: an open window
cdef double POS = 2.0
cdef double TIE = 1e-9     # root values this close to the best tie with it
cdef double NULL_WINDOW = 1e-6  # principal variation search's test window (the table keeps floats)


cdef inline void sort_moves(double *key, int32_t *acts, int n, bint descending) noexcept nogil:
    """Sorts ``acts[:n]`` with their ``key`` by key, stably (insertion sort: short lists)."""
    cdef int i, j
    cdef int32_t ta
    cdef double tk
    for i in range(1, n):
        tk = key[i]
        ta = acts[i]
        j = i - 1
        while j >= 0 and ((key[j] < tk) if descending else (key[j] > tk)):
            key[j + 1] = key[j]
            acts[j + 1] = acts[j]
            j -= 1
        key[j + 1] = tk
        acts[j + 1] = ta


cdef inline int _best_searched(const double *vals, int m, double tie) noexcept nogil:
    """Of the ``m`` root moves an unfinished iteration searched, the index of the first
    best one that beats the first move (the last iteration's best) by more than ``tie``,
    else 0."""
    cdef int j, b = 0
    for j in range(1, m):
        if vals[j] > vals[b] + tie:
            b = j
    return b


cdef class AlphaBetaAgent(SearchAgent):
    """Paranoid / best-reply alpha-beta with *-minimax chance nodes (see the module);
    parameters and defaults: :data:`PARAMS`."""

    def __init__(self, game, seed=None, **params):
        p = param_values("alphabeta", PARAMS, params)
        algorithm, chance, evaluator = p["algorithm"], p["chance"], p["evaluator"]
        cdef int depth = p["depth"], chance_samples = p["chance_samples"], tt_bits = p["tt_bits"]
        cdef int max_ply = p["max_ply"], extend = p["extend"]
        if algorithm not in ALGORITHMS:
            raise AgentSpecError(f"algorithm={algorithm!r}: choose paranoid or brs")
        if chance not in CHANCE_MODES:
            raise AgentSpecError(f"chance={chance!r}: choose star1, star2 or sample")
        if depth < 0 or depth > 64:
            raise AgentSpecError("depth must lie in 0..64 (0: iterative deepening to 64)")
        if chance_samples < 1 or not 8 <= tt_bits <= 26 or not 8 <= max_ply <= 4096:
            raise AgentSpecError("chance_samples >= 1, tt_bits in 8..26, max_ply in 8..4096")
        if evaluator in (None, "none"):
            raise AgentSpecError("alphabeta needs an evaluator at its horizon")
        if not 0 <= extend <= 64:
            raise AgentSpecError("extend must lie in 0..64")
        self._configure(game, seed, p["nodes"], p["time"], evaluator, p["clock"])
        self._configure_pimc(p["pimc"])
        self.brs = algorithm == "brs"
        self.chance_mode = CHANCE_MODES[chance]
        self.chance_samples = chance_samples
        self.ordering = p["ordering"]
        self.max_depth = depth if depth > 0 else 64
        self.max_ply = max_ply
        self.extend = extend
        self._fixed_depth = depth > 0
        self.reuse = p["reuse"]
        self.partial = p["partial"]
        self.pvs = p["pvs"]
        self.lmr = p["lmr"]
        if self.lmr < 0:
            raise AgentSpecError("lmr must be 0 (off) or the first move reduced (1 or more)")
        cdef int ml = self.k.max_legal, i
        cdef size_t nz = <size_t>self.k.state_size * 256
        cdef rc_rng zr
        self.hashes = <uint64_t *>malloc(sizeof(uint64_t) * (max_ply + 2))
        self.brs_player = <int8_t *>malloc(max_ply + 2)
        self.brs_default = <uint32_t *>malloc(sizeof(uint32_t) * (max_ply + 2))
        self.movers = <int8_t *>malloc(max_ply + 2)
        self.exts = <int8_t *>malloc(max_ply + 2)
        self.ply_acts = <int32_t *>malloc(sizeof(int32_t) * ml * (max_ply + 2))
        self.ply_probs = <double *>malloc(sizeof(double) * ml * (max_ply + 2))
        self.ply_lo = <double *>malloc(sizeof(double) * ml * (max_ply + 2))
        self.ply_hi = <double *>malloc(sizeof(double) * ml * (max_ply + 2))
        self.zobrist = <uint64_t *>malloc(sizeof(uint64_t) * nz)
        self.tt = <ab_entry *>malloc(sizeof(ab_entry) * (<size_t>1 << tt_bits))
        if (self.hashes == NULL or self.brs_player == NULL or self.brs_default == NULL
                or self.movers == NULL or self.exts == NULL
                or self.ply_acts == NULL or self.ply_probs == NULL or self.ply_lo == NULL
                or self.ply_hi == NULL or self.zobrist == NULL or self.tt == NULL
                or stack_init(&self.states, self.k.state_size, max_ply + 3) < 0):
            raise MemoryError()
        self.tt_mask = (<uint64_t>1 << tt_bits) - 1
        memset(self.tt, 0, sizeof(ab_entry) * (<size_t>1 << tt_bits))
        self.gen = 0
        rc_rng_seed(&zr, 0x5EEDC0DE2011ULL)  # fixed keys: hashes do not depend on the seed
        for i in range(nz):
            self.zobrist[i] = rc_rng_next(&zr)

    def __dealloc__(self):
        stack_free(&self.states)
        free(self.hashes)
        free(self.brs_player)
        free(self.brs_default)
        free(self.movers)
        free(self.exts)
        free(self.ply_acts)
        free(self.ply_probs)
        free(self.ply_lo)
        free(self.ply_hi)
        free(self.zobrist)
        free(self.tt)

    # -- the root --------------------------------------------------------------------
    cdef int32_t _search(self, int player) except -2:
        cdef int32_t a
        cdef bint same_world
        self._setup_budget(0 if self._fixed_depth else 20000)
        self.leaf_evals = 0
        self.leaf_hits = 0
        if self.worlds > 1:
            return self._search_worlds(player)
        # The next decision of a turn: the world of the last search, one move on, and its
        # table; else the world handed in, and a fresh table.
        same_world = self.reuse and self._take_next(self.root, player)
        if same_world:
            memcpy(self.root, self.next_state, self.k.state_size)
        else:
            self._new_world()
        self.stats["same_world"] = bool(same_world)
        a = self._iterate(self.root, player)
        if self.reuse:
            self._keep_after(a, player)
        return a

    cdef int32_t _search_world(self, const void *world, int player) except -2:
        self._new_world()
        return self._iterate(world, player)

    cdef void _new_world(self) noexcept nogil:
        """A search in another world: the table's entries are stale (a new generation;
        the table is cleared when the generation counter wraps)."""
        self.gen = <uint8_t>(self.gen + 1)
        if self.gen == 0:
            memset(self.tt, 0, sizeof(ab_entry) * (self.tt_mask + 1))
            self.gen = 1

    cdef list _world_scores(self):
        """The root moves' values (summed over the worlds: the tie-break)."""
        return self.stats["values"]

    cdef int32_t _iterate(self, const void *start, int player) except -2:
        """Iterative deepening from ``start``; the best move of the deepest finished
        iteration."""
        cdef const rc_kernel *k = self.k
        cdef int n, i, j, depth, done = 0
        cdef int32_t *acts = self.ply_acts
        cdef double *vals = self.ply_probs
        cdef double alpha, v
        cdef int32_t best
        cdef bint switched = False
        self.root_player = player
        memcpy(stack_at(&self.states, 0), start, k.state_size)
        self.hashes[0] = self._rehash(0)
        self.brs_player[0] = -1
        self.brs_default[0] = 0
        self.movers[0] = -1
        self.exts[0] = 0
        n = k.legal_actions(start, acts)
        for i in range(n):
            vals[i] = 0.0
        best = acts[0]
        self.aborted = False
        for depth in range(1, self.max_depth + 1):
            alpha = NEG
            with nogil:
                for i in range(n):
                    # A window just below the best so far: a move as good as the best
                    # gets its exact value (so ties are seen), a worse one a bound.
                    v = self._child(0, depth - 1, acts[i], alpha - TIE, POS, -1, 0)
                    if self.aborted:
                        break
                    vals[i] = v
                    if v > alpha:
                        alpha = v
            if self.aborted:
                if depth == 1:
                    # The budget ran out in the first iteration: the best of the moves
                    # searched so far (the first move when none was).
                    j = _best_searched(vals, i, 0.0)
                    vals[0], vals[j] = vals[j], vals[0]
                    acts[0], acts[j] = acts[j], acts[0]
                    best = acts[0]
                elif self.partial and i >= 2:
                    # The unfinished iteration searched the last best move first (its value
                    # at this depth is exact) and then i - 1 others: one that beats it at
                    # this depth is played, as chess engines play the best move of an
                    # unfinished iteration (the budget of a deeper iteration is not lost).
                    j = _best_searched(vals, i, TIE)
                    if j > 0:
                        best = acts[j]
                        switched = True
                break
            # Best first for the next iteration (stable: earlier moves win ties).
            sort_moves(vals, acts, n, True)
            # Equal best moves: a seeded random one (a fixed pick, such as the first
            # cell of several, is a systematic bias the opponents can profit from).
            j = 1
            while j < n and vals[j] >= vals[0] - TIE:
                j += 1
            best = acts[rc_rng_below(&self.rng, j) if j > 1 else 0]
            done = depth
            if vals[0] >= HI or budget_done(&self.budget):
                break  # a sure win, or the budget is spent
        self.stats["depth"] = done
        self.stats["partial_switch"] = switched
        self.stats["values"] = [(acts[i], vals[i]) for i in range(n)]
        self.stats["evaluations"] = self.leaf_evals
        self.stats["leaf_hits"] = self.leaf_hits
        return best

    # -- the tree --------------------------------------------------------------------
    cdef double _child(self, int ply, int depth, int32_t a, double alpha, double beta,
                       int bp, uint32_t dm) except? -2.0 nogil:
        """Applies ``a`` at ``ply`` into ``ply + 1`` with the given best-reply context and
        searches it."""
        self._enter(ply, a, bp, dm)
        return self._ab(ply + 1, depth, alpha, beta)

    cdef void _enter(self, int ply, int32_t a, int bp, uint32_t dm) noexcept nogil:
        """Applies ``a`` at ``ply`` into ``ply + 1``: the position, its hash, the
        best-reply context, and who moved (a chance outcome keeps the mover before it)."""
        cdef void *child = stack_at(&self.states, ply + 1)
        cdef int m
        memcpy(child, stack_at(&self.states, ply), self.k.state_size)
        m = self.k.current_player(child)
        self.movers[ply + 1] = <int8_t>(m if m >= 0 else self.movers[ply])
        self.exts[ply + 1] = self.exts[ply]
        self.k.apply(child, a)
        self.hashes[ply + 1] = 0  # not worked out yet: a leaf never needs it (_hash)
        self.brs_player[ply + 1] = <int8_t>bp
        self.brs_default[ply + 1] = dm

    cdef bint _extends(self, int ply, int p) noexcept nogil:
        """At the horizon: search on (one more ply) instead of judging the position while
        the player who just moved is still to move (a turn split into several decisions),
        up to ``extend`` extra plies on a path."""
        return (self.exts[ply] < self.extend and ply < self.max_ply
                and p >= 0 and p == self.movers[ply])

    cdef double _chance_leaf(self, int ply) except? -2.0 nogil:
        """A pending chance event at the horizon (a draw, a shuffle): the mean judgement of
        ``chance_samples`` outcomes, each played out to the next decision with a generator
        seeded from the position (the same position, the same value)."""
        cdef const rc_kernel *k = self.k
        cdef void *buf = stack_at(&self.states, ply + 1)
        cdef rc_rng rng
        cdef double total = 0.0
        cdef int _j
        rc_rng_seed(&rng, self._hash(ply) ^ self.seed)
        for _j in range(self.chance_samples):
            memcpy(buf, stack_at(&self.states, ply), k.state_size)
            play_chance(k, buf, &rng, self.acts, self.probs)
            total += self._leaf(buf)
        return total / self.chance_samples

    cdef double _cached_chance_leaf(self, int ply) except? -2.0 nogil:
        """A chance leaf's value through the table (it costs ``chance_samples`` playouts
        to the next decision and as many judgements; a position met again, by another
        order of the same moves, has the same value).  Stored at depth 0, never over a
        deeper entry of this search."""
        cdef uint64_t key = self._key(ply)
        cdef ab_entry *e = &self.tt[key & self.tt_mask]
        cdef double v
        if e.gen == self.gen and e.key == key and e.flag == TT_EXACT:
            self.leaf_hits += 1
            return e.value
        v = <float>self._chance_leaf(ply)   # as the table keeps it: the same value met again
        if e.gen != self.gen or e.depth <= 0:
            self._store(key, v, 0, TT_EXACT, -1)
        return v

    cdef double _ab(self, int ply, int depth, double alpha, double beta) except? -2.0 nogil:
        cdef const rc_kernel *k = self.k
        cdef void *s = stack_at(&self.states, ply)
        cdef double rets[RC_MAX_PLAYERS]
        cdef int p = k.current_player(s), n, i, bp, cbp
        cdef uint32_t dm, cdm
        cdef bint maximize, default_only = False, may_default = False, reduced
        cdef double a0 = alpha, b0 = beta, best, v, lo, hi
        cdef int32_t tt_move = -1, best_move = -1, a
        cdef int32_t *acts
        cdef uint64_t key
        cdef ab_entry *e
        if p == RC_TERMINAL:
            k.returns(s, rets)
            return rets[self.root_player]
        if depth <= 0 or ply >= self.max_ply:
            if p == RC_CHANCE:
                return self._cached_chance_leaf(ply)
            if not self._extends(ply, p):
                return self._leaf(s)
            depth = 1  # the mover's turn goes on: search it to its end
            self.exts[ply] += 1
        if budget_tick(&self.budget):
            self.aborted = True
            return LO
        if p == RC_CHANCE:
            return self._chance(ply, depth, alpha, beta)
        maximize = p == self.root_player
        bp = self.brs_player[ply]
        dm = self.brs_default[ply]
        if self.brs and not maximize:
            if bp == p:
                pass                      # the replying opponent: searched in full
            elif bp >= 0 or (dm >> p) & 1:
                default_only = True       # another opponent replies: default move
            else:
                may_default = True        # nobody replies yet: reply here, or not
        key = self._key(ply)
        e = &self.tt[key & self.tt_mask]
        if e.gen == self.gen and e.key == key:
            tt_move = e.move
            if e.depth >= depth and not default_only:
                if e.flag == TT_EXACT:
                    return e.value
                if e.flag == TT_LOWER and e.value > alpha:
                    alpha = e.value
                elif e.flag == TT_UPPER and e.value < beta:
                    beta = e.value
                if alpha >= beta:
                    return e.value
        acts = self.ply_acts + <size_t>k.max_legal * ply
        n = k.legal_actions(s, acts)
        if default_only or may_default:
            # The default move; remembered in the table (its key has this context).
            if default_only and tt_move >= 0:
                a = tt_move
            else:
                a = self._default_move(ply, n, p)
            if default_only:
                v = self._child(ply, depth, a, alpha, beta, bp, dm)
                if not self.aborted:  # kept for its move; bounds here are never read
                    self._store(key, v, depth, TT_UPPER if v <= a0 else TT_LOWER if v >= b0 else TT_EXACT, a)
                return v
            # "p plays the default, a later opponent may reply" is one option of MIN.
            best = self._child(ply, depth, a, alpha, beta, -1, dm | (1u << p))
            if self.aborted:
                return LO
            if best < beta:
                beta = best
            if alpha >= beta:
                return best
            cbp = p
        else:
            best = NEG if maximize else POS
            cbp = -1 if maximize else bp
        cdm = 0 if maximize else dm
        self._order(ply, n, maximize, tt_move, self.ordering and depth >= 2)
        for i in range(n):
            a = acts[i]
            reduced = False
            if self.lmr and i >= self.lmr and depth >= 3:
                # Late move reduction: a move this far down the ordering is first shown
                # unable to improve on the best so far by a search a ply shallower (a
                # null window at the bound); only a move that fails it is searched in full.
                lo = alpha if maximize else beta - NULL_WINDOW
                hi = lo + NULL_WINDOW
                v = self._child(ply, depth - 2, a, lo, hi, cbp, cdm)
                reduced = self.aborted or not (v >= hi if maximize else v <= lo)
            if reduced:
                pass
            elif i == 0 or not self.pvs or depth < 2 or beta - alpha <= 2.0 * NULL_WINDOW:
                v = self._child(ply, depth - 1, a, alpha, beta, cbp, cdm)
            else:
                # Principal variation search: a later move is first shown unable to
                # improve on the best so far (a null window at the bound this side
                # moves); only a move that fails that test is searched in full.  Not
                # one ply from the horizon: a leaf costs the same in any window, and a
                # child whose turn goes on past the horizon (extend) would be searched
                # twice (more leaves in all at depths 7 and 8).
                lo = alpha if maximize else beta - NULL_WINDOW
                hi = lo + NULL_WINDOW
                v = self._child(ply, depth - 1, a, lo, hi, cbp, cdm)
                if (not self.aborted and alpha < v < beta
                        and (v >= hi if maximize else v <= lo)):
                    v = self._child(ply, depth - 1, a, alpha, beta, cbp, cdm)
            if self.aborted:
                return LO
            if maximize:
                if v > best:
                    best = v
                    best_move = a
                    if v > alpha:
                        alpha = v
            else:
                if v < best:
                    best = v
                    best_move = a
                    if v < beta:
                        beta = v
            if alpha >= beta:
                break
        self._store(key, best, depth, TT_UPPER if best <= a0 else TT_LOWER if best >= b0 else TT_EXACT,
                    best_move)
        return best

    cdef void _store(self, uint64_t key, double v, int depth, int flag, int32_t move) noexcept nogil:
        cdef ab_entry *e = &self.tt[key & self.tt_mask]
        e.key = key
        e.value = <float>v
        e.depth = <int16_t>depth
        e.flag = <uint8_t>flag
        e.gen = self.gen
        e.move = move

    cdef double _chance(self, int ply, int depth, double alpha, double beta) except? -2.0 nogil:
        """*-minimax over the outcomes (Star1, with Star2 probing, or sampled)."""
        cdef const rc_kernel *k = self.k
        cdef void *s = stack_at(&self.states, ply)
        cdef size_t off = <size_t>k.max_legal * ply
        cdef int32_t *acts = self.ply_acts + off
        cdef double *probs = self.ply_probs + off
        cdef double *lo = self.ply_lo + off
        cdef double *hi = self.ply_hi + off
        cdef int n, i, j, _sample
        cdef int bp = self.brs_player[ply]
        cdef uint32_t dm = self.brs_default[ply]
        cdef double done = 0.0, rem_lo = 0.0, rem_hi = 0.0, ai, bi, v
        cdef int32_t a
        cdef rc_rng rng
        if self.chance_mode == CH_SAMPLE:
            rc_rng_seed(&rng, self._hash(ply) ^ self.seed)
            n = 0
            for _sample in range(self.chance_samples):
                a = rc_sample_chance(k, s, &rng, self.acts, self.probs)
                for j in range(n):
                    if acts[j] == a:
                        probs[j] += 1.0 / self.chance_samples
                        break
                else:
                    acts[n] = a
                    probs[n] = 1.0 / self.chance_samples
                    n += 1
        else:
            n = k.chance_outcomes(s, acts, probs)
        # Likeliest outcomes first: they move the bounds most.
        sort_moves(probs, acts, n, True)
        for i in range(n):
            lo[i] = LO
            hi[i] = HI
        if self.chance_mode == CH_STAR2 and depth >= 2:
            for i in range(n):
                self._enter(ply, acts[i], bp, dm)
                self._probe(ply + 1, depth - 1, &lo[i], &hi[i])
                if self.aborted:
                    return LO
        for i in range(n):
            rem_lo += probs[i] * lo[i]
            rem_hi += probs[i] * hi[i]
        if rem_lo >= beta:
            return rem_lo
        if rem_hi <= alpha:
            return rem_hi
        for i in range(n):
            rem_lo -= probs[i] * lo[i]
            rem_hi -= probs[i] * hi[i]
            ai = (alpha - done - rem_hi) / probs[i]
            bi = (beta - done - rem_lo) / probs[i]
            v = self._child(ply, depth - 1, acts[i], ai if ai > lo[i] else lo[i],
                            bi if bi < hi[i] else hi[i], bp, dm)
            if self.aborted:
                return LO
            if v <= ai:
                return done + probs[i] * v + rem_hi   # fails low: at most this
            if v >= bi:
                return done + probs[i] * v + rem_lo   # fails high: at least this
            done += probs[i] * v
        return done

    cdef int _probe(self, int ply, int depth, double *lo, double *hi) except -1 nogil:
        """Star2's probe of a chance outcome at ``ply``: the value of one line bounds the
        outcome from below (root player to move) or from above (an opponent)."""
        cdef const rc_kernel *k = self.k
        cdef void *s = stack_at(&self.states, ply)
        cdef double rets[RC_MAX_PLAYERS]
        cdef int p = k.current_player(s), n, bp, cbp
        cdef uint32_t dm
        cdef int32_t *acts
        cdef int32_t a
        cdef double v
        if p == RC_TERMINAL:
            k.returns(s, rets)
            lo[0] = rets[self.root_player]
            hi[0] = lo[0]
            return 0
        if depth <= 0:
            if p == RC_CHANCE:
                lo[0] = self._cached_chance_leaf(ply)
                hi[0] = lo[0]
            elif not self._extends(ply, p):  # else the search goes on there: no bound
                lo[0] = self._leaf(s)
                hi[0] = lo[0]
            return 0
        if p == RC_CHANCE:
            return 0
        acts = self.ply_acts + <size_t>k.max_legal * ply
        n = k.legal_actions(s, acts)
        bp = self.brs_player[ply]
        dm = self.brs_default[ply]
        if p == self.root_player:
            v = self._child(ply, depth - 1, acts[0], LO, HI, -1, 0)
            if not self.aborted and v > lo[0]:
                lo[0] = v
            return 0
        if self.brs and bp != p:
            # Any one option of MIN bounds it from above: take the default line.
            a = self._default_move(ply, n, p)
            if bp >= 0 or (dm >> p) & 1:
                v = self._child(ply, depth, a, LO, HI, bp, dm)
            else:
                v = self._child(ply, depth, a, LO, HI, -1, dm | (1u << p))
        else:
            cbp = bp if self.brs else -1
            v = self._child(ply, depth - 1, acts[0], LO, HI, cbp, dm)
        if not self.aborted and v < hi[0]:
            hi[0] = v
        return 0

    # -- helpers ---------------------------------------------------------------------
    cdef double _leaf(self, const void *s) except? -2.0 nogil:
        cdef double vals[RC_MAX_PLAYERS]
        self.leaf_evals += 1
        self._evaluate(s, vals)
        return vals[self.root_player]

    cdef int _order(self, int ply, int n, bint maximize, int32_t first, bint by_eval) except -1 nogil:
        """Sorts the move list at ``ply``: ``first`` (the table's move) to the front, then
        by the evaluator's one-ply estimate when ``by_eval``."""
        cdef const rc_kernel *k = self.k
        cdef void *s = stack_at(&self.states, ply)
        cdef int32_t *acts = self.ply_acts + <size_t>k.max_legal * ply
        cdef double *score = self.ply_probs + <size_t>k.max_legal * ply
        cdef double vals[RC_MAX_PLAYERS]
        cdef int i, j
        if by_eval:
            for i in range(n):
                if acts[i] == first:
                    score[i] = 3.0 if maximize else -3.0
                    continue
                memcpy(self.scratch2, s, k.state_size)
                k.apply(self.scratch2, acts[i])
                self.leaf_evals += 1
                self._evaluate(self.scratch2, vals)
                score[i] = vals[self.root_player]
            sort_moves(score, acts, n, maximize)
        elif first >= 0:
            for i in range(n):
                if acts[i] == first:
                    for j in range(i, 0, -1):
                        acts[j] = acts[j - 1]
                    acts[0] = first
                    break
        return 0

    cdef int32_t _default_move(self, int ply, int n, int mover) except -2 nogil:
        """The move the evaluator rates best for ``mover`` one ply ahead (BRS+)."""
        cdef int32_t *acts = self.ply_acts + <size_t>self.k.max_legal * ply
        if n == 1:
            return acts[0]
        self.leaf_evals += n
        return self._greedy_action(self.evaluator, stack_at(&self.states, ply), acts, n, mover)

    cdef uint64_t _rehash(self, int ply) noexcept nogil:
        """The Zobrist key of the struct at ``ply``, from scratch."""
        cdef const uint8_t *b = <const uint8_t *>stack_at(&self.states, ply)
        cdef uint64_t h = 0
        cdef uint32_t i
        for i in range(self.k.state_size):
            h ^= self.zobrist[(<size_t>i << 8) | b[i]]
        return h

    cdef uint64_t _rehash_from(self, int ply) noexcept nogil:
        """The key of ``ply + 1`` from that of ``ply``: only the changed bytes count (found
        from each changed word's XOR, without comparing byte by byte)."""
        cdef const uint8_t *a = <const uint8_t *>stack_at(&self.states, ply)
        cdef const uint8_t *b = <const uint8_t *>stack_at(&self.states, ply + 1)
        cdef uint64_t h = self._hash(ply), wa, wb, x
        cdef uint32_t size = self.k.state_size, i = 0, j
        while i + 8 <= size:
            memcpy(&wa, a + i, 8)
            memcpy(&wb, b + i, 8)
            x = wa ^ wb
            while x:
                j = <uint32_t>rc_pop_lsb64(&x) >> 3          # the changed byte in this word
                x &= ~(<uint64_t>0xFF << (8 * j))
                j += i
                h ^= self.zobrist[(<size_t>j << 8) | a[j]] ^ self.zobrist[(<size_t>j << 8) | b[j]]
            i += 8
        while i < size:
            if a[i] != b[i]:
                h ^= self.zobrist[(<size_t>i << 8) | a[i]] ^ self.zobrist[(<size_t>i << 8) | b[i]]
            i += 1
        return h

    cdef inline uint64_t _hash(self, int ply) noexcept nogil:
        """The Zobrist key of the struct at ``ply``, worked out from its parent's when first
        asked for (most nodes are leaves, judged without a table look-up).  0 marks a key
        not yet worked out; a key that really is 0 is only worked out again."""
        if ply > 0 and self.hashes[ply] == 0:
            self.hashes[ply] = self._rehash_from(ply - 1)
        return self.hashes[ply]

    cdef uint64_t _key(self, int ply) noexcept nogil:
        """The table key: the position's hash and, for BRS, who replies and who plays
        default moves (the same position has another value in another context)."""
        if not self.brs:
            return self._hash(ply)
        return self._hash(ply) ^ ((<uint64_t>(self.brs_player[ply] + 2)) * 0x9E3779B97F4A7C15ULL) \
            ^ ((<uint64_t>self.brs_default[ply]) * 0xC2B2AE3D27D4EB4FULL)
