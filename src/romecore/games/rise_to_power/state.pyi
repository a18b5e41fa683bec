"""Type stubs for romecore.games.rise_to_power.state (a Cython module)."""

from romecore.core.state import State

PHASES: tuple[str, ...]
TRACK_KEYS: tuple[str, ...]
SCORE_CATEGORIES: tuple[str, ...]

def senate_name(c: int) -> str: ...
def province_name(i: int) -> str: ...
def arena_name(c: int) -> str: ...

class RiseToPowerState(State):
