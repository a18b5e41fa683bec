"""Type stubs for romecore.games.glory_to_rome.state (a Cython module)."""

from typing import Any

from romecore.core.state import State
from romecore.games.glory_to_rome.types import GloryToRomeDict, GloryToRomeObservation

PHASES: tuple[str, ...]
STAGES: tuple[str, ...]
SOURCES: tuple[str, ...]
DRAWS: tuple[str, ...]
RETURNS: tuple[str, ...]
MATERIALS: tuple[str, ...]
ROLES: tuple[str, ...]
FRAME_ROLES: tuple[str, ...]
BUILDINGS: tuple[str, ...]
SCORE_CATEGORIES: tuple[str, ...]

def card_name(c: int) -> str: ...
def card_material(c: int) -> str: ...

class GloryToRomeState(State):
    # A state of this game returns its typed dicts (romecore.games.glory_to_rome.types) and
    # copies of its own class; State's are dict[str, Any], which a TypedDict does not
    # subtype for mypy, hence the ignores.
    def observation(self, player: int) -> GloryToRomeObservation: ...  # type: ignore[override]
    def to_dict(self, history: bool = True) -> GloryToRomeDict: ...  # type: ignore[override]
    def clone(self) -> GloryToRomeState: ...
    def __copy__(self) -> GloryToRomeState: ...
    def __deepcopy__(self, memo: Any) -> GloryToRomeState: ...
    def resample(self, player: int, seed: int | None = None) -> GloryToRomeState: ...
    def limits(self, player: int) -> dict[str, int]: ...
    def functions(self, player: int) -> list[str]: ...
    def influence(self, player: int) -> int: ...
    def actions_left(self) -> int: ...
