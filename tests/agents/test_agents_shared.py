"""What the search plugins share: each agent's defaults live in its parameter table only
(make_agent and direct construction read the same values), and one PIMC routine votes
over resampled worlds for mcts and alphabeta."""

from __future__ import annotations

import random

import pytest

import romecore
from romecore.errors import AgentSpecError
from romecore.plugins import registry


def classes():
    from romecore_alphabeta import alphabeta
    from romecore_greedy import greedy
    from romecore_ismcts import ismcts
    from romecore_mcts import mcts

    return {"mcts": (mcts.MCTSAgent, mcts.PARAMS), "ismcts": (ismcts.ISMCTSAgent, ismcts.PARAMS),
            "alphabeta": (alphabeta.AlphaBetaAgent, alphabeta.PARAMS),
            "greedy": (greedy.GreedyAgent, greedy.PARAMS)}


AGENTS = ["mcts", "ismcts", "alphabeta", "greedy"]
#: A readable attribute per agent and the parameter it comes from.
ATTRIBUTES = {"mcts": [("c", "c"), ("max_nodes", "max_nodes"), ("reuse", "reuse"),
                       ("reuse_states", "reuse_states"), ("worlds", "pimc")],
              "ismcts": [("c", "c"), ("max_nodes", "max_nodes"), ("reuse", "reuse")],
              "alphabeta": [("chance_samples", "chance_samples"), ("ordering", "ordering"),
                            ("extend", "extend"), ("worlds", "pimc"), ("reuse", "reuse")],
              "greedy": [("samples", "samples"), ("max_depth", "max_depth")]}


@pytest.fixture(scope="module")
def game():
    return romecore.load_game("great_city_of_rome", players=3)


def midgame(game: romecore.Game, seed: int, steps: int = 30) -> romecore.State:
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(steps):
        state.resolve_chance()
        state.apply_action(rng.choice(state.legal_actions()))
    state.resolve_chance()
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
        state.resolve_chance()
    return state


@pytest.mark.parametrize("name", AGENTS)
def test_the_spec_table_is_the_class_table(name):
    """``romecore games --params`` shows the class's own table (plus ``workers`` where the
    spec adds root parallelism)."""
    _cls, table = classes()[name]
    spec = dict(registry.agent(name).params)
    spec.pop("workers", None)
    assert spec == table


@pytest.mark.parametrize("name", AGENTS)
def test_direct_construction_reads_the_table(name, game, monkeypatch):
    cls, table = classes()[name]
    agent = cls(game, 1)
    for attr, param in ATTRIBUTES[name]:
        expected = table[param][1]
        assert getattr(agent, attr) == (max(expected, 1) if param == "pimc" else expected)
    assert agent.budget == (0, 0.0)
    # A default changed in the table is what the class uses: no second copy anywhere.
    attr, param = ATTRIBUTES[name][0]
    typ, default, text = table[param]
    monkeypatch.setitem(table, param, (typ, default + 1, text))
    assert getattr(cls(game, 1), attr) == default + 1


@pytest.mark.parametrize("name", AGENTS)
def test_direct_construction_moves_like_make_agent(name, game):
    cls, _table = classes()[name]
    budget = {"mcts": "simulations=60", "ismcts": "simulations=60", "alphabeta": "nodes=300",
              "greedy": "nodes=200"}[name]
    key, value = budget.split("=")
    state = midgame(game, 5)
    made = romecore.make_agent(f"{name}:{budget}", game=game, seed=9)
    # make_agent applies the game's own defaults for the agent (GameSpec.agent_defaults_for)
    direct = cls(game, 9, **{**game.spec.agent_defaults_for(name, game.num_players()), key: int(value)})
    assert direct.step(state) == made.step(state)
    assert direct.stats["iterations"] == made.stats["iterations"]


@pytest.mark.parametrize("name", AGENTS)
def test_direct_construction_refuses_unknown_parameters(name, game):
    cls, _table = classes()[name]
    with pytest.raises(AgentSpecError, match="no_such"):
        cls(game, 1, no_such=1)
    with pytest.raises(AgentSpecError, match="workers"):
        cls(game, 1, workers=2)  # root parallelism is make_agent's (the spec's) business


@pytest.mark.parametrize("spec", ["mcts:simulations=600,pimc=3", "alphabeta:nodes=900,pimc=3",
                                  "mcts:simulations=400,pimc=4", "alphabeta:depth=2,pimc=4"])
@pytest.mark.parametrize("seed", [1, 2])
def test_pimc_vote(spec, seed, game):
    """One vote per world; the move is the most voted, ties broken by the summed first
    score (mcts: visits, alphabeta: value), then the lower action; stats add up."""
    worlds = int(spec.rsplit("=", 1)[1])
    state = midgame(game, seed)
    view = state.resample(state.current_player(), seed)
    agent = romecore.make_agent(spec, game=game, seed=seed)
    action = agent.step(view)
    votes = agent.stats["votes"]
    assert sum(votes.values()) == worlds
    assert set(votes) <= set(view.legal_actions())
    first = {a: rest[0] for a, *rest in agent.stats["root"]}
    assert action == max(votes, key=lambda a: (votes[a], first.get(a, 0), -a))
    if spec.startswith("mcts"):
        simulations = int(spec.split("simulations=")[1].split(",")[0])
        assert sum(n for _, n, _ in agent.stats["root"]) == simulations == agent.stats["iterations"]
    again = romecore.make_agent(spec, game=game, seed=seed)
    assert again.step(view.clone()) == action and again.stats["votes"] == votes
