"""Type stubs of romecore_ismcts.ismcts (Cython)."""
from typing import Any

from romecore.core.state import Game
from romecore_search.tree import TreeAgent

class ISMCTSAgent(TreeAgent):
    def __init__(self, game: Game, seed: int | None = ..., simulations: int = ..., time: float = ...,
                 c: float = ..., rollout: str = ..., eps: float = ..., cutoff: int = ...,
                 evaluator: Any = ..., max_nodes: int = ...) -> None: ...
