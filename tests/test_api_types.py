"""Every public method of State and Game, fed wrong types and out-of-range values: it either
accepts the value (a seed of -1 is a seed) or raises a romecore error, and a refused call
leaves the state exactly as it was.  Built-in exceptions never escape as other types."""

from __future__ import annotations

import importlib.resources
import inspect
import math
import subprocess
import sys
from pathlib import Path

import pytest

import romecore

BAD_VALUES = [None, "x", "", 1.5, float("nan"), -1, 2**31, -(2**31) - 1, 2**70, -(2**70), [], [1],
              {}, {"players": "x"}, b"\x00", object(), (1, 2)]


def _mid_game(game: romecore.Game) -> romecore.State:
    s = game.new_initial_state(seed=11)
    for i in range(30):
        nxt = s.clone()
        if nxt.is_chance_node():
            nxt.apply_random_chance()
        else:
            acts = nxt.legal_actions()
            nxt.apply_action(acts[i % len(acts)])
        if nxt.is_terminal():
            break
        s = nxt
    return s


def _good_args(state: romecore.State) -> dict[str, object]:
    return {"action": state.legal_actions()[0], "player": 0, "seed": 1, "text": "x",
            "history": True, "blob": state.serialize(), "d": state.to_dict(), "out": None}


def _public_methods(obj: object) -> list[tuple[str, inspect.Signature]]:
    out = []
    for name in dir(obj):
        if name.startswith("_"):
            continue
        attr = getattr(obj, name)
        if not callable(attr) or isinstance(attr, type):
            continue
        sig = inspect.signature(attr)
        if sig.parameters:
            out.append((name, sig))
    return out


def _calls(obj: object, good: dict[str, object]):
    """(method name, bad parameter, bad value, kwargs) for every public method taking
    arguments, each parameter in turn wrong and the others right."""
    for name, sig in _public_methods(obj):
        params = list(sig.parameters)
        for bad_param in params:
            for value in BAD_VALUES:
                kwargs = {p: good[p] for p in params}
                kwargs[bad_param] = value
                yield name, bad_param, value, kwargs


def test_every_state_method_refuses_bad_values_with_romecore_errors(game):
    base = _mid_game(game)
    good = _good_args(base)
    tried = 0
    for name, bad_param, value, kwargs in _calls(base, good):
        s = base.clone()
        before, hist = s.state_bytes(), s.history()
        try:
            getattr(s, name)(**kwargs)
        except romecore.RomecoreError:
            assert s.state_bytes() == before and s.history() == hist, (name, bad_param, value)
        except Exception as e:  # pragma: no cover - the failure this test exists to show
            pytest.fail(f"state.{name}({bad_param}={value!r}) raised {type(e).__name__}: {e}")
        tried += 1
    assert tried > 100


def test_every_game_method_refuses_bad_values_with_romecore_errors(game):
    good = _good_args(_mid_game(game))
    for name, bad_param, value, kwargs in _calls(game, good):
        try:
            getattr(game, name)(**kwargs)
        except romecore.RomecoreError:
            pass
        except Exception as e:  # pragma: no cover
            pytest.fail(f"game.{name}({bad_param}={value!r}) raised {type(e).__name__}: {e}")


@pytest.mark.parametrize("player", [-1, 99, 2**70])
def test_player_out_of_range_is_a_value_error_and_a_romecore_error(game, player):
    s = _mid_game(game)
    for method in (s.observation, s.observation_string, s.information_state_string,
                   s.score_breakdown, s.render):
        with pytest.raises(romecore.InvalidArgumentError, match="out of range"):
            method(player)
    with pytest.raises(ValueError):  # callers' `except ValueError` keeps working
        s.resample(player, 1)


@pytest.mark.parametrize("player", [None, "0", 1.0])
def test_player_of_wrong_type_is_a_type_error_and_a_romecore_error(game, player):
    s = _mid_game(game)
    with pytest.raises(romecore.ArgumentTypeError, match="player must be an int"):
        s.observation(player)
    with pytest.raises(TypeError):
        s.resample(player)


def test_action_to_string_refuses_non_integers(game):
    s = _mid_game(game)
    with pytest.raises(romecore.IllegalActionError, match="an action is an int"):
        s.action_to_string(1.5)


def test_seed_of_wrong_type(game):
    with pytest.raises(romecore.ArgumentTypeError, match="seed must be an integer"):
        game.new_initial_state(seed="x")
    with pytest.raises(romecore.SerializationError, match="seed"):
        game.state_from_dict({"seed": "x"})


# -- the typed API --------------------------------------------------------------------------
PLUGIN_PACKAGES = ["romecore_alphabeta", "romecore_greedy", "romecore_ismcts", "romecore_learned",
                   "romecore_mcts", "romecore_random", "romecore_search"]
MYPY_CONFIG = """[mypy]
python_version = 3.11
mypy_path = {root}/src:{root}/src/plugins
follow_imports = silent
"""


def test_the_public_api_type_checks_under_mypy_strict(tmp_path):
    """tests/typing/check_api.py asserts the types a program sees (``make_agent`` an Agent,
    ``step`` an int, ...); ``follow_imports = silent`` keeps the rest of the tree's own
    findings out of this test."""
    pytest.importorskip("mypy")
    root = Path(__file__).resolve().parent.parent
    config = tmp_path / "mypy.ini"
    config.write_text(MYPY_CONFIG.format(root=root))
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
                           "--cache-dir", str(tmp_path / "cache"), str(root / "tests/typing/check_api.py")],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("package", PLUGIN_PACKAGES)
def test_plugin_packages_ship_py_typed(package):
    assert importlib.resources.files(package).joinpath("py.typed").is_file()


def test_observation_tensor_shape_is_a_tuple_of_ints(game):
    shape = game.observation_tensor_shape()
    assert type(shape) is tuple and shape and all(type(n) is int and n > 0 for n in shape)
    assert math.prod(shape) == game.observation_tensor_size()


def test_make_agent_and_make_evaluator_return_the_documented_types():
    game = romecore.load_game("great_city_of_rome", players=2)
    for name in romecore.list_agents():
        agent = romecore.make_agent(name, game, seed=1)
        assert isinstance(agent, romecore.Agent) and isinstance(agent.impl, romecore.StepAgent), name
    assert isinstance(romecore.make_evaluator(game), romecore.Evaluator)
