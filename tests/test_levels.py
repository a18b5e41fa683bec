"""Named levels (issue 53): every game offers Beginner ... Maximum, each an agent spec its
plugin chose, with a budget that load cannot shorten (iterations or CPU seconds)."""

from __future__ import annotations

import dataclasses
import random

import pytest
from click.testing import CliRunner

import romecore
from romecore.cli import main
from romecore.errors import PluginError
from romecore.plugins import registry

#: The issue's names, weakest first, written out here rather than read from romecore.
NAMES = ("Beginner", "Casual", "Strong", "Expert", "Maximum")
GAMES = romecore.list_games()
LEVEL_CASES = [(g, name) for g in GAMES for name in NAMES]


def params_of(spec: str) -> tuple[str, dict[str, str]]:
    """A spec's agent name and parameters, split by hand (the format is ``name:k=v,k=v``)."""
    name, _, rest = spec.partition(":")
    pairs = [p.split("=", 1) for p in rest.split(",") if p]
    return name, {k: v for k, v in pairs}


def midgame_view(game: romecore.Game, seed: int) -> romecore.State:
    """The view of the seat to move some random moves into a game."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    decisions = 0
    while not state.is_terminal() and decisions < 12:
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        decisions += 1
    while state.is_chance_node():
        state.apply_random_chance()
    assert not state.is_terminal()
    return state.resample(state.current_player(), seed=seed + 1)


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_has_the_five_levels_in_order(game_id):
    levels = registry.game(game_id).levels
    assert tuple(levels) == NAMES
    assert len(set(levels.values())) == len(NAMES)  # five different agents


@pytest.mark.parametrize("game_id,level", LEVEL_CASES)
def test_every_level_has_a_budget_load_cannot_shorten(game_id, level):
    name, params = params_of(registry.game(game_id).levels[level])
    table = registry.agent(name).params
    if "time" in params:
        assert float(params["time"]) > 0
        assert params.get("clock") == "cpu", "a time budget must count CPU seconds, not wall"
    elif "time" in table:  # a search without a time budget must count its iterations
        counts = [int(params[k]) for k in ("simulations", "nodes") if k in params]
        assert counts and min(counts) > 0, "a search level names its iteration budget"
    if level == "Beginner" and "time" in params:
        assert float(params["time"]) <= 0.05


@pytest.mark.parametrize("game_id,level", LEVEL_CASES)
def test_every_level_builds_an_agent_that_plays_a_legal_move(game_id, level):
    """From the seat to move's resampled view.  The levels that think for seconds of CPU
    (Expert, Maximum) are built with a 0.01 s budget here, the rest of their spec as is."""
    game = romecore.load_game(game_id, players=2)
    spec = registry.game(game_id).levels[level]
    name, params = params_of(spec)
    if "time" in params:
        params["time"] = "0.01"
        spec = name + ":" + ",".join(f"{k}={v}" for k, v in params.items())
    view = midgame_view(game, seed=5)
    agent = romecore.make_agent(spec, game, seed=3)
    assert agent.step(view.clone()) in view.legal_actions()


@pytest.mark.parametrize("game_id", GAMES)
def test_level_names_ignore_case_and_level_specs_build(game_id):
    game = romecore.load_game(game_id)
    levels = registry.game(game_id).levels
    for name in NAMES:
        assert romecore.level_spec(game, name) == levels[name]
        assert romecore.level_spec(game_id, f" {name.upper()} ") == levels[name]
    agent = romecore.make_agent("level:beginner", game, seed=1)
    assert agent.spec == "level:beginner"
    assert type(agent) is type(romecore.make_agent(levels["Beginner"], game, seed=1))


@pytest.mark.parametrize("bad", ["Grandmaster", "", "Beginners", "level"])
def test_a_bad_level_name_is_refused_with_the_valid_names(bad):
    game = romecore.load_game("rise_to_power")
    with pytest.raises(romecore.AgentSpecError) as err:
        romecore.level_spec(game, bad)
    assert all(name in str(err.value) for name in NAMES)
    with pytest.raises(romecore.AgentSpecError):
        romecore.make_agent(f"level:{bad}", game)


def test_a_plugin_must_name_the_levels_in_order():
    spec = registry.game("rise_to_power")
    swapped = dict(spec.levels)
    swapped["Beginner"], swapped["Casual"] = swapped["Casual"], swapped["Beginner"]
    reordered = {"Casual": spec.levels["Casual"], **{k: v for k, v in spec.levels.items() if k != "Casual"}}
    dataclasses.replace(spec, levels=swapped)  # other specs, same order: fine
    dataclasses.replace(spec, levels={})  # no levels: fine
    with pytest.raises(PluginError):
        dataclasses.replace(spec, levels=reordered)
    with pytest.raises(PluginError):
        dataclasses.replace(spec, levels={k: v for k, v in spec.levels.items() if k != "Expert"})
    with pytest.raises(PluginError):
        dataclasses.replace(spec, levels={**spec.levels, "Maximum": "ismcts:time"})


def test_games_params_lists_each_games_levels():
    out = CliRunner().invoke(main, ["games", "--params"], catch_exceptions=False)
    assert out.exit_code == 0, out.output
    for game_id in GAMES:
        for name, spec in registry.game(game_id).levels.items():
            assert f"level {name}" in out.output and spec in out.output
    assert "level Beginner" not in CliRunner().invoke(main, ["games"]).output
