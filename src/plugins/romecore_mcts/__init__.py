"""Monte Carlo tree search (UCT) for any romecore game, registered through the ``romecore``
entry point ``mcts``.

``romecore.make_agent("mcts:simulations=2000,c=0.7", game=game, seed=1)``; parameters:
``simulations``/``time`` (budget per move), ``c``, ``rollout``/``eps``/``cutoff``/
``evaluator`` (rollouts; ``cutoff`` in turns), ``expand``/``bias``/``widen``/``widen_k``
(turn-aware expansion, progressive bias and widening), ``pimc`` (worlds for hidden information; 1 searches the world
handed to ``step``), ``reuse`` (tree reuse), ``max_nodes`` and ``workers`` (root
parallelism).  The search itself is :class:`romecore_mcts.mcts.MCTSAgent` (Cython).
"""

from __future__ import annotations

import romecore
from romecore.spec import AgentSpec
from romecore_mcts.mcts import PARAMS, MCTSAgent
from romecore_search import agent_spec

__all__ = ["MCTSAgent", "PARAMS"]


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    return [agent_spec("mcts", MCTSAgent, PARAMS,
                       "UCT with chance nodes, multi-player rewards, rollouts, PIMC, tree reuse",
                       parallel=True)]
