"""romecore.batch against an independent oracle: N separate States driven through the
public API with the same actions, each dealt from the seed the batch documents, its
chance drawn by the State's own dealer (``resolve_chance``)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import romecore
from romecore.batch import Batch

# The documented seed of slot i's k-th game: (seeds[i] + k * 0x9E3779B97F4A7C15) mod 2**64.
GOLDEN = 0x9E3779B97F4A7C15


def deal(game, seed, k):
    s = game.new_initial_state(seed=(seed + k * GOLDEN) % 2**64)
    s.resolve_chance()
    return s


def mask_of(state, num_actions):
    m = np.zeros(num_actions, bool)
    m[state.legal_actions()] = True
    return m


def has_tensor(game):
    try:
        game.observation_tensor_shape()
    except romecore.PluginError:
        return False
    return True


def snapshot(batch):
    """Everything a batch holds, per game: struct, dealer RNG, move count, seed."""
    return ([batch.state(i).serialize() for i in range(batch.n)],
            batch.move_number().tolist(), batch.game_seeds().tolist())


def test_batch_equals_separate_states(game):
    """Every game and player count: each step's players, masks, tensors, rewards, done
    flags and positions equal N States played alone; every slot finishes a game and goes
    on with the next seed."""
    n, na = 4, game.num_distinct_actions()
    seeds = [5, 2**64 - 2, 12345, 0]
    batch = Batch(game, n, seed=0)
    batch.reset(seeds=seeds)
    oracle = [deal(game, s, 0) for s in seeds]
    episode = [0] * n
    finished = [0] * n
    tensors = has_tensor(game)
    pick = random.Random(9)
    steps = 0
    while min(finished) < 2 or steps < 20:
        assert batch.current_player().tolist() == [s.current_player() for s in oracle]
        mask = batch.legal_mask()
        for i, s in enumerate(oracle):
            assert np.array_equal(mask[i], mask_of(s, na)), (i, steps)
            assert batch.state(i).state_bytes() == s.state_bytes()
        if tensors:
            obs = batch.observation_tensor()
            for i, s in enumerate(oracle):
                assert np.array_equal(obs[i], s.observation_tensor(s.current_player()))
        actions = np.array([pick.choice(s.legal_actions()) for s in oracle], np.int64)
        rewards, done = batch.step(actions)
        for i, s in enumerate(oracle):
            s.apply_action(int(actions[i]))
            s.resolve_chance()
            if s.is_terminal():
                assert done[i]
                assert rewards[i].tolist() == pytest.approx(s.returns())
                assert batch.final_state(i).state_bytes() == s.state_bytes()
                finished[i] += 1
                episode[i] += 1
                oracle[i] = s = deal(game, seeds[i], episode[i])
            else:
                assert not done[i] and not rewards[i].any()
            assert batch.move_number()[i] == len(s.history())
        steps += 1
        assert steps < 20_000
    assert batch.game_seeds().tolist() == [(s + k * GOLDEN) % 2**64 for s, k in zip(seeds, episode)]


def test_where_steps_only_the_chosen_games():
    game = romecore.load_game("rise_to_power", players=3)
    batch = Batch(game, 4, seed=3)
    before = snapshot(batch)
    actions = batch.random_actions()
    actions[1] = -7  # not chosen: never looked at
    where = np.array([True, False, True, False])
    _, done = batch.step(actions, where=where)
    after = snapshot(batch)
    for i in range(4):
        assert (after[0][i] == before[0][i]) == (not where[i])
        assert (after[1][i] == before[1][i]) == (not where[i])
    assert not done[~where].any()


@pytest.mark.parametrize("gid", romecore.list_games())
def test_random_actions_are_legal_and_current_player_is_never_chance(gid):
    game = romecore.load_game(gid, players=2)
    batch = Batch(game, 16, seed=4)
    for _ in range(300):
        actions = batch.random_actions()
        mask = batch.legal_mask(out=np.zeros((16, game.num_distinct_actions()), np.uint8))
        assert mask[np.arange(16), actions].all()
        assert (batch.legal_counts() == mask.sum(1)).all()
        batch.step(actions)
        assert (batch.current_player() >= 0).all()


def test_same_seed_same_games():
    game = romecore.load_game("city_of_marble", players=3)
    a, b = Batch(game, 8, seed=11), Batch(game, 8, seed=11)
    assert snapshot(a) == snapshot(b)
    for _ in range(200):
        ra, da = a.step(a.random_actions())
        rb, db = b.step(b.random_actions())
        assert np.array_equal(ra, rb) and np.array_equal(da, db)
    assert snapshot(a) == snapshot(b)
    assert snapshot(Batch(game, 8, seed=12)) != snapshot(a)
    a.reset(seeds=40)
    b.reset(seeds=list(range(40, 48)))
    assert snapshot(a) == snapshot(b)
    assert a.game_seeds().tolist() == list(range(40, 48))


# -- bad input: a romecore error, naming the index, and no game changes ---------------------

@pytest.fixture
def batch():
    game = romecore.load_game("great_city_of_rome", players=3)
    b = Batch(game, 5, seed=2)
    for _ in range(10):
        b.step(b.random_actions())
    return b


def unchanged(batch, call, error, *words):
    before = snapshot(batch)
    with pytest.raises(error) as info:
        call()
    for w in words:
        assert w in str(info.value)
    assert snapshot(batch) == before
    return info.value


def test_illegal_action_names_the_index_and_changes_nothing(batch):
    actions = batch.random_actions()
    illegal = int(np.flatnonzero(~batch.legal_mask()[3])[0])
    actions[3] = illegal
    e = unchanged(batch, lambda: batch.step(actions), romecore.IllegalActionError,
                  "batch index 3", f"action {illegal}")
    assert "not legal" in str(e)


@pytest.mark.parametrize("bad", [-1, 158, 2**40, -(2**40)])
def test_out_of_range_action_names_the_index(batch, bad):
    actions = batch.random_actions().astype(np.int64)
    actions[4] = bad
    unchanged(batch, lambda: batch.step(actions), romecore.IllegalActionError,
              "batch index 4", str(bad))


def test_uint64_action_above_int64(batch):
    actions = batch.random_actions().astype(np.uint64)
    actions[0] = 2**64 - 1
    unchanged(batch, lambda: batch.step(actions), romecore.IllegalActionError, "batch index 0")


@pytest.mark.parametrize("actions,error", [
    (np.zeros(5, np.float32), romecore.ArgumentTypeError),
    (np.zeros(5, bool), romecore.ArgumentTypeError),
    (["a"] * 5, romecore.ArgumentTypeError),
    (np.zeros(4, np.int32), romecore.InvalidArgumentError),
    (np.zeros((5, 1), np.int32), romecore.InvalidArgumentError),
    (np.int32(0), romecore.InvalidArgumentError),
    ([[0], [0, 1]], romecore.ArgumentTypeError),
    (None, romecore.ArgumentTypeError),
])
def test_bad_action_arrays(batch, actions, error):
    unchanged(batch, lambda: batch.step(actions), error, "actions")


def test_int_lists_and_strided_arrays_are_accepted(batch):
    legal = batch.random_actions()
    strided = np.repeat(legal.astype(np.int16), 2)[::2]
    assert not strided.flags.c_contiguous
    batch.step(strided)
    batch.step(batch.random_actions().tolist())


@pytest.mark.parametrize("kw,error", [
    ({"where": np.ones(5, np.float64)}, romecore.ArgumentTypeError),
    ({"where": np.ones(6, bool)}, romecore.InvalidArgumentError),
    ({"rewards": np.zeros((5, 3), np.float64)}, romecore.ArgumentTypeError),
    ({"rewards": np.zeros((5, 2), np.float32)}, romecore.InvalidArgumentError),
    ({"done": np.zeros(5, np.uint8)}, romecore.ArgumentTypeError),
    ({"done": np.zeros(5, bool)[::-1]}, romecore.InvalidArgumentError),
    ({"done": [False] * 5}, romecore.ArgumentTypeError),
])
def test_bad_step_arguments(batch, kw, error):
    actions = batch.random_actions()
    unchanged(batch, lambda: batch.step(actions, **kw), error, next(iter(kw)))


@pytest.mark.parametrize("out,error", [
    (np.zeros((5, 158), np.float32), romecore.ArgumentTypeError),
    (np.zeros((5, 157), bool), romecore.InvalidArgumentError),
    (np.zeros((5, 158), bool).T.copy().T, romecore.InvalidArgumentError),
    ("mask", romecore.ArgumentTypeError),
])
def test_bad_mask_out(batch, out, error):
    unchanged(batch, lambda: batch.legal_mask(out=out), error, "out")


def test_read_only_out_is_refused(batch):
    out = np.zeros(5, np.int32)
    out.flags.writeable = False
    unchanged(batch, lambda: batch.current_player(out=out), romecore.InvalidArgumentError, "writable")


@pytest.mark.parametrize("player,words", [
    (3, ["player 3"]), (-1, ["player -1"]),
    (np.array([0, 1, 2, 3, 0]), ["batch index 3", "player 3"]),
    (np.array([0, 1, -2, 0, 0], np.int8), ["batch index 2", "player -2"]),
])
def test_player_out_of_range_names_the_index(batch, player, words):
    unchanged(batch, lambda: batch.observation_tensor(player=player),
              romecore.InvalidArgumentError, *words)


def test_bad_player_types(batch):
    unchanged(batch, lambda: batch.observation_tensor(player=np.zeros(5)), romecore.ArgumentTypeError)
    unchanged(batch, lambda: batch.observation_tensor(player=[0, 1]), romecore.InvalidArgumentError)


@pytest.mark.parametrize("seeds,error,word", [
    ([1, 2], romecore.InvalidArgumentError, "5 entries"),
    ([1, 2, "x", 4, 5], romecore.ArgumentTypeError, "batch index 2"),
    ([1, 2, 3, 4.5, 5], romecore.ArgumentTypeError, "batch index 3"),
    ("seed", romecore.ArgumentTypeError, "str"),
    (True, romecore.ArgumentTypeError, "bool"),
    (object(), romecore.ArgumentTypeError, "object"),
])
def test_bad_seeds(batch, seeds, error, word):
    unchanged(batch, lambda: batch.reset(seeds=seeds), error, word)


@pytest.mark.parametrize("n,error", [(0, romecore.InvalidArgumentError), (-3, romecore.InvalidArgumentError),
                                     ("4", romecore.ArgumentTypeError), (2.0, romecore.ArgumentTypeError)])
def test_bad_sizes(n, error):
    with pytest.raises(error):
        Batch(romecore.load_game("rise_to_power", players=2), n)


def test_bad_indexes(batch):
    with pytest.raises(romecore.InvalidArgumentError, match="index 5"):
        batch.state(5)
    with pytest.raises(romecore.InvalidArgumentError):
        batch.final_state(-1)
    with pytest.raises(romecore.ArgumentTypeError):
        batch.state("0")
    assert batch.final_state(0) is None or batch.final_state(0).is_terminal()


def test_game_without_a_tensor_says_so():
    for gid in romecore.list_games():
        game = romecore.load_game(gid, players=2)
        if not has_tensor(game):
            with pytest.raises(romecore.PluginError):
                Batch(game, 2, seed=0).observation_tensor()


def test_tensors_for_a_given_seat_equal_the_states():
    games = [romecore.load_game(g, players=3) for g in romecore.list_games()]
    games = [g for g in games if has_tensor(g)]
    if not games:
        pytest.skip("no game has an observation tensor yet")
    for game in games:
        batch = Batch(game, 4, seed=6)
        for _ in range(40):
            batch.step(batch.random_actions())
        seats = np.array([2, 0, 1, 2], np.int32)
        out = np.full((4, game.observation_tensor_size()), -1, np.float32)
        assert batch.observation_tensor(player=seats, out=out) is out
        for i in range(4):
            assert np.array_equal(out[i], batch.state(i).observation_tensor(int(seats[i])))
        fixed = batch.observation_tensor(player=1)
        for i in range(4):
            assert np.array_equal(fixed[i], batch.state(i).observation_tensor(1))
