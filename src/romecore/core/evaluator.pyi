"""Type stubs for romecore.core.evaluator (a Cython module)."""

from collections.abc import Callable, Sequence
from typing import Any

from romecore.core.state import State

class Evaluator:
    game_id: str
    name: str
    @property
    def is_native(self) -> bool: ...
    @property
    def has_policy(self) -> bool: ...
    def policy(self, state: State) -> dict[int, float]: ...
    def __call__(self, state: State) -> list[float]: ...

class PyEvaluator(Evaluator):
    def __init__(self, fn: Callable[[State], Sequence[float]], game_id: str = "", name: str = "python") -> None: ...

def merge_weights(
    defaults: dict[str, float], overrides: dict[str, Any], game: Any, game_id: str
) -> dict[str, float]: ...
def checked_state(state: Any, game_id: str) -> State: ...
