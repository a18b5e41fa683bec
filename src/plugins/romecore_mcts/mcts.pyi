"""Type stubs of romecore_mcts.mcts (Cython)."""
from typing import Any

from romecore.core.state import Game
from romecore_search.tree import TreeAgent

class MCTSAgent(TreeAgent):
    worlds: int
    reuse: bool
    reuse_states: int
    def __init__(self, game: Game, seed: int | None = ..., simulations: int = ..., time: float = ...,
                 c: float = ..., rollout: str = ..., eps: float = ..., cutoff: int = ...,
                 evaluator: Any = ..., pimc: int = ..., determinize: int = ..., reuse: bool = ...,
                 reuse_states: int = ..., max_nodes: int = ...) -> None: ...
