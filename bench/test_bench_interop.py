"""Side by side with OpenSpiel, on the same game and machine, one core:

- tree search: romecore's ``mcts`` and ``ismcts`` agents against OpenSpiel's C++ MCTS
  (``pyspiel.MCTSBot.mcts_search``) and OpenSpiel's Python ISMCTS driving the same
  romecore game through :mod:`romecore.interop.openspiel`, all from the same position
  with uniformly random rollouts to the end;
- the Python step loop (``legal_actions()`` + ``apply_action()``): romecore's own, the same
  loop through the OpenSpiel adapter, and OpenSpiel on its own C++ ``hearts``.

    python -m pytest bench/test_bench_interop.py --benchmark-enable --benchmark-columns=mean,ops
    python bench/interop_ratios.py        # the same cases as a table of rates and ratios

OpenSpiel's C++ ``ISMCTSBot`` is not among them: OpenSpiel's bridge for Python games does
not forward ``ResampleFromInfostate``, so it stops with "ResampleFromInfostate() not
implemented" on any Python game.  ``pyspiel.MCTSBot.step`` releases the GIL before calling
back into Python and crashes on Python games (OpenSpiel's own ``python_tic_tac_toe``
too), so the C++ MCTS is timed through ``mcts_search``, which keeps the GIL.
"""

from __future__ import annotations

import warnings

import pytest

pyspiel = pytest.importorskip("pyspiel")
np = pytest.importorskip("numpy")
mcts = pytest.importorskip("open_spiel.python.algorithms.mcts")
ismcts = pytest.importorskip("open_spiel.python.algorithms.ismcts")

import romecore  # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    import romecore.interop.openspiel as ros  # noqa: E402

    GAME_IDS = romecore.list_games()

PLAYERS = 4  # every game allows 4

#: Simulations per search: enough for a fraction of a second in each engine.
OUR_SIMS = 1000
OPENSPIEL_CPP_SIMS = 100
OPENSPIEL_PY_SIMS = 60
UCT_C = 0.7  # romecore's default; rewards lie in [0, 1] in both engines


def search_position(game_id: str) -> romecore.State:
    """The first decision after set-up (seed 1) as its player may know it."""
    game = romecore.load_game(game_id, players=PLAYERS)
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    while len(state.legal_actions()) < 3:  # a position with a real choice
        state.apply_action(state.legal_actions()[0])
        state.resolve_chance()
    return state.resample(state.current_player(), seed=2)


# -- search: one callable per engine, each running one search from the position ---------


def ours(kind: str, game_id: str, sims: int = OUR_SIMS):
    view = search_position(game_id)
    agent = romecore.make_agent(f"{kind}:simulations={sims},c={UCT_C}"
                                + (",reuse=false" if kind == "mcts" else ""),
                                game=view.game, seed=1)
    return sims, lambda: agent.step(view)


def openspiel_cpp_mcts(game_id: str, sims: int = OPENSPIEL_CPP_SIMS):
    view = ros.wrap(search_position(game_id))
    bot = pyspiel.MCTSBot(view.get_game(), pyspiel.RandomRolloutEvaluator(1, 1), UCT_C, sims,
                          1000, False, 1, False)
    return sims, lambda: bot.mcts_search(view)


def openspiel_py_ismcts(game_id: str, sims: int = OPENSPIEL_PY_SIMS, evaluator: str = "openspiel"):
    view = ros.wrap(search_position(game_id))
    ev = (mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)) if evaluator == "openspiel"
          else ros.PlayoutEvaluator(1, np.random.RandomState(1)))
    bot = ismcts.ISMCTSBot(view.get_game(), ev, UCT_C, sims, random_state=np.random.RandomState(2))
    return sims, lambda: bot.run_search(view)


# -- the Python step loop ------------------------------------------------------------


def step_loop(root):
    """One ``legal_actions()`` + ``apply_action()`` per call, from ``root`` again at the end
    (works for romecore and OpenSpiel states alike)."""
    box = [root.clone(), 0]

    def step():
        s = box[0]
        if s.is_terminal():
            s = box[0] = root.clone()
        legal = s.legal_actions()
        s.apply_action(legal[box[1] % len(legal)])
        box[1] += 1

    return step


def romecore_root(game_id: str):
    return romecore.load_game(game_id, players=PLAYERS).new_initial_state(seed=1)


def adapter_root(game_id: str):
    return ros.load_game(game_id, players=PLAYERS).new_initial_state()


def hearts_root():
    return pyspiel.load_game("hearts").new_initial_state()


# -- pytest-benchmark -------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("engine", ["romecore_mcts", "openspiel_cpp_mcts",
                                    "romecore_ismcts", "openspiel_py_ismcts"])
def test_search(benchmark, engine, game_id):
    if engine == "romecore_mcts":
        sims, run = ours("mcts", game_id)
    elif engine == "romecore_ismcts":
        sims, run = ours("ismcts", game_id)
    elif engine == "openspiel_cpp_mcts":
        sims, run = openspiel_cpp_mcts(game_id)
    else:
        sims, run = openspiel_py_ismcts(game_id)
    benchmark.extra_info["simulations_per_call"] = sims
    benchmark.pedantic(run, rounds=3, iterations=1, warmup_rounds=1)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_step_loop_romecore(benchmark, game_id):
    benchmark(step_loop(romecore_root(game_id)))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_step_loop_through_openspiel_adapter(benchmark, game_id):
    benchmark(step_loop(adapter_root(game_id)))


def test_step_loop_openspiel_hearts(benchmark):
    benchmark(step_loop(hearts_root()))
