"""Type stubs for romecore.games.great_city_of_rome.state (a Cython module)."""

from romecore.core.state import State

PHASES: tuple[str, ...]
SCORE_CATEGORIES: tuple[str, ...]

def card_name(c: int) -> str: ...

class GreatCityState(State): ...
