"""Type stubs of romecore_alphabeta.alphabeta (Cython)."""
from typing import Any

from romecore.core.state import Game
from romecore_search.core import SearchAgent

CHANCE_MODES: dict[str, int]
ALGORITHMS: tuple[str, ...]

class AlphaBetaAgent(SearchAgent):
    brs: bool
    chance_mode: int
    chance_samples: int
    ordering: bool
    max_depth: int
    worlds: int
    extend: int
    def __init__(self, game: Game, seed: int | None = ..., nodes: int = ..., time: float = ...,
                 depth: int = ..., algorithm: str = ..., chance: str = ..., chance_samples: int = ...,
                 evaluator: Any = ..., ordering: bool = ..., tt_bits: int = ..., pimc: int = ...,
                 max_ply: int = ..., extend: int = ...) -> None: ...
