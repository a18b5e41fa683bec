"""Type stubs for romecore.core.evaluator (a Cython module)."""

from typing import Callable, Sequence

from romecore.core.state import State

class Evaluator:
    game_id: str
    name: str
    @property
    def is_native(self) -> bool: ...
    def __call__(self, state: State) -> list[float]: ...

class PyEvaluator(Evaluator):
    def __init__(self, fn: Callable[[State], Sequence[float]], game_id: str = "", name: str = "python") -> None: ...
