"""Search speed, one core: simulations per second of MCTS and ISMCTS with random rollouts,
nodes per second of alpha-beta, and a greedy move, at each installed game's start
position (the first decision after the set-up chance events).

    python -m pytest bench/test_bench_search.py --benchmark-enable --benchmark-columns=mean,ops

``extra_info`` holds the rate (simulations or nodes per second) and the issue's target
where there is one (The Great City of Rome, 4 players: mcts >= 10,000 simulations/s).
"""

from __future__ import annotations

import warnings

import pytest

import romecore
from romecore.plugins import registry

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    GAMES = [(gid, min(spec.max_players, 4)) for gid, spec in registry.games().items()]
    AGENTS = set(registry.agents())

SIMULATIONS = 2000
TARGETS = {("great_city_of_rome", "mcts"): 10_000}


def start_position(game: romecore.Game) -> romecore.State:
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
        state.resolve_chance()
    return state


@pytest.fixture(params=GAMES, ids=[f"{g}-{n}p" for g, n in GAMES])
def game(request):
    gid, n = request.param
    return romecore.load_game(gid, players=n)


def _rate(benchmark, work: int, name: str, game: romecore.Game, unit: str) -> None:
    benchmark.extra_info[f"{unit}_per_s"] = round(work / benchmark.stats.stats.mean)
    target = TARGETS.get((game.game_id, name))
    if target:
        benchmark.extra_info[f"target_{unit}_per_s"] = target


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_tree_search_simulations(benchmark, game, name):
    if name not in AGENTS:
        pytest.skip(f"{name} not installed")
    state = start_position(game)
    agent = romecore.make_agent(f"{name}:simulations={SIMULATIONS}" + (",reuse=0" if name == "mcts" else ""),
                                game=game, seed=1)
    benchmark.pedantic(agent.step, args=(state,), rounds=5, warmup_rounds=1)
    _rate(benchmark, SIMULATIONS, name, game, "simulations")


@pytest.mark.parametrize("algorithm", ["paranoid", "brs"])
def test_alphabeta_nodes(benchmark, game, algorithm):
    if "alphabeta" not in AGENTS:
        pytest.skip("alphabeta not installed")
    state = start_position(game)
    agent = romecore.make_agent(f"alphabeta:nodes=20000,algorithm={algorithm}", game=game, seed=1)
    benchmark.pedantic(agent.step, args=(state,), rounds=3, warmup_rounds=1)
    _rate(benchmark, agent.stats["iterations"], "alphabeta", game, "nodes")
    benchmark.extra_info["depth"] = agent.stats["depth"]


def test_greedy_move(benchmark, game):
    if "greedy" not in AGENTS:
        pytest.skip("greedy not installed")
    state = start_position(game)
    agent = romecore.make_agent("greedy", game=game, seed=1)
    benchmark(agent.step, state)
    benchmark.extra_info["evaluations"] = agent.stats["iterations"]
