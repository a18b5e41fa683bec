"""Type stubs of romecore_search.core (Cython)."""
from typing import Any, Callable

from romecore.core.evaluator import Evaluator
from romecore.core.state import Game, State

ROLLOUTS: dict[str, int]

def random_seed() -> int: ...
def seed64(seed: int | None) -> int: ...
def resolve_evaluator(game: Game, spec: str | Evaluator | Callable[[State], Any] | None,
                      playouts: int = ...) -> Evaluator | None: ...

class PlayoutEvaluator(Evaluator):
    playouts: int
    def __init__(self, game: Game, playouts: int = ...) -> None: ...

class SearchAgent:
    game: Game
    nplayers: int
    seed: int
    time_limit: float
    evaluator: Evaluator | None
    spec: str | None
    stats: dict[str, Any]
    def _configure(self, game: Game, seed: int | None, limit: int = ..., time: float = ...,
                   evaluator: Any = ..., rollout: str = ..., eps: float = ..., cutoff: int = ...) -> None: ...
    def step(self, state: State) -> int: ...
    def restart(self) -> None: ...
    def reseed(self, seed: int | None) -> None: ...
    @property
    def budget(self) -> tuple[int, float]: ...
