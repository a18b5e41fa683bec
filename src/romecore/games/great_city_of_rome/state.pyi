"""Type stubs for romecore.games.great_city_of_rome.state (a Cython module)."""

from typing import Any

from romecore.core.state import State
from romecore.games.great_city_of_rome.types import GreatCityDict, GreatCityObservation

PHASES: tuple[str, ...]
SCORE_CATEGORIES: tuple[str, ...]

def card_name(c: int) -> str: ...

class GreatCityState(State):
    # A state of this game returns its typed dicts (romecore.games.great_city_of_rome.types) and
    # copies of its own class; State's are dict[str, Any], which a TypedDict does not
    # subtype for mypy, hence the ignores.
    def observation(self, player: int) -> GreatCityObservation: ...  # type: ignore[override]
    def to_dict(self, history: bool = True) -> GreatCityDict: ...  # type: ignore[override]
    def clone(self) -> GreatCityState: ...
    def __copy__(self) -> GreatCityState: ...
    def __deepcopy__(self, memo: Any) -> GreatCityState: ...
    def resample(self, player: int, seed: int | None = None) -> GreatCityState: ...

