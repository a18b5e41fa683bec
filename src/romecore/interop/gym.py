"""A romecore game as a Gymnasium environment for one learning agent against a fixed
built-in opponent: :class:`RomeEnv` plays one game at a time, :class:`RomeVectorEnv` many
in one C batch.  Importing this module registers ``romecore/<game>-v0`` for every installed
game::

    import gymnasium
    import romecore.interop.gym  # registers the ids (or make "romecore.interop.gym:romecore/<game>-v0")

    env = gymnasium.make("romecore/rise_to_power-v0", players=2, opponent="greedy")
    obs, info = env.reset(seed=7)
    obs, reward, terminated, truncated, info = env.step(int(obs["action_mask"].argmax()))
    envs = gymnasium.make_vec("romecore/rise_to_power-v0", num_envs=64, players=2)  # a RomeVectorEnv

The vector environment::

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

:class:`RomeEnv` is the same table one game at a time, with the same spaces, seats,
opponents (made and handed views by the same code) and rewards.  ``reset(seed=s)`` deals
``new_initial_state(seed=s)`` (the game a tournament plays with seed ``s``); a reset without
a seed deals a seed drawn from the env's ``np_random``.  When the game ends the step returns
``terminated=True``, the final observation (an all-zero mask) and ``info["returns"]``; call
``reset`` for the next game.  ``seat="rotate"`` seats the learner at ``k % players`` in the
k-th game since the last seeded reset.

**The opponent's cost.**  Every step of either environment runs the opponents' moves up to
the learner's next turn, so an opponent's thinking time is most of a step's cost.  Measured
in CPU time (``python bench/gym_env_step.py --games 6``: 2 players, ms per learner step,
the learner playing random legal moves, 6 seeded games a cell)::

    opponent            rise_to_power  great_city_of_rome  city_of_marble  glory_to_rome
    random                       0.02                0.02            0.02           0.02
    greedy (default)             0.05                0.87            5.41           0.04
    level:Beginner               0.19                0.36            0.78           0.04

A search opponent costs its budget per move (``ismcts:simulations=100`` is about a hundred
playouts a move); pick the cheapest opponent that still teaches the learner something.
"""

from __future__ import annotations

import operator
from typing import Any

try:
    import gymnasium
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

__all__ = ["RomeEnv", "RomeVectorEnv", "register_envs"]

DEFAULT_OPPONENT = "greedy"

_MASK64 = 0xFFFFFFFFFFFFFFFF


def agent_seed(game_seed: int, seat: int) -> int:
    """The seed of the opponent agent in ``seat`` for the game dealt with ``game_seed``."""
    return ((game_seed ^ ((seat + 1) * 0xD1B54A32D192ED03)) * 0x9E3779B97F4A7C15 + 1) & _MASK64


def _load(game: str | romecore.Game, options: dict[str, Any]) -> romecore.Game:
    """The game an environment plays: a game id with its options, or a romecore Game."""
    if isinstance(game, romecore.Game):
        if options:
            raise romecore.InvalidArgumentError("game options go with a game id, not a Game")
        return game
    if isinstance(game, str):
        return romecore.load_game(game, **options)
    raise romecore.ArgumentTypeError(f"game must be a game id or a Game, got {type(game).__name__}")


def _checked_seat(seat: int | str, players: int) -> int | str:
    """``seat``, a seat number or ``"rotate"``, checked against the game's players."""
    if seat == "rotate":
        return seat
    try:
        index = operator.index(seat)  # type: ignore[arg-type]
    except TypeError:
        raise romecore.ArgumentTypeError(f"seat must be an int or 'rotate', got {type(seat).__name__}") from None
    if not 0 <= index < players:
        raise romecore.InvalidArgumentError(f"seat {index} out of range 0..{players - 1}")
    return index


def _checked_seed(seed: Any) -> int | None:
    """A reset's seed: None or a non-negative int."""
    if seed is None:
        return None
    try:
        seed = operator.index(seed)
    except TypeError:
        raise romecore.ArgumentTypeError(f"seed must be an int, got {type(seed).__name__}") from None
    if seed < 0:
        raise romecore.InvalidArgumentError(f"seed must be non-negative, got {seed}")
    return seed


def _checked_opponent(spec: Any, game: romecore.Game) -> str:
    """The opponents' agent spec, made once here so that a bad spec fails at construction."""
    if not isinstance(spec, str):
        raise romecore.ArgumentTypeError(f"opponent must be an agent spec, got {type(spec).__name__}")
    romecore.make_agent(spec, game=game, seed=0)
    return spec


def _single_observation_space(game: romecore.Game) -> spaces.Dict:
    """One learner's observation: its tensor (float32 in [0, 1]) and its legal-action mask."""
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (game.observation_tensor_size(),), np.float32),
        "action_mask": spaces.Box(0, 1, (game.num_distinct_actions(),), np.int8),
    })


def _observe(state: romecore.State, seat: int) -> dict[str, np.ndarray]:
    """``seat``'s observation of ``state``: its tensor and, while ``seat`` is to move, its
    legal actions (an all-zero mask otherwise, as at the end of a game)."""
    mask = np.zeros(state.game.num_distinct_actions(), np.int8)
    if state.current_player() == seat:
        mask[:] = np.frombuffer(state.legal_actions_mask(), np.uint8)
    return {"observation": state.observation_tensor(seat), "action_mask": mask}


class _Opponents:
    """The opponent agents of one table for its current game: one per seat, made from the
    ``spec`` on the seat's first move and seeded by :func:`agent_seed`, each handed only its
    own player's view (``state.resample(player, view_seed(game_seed, move))``), as the
    tournament's :func:`romecore.match.play_game` does."""

    def __init__(self, spec: str, game: romecore.Game) -> None:
        self.spec, self.game = spec, game
        self.agents: dict[int, romecore.Agent] = {}

    def new_game(self) -> None:
        self.agents = {}

    def step(self, state: romecore.State, game_seed: int, move: int) -> int:
        """The action of the player to move in ``state``, at move number ``move`` of the game
        dealt with ``game_seed``."""
        player = state.current_player()
        agent = self.agents.get(player)
        if agent is None:
            agent = romecore.make_agent(self.spec, game=self.game, seed=agent_seed(game_seed, player))
            self.agents[player] = agent
        return agent.step(state.resample(player, view_seed(game_seed, move)))


class RomeVectorEnv(VectorEnv):
    """``num_envs`` games of ``game`` (a game id with its options, or a romecore Game)
    for one learner against ``opponent`` (see the module docstring)."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str | romecore.Game, num_envs: int = 1, opponent: str = DEFAULT_OPPONENT,
                 seat: int | str = 0, copy: bool = True, **options: Any):
        self.game = _load(game, options)
        players = self.game.num_players()
        self.seat = _checked_seat(seat, players)
        self.opponent = _checked_opponent(opponent, self.game)
        self.batch = Batch(self.game, num_envs, seed=0)
        self.num_envs = self.batch.n
        self.copy = copy
        self._num_actions = self.game.num_distinct_actions()
        self.single_observation_space = _single_observation_space(self.game)
        self.single_action_space = spaces.Discrete(self._num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        n = self.num_envs
        self._obs = np.zeros((n, self.game.observation_tensor_size()), np.float32)
        self._mask = np.zeros((n, self._num_actions), np.int8)
        self._seats = np.zeros(n, np.int32)
        self._games = np.zeros(n, np.int64)           # games finished in each env
        self._opponents = [_Opponents(self.opponent, self.game) for _ in range(n)]
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
        self._opponents[i].new_game()

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
                actions[i] = self._opponents[i].step(batch.state(i), int(seeds[i]), int(moves[i]))
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
            self._add_info(info, {"final_obs": _observe(final, seat),
                                  "final_info": {"seat": seat, "returns": rewards[i].astype(np.float64)}}, i)
            self._games[i] += 1
            self._new_game(i)

    # -- the Gymnasium API --------------------------------------------------------------
    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals every env afresh (see the module docstring for the seeds).  ``options``
        is accepted for the Gymnasium signature and ignored."""
        seed = _checked_seed(seed)
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
        for opponents in self._opponents:
            opponents.new_game()
        self._ready = False

    def __repr__(self) -> str:
        return (f"RomeVectorEnv({self.game!r}, num_envs={self.num_envs}, "
                f"opponent={self.opponent!r}, seat={self.seat!r})")



class RomeEnv(gymnasium.Env[dict[str, Any], np.int64]):
    """One game of ``game`` (a game id with its options, or a romecore Game) at a time, for
    one learner against ``opponent``: :class:`RomeVectorEnv`'s table with one env (see the
    module docstring).  ``render_mode="ansi"``: ``render()`` is the learner's text view."""

    # render_fps: Gymnasium's checker asks for one; a text view has no frame rate to keep.
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(self, game: str | romecore.Game, opponent: str = DEFAULT_OPPONENT, seat: int | str = 0,
                 render_mode: str | None = None, **options: Any):
        self.game = _load(game, options)
        self.seat = _checked_seat(seat, self.game.num_players())
        self.opponent = _checked_opponent(opponent, self.game)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise romecore.InvalidArgumentError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = _single_observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self._opponents = _Opponents(self.opponent, self.game)
        self._state: romecore.State | None = None
        self._game_seed = 0
        self._games = -1                              # games dealt since the last seeded reset
        self._seat = 0

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deals a game: ``new_initial_state(seed)``, or a seed drawn from ``np_random``.
        ``options`` is accepted for the Gymnasium signature and ignored."""
        seed = _checked_seed(seed)
        super().reset(seed=seed)
        if seed is None:
            seed = int(self.np_random.integers(0, 1 << 63))
            self._games += 1
        else:
            self._games = 0
        players = self.game.num_players()
        self._seat = self._games % players if self.seat == "rotate" else int(self.seat)
        self._game_seed = seed
        self._state = self.game.new_initial_state(seed=seed)
        self._opponents.new_game()
        self._play_opponents()  # no game ends before its first move
        return _observe(self._state, self._seat), {"seat": self._seat}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        """Plays the learner's ``action`` (an illegal one raises ``IllegalActionError`` and
        changes nothing), then the opponents up to the learner's next turn or the end."""
        state = self._state
        if state is None:
            raise romecore.UsageError("call reset() before step()")
        if state.is_terminal():
            raise romecore.UsageError("the game is over: call reset() for the next one")
        state.apply_action(action)
        self._play_opponents()
        info: dict[str, Any] = {"seat": self._seat}
        reward = 0.0
        terminated = state.is_terminal()
        if terminated:
            info["returns"] = state.returns()
            reward = float(info["returns"][self._seat])
        return _observe(state, self._seat), reward, terminated, False, info

    def _play_opponents(self) -> None:
        """Resolves chance (by the game's dealer) and plays the opponents until the learner
        is to move or the game is over."""
        state = self._state
        assert state is not None
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance()
            elif state.current_player() == self._seat:
                return
            else:
                state.apply_action(self._opponents.step(state, self._game_seed, state.move_number()))

    @property
    def state(self) -> romecore.State | None:
        """The game being played (the whole truth: for inspection, not for the learner)."""
        return self._state

    def render(self) -> str | None:
        """The learner's view as text (``render_mode="ansi"``), else None."""
        if self.render_mode != "ansi" or self._state is None:
            return None
        return self._state.render(self._seat)

    def close(self) -> None:
        """Drops the opponents and the game."""
        self._opponents.new_game()
        self._state = None

    def __repr__(self) -> str:
        return f"RomeEnv({self.game!r}, opponent={self.opponent!r}, seat={self.seat!r})"


def register_envs() -> None:
    """Registers ``romecore/<game>-v0`` with Gymnasium for every installed game:
    ``gymnasium.make`` builds a :class:`RomeEnv`, ``gymnasium.make_vec`` a
    :class:`RomeVectorEnv`; keyword arguments go to them (``opponent``, ``seat``, the game's
    options).  Called on import; calling it again registers only games installed since."""
    for game_id in romecore.list_games():
        env_id = f"romecore/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point=f"{__name__}:RomeEnv",
                               vector_entry_point=f"{__name__}:RomeVectorEnv", kwargs={"game": game_id})


register_envs()
