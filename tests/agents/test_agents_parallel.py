"""Root parallelism: workers=K searches in K processes from a msgpack snapshot and adds up
the root statistics.  (Two process pools for the whole module: starting one costs a
second or two.)"""

from __future__ import annotations

import time

import agent_positions as ap
import pytest

import romecore


@pytest.fixture(scope="module")
def game():
    return romecore.load_game("great_city_of_rome", players=2)


@pytest.fixture(scope="module")
def mcts2(game):
    agent = romecore.make_agent("mcts:simulations=400,workers=2", game=game, seed=7)
    yield agent
    agent.close()


@pytest.fixture(scope="module")
def ismcts2(game):
    agent = romecore.make_agent("ismcts:time=0.2,workers=2", game=game, seed=7)
    yield agent
    agent.close()


def test_workers_merge_root_statistics(mcts2):
    state = ap.last_turn()
    mcts2.reseed(7)
    assert mcts2.step(state) == ap.build_market(state)
    root = mcts2.stats["root"]
    assert sum(n for _, n, _ in root) == 800  # both workers' visits
    assert mcts2.stats["iterations"] == 800
    mcts2.reseed(7)
    assert mcts2.step(state) == ap.build_market(state)
    assert mcts2.stats["root"] == root  # same seed, same searches
    place = ap.last_turn_place()
    assert mcts2.step(place) in ap.next_to_house(place)


def test_workers_search_differently_from_one_process(game, mcts2):
    """Worker k searches with its own seed: the merged counts are not one search doubled."""
    state = game.new_initial_state(seed=3)
    state.resolve_chance()
    mcts2.reseed(1)
    mcts2.step(state)
    single = romecore.make_agent("mcts:simulations=400", game=game, seed=1)
    single.step(state)
    doubled = [(a, 2 * n) for a, n, _ in single.stats["root"]]
    assert [(a, n) for a, n, _ in mcts2.stats["root"]] != doubled


def test_workers_keep_the_time_budget(game, ismcts2):
    state = game.new_initial_state(seed=4)
    state.resolve_chance()
    for _ in range(2):
        t0 = time.perf_counter()
        assert ismcts2.step(state) in state.legal_actions()
        assert time.perf_counter() - t0 < 0.3
        assert ismcts2.stats["iterations"] > 0
        state.apply_action(state.legal_actions()[0])
        state.resolve_chance()


def test_workers_agent_shared_by_two_threads(mcts2):
    """Two threads step one root-parallel agent at once (the pool takes both searches):
    each gets the move and merged counts a lone step gives."""
    import threading

    state = ap.last_turn()
    mcts2.reseed(7)
    alone = mcts2.step(state)
    root = mcts2.stats["root"]
    results, errors = [None, None], []

    def work(t):
        try:
            results[t] = mcts2.step(state.clone())
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(60)
    assert not errors and not any(th.is_alive() for th in threads)
    assert results == [alone, alone] and alone == ap.build_market(state)
    assert mcts2.stats["root"] == root  # both searches merged exactly what one does


def test_step_after_close_is_refused(game):
    agent = romecore.make_agent("mcts:simulations=20,workers=2", game=game, seed=1)
    agent.close()
    agent.close()  # twice is fine
    with pytest.raises(romecore.RomecoreError):
        agent.step(ap.last_turn())
