# cython: language_level=3
"""The generic Python-facing wrappers around a kernel: :class:`Game` and :class:`State`.

Each game ships a ``cdef class`` deriving from :class:`State` that adds its readable parts
(action names, ``to_dict``, observations, drawing); everything that runs the game goes
through the kernel table ``k`` and the struct at ``s``.  Search plugins ``cimport`` this
file to reach ``k`` and ``s`` of a state handed to them from Python.
"""
from libc.stdint cimport int32_t, uint64_t
from romecore.core.kernel cimport rc_kernel, rc_rng

cdef uint64_t to_seed64(object seed) except? 0  # the one seed rule: romecore.core.seeds

cdef class Game:
    cdef const rc_kernel *k
    cdef int32_t params[8]
    cdef readonly str game_id
    cdef readonly object spec
    cdef dict _options
    cdef readonly object state_class
    cdef bytes _envelope_head
    cdef int _nplayers
    cdef State _new_state(self)
    cdef object _load_fast(self, bytes blob)
    cdef int32_t _tensor_size(self) except -1

cdef class State:
    cdef const rc_kernel *k
    cdef void *s
    cdef readonly Game game
    cdef rc_rng rng
    cdef int32_t *legal
    cdef int legal_n
    cdef int32_t *hist
    cdef int hist_len
    cdef int hist_cap
    cdef bint busy  # a call working on the struct without the GIL (playout) is running

    cdef _bind(self, Game game)
    cdef int _enter_nogil(self) except -1
    cdef void _leave_nogil(self) noexcept
    cdef int _refresh_legal(self) except -1
    cdef int _reserve_history(self, int extra) except -1
    cdef int _push_history(self, int32_t a) except -1
    cdef int _apply_unchecked(self, int32_t a) except -1
    cdef State _copy(self)
    cdef bint _is_legal(self, int32_t a)
    cdef int32_t _coerce_action(self, object action) except? -1
