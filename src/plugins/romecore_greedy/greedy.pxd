# cython: language_level=3
from libc.stdint cimport int32_t
from romecore_search.core cimport SearchAgent, rc_stack


cdef class GreedyAgent(SearchAgent):
    cdef readonly int samples         # chance outcomes sampled after a move, averaged
    cdef readonly bint whole_turn     # search the mover's consecutive decisions together
    cdef readonly int max_depth
    cdef rc_stack states              # one position per depth
    cdef int32_t *depth_acts          # one legal-action list per depth
    cdef double *values               # the root actions' values

    cdef double _value(self, int depth, int mover) except? -1.0 nogil
