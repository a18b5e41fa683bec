# cython: language_level=3
from libc.stdint cimport int32_t
from romecore_search.tree cimport TreeAgent


cdef class MCTSAgent(TreeAgent):
    cdef readonly bint reuse
    cdef readonly int32_t reuse_states
    cdef char *tree_state             # the position the kept tree's root stands for
    cdef bint have_tree
