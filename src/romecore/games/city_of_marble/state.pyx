# cython: language_level=3
from romecore.core.state cimport State
from romecore.games.city_of_marble.kernel cimport *

cdef class CityOfMarbleState(State):
    pass
