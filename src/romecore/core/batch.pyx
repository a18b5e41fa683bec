# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""N independent games of one game in one block of C structs, stepped by one call.

:class:`Batch` keeps N kernel states and N dealer RNGs side by side and drives them
through the kernel table in C loops that hold no Python objects (the GIL is released):
chance is resolved by each game's own dealer, exactly as :meth:`State.resolve_chance`
would, and a game that ends is reported (returns, done) and dealt afresh in the same
step, so every game always has a player to move.  Results land in numpy arrays the
caller owns (``out=``) or the batch caches (overwritten by the next call).

Seeds: slot i's k-th game (k = 0, 1, ...) is dealt as
``game.new_initial_state(seed=(seeds[i] + k * 0x9E3779B97F4A7C15) % 2**64)``, so any game
of a batch can be replayed alone through the public State API.
"""
import operator

import numpy as np

from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_C_CONTIGUOUS, PyBUF_WRITABLE
from libc.stdlib cimport malloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from romecore.core.kernel cimport (
    rc_kernel, rc_rng, rc_rng_seed, rc_rng_next, rc_rng_below, rc_sample_chance, RC_CHANCE, RC_TERMINAL,
    RC_MAX_PLAYERS,
)
from romecore.core.state cimport Game, State, to_seed64
from romecore.errors import ArgumentTypeError, IllegalActionError, InvalidArgumentError

#: Added to a slot's seed once per game dealt in that slot (the 64-bit golden ratio).
SEED_STEP = 0x9E3779B97F4A7C15
cdef uint64_t _SEED_STEP = 0x9E3779B97F4A7C15ULL


cdef struct _ints:
    const char *data
    int itemsize
    bint signed


cdef inline int64_t _at(const _ints *v, Py_ssize_t i) noexcept nogil:
    """Element i of a C-contiguous integer array of any width."""
    cdef const char *base = v.data
    cdef int itemsize = v.itemsize
    if v.signed:
        if itemsize == 8:
            return (<const int64_t *>base)[i]
        if itemsize == 4:
            return (<const int32_t *>base)[i]
        if itemsize == 2:
            return (<const int16_t *>base)[i]
        return (<const int8_t *>base)[i]
    if itemsize == 8:
        # Above 2**63 reads as negative: out of range either way.
        return <int64_t>(<const uint64_t *>base)[i]
    if itemsize == 4:
        return (<const uint32_t *>base)[i]
    if itemsize == 2:
        return (<const uint16_t *>base)[i]
    return (<const uint8_t *>base)[i]


cdef class _Held:
    """An array's buffer held for the duration of one call, released with the holder."""
    cdef Py_buffer buf
    cdef bint held

    def __cinit__(self):
        self.held = False

    def __dealloc__(self):
        if self.held:
            PyBuffer_Release(&self.buf)

    cdef char *hold(self, object arr, int flags) except NULL:
        PyObject_GetBuffer(arr, &self.buf, flags)
        self.held = True
        return <char *>self.buf.buf


cdef class _IntArg(_Held):
    """A read-only view of a 1-d integer (or bool) array argument of length n."""
    cdef _ints v
    cdef object arr

    cdef int open(self, object x, Py_ssize_t n, str what, bint allow_bool) except -1:
        arr = x if type(x) is np.ndarray else _as_array(x, what)
        kind = arr.dtype.kind
        if not (kind in "iu" or (allow_bool and kind == "b")):
            raise ArgumentTypeError(f"{what} must be an integer array, got dtype {arr.dtype}")
        if arr.ndim != 1 or arr.shape[0] != n:
            raise InvalidArgumentError(f"{what} must have shape ({n},), got {arr.shape}")
        if not arr.flags.c_contiguous:
            arr = np.ascontiguousarray(arr)
        self.arr = arr
        self.v.data = self.hold(arr, PyBUF_C_CONTIGUOUS)
        self.v.itemsize = arr.dtype.itemsize
        self.v.signed = kind == "i"
        return 0


cdef object _as_array(object x, str what):
    try:
        return np.asarray(x)
    except Exception as e:  # numpy raises several types on ragged or odd input
        raise ArgumentTypeError(f"{what} must be an integer array: {e}") from None


cdef class _OutArg(_Held):
    """A writable C-contiguous output array checked for dtype and shape."""
    cdef char *data

    cdef int open(self, object out, tuple shape, tuple dtypes, str what) except -1:
        if type(out) is not np.ndarray:
            raise ArgumentTypeError(f"{what} must be a numpy array, got {type(out).__name__}")
        if out.dtype not in dtypes:
            names = " or ".join(str(np.dtype(d)) for d in dtypes)
            raise ArgumentTypeError(f"{what} must be {names}, got {out.dtype}")
        if out.shape != shape:
            raise InvalidArgumentError(f"{what} must have shape {shape}, got {out.shape}")
        if not out.flags.c_contiguous or not out.flags.writeable:
            raise InvalidArgumentError(f"{what} must be C-contiguous and writable")
        self.data = self.hold(out, PyBUF_C_CONTIGUOUS | PyBUF_WRITABLE)
        return 0


cdef tuple _MASK_DTYPES = (np.dtype(np.bool_), np.dtype(np.uint8), np.dtype(np.int8))
cdef tuple _F32 = (np.dtype(np.float32),)
cdef tuple _I32 = (np.dtype(np.int32),)
cdef tuple _BOOL = (np.dtype(np.bool_),)
cdef tuple _U64 = (np.dtype(np.uint64),)


cdef class Batch:
    """``n`` independent games of ``game`` (a :class:`romecore.Game`), stepped together.

    ``seed`` seeds the generator that :meth:`reset` draws slot seeds from when it is given
    none (and :meth:`random_actions` draws from).  The batch is dealt on construction.
    Like a State, a Batch is not locked: one thread at a time (its loops release the GIL).
    """
    cdef const rc_kernel *k
    cdef readonly Game game
    cdef readonly Py_ssize_t n
    cdef readonly int num_players
    cdef readonly int num_actions
    cdef size_t stride
    cdef char *states          # n structs, stride bytes apart
    cdef char *finals          # the last finished game of each slot (for final_state)
    cdef rc_rng *rngs          # n dealer RNGs
    cdef int32_t *legal        # n lists of max_legal legal actions
    cdef int32_t *legal_n
    cdef int32_t *moves        # actions applied in each slot's current game (chance included)
    cdef uint64_t *seeds       # each slot's base seed
    cdef uint64_t *episodes    # games dealt in each slot so far, minus one
    cdef uint8_t *has_final
    cdef int32_t *acts         # chance scratch
    cdef double *probs
    cdef rc_rng master
    cdef int32_t tsize
    cdef object _rewards, _done, _player, _mask, _obs

    def __cinit__(self):
        self.states = NULL
        self.finals = NULL
        self.rngs = NULL
        self.legal = NULL
        self.legal_n = NULL
        self.moves = NULL
        self.seeds = NULL
        self.episodes = NULL
        self.has_final = NULL
        self.acts = NULL
        self.probs = NULL

    def __dealloc__(self):
        free(self.states)
        free(self.finals)
        free(self.rngs)
        free(self.legal)
        free(self.legal_n)
        free(self.moves)
        free(self.seeds)
        free(self.episodes)
        free(self.has_final)
        free(self.acts)
        free(self.probs)

    def __init__(self, Game game not None, n, seed=None):
        try:
            n = operator.index(n)
        except TypeError:
            raise ArgumentTypeError(f"n must be an int, got {type(n).__name__}") from None
        if not 1 <= n <= (1 << 20):
            raise InvalidArgumentError(f"n must be in 1..{1 << 20}, got {n}")
        if self.states != NULL:
            raise InvalidArgumentError("a Batch is initialised once")
        self.game = game
        self.k = game.k
        self.n = n
        self.num_players = game.num_players()
        self.num_actions = self.k.num_actions
        self.tsize = 0
        self.stride = (self.k.state_size + 15) & ~(<size_t>15)
        cdef size_t nn = <size_t>n
        cdef size_t ml = <size_t>self.k.max_legal
        self.states = <char *>malloc(self.stride * nn)
        self.finals = <char *>malloc(self.stride * nn)
        self.rngs = <rc_rng *>malloc(sizeof(rc_rng) * nn)
        self.legal = <int32_t *>malloc(sizeof(int32_t) * ml * nn)
        self.legal_n = <int32_t *>malloc(sizeof(int32_t) * nn)
        self.moves = <int32_t *>malloc(sizeof(int32_t) * nn)
        self.seeds = <uint64_t *>malloc(sizeof(uint64_t) * nn)
        self.episodes = <uint64_t *>malloc(sizeof(uint64_t) * nn)
        self.has_final = <uint8_t *>malloc(nn)
        self.acts = <int32_t *>malloc(sizeof(int32_t) * ml)
        self.probs = <double *>malloc(sizeof(double) * ml)
        if (self.states == NULL or self.finals == NULL or self.rngs == NULL or self.legal == NULL
                or self.legal_n == NULL or self.moves == NULL or self.seeds == NULL
                or self.episodes == NULL or self.has_final == NULL or self.acts == NULL
                or self.probs == NULL):
            raise MemoryError()
        memset(self.states, 0, self.stride * nn)
        memset(self.has_final, 0, nn)
        rc_rng_seed(&self.master, to_seed64(seed))
        self._rewards = np.zeros((n, self.num_players), np.float32)
        self._done = np.zeros(n, np.bool_)
        self._player = np.zeros(n, np.int32)
        self._mask = None
        self._obs = None
        self.reset()

    def __repr__(self):
        return f"<Batch of {self.n} {self.game!r}>"

    def __len__(self):
        return self.n

    # -- dealing ----------------------------------------------------------------------
    cdef inline char *_slot(self, Py_ssize_t i) noexcept nogil:
        return self.states + <size_t>i * self.stride

    cdef void _deal(self, Py_ssize_t i) noexcept nogil:
        """Slot i's current game from its seed and episode, up to the first player move."""
        cdef uint64_t seed = self.seeds[i] + self.episodes[i] * _SEED_STEP
        self.k.init(self._slot(i), self.game.params)
        rc_rng_seed(&self.rngs[i], seed)
        self.moves[i] = 0
        self._resolve(i)

    cdef void _resolve(self, Py_ssize_t i) noexcept nogil:
        """Applies dealer chance until a player moves (or the game ends), then lists the
        legal actions."""
        cdef char *s = self._slot(i)
        cdef int32_t a
        while self.k.current_player(s) == RC_CHANCE:
            a = rc_sample_chance(self.k, s, &self.rngs[i], self.acts, self.probs)
            self.k.apply(s, a)
            self.moves[i] += 1
        self.legal_n[i] = self.k.legal_actions(s, self.legal + <size_t>i * self.k.max_legal)

    def reset(self, seeds=None):
        """Deals a new game in every slot.  ``seeds``: None (drawn from the batch's
        generator), an int s (slots get s, s+1, ...) or n ints; see the module for how
        a slot's later games are seeded."""
        cdef Py_ssize_t i
        cdef list given
        if seeds is None:
            for i in range(self.n):
                self.seeds[i] = rc_rng_next(&self.master)
        elif isinstance(seeds, (int, np.integer, np.bool_)):  # a bool is refused there
            base = to_seed64(seeds)
            for i in range(self.n):
                self.seeds[i] = <uint64_t>((base + i) & 0xFFFFFFFFFFFFFFFF)
        else:
            if isinstance(seeds, (str, bytes)):
                raise ArgumentTypeError(f"seeds must be ints, got {type(seeds).__name__}")
            try:
                given = seeds.tolist() if isinstance(seeds, np.ndarray) else list(seeds)
            except TypeError:
                raise ArgumentTypeError(f"seeds must be None, an int or {self.n} ints, "
                                        f"got {type(seeds).__name__}") from None
            if len(given) and isinstance(given[0], list):
                raise InvalidArgumentError(f"seeds must be {self.n} ints, not nested")
            if len(given) != self.n:
                raise InvalidArgumentError(f"seeds must have {self.n} entries, got {len(given)}")
            values = []
            for i in range(self.n):
                try:
                    values.append(to_seed64(given[i]))
                except ArgumentTypeError as e:
                    raise ArgumentTypeError(f"batch index {i}: {e}") from None
            for i in range(self.n):
                self.seeds[i] = values[i]
        with nogil:
            for i in range(self.n):
                self.episodes[i] = 0
                self.has_final[i] = 0
                self._deal(i)

    # -- reading --------------------------------------------------------------------------
    def current_player(self, out=None):
        """(n,) int32: the player to move in each game (never chance: it is resolved)."""
        cdef _OutArg o = _OutArg()
        if out is None:
            out = self._player
        o.open(out, (self.n,), _I32, "out")
        cdef int32_t *p = <int32_t *>o.data
        cdef Py_ssize_t i
        with nogil:
            for i in range(self.n):
                p[i] = self.k.current_player(self._slot(i))
        return out

    def legal_mask(self, out=None):
        """(n, num_actions): 1 where the action is legal for the game's player to move.
        ``out`` may be bool, uint8 or int8; the cached array is bool."""
        cdef _OutArg o = _OutArg()
        if out is None:
            if self._mask is None:
                self._mask = np.zeros((self.n, self.num_actions), np.bool_)
            out = self._mask
        o.open(out, (self.n, self.num_actions), _MASK_DTYPES, "out")
        self._fill_mask(<uint8_t *>o.data)
        return out

    cdef void _fill_mask(self, uint8_t *m) noexcept nogil:
        cdef Py_ssize_t i, j
        cdef size_t na = <size_t>self.num_actions
        cdef const int32_t *row
        memset(m, 0, na * <size_t>self.n)
        for i in range(self.n):
            row = self.legal + <size_t>i * self.k.max_legal
            for j in range(self.legal_n[i]):
                m[row[j]] = 1
            m += na

    def legal_counts(self, out=None):
        """(n,) int32: how many actions are legal in each game."""
        cdef _OutArg o = _OutArg()
        if out is None:
            out = np.empty(self.n, np.int32)
        o.open(out, (self.n,), _I32, "out")
        memcpy(o.data, self.legal_n, sizeof(int32_t) * self.n)
        return out

    def move_number(self, out=None):
        """(n,) int32: actions applied so far in each slot's current game, chance included
        (``len(state.history())`` of the same game played alone)."""
        cdef _OutArg o = _OutArg()
        if out is None:
            out = np.empty(self.n, np.int32)
        o.open(out, (self.n,), _I32, "out")
        memcpy(o.data, self.moves, sizeof(int32_t) * self.n)
        return out

    def game_seeds(self, out=None):
        """(n,) uint64: the seed each slot's current game was dealt with."""
        cdef _OutArg o = _OutArg()
        if out is None:
            out = np.empty(self.n, np.uint64)
        o.open(out, (self.n,), _U64, "out")
        cdef uint64_t *p = <uint64_t *>o.data
        cdef Py_ssize_t i
        for i in range(self.n):
            p[i] = self.seeds[i] + self.episodes[i] * _SEED_STEP
        return out

    def observation_tensor_size(self):
        """Floats per game in :meth:`observation_tensor` (PluginError until the game has
        a tensor)."""
        if self.game is None:
            raise InvalidArgumentError("this Batch was never initialised")
        if self.tsize == 0:
            self.tsize = self.game._tensor_size()
        return self.tsize

    def observation_tensor(self, player=None, out=None):
        """(n, size) float32: what each game's ``player`` knows (see
        ``State.observation_tensor``).  ``player``: None for each game's player to move,
        an int for the same seat everywhere, or n ints."""
        cdef int32_t size
        cdef _OutArg o = _OutArg()
        cdef _IntArg pa = None
        cdef const _ints *pv = NULL
        cdef Py_ssize_t i
        cdef int64_t p, fixed = -1
        if player is not None:
            if isinstance(player, (int, np.integer)) and not isinstance(player, (bool, np.bool_)):
                if not 0 <= player < self.num_players:
                    raise InvalidArgumentError(f"player {player} out of range 0..{self.num_players - 1}")
                fixed = player
            else:
                pa = _IntArg()
                pa.open(player, self.n, "player", False)
                pv = &pa.v
                for i in range(self.n):
                    if not 0 <= _at(pv, i) < self.num_players:
                        raise InvalidArgumentError(f"batch index {i}: player {pa.arr[i]} out of "
                                                   f"range 0..{self.num_players - 1}")
        size = self.observation_tensor_size()
        if out is None:
            if self._obs is None:
                self._obs = np.zeros((self.n, size), np.float32)
            out = self._obs
        o.open(out, (self.n, size), _F32, "out")
        cdef float *f = <float *>o.data
        with nogil:
            for i in range(self.n):
                if pv != NULL:
                    p = _at(pv, i)
                elif fixed >= 0:
                    p = fixed
                else:
                    p = self.k.current_player(self._slot(i))
                self.k.observation_tensor(self._slot(i), <int>p, f + <size_t>i * size)
        return out

    def random_actions(self, out=None):
        """(n,) int32: a uniformly random legal action of each game, drawn from the batch's
        generator (not the dealers', so the games' chance draws stay as they are)."""
        cdef _OutArg o = _OutArg()
        if out is None:
            out = np.empty(self.n, np.int32)
        o.open(out, (self.n,), _I32, "out")
        cdef int32_t *a = <int32_t *>o.data
        cdef Py_ssize_t i
        cdef int32_t c
        with nogil:
            for i in range(self.n):
                c = self.legal_n[i]
                a[i] = self.legal[<size_t>i * self.k.max_legal
                                  + (0 if c <= 1 else rc_rng_below(&self.master, <uint32_t>c))]
        return out

    # -- stepping -------------------------------------------------------------------------
    def step(self, actions, where=None, rewards=None, done=None):
        """Applies ``actions[i]`` (n ints) to game i, resolves chance, and deals a new game
        wherever one ended; returns ``(rewards, done)``: (n, players) float32 returns of the
        games that ended in this step (0 elsewhere) and (n,) bool.

        ``where`` (n bools) limits the step to those games; the others are untouched.  The
        whole array is checked first: a wrong shape or dtype, or an action that is not
        legal in its game, raises (IllegalActionError naming the batch index) and no game
        changes.
        """
        cdef _IntArg act = _IntArg(), sel = None
        cdef const _ints *av
        cdef const _ints *sv = NULL
        cdef _OutArg ro = _OutArg(), do = _OutArg()
        cdef Py_ssize_t i, bad = -1
        act.open(actions, self.n, "actions", False)
        av = &act.v
        if where is not None:
            sel = _IntArg()
            sel.open(where, self.n, "where", True)
            sv = &sel.v
        if rewards is None:
            rewards = self._rewards
        if done is None:
            done = self._done
        ro.open(rewards, (self.n, self.num_players), _F32, "rewards")
        do.open(done, (self.n,), _BOOL, "done")
        with nogil:
            for i in range(self.n):
                if (sv == NULL or _at(sv, i) != 0) and not self._is_legal(i, _at(av, i)):
                    bad = i
                    break
        if bad >= 0:
            self._raise_illegal(bad, act.arr[bad])
        with nogil:
            self._step(av, sv, <float *>ro.data, <uint8_t *>do.data)
        return rewards, done

    cdef bint _is_legal(self, Py_ssize_t i, int64_t a) noexcept nogil:
        cdef const int32_t *row = self.legal + <size_t>i * self.k.max_legal
        cdef int lo = 0, hi = self.legal_n[i] - 1, mid
        if a < 0 or a >= self.num_actions:
            return False
        while lo <= hi:
            mid = (lo + hi) >> 1
            if row[mid] == a:
                return True
            if row[mid] < a:
                lo = mid + 1
            else:
                hi = mid - 1
        return False

    cdef void _step(self, const _ints *av, const _ints *sv, float *rew, uint8_t *done) noexcept nogil:
        cdef Py_ssize_t i
        cdef int j, np_ = self.num_players
        cdef char *s
        cdef double ret[RC_MAX_PLAYERS]
        memset(rew, 0, sizeof(float) * <size_t>self.n * np_)
        memset(done, 0, <size_t>self.n)
        for i in range(self.n):
            if sv != NULL and _at(sv, i) == 0:
                continue
            s = self._slot(i)
            self.k.apply(s, <int32_t>_at(av, i))
            self.moves[i] += 1
            self._resolve(i)
            if self.k.current_player(s) == RC_TERMINAL:
                self.k.returns(s, ret)
                for j in range(np_):
                    rew[i * np_ + j] = <float>ret[j]
                done[i] = 1
                memcpy(self.finals + <size_t>i * self.stride, s, self.k.state_size)
                self.has_final[i] = 1
                self.episodes[i] += 1
                self._deal(i)

    def _raise_illegal(self, Py_ssize_t i, action):
        """IllegalActionError for game i's action, named and explained as State does."""
        try:
            a = operator.index(action)
        except TypeError:
            a = action
        if not isinstance(a, int) or not 0 <= a < self.num_actions:
            raise IllegalActionError(f"batch index {i}: action {a}: out of range "
                                     f"0..{self.num_actions - 1}")
        try:
            self.state(i).apply_action(a)
        except IllegalActionError as e:
            raise IllegalActionError(f"batch index {i}: {e}") from None
        raise IllegalActionError(f"batch index {i}: action {a} is not legal")  # pragma: no cover

    # -- single games as States ------------------------------------------------------------
    cdef Py_ssize_t _index(self, i) except -1:
        try:
            i = operator.index(i)
        except TypeError:
            raise ArgumentTypeError(f"index must be an int, got {type(i).__name__}") from None
        if not 0 <= i < self.n:
            raise InvalidArgumentError(f"index {i} out of range 0..{self.n - 1}")
        return i

    cdef State _as_state(self, const char *s, const rc_rng *rng):
        cdef State st = self.game._new_state()
        memcpy(st.s, s, self.k.state_size)
        st.rng = rng[0]
        return st

    def state(self, i):
        """A :class:`State` copy of game i as it stands (its dealer RNG included; its
        history starts here)."""
        cdef Py_ssize_t j = self._index(i)
        return self._as_state(self._slot(j), &self.rngs[j])

    def final_state(self, i):
        """A :class:`State` copy of the last game that ended in slot i (None if none has
        since the last reset): what a step that reported ``done[i]`` finished (terminal;
        its dealer RNG is the slot's current one)."""
        cdef Py_ssize_t j = self._index(i)
        if not self.has_final[j]:
            return None
        return self._as_state(self.finals + <size_t>j * self.stride, &self.rngs[j])
