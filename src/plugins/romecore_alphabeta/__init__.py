"""The alpha-beta family for any romecore game, registered through the ``romecore`` entry
point ``alphabeta``: paranoid or best-reply search for any number of players, *-minimax
(Star1/Star2) or sampled chance nodes, iterative deepening, move ordering, a Zobrist
transposition table and PIMC for hidden information.

``romecore.make_agent("alphabeta:time=0.1,algorithm=brs", game=game, seed=1)``.  The
search itself is :class:`romecore_alphabeta.alphabeta.AlphaBetaAgent` (Cython).
"""

from __future__ import annotations

import romecore
from romecore.spec import AgentSpec
from romecore_search import BUDGET_PARAMS, agent_spec

from romecore_alphabeta.alphabeta import AlphaBetaAgent

__all__ = ["AlphaBetaAgent", "PARAMS"]

PARAMS = {
    "nodes": (int, 0, "nodes per move (0: 20000 unless time or depth is given)"),
    **BUDGET_PARAMS,
    "depth": (int, 0, "deepest iteration (0: deepen until the budget is spent, at most 64)"),
    "algorithm": (str, "paranoid", "paranoid, or brs (best-reply search)"),
    "chance": (str, "star2", "chance nodes: star1, star2 (*-minimax) or sample"),
    "chance_samples": (int, 4, "outcomes drawn at a chance node with chance=sample, and at a chance leaf"),
    "evaluator": (str, "default", "evaluator at the horizon (default: the game's first, else playouts)"),
    "ordering": (bool, True, "order moves by the evaluator two or more plies from the horizon"),
    "tt_bits": (int, 18, "transposition table of 2**tt_bits entries (24 bytes each)"),
    "pimc": (int, 1, "hidden information: resampled worlds searched, voting (1: the world handed in)"),
    "max_ply": (int, 256, "deepest ply (default moves of best-reply search use no depth)"),
    "extend": (int, 8, "plies searched past the horizon while the last mover's turn goes on"),
}


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    return [agent_spec("alphabeta", AlphaBetaAgent, PARAMS,
                       "paranoid / best-reply alpha-beta with *-minimax chance nodes, "
                       "iterative deepening, transposition table, PIMC")]
