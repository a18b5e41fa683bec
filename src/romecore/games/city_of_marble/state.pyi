"""Type stubs for romecore.games.city_of_marble.state (a Cython module)."""

from romecore.core.state import State

PHASES: tuple[str, ...]
SCORE_CATEGORIES: tuple[str, ...]

class CityOfMarbleState(State): ...
