"""Every public method of State and Game, fed wrong types and out-of-range values: it either
accepts the value (a seed of -1 is a seed) or raises a romecore error, and a refused call
leaves the state exactly as it was.  Built-in exceptions never escape as other types."""

from __future__ import annotations

import importlib
import importlib.resources
import inspect
import math
import pickle
import random
import re
import subprocess
import sys
import types
import typing
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


def _expected_errors(path: Path) -> set[tuple[int, str]]:
    """(line, error code) of every line marked ``# error: <code>``."""
    marks = (re.search(r"# error: ([\w-]+)$", line) for line in path.read_text().splitlines())
    return {(n, m[1]) for n, m in enumerate(marks, 1) if m}


def test_the_public_api_type_checks_under_mypy_strict(tmp_path):
    """tests/typing/check_api.py asserts the types a program sees (``make_agent`` an Agent,
    ``step`` an int, each game's typed dicts, ...) and must pass; tests/typing/misspelt_keys.py
    must fail on exactly its marked lines (misspelt keys of the typed dicts).  One mypy run
    checks both; ``follow_imports = silent`` keeps the rest of the tree's own findings out."""
    pytest.importorskip("mypy")
    root = Path(__file__).resolve().parent.parent
    good, bad = root / "tests/typing/check_api.py", root / "tests/typing/misspelt_keys.py"
    config = tmp_path / "mypy.ini"
    config.write_text(MYPY_CONFIG.format(root=root))
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file", str(config),
                           "--cache-dir", str(tmp_path / "cache"), str(good), str(bad)],
                          capture_output=True, text=True, timeout=600, cwd=root)
    errors = [line for line in proc.stdout.splitlines() if ": error: " in line]
    assert not [e for e in errors if (root / e.split(":")[0]).resolve() != bad], proc.stdout + proc.stderr
    found = {(int(e.split(":")[1]), e.rsplit("[", 1)[1].rstrip("]")) for e in errors}
    assert found == _expected_errors(bad), proc.stdout + proc.stderr
    assert len(found) >= 12


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


# -- the games' typed dicts ----------------------------------------------------------------
def _mismatches(value: object, hint: object, path: str) -> list[str]:
    """Where ``value`` differs from the type ``hint``: a TypedDict's required key missing, a
    key it does not declare, or a value of another type (``bool`` is not an ``int`` here)."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if typing.is_typeddict(hint):
        if type(value) is not dict:
            return [f"{path}: {type(value).__name__}, not dict"]
        hints = typing.get_type_hints(hint)
        out = [f"{path}: {k!r} missing" for k in sorted(hint.__required_keys__ - value.keys())]
        out += [f"{path}: {k!r} undeclared" for k in sorted(value.keys() - hints.keys(), key=str)]
        for k in value.keys() & hints.keys():
            out += _mismatches(value[k], hints[k], f"{path}.{k}")
        return out
    if origin in (typing.Union, types.UnionType):
        return [] if any(not _mismatches(value, a, path) for a in args) else [f"{path}: {value!r:.60} is not {hint}"]
    if origin in (list, dict, tuple) and type(value) is not origin:
        return [f"{path}: {type(value).__name__}, not {origin.__name__}"]
    if origin is list:
        return [m for i, v in enumerate(value) for m in _mismatches(v, args[0], f"{path}[{i}]")]
    if origin is dict:
        return [m for k, v in value.items()
                for m in _mismatches(k, args[0], f"{path} key") + _mismatches(v, args[1], f"{path}[{k!r}]")]
    if origin is tuple:
        if len(args) != len(value):
            return [f"{path}: {len(value)} items, not {len(args)}"]
        return [m for i, (v, a) in enumerate(zip(value, args)) for m in _mismatches(v, a, f"{path}[{i}]")]
    if origin is typing.Literal:
        return [] if value in args and type(value) is type(args[0]) else [f"{path}: {value!r:.60} is not in {hint}"]
    if hint is type(None):
        return [] if value is None else [f"{path}: {value!r:.60} is not None"]
    return [] if type(value) is hint else [f"{path}: {type(value).__name__}, not {hint.__name__}"]


def _typed_dicts(state: romecore.State) -> tuple[type, type]:
    """The TypedDicts of ``to_dict`` and ``observation`` for a state of one of the games, found
    by the convention the stubs follow: module ``<game>.types``, names ``<Prefix>Dict`` and
    ``<Prefix>Observation`` beside ``<Prefix>State``."""
    cls = type(state)
    module = importlib.import_module(cls.__module__.rsplit(".", 1)[0] + ".types")
    prefix = cls.__name__.removesuffix("State")
    return getattr(module, prefix + "Dict"), getattr(module, prefix + "Observation")


def test_the_checker_of_typed_dicts_finds_what_it_must():
    """The oracle of the next test: a real observation passes; a key removed, a key added, a
    value of another type, an element of a list, all are found."""
    game = romecore.load_game("rise_to_power", players=2)
    state = _mid_game(game)
    _, obs_type = _typed_dicts(state)
    obs = state.observation(0)
    assert _mismatches(obs, obs_type, "obs") == []
    for change, found in [(lambda o: o.pop("tracks"), "'tracks' missing"),
                          (lambda o: o.update(trak=1), "'trak' undeclared"),
                          (lambda o: o.update(consul=1), "obs.consul: int, not bool"),
                          (lambda o: o["players"][0].update(hand=[]), "'hand' undeclared"),
                          (lambda o: o["order"].append("0"), "obs.order[2]: str, not int"),
                          (lambda o: o.update(activation={}), "obs.activation"),
                          (lambda o: o.update(hand=[("x",)]), "1 items, not 2"),
                          (lambda o: o.update(phase="rol"), "obs.phase: 'rol' is not in")]:
        bad = state.observation(0)
        change(bad)
        assert any(found in m for m in _mismatches(bad, obs_type, "obs")), found


def _sampled_states(game: romecore.Game, seeds: int, every: int):
    """Every ``every``-th state of ``seeds`` random games, and each one's end."""
    for seed in range(seeds):
        state, rng = game.new_initial_state(seed=seed), random.Random(seed)
        for k in range(10**6):
            if k % every == 0 or state.is_terminal():
                yield state
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_random_chance()
            else:
                state.apply_action(rng.choice(state.legal_actions()))


def test_each_games_phase_literal_is_its_phases(game):
    state = game.new_initial_state(seed=1)
    types_module = importlib.import_module(type(state).__module__.rsplit(".", 1)[0] + ".types")
    assert typing.get_args(types_module.Phase) == importlib.import_module(type(state).__module__).PHASES


def _check_typed_dicts(game: romecore.Game) -> None:
    rng = random.Random(0)
    checked = 0
    for state in _sampled_states(game, seeds=2, every=7):
        dict_type, obs_type = _typed_dicts(state)
        assert _mismatches(state.to_dict(history=checked % 2 == 0), dict_type, "to_dict") == []
        assert _mismatches(state.observation(rng.randrange(game.num_players())), obs_type, "observation") == []
        checked += 1
    assert checked > 10


def test_to_dict_and_observation_are_their_games_typed_dicts(game):
    """Over random states of every game and player count: each required key is there, no
    undeclared key appears, every value has its declared type, at every depth."""
    _check_typed_dicts(game)


@pytest.mark.parametrize("game_id,options", [("rise_to_power", {"intrigue": "all"}),
                                             ("glory_to_rome", {"training": True})])
def test_typed_dicts_hold_under_game_options(game_id, options):
    _check_typed_dicts(romecore.load_game(game_id, players=3, **options))


# -- pickling agents ------------------------------------------------------------------------
PICKLED_SPECS = ["random", "greedy", "mcts:simulations=30", "ismcts:simulations=30", "alphabeta:depth=1",
                 "level:beginner"]


def _positions(game: romecore.Game, n: int) -> list[romecore.State]:
    """n positions with a player to move, from one seeded game."""
    s, out, i = game.new_initial_state(seed=5), [], 0
    while len(out) < n and not s.is_terminal():
        if s.is_chance_node():
            s.apply_random_chance()
            continue
        out.append(s.clone())
        acts = s.legal_actions()
        s.apply_action(acts[(3 * i) % len(acts)])
        i += 1
    return out


@pytest.mark.parametrize("spec", PICKLED_SPECS)
def test_an_agent_pickles_as_its_spec_game_and_seed(spec):
    game = romecore.load_game("great_city_of_rome", players=3)
    agent = romecore.make_agent(spec, game, seed=11)
    copy = pickle.loads(pickle.dumps(agent))
    assert type(copy) is romecore.Agent and copy is not agent and copy.impl is not agent.impl
    assert (copy.spec, copy.game, copy.seed) == (spec, game, 11)
    # The copy is the agent as make_agent builds it: it moves as a fresh one does.
    fresh = romecore.make_agent(spec, game, seed=11)
    views = [p.resample(p.current_player(), seed=i) for i, p in enumerate(_positions(game, 6))]
    assert [copy.step(v) for v in views] == [fresh.step(v) for v in views]


def test_an_agent_made_without_a_seed_pickles_with_the_seed_it_drew():
    game = romecore.load_game("great_city_of_rome", players=2)
    agent = romecore.make_agent("random", game)
    assert isinstance(agent.seed, int)
    assert pickle.loads(pickle.dumps(agent)).seed == agent.seed
    other = romecore.make_agent("random", game)
    assert other.seed != agent.seed  # drawn afresh (a clash has chance 2**-63)


def test_a_pickled_agent_loads_in_another_process():
    game = romecore.load_game("rise_to_power", players=2)
    agent = romecore.make_agent("mcts:simulations=40", game, seed=3)
    view = _positions(game, 4)[-1]
    view = view.resample(view.current_player(), seed=1)
    code = ("import pickle, sys; agent, view = pickle.loads(sys.stdin.buffer.read()); "
            "print(agent.step(view))")
    proc = subprocess.run([sys.executable, "-c", code], input=pickle.dumps((agent, view)),
                          capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    assert int(proc.stdout) == romecore.make_agent("mcts:simulations=40", game, seed=3).step(view)


# -- choose: the agent resamples for the caller ---------------------------------------------
class _Spy:
    """Stands in for a plugin's agent: records what ``step`` is handed, then asks the real one."""

    def __init__(self, inner: romecore.StepAgent) -> None:
        self.inner = inner
        self.seen: list[romecore.State] = []

    def step(self, state: romecore.State) -> int:
        self.seen.append(state)
        return self.inner.step(state)


def _spied(spec: str, game: romecore.Game, seed: int) -> tuple[romecore.Agent, _Spy]:
    agent = romecore.make_agent(spec, game, seed=seed)
    spy = _Spy(agent.impl)
    agent.impl = spy
    return agent, spy


def test_choose_hands_step_a_resample_never_the_true_state():
    game = romecore.load_game("great_city_of_rome", players=2)
    agent, spy = _spied("mcts:simulations=20", game, seed=4)
    positions = _positions(game, 12)
    redrawn = 0
    for true in positions:
        p, before, hist = true.current_player(), true.state_bytes(), true.history()
        action = agent.choose(true)
        world = spy.seen[-1]
        assert world is not true and world.history() == [] != hist  # a resample starts a new history
        assert world.information_state_string(p) == true.information_state_string(p)  # p's knowledge
        assert true.state_bytes() == before and true.history() == hist  # the true state is untouched
        assert action in true.legal_actions()
        redrawn += world.state_bytes() != before
    assert len(spy.seen) == len(positions)
    assert redrawn > 0  # what the player cannot see was redrawn, at least somewhere


def _chosen_worlds(spec: str, seed: int) -> tuple[list[int], list[bytes]]:
    game = romecore.load_game("great_city_of_rome", players=2)
    agent, spy = _spied(spec, game, seed)
    actions = [agent.choose(p) for p in _positions(game, 10)]
    return actions, [w.state_bytes() for w in spy.seen]


@pytest.mark.parametrize("spec", ["random", "mcts:simulations=20"])
def test_choose_is_deterministic_by_the_agents_seed(spec):
    assert _chosen_worlds(spec, 7) == _chosen_worlds(spec, 7)
    assert _chosen_worlds(spec, 7)[1] != _chosen_worlds(spec, 8)[1]


def test_choose_refuses_where_no_player_is_to_move():
    game = romecore.load_game("great_city_of_rome", players=2)
    agent = romecore.make_agent("random", game, seed=1)
    state = game.new_initial_state(seed=1)
    assert state.is_chance_node()
    with pytest.raises(romecore.IllegalActionError, match="chance node"):
        agent.choose(state)
    state.playout(seed=2)
    with pytest.raises(romecore.IllegalActionError, match="over"):
        agent.choose(state)
