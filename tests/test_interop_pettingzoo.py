"""Every installed romecore game as a PettingZoo AEC environment, checked with PettingZoo's
own ``api_test``, ``seed_test`` and ``parallel_api_test`` and against the romecore game it
wraps."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium")
pettingzoo_test = pytest.importorskip("pettingzoo.test")
pettingzoo_utils = pytest.importorskip("pettingzoo.utils")
np = pytest.importorskip("numpy")
spaces = pytest.importorskip("gymnasium.spaces")

import romecore  # noqa: E402
from romecore.interop.pettingzoo import (  # noqa: E402
    RomeAECEnv,
    env,
    parallel_env,
    raw_env,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    GAME_IDS = romecore.list_games()


def _player_counts(game_id):
    spec = romecore.load_game(game_id).spec
    return sorted({spec.min_players, spec.max_players})


CONFIGS = [(g, n) for g in GAME_IDS for n in _player_counts(g)]
CONFIG_IDS = [f"{g}-{n}p" for g, n in CONFIGS]

# PettingZoo warns about any dict observation of an environment outside its own list.
DICT_OBS_WARNINGS = ("Observation is not a NumPy array", "Observation space for each agent probably")


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_pettingzoo_api_test(game_id, players):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(env(game_id, players=players), num_cycles=1000)
    unexpected = [str(w.message) for w in caught
                  if not str(w.message).startswith(DICT_OBS_WARNINGS)]
    assert not unexpected


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_pettingzoo_api_test_unwrapped(game_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.api_test(raw_env(game_id), num_cycles=300)


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_pettingzoo_seed_test(game_id, players):
    pettingzoo_test.seed_test(lambda: env(game_id, players=players), num_cycles=500)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_reset_deals_as_the_romecore_seed(game_id):
    e = raw_env(game_id)
    e.reset(seed=123)
    expected = e.game.new_initial_state(seed=123)
    expected.resolve_chance()
    assert e.game_state == expected
    assert e.agent_selection == f"player_{expected.current_player()}"
    e.reset()  # unseeded: drawn from the generator of the last seeded reset
    first = e.game_state.clone()
    e.reset(seed=123)
    e.reset()
    assert e.game_state == first


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_whole_game_views_masks_and_final_rewards(game_id, players):
    e = raw_env(game_id, players=players)
    e.reset(seed=5)
    rng = np.random.default_rng(5)
    seen_final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        seat = int(agent.split("_")[1])
        state = e.game_state
        assert e.observation_dict(agent) == state.observation(seat)
        assert np.array_equal(obs["observation"], state.observation_tensor(seat))
        assert e.observation_space(agent).contains(obs)
        assert not truncated and info == {}
        if terminated:
            assert not obs["action_mask"].any()
            seen_final[agent] = reward
            e.step(None)
            continue
        assert reward == 0.0
        assert state.current_player() == seat
        assert np.flatnonzero(obs["action_mask"]).tolist() == state.legal_actions()
        for other in e.agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert e.agents == []
    returns = e.game_state.returns()
    assert seen_final == {f"player_{i}": r for i, r in enumerate(returns)}
    assert abs(sum(returns) - 1.0) < 1e-9


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_illegal_actions_raise_and_change_nothing(game_id):
    e = raw_env(game_id)
    e.reset(seed=1)
    legal = set(e.game_state.legal_actions())
    bad = next(a for a in range(e.game.num_distinct_actions()) if a not in legal)
    before = (e.agent_selection, e.game_state.state_bytes(), dict(e._cumulative_rewards))
    for action in (bad, -1, None, "1", 1.5):
        with pytest.raises(romecore.IllegalActionError):
            e.step(action)
    assert (e.agent_selection, e.game_state.state_bytes(), dict(e._cumulative_rewards)) == before
    e.step(np.int32(min(legal)))  # numpy integers are actions too


def test_bounds_and_arguments():
    game_id = GAME_IDS[0]
    with pytest.raises(ValueError):
        raw_env(game_id, render_mode="rgb_array")
    with pytest.raises(romecore.GameOptionError):
        raw_env(game_id, players=99)
    with pytest.raises(RuntimeError):
        raw_env(game_id).observe("player_0")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_render_state_and_metadata(game_id):
    e = raw_env(game_id, render_mode="ansi")
    e.reset(seed=2)
    assert e.render() == str(e.game_state)
    assert str(e) == f"romecore_{game_id}_v0"
    full = e.state()
    assert e.state_space.contains(full)
    assert full.tobytes() == e.game_state.state_bytes()
    assert isinstance(e, RomeAECEnv)


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_observation_space_is_the_tensor_and_the_mask(game_id, players):
    e = raw_env(game_id, players=players)
    size = e.game.observation_tensor_size()
    num_actions = e.game.num_distinct_actions()
    for agent in e.possible_agents:
        space = e.observation_space(agent)
        assert isinstance(space, spaces.Dict) and set(space.spaces) == {"observation", "action_mask"}
        box = space["observation"]
        assert (box.shape, box.dtype) == ((size,), np.float32)
        assert (box.low == 0.0).all() and (box.high == 1.0).all()
        mask = space["action_mask"]
        assert (mask.shape, mask.dtype) == ((num_actions,), np.int8)
        assert (mask.low == 0).all() and (mask.high == 1).all()
    e.reset(seed=9)
    seat = e.game_state.current_player()
    first = e.observe(f"player_{seat}")["observation"]
    second = e.observe(f"player_{seat}")["observation"]
    assert not np.shares_memory(first, second)  # a learner may keep what it was given


def _movers(game_id, players, seed):
    """The seats that decide, in order, along one random game."""
    state = romecore.load_game(game_id, players=players).new_initial_state(seed=seed)
    rng = np.random.default_rng(seed)
    movers = []
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        movers.append(state.current_player())
        state.apply_action(int(rng.choice(state.legal_actions())))
    return movers


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_aec_to_parallel_refuses_with_the_reason(game_id, players):
    """PettingZoo's aec_to_parallel needs one action per agent per cycle, in seat order; a
    random game shows the game does not play like that, and the conversion raises a
    romecore error that says why (for the wrapped and the bare environment)."""
    movers = _movers(game_id, players, seed=1)
    assert movers != [i % players for i in range(len(movers))]
    for e in (env(game_id, players=players), raw_env(game_id, players=players)):
        assert e.metadata["is_parallelizable"] is False
        with pytest.raises(romecore.UsageError, match="turn_based_aec_to_parallel"):
            pettingzoo_utils.aec_to_parallel(e)
        assert e.metadata.get("name") == f"romecore_{game_id}_v0"


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_parallel_env_api_test(game_id, players):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pettingzoo_test.parallel_api_test(parallel_env(game_id, players=players), num_cycles=1000)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_parallel_env_plays_a_whole_game_as_romecore(game_id):
    """Through the parallel API every live agent hands in an action and only the mover's
    is played: the game is the romecore game played with the same moves and deals."""
    par = parallel_env(game_id)
    obs, infos = par.reset(seed=4)
    replay = romecore.load_game(game_id).new_initial_state(seed=4)
    replay.resolve_chance()
    rng = np.random.default_rng(4)
    rewards = {}
    while par.agents:
        state = par.unwrapped.game_state
        mover = f"player_{state.current_player()}"
        movable = {a for a in par.agents if obs[a]["action_mask"].any()}
        assert movable == {mover}
        action = int(rng.choice(np.flatnonzero(obs[mover]["action_mask"])))
        actions = {a: action if a == mover else 0 for a in par.agents}
        obs, rewards, terminations, truncations, infos = par.step(actions)
        replay.apply_action(action)
        replay.resolve_chance()
        assert par.unwrapped.game_state == replay
    assert all(terminations.values()) and not any(truncations.values())
    assert rewards == {f"player_{i}": r for i, r in enumerate(replay.returns())}
