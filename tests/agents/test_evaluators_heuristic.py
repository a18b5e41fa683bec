"""Every game's hand-written evaluator refuses what is not one of its game's states with
a romecore error (it reads the state's C struct, so anything else must never get there)."""

from __future__ import annotations

import warnings

import pytest

import romecore

GAMES = ("great_city_of_rome", "glory_to_rome", "city_of_marble", "rise_to_power")


def load(game_id):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return romecore.load_game(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_bad_states_raise_romecore_errors(game_id):
    pytest.importorskip(f"romecore.games.{game_id}.heuristic")
    ev = romecore.make_evaluator(load(game_id), "heuristic")
    other = load(next(g for g in GAMES if g != game_id)).new_initial_state(seed=1)
    methods = [ev.estimates] + ([ev.features] if hasattr(ev, "features") else [])
    for method in methods:
        for bad in (None, 3, "state", load(game_id)):
            with pytest.raises(romecore.errors.ArgumentTypeError):
                method(bad)
        with pytest.raises(romecore.errors.InvalidArgumentError):
            method(other)
    st = load(game_id).new_initial_state(seed=2)
    assert len(ev.estimates(st)) == st.num_players()
