"""The plugin registry: loads every ``romecore`` entry point through pluggy and indexes
the games, agents and evaluators they provide."""

from __future__ import annotations

import importlib.metadata
import threading
import warnings
from typing import Any

import pluggy

from romecore import hookspecs
from romecore.errors import AgentSpecError, PluginError, UnknownGameError
from romecore.spec import AgentSpec, EvaluatorSpec, GameSpec

__all__ = ["Registry", "registry"]


class Registry:
    """Games, agents and evaluators from all installed plugins (loaded on first use)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded = False
        self.pm = pluggy.PluginManager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        self._games: dict[str, GameSpec] = {}
        self._agents: dict[str, AgentSpec] = {}
        self._evaluators: dict[tuple[str, str], EvaluatorSpec] = {}
        #: entry points that failed to load: name -> error message
        self.errors: dict[str, str] = {}

    def register(self, plugin: Any, name: str | None = None) -> None:
        """Adds a plugin object or module by hand (tests, embedding apps)."""
        self._ensure()
        with self._lock:
            self.pm.register(plugin, name=name)
            self._index()

    def _ensure(self) -> None:
        if self._loaded:
            return
        with self._lock:
            if not self._loaded:
                self._load_entry_points()
                self._index()
                self._loaded = True

    def _load_entry_points(self) -> None:
        """Registers every entry point of the group; one that fails to import is
        reported (warning and ``errors``) instead of taking the others down."""
        for ep in importlib.metadata.entry_points(group=hookspecs.PROJECT):
            if self.pm.get_plugin(ep.name) is not None:
                continue
            try:
                plugin = ep.load()
            except Exception as e:  # a broken plugin must not break romecore
                self.errors[ep.name] = f"{type(e).__name__}: {e}"
                warnings.warn(f"romecore plugin {ep.name!r} failed to load: {e}", RuntimeWarning,
                              stacklevel=3)
                continue
            self.pm.register(plugin, name=ep.name)

    def _index(self) -> None:
        games: dict[str, GameSpec] = {}
        agents: dict[str, AgentSpec] = {}
        evaluators: dict[tuple[str, str], EvaluatorSpec] = {}
        for batch in self.pm.hook.romecore_games():
            for spec in batch:
                if spec.game_id in games and games[spec.game_id] is not spec:
                    raise PluginError(f"two plugins register game {spec.game_id!r}")
                games[spec.game_id] = spec
        for batch in self.pm.hook.romecore_agents():
            for spec in batch:
                if spec.name in agents and agents[spec.name] is not spec:
                    raise PluginError(f"two plugins register agent {spec.name!r}")
                agents[spec.name] = spec
        for batch in self.pm.hook.romecore_evaluators():
            for spec in batch:
                evaluators[(spec.game_id, spec.name)] = spec
        self._games, self._agents, self._evaluators = games, agents, evaluators

    # -- lookups ----------------------------------------------------------------------
    def games(self) -> dict[str, GameSpec]:
        self._ensure()
        return dict(sorted(self._games.items()))

    def game(self, game_id: str) -> GameSpec:
        self._ensure()
        try:
            return self._games[game_id]
        except KeyError:
            known = ", ".join(sorted(self._games)) or "none installed"
            raise UnknownGameError(f"no game {game_id!r} (games: {known})") from None

    def agents(self) -> dict[str, AgentSpec]:
        self._ensure()
        return dict(sorted(self._agents.items()))

    def agent(self, name: str) -> AgentSpec:
        self._ensure()
        try:
            return self._agents[name]
        except KeyError:
            known = ", ".join(sorted(self._agents)) or "none installed"
            raise AgentSpecError(f"no agent {name!r} (agents: {known})") from None

    def evaluators(self, game_id: str | None = None) -> list[EvaluatorSpec]:
        self._ensure()
        return [e for (g, _), e in self._evaluators.items() if game_id is None or g == game_id]

    def evaluator(self, game_id: str, name: str | None = None) -> EvaluatorSpec:
        specs = self.evaluators(game_id)
        if not specs:
            raise AgentSpecError(f"no evaluator is registered for game {game_id!r}")
        if name is None or name == "default":
            return specs[0]
        for e in specs:
            if e.name == name:
                return e
        known = ", ".join(e.name for e in specs)
        raise AgentSpecError(f"no evaluator {name!r} for {game_id!r} (evaluators: {known})")


registry = Registry()
