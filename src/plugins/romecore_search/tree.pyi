"""Type stubs of romecore_search.tree (Cython)."""
from romecore_search.core import SearchAgent

class TreeAgent(SearchAgent):
    c: float
    max_nodes: int
    def _configure_tree(self, c: float, max_nodes: int) -> None: ...
    @property
    def tree_size(self) -> int: ...
