"""Type stubs for romecore.games.rise_to_power.state (a Cython module)."""

from typing import Any

from romecore.core.state import State
from romecore.games.rise_to_power.types import RiseToPowerDict, RiseToPowerObservation

PHASES: tuple[str, ...]
TRACK_KEYS: tuple[str, ...]
SCORE_CATEGORIES: tuple[str, ...]

def senate_name(c: int) -> str: ...
def province_name(i: int) -> str: ...
def arena_name(c: int) -> str: ...

class RiseToPowerState(State):
    # A state of this game returns its typed dicts (romecore.games.rise_to_power.types) and
    # copies of its own class; State's are dict[str, Any], which a TypedDict does not
    # subtype for mypy, hence the ignores.
    def observation(self, player: int) -> RiseToPowerObservation: ...  # type: ignore[override]
    def to_dict(self, history: bool = True) -> RiseToPowerDict: ...  # type: ignore[override]
    def clone(self) -> RiseToPowerState: ...
    def __copy__(self) -> RiseToPowerState: ...
    def __deepcopy__(self, memo: Any) -> RiseToPowerState: ...
    def resample(self, player: int, seed: int | None = None) -> RiseToPowerState: ...

