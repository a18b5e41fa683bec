"""SearchAgent.stop: a search under way in another thread ends at its next look at the
budget and returns a legal move (the web app stops searches of games that end or are left)."""

from __future__ import annotations

import threading
import time

import pytest

import romecore

SPECS = ["ismcts:time=60", "mcts:time=60", "alphabeta:time=60", "mcts:simulations=100000000,pimc=3"]


def _decision(game_id):
    game = romecore.load_game(game_id, players=2)
    state = game.new_initial_state(seed=3)
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_action(state.legal_actions()[0])
    return game, state


@pytest.mark.parametrize("spec", SPECS)
def test_stop_ends_a_long_search_with_a_legal_move(spec):
    game, state = _decision("rise_to_power")
    agent = romecore.make_agent(spec, game=game, seed=1)
    view = state.resample(state.current_player(), seed=1)
    out: list[int] = []
    worker = threading.Thread(target=lambda: out.append(agent.step(view)))
    worker.start()
    time.sleep(0.2)
    deadline = time.monotonic() + 20  # the budget is 60 s: only stop() ends it sooner
    while worker.is_alive() and time.monotonic() < deadline:
        agent.stop()
        worker.join(0.02)
    assert not worker.is_alive(), f"{spec} did not stop"
    assert out and state.is_legal(out[0])


def test_stop_with_no_search_under_way_changes_nothing():
    game, state = _decision("great_city_of_rome")
    a = romecore.make_agent("ismcts:simulations=200", game=game, seed=5)
    b = romecore.make_agent("ismcts:simulations=200", game=game, seed=5)
    a.stop()  # before any step: the next search starts its own budget
    view = state.resample(state.current_player(), seed=2)
    assert a.step(view) == b.step(view)
    assert a.stats["iterations"] == b.stats["iterations"] == 200
