"""Single-Observer Information Set MCTS (Cowling, Powley and Whitehouse, 2012) for any
romecore game, registered through the ``romecore`` entry point ``ismcts``.

``romecore.make_agent("ismcts:time=0.1", game=game, seed=1)``; parameters as ``mcts``
(``simulations``/``time``, ``c``, ``rollout``/``eps``/``cutoff``/``evaluator``,
``expand``/``bias``/``widen``/``widen_k`` (turn-aware expansion and the progressive
strategies), ``max_nodes``, ``workers``; a game's ``GameSpec.agent_defaults`` and
``agent_defaults_by_players`` may set its own defaults).  Each iteration resamples a world
from the searching player's information state; tree nodes are the player's information
sets, and UCB uses availability counts.  The search itself is :class:`romecore_ismcts.ismcts.ISMCTSAgent`.
"""

from __future__ import annotations

import romecore
from romecore.spec import AgentSpec
from romecore_ismcts.ismcts import PARAMS, ISMCTSAgent
from romecore_search import agent_spec

__all__ = ["ISMCTSAgent", "PARAMS"]


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    return [agent_spec("ismcts", ISMCTSAgent, PARAMS,
                       "information-set MCTS: a fresh world every iteration, availability counts",
                       parallel=True)]
