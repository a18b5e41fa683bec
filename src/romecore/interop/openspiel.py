"""Every installed romecore game as an OpenSpiel (``pyspiel``) Python game.

Importing this module registers each game of ``romecore.list_games()`` with OpenSpiel as
``romecore_<game_id>``; :func:`register` picks up games installed later::

    import pyspiel
    import romecore.interop.openspiel as ros

    game = pyspiel.load_game("romecore_great_city_of_rome", {"players": 3})
    game = ros.load_game("great_city_of_rome", players=3)          # the same
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)

How romecore maps onto OpenSpiel:

- Game type: sequential, explicit stochastic (romecore chance events are listed outcomes
  with probabilities), imperfect information unless the game's spec says otherwise,
  constant-sum with sum 1 (winners share 1.0, as romecore's ``returns``), terminal
  rewards.  Parameters: ``players`` and every game option whose default is an int, float,
  bool or str.
- Game info: romecore's action count and length bound.  ``max_chance_outcomes`` is the
  action count too: romecore chance outcomes are action ids anywhere in
  ``0..num_distinct_actions-1``, and OpenSpiel sizes chance-node action masks by
  ``max_chance_outcomes``.
- State: a thin wrapper whose only Python attribute is the romecore state (``_rc``).
  OpenSpiel's clone deep-copies that attribute (a struct ``memcpy``), and its
  serialization pickles it, which is romecore's msgpack snapshot (history included).
- Observation and information-state strings are both romecore's
  ``information_state_string(player)``, and both tensors are the kernel's
  ``observation_tensor(player)`` (float32 in [0, 1], seat-relative; the game's package
  docstring lists its slices): the kernels keep in their structs everything a player
  recalls, so the observation already has perfect recall.  The Python observer
  (``make_py_observer``, :class:`RomeObserver`) serves them to ``observation_tensor``,
  ``information_state_tensor``, ``open_spiel.python.observation`` and
  ``rl_environment.Environment``.  A game whose kernel has no tensor provides strings only.
- ``resample_from_infostate(player, sampler)`` is romecore's ``resample``, seeded from
  ``sampler()``.  OpenSpiel's C++ bridge for Python games does not forward
  ``ResampleFromInfostate``, so only Python callers (such as
  ``open_spiel.python.algorithms.ismcts``) reach it; the C++ ``ISMCTSBot`` cannot.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterable
from typing import Any

try:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts as _os_mcts
except ImportError as e:  # pragma: no cover - exercised only without the extra
    raise ImportError("romecore.interop.openspiel needs OpenSpiel: "
                      "pip install 'romecore[openspiel]'") from e

import romecore

__all__ = [
    "PREFIX",
    "PlayoutEvaluator",
    "RomeGame",
    "RomeObserver",
    "RomeState",
    "load_game",
    "register",
    "romecore_state",
    "short_name",
    "wrap",
]

PREFIX = "romecore_"

_PARAM_TYPES = (bool, int, float, str)
_registered: dict[str, str] = {}  # romecore game id -> OpenSpiel short name


def short_name(game_id: str) -> str:
    """The OpenSpiel name of a romecore game: ``romecore_<game_id>``."""
    return PREFIX + game_id


def _has_tensor(rc: romecore.Game) -> bool:
    """Whether the game's kernel writes an observation tensor."""
    try:
        rc.observation_tensor_shape()
    except romecore.PluginError:
        return False
    return True


def _game_type(rc: romecore.Game) -> pyspiel.GameType:
    spec = rc.spec
    tensor = _has_tensor(rc)
    params: dict[str, Any] = {"players": spec.default_players}
    for opt in spec.options:
        if isinstance(opt.default, _PARAM_TYPES):
            params[opt.name] = opt.default
    info = pyspiel.GameType.Information
    return pyspiel.GameType(
        short_name=short_name(spec.game_id),
        long_name=f"romecore {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(info.PERFECT_INFORMATION if spec.perfect_information
                     else info.IMPERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=tensor,
        provides_observation_string=True,
        provides_observation_tensor=tensor,
        parameter_specification=params,
    )


def register(game_ids: Iterable[str] | None = None) -> list[str]:
    """Registers romecore games with OpenSpiel (all installed ones by default) and
    returns their OpenSpiel names.  Registering a game twice is a no-op."""
    ids = romecore.list_games() if game_ids is None else list(game_ids)
    known = set(pyspiel.registered_names())
    names = []
    for gid in ids:
        if gid not in _registered:
            name = short_name(gid)
            if name not in known:  # else: registered earlier in this process
                pyspiel.register_game(_game_type(romecore.load_game(gid)), _game_class(gid))
            _registered[gid] = name
        names.append(_registered[gid])
    return names


def load_game(game_id: str, **options: Any) -> RomeGame:
    """The OpenSpiel game for romecore game ``game_id`` with romecore options."""
    register([game_id])
    return pyspiel.load_game(short_name(game_id), options)


def _game_class(game_id: str) -> type[RomeGame]:
    """The OpenSpiel game class of one romecore game.

    OpenSpiel keeps the class it is given in a C++ registry that outlives the
    interpreter; a class (unlike a ``functools.partial``) is never freed during
    interpreter shutdown, which would abort the process at exit.
    """
    return type(f"RomeGame_{game_id}", (RomeGame,),
                {"game_id": game_id, "__module__": __name__,
                 "__doc__": f"The OpenSpiel game {short_name(game_id)!r}."})


class RomeGame(pyspiel.Game):
    """An OpenSpiel game over one romecore game with fixed options (one subclass per
    romecore game, made by :func:`register`, sets ``game_id``)."""

    game_id: str = ""

    def __init__(self, params: dict[str, Any] | None = None):
        if not self.game_id:
            raise romecore.ArgumentTypeError("use pyspiel.load_game or romecore.interop.openspiel.load_game")
        params = dict(params or {})
        rc = romecore.load_game(self.game_id, **params)
        n_actions = rc.num_distinct_actions()
        info = pyspiel.GameInfo(
            num_distinct_actions=n_actions,
            max_chance_outcomes=n_actions,
            num_players=rc.num_players(),
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=rc.max_game_length(),
        )
        spiel_params = {k: v for k, v in rc.options.items() if isinstance(v, _PARAM_TYPES)}
        super().__init__(_game_type(rc), info, spiel_params)
        self.romecore_game = rc

    def new_initial_state(self, start: Any = None) -> RomeState:
        """The state before set-up; ``start`` may instead be a romecore ``to_dict`` form
        (a dict or its JSON text) to start from that position."""
        if start is None:
            return RomeState(self)
        if isinstance(start, str):
            try:
                start = json.loads(start)
            except ValueError:
                raise romecore.SerializationError("start position is not JSON") from None
        return RomeState(self, self.romecore_game.state_from_dict(start))

    def max_chance_nodes_in_history(self) -> int:
        return self.romecore_game.max_game_length()

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> RomeObserver:
        return RomeObserver(iig_obs_type, params, self.romecore_game)


class RomeState(pyspiel.State):
    """An OpenSpiel state over a romecore state (``romecore_state(s)`` returns it)."""

    def __init__(self, game: RomeGame, rc_state: romecore.State | None = None):
        super().__init__(game)
        self._rc = rc_state if rc_state is not None else game.romecore_game.new_initial_state(seed=0)

    def current_player(self) -> int:
        p = self._rc.current_player()
        if p >= 0:
            return p
        if p == romecore.CHANCE:
            return pyspiel.PlayerId.CHANCE
        return pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        return self._rc.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._rc.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._rc.apply_action(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._rc.action_to_string(action)

    def is_terminal(self) -> bool:
        return self._rc.is_terminal()

    def returns(self) -> list[float]:
        return self._rc.returns()

    def rewards(self) -> list[float]:
        return self._rc.returns()  # all 0.0 before the end: everything is paid at the end

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> RomeState:
        """A state ``player_id`` cannot tell from this one (romecore's ``resample``).

        ``probability_sampler`` (a callable returning floats in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler``) seeds the draw; an int is used as the seed.
        The new state's history starts at this position (romecore hides the past deals).
        """
        if callable(probability_sampler):
            seed = int(probability_sampler() * (1 << 53))
        else:
            seed = probability_sampler
        return RomeState(self.get_game(), self._rc.resample(player_id, seed))

    def _to_struct(self) -> dict[str, Any]:
        return self._rc.to_dict()

    def _to_observation_struct(self, player: int) -> dict[str, Any]:
        return self._rc.observation(player)

    def __str__(self) -> str:
        return str(self._rc)


class RomeObserver:
    """OpenSpiel's Python observer interface over the kernel's observation tensor.

    Serves a single player's view (public information included), with or without
    perfect recall: for romecore these are the same string and the same tensor, since the
    kernel's struct keeps every fact a player recalls.  ``tensor`` is the flat float32
    vector (``dict`` holds it as ``"observation"``), refilled in place by ``set_from``;
    it is None for a game whose kernel has no tensor.  Public-only and all-players views
    are not provided: romecore observations are per player.
    """

    def __init__(self, iig_obs_type: Any = None, params: Any = None,
                 game: romecore.Game | None = None):
        if params:
            raise romecore.InvalidArgumentError(f"romecore observers take no parameters, got {params!r}")
        if iig_obs_type is not None and (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise romecore.InvalidArgumentError("romecore games provide a single player's full view only "
                             "(public_info=True, private_info=SINGLE_PLAYER)")
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, Any] = {}
        if game is not None and _has_tensor(game):
            self.tensor = np.zeros(game.observation_tensor_shape(), np.float32)
            self.dict["observation"] = self.tensor

    def set_from(self, state: RomeState, player: int) -> None:
        """Fills ``tensor`` with what ``player`` knows at ``state`` (nothing without one)."""
        if self.tensor is not None:
            romecore_state(state).observation_tensor(player, out=self.tensor)

    def string_from(self, state: RomeState, player: int) -> str:
        return romecore_state(state).information_state_string(player)


def romecore_state(state: pyspiel.State) -> romecore.State:
    """The romecore state inside an OpenSpiel state made by this adapter (not a copy)."""
    try:
        return state._rc
    except AttributeError:
        raise romecore.ArgumentTypeError(f"not a romecore OpenSpiel state: {state!r}") from None


def wrap(rc_state: romecore.State) -> RomeState:
    """An OpenSpiel state over a copy of a romecore state (its OpenSpiel history starts
    here)."""
    game = load_game(rc_state.game.game_id, **rc_state.game.options)
    return RomeState(game, rc_state.clone())


class PlayoutEvaluator(_os_mcts.Evaluator):
    """An evaluator for OpenSpiel's Python MCTS and ISMCTS that runs romecore's random
    playouts inside C (``State.playout``) instead of stepping through Python.

    It estimates the same thing as ``mcts.RandomRolloutEvaluator``: the mean returns of
    uniformly random play, chance by its probabilities.
    """

    def __init__(self, n_rollouts: int = 1, random_state: np.random.RandomState | None = None):
        if n_rollouts < 1:
            raise romecore.InvalidArgumentError("n_rollouts must be at least 1")
        self.n_rollouts = n_rollouts
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state: pyspiel.State) -> np.ndarray:
        rc = romecore_state(state)
        total = np.zeros(rc.num_players())
        for _ in range(self.n_rollouts):
            seed = int(self._random_state.randint(0, 1 << 62, dtype=np.int64))
            total += rc.clone().playout(seed)
        return total / self.n_rollouts

    def prior(self, state: pyspiel.State) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


def _register_installed() -> None:
    for gid in romecore.list_games():
        try:
            register([gid])
        except Exception as e:  # one broken game must not hide the others
            warnings.warn(f"romecore game {gid!r} could not be registered with OpenSpiel: {e}",
                          RuntimeWarning, stacklevel=2)


_register_installed()
