"""Type stubs of romecore.games.glory_to_rome.heuristic (Cython)."""
from romecore.core.evaluator import HeuristicEvaluator
from romecore.core.state import Game, State
from romecore.spec import EvaluatorSpec

GAME_ID: str
WEIGHTS: dict[str, float]
FEATURES: tuple[str, ...]

class GloryToRomeHeuristic(HeuristicEvaluator):
    def __init__(self, game: Game | None = ..., **overrides: float) -> None: ...
    def features(self, state: State) -> list[list[float]]: ...

def evaluator_specs() -> list[EvaluatorSpec]: ...

#: The weight's name before it became ``temperature_left`` (accepted with a DeprecationWarning).
OLD_TEMPERATURE_LEFT: str
