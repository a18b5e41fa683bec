"""Type stubs of romecore.games.city_of_marble.heuristic (Cython)."""
from romecore.core.evaluator import HeuristicEvaluator
from romecore.core.state import Game
from romecore.spec import EvaluatorSpec

GAME_ID: str
WEIGHTS: dict[str, float]
FITTED: dict[str, float]

class CityOfMarbleHeuristic(HeuristicEvaluator):
    def __init__(self, game: Game | None = ..., **overrides: float) -> None: ...

class CityOfMarbleFitted(CityOfMarbleHeuristic):
    def __init__(self, game: Game | None = ..., **overrides: float) -> None: ...

def evaluator_specs() -> list[EvaluatorSpec]: ...
