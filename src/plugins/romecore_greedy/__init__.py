"""The greedy agent for any romecore game, registered through the ``romecore`` entry point
``greedy``: one move of look-ahead judged by the game's evaluator (chance resolved by
sampling).

``romecore.make_agent("greedy", game=game, seed=1)``; parameters: ``evaluator`` (default:
the game's first registered evaluator, else random playouts), ``samples`` (chance draws
averaged after a move), ``lookahead`` (``turn``: the mover's consecutive decisions are
searched together; ``action``: one decision), ``nodes``/``time`` (budget per move).
"""

from __future__ import annotations

import romecore
from romecore.spec import AgentSpec
from romecore_greedy.greedy import PARAMS, GreedyAgent
from romecore_search import agent_spec

__all__ = ["GreedyAgent", "PARAMS"]


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    return [agent_spec("greedy", GreedyAgent, PARAMS,
                       "one move of look-ahead by the evaluator (chance sampled)")]
