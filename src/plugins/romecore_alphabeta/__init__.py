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
from romecore_alphabeta.alphabeta import PARAMS, AlphaBetaAgent
from romecore_search import agent_spec

__all__ = ["AlphaBetaAgent", "PARAMS"]


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    return [agent_spec("alphabeta", AlphaBetaAgent, PARAMS,
                       "paranoid / best-reply alpha-beta with *-minimax chance nodes, "
                       "iterative deepening, transposition table, PIMC")]
