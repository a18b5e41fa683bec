"""Type stubs of romecore_alphabeta.alphabeta (Cython)."""
from typing import Any

from romecore.core.state import Game
from romecore_search import BUDGET_PARAMS as BUDGET_PARAMS
from romecore_search import PIMC_PARAMS as PIMC_PARAMS
from romecore_search.core import SearchAgent

CHANCE_MODES: dict[str, int]
ALGORITHMS: tuple[str, ...]

PARAMS: dict[str, tuple[type, Any, str]]

class AlphaBetaAgent(SearchAgent):
    brs: bool
    chance_mode: int
    chance_samples: int
    ordering: bool
    max_depth: int
    extend: int
    partial: bool
    pvs: bool
    lmr: int
    reuse: bool
    def __init__(self, game: Game, seed: int | None = ..., **params: Any) -> None: ...
