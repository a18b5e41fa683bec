"""A small romecore plugin: one agent and one evaluator, registered with pluggy hooks.

``example_agent`` is flat Monte Carlo: it tries every legal action, plays ``playouts``
uniformly random games to the end from each (inside the kernel, in C), and keeps the
action whose games its player won most.  ``example_score_share`` rates a state by each
player's share of the points scored so far.

Installed, romecore finds both through the ``romecore`` entry point in pyproject.toml::

    romecore games --params        # lists example_agent and its parameters
    romecore tournament great_city_of_rome -a example_agent -a random -g 4
"""

from __future__ import annotations

import random
import threading
from typing import Any

import romecore
from romecore.core.evaluator import PyEvaluator
from romecore.spec import AgentSpec, EvaluatorSpec

__all__ = ["ExampleAgent", "score_share", "romecore_agents", "romecore_evaluators"]

#: The games the evaluator is registered for (any game with scores would do).
GAMES = ("great_city_of_rome", "city_of_marble", "rise_to_power", "glory_to_rome")


class ExampleAgent:
    """Flat Monte Carlo over the legal actions, ``playouts`` random games each."""

    def __init__(self, game: Any = None, seed: int | None = None, playouts: int = 4) -> None:
        if playouts < 1:
            raise romecore.AgentSpecError(f"example_agent: playouts must be >= 1, got {playouts}")
        self.spec = f"example_agent:playouts={playouts}"
        self.playouts = playouts
        self._rng = random.Random(seed)
        self._lock = threading.Lock()  # the thread promise: one agent, calls in turn

    def step(self, state: romecore.State) -> int:
        actions = state.legal_actions()
        if not actions:
            raise romecore.IllegalActionError("example_agent: no legal action (the game is over)")
        me = state.current_player()
        with self._lock:
            best, best_value = actions[0], -1.0
            for action in actions:
                after = state.clone()
                after.apply_action(action)
                value = sum(after.clone().playout(self._rng.getrandbits(63))[me]
                            for _ in range(self.playouts))
                if value > best_value:
                    best, best_value = action, value
            return best

    def restart(self) -> None:
        """Nothing is kept between moves."""


def score_share(state: romecore.State) -> list[float]:
    """Each player's share of the points scored so far (equal shares before any)."""
    scores = [max(0.0, float(s)) for s in state.scores()]
    total = sum(scores)
    n = len(scores)
    return [s / total if total else 1.0 / n for s in scores]


def _make_evaluator(game: Any, **params: Any) -> PyEvaluator:
    return PyEvaluator(score_share, game_id=game.game_id, name="example_score_share")


@romecore.hookimpl
def romecore_agents() -> list[AgentSpec]:
    params = {"playouts": (int, 4, "random games played to the end after each legal action")}
    return [AgentSpec("example_agent", ExampleAgent, params,
                      "flat Monte Carlo: the action whose random playouts win most")]


@romecore.hookimpl
def romecore_evaluators() -> list[EvaluatorSpec]:
    return [EvaluatorSpec(game_id, "example_score_share", _make_evaluator,
                          "each player's share of the points scored so far")
            for game_id in GAMES]
