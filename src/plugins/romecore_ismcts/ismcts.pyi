"""Type stubs of romecore_ismcts.ismcts (Cython)."""
from typing import Any

from romecore.core.state import Game
from romecore_search import TREE_PARAMS as TREE_PARAMS
from romecore_search.tree import TreeAgent

PARAMS: dict[str, tuple[type, Any, str]]

class ISMCTSAgent(TreeAgent):
    reuse: bool
    def __init__(self, game: Game, seed: int | None = ..., **params: Any) -> None: ...
