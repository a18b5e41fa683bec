"""romecore.interop.gym: each env's games equal the same game played by
``romecore.match.play_game`` (the tournament's loop: its views, its seeds) with the
learner's actions replayed, the Gymnasium checks (``check_env`` for the single-agent
:class:`RomeEnv`, those that apply to a vector env), and the registered ids."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")
from gymnasium.utils import env_checker  # noqa: E402

import romecore  # noqa: E402
from romecore.interop.gym import RomeEnv, RomeVectorEnv, agent_seed  # noqa: E402
from romecore.match import play_game  # noqa: E402

GOLDEN = 0x9E3779B97F4A7C15  # the batch's documented seed step between a slot's games


def has_tensor(gid):
    try:
        romecore.load_game(gid, players=2).observation_tensor_shape()
    except romecore.PluginError:
        return False
    return True


TENSOR_GAMES = [g for g in romecore.list_games() if has_tensor(g)]
needs_tensors = pytest.mark.skipif(not TENSOR_GAMES, reason="no game has an observation tensor yet")
CONFIGS = [(g, n) for g in TENSOR_GAMES for n in (2, 3)]


class Replay:
    """A learner that replays recorded actions, checking that what the env showed
    equals what its own view of the game says."""

    def __init__(self, seat, moves):
        self.seat, self.moves, self.spec = seat, list(moves), "replay"

    def step(self, view):
        obs, mask, action = self.moves.pop(0)
        assert np.array_equal(obs, view.observation_tensor(self.seat))
        want = np.zeros(len(mask), np.int8)
        want[view.legal_actions()] = 1
        assert np.array_equal(mask, want)
        return action


@needs_tensors
@pytest.mark.parametrize("gid,players", CONFIGS, ids=[f"{g}-{n}p" for g, n in CONFIGS])
def test_each_env_is_the_tournament_game(gid, players):
    n, seed, opponent = 3, 40, "random"
    env = RomeVectorEnv(gid, n, opponent=opponent, seat="rotate", players=players)
    game = env.game
    obs, info = env.reset(seed=seed)
    pick = np.random.default_rng(1)
    moves = [[] for _ in range(n)]
    games = [0] * n
    checked = 0
    for _ in range(5000):
        assert obs in env.observation_space
        seats = info["seat"]
        mask = obs["action_mask"]
        actions = np.array([pick.choice(np.flatnonzero(m)) for m in mask])
        for i in range(n):
            moves[i].append((obs["observation"][i], mask[i], int(actions[i])))
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i in map(int, np.flatnonzero(terminated)):
            seat = int(seats[i])
            assert seat == (i + games[i]) % players  # "rotate"
            game_seed = (seed + i + games[i] * GOLDEN) % 2**64
            agents = [Replay(seat, moves[i]) if p == seat else
                      romecore.make_agent(opponent, game=game, seed=agent_seed(game_seed, p))
                      for p in range(players)]
            state = game.new_initial_state(seed=game_seed)
            record = play_game(game, agents, game_seed, state=state)
            assert agents[seat].moves == []
            assert reward[i] == pytest.approx(record.returns[seat])  # float32 in the batch
            assert info["final_info"]["returns"][i].tolist() == pytest.approx(record.returns)
            assert info["final_info"]["seat"][i] == seat
            assert np.array_equal(info["final_obs"][i]["observation"], state.observation_tensor(seat))
            moves[i] = []
            games[i] += 1
            checked += 1
        for i in np.flatnonzero(~terminated):
            assert reward[i] == 0
        if min(games) >= 2:
            break
    assert min(games) >= 2 and checked >= 2 * n
    env.close()


@needs_tensors
def test_fixed_seat_and_a_search_opponent():
    gid = TENSOR_GAMES[0]
    env = RomeVectorEnv(gid, 2, opponent="ismcts:simulations=20", seat=1, players=2)
    obs, info = env.reset(seed=3)
    for _ in range(5):
        assert (info["seat"] == 1).all()
        assert (obs["action_mask"].sum(1) > 0).all()
        assert (env.batch.current_player() == 1).all()
        actions = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
        obs, reward, terminated, truncated, info = env.step(actions)


@needs_tensors
def test_illegal_learner_action_names_the_env_and_changes_nothing():
    gid = TENSOR_GAMES[0]
    a = RomeVectorEnv(gid, 4, opponent="random", players=2)
    b = RomeVectorEnv(gid, 4, opponent="random", players=2)
    obs, _ = a.reset(seed=9)
    b.reset(seed=9)
    legal = np.array([np.flatnonzero(m)[0] for m in obs["action_mask"]])
    bad = legal.copy()
    bad[2] = np.flatnonzero(obs["action_mask"][2] == 0)[0]
    with pytest.raises(romecore.IllegalActionError, match=f"batch index 2: action {bad[2]}"):
        a.step(bad)
    with pytest.raises(romecore.InvalidArgumentError):
        a.step(legal[:3])
    with pytest.raises(romecore.ArgumentTypeError):
        a.step(legal.astype(np.float64))
    out_a, out_b = a.step(legal), b.step(legal)
    assert env_checker.data_equivalence(out_a, out_b, exact=True)


@needs_tensors
def test_gymnasium_checks():
    gid = TENSOR_GAMES[0]
    env = RomeVectorEnv(gid, 3, opponent="random", players=3)
    env_checker.check_reset_return_type(env)
    env_checker.check_reset_options(env)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_space_limit(env.single_observation_space["observation"], "observation")
    assert isinstance(env.single_action_space, gymnasium.spaces.Discrete)
    assert env.single_observation_space["observation"].dtype == np.float32

    def run(e, seed):
        out = [e.reset(seed=seed)]
        mask_rng = np.random.default_rng(seed)
        for _ in range(30):
            mask = out[-1][0]["action_mask"]
            out.append(e.step(np.array([mask_rng.choice(np.flatnonzero(m)) for m in mask])))
        return out

    # step determinism (env_checker's own check samples unmasked, illegal actions)
    other = RomeVectorEnv(gid, 3, opponent="random", players=3)
    assert env_checker.data_equivalence(run(env, 5), run(other, 5), exact=True)
    # copy=True (the default) hands out arrays the env never writes again
    first = run(env, 6)
    first_obs = first[0][0]["observation"].copy()
    run(env, 7)
    assert np.array_equal(first[0][0]["observation"], first_obs)


@needs_tensors
def test_copy_false_reuses_the_buffers():
    env = RomeVectorEnv(TENSOR_GAMES[0], 2, opponent="random", copy=False, players=2)
    obs, _ = env.reset(seed=1)
    obs2, *_ = env.step([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]])
    assert obs2["observation"] is obs["observation"]


def test_bad_arguments():
    gid = romecore.list_games()[0]
    with pytest.raises(romecore.UnknownGameError):
        RomeVectorEnv("no_such_game", 2)
    with pytest.raises(romecore.AgentSpecError):
        RomeVectorEnv(gid, 2, opponent="no_such_agent", players=2)
    with pytest.raises(romecore.InvalidArgumentError):
        RomeVectorEnv(gid, 2, seat=2, players=2)
    with pytest.raises(romecore.ArgumentTypeError):
        RomeVectorEnv(gid, 2, seat="left", players=2)
    with pytest.raises(romecore.ArgumentTypeError):
        RomeVectorEnv(gid, 2, opponent=None, players=2)
    with pytest.raises(romecore.InvalidArgumentError):
        RomeVectorEnv(gid, 0, players=2)
    with pytest.raises(romecore.ArgumentTypeError):
        RomeVectorEnv(3, 2)
    with pytest.raises(romecore.InvalidArgumentError):
        RomeVectorEnv(romecore.load_game(gid, players=2), 2, players=2)


@needs_tensors
def test_step_before_reset_and_bad_seeds():
    env = RomeVectorEnv(TENSOR_GAMES[0], 2, players=2)
    with pytest.raises(romecore.UsageError):
        env.step([0, 0])
    with pytest.raises(romecore.ArgumentTypeError):
        env.reset(seed="7")
    with pytest.raises(romecore.InvalidArgumentError):
        env.reset(seed=-1)
    env.reset(seed=np.int64(7))


# -- the single-agent RomeEnv ---------------------------------------------------------------
def _legal(obs, rng):
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def _episode(env, seed, rng):
    """One game from reset(seed): the learner's (observation, mask, action) per step, and the
    last step's reward and info."""
    obs, info = env.reset(seed=seed)
    moves, terminated = [], False
    while not terminated:
        assert obs in env.observation_space and info["seat"] == env.unwrapped._seat
        action = _legal(obs, rng)
        moves.append((obs["observation"], obs["action_mask"], action))
        obs, reward, terminated, truncated, info = env.step(action)
        assert truncated is False and (terminated or reward == 0.0)
    assert not obs["action_mask"].any()
    return moves, reward, info, obs


@needs_tensors
@pytest.mark.parametrize("gid,players", CONFIGS, ids=[f"{g}-{n}p" for g, n in CONFIGS])
def test_each_game_of_the_single_env_is_the_tournament_game(gid, players):
    seed, opponent = 21, "random"
    env = RomeEnv(gid, opponent=opponent, seat=players - 1, players=players)
    moves, reward, info, final_obs = _episode(env, seed, np.random.default_rng(2))
    seat = players - 1
    agents = [Replay(seat, moves) if p == seat else
              romecore.make_agent(opponent, game=env.game, seed=agent_seed(seed, p)) for p in range(players)]
    state = env.game.new_initial_state(seed=seed)
    record = play_game(env.game, agents, seed, state=state)
    assert agents[seat].moves == []
    assert info["returns"] == record.returns and reward == record.returns[seat]
    assert np.array_equal(final_obs["observation"], state.observation_tensor(seat))
    assert env.state == state


class AnyActionPlaysALegalOne(RomeEnv):
    """RomeEnv with one change: any action of the Discrete space plays the ``a % len(legal)``-th
    legal action.  Gymnasium's checker steps with ``action_space.sample()``, unmasked, which
    RomeEnv refuses as it must (IllegalActionError); the rest is RomeEnv's own."""

    def reset(self, **kwargs):
        obs, info = super().reset(**kwargs)
        self._mask = obs["action_mask"]
        return obs, info

    def step(self, action):
        legal = np.flatnonzero(self._mask)
        out = super().step(int(legal[int(action) % len(legal)]))
        self._mask = out[0]["action_mask"]
        return out


@needs_tensors
@pytest.mark.parametrize("gid", TENSOR_GAMES)
def test_gymnasium_check_env(gid):
    """gymnasium's own checker: spaces, reset's seeding and determinism, step determinism,
    data not reused, and (through the registered id) the render modes and close."""
    env = AnyActionPlaysALegalOne(gid, players=2, opponent="random")
    env.spec = gymnasium.spec(f"romecore/{gid}-v0")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a checker's warning fails the test
        env_checker.check_env(env)


@needs_tensors
def test_single_env_illegal_action_raises_and_changes_nothing():
    gid = TENSOR_GAMES[0]
    env, twin = RomeEnv(gid, opponent="random", players=2), RomeEnv(gid, opponent="random", players=2)
    obs, _ = env.reset(seed=4)
    twin.reset(seed=4)
    before, history = env.state.state_bytes(), env.state.history()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    for bad in (illegal, -1, env.action_space.n, 1.5):
        with pytest.raises(romecore.IllegalActionError):
            env.step(bad)
        assert env.state.state_bytes() == before and env.state.history() == history
    legal = np.int64(np.flatnonzero(obs["action_mask"])[0])  # a numpy int, as spaces sample
    assert env_checker.data_equivalence(env.step(legal), twin.step(int(legal)), exact=True)


@needs_tensors
def test_single_env_seeds_make_it_deterministic():
    """reset(seed) deals the same game; resets without a seed continue the seeded stream."""
    gid = TENSOR_GAMES[0]

    def run(seed):
        env = RomeEnv(gid, opponent="random", players=3)
        rng = np.random.default_rng(0)
        first = _episode(env, seed, rng)
        second = _episode(env, None, rng)
        return first, second, env.state.state_bytes()

    a, b = run(8), run(8)
    assert env_checker.data_equivalence(a, b, exact=True)
    assert a[2] != run(9)[2]
    assert env_checker.data_equivalence(a[0], _episode(RomeEnv(gid, opponent="random", players=3), 8,
                                                       np.random.default_rng(0)), exact=True)


@needs_tensors
def test_single_env_rotates_the_learner_and_renders():
    env = RomeEnv(TENSOR_GAMES[0], opponent="random", seat="rotate", render_mode="ansi", players=3)
    rng = np.random.default_rng(1)
    seats = []
    for seed in (5, None, None, None):
        obs, info = env.reset(seed=seed)
        seats.append(info["seat"])
        assert env.state.current_player() == info["seat"]
        assert env.render() == env.state.render(info["seat"])
        env.step(_legal(obs, rng))
    assert seats == [0, 1, 2, 0]
    assert RomeEnv(TENSOR_GAMES[0], players=2).render() is None


@needs_tensors
def test_single_env_usage_and_bad_arguments():
    gid = TENSOR_GAMES[0]
    env = RomeEnv(gid, opponent="random", players=2)
    with pytest.raises(romecore.UsageError, match="reset"):
        env.step(0)
    _episode(env, 3, np.random.default_rng(0))
    with pytest.raises(romecore.UsageError, match="over"):
        env.step(0)
    with pytest.raises(romecore.ArgumentTypeError):
        env.reset(seed="7")
    with pytest.raises(romecore.InvalidArgumentError):
        env.reset(seed=-1)
    with pytest.raises(romecore.UnknownGameError):
        RomeEnv("no_such_game")
    with pytest.raises(romecore.AgentSpecError):
        RomeEnv(gid, opponent="no_such_agent", players=2)
    with pytest.raises(romecore.InvalidArgumentError):
        RomeEnv(gid, seat=2, players=2)
    with pytest.raises(romecore.InvalidArgumentError):
        RomeEnv(gid, render_mode="human", players=2)
    with pytest.raises(romecore.GameOptionError):
        RomeEnv(gid, no_such_option=1)


def test_every_installed_game_has_a_gymnasium_id():
    for gid in romecore.list_games():
        spec = gymnasium.spec(f"romecore/{gid}-v0")
        assert spec.kwargs == {"game": gid}
    if not TENSOR_GAMES:
        return
    gid = TENSOR_GAMES[0]
    env = gymnasium.make(f"romecore/{gid}-v0", players=3, opponent="random", seat=1)
    assert isinstance(env.unwrapped, RomeEnv) and env.unwrapped.game == romecore.load_game(gid, players=3)
    obs, info = env.reset(seed=2)
    assert info["seat"] == 1 and obs in env.observation_space
    envs = gymnasium.make_vec(f"romecore/{gid}-v0", num_envs=3, players=2, opponent="random")
    assert isinstance(envs, RomeVectorEnv) and envs.num_envs == 3
    assert envs.single_observation_space == RomeEnv(gid, players=2).observation_space
    assert envs.single_action_space == RomeEnv(gid, players=2).action_space
