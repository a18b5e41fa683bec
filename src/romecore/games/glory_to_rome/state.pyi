"""Type stubs for romecore.games.glory_to_rome.state (a Cython module)."""

from romecore.core.state import State

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
    def limits(self, player: int) -> dict[str, int]: ...
    def functions(self, player: int) -> list[str]: ...
    def influence(self, player: int) -> int: ...
    def actions_left(self) -> int: ...
