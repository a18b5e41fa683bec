"""Type stubs of romecore_search.tree (Cython)."""
from typing import Any

from romecore.core.evaluator import Evaluator
from romecore.core.state import Game
from romecore_search.core import SearchAgent

class TreeAgent(SearchAgent):
    c: float
    max_nodes: int
    turn_walk: bool
    bias: float
    widen: float
    widen_k: float
    prior_visits: float
    imm: float
    imm_reply: bool
    mix: float
    prior_evaluator: Evaluator | None
    policy_evaluator: Evaluator | None
    def _configure_tree(self, game: Game, seed: int | None, p: dict[str, Any]) -> None: ...
    @property
    def tree_size(self) -> int: ...
