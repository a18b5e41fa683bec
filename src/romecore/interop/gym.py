"""A romecore game as a Gymnasium vector environment for one learning agent against a
fixed built-in opponent.

::

    from romecore.interop.gym import RomeVectorEnv

    env = RomeVectorEnv("rise_to_power", num_envs=64, opponent="greedy", players=2)
    obs, info = env.reset(seed=7)
    actions = policy(obs["observation"], obs["action_mask"])   # legal where mask is 1
    obs, reward, terminated, truncated, info = env.step(actions)

- ``num_envs`` games run in one :class:`romecore.batch.Batch`; chance is resolved inside by
  each game's dealer.  ``reset(seed=s)`` deals env i as ``new_initial_state(seed=s + i)``;
  later games of env i follow the batch's documented seeds.
- The learner sits in ``seat`` (an int), or ``seat="rotate"``: env i's k-th game seats it
  at ``(i + k) % players``.  ``info["seat"]`` says where it sits now.
- The other seats are played by ``opponent``, an agent spec (``romecore.make_agent``),
  one agent per seat made afresh for each game, each handed only its own player's
  resampled view (``state.resample(player, seed)``), as tournaments do.
- Observations: ``{"observation": float32 (size,), "action_mask": int8 (num_actions,)}``,
  the learner's observation tensor and its legal actions.  Actions: ``Discrete(num_actions)``.
- Rewards come at the end: the learner's return (winners share 1.0).  Nothing truncates.
  Autoreset is same-step: when env i's game ends, ``terminated[i]`` is set, the returned
  observation is already the next game's, and ``info["final_obs"]``/``info["final_info"]``
  (``"returns"`` of every player, ``"seat"``) hold the finished one.
- A learner's illegal action raises ``romecore.IllegalActionError`` naming the env index,
  and no env changes.
"""

from __future__ import annotations

import operator
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from gymnasium.vector import AutoresetMode, VectorEnv
    from gymnasium.vector.utils import batch_space
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("romecore.interop.gym needs Gymnasium 1.0 or later: "
                      "pip install 'gymnasium>=1.0'") from e

import romecore
from romecore.batch import Batch
from romecore.match import view_seed

__all__ = ["RomeVectorEnv"]

_MASK64 = 0xFFFFFFFFFFFFFFFF


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the opponent agent in ``seat`` for the game dealt with ``game_seed``."""
    return ((game_seed ^ ((seat + 1) * 0xD1B54A32D192ED03)) * 0x9E3779B97F4A7C15 + 1) & _MASK64


class RomeVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` (a game id with its options, or a romecore Game)
    for one learner against ``opponent`` (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str | romecore.Game, num_envs: int = 1, opponent: str = "greedy",
                 seat: int | str = 0, copy: bool = True, **options: Any):
        if isinstance(game, romecore.Game):
            if options:
                raise romecore.InvalidArgumentError("game options go with a game id, not a Game")
            self.game = game
        elif isinstance(game, str):
            self.game = romecore.load_game(game, **options)
        else:
            raise romecore.ArgumentTypeError(f"game must be a game id or a Game, got {type(game).__name__}")
        players = self.game.num_players()
        if seat != "rotate":
            try:
                seat = operator.index(seat)  # type: ignore[arg-type]
            except TypeError:
                raise romecore.ArgumentTypeError(
                    f"seat must be an int or 'rotate', got {type(seat).__name__}") from None
            if not 0 <= seat < players:
                raise romecore.InvalidArgumentError(f"seat {seat} out of range 0..{players - 1}")
        if not isinstance(opponent, str):
            raise romecore.ArgumentTypeError(f"opponent must be an agent spec, got {type(opponent).__name__}")
        romecore.make_agent(opponent, game=self.game, seed=0)  # a bad spec fails here
        self.batch = Batch(self.game, num_envs, seed=0)
        self.num_envs = self.batch.n
        self.opponent = opponent
        self.seat = seat
        self.copy = copy
        size, num_actions = self.batch.observation_tensor_size(), self.game.num_distinct_actions()
        self._num_actions = num_actions
        self.single_observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (num_actions,), np.int8),
        })
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._obs = np.zeros((n, size), np.float32)
        self._mask = np.zeros((n, num_actions), np.int8)
        self._seats = np.zeros(n, np.int32)
        self._games = np.zeros(n, np.int64)           # games finished in each env
        self._agents: list[dict[int, Any]] = [{} for _ in range(n)]
        self._rewards = np.zeros((n, players), np.float32)
        self._done = np.zeros(n, np.bool_)
        self._ready = False

    # -- the learner's seat and the opponents ----------------------------------------------
    def _seat_of(self, i: int) -> int:
        if self.seat == "rotate":
            return int((i + self._games[i]) % self.game.num_players())
        return int(self.seat)

    def _new_game(self, i: int) -> None:
        """Env i has just been dealt a game: seat the learner, drop the old opponents."""
        self._seats[i] = self._seat_of(i)
        self._agents[i] = {}

    def _agent(self, i: int, seat: int, game_seed: int) -> Any:
        agent = self._agents[i].get(seat)
        if agent is None:
            agent = romecore.make_agent(self.opponent, game=self.game, seed=agent_seed(game_seed, seat))
            self._agents[i][seat] = agent
        return agent

    def _play_opponents(self, reward: np.ndarray, terminated: np.ndarray, info: dict[str, Any]) -> None:
        """Lets the opponents move until the learner is to move in every env; games that
        end on an opponent's move are reported as :meth:`_finish` says."""
        batch = self.batch
        actions = np.zeros(self.num_envs, np.int32)
        while True:
            players = batch.current_player()
            waiting = players != self._seats
            if not waiting.any():
                return
            moves, seeds = batch.move_number(), batch.game_seeds()
            for i in map(int, np.flatnonzero(waiting)):
                p = int(players[i])
                view = batch.state(i).resample(p, view_seed(int(seeds[i]), int(moves[i])))
                actions[i] = self._agent(i, p, int(seeds[i])).step(view)
            rewards, done = batch.step(actions, where=waiting, rewards=self._rewards, done=self._done)
            self._finish(rewards, done, reward, terminated, info)

    def _finish(self, rewards: np.ndarray, done: np.ndarray, reward: np.ndarray,
                terminated: np.ndarray, info: dict[str, Any]) -> None:
        """The learner's return and the finished game's view (``final_obs``, ``final_info``)
        of every env whose game ``batch.step`` just ended, which then seats the next."""
        for i in map(int, np.flatnonzero(done)):
            seat = int(self._seats[i])
            reward[i] += rewards[i, seat]
            terminated[i] = True
            final = self.batch.final_state(i)
            assert final is not None  # done[i]: slot i has just finished a game
            obs = {"observation": final.observation_tensor(seat),
                   "action_mask": np.zeros(self._num_actions, np.int8)}
            self._add_info(info, {"final_obs": obs,
                                  "final_info": {"seat": seat, "returns": rewards[i].astype(np.float64)}}, i)
            self._games[i] += 1
            self._new_game(i)

    # -- the Gymnasium API --------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals every env afresh (see the module docstring for the seeds).  ``options``
        is accepted for the Gymnasium signature and ignored."""
        if seed is not None:
            try:
                seed = operator.index(seed)
            except TypeError:
                raise romecore.ArgumentTypeError(f"seed must be an int, got {type(seed).__name__}") from None
            if seed < 0:
                raise romecore.InvalidArgumentError(f"seed must be non-negative, got {seed}")
        super().reset(seed=seed)
        if seed is not None:
            seeds: Any = seed
        else:
            seeds = self.np_random.integers(0, 1 << 63, self.num_envs, dtype=np.int64)
        self.batch.reset(seeds=seeds)
        self._games[:] = 0
        for i in range(self.num_envs):
            self._new_game(i)
        n = self.num_envs
        self._play_opponents(np.zeros(n), np.zeros(n, np.bool_), {})  # no game ends before its first move
        self._ready = True
        return self._observe(), {"seat": self._seats.copy()}

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray,
                                          np.ndarray, dict[str, Any]]:
        if not self._ready:
            raise romecore.UsageError("call reset() before step()")
        n = self.num_envs
        reward = np.zeros(n, np.float64)
        terminated = np.zeros(n, np.bool_)
        info: dict[str, Any] = {}
        # The whole array is checked before any env changes (IllegalActionError names the env).
        rewards, done = self.batch.step(actions, rewards=self._rewards, done=self._done)
        self._finish(rewards, done, reward, terminated, info)
        self._play_opponents(reward, terminated, info)
        info["seat"] = self._seats.copy()
        return self._observe(), reward, terminated, np.zeros(n, np.bool_), info

    def _observe(self) -> dict[str, np.ndarray]:
        self.batch.observation_tensor(player=self._seats, out=self._obs)
        self.batch.legal_mask(out=self._mask)
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def close_extras(self, **kwargs: Any) -> None:
        """Drops the opponents."""
        self._agents = [{} for _ in range(self.num_envs)]
        self._ready = False

    def __repr__(self) -> str:
        return (f"RomeVectorEnv({self.game!r}, num_envs={self.num_envs}, "
                f"opponent={self.opponent!r}, seat={self.seat!r})")

