"""Every installed romecore game as a PettingZoo AEC environment.

::

    from romecore.interop.pettingzoo import env

    e = env("great_city_of_rome", players=3)
    e.reset(seed=7)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

- Agents are ``player_0 .. player_{n-1}`` (romecore seats).  Actions are romecore action
  ids: ``Discrete(game.num_distinct_actions())``.
- Chance (shuffles, draws, dice) never reaches the agents: ``reset`` and ``step`` resolve it
  with the environment's dealer RNG, seeded by ``reset(seed=...)``.  ``reset(seed=s)``
  deals exactly as ``romecore.load_game(...).new_initial_state(seed=s)``; an unseeded
  reset draws the deal's seed from the generator of the last seeded one.
- Observations are dicts ``{"observation", "action_mask"}``.  ``observation`` is the game's
  observation tensor for the agent (``state.observation_tensor(seat)``: float32 in [0, 1],
  seat-relative, only what the agent knows; the game's package docstring lists its
  slices).  ``action_mask`` (int8) marks the legal actions of the agent to move (all zeros
  for the others and at the end).  :meth:`RomeAECEnv.observation_dict` gives the same
  knowledge as romecore's readable dict.
- Rewards come at the end: romecore's returns (winners share 1.0), then every agent is
  terminated.  Games always end, so nothing is truncated.
- An action that is not legal raises ``romecore.IllegalActionError`` and changes nothing.
- ``state()`` is the whole position (the kernel struct's bytes), for centralised critics.
- Parallel API: :func:`parallel_env` (PettingZoo's ``turn_based_aec_to_parallel``: every
  live agent hands in an action each step and only the mover's is played).  PettingZoo's
  ``aec_to_parallel`` needs every agent to act exactly once per cycle in a fixed order, the
  game ending only at a cycle's end; no romecore game plays like that (turns of several
  decisions, turn order that changes), so it raises :class:`romecore.UsageError` saying so.
"""

from __future__ import annotations

import operator
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv, ParallelEnv
    from pettingzoo.utils import turn_based_aec_to_parallel, wrappers
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("romecore.interop.pettingzoo needs PettingZoo: "
                      "pip install 'romecore[pettingzoo]'") from e

import romecore

__all__ = ["NOT_PARALLELIZABLE", "RomeAECEnv", "env", "parallel_env", "raw_env"]

#: Why PettingZoo's ``aec_to_parallel`` refuses these environments.
NOT_PARALLELIZABLE = (
    "PettingZoo's aec_to_parallel needs every agent to act exactly once per cycle, in a fixed "
    "order, with the game ending only at a cycle's end; romecore games are turn-based with "
    "turns of several decisions and a turn order that changes, so they cannot be converted "
    "that way: use romecore.interop.pettingzoo.parallel_env (PettingZoo's "
    "turn_based_aec_to_parallel: only the mover's action is played each step)")


class _Metadata(dict):
    """The environment's metadata: ``is_parallelizable`` is False, and the lookup PettingZoo's
    ``aec_to_parallel`` makes (``metadata.get("is_parallelizable", ...)``, then a bare
    ``assert``) raises :class:`romecore.UsageError` with the reason instead."""

    def get(self, key: Any, default: Any = None) -> Any:
        if key == "is_parallelizable" and not self["is_parallelizable"]:
            raise romecore.UsageError(f"{self['name']}: {NOT_PARALLELIZABLE}")
        return super().get(key, default)


class RomeAECEnv(AECEnv):
    """A romecore game as a PettingZoo AEC environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "romecore_v0",
                                "is_parallelizable": False}

    def __init__(self, game_id: str, render_mode: str | None = None, **options: Any):
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise romecore.InvalidArgumentError(f"render_mode must be one of {self.metadata['render_modes']}, "
                             f"got {render_mode!r}")
        self.game = romecore.load_game(game_id, **options)
        self.metadata = _Metadata(self.metadata, name=f"romecore_{game_id}_v0")
        self.render_mode = render_mode
        n, num_actions = self.game.num_players(), self.game.num_distinct_actions()
        tensor_shape = self.game.observation_tensor_shape()  # PluginError for a game without one
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(num_actions) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, tensor_shape, np.float32),
                "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
            })
            for a in self.possible_agents
        }
        self.state_space = spaces.Box(0, 255, (self.game.state_size(),), np.uint8)
        self.agents: list[str] = []
        self._state: romecore.State | None = None
        self._rng: np.random.Generator | None = None

    # -- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # -- the game -------------------------------------------------------------------------
    @property
    def game_state(self) -> romecore.State:
        """The romecore state being played (the live object, not a copy)."""
        if self._state is None:
            raise romecore.UsageError("call reset() first")
        return self._state

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Starts a new game; chance before the first move is resolved here.  ``options``
        are accepted for the PettingZoo signature and ignored."""
        if seed is not None or self._rng is None:
            self._rng, _ = gymnasium.utils.seeding.np_random(seed)
        deal_seed = seed if seed is not None else int(self._rng.integers(0, 1 << 63))
        self._state = self.game.new_initial_state(seed=deal_seed)
        self._state.resolve_chance()
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self._state.current_player()]
        self._skip_agent_selection = None

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.game_state
        try:
            a = operator.index(action)
        except TypeError:
            raise romecore.IllegalActionError(
                f"action {action!r}: an action is an int, not {type(action).__name__}") from None
        state.apply_action(a)  # IllegalActionError leaves everything unchanged
        state.resolve_chance()
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.is_terminal():
            for agent_id, r in zip(self.possible_agents, state.returns()):
                self.rewards[agent_id] = float(r)
                self.terminations[agent_id] = True
            seat = self._seat[agent]
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # -- views ----------------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat[agent]
        state = self.game_state
        if state.current_player() == seat:
            mask = np.frombuffer(state.legal_actions_mask(), np.int8).copy()
        else:
            mask = np.zeros(self.game.num_distinct_actions(), np.int8)
        return {"observation": state.observation_tensor(seat), "action_mask": mask}

    def observation_dict(self, agent: str) -> dict[str, Any]:
        """What ``agent`` knows now, as romecore's readable observation dict."""
        return self.game_state.observation(self._seat[agent])

    def state(self) -> np.ndarray:
        """The whole position (every hidden card included) as the kernel struct's bytes."""
        return np.frombuffer(self.game_state.state_bytes(), np.uint8).copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; "
                                  "pass render_mode='ansi' or 'human'")
            return None
        text = str(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def raw_env(game_id: str, **kwargs: Any) -> RomeAECEnv:
    """The environment without PettingZoo's wrappers."""
    return RomeAECEnv(game_id, **kwargs)


def env(game_id: str, **kwargs: Any) -> AECEnv:
    """The environment in PettingZoo's usual wrappers: actions outside the action space
    and calls out of order are reported as errors."""
    e: AECEnv = RomeAECEnv(game_id, **kwargs)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    return wrappers.OrderEnforcingWrapper(e)


def parallel_env(game_id: str, **kwargs: Any) -> ParallelEnv:
    """The environment through PettingZoo's ``turn_based_aec_to_parallel``: each step takes
    an action from every live agent and plays the mover's (``infos[agent]["active_agent"]``
    names the mover; the others' ``action_mask`` is all zeros)."""
    return turn_based_aec_to_parallel(env(game_id, **kwargs))
