"""Type stubs of romecore.games.city_of_marble.heuristic (Cython)."""
from romecore.core.evaluator import Evaluator
from romecore.core.state import Game, State
from romecore.spec import EvaluatorSpec

GAME_ID: str
WEIGHTS: dict[str, float]
FITTED: dict[str, float]

class CityOfMarbleHeuristic(Evaluator):
    weights: dict[str, float]
    def __init__(self, game: Game | None = ..., **overrides: float) -> None: ...
    def estimates(self, state: State) -> list[float]: ...

class CityOfMarbleFitted(CityOfMarbleHeuristic):
    def __init__(self, game: Game | None = ..., **overrides: float) -> None: ...

def evaluator_specs() -> list[EvaluatorSpec]: ...
