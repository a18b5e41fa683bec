"""One seed rule at every entry point that takes a user's seed (``romecore.core.seeds``):
None draws a fresh seed, an int counts modulo 2**64 (so -1 is the seed 2**64 - 1 and 2**64 + 5
is 5), a bool or a non-integer raises ``ArgumentTypeError``.

The oracle is the rule itself applied by hand: two seeds that agree modulo 2**64 must give the
same game, and the checks also show that a different seed gives a different one (so an entry
point that ignored its seed would fail)."""

from __future__ import annotations

import numpy as np
import pytest

import romecore
from romecore.core.batch import Batch
from romecore.core.seeds import seed64
from romecore.match import play_game
from romecore.tournament import derive_seed

GAME_ID = "rise_to_power"
#: (seed given, the seed it must act as)
SAME = [(-1, 2**64 - 1), (2**64 + 5, 5), (-(2**70) + 3, 3), (np.int64(-2), 2**64 - 2), (np.uint64(9), 9)]
#: values that are no seed, each with a word of the error's message
REFUSED = [(True, "bool"), (False, "bool"), (np.True_, "bool"), ("7", "str"), (7.0, "float"), ([7], "list")]


@pytest.fixture(scope="module")
def game() -> romecore.Game:
    return romecore.load_game(GAME_ID, players=2)


def _deal(game: romecore.Game, seed: object) -> bytes:
    s = game.new_initial_state(seed=seed)
    s.resolve_chance()
    return s.serialize()


def _playout(game: romecore.Game, seed: object) -> list[int]:
    s = game.new_initial_state(seed=1)
    s.playout(seed)
    return s.history()


def _resampled(game: romecore.Game, seed: object) -> bytes:
    s = game.new_initial_state(seed=1)
    s.resolve_chance()
    return s.resample(0, seed).serialize()


def _batch_master(game: romecore.Game, seed: object) -> list[int]:
    return Batch(game, 3, seed=seed).game_seeds().tolist()


def _batch_reset(game: romecore.Game, seed: object) -> list[int]:
    b = Batch(game, 2, seed=0)
    b.reset(seeds=seed)
    return b.game_seeds().tolist()


def _batch_reset_list(game: romecore.Game, seed: object) -> list[int]:
    b = Batch(game, 2, seed=0)
    b.reset(seeds=[seed, 0])
    return b.game_seeds().tolist()


def _agent_moves(spec: str) -> object:
    def moves(game: romecore.Game, seed: object) -> list[int]:
        agent = romecore.make_agent(spec, game, seed=seed)
        s = game.new_initial_state(seed=3)
        out = []
        for _ in range(6):
            s.resolve_chance()
            a = agent.choose(s)
            out.append(a)
            s.apply_action(a)
        return out
    return moves


def _reseeded_moves(game: romecore.Game, seed: object) -> list[int]:
    agent = romecore.make_agent("mcts:simulations=30", game, seed=0)
    agent.reseed(seed)
    s = game.new_initial_state(seed=3)
    s.resolve_chance()
    return [agent.choose(s) for _ in range(3)]


def _played(game: romecore.Game, seed: object) -> list[int]:
    agents = [romecore.make_agent("random", game, seed=i) for i in range(2)]
    return play_game(game, agents, seed).actions


ENTRY_POINTS = {
    "new_initial_state": _deal, "playout": _playout, "resample": _resampled, "Batch": _batch_master,
    "Batch.reset": _batch_reset, "Batch.reset list": _batch_reset_list,
    "make_agent random": _agent_moves("random"), "make_agent mcts": _agent_moves("mcts:simulations=30"),
    "make_agent greedy": _agent_moves("greedy"), "Agent.reseed": _reseeded_moves, "play_game": _played,
    "derive_seed": lambda game, seed: derive_seed(seed, 1, 2),
}


def test_the_rule_by_hand():
    assert seed64(0) == 0
    assert seed64(2**64 - 1) == 2**64 - 1
    for given, means in SAME:
        assert seed64(given) == means
    assert 0 <= seed64(None) < 2**64
    assert seed64(None) != seed64(None)  # fresh each time (equal once in 2**64)


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_seeds_equal_modulo_2_64_give_the_same_game(game, name):
    run = ENTRY_POINTS[name]
    for given, means in SAME:
        assert run(game, given) == run(game, means), f"{name}: seed {given!r} is not seed {means}"
    assert run(game, 5) != run(game, 6), f"{name} ignores its seed"


@pytest.mark.parametrize("name", ENTRY_POINTS)
@pytest.mark.parametrize("value,word", REFUSED, ids=[repr(v) for v, _ in REFUSED])
def test_a_bool_or_non_integer_is_refused_as_a_type_error(game, name, value, word):
    if name.startswith("Batch.reset") and word in ("str", "list"):
        pytest.skip("Batch.reset reads a sequence as one seed per slot (tests/test_batch.py)")
    with pytest.raises(romecore.ArgumentTypeError, match=f"must be .*, got {word}"):
        ENTRY_POINTS[name](game, value)


def test_agent_and_record_keep_the_64_bit_seed(game):
    assert romecore.make_agent("random", game, seed=-1).seed == 2**64 - 1
    agents = [romecore.make_agent("random", game, seed=i) for i in range(2)]
    assert play_game(game, agents, -1).seed == 2**64 - 1
    assert isinstance(romecore.make_agent("random", game).seed, int)


def test_a_master_seed_is_never_none():
    with pytest.raises(romecore.ArgumentTypeError, match="master seed"):
        derive_seed(None, 1)


def test_a_tournament_refuses_a_bool_seed_before_writing_anything(tmp_path):
    out = tmp_path / "t.jsonl"
    with pytest.raises(romecore.ArgumentTypeError, match="got bool"):
        romecore.tournament.run(GAME_ID, ["random", "random"], games=2, players=2, seed=True,
                                backend="inline", out=str(out))
    assert not out.exists()
