"""The hooks a romecore plugin implements.

A plugin is any module listed under the entry-point group ``romecore``; romecore loads it
with pluggy and calls whichever of these hooks it implements.  The built-in games and
agents register themselves exactly this way.  Mark implementations with
:data:`romecore.hookimpl`.
"""

from __future__ import annotations

import pluggy

from romecore.spec import AgentSpec, EvaluatorSpec, GameSpec

PROJECT = "romecore"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


@hookspec
def romecore_games() -> list[GameSpec]:
    """The games this plugin provides.

    Each :class:`~romecore.spec.GameSpec` carries the kernel capsule, the state class and
    the option schema.  Game ids must be unique across all installed plugins; a clash is
    reported when the registry loads.
    """
    raise NotImplementedError  # a specification: plugins implement it


@hookspec
def romecore_agents() -> list[AgentSpec]:
    """The agents (search algorithms, scripted players) this plugin provides.

    ``romecore.make_agent("name:key=value,...", game=..., seed=...)`` finds the spec by
    name, converts the parameters and calls its factory.
    """
    raise NotImplementedError


@hookspec
def romecore_evaluators() -> list[EvaluatorSpec]:
    """State evaluators, each for one game: a state in, one value per player out.

    Search agents take them by name (``evaluator=...``); the first registered for a game
    is its default.
    """
    raise NotImplementedError
