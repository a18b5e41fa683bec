"""Type stubs of romecore_search.core (Cython)."""
from collections.abc import Callable
from typing import Any

from romecore.core.evaluator import Evaluator
from romecore.core.state import Game, State

ROLLOUTS: dict[str, int]
CLOCKS: dict[str, int]

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
    clock: str
    evaluator: Evaluator | None
    #: Judges greedy rollouts' steps: the evaluator, or a tree search's ``prior`` evaluator.
    rollout_evaluator: Evaluator | None
    spec: str | None
    stats: dict[str, Any]
    worlds: int
    def _configure(self, game: Game, seed: int | None, limit: int, time: float, evaluator: Any,
                   clock: str = ...) -> None: ...
    def _configure_rollouts(self, rollout: str, eps: float, cutoff: int,
                            sample: int = ..., margin: float = ...) -> None: ...
    def _configure_pimc(self, pimc: int) -> None: ...
    def step(self, state: State) -> int: ...
    def restart(self) -> None: ...
    def reseed(self, seed: int | None) -> None: ...
    def stop(self) -> None: ...
    @property
    def budget(self) -> tuple[int, float]: ...
