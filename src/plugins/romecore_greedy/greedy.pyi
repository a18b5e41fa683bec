"""Type stubs of romecore_greedy.greedy (Cython)."""
from typing import Any

from romecore.core.state import Game
from romecore_search import BUDGET_PARAMS as BUDGET_PARAMS
from romecore_search.core import SearchAgent

PARAMS: dict[str, tuple[type, Any, str]]

class GreedyAgent(SearchAgent):
    samples: int
    whole_turn: bool
    max_depth: int
    def __init__(self, game: Game, seed: int | None = ..., **params: Any) -> None: ...
