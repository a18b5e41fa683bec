# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Tree search machinery shared by MCTS and ISMCTS (see tree.pxd)."""
from libc.stdint cimport int8_t, int32_t, uint32_t, uint16_t, uint8_t, INT32_MAX
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memcmp
from libc.math cimport log, sqrt, pow, ceil

from romecore.core.kernel cimport (
    rc_kernel, rc_rng_below, rc_sample_chance, RC_CHANCE, RC_TERMINAL, RC_MAX_PLAYERS,
)
from romecore_search.core cimport (
    SearchAgent, rc_tree, rc_node, rc_stack, NODE_SETTLED, tree_init, tree_free, tree_new, tree_add_child,
    tree_find_child, tree_best_root_child, budget_done, stack_init, stack_free, stack_at, stack_push,
)
from romecore.errors import AgentSpecError
from romecore_search.core import resolve_evaluator


cdef class TreeAgent(SearchAgent):
    """A search agent with a node arena (MCTS, ISMCTS)."""

    def __cinit__(self, *args, **kwargs):
        self.root_node = -1

    def _configure_tree(self, game, seed, dict p):
        """The parameters every tree search shares (``TREE_PARAMS``, values from the
        agent's table): budget, rollouts, the evaluator (``auto``: the game's default when
        a cutoff or greedy rollouts need one), the UCB constant, the node arena's cap
        (the tree stops growing there; search goes on with rollouts from its leaves) and
        ``expand`` (turn: an iteration expands the rest of the mover's turn), and the
        progressive strategies (Chaslot et al. 2008): ``bias`` (UCB plus bias * prior /
        (visits + 1), the prior being the evaluator's value for the mover one decision on)
        and ``widen`` (a node visited n times offers only its ceil(widen_k * (n + 1) **
        widen) best-prior children); and ``prior_visits`` (Gelly and Silver 2007: a child
        starts as if visited that many times at its prior, so UCB weighs an unvisited
        child by its prior instead of trying every child once before revisiting any; with
        it, widening is off); and ``imm``, implicit minimax backups (Lanctot et al. 2014)
        within the mover's turn: a child's prior is settled to the best prior among its
        children where the same player's turn goes on, so it stands for the best known way
        to finish the turn, and its score mixes in that value with weight ``imm``; with
        ``imm_reply`` (two players) the settling crosses turns too (see ``_settle``); and
        ``mix``, mixed leaf evaluation (Silver et al. 2016): an iteration's reward is the
        rollout's at weight 1 - mix and the evaluator's value of the leaf it started from at
        weight mix.  ``prior`` names another evaluator for the priors and for greedy
        rollouts' steps ("same": the evaluator): a prior or a greedy step costs one
        evaluation per child, a leaf one per iteration, so a costly net judges the leaves
        best while a cheap heuristic orders the children and plays the rollouts.  ``policy``
        names an evaluator with a policy head (a learned net) whose move probabilities,
        relative to the likeliest move, are the priors of ``bias`` and ``widen`` instead: one
        pass per expanded node judges all its children (AlphaZero's use of a policy, Silver
        et al. 2017, in the progressive strategies' place).  They rank moves rather than
        value positions, so ``prior_visits`` and ``imm``, which read priors as values, refuse
        them."""
        cdef double c = p["c"]
        cdef int max_nodes = p["max_nodes"]
        cdef double bias = p["bias"], widen = p["widen"], widen_k = p["widen_k"]
        cdef double prior_visits = p["prior_visits"], imm = p["imm"], mix = p["mix"]
        evaluator = p["evaluator"]
        if evaluator == "auto":
            evaluator = "default" if (p["cutoff"] > 0 or p["rollout"] == "greedy"
                                      or bias > 0 or widen > 0 or prior_visits > 0 or imm > 0
                                      or mix > 0) else None
        self._configure(game, seed, p["simulations"], p["time"], evaluator, p["clock"])
        self._configure_rollouts(p["rollout"], p["eps"], p["cutoff"], p["sample"], p["margin"])
        if c < 0:
            raise AgentSpecError(f"c={c} must not be negative")
        if max_nodes < 16:
            raise AgentSpecError(f"max_nodes={max_nodes} is too small (at least 16)")
        if p["expand"] not in ("turn", "node"):
            raise AgentSpecError(f"expand={p['expand']!r}: choose turn or node")
        self.c = c
        self.max_nodes = max_nodes
        self.turn_walk = p["expand"] == "turn"
        if bias < 0 or not 0 <= widen < 1 or widen_k < 1:
            raise AgentSpecError(f"bias={bias}, widen={widen}, widen_k={widen_k}: need bias >= 0, "
                                 f"0 <= widen < 1 and widen_k >= 1")
        if not prior_visits >= 0:
            raise AgentSpecError(f"prior_visits={prior_visits} must not be negative")
        prior = p["prior"]
        same = isinstance(prior, str) and prior.strip() == "same"
        self.prior_evaluator = self.evaluator if same else resolve_evaluator(game, prior)
        if self.prior_evaluator is not None:  # one-step choices are the priors' kind of judgement
            self.rollout_evaluator = self.prior_evaluator
        self.policy_evaluator = resolve_evaluator(game, p["policy"])
        if self.policy_evaluator is not None:
            if not self.policy_evaluator.has_policy:
                raise AgentSpecError(f"policy={p['policy']!r}: evaluator {self.policy_evaluator.name!r} "
                                     "does not judge moves (no policy head)")
            if prior_visits > 0 or imm > 0:
                raise AgentSpecError("policy priors rank moves, they are not values: use them with bias or "
                                     "widen, not prior_visits or imm")
            if bias <= 0 and widen <= 0:
                raise AgentSpecError("policy needs bias > 0 or widen > 0 to use its priors")
        if prior_visits > 0 and self.prior_evaluator is None:
            raise AgentSpecError("prior_visits needs an evaluator for the priors")
        if not 0 <= imm <= 1:
            raise AgentSpecError(f"imm={imm} is a weight between 0 and 1")
        if imm > 0 and self.prior_evaluator is None:
            raise AgentSpecError("imm needs an evaluator for the priors")
        if not 0 <= mix <= 1:
            raise AgentSpecError(f"mix={mix} is a weight between 0 and 1")
        if mix > 0 and self.evaluator is None:
            raise AgentSpecError("mix needs an evaluator to judge the leaves")
        self.mix = mix
        self.bias = bias
        self.widen = widen if prior_visits == 0 else 0.0
        self.widen_k = widen_k
        self.prior_visits = prior_visits
        self.imm = imm
        self.imm_reply = p["imm_reply"] and self.nplayers == 2
        if p["imm_reply"] and imm <= 0:
            raise AgentSpecError("imm_reply needs imm > 0")
        self.use_priors = ((bias > 0 or widen > 0 or prior_visits > 0 or imm > 0)
                           and (self.prior_evaluator is not None or self.policy_evaluator is not None))
        self.pri = <double *>malloc(sizeof(double) * self.k.max_legal)
        self.pri_settled = <uint8_t *>malloc(self.k.max_legal)
        self.path = <int32_t *>malloc(sizeof(int32_t) * (self.k.max_game_length + 2))
        self.rewards = <double *>malloc(sizeof(double) * RC_MAX_PLAYERS)
        if (self.path == NULL or self.rewards == NULL or self.pri == NULL
                or self.pri_settled == NULL or tree_init(&self.tree, max_nodes) < 0):
            raise MemoryError()

    def __dealloc__(self):
        tree_free(&self.tree)
        free(self.path)
        free(self.rewards)
        free(self.pri)
        free(self.pri_settled)

    @property
    def tree_size(self):
        """Nodes in the arena now."""
        return self.tree.n

    cdef int _tree_reset(self) except -1:
        self.tree.n = 0
        self.root_node = tree_new(&self.tree, 0, -1)
        if self.root_node < 0:
            raise MemoryError()
        return 0

    cdef void _push(self, int32_t node) noexcept nogil:
        """Appends ``node`` to the iteration's path."""
        self.path[self.path_len] = node
        self.path_len += 1

    cdef int32_t _chance_child(self, int32_t node, uint32_t key) noexcept nogil:
        """Follows the chance outcome seen as ``key`` from ``node``, putting the child on
        the path; -1 where the iteration stops: the child is new (created here, the
        rollout starts from it) or the arena is full."""
        cdef int32_t ch = tree_find_child(&self.tree, node, key)
        if ch >= 0:
            self._push(ch)
            return ch
        ch = tree_add_child(&self.tree, node, key, -1)
        if ch >= 0:
            self._push(ch)
        return -1

    cdef int32_t _tree_choice(self) noexcept nogil:
        """The most visited root child's action; -1 when the root has no child."""
        cdef int32_t best = tree_best_root_child(&self.tree, self.root_node)
        return <int32_t>self.tree.nodes[best].key if best >= 0 else -1

    cdef int32_t _tree_result(self) except -2:
        """The move after a search (the tree's choice, else the first legal action), with
        the root statistics and the tree size in ``stats``."""
        cdef int32_t a = self._tree_choice()
        self.stats["root"] = self._root_stats()
        self.stats["tree_nodes"] = self.tree.n
        return a if a >= 0 else self._first_legal()

    cdef int _run(self, const void *start, int player) except -1:
        """Iterates from ``start`` until the budget is spent (at least once)."""
        with nogil:
            while True:
                self._iterate(start, player)
                self.budget.used += 1
                if budget_done(&self.budget):
                    break
        return 0

    cdef int _iterate(self, const void *start, int player) except -1 nogil:
        """One iteration from a copy of ``start`` (``_enter_world`` may redraw it): down
        the tree, chance outcomes drawn with the kernel's probabilities and decisions taken
        by ``_descend``, then a rollout from where the walk stops, its rewards backed up
        along the path.  With ``turn_walk``, a walk that stops at a new node in the middle
        of the mover's turn goes on expanding (``extending`` set for ``_descend``) to the
        end of that turn, so leaves stand where turns end."""
        cdef const rc_kernel *k = self.k
        cdef void *s = self.scratch
        cdef int32_t node = self.root_node, a, plen
        cdef uint32_t key
        cdef int p, i
        cdef bint mixed
        cdef double leaf[RC_MAX_PLAYERS]
        memcpy(s, start, k.state_size)
        self._enter_world(s, player)
        self.path_len = 0
        self._push(node)
        self.extending = 0
        while True:
            p = k.current_player(s)
            if p == RC_TERMINAL:
                break
            if p == RC_CHANCE:
                a = rc_sample_chance(k, s, &self.rng, self.acts, self.probs)
                key = self._chance_key(s, player, a)
                k.apply(s, a)
                node = self._chance_child(node, key)
                self.extending = 0
            else:
                plen = self.path_len
                node = self._descend(s, node, p, player)
                self.extending = 0
                if (node < 0 and self.turn_walk and self.path_len > plen
                        and k.current_player(s) == p):
                    node = self.path[self.path_len - 1]
                    self.extending = 1
            if node < 0:
                break
        # (a finished game's leaf is its own reward: nothing to mix)
        mixed = self.mix > 0 and k.current_player(s) != RC_TERMINAL
        if mixed:
            self._evaluate(s, leaf)
        self._rollout(s, self.tree.nodes[self.path[self.path_len - 1]].mover, self.rewards)
        if mixed:
            for i in range(self.nplayers):
                self.rewards[i] = (1.0 - self.mix) * self.rewards[i] + self.mix * leaf[i]
        self._backprop()
        return 0

    cdef void _enter_world(self, void *s, int player) noexcept nogil:
        """The iteration's world, made from the copy of its start (here: kept as is)."""
        pass

    cdef uint32_t _chance_key(self, const void *s, int player, int32_t a) noexcept nogil:
        """The edge key of chance outcome ``a`` at s (here: the outcome itself)."""
        return <uint32_t>a

    cdef int32_t _descend(self, void *s, int32_t node, int p, int player) except -2 nogil:
        """Player ``p`` decides at ``node`` (position s): plays the chosen edge on s, puts
        its child on the path and returns it, or -1 where the walk stops for a rollout;
        -2 with an exception set where a Python evaluator judging priors raised (the
        search stops with that error rather than going on without it)."""
        return -1

    cdef double _score(self, const rc_node *nd, double lg) noexcept nogil:
        """UCB1 of a child (``lg``: log of its parent's or its availability count) plus
        the progressive bias of its prior; with ``prior_visits`` the prior also counts as
        that many visits of its value (then an unvisited child has a score too); with
        ``imm`` the mean is mixed with the prior (settled, see ``_settle``) at that weight."""
        cdef double prior = nd.prior * (1.0 / 65535.0), n = nd.visits, q
        if self.prior_visits > 0:  # (configured only with an evaluator: priors are on)
            n += self.prior_visits
            q = (nd.value + self.prior_visits * prior) / n
        else:
            q = nd.value / n
        if self.imm > 0:
            q = (1.0 - self.imm) * q + self.imm * prior
        return q + self.c * sqrt(lg / n) + self.bias * prior / (nd.visits + 1)

    cdef int32_t _widen_limit(self, int32_t visits) noexcept nogil:
        """How many children a node visited ``visits`` times may offer."""
        cdef double k
        if self.widen <= 0:
            return INT32_MAX
        k = ceil(self.widen_k * pow(visits + 1.0, self.widen))
        return <int32_t>k if k < INT32_MAX else INT32_MAX

    cdef int _priors(self, const void *s, const int32_t *acts, int n, int p) except -1 nogil:
        """``pri[i]``: the evaluator's value for ``p`` after ``acts[i]`` at s (scratch2);
        ``pri_settled[i]``: whether ``p``'s turn ends there (another player, chance or
        the end of the game is next).  With a ``policy`` evaluator: the probability of
        ``acts[i]`` over the probability of the likeliest of them, never settled."""
        cdef double vals[RC_MAX_PLAYERS]
        cdef double hi = 0.0
        cdef int i
        if self.policy_evaluator is not None:
            self.policy_evaluator.policy_fn(s, self.policy_evaluator.params, p, acts, n, self.pri)
            for i in range(n):
                if self.pri[i] > hi:
                    hi = self.pri[i]
            for i in range(n):
                self.pri[i] = self.pri[i] / hi if hi > 0 else 1.0
                self.pri_settled[i] = 0
            return 0
        for i in range(n):
            memcpy(self.scratch2, s, self.k.state_size)
            self.k.apply(self.scratch2, acts[i])
            self._evaluate_by(self.prior_evaluator, self.scratch2, vals)
            self.pri[i] = vals[p] if vals[p] > 0 else 0.0
            if self.pri[i] > 1:
                self.pri[i] = 1.0
            self.pri_settled[i] = self.k.current_player(self.scratch2) != p
        return 0

    cdef void _sort_by_prior(self, int32_t *acts, int n) noexcept nogil:
        """Orders ``acts``, ``pri`` and ``pri_settled`` together, highest prior first
        (stable)."""
        cdef int i, j
        cdef int32_t a
        cdef double v
        cdef uint8_t d
        for i in range(1, n):
            a = acts[i]
            v = self.pri[i]
            d = self.pri_settled[i]
            j = i - 1
            while j >= 0 and self.pri[j] < v:
                acts[j + 1] = acts[j]
                self.pri[j + 1] = self.pri[j]
                self.pri_settled[j + 1] = self.pri_settled[j]
                j -= 1
            acts[j + 1] = a
            self.pri[j + 1] = v
            self.pri_settled[j + 1] = d

    cdef void _set_prior(self, int32_t child, int i) noexcept nogil:
        """Gives ``child`` the prior ``pri[i]``, settled where ``pri_settled[i]``."""
        cdef rc_node *nd = &self.tree.nodes[child]
        nd.prior = <uint16_t>(self.pri[i] * 65535.0 + 0.5)
        if self.pri_settled[i]:
            nd.flags |= NODE_SETTLED

    cdef int32_t _select_ucb(self, int32_t node) noexcept nogil:
        """A child of an expanded node among the first ``_widen_limit`` (children are in
        prior order when priors are on): a random unvisited one while any is left, else
        the best ``_score`` (ties: the first).  With ``prior_visits`` every child competes
        by its score at once."""
        cdef rc_node *nodes = self.tree.nodes
        cdef int32_t ch = nodes[node].first_child, best = -1
        cdef int32_t limit = self._widen_limit(nodes[node].visits), m = 0
        cdef int unvisited = 0, r
        cdef double lg, v, bv = -1e300
        while ch >= 0 and m < limit and self.prior_visits == 0:
            if nodes[ch].visits == 0:
                unvisited += 1
            ch = nodes[ch].next_sibling
            m += 1
        ch = nodes[node].first_child
        if unvisited:
            r = rc_rng_below(&self.rng, unvisited) if unvisited > 1 else 0
            while ch >= 0 and m > 0:
                if nodes[ch].visits == 0:
                    if r == 0:
                        return ch
                    r -= 1
                ch = nodes[ch].next_sibling
                m -= 1
            return -1
        lg = log(<double>nodes[node].visits) if nodes[node].visits > 1 else 0.0
        m = 0
        while ch >= 0 and m < limit:
            v = self._score(&nodes[ch], lg)
            if v > bv:
                bv = v
                best = ch
            ch = nodes[ch].next_sibling
            m += 1
        return best

    cdef void _settle(self) noexcept nogil:
        """Implicit minimax backups (``imm``): bottom-up along the path, an edge whose
        mover decides again below it takes the best settled prior among its children by
        that same mover, and is settled.  A prior judged in the middle of a turn (a tile
        taken, not yet laid) thus gives way to the best known end of the turn, the value
        the ``greedy`` agent's turn look-ahead would find among them.  With ``imm_reply``
        (two players, values summing to 1) an edge the opponent answers at once takes 1 -
        the best settled prior among the opponent's replies: the mover's value after the
        opponent's best known turn (Lanctot et al.'s minimax backup, turn by turn)."""
        cdef rc_node *nodes = self.tree.nodes
        cdef int i, best
        cdef int32_t x, ch
        cdef int8_t m, o
        for i in range(self.path_len - 2, 0, -1):  # path[0] is the root: no edge to it
            x = self.path[i]
            m = nodes[x].mover
            o = nodes[self.path[i + 1]].mover
            if m < 0 or o < 0 or (o != m and not self.imm_reply):
                continue
            best = -1
            ch = nodes[x].first_child
            while ch >= 0:
                if (nodes[ch].flags & NODE_SETTLED) and nodes[ch].mover == o and nodes[ch].prior > best:
                    best = nodes[ch].prior
                ch = nodes[ch].next_sibling
            if best >= 0:
                nodes[x].prior = <uint16_t>(best if o == m else 65535 - best)
                nodes[x].flags |= NODE_SETTLED

    cdef void _backprop(self) noexcept nogil:
        """Adds one visit to every node on the path, and to each edge the reward of the
        player who chose it (after ``_settle`` with ``imm``)."""
        cdef int i
        cdef rc_node *nd
        if self.imm > 0:
            self._settle()
        for i in range(self.path_len):
            nd = &self.tree.nodes[self.path[i]]
            nd.visits += 1
            if nd.mover >= 0:
                nd.value += self.rewards[nd.mover]

    cdef list _root_stats(self):
        """``[(action, visits, summed reward), ...]`` of the root's children."""
        out = []
        if self.root_node < 0:
            return out
        cdef int32_t ch = self.tree.nodes[self.root_node].first_child
        while ch >= 0:
            out.append((self.tree.nodes[ch].key, self.tree.nodes[ch].visits, self.tree.nodes[ch].value))
            ch = self.tree.nodes[ch].next_sibling
        out.sort()
        return out

    # -- tree reuse --------------------------------------------------------------------
    cdef int32_t _find_state(self, const void *tree_state, const void *target, int32_t max_states) except -2:
        """The node of the current tree whose position equals ``target``, found breadth
        first by replaying visited edges from ``tree_state`` (the root's position) over at
        most ``max_states`` positions; -1 when it is not there."""
        cdef rc_stack states
        cdef const rc_kernel *k = self.k
        cdef int32_t *queue
        cdef int32_t head = 0, tail = 0, node, ch, si, found = -1
        if self.root_node < 0 or max_states <= 0:
            return -1
        # Room for every position up front: a push never moves the arena, so copying
        # from a slot into a new one is safe.
        if stack_init(&states, k.state_size, max_states + 1) < 0:
            raise MemoryError()
        queue = <int32_t *>malloc(sizeof(int32_t) * (max_states + 1) * 2)
        if queue == NULL:
            stack_free(&states)
            raise MemoryError()
        try:
            with nogil:
                si = stack_push(&states, tree_state)
                queue[0] = self.root_node
                queue[1] = si
                tail = 1
                while head < tail and found < 0:
                    node = queue[2 * head]
                    si = queue[2 * head + 1]
                    head += 1
                    ch = self.tree.nodes[node].first_child
                    while ch >= 0 and tail < max_states:
                        if self.tree.nodes[ch].visits > 0:
                            si = stack_push(&states, stack_at(&states, queue[2 * (head - 1) + 1]))
                            if si < 0:
                                break
                            k.apply(stack_at(&states, si), <int32_t>self.tree.nodes[ch].key)
                            if memcmp(stack_at(&states, si), target, k.state_size) == 0:
                                found = ch
                                break
                            queue[2 * tail] = ch
                            queue[2 * tail + 1] = si
                            tail += 1
                        ch = self.tree.nodes[ch].next_sibling
        finally:
            free(queue)
            stack_free(&states)
        return found

    cdef int _reroot(self, int32_t node) except -1:
        """Keeps only the subtree under ``node``, compacted into a fresh arena, as the
        new tree (its statistics carry over)."""
        cdef rc_tree fresh
        cdef int32_t *qo
        cdef int32_t *qn
        cdef int32_t head = 0, tail = 0, o, nw, ch, c2, prev
        if tree_init(&fresh, self.max_nodes) < 0:
            raise MemoryError()
        qo = <int32_t *>malloc(sizeof(int32_t) * self.tree.n)
        qn = <int32_t *>malloc(sizeof(int32_t) * self.tree.n)
        if qo == NULL or qn == NULL:
            free(qo)
            free(qn)
            tree_free(&fresh)
            raise MemoryError()
        with nogil:
            nw = tree_new(&fresh, 0, -1)
            fresh.nodes[nw] = self.tree.nodes[node]
            fresh.nodes[nw].first_child = -1
            fresh.nodes[nw].next_sibling = -1
            fresh.nodes[nw].mover = -1
            qo[0] = node
            qn[0] = nw
            tail = 1
            while head < tail:
                o = qo[head]
                nw = qn[head]
                head += 1
                prev = -1
                ch = self.tree.nodes[o].first_child
                while ch >= 0:
                    c2 = tree_new(&fresh, 0, -1)
                    if c2 < 0:  # cannot happen: the subtree is smaller than the old tree
                        break
                    fresh.nodes[c2] = self.tree.nodes[ch]
                    fresh.nodes[c2].first_child = -1
                    fresh.nodes[c2].next_sibling = -1
                    if prev < 0:
                        fresh.nodes[nw].first_child = c2
                    else:
                        fresh.nodes[prev].next_sibling = c2
                    prev = c2
                    qo[tail] = ch
                    qn[tail] = c2
                    tail += 1
                    ch = self.tree.nodes[ch].next_sibling
        free(qo)
        free(qn)
        tree_free(&self.tree)
        self.tree = fresh
        self.root_node = 0
        return 0
