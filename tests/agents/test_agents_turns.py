"""Turn-aware tree search: evaluations only where a turn ends, whole turns expanded in one
iteration, and per-game agent defaults from the game's GameSpec."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Callable

import pytest

import romecore
from romecore.core.state import Game
from romecore.errors import AgentSpecError


def marble_turn_start(seed: int = 3) -> romecore.State:
    game = romecore.load_game("city_of_marble", players=2)
    state = game.new_initial_state(seed=seed)
    state.resolve_chance()
    return state


def mid_turn(state: romecore.State) -> bool:
    """City of Marble oracle from the rulebook ("You must take two actions per turn"): a
    decision is in the middle of a turn unless it is the first action's choice."""
    if state.is_terminal() or state.is_chance_node():
        return False
    d = state.to_dict()
    return not (d["phase"] == "action" and d["actions_left"] == 2)


def test_the_oracle_sees_a_half_made_turn():
    state = marble_turn_start()
    assert not mid_turn(state)
    state.apply_action(state.legal_actions()[0])
    assert mid_turn(state)


def agent_class(name):
    """The tree agent's class itself, to hand it a Python evaluator function."""
    from romecore_ismcts.ismcts import ISMCTSAgent
    from romecore_mcts.mcts import MCTSAgent

    return {"ismcts": ISMCTSAgent, "mcts": MCTSAgent}[name]


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
@pytest.mark.parametrize("expand", ["turn", "node"])
@pytest.mark.parametrize("cutoff", [1, 2])
def test_cutoff_judges_only_where_a_turn_ends(name, expand, cutoff):
    state = marble_turn_start()
    judged = []

    def evaluator(s):
        judged.append(mid_turn(s))
        return [0.5, 0.5]

    agent = agent_class(name)(
        state.game, 1, simulations=150, cutoff=cutoff, expand=expand, evaluator=evaluator)
    agent.step(state)
    assert len(judged) > 100
    assert not any(judged)


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_turn_walk_expands_the_rest_of_the_turn(name):
    """expand=node adds at most one decision node per iteration; expand=turn goes on to
    the turn's end (a City of Marble turn is four or more decisions)."""
    state = marble_turn_start()
    # bias=0,imm=0: without priors (City of Marble's defaults turn them on) a node's
    # children appear one by one as they are tried.
    extra = ",reuse=0,bias=0,imm=0" if name == "mcts" else ",bias=0,imm=0"
    node = romecore.make_agent(f"{name}:simulations=200,expand=node{extra}", game=state.game, seed=1)
    turn = romecore.make_agent(f"{name}:simulations=200,expand=turn{extra}", game=state.game, seed=1)
    node.step(state)
    turn.step(state)
    if name == "ismcts":
        assert node.tree_size <= 201
        assert turn.tree_size > 2 * 200
    else:
        assert turn.tree_size > node.tree_size


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_priors_judge_each_edge_once(name):
    """With priors on, an edge's prior is computed when its child is made, once: the
    evaluator (used here for priors alone: no cut-off) runs at most once per tree node,
    not again for every untried edge each time its parent expands."""
    state = marble_turn_start()
    calls = []

    def evaluator(s):
        calls.append(1)
        return [0.5, 0.5]

    agent = agent_class(name)(
        state.game, 1, simulations=300, cutoff=0, bias=1.0, evaluator=evaluator)
    agent.step(state)
    assert len(calls) > 300
    assert len(calls) <= agent.tree_size


def test_priors_with_a_full_arena_still_play():
    """When the arena fills while an expansion is giving children their priors, the walk
    goes on without a child (a random untried edge) and the move is legal."""
    state = marble_turn_start()
    agent = romecore.make_agent("ismcts:simulations=300,bias=1,max_nodes=16", game=state.game, seed=1)
    assert agent.step(state) in state.legal_actions()
    assert agent.tree_size <= 16
    assert agent.stats["iterations"] == 300


def game_with_defaults(defaults, by_players=None, players=2) -> Game:
    """Rise to Power with these defaults in place of its own."""
    base = romecore.load_game("rise_to_power", players=players)
    spec = dataclasses.replace(base.spec, agent_defaults=defaults, agent_defaults_by_players=by_players or {})
    opts = spec.normalise_options({"players": players})
    return Game(spec, opts, list(spec.encode_options(opts)))


def test_game_defaults_apply_under_the_users_parameters():
    game = game_with_defaults({"ismcts": {"c": 0.3, "cutoff": 2}, "mcts": {"c": 1.5}})
    assert romecore.make_agent("ismcts:simulations=10", game=game).c == pytest.approx(0.3)
    assert romecore.make_agent("ismcts:simulations=10,c=0.9", game=game).c == pytest.approx(0.9)
    assert romecore.make_agent("mcts", game=game).c == pytest.approx(1.5)
    plain = romecore.load_game("rise_to_power", players=3)
    from romecore_ismcts import PARAMS

    assert romecore.make_agent("ismcts", game=plain).c == pytest.approx(PARAMS["c"][1])
    assert plain.spec.agent_defaults == {} and 3 not in plain.spec.agent_defaults_by_players


def test_a_player_counts_defaults_apply_at_that_count_only():
    """agent_defaults_by_players[n] goes over agent_defaults at n players, under the user's."""
    defaults, by_players = {"ismcts": {"c": 0.3, "bias": 2.0}}, {2: {"ismcts": {"c": 0.5}}, 4: {"mcts": {"c": 1.5}}}
    two = game_with_defaults(defaults, by_players, players=2)
    agent = romecore.make_agent("ismcts:simulations=10", game=two)
    assert (agent.c, agent.bias) == (pytest.approx(0.5), pytest.approx(2.0))
    assert romecore.make_agent("ismcts:simulations=10,c=0.9", game=two).c == pytest.approx(0.9)
    three = game_with_defaults(defaults, by_players, players=3)
    assert romecore.make_agent("ismcts:simulations=10", game=three).c == pytest.approx(0.3)
    assert two.spec.agent_defaults_for("mcts", 4) == {"c": 1.5}
    assert two.spec.agent_default_groups() == [("ismcts", None, {"c": 0.3, "bias": 2.0}),
                                               ("ismcts", 2, {"c": 0.5}), ("mcts", 4, {"c": 1.5})]


@pytest.mark.parametrize("game_id", ["rise_to_power", "great_city_of_rome", "glory_to_rome"])
def test_two_player_searches_judge_with_the_learned_net(game_id):
    """Where the learned net measured stronger inside ismcts (two players: the weights
    README), the game's default search uses it at two players and not at four, where no
    net is shipped."""
    two = romecore.make_agent("ismcts:simulations=10", game=romecore.load_game(game_id, players=2))
    assert "LearnedEvaluator" in repr(two.evaluator)
    four = romecore.make_agent("ismcts:simulations=10", game=romecore.load_game(game_id, players=4))
    assert "LearnedEvaluator" not in repr(four.evaluator)


def test_a_bad_game_default_is_refused():
    game = game_with_defaults({"ismcts": {"no_such_parameter": 1}})
    with pytest.raises(AgentSpecError):
        romecore.make_agent("ismcts", game=game)
    game = game_with_defaults({"ismcts": {"expand": "sideways"}})
    with pytest.raises(AgentSpecError):
        romecore.make_agent("ismcts", game=game)


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
@pytest.mark.parametrize("widen,widen_k", [(0.25, 1.0), (0.3, 2.0)])
def test_progressive_widening_limits_the_children(name, widen, widen_k):
    """A node visited n times offers ceil(widen_k * (n + 1) ** widen) children: after N
    iterations the root has tried exactly ceil(widen_k * N ** widen) of its actions."""
    state = marble_turn_start()
    sims = 200
    assert len(state.legal_actions()) > math.ceil(widen_k * sims ** widen)
    extra = ",reuse=0" if name == "mcts" else ""
    agent = romecore.make_agent(f"{name}:simulations={sims},widen={widen},widen_k={widen_k}{extra}",
                                game=state.game, seed=1)
    agent.step(state)
    tried = [a for a, visits, _ in agent.stats["root"] if visits > 0]
    assert len(tried) == math.ceil(widen_k * sims ** widen)


def one_liked_action():
    """A turn start, its last legal action, and an evaluator that values the searching
    player at 0.9 right after that action and at 0.4 anywhere else."""
    state = marble_turn_start()
    favourite = state.legal_actions()[-1]
    target = state.clone()
    target.apply_action(favourite)
    me = state.current_player()
    seen = target.observation(me)

    def evaluator(s):
        liked = 0.9 if s.observation(me) == seen else 0.4
        return [liked if p == me else 1 - liked for p in range(2)]

    return state, favourite, evaluator


def test_widening_offers_the_best_prior_first():
    """With priors from an evaluator that likes one action's result best, that action is
    among the first children offered at the root."""
    state, favourite, evaluator = one_liked_action()

    from romecore_ismcts.ismcts import ISMCTSAgent

    agent = ISMCTSAgent(state.game, 1, simulations=30, widen=0.25, widen_k=1.0, evaluator=evaluator)
    agent.step(state)
    tried = [a for a, visits, _ in agent.stats["root"] if visits > 0]
    assert favourite in tried and len(tried) <= 3


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_prior_visits_revisit_the_best_prior_child(name):
    """With ``prior_visits`` a child starts as that many visits of its prior value, so
    the search keeps to an action whose prior is far ahead instead of trying every action
    once first (which it does with priors as progressive bias alone).  Oracle: with the
    prior 0.9 against 0.4, every result 0.4, c = 0.1 and 4 virtual visits, the favourite's
    UCB score stays above the others' over 20 iterations (worked out by hand:
    (0.4 n + 3.6) / (n + 4) + 0.1 sqrt(ln(n + 1) / (n + 4)) > 0.4 + 0.1 sqrt(ln(n + 1) / 4))."""
    state, favourite, evaluator = one_liked_action()

    extra = {"reuse": 0} if name == "mcts" else {}
    sims = 20
    agent = agent_class(name)(state.game, 1, simulations=sims, c=0.1, cutoff=1, bias=0.0,
                              prior_visits=4.0, evaluator=evaluator, **extra)
    assert agent.step(state) == favourite
    assert [(a, v) for a, v, _ in agent.stats["root"] if v > 0] == [(favourite, sims)]
    # priors as progressive bias alone: every action is tried once before any again
    agent = agent_class(name)(state.game, 1, simulations=sims, c=0.1, cutoff=1, bias=1.0,
                              evaluator=evaluator, **extra)
    agent.step(state)
    tried = [a for a, v, _ in agent.stats["root"] if v > 0]
    assert len(tried) == min(sims, len(state.legal_actions()))


def test_prior_visits_need_an_evaluator_and_a_count():
    game = romecore.load_game("great_city_of_rome", players=2)  # no agent defaults
    for spec in ("ismcts:prior_visits=-1", "mcts:prior_visits=-0.5",
                 "ismcts:prior_visits=1,evaluator=none", "mcts:prior_visits=2,evaluator=none"):
        with pytest.raises(AgentSpecError):
            romecore.make_agent(spec, game=game)


def red_turn_evaluator(state: romecore.State):
    """An evaluator that misleads one decision on: for the player to move at ``state``, a
    turn in which they lay their red tile is worth 0.9 once it has ended (0.4 for any
    other turn), but while it is half made (red tile chosen or laid, the turn not over)
    it looks worth 0.1 against 0.5; every other position is worth 0.5."""
    me = state.current_player()

    def evaluator(s):
        d = s.to_dict()
        red_gone = d["players"][me]["tiles"]["red"] == 0
        if d["phase"] == "action" and d["actor"] != me and d["actions_left"] == 2:
            v = 0.9 if red_gone else 0.4  # my turn has just ended
        elif d.get("actor") == me and mid_turn(s):
            red_now = red_gone or (d["tile_play"] or {}).get("colour") == "red"
            v = 0.1 if red_now else 0.5
        else:
            v = 0.5
        return [v if p == me else 1 - v for p in range(2)]

    return evaluator


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_imm_settles_a_half_made_turn_to_its_end(name):
    """Implicit minimax backups within a turn (``imm``): a root action's prior is judged
    half-made (red tile chosen: 0.1), but the best known end of that turn is worth 0.9, so
    with ``imm=1`` and no exploration (c = 0, each root action tried once, then the best
    score) the search plays a red tile.  Without ``imm`` the same search, guided by the
    half-made priors as progressive bias, never prefers it: the rollouts' values are flat
    (the cutoff judges where every position is worth 0.5)."""
    state = marble_turn_start()
    evaluator = red_turn_evaluator(state)
    red = {a for a in state.legal_actions() if state.action_to_string(a).startswith("play red tile")}
    assert red
    extra = {"reuse": 0} if name == "mcts" else {}
    common = dict(simulations=40, c=0.0, cutoff=2, evaluator=evaluator, **extra)
    agent = agent_class(name)(state.game, 1, imm=1.0, bias=0.0, **common)
    assert agent.step(state) in red
    agent = agent_class(name)(state.game, 1, imm=0.0, bias=1.0, **common)
    assert agent.step(state) not in red


@pytest.mark.parametrize("spec", ["ismcts:imm=-0.1", "mcts:imm=1.5", "ismcts:imm=0.5,evaluator=none",
                                  "mcts:imm=0.5,evaluator=none"])
def test_imm_is_a_weight_and_needs_an_evaluator(spec):
    game = romecore.load_game("great_city_of_rome", players=2)
    with pytest.raises(AgentSpecError):
        romecore.make_agent(spec, game=game)


def red_trap_evaluator(state: romecore.State):
    """An evaluator with a trap one turn on, for the player to move at ``state``: while
    the opponent's turn is on, a turn of theirs that has laid their red tile looks worth
    0.9 (0.4 otherwise), but while it is their own turn again it is worth 0.05 (0.5
    otherwise).  (Their turn at ``state`` lays no red tile before it ends.)"""
    me = state.current_player()

    def evaluator(s):
        d = s.to_dict()
        red_gone = d["players"][me]["tiles"]["red"] == 0
        if d["turn_player"] != me:
            v = 0.9 if red_gone else 0.4
        else:
            v = 0.05 if red_gone else 0.5
        return [v if p == me else 1 - v for p in range(2)]

    return evaluator


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_imm_reply_sees_the_opponents_answer(name):
    """``imm_reply`` settles across turns: laying the red tile in the second action ends
    the turn well (0.9), but the opponent's best reply leaves it at 0.05.  Playing the
    rest of the turn, each decision by a fresh search with no exploration (c = 0), the
    search that backs up the opponent's settled replies keeps the red tile, while the
    same search settling within turns only lays it (red is refuted nowhere)."""

    def turn_lays_red(imm_reply):
        state = marble_turn_start()
        me = state.current_player()
        evaluator = red_trap_evaluator(state)
        draw = [a for a in state.legal_actions() if state.action_to_string(a) == "draw yellow and green"]
        state.apply_action(draw[0])  # the first action: one red tile is left in hand
        extra = {"reuse": 0} if name == "mcts" else {}
        while state.current_player() == me:
            agent = agent_class(name)(state.game, 1, simulations=600, c=0.0, cutoff=2, imm=1.0,
                                      bias=0.0, evaluator=evaluator, imm_reply=imm_reply, **extra)
            assert agent.imm_reply == imm_reply
            state.apply_action(agent.step(state))
        return state.to_dict()["players"][me]["tiles"]["red"] == 0

    assert turn_lays_red(False)
    assert not turn_lays_red(True)


def test_imm_reply_needs_imm_and_is_off_beyond_two_players():
    game = romecore.load_game("great_city_of_rome", players=2)
    with pytest.raises(AgentSpecError):
        romecore.make_agent("ismcts:imm=0,imm_reply=1", game=game)
    four = romecore.load_game("great_city_of_rome", players=4)
    assert not romecore.make_agent("ismcts:imm=0.3,imm_reply=1", game=four).imm_reply
    assert romecore.make_agent("mcts:imm=0.3,imm_reply=1", game=game).imm_reply


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_an_evaluator_error_while_judging_priors_is_raised(name, capfd):
    """A Python evaluator that fails while the search judges priors (no cut-off: priors
    are its only use) stops the search with that error, as at a cut-off; it is neither
    printed as "ignored" nor hidden behind a move."""
    state = marble_turn_start()

    def evaluator(s):
        raise ValueError("no opinion")

    agent = agent_class(name)(state.game, 1, simulations=50, cutoff=0, bias=1.0, evaluator=evaluator)
    with pytest.raises(ValueError, match="no opinion"):
        agent.step(state)
    assert "ignored" not in capfd.readouterr().err


def great_city_opening() -> tuple[Game, romecore.State, int]:
    """The Great City of Rome, 2 players, seed 2, the opening's chance resolved: the game,
    the state and the player to move (an early position: no iteration reaches the end)."""
    game = romecore.load_game("great_city_of_rome", players=2)
    state = game.new_initial_state(seed=2)
    state.resolve_chance()
    return game, state, state.current_player()


def counted(values: list[float]) -> tuple[list[int], Callable[[romecore.State], list[float]]]:
    """An evaluator that gives every position ``values``, and the list its calls append to."""
    calls: list[int] = []

    def evaluate(s: romecore.State) -> list[float]:
        calls.append(1)
        return values

    return calls, evaluate


def tree_extra(name: str) -> dict:
    """``name``'s options beyond the test's: mcts's tree reuse off, so each search's counts are its own."""
    return {"reuse": 0} if name == "mcts" else {}


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_mix_blends_the_leaf_value_into_the_reward(name):
    """Mixed leaf evaluation: with ``mix=1`` an iteration's reward is the evaluator's
    value of its leaf alone, so every root edge's mean is the constant 0.8 the evaluator
    gives the mover (an early position: no iteration reaches the end of the game); the
    evaluator judges each iteration's leaf once (no priors, no cut-off); and with ``mix=0``
    the same search returns the playouts' own means, which are not all 0.8."""
    game, state, me = great_city_opening()
    calls, evaluator = counted([0.8 if p == me else 0.2 for p in range(2)])
    sims = 200
    common = dict(simulations=sims, cutoff=0, bias=0.0, evaluator=evaluator, **tree_extra(name))
    agent = agent_class(name)(game, 1, mix=1.0, **common)
    agent.step(state)
    root = agent.stats["root"]
    assert sum(visits for _, visits, _ in root) == sims
    assert all(math.isclose(value / visits, 0.8) for _, visits, value in root if visits)
    assert len(calls) == sims
    calls.clear()
    agent = agent_class(name)(game, 1, mix=0.0, **common)
    agent.step(state)
    assert not calls
    assert not all(math.isclose(value / visits, 0.8) for _, visits, value in agent.stats["root"] if visits)


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_prior_names_the_evaluator_of_the_priors_and_leaves_the_leaves_alone(name):
    """``prior``: the priors (one judgement per child of each new node) go to that
    evaluator and only there; the leaves (``mix=1``) stay with ``evaluator``, one
    judgement per iteration, and their value alone makes the root means (0.8).  With
    ``prior=same`` both go to ``evaluator``; ``prior=none`` turns priors off."""
    game, state, me = great_city_opening()
    leaves, leaf_eval = counted([0.8 if p == me else 0.2 for p in range(2)])
    priors, prior_eval = counted([0.5, 0.5])
    sims = 150
    common = dict(simulations=sims, cutoff=0, bias=1.0, mix=1.0, evaluator=leaf_eval, **tree_extra(name))
    agent = agent_class(name)(game, 1, prior=prior_eval, **common)
    agent.step(state)
    assert len(leaves) == sims and len(priors) >= len(state.legal_actions())
    assert all(math.isclose(value / visits, 0.8) for _, visits, value in agent.stats["root"] if visits)
    leaves.clear()
    priors.clear()
    agent = agent_class(name)(game, 1, prior="same", **common)
    agent.step(state)
    assert not priors and len(leaves) > sims  # the priors' judgements are leaf_eval's too
    leaves.clear()
    agent = agent_class(name)(game, 1, prior="none", **common)
    agent.step(state)
    assert not priors and len(leaves) == sims


@pytest.mark.parametrize("name", ["ismcts", "mcts"])
def test_prior_plays_the_greedy_rollouts(name):
    """A greedy rollout's step (one judgement per legal action) is the priors' kind of
    judgement: with ``prior`` naming an evaluator, the steps go to it and ``evaluator`` is
    left to judge the cut-offs, at most one per iteration; with ``prior=same`` the steps
    are ``evaluator``'s too."""
    game, state, _ = great_city_opening()
    leaves, leaf_eval = counted([0.5, 0.5])
    steps, step_eval = counted([0.5, 0.5])
    sims = 60
    common = dict(simulations=sims, rollout="greedy", eps=0.0, cutoff=2, evaluator=leaf_eval,
                  **tree_extra(name))
    agent_class(name)(game, 1, prior=step_eval, **common).step(state)
    assert steps and 0 < len(leaves) <= sims
    leaves.clear()
    steps.clear()
    agent_class(name)(game, 1, prior="same", **common).step(state)
    assert not steps and len(leaves) > sims


def test_prior_must_name_an_evaluator():
    game = romecore.load_game("great_city_of_rome", players=2)
    with pytest.raises(AgentSpecError):
        romecore.make_agent("ismcts:bias=1,prior=no_such_evaluator", game=game)
    with pytest.raises(AgentSpecError):
        romecore.make_agent("ismcts:prior_visits=2,prior=none", game=game)


@pytest.mark.parametrize("spec", ["ismcts:mix=-0.1", "mcts:mix=1.5", "ismcts:mix=0.5,evaluator=none"])
def test_mix_is_a_weight_and_needs_an_evaluator(spec):
    game = romecore.load_game("great_city_of_rome", players=2)
    with pytest.raises(AgentSpecError):
        romecore.make_agent(spec, game=game)


def last_decision_with_margins(game: romecore.Game):
    """A position (from random games) where every legal action ends the game, the mover's
    returns are the same after each, but the final leads (score minus the other's) differ
    and one action has the best lead alone: ``(state, best action, the first action)``."""
    for seed in range(200):
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            me = state.current_player()
            ends = []
            for a in state.legal_actions():
                after = state.clone()
                after.apply_action(a)
                if not after.is_terminal():
                    break
                totals = [after.score_breakdown(p)["total"] for p in range(2)]
                ends.append((totals[me] - totals[1 - me], after.returns()[me], a))
            else:
                leads = sorted(ends, reverse=True)
                if (len({r for _, r, _ in ends}) == 1 and leads[0][0] > leads[1][0]
                        and ends[0][2] != leads[0][2]):
                    return state, leads[0][2], ends[0][2]
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError("no such position in 200 random games")


def test_margin_rewards_the_bigger_lead():
    """Where every move ends the game with the same result, the returns alone cannot tell
    the moves apart (each child's mean is the same, and the search keeps the first); with
    ``margin=1`` the reward grows with the final lead, so the search plays the move that
    finishes with the best lead."""
    game = romecore.load_game("great_city_of_rome", players=2)
    state, best, first = last_decision_with_margins(game)
    n = len(state.legal_actions())
    common = dict(simulations=20 * n, c=0.0, bias=0.0, reuse=0, evaluator="none")
    assert agent_class("mcts")(game, 1, margin=1.0, **common).step(state) == best
    assert agent_class("mcts")(game, 1, margin=0.0, **common).step(state) != best


@pytest.mark.parametrize("spec", ["ismcts:margin=-0.5", "mcts:margin=2"])
def test_margin_is_a_weight(spec):
    game = romecore.load_game("great_city_of_rome", players=2)
    with pytest.raises(AgentSpecError):
        romecore.make_agent(spec, game=game)
