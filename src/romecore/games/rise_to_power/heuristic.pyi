"""Type stubs of romecore.games.rise_to_power.heuristic (Cython)."""
from romecore.core.evaluator import HeuristicEvaluator
from romecore.core.state import Game
from romecore.spec import EvaluatorSpec

GAME_ID: str
WEIGHTS: dict[str, float]

class RiseToPowerHeuristic(HeuristicEvaluator):
    def __init__(self, game: Game | None = ..., **overrides: float) -> None: ...

def evaluator_specs() -> list[EvaluatorSpec]: ...

#: The weight's name before it became ``temperature_left`` (accepted with a DeprecationWarning).
OLD_TEMPERATURE_LEFT: str
