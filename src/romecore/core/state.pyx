# cython: language_level=3
"""Generic :class:`Game` and :class:`State`: the Python API over any kernel.

Everything that plays the game calls the kernel table; this module adds argument
checking, the legal-action cache, the action history, the seeded dealer RNG, snapshots
and the pieces of the API that are the same for every game.  A game's ``cdef class``
derived from :class:`State` supplies the readable parts through a handful of underscore
hooks (``_action_to_string``, ``_to_dict``, ``_load_dict``, ``_observation``,
``_score_breakdown``, ``_render``, ``_why_illegal``).
"""
import operator

import msgpack

from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid
from cpython.bytes cimport PyBytes_FromStringAndSize, PyBytes_AS_STRING
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_FromLong
from cpython.ref cimport Py_INCREF
from libc.stdlib cimport malloc, free, realloc
from libc.string cimport memcpy, memcmp, memset
from libc.stdint cimport int32_t, uint64_t

from romecore.core.kernel cimport (
    rc_kernel, rc_rng, rc_rng_seed, rc_rng_next, rc_sample_chance, rc_random_step_listed, rc_hash_bytes,
    RC_ABI_VERSION, RC_CHANCE, RC_TERMINAL, RC_MAX_PLAYERS, RC_MAX_PARAMS, RC_HIDDEN,
)
from romecore.core.dictread import read_int, read_list, show as _show
from romecore.core.canonical import canonical_json
from romecore.core.seeds import seed64
from romecore.errors import (
    ArgumentTypeError, IllegalActionError, InvalidArgumentError, PluginError, SerializationError,
    UsageError,
)

CHANCE = RC_CHANCE
TERMINAL = RC_TERMINAL
HIDDEN = RC_HIDDEN  # set in observe_action() results that hide the action
SNAPSHOT_FORMAT = 1
_MAGIC = "romecore"
cdef const char *_CAPSULE_NAME = "romecore.rc_kernel"


cdef extern from "Python.h":
    ctypedef struct PyTypeObject:
        object (*tp_new)(PyTypeObject *, object, object)


cdef uint64_t to_seed64(object seed) except? 0:
    """:func:`romecore.core.seeds.seed64` for Cython callers (the rule lives there)."""
    return seed64(seed)


cdef list _int_list(object xs, str what, object lo, object hi, Py_ssize_t max_len):
    """``xs`` read as a list of at most ``max_len`` ints in lo..hi."""
    return [read_int(x, what, lo, hi) for x in read_list(xs, what, max_len)]


cdef inline Py_ssize_t _bin_head_len(Py_ssize_t n):
    return 2 if n < 256 else 3 if n < 65536 else 5


cdef char *_write_bin(char *p, const char *data, Py_ssize_t n):
    """Writes msgpack 'bin' n bytes at p (by hand: it sits on the snapshot path)."""
    if n < 256:
        p[0] = <char>0xC4
        p[1] = <char>n
        p += 2
    elif n < 65536:
        p[0] = <char>0xC5
        p[1] = <char>(n >> 8)
        p[2] = <char>(n & 0xFF)
        p += 3
    else:
        p[0] = <char>0xC6
        p[1] = <char>((n >> 24) & 0xFF)
        p[2] = <char>((n >> 16) & 0xFF)
        p[3] = <char>((n >> 8) & 0xFF)
        p[4] = <char>(n & 0xFF)
        p += 5
    memcpy(p, data, n)
    return p + n


cdef Py_ssize_t _read_bin(const unsigned char *p, Py_ssize_t avail, Py_ssize_t *n):
    """Length of a msgpack 'bin' header at p (its size in *n), or -1."""
    if avail >= 2 and p[0] == 0xC4:
        n[0] = p[1]
        return 2
    if avail >= 3 and p[0] == 0xC5:
        n[0] = (p[1] << 8) | p[2]
        return 3
    if avail >= 5 and p[0] == 0xC6:
        n[0] = (<Py_ssize_t>p[1] << 24) | (p[2] << 16) | (p[3] << 8) | p[4]
        return 5
    return -1


cdef class Game:
    """A game with fixed options: makes states, loads snapshots and dicts.

    Obtain one with :func:`romecore.load_game`.  Games are immutable and cheap; two games
    with the same id and options are equal and make interchangeable states.
    """

    def __init__(self, spec, dict options, list params):
        cdef object capsule = spec.kernel
        if not PyCapsule_IsValid(capsule, _CAPSULE_NAME):
            raise PluginError(f"game {spec.game_id!r}: kernel is not a romecore.rc_kernel capsule")
        self.k = <const rc_kernel *>PyCapsule_GetPointer(capsule, _CAPSULE_NAME)
        if self.k.abi_version != RC_ABI_VERSION:
            raise ImportError(f"game {spec.game_id!r} was built for kernel ABI {self.k.abi_version}, "
                              f"this romecore speaks {RC_ABI_VERSION}; rebuild the plugin")
        if (self.k.init == NULL or self.k.num_players == NULL or self.k.current_player == NULL
                or self.k.legal_actions == NULL or self.k.chance_outcomes == NULL
                or self.k.apply == NULL or self.k.returns == NULL or self.k.scores == NULL
                or self.k.resample == NULL or self.k.observe_action == NULL
                or self.k.validate == NULL):
            raise PluginError(f"game {spec.game_id!r}: its kernel table leaves a required slot empty")
        if len(params) > RC_MAX_PARAMS:
            raise PluginError(f"game {spec.game_id!r}: more than {RC_MAX_PARAMS} kernel parameters")
        memset(self.params, 0, sizeof(self.params))
        for i, v in enumerate(params):
            self.params[i] = v
        self._nplayers = params[0]
        self.game_id = spec.game_id
        self.spec = spec
        self._options = dict(options)
        self.state_class = spec.state_class
        if not issubclass(self.state_class, State):
            raise PluginError(f"game {spec.game_id!r}: state class must derive from romecore State")
        head = msgpack.packb([_MAGIC, SNAPSHOT_FORMAT, self.game_id, self._options,
                              self.k.state_version], use_bin_type=True)
        # Array of 8: the five packed above, then struct, rng, history.
        self._envelope_head = bytes((0x98,)) + head[1:]

    # -- description --------------------------------------------------------------------
    @property
    def options(self):
        """The normalised options, players included (a fresh dict each time)."""
        return dict(self._options)

    def num_players(self):
        return self._nplayers

    def num_distinct_actions(self):
        """Action ids run from 0 to this number minus one (player and chance actions)."""
        return self.k.num_actions

    def max_chance_outcomes(self):
        return self.k.max_legal

    def max_legal_actions(self):
        return self.k.max_legal

    def max_game_length(self):
        """An upper bound on the number of actions (chance included) in one game."""
        return self.k.max_game_length

    def state_size(self):
        """Bytes in the kernel's state struct."""
        return self.k.state_size

    def observation_tensor_shape(self):
        """The shape of :meth:`State.observation_tensor`: one flat vector of float32 values
        in [0, 1], seat-relative, whose slices each game documents in its package docstring."""
        return (self._tensor_size(),)

    def observation_tensor_size(self):
        """The number of floats in an observation tensor of this game."""
        return self._tensor_size()

    cdef int32_t _tensor_size(self) except -1:
        if self.k.tensor_size == NULL or self.k.observation_tensor == NULL:
            raise PluginError(f"game {self.game_id!r} has no observation tensor")
        cdef int32_t n = self.k.tensor_size(self.params)
        if n <= 0 or n > self.k.max_tensor_size:
            raise PluginError(f"game {self.game_id!r}: tensor_size {n} is outside "
                              f"1..{self.k.max_tensor_size}")
        return n

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in self._options.items())
        return f"Game({self.game_id!r}, {opts})"

    def __eq__(self, other):
        if not isinstance(other, Game):
            return NotImplemented
        return self.game_id == (<Game>other).game_id and self._options == (<Game>other)._options

    def __hash__(self):
        return hash((self.game_id, tuple(sorted(self._options.items()))))

    def __reduce__(self):
        from romecore.api import load_game
        return (_load_game_kw, (self.game_id, self._options))

    # -- states -------------------------------------------------------------------------
    cdef State _new_state(self):
        cdef PyTypeObject *tp = <PyTypeObject *>self.state_class
        cdef State st = <State>tp.tp_new(tp, (), None)
        st._bind(self)
        return st

    def new_initial_state(self, seed=None):
        """The state before the first action (usually a chance node: the set-up).

        ``seed`` seeds the state's dealer RNG, used by :meth:`State.apply_random_chance`
        (any int, taken modulo 2**64; None: a fresh one; see :mod:`romecore.core.seeds`); the kernel
        itself has no randomness, every chance event is an explicit action.
        """
        cdef uint64_t s64 = to_seed64(seed)
        cdef State st = self._new_state()
        self.k.init(st.s, self.params)
        rc_rng_seed(&st.rng, s64)
        return st

    def deserialize(self, blob):
        """Loads a snapshot made by :meth:`State.serialize` of a state of this game.

        Raises :class:`romecore.SerializationError` for anything else, before using it.
        """
        if type(blob) is bytes:
            st = self._load_fast(<bytes>blob)
            if st is not None:
                return st
        fields = _unpack_envelope(blob)
        if fields[2] != self.game_id:
            raise SerializationError(f"snapshot is of game {_show(fields[2])}, not {self.game_id!r}")
        if fields[3] != self._options:
            raise SerializationError(f"snapshot options {_show(fields[3])} differ from this game's "
                                     f"{self._options!r}")
        return self._load_fields(fields)

    cdef object _load_fast(self, bytes blob):
        """The common case without msgpack: our own header, then exactly struct, RNG and
        history.  Returns None when the blob is anything else (the slow path explains)."""
        cdef Py_ssize_t nh = len(self._envelope_head), total = len(blob), pos, h, n
        cdef const unsigned char *p = <const unsigned char *>PyBytes_AS_STRING(blob)
        cdef State st
        if total < nh or memcmp(p, PyBytes_AS_STRING(self._envelope_head), nh) != 0:
            return None
        pos = nh
        h = _read_bin(p + pos, total - pos, &n)
        if h < 0 or n != self.k.state_size or pos + h + n > total:
            return None
        cdef Py_ssize_t spos = pos + h
        pos = spos + n
        h = _read_bin(p + pos, total - pos, &n)
        if h < 0 or n != sizeof(rc_rng) or pos + h + n > total:
            return None
        cdef Py_ssize_t rpos = pos + h
        pos = rpos + n
        if pos + 1 != total or p[pos] != 0xC0:
            return None  # history present or trailing bytes: the slow path handles it
        st = self._new_state()
        memcpy(st.s, p + spos, self.k.state_size)
        memcpy(&st.rng, p + rpos, sizeof(rc_rng))
        if st.rng.s[0] == 0 and st.rng.s[1] == 0 and st.rng.s[2] == 0 and st.rng.s[3] == 0:
            raise SerializationError("snapshot RNG state is all zero")
        st._check_struct()
        return st

    def _load_fields(self, list fields):
        cdef bytes sb, rb, hb
        if fields[4] != self.k.state_version:
            raise SerializationError(f"snapshot has state layout {_show(fields[4])}; this build reads "
                                     f"layout {self.k.state_version}")
        sb, rb, hb = fields[5], fields[6], fields[7]
        if len(sb) != self.k.state_size:
            raise SerializationError(f"snapshot state is {len(sb)} bytes, expected {self.k.state_size}")
        if len(rb) != sizeof(rc_rng):
            raise SerializationError("snapshot RNG field has the wrong size")
        if hb is not None and len(hb) % 4 != 0:
            raise SerializationError("snapshot history is not a whole number of actions")
        cdef State st = self._new_state()
        memcpy(st.s, PyBytes_AS_STRING(sb), self.k.state_size)
        memcpy(&st.rng, PyBytes_AS_STRING(rb), sizeof(rc_rng))
        if st.rng.s[0] == 0 and st.rng.s[1] == 0 and st.rng.s[2] == 0 and st.rng.s[3] == 0:
            raise SerializationError("snapshot RNG state is all zero")
        st._check_struct()
        if hb is not None:
            st._load_history_bytes(hb)
        return st

    def state_from_dict(self, d):
        """Builds a state from the documented dict form (see the game's ``to_dict``).

        Fields the dict leaves out keep the values of a fresh game after set-up where the
        game documents that; anything inconsistent raises ``SerializationError``.
        """
        if not isinstance(d, dict):
            raise SerializationError(f"state_from_dict expects a dict, got {type(d).__name__}")
        g = d.get("game", self.game_id)
        if g != self.game_id:
            raise SerializationError(f"dict is of game {_show(g)}, not {self.game_id!r}")
        opts = d.get("options")
        if opts is not None and (not isinstance(opts, dict) or opts != self._options):
            raise SerializationError(f"dict options {_show(opts)} differ from this game's {self._options!r}")
        cdef State st = self._new_state()
        self.k.init(st.s, self.params)
        try:
            st._load_dealer(d)
            st._load_dict(d)
        except SerializationError:
            raise
        except (KeyError, ValueError, TypeError, IndexError, OverflowError, AttributeError,
                RecursionError) as e:
            # The loaders check types and ranges field by field; this is the net under them.
            raise SerializationError(f"bad {self.game_id} state dict: {type(e).__name__}: {e}") from None
        st._check_struct()
        return st


def _load_game_kw(game_id, options):
    from romecore.api import load_game
    return load_game(game_id, **options)


def _unpack_envelope(blob):
    """Unpacks and type-checks a snapshot envelope; returns its eight fields."""
    if not isinstance(blob, (bytes, bytearray, memoryview)):
        raise SerializationError(f"a snapshot is bytes, got {type(blob).__name__}")
    try:
        fields = msgpack.unpackb(bytes(blob), raw=False, strict_map_key=False,
                                 max_bin_len=1 << 24, max_str_len=1 << 12,
                                 max_array_len=1 << 12, max_map_len=256)
    except Exception as e:  # msgpack raises several unrelated types on bad input
        raise SerializationError(f"snapshot is not valid msgpack: {e}") from None
    if not isinstance(fields, list) or len(fields) != 8:
        raise SerializationError("snapshot is not a romecore envelope")
    if fields[0] != _MAGIC:
        raise SerializationError("snapshot is not a romecore envelope (bad magic)")
    if fields[1] != SNAPSHOT_FORMAT:
        raise SerializationError(f"snapshot format {_show(fields[1])} is not supported "
                                 f"(this build reads format {SNAPSHOT_FORMAT})")
    if not isinstance(fields[2], str) or not isinstance(fields[3], dict):
        raise SerializationError("snapshot game id or options are malformed")
    if not isinstance(fields[4], int) or isinstance(fields[4], bool):
        raise SerializationError("snapshot state layout version is malformed")
    if not isinstance(fields[5], bytes) or not isinstance(fields[6], bytes):
        raise SerializationError("snapshot state or RNG field is not binary")
    if fields[7] is not None and not isinstance(fields[7], bytes):
        raise SerializationError("snapshot history field is malformed")
    return fields


def peek_snapshot(blob):
    """(game id, options) of a snapshot, checked as far as the envelope goes."""
    fields = _unpack_envelope(blob)
    return fields[2], fields[3]


cdef int _refuse_busy() except -1:
    """The error of a call on a state that another thread is working on without the GIL."""
    raise UsageError("this State is in use by another thread (State.playout works on it without "
                     "the GIL); a State is one thread's at a time: give each thread its own clone()")


cdef class State:
    """A game position.  Mutable: :meth:`apply_action` changes it in place.

    Made by :meth:`Game.new_initial_state`, :meth:`Game.deserialize`,
    :meth:`Game.state_from_dict`, :meth:`clone` and :meth:`resample`.

    Threads: a State is one thread's at a time.  A call that works on the struct without
    the GIL (:meth:`playout`) marks the state busy, and any call on a busy state raises
    :class:`romecore.UsageError` instead of racing it; hand each thread its own ``clone()``.
    """

    def __cinit__(self):
        self.k = NULL
        self.s = NULL
        self.legal = NULL
        self.legal_n = -1
        self.hist = NULL
        self.hist_len = 0
        self.hist_cap = 0
        self.busy = False

    def __init__(self, *args, **kwargs):
        raise ArgumentTypeError("states are made by Game.new_initial_state(), deserialize() or clone()")

    def __dealloc__(self):
        free(self.s)  # one block: struct, then the legal-action cache
        free(self.hist)

    cdef _bind(self, Game game):
        cdef size_t struct_bytes = (game.k.state_size + 15) & ~(<size_t>15)
        self.s = malloc(struct_bytes + sizeof(int32_t) * game.k.max_legal)
        if self.s == NULL:
            raise MemoryError()
        memset(self.s, 0, game.k.state_size)
        self.legal = <int32_t *>((<char *>self.s) + struct_bytes)
        self.k = game.k
        self.game = game

    cdef int _enter_nogil(self) except -1:
        """Marks the state busy before a call releases the GIL to work on its struct, so
        other threads' calls raise instead of racing it (``UsageError`` if already busy).
        Called with the GIL held, so the check and the mark cannot interleave."""
        if self.busy:
            _refuse_busy()
        self.busy = True
        return 0

    cdef void _leave_nogil(self) noexcept:
        self.busy = False

    cdef int _refresh_legal(self) except -1:
        if self.busy:
            _refuse_busy()
        if self.legal_n < 0:
            self.legal_n = self.k.legal_actions(self.s, self.legal)
        return self.legal_n

    cdef int _reserve_history(self, int extra) except -1:
        cdef int32_t *grown
        cdef int cap = self.hist_cap if self.hist_cap else 64
        while cap < self.hist_len + extra:
            cap *= 2
        if cap != self.hist_cap:
            grown = <int32_t *>realloc(self.hist, sizeof(int32_t) * cap)
            if grown == NULL:
                raise MemoryError()
            self.hist = grown
            self.hist_cap = cap
        return 0

    cdef int _push_history(self, int32_t a) except -1:
        if self.hist_len == self.hist_cap:
            self._reserve_history(1)
        self.hist[self.hist_len] = a
        self.hist_len += 1
        return 0

    cdef int _apply_unchecked(self, int32_t a) except -1:
        if self.busy:
            _refuse_busy()
        self._push_history(a)
        if self.k.apply_legal != NULL:     # the next legal list, where the kernel made it
            self.legal_n = self.k.apply_legal(self.s, a, self.legal)
        else:
            self.k.apply(self.s, a)
            self.legal_n = -1
        return 0

    cdef State _copy(self):
        if self.busy:
            _refuse_busy()
        cdef State c = self.game._new_state()
        memcpy(c.s, self.s, self.k.state_size)
        c.rng = self.rng
        if self.hist_len:
            c.hist = <int32_t *>malloc(sizeof(int32_t) * self.hist_cap)
            if c.hist == NULL:
                raise MemoryError()
            memcpy(c.hist, self.hist, sizeof(int32_t) * self.hist_len)
            c.hist_cap = self.hist_cap
            c.hist_len = self.hist_len
        return c

    def _check_struct(self):
        """Whether a struct from outside (a snapshot, a dict) is one the game can reach: the
        kernel's own check, then what holds in every game, checked here once: the player
        count matches the options (a snapshot may not pair a 2-player struct with 3-player
        options), and a live state offers a legal action or chance outcome (else a step
        loop would stall).  The legal actions it lists stay in the cache."""
        cdef const char *msg = self.k.validate(self.s)
        if msg != NULL:
            raise SerializationError(f"inconsistent {self.game.game_id} state: "
                                     f"{msg.decode('utf-8', 'replace')}")
        cdef int n = self.k.num_players(self.s)
        if n != self.game.num_players():
            raise SerializationError(f"{self.game.game_id} state for {n} players does not match "
                                     f"the options' {self.game.num_players()} players")
        self.legal_n = -1
        if self.k.current_player(self.s) != RC_TERMINAL and self._refresh_legal() == 0:
            raise SerializationError(f"inconsistent {self.game.game_id} state: no legal action in a "
                                     f"live state")

    def _load_dealer(self, dict d):
        """The dict's dealer RNG (``rng``, as written by :meth:`to_dict`; else seeded from
        ``seed``, default 0) and its ``history``, if any."""
        rng = d.get("rng")
        if rng is not None:
            rng = _int_list(rng, "rng", 0, 0xFFFFFFFFFFFFFFFF, 4)
            if len(rng) != 4 or not any(rng):
                raise SerializationError("dict rng must be four 64-bit words, not all zero")
            for i in range(4):
                self.rng.s[i] = rng[i]
        else:
            seed = d.get("seed", 0)
            if type(seed) is not int:
                raise SerializationError(f"dict seed must be an int, got {type(seed).__name__}")
            rc_rng_seed(&self.rng, to_seed64(seed))
        hist = d.get("history")
        if hist is not None:
            hist = _int_list(hist, "history", 0, self.k.num_actions - 1, 1 << 22)
            self._reserve_history(len(hist))
            for a in hist:
                self._push_history(a)

    def _load_history_bytes(self, bytes hb):
        cdef Py_ssize_t n = len(hb) // 4
        cdef const int32_t *src = <const int32_t *>PyBytes_AS_STRING(hb)
        cdef Py_ssize_t i
        for i in range(n):
            if src[i] < 0 or src[i] >= self.k.num_actions:
                raise SerializationError(f"snapshot history holds action {src[i]}, out of range")
        for i in range(n):
            self._push_history(src[i])

    # -- whose turn -------------------------------------------------------------------
    def current_player(self):
        """0..n-1, or ``romecore.CHANCE`` (-1), or ``romecore.TERMINAL`` (-4)."""
        if self.busy:
            _refuse_busy()
        return self.k.current_player(self.s)

    def is_terminal(self):
        if self.busy:
            _refuse_busy()
        return self.k.current_player(self.s) == RC_TERMINAL

    def is_chance_node(self):
        if self.busy:
            _refuse_busy()
        return self.k.current_player(self.s) == RC_CHANCE

    def is_player_node(self):
        if self.busy:
            _refuse_busy()
        return self.k.current_player(self.s) >= 0

    def num_players(self):
        if self.busy:
            _refuse_busy()
        return self.k.num_players(self.s)

    # -- actions ------------------------------------------------------------------------
    def legal_actions(self):
        """Legal action ids, ascending; at a chance node, the chance outcomes; ``[]`` at the end."""
        cdef int n = self._refresh_legal()
        cdef list out = PyList_New(n)
        cdef int i
        cdef object v
        for i in range(n):
            v = PyLong_FromLong(self.legal[i])
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
        return out

    def legal_actions_mask(self):
        """A bytes of length ``num_distinct_actions()``: 1 where the action is legal."""
        cdef int n = self._refresh_legal()
        cdef bytearray mask = bytearray(self.k.num_actions)
        cdef int i
        for i in range(n):
            mask[self.legal[i]] = 1
        return bytes(mask)

    def chance_outcomes(self):
        """``[(action, probability), ...]`` at a chance node, ``[]`` elsewhere."""
        if self.busy:
            _refuse_busy()
        if self.k.current_player(self.s) != RC_CHANCE:
            return []
        cdef int32_t *acts = <int32_t *>malloc(sizeof(int32_t) * self.k.max_legal)
        cdef double *probs = <double *>malloc(sizeof(double) * self.k.max_legal)
        cdef int n, i
        try:
            if acts == NULL or probs == NULL:
                raise MemoryError()
            n = self.k.chance_outcomes(self.s, acts, probs)
            return [(acts[i], probs[i]) for i in range(n)]
        finally:
            free(acts)
            free(probs)

    cdef bint _is_legal(self, int32_t a):
        cdef int lo = 0, hi = self._refresh_legal() - 1, mid
        while lo <= hi:
            mid = (lo + hi) >> 1
            if self.legal[mid] == a:
                return True
            if self.legal[mid] < a:
                lo = mid + 1
            else:
                hi = mid - 1
        return False

    def is_legal(self, action):
        """True when ``action`` may be applied now."""
        try:
            a = operator.index(action)
        except TypeError:
            return False
        if a < 0 or a >= self.k.num_actions:
            return False
        return self._is_legal(<int32_t>a)

    def apply_action(self, action):
        """Applies a legal action (a player's move or a chance outcome).

        Raises :class:`romecore.IllegalActionError`, naming the action and why, and leaves
        the state unchanged, if the action is not legal here.
        """
        cdef int32_t a
        if type(action) is int and -2147483648 <= action <= 2147483647:
            a = action
        else:
            a = self._coerce_action(action)
        if not self._is_legal(a):
            self._raise_illegal(a)
        self._apply_unchecked(a)

    cdef int32_t _coerce_action(self, object action) except? -1:
        try:
            v = operator.index(action)
        except TypeError:
            raise IllegalActionError(f"action {_show(action)}: an action is an int, "
                                     f"not {type(action).__name__}") from None
        if not -2147483648 <= v <= 2147483647:
            raise IllegalActionError(f"action {v}: out of range 0..{self.k.num_actions - 1}")
        return <int32_t>v

    def _raise_illegal(self, int32_t a):
        cdef int p = self.k.current_player(self.s)
        if p == RC_TERMINAL:
            raise IllegalActionError(f"action {a}: the game is over")
        if a < 0 or a >= self.k.num_actions:
            raise IllegalActionError(f"action {a}: out of range 0..{self.k.num_actions - 1}")
        try:
            name = self._action_to_string(a)
        except Exception:
            name = "?"
        why = self._why_illegal(a)
        who = "chance" if p == RC_CHANCE else f"player {p}"
        raise IllegalActionError(f"action {a} ({name}) is not legal for {who}: {why}")

    def sample_chance(self):
        """At a chance node, draws an outcome with the state's seeded dealer RNG (which
        advances) without applying it."""
        if self.busy:
            _refuse_busy()
        if self.k.current_player(self.s) != RC_CHANCE:
            raise IllegalActionError("sample_chance: not a chance node")
        cdef int32_t *acts = <int32_t *>malloc(sizeof(int32_t) * self.k.max_legal)
        cdef double *probs = <double *>malloc(sizeof(double) * self.k.max_legal)
        cdef int32_t a
        try:
            if acts == NULL or probs == NULL:
                raise MemoryError()
            a = rc_sample_chance(self.k, self.s, &self.rng, acts, probs)
        finally:
            free(acts)
            free(probs)
        return a

    def apply_random_chance(self):
        """At a chance node, applies an outcome drawn by the state's seeded dealer RNG and
        returns it.  This is how a seeded game resolves its chance events reproducibly."""
        cdef int32_t a = self.sample_chance()
        self._apply_unchecked(a)
        return a

    def resolve_chance(self):
        """Applies dealer-RNG chance outcomes until a player is to move or the game ends;
        returns the outcomes applied."""
        if self.busy:
            _refuse_busy()
        out = []
        while self.k.current_player(self.s) == RC_CHANCE:
            out.append(self.apply_random_chance())
        return out

    def action_to_string(self, action):
        """A readable name of the action in this state, e.g. ``"build Market at (1,2)"``."""
        cdef int32_t a = self._coerce_action(action)
        if a < 0 or a >= self.k.num_actions:
            raise IllegalActionError(f"action {a}: out of range 0..{self.k.num_actions - 1}")
        if self.busy:
            _refuse_busy()
        return self._action_to_string(a)

    def string_to_action(self, text):
        """The legal action whose name is ``text`` (case and spacing ignored; a unique
        prefix or the action's number also work).  Raises ``IllegalActionError``."""
        if not isinstance(text, str):
            raise IllegalActionError(f"string_to_action expects a str, got {type(text).__name__}")
        t = " ".join(text.lower().split())
        if not t:
            raise IllegalActionError("empty action name")
        legal = self.legal_actions()
        if t.lstrip("-").isdigit():
            a = int(t)
            if a in legal:
                return a
            self._raise_illegal(a) if -2147483648 <= a <= 2147483647 else None
            raise IllegalActionError(f"action {a}: out of range")
        names = {a: " ".join(self._action_to_string(a).lower().split()) for a in legal}
        exact = [a for a, n in names.items() if n == t]
        if len(exact) == 1:
            return exact[0]
        prefix = [a for a, n in names.items() if n.startswith(t)]
        if len(prefix) == 1:
            return prefix[0]
        if len(prefix) > 1:
            raise IllegalActionError(f"{_show(text)} is ambiguous: " +
                                     ", ".join(repr(self._action_to_string(a)) for a in prefix[:8]))
        raise IllegalActionError(f"no legal action is named {_show(text)}")

    # -- copies and history -------------------------------------------------------------
    def clone(self):
        """An independent copy (struct memcpy, history and dealer RNG included)."""
        return self._copy()

    def __copy__(self):
        return self._copy()

    def __deepcopy__(self, memo):
        return self._copy()

    def history(self):
        """Every action applied since this state's game began (chance outcomes included),
        as far as this object knows: a state loaded from a snapshot without history, or
        made by :meth:`resample`, starts its history there."""
        if self.busy:
            _refuse_busy()
        return [self.hist[i] for i in range(self.hist_len)]

    def move_number(self):
        if self.busy:
            _refuse_busy()
        return self.hist_len

    def __len__(self):
        if self.busy:
            _refuse_busy()
        return self.hist_len

    # -- outcome ------------------------------------------------------------------------
    def returns(self):
        """One float per player: at the end, winners share 1.0 and others get 0.0; before
        the end, all 0.0."""
        if self.busy:
            _refuse_busy()
        cdef double out[RC_MAX_PLAYERS]
        cdef int n = self.k.num_players(self.s), i
        if self.k.current_player(self.s) != RC_TERMINAL:
            return [0.0] * n
        self.k.returns(self.s, out)
        return [out[i] for i in range(n)]

    def rewards(self):
        """Rewards for the last action (this engine pays everything at the end)."""
        return self.returns()

    def scores(self):
        """Points per player, counted as final scoring would count them now."""
        if self.busy:
            _refuse_busy()
        cdef int32_t out[RC_MAX_PLAYERS]
        cdef int n = self.k.num_players(self.s), i
        self.k.scores(self.s, out)
        return [out[i] for i in range(n)]

    def score_breakdown(self, player):
        """Player's points by score-pad category, with ``"total"``."""
        return self._score_breakdown(self._player_arg(player))

    def winners(self):
        """Players with a positive return (terminal states only; ``[]`` before)."""
        return [i for i, r in enumerate(self.returns()) if r > 0]

    # -- hidden information -------------------------------------------------------------
    def _player_arg(self, player):
        if self.busy:
            _refuse_busy()
        try:
            p = operator.index(player)
        except TypeError:
            raise ArgumentTypeError(f"player must be an int, got {type(player).__name__}") from None
        if not 0 <= p < self.k.num_players(self.s):
            raise InvalidArgumentError(f"player {p} out of range 0..{self.k.num_players(self.s) - 1}")
        return p

    def observation(self, player):
        """A dict of everything ``player`` knows now, and nothing more."""
        return self._observation(self._player_arg(player))

    def observation_tensor(self, player, out=None):
        """What ``player`` knows as a numpy float32 vector of
        ``game.observation_tensor_shape()``, written by the kernel in C (see the game's
        package docstring for its slices).  ``out``, a writable C-contiguous float32 array of
        that shape, is filled and returned instead of a new array."""
        cdef int p = self._player_arg(player)
        cdef int32_t n = self.game._tensor_size()
        import numpy
        if out is None:
            out = numpy.empty(n, dtype=numpy.float32)
        elif not isinstance(out, numpy.ndarray):
            raise ArgumentTypeError(f"out must be a numpy array, got {type(out).__name__}")
        elif out.dtype != numpy.float32 or out.shape != (n,):
            raise InvalidArgumentError(f"out must be float32 of shape ({n},), got {out.dtype} "
                                       f"of shape {out.shape}")
        elif not out.flags.c_contiguous or not out.flags.writeable:
            raise InvalidArgumentError("out must be C-contiguous and writable")
        cdef float[::1] view = out
        self.k.observation_tensor(self.s, p, &view[0])
        return out

    def to_svg(self, player=None):
        """A picture of ``player``'s view as SVG text (None: the whole truth, for spectators
        and finished games), drawn from what that player knows; see :mod:`romecore.picture`."""
        if self.busy:
            _refuse_busy()
        from romecore.picture import to_svg
        return to_svg(self, player)

    def _repr_svg_(self):
        """Jupyter shows a state as its spectator picture."""
        return self.to_svg()

    def observation_string(self, player):
        """The observation as canonical JSON (keys sorted, no spaces; see
        :mod:`romecore.core.canonical`)."""
        return canonical_json(self.observation(player))

    def information_state_string(self, player):
        """A string equal for two states exactly when ``player`` cannot tell them apart.
        Each kernel keeps in its struct everything a player recalls, so this is the
        canonical JSON of :meth:`observation`."""
        return self.observation_string(player)

    def observe_action(self, player, action):
        """What ``player`` perceives when ``action`` is applied here: the action itself
        when the player sees it, else ``HIDDEN | (the public part)``."""
        cdef int p = self._player_arg(player)
        cdef int32_t a = self._coerce_action(action)
        if not self._is_legal(a):
            self._raise_illegal(a)
        return self.k.observe_action(self.s, p, a)

    def resample(self, player, seed=None):
        """A state consistent with everything ``player`` knows: what the player cannot see
        is redrawn from the worlds consistent with their knowledge.  The copy's history is
        empty and its dealer RNG freshly seeded, so nothing hidden leaks through either."""
        cdef int p = self._player_arg(player)
        cdef uint64_t s64 = to_seed64(seed)
        cdef rc_rng r
        cdef State c = self.game._new_state()
        memcpy(c.s, self.s, self.k.state_size)
        rc_rng_seed(&r, s64)
        self.k.resample(c.s, p, &r)
        rc_rng_seed(&c.rng, rc_rng_next(&r))
        return c

    # -- snapshots ----------------------------------------------------------------------
    def serialize(self, history=False):
        """A msgpack snapshot: format, game id, options, layout version, the struct's
        bytes, the dealer RNG and, when asked, the history."""
        if self.busy:
            _refuse_busy()
        cdef bytes head = self.game._envelope_head
        cdef Py_ssize_t nh = len(head), ns = self.k.state_size
        cdef Py_ssize_t nr = sizeof(rc_rng)
        cdef Py_ssize_t nhist = sizeof(int32_t) * self.hist_len if (history and self.hist_len) else 0
        cdef Py_ssize_t total = nh + _bin_head_len(ns) + ns + 2 + nr + (
            _bin_head_len(nhist) + nhist if nhist else 1)
        cdef bytes out = PyBytes_FromStringAndSize(NULL, total)
        cdef char *p = PyBytes_AS_STRING(out)
        memcpy(p, PyBytes_AS_STRING(head), nh)
        p += nh
        p = _write_bin(p, <const char *>self.s, ns)
        p = _write_bin(p, <const char *>&self.rng, nr)
        if nhist:
            p = _write_bin(p, <const char *>self.hist, nhist)
        else:
            p[0] = <char>0xC0
        return out

    def state_bytes(self):
        """The raw struct (for hashing and equality checks; not a snapshot)."""
        if self.busy:
            _refuse_busy()
        return PyBytes_FromStringAndSize(<const char *>self.s, self.k.state_size)

    def state_hash(self):
        """A 64-bit hash of the position (the struct's bytes)."""
        if self.busy:
            _refuse_busy()
        return rc_hash_bytes(self.s, self.k.state_size)

    def __reduce__(self):
        return (_state_from_snapshot, (self.serialize(history=True),))

    def to_dict(self, history=True):
        """A readable dict of the whole game; ``game.state_from_dict`` reads it back and
        continues the same game: the position (the per-game schema is documented in the
        game module), the dealer RNG's four words (``rng``) and, unless ``history`` is
        false, every action so far (``history``)."""
        if self.busy:
            _refuse_busy()
        d = {"game": self.game.game_id, "options": self.game.options}
        d.update(self._to_dict())
        d["rng"] = [self.rng.s[0], self.rng.s[1], self.rng.s[2], self.rng.s[3]]
        if history:
            d["history"] = self.history()
        return d

    def __eq__(self, other):
        if not isinstance(other, State):
            return NotImplemented
        cdef State o = <State>other
        if self.busy or o.busy:
            _refuse_busy()
        return (self.game == o.game and
                memcmp(self.s, o.s, self.k.state_size) == 0)

    __hash__ = None

    # -- random playout -----------------------------------------------------------------
    def playout(self, seed=None):
        """Plays uniformly random moves (chance by its probabilities) to the end, inside
        C, changing this state; returns :meth:`returns`.  It runs without the GIL, the
        state marked busy: another thread's call on this state meanwhile raises
        ``UsageError``."""
        cdef rc_rng r
        cdef int32_t a
        cdef int32_t *acts = self.legal
        cdef int listed = self.legal_n   # the cache, if any, is this state's list in acts
        cdef double *probs = NULL
        rc_rng_seed(&r, to_seed64(seed))
        self._enter_nogil()
        try:
            self._reserve_history(self.k.max_game_length)  # the loop never allocates
            probs = <double *>malloc(sizeof(double) * self.k.max_legal)
            if probs == NULL:
                raise MemoryError()
            with nogil:
                while True:
                    a = rc_random_step_listed(self.k, self.s, &r, acts, probs, &listed)
                    if a < 0:
                        break
                    if self.hist_len < self.hist_cap:
                        self.hist[self.hist_len] = a
                        self.hist_len += 1
        finally:
            free(probs)
            self.legal_n = -1
            self._leave_nogil()
        return self.returns()

    # -- text ---------------------------------------------------------------------------
    def __str__(self):
        if self.busy:
            _refuse_busy()
        return self._render()

    def render(self, player=None):
        """The text drawing: the whole truth when ``player`` is None (spectators, finished
        games), else only what ``player`` knows, so two worlds that ``resample(player)``
        can produce draw the same."""
        if self.busy:
            _refuse_busy()
        if player is None:
            return self._render()
        return self._render_view(self._player_arg(player))

    def __repr__(self):
        if self.busy:  # a debugger may print it: say so rather than read the struct or raise
            return f"<{type(self).__name__} {self.game.game_id}, busy in another thread>"
        p = self.k.current_player(self.s)
        who = "terminal" if p == RC_TERMINAL else "chance" if p == RC_CHANCE else f"player {p} to move"
        return f"<{type(self).__name__} {self.game.game_id} move {self.hist_len}, {who}>"

    # -- hooks a game overrides ---------------------------------------------------------
    def _action_to_string(self, int a):
        return f"action {a}"

    def _why_illegal(self, int a):
        return "it is not one of the legal actions here"

    def _to_dict(self):
        return {"state_bytes": list(self.state_bytes())}

    def _load_dict(self, dict d):
        raise SerializationError(f"{self.game.game_id} has no dict loader")

    def _observation(self, int p):
        raise NotImplementedError

    def _score_breakdown(self, int p):
        raise NotImplementedError

    def _render(self):
        return repr(self)

    def _render_view(self, int p):
        # A game whose drawing shows anything hidden overrides this with p's drawing.
        return self._render()


def _state_from_snapshot(blob):
    from romecore.api import deserialize
    return deserialize(blob)
