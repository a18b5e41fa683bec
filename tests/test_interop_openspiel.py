"""Every installed romecore game inside OpenSpiel, checked with OpenSpiel's own machinery:
``pyspiel.random_sim_test`` (clone, serialization, legal-action masks, observation
strings, returns within the declared utility), the resampling check OpenSpiel runs on its
imperfect-information games, the tensors and observer API that learning code reads
(``rl_environment`` and learners driven by it), and OpenSpiel's MCTS and ISMCTS bots
playing whole games."""

from __future__ import annotations

import warnings

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")
observation = pytest.importorskip("open_spiel.python.observation")
rl_environment = pytest.importorskip("open_spiel.python.rl_environment")
tabular_qlearner = pytest.importorskip("open_spiel.python.algorithms.tabular_qlearner")

import romecore  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import romecore.interop.openspiel as ros  # noqa: E402

    GAME_IDS = romecore.list_games()


def _player_counts(game_id):
    spec = romecore.load_game(game_id).spec
    return sorted({spec.min_players, spec.max_players})


CONFIGS = [(g, n) for g in GAME_IDS for n in _player_counts(g)]
CONFIG_IDS = [f"{g}-{n}p" for g, n in CONFIGS]


def _play_chance(state, rng):
    actions, probs = zip(*state.chance_outcomes())
    state.apply_action(int(rng.choice(actions, p=probs)))


# -- registration and game description ------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_is_registered_with_its_description(game_id):
    name = ros.short_name(game_id)
    assert name in pyspiel.registered_names()
    spec = romecore.load_game(game_id).spec
    gtype = pyspiel.load_game(name).get_type()
    assert gtype.short_name == name
    assert gtype.min_num_players == spec.min_players
    assert gtype.max_num_players == spec.max_players
    assert gtype.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert gtype.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert gtype.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert gtype.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    expected = (pyspiel.GameType.Information.PERFECT_INFORMATION if spec.perfect_information
                else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    assert gtype.information == expected
    assert gtype.provides_information_state_string and gtype.provides_observation_string
    assert gtype.provides_observation_tensor and gtype.provides_information_state_tensor
    assert ros.register([game_id]) == [name]  # idempotent


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_game_info_matches_romecore(game_id, players):
    rc = romecore.load_game(game_id, players=players)
    game = pyspiel.load_game(ros.short_name(game_id), {"players": players})
    assert game.num_players() == players
    assert game.num_distinct_actions() == rc.num_distinct_actions()
    assert game.max_chance_outcomes() == rc.num_distinct_actions()
    assert game.max_game_length() == rc.max_game_length()
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (0.0, 1.0, 1.0)
    # the game string loads the same game back
    assert pyspiel.load_game(str(game)).romecore_game == rc
    assert ros.load_game(game_id, players=players).romecore_game == rc


def test_bad_options_raise_romecore_errors():
    game_id = GAME_IDS[0]
    spec = romecore.load_game(game_id).spec
    with pytest.raises(romecore.GameOptionError):
        ros.load_game(game_id, players=spec.max_players + 1)


# -- OpenSpiel's own consistency checks ---------------------------------------------


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_random_sim_test(game_id, players):
    """OpenSpiel's C++ RandomSimTest: clones, serialization round trips, sorted legal
    actions and masks (chance nodes too), empty legal actions for other players,
    observation and information-state strings for every player, game length, returns
    summing to the declared constant and within the utility range."""
    game = ros.load_game(game_id, players=players)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_resample_and_chance_consistency(game_id, players):
    """What OpenSpiel's ResampleInfostateTest and CheckChanceOutcomes check, along a random
    game (the C++ versions are not exposed to Python): a resampled state keeps the
    resampled player's information state and the player to move; chance outcomes are
    distinct legal actions whose probabilities sum to one."""
    game = ros.load_game(game_id, players=players)
    rng = np.random.RandomState(7)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            assert len(set(actions)) == len(actions)
            assert sorted(actions) == sorted(state.legal_actions())
            assert all(0.0 < p <= 1.0 for _, p in outcomes)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9
            _play_chance(state, rng)
            continue
        if step % 5 == 0:
            for p in range(players):
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert other.current_player() == state.current_player()
                if p == state.current_player():
                    assert other.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
        step += 1
    assert abs(sum(state.returns()) - 1.0) < 1e-9


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_state_round_trips_through_openspiel_serialization(game_id):
    game = ros.load_game(game_id)
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    for _ in range(40):
        if state.is_terminal():
            break
        if state.is_chance_node():
            _play_chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    text = pyspiel.serialize_game_and_state(game, state)
    game2, state2 = pyspiel.deserialize_game_and_state(text)
    assert str(game2) == str(game)
    assert state2.history() == state.history()
    assert ros.romecore_state(state2) == ros.romecore_state(state)
    assert ros.romecore_state(state2).history() == ros.romecore_state(state).history()
    clone = state.clone()
    assert ros.romecore_state(clone) == ros.romecore_state(state)
    assert ros.romecore_state(clone) is not ros.romecore_state(state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_views_and_structs(game_id):
    game = ros.load_game(game_id)
    state = game.new_initial_state()
    rc = ros.romecore_state(state)
    rng = np.random.RandomState(5)
    while state.is_chance_node():
        _play_chance(state, rng)
    p = state.current_player()
    assert state.information_state_string(p) == rc.information_state_string(p)
    assert state.observation_string(p) == rc.observation_string(p)
    assert state.information_state_string() == rc.information_state_string(p)
    assert state.action_to_string(p, state.legal_actions()[0]) == rc.action_to_string(state.legal_actions()[0])
    assert str(state) == str(rc)
    assert state.to_observation_struct(p).to_json() and state.to_struct().to_json()
    wrapped = ros.wrap(rc)
    assert ros.romecore_state(wrapped) == rc and ros.romecore_state(wrapped) is not rc
    with pytest.raises(TypeError):
        ros.romecore_state(pyspiel.load_game("tic_tac_toe").new_initial_state())


def test_observers_refuse_views_romecore_does_not_have():
    game = ros.load_game(GAME_IDS[0])
    with pytest.raises(ValueError):
        game.make_py_observer(pyspiel.IIGObservationType(
            perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    with pytest.raises(ValueError):
        game.make_py_observer(None, {"x": 1})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_illegal_action_raises_and_changes_nothing(game_id):
    game = ros.load_game(game_id)
    state = game.new_initial_state()
    legal = set(state.legal_actions())
    bad = next(a for a in range(game.num_distinct_actions()) if a not in legal)
    before = (str(state), state.history())
    for action in (bad, -3, 10**12):
        with pytest.raises(romecore.IllegalActionError):
            state.apply_action(action)
    assert (str(state), state.history()) == before
    n = game.num_players()
    with pytest.raises(pyspiel.SpielError):
        state.information_state_string(n)
    with pytest.raises(ValueError):
        state.resample_from_infostate(n, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    with pytest.raises(romecore.IllegalActionError):
        state.action_to_string(0, game.num_distinct_actions())


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_new_initial_state_from_a_romecore_dict(game_id):
    game = ros.load_game(game_id)
    rc = game.romecore_game.new_initial_state(seed=11)
    rc.resolve_chance()
    state = game.new_initial_state(rc.to_dict())
    assert ros.romecore_state(state) == rc
    with pytest.raises(romecore.SerializationError):
        game.new_initial_state("not json")


# -- tensors, observers and learning ------------------------------------------------


@pytest.mark.parametrize("game_id,players", CONFIGS, ids=CONFIG_IDS)
def test_tensors_are_the_kernels_and_only_what_the_player_knows(game_id, players):
    """Both OpenSpiel tensors are the kernel's tensor for the same seat, at chance nodes,
    decisions and the end, in [0, 1]; and each stays the same across states resampled from
    that player's information state (so the adapter hands the kernel the right seat)."""
    game = ros.load_game(game_id, players=players)
    rc_game = game.romecore_game
    size = rc_game.observation_tensor_size()
    assert game.observation_tensor_shape() == [size]
    assert game.information_state_tensor_shape() == [size]
    assert game.observation_tensor_size() == game.information_state_tensor_size() == size
    rng = np.random.RandomState(11)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    state = game.new_initial_state()
    step = 0
    while True:
        rc = ros.romecore_state(state)
        check = step % 7 == 0 or state.is_terminal()
        for p in range(players) if check else ():
            obs = np.asarray(state.observation_tensor(p), np.float32)
            assert obs.shape == (size,)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
            assert np.array_equal(obs, rc.observation_tensor(p))
            assert np.array_equal(np.asarray(state.information_state_tensor(p), np.float32), obs)
            if not state.is_chance_node() and not state.is_terminal():
                other = state.resample_from_infostate(p, sampler)
                assert np.array_equal(np.asarray(other.observation_tensor(p), np.float32), obs)
        if state.is_terminal():
            break
        if state.is_chance_node():
            _play_chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            step += 1


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_python_observer_api(game_id):
    """``open_spiel.python.observation.make_observation`` (what OpenSpiel's Python
    algorithms use) gives our observer: ``tensor`` refilled in place, ``dict`` viewing it,
    for the default and the perfect-recall (information state) observation types."""
    game = ros.load_game(game_id)
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    for _ in range(30):
        if state.is_chance_node():
            _play_chance(state, rng)
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    rc = ros.romecore_state(state)
    info_type = pyspiel.IIGObservationType(perfect_recall=True, public_info=True,
                                           private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER)
    for obs_type in (None, info_type):
        obs = observation.make_observation(game, obs_type)
        assert isinstance(obs, ros.RomeObserver)
        buffer = obs.tensor
        for p in range(game.num_players()):
            obs.set_from(state, p)
            assert obs.tensor is buffer and obs.tensor.dtype == np.float32
            assert np.array_equal(obs.tensor, rc.observation_tensor(p))
            assert np.shares_memory(obs.dict["observation"], obs.tensor)
            assert obs.string_from(state, p) == rc.information_state_string(p)
        with pytest.raises(romecore.InvalidArgumentError):
            obs.set_from(state, game.num_players())


def test_observer_without_a_kernel_tensor_serves_strings_only():
    class NoTensor:
        def observation_tensor_shape(self):
            raise romecore.PluginError("no tensor")

    obs = ros.RomeObserver(None, None, NoTensor())
    assert obs.tensor is None and obs.dict == {}
    obs.set_from(None, 0)  # nothing to fill


def _sampler(seed):
    return rl_environment.ChanceEventSampler(seed=seed)


def _run_agents(env, agents, steps):
    """Drives ``agents`` (one per seat) through ``env`` as OpenSpiel's RL examples do, for
    ``steps`` decisions; returns the terminal rewards of each finished episode."""
    finished = []
    time_step = env.reset()
    for _ in range(steps):
        if time_step.last():
            for agent in agents:
                agent.step(time_step)
            finished.append(time_step.rewards)
            time_step = env.reset()
            continue
        player = time_step.observations["current_player"]
        legal = time_step.observations["legal_actions"][player]
        action = agents[player].step(time_step).action
        assert action in legal
        time_step = env.step([action])
    return finished


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rl_environment_runs_every_game(game_id):
    """OpenSpiel's rl_environment accepts the game (it refused it without tensors) and
    hands out information-state tensors of the declared size for every seat."""
    game = ros.load_game(game_id)
    env = rl_environment.Environment(game, chance_event_sampler=_sampler(1))
    size = game.information_state_tensor_size()
    assert env.observation_spec()["info_state"] == (size,)
    assert env.action_spec()["num_actions"] == game.num_distinct_actions()
    time_step = env.reset()
    assert len(time_step.observations["info_state"]) == game.num_players()
    assert all(len(t) == size for t in time_step.observations["info_state"])
    rng = np.random.RandomState(1)
    for _ in range(40):
        if time_step.last():
            break
        player = time_step.observations["current_player"]
        time_step = env.step([int(rng.choice(time_step.observations["legal_actions"][player]))])
        for p, tensor in enumerate(time_step.observations["info_state"]):
            rc = ros.romecore_state(env.get_state)
            assert np.array_equal(np.asarray(tensor, np.float32), rc.observation_tensor(p))
    env_obs = rl_environment.Environment(game, observation_type=rl_environment.ObservationType.OBSERVATION)
    assert env_obs.observation_spec()["info_state"] == (size,)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_tabular_q_learning_through_rl_environment(game_id):
    """OpenSpiel's own numpy Q-learner (``tabular_qlearner``, keyed by the information-state
    tensor), one per seat, for a thousand decisions: whole episodes end, their rewards are
    romecore's returns, and the learners take them in."""
    game = ros.load_game(game_id, players=2)
    env = rl_environment.Environment(game, chance_event_sampler=_sampler(3))
    num_actions = env.action_spec()["num_actions"]
    agents = [tabular_qlearner.QLearner(player_id=p, num_actions=num_actions, step_size=0.5)
              for p in range(game.num_players())]
    finished = _run_agents(env, agents, 1000)
    assert finished
    for rewards in finished:
        assert sorted(rewards) in ([0.0, 1.0], [0.5, 0.5])
    # the terminal rewards were learnt: some (state, action) value is no longer zero
    assert any(v != 0.0 for agent in agents for q in agent._q_values.values() for v in q.values())


def test_pytorch_dqn_through_rl_environment():
    """OpenSpiel's PyTorch DQN (as in its dqn_breakthrough example) on the tensors, for a
    few hundred decisions with learning switched on early."""
    torch = pytest.importorskip("torch")
    dqn = pytest.importorskip("open_spiel.python.pytorch.dqn")  # needs dm-tree too
    game = ros.load_game("rise_to_power", players=2)
    env = rl_environment.Environment(game, chance_event_sampler=_sampler(4))
    size = env.observation_spec()["info_state"][0]
    num_actions = env.action_spec()["num_actions"]
    agents = [dqn.DQN(player_id=p, state_representation_size=size, num_actions=num_actions,
                      hidden_layers_sizes=[32], replay_buffer_capacity=1000, batch_size=16,
                      learn_every=4, min_buffer_size_to_learn=32, epsilon_decay_duration=300,
                      seed=p)
              for p in range(game.num_players())]
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny batches: threads only contend on a shared machine
    try:
        finished = _run_agents(env, agents, 300)
    finally:
        torch.set_num_threads(threads)
    assert finished
    assert all(agent.loss is not None and np.isfinite(float(agent.loss)) for agent in agents)


# -- OpenSpiel's bots playing whole games ------------------------------------------


def _bot_game(game_id, players, choose, seed):
    """Plays one whole game, chance by OpenSpiel's sampling, moves by ``choose``."""
    game = ros.load_game(game_id, players=players)
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            _play_chance(state, rng)
            continue
        action = choose(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 0
    returns = state.returns()
    assert abs(sum(returns) - 1.0) < 1e-9
    return returns


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_mcts_plays_whole_games(game_id):
    """OpenSpiel's Python MCTS bot, handed only what the player to move may know: a
    state resampled from that player's information state each move."""
    game = ros.load_game(game_id, players=2)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=8,
                       evaluator=ros.PlayoutEvaluator(1, np.random.RandomState(1)),
                       random_state=np.random.RandomState(2), solve=False)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)

    def choose(state):
        view = state.resample_from_infostate(state.current_player(), sampler)
        return int(bot.step(view))

    _bot_game(game_id, 2, choose, seed=0)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_ismcts_plays_whole_games(game_id):
    """OpenSpiel's Python ISMCTS bot: it resamples the root through our
    ``resample_from_infostate`` every simulation and asserts the information state
    key is unchanged."""
    game = ros.load_game(game_id, players=2)
    bot = ismcts.ISMCTSBot(game, ros.PlayoutEvaluator(1, np.random.RandomState(1)), 2.0,
                           max_simulations=8, random_state=np.random.RandomState(2))
    _bot_game(game_id, 2, lambda s: int(bot.step(s)), seed=1)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_openspiel_bots_with_their_own_rollout_evaluator(game_id):
    """A few moves with OpenSpiel's own RandomRolloutEvaluator (stepping through the
    adapter in Python) for both Python bots, and the C++ MCTS search."""
    game = ros.load_game(game_id, players=2)
    rng = np.random.RandomState(4)
    state = game.new_initial_state()
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(3))
    bots = [mcts.MCTSBot(game, 2.0, 4, evaluator, random_state=np.random.RandomState(5)),
            ismcts.ISMCTSBot(game, evaluator, 2.0, 4, random_state=np.random.RandomState(6))]
    # pyspiel.MCTSBot.step releases the GIL and then calls back into Python, which crashes
    # with any Python game (OpenSpiel 2.0.2); mcts_search keeps the GIL and works.
    cpp = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 7), 2.0, 8, 100, False, 8, False)
    for move in range(6):
        while state.is_chance_node():
            _play_chance(state, rng)
        if state.is_terminal():
            break
        root = cpp.mcts_search(state)
        assert root.explore_count == 8
        assert root.best_child().action in state.legal_actions()
        action = int(bots[move % 2].step(state))
        assert action in state.legal_actions()
        state.apply_action(action)
