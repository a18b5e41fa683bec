"""Shared search machinery for romecore's built-in search plugins.

* :mod:`romecore_search.core` (Cython): :class:`SearchAgent`, the base of every C-level
  agent (budgets, per-move RNG, rollouts, evaluator calls), the node and state arenas,
  UCB, and :class:`PlayoutEvaluator`, the evaluator any game can use.
* :mod:`romecore_search.tree` (Cython): :class:`TreeAgent`, the tree-search loop, UCB
  selection, backpropagation and tree reuse that MCTS and ISMCTS share.
* :mod:`romecore_search.parallel`: root parallelism over worker processes.

This module adds what the plugins' ``romecore_agents`` hooks share: the parameter tables
(each agent's table, built from these, is the one place its defaults live: the agent classes
take their values from it through :func:`romecore.spec.param_values`) and
:func:`agent_spec`, which wraps an agent class into an :class:`AgentSpec` (with
``workers=K`` turning into root parallelism where the agent supports it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from romecore.core.seeds import seed64
from romecore.errors import AgentSpecError
from romecore.spec import AgentSpec, ParamTable

__all__ = ["BUDGET_PARAMS", "ROLLOUT_PARAMS", "TREE_PARAMS", "PIMC_PARAMS", "WORKERS_PARAMS",
           "agent_spec"]

#: Budget per move: whichever of the given limits comes first.
BUDGET_PARAMS: ParamTable = {
    "time": (float, 0.0, "seconds per move (0: no time limit)"),
    "clock": (str, "wall", "what time measures: wall (elapsed seconds) or cpu (the searching "
                           "thread's CPU seconds: a fair budget on a loaded machine)"),
}

ROLLOUT_PARAMS: ParamTable = {
    "rollout": (str, "random", "rollout policy: random, or greedy (epsilon-greedy by the evaluator)"),
    "eps": (float, 0.1, "exploration rate of greedy rollouts"),
    "sample": (int, 0, "greedy rollout steps judge at most this many legal actions, drawn at "
                       "random (0: all of them)"),
    "cutoff": (int, 0, "rollout turns before the evaluator stands in for the rest (0: play out); "
                       "it judges only where a turn ends"),
    "margin": (float, 0.0, "weight of a bonus for the winning margin in a finished game's reward "
                           "(Pepels et al. 2014): 0.5 + 0.5 tanh(lead / rms lead of this move's "
                           "playouts), blended with the win (0: the win alone)"),
    "evaluator": (str, "auto", "evaluator name: default, playout, playout<N>, none, or a "
                               "registered name (auto: default when cutoff or greedy rollouts "
                               "need one, else none)"),
}

TREE_PARAMS: ParamTable = {
    "simulations": (int, 0, "iterations per move (0: 1000 unless time is given)"),
    **BUDGET_PARAMS,
    "c": (float, 0.7, "UCB exploration constant (rewards lie in [0, 1])"),
    **ROLLOUT_PARAMS,
    "expand": (str, "turn", "turn: an iteration expands the mover's consecutive decisions to the "
                            "end of the turn; node: one new node per iteration"),
    "bias": (float, 0.0, "progressive bias: UCB plus bias * prior / (visits + 1), the prior being "
                         "the evaluator's value one decision on; with priors on (bias or widen > "
                         "0) the best-prior untried action is expanded first (0: off)"),
    "widen": (float, 0.0, "progressive widening: a node visited n times offers its "
                          "ceil(widen_k * (n + 1) ** widen) best-prior children (0: off)"),
    "widen_k": (float, 2.0, "progressive widening: children offered at the first visit"),
    "prior_visits": (float, 0.0, "a child's prior counts as this many visits of that value (Gelly "
                                 "and Silver 2007), so an unvisited child competes in UCB by its "
                                 "prior instead of being tried before any is revisited; turns "
                                 "priors on, and widening off (0: off)"),
    "imm": (float, 0.0, "implicit minimax backups within a turn (Lanctot et al. 2014): a child's "
                        "prior becomes the best prior where the mover's turn ends below it, and "
                        "its score mixes that value into the mean at this weight; turns priors "
                        "on (0: off)"),
    "imm_reply": (bool, False, "with imm and two players, settle across turns too: an edge the "
                               "opponent answers takes 1 - the opponent's best settled reply "
                               "(full implicit minimax; more players: within turns only)"),
    "mix": (float, 0.0, "mixed leaf evaluation (Silver et al. 2016): an iteration's reward is the "
                        "rollout's at weight 1 - mix plus the evaluator's value of the leaf it "
                        "started from at weight mix (0: off)"),
    "prior": (str, "same", "evaluator of the priors (bias, widen, prior_visits, imm) and of greedy "
                           "rollouts' steps: same (the evaluator's), or a name as for evaluator; a "
                           "costly leaf evaluator (a learned net at mix or cutoff) can leave those, "
                           "one evaluation per child, to a cheap one"),
    "policy": (str, "none", "an evaluator that judges moves (a learned net with a policy head) whose "
                            "move probabilities, relative to the likeliest, are the priors of bias and "
                            "widen in place of prior's one-step values: one pass per expanded node for "
                            "all its children (none: off)"),
    "max_nodes": (int, 1_000_000, "cap on tree nodes (32 bytes each); search goes on without growing"),
}

#: Determinized search over resampled worlds (mcts, alphabeta).
PIMC_PARAMS: ParamTable = {
    "pimc": (int, 1, "hidden information: resampled worlds searched, voting (1: the world handed in)"),
}

#: Added to the table of an agent registered with ``parallel=True``; the factory takes it.
WORKERS_PARAMS: ParamTable = {
    "workers": (int, 1, "root parallelism: processes searching each move"),
}


def agent_spec(name: str, cls: Callable[..., Any], params: ParamTable, description: str,
               parallel: bool = False) -> AgentSpec:
    """An :class:`AgentSpec` whose factory builds ``cls(game, seed, **params)``; with
    ``parallel`` the spec also takes ``workers`` (root parallelism when above 1)."""

    def factory(game: Any, seed: int | None, **values: Any) -> Any:
        s = seed64(seed)
        workers = values.pop("workers", 1) if parallel else 1
        if workers < 1:
            raise AgentSpecError(f"{name}: workers={workers} must be at least 1")
        if workers > 1:
            from romecore_search.parallel import RootParallelAgent

            return RootParallelAgent(name, game, s, workers, dict(values, workers=1))
        return cls(game, s, **values)

    return AgentSpec(name, factory, {**params, **(WORKERS_PARAMS if parallel else {})}, description)
