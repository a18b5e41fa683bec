"""Type stubs for romecore.games.city_of_marble.state (a Cython module)."""

from typing import Any

from romecore.core.state import State
from romecore.games.city_of_marble.types import CityOfMarbleDict, CityOfMarbleObservation

PHASES: tuple[str, ...]
SCORE_CATEGORIES: tuple[str, ...]

class CityOfMarbleState(State):
    # A state of this game returns its typed dicts (romecore.games.city_of_marble.types) and
    # copies of its own class; State's are dict[str, Any], which a TypedDict does not
    # subtype for mypy, hence the ignores.
    def observation(self, player: int) -> CityOfMarbleObservation: ...  # type: ignore[override]
    def to_dict(self, history: bool = True) -> CityOfMarbleDict: ...  # type: ignore[override]
    def clone(self) -> CityOfMarbleState: ...
    def __copy__(self) -> CityOfMarbleState: ...
    def __deepcopy__(self, memo: Any) -> CityOfMarbleState: ...
    def resample(self, player: int, seed: int | None = None) -> CityOfMarbleState: ...

