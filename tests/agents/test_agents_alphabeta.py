"""Alpha-beta family: finds the winning build; Star1/Star2 pruning returns exactly the
*-minimax value; every variant plays legal moves."""

from __future__ import annotations

import random

import agent_positions as ap
import pytest
from test_agents_common import midgame

import romecore
from romecore_alphabeta.alphabeta import AlphaBetaAgent

VARIANTS = ["paranoid,chance=star2", "paranoid,chance=star1", "paranoid,chance=sample",
            "brs,chance=star2", "brs,chance=sample"]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("variant", VARIANTS)
def test_finds_the_winning_build(players, variant):
    state = ap.last_turn(players)
    agent = romecore.make_agent(f"alphabeta:depth=4,algorithm={variant}", game=state.game, seed=1)
    assert agent.step(state) == ap.build_market(state)
    place = ap.last_turn_place(players)
    assert agent.step(place) in ap.next_to_house(place)


def end_of_round_position(seed: int) -> romecore.State:
    """A 2-player position where ending the turn ends the round: chance (the next strip,
    then the offer) lies within three plies."""
    game = romecore.load_game("great_city_of_rome", players=2)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    while True:
        if state.is_terminal():
            state = game.new_initial_state(seed=seed + 1)
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        legal = state.legal_actions()
        end = ap.action_if_legal(state, ap.END_TURN)
        if end is not None and len(legal) > 1 and state.to_dict()["round"] > 1:
            after = state.clone()
            after.apply_action(end)
            if after.is_chance_node():
                return state
        state.apply_action(rng.choice(legal))


def expectiminimax(state: romecore.State, depth: int, root: int, ev) -> float:
    """The reference: paranoid *-minimax with the agent's depth rules, in Python."""
    if state.is_terminal():
        return state.returns()[root]
    if depth <= 0:
        return ev(state)[root]
    if state.is_chance_node():
        total = 0.0
        for a, p in state.chance_outcomes():
            child = state.clone()
            child.apply_action(a)
            total += p * expectiminimax(child, depth - 1, root, ev)
        return total
    values = []
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        values.append(expectiminimax(child, depth - 1, root, ev))
    return max(values) if state.current_player() == root else min(values)


@pytest.mark.parametrize("chance", ["star1", "star2"])
@pytest.mark.parametrize("seed", [1, 2])
def test_star_pruning_is_exact(chance, seed):
    state = end_of_round_position(seed)
    root = state.current_player()
    # Blind to the emissaries still to act and to who is to move, so to the next strip and
    # offer: a chance leaf, which the agent judges by sampled outcomes, then has one value
    # however it is drawn.
    ev = romecore.make_evaluator(state.game, pending_take=0.0, pending_brick=0.0, pending_produce=0.0,
                                 tempo_emissary=0.0, tempo_build=0.0)
    depth = 3
    reference = {}
    for a in state.legal_actions():
        child = state.clone()
        child.apply_action(a)
        reference[a] = expectiminimax(child, depth - 1, root, ev)
    agent = AlphaBetaAgent(state.game, seed=1, depth=depth, chance=chance, extend=0, evaluator=ev)
    action = agent.step(state)
    best_value = dict(agent.stats["values"])[action]
    assert agent.stats["depth"] == depth
    # Chance leaves met again came from the table, so the check covers them too.
    assert agent.stats["leaf_hits"] > 0
    assert best_value == pytest.approx(max(reference.values()), abs=1e-5)
    assert reference[action] == pytest.approx(max(reference.values()), abs=1e-5)


def test_star1_and_star2_agree_deeper():
    """Star2's probes only prune: at depth 5 both give the same best value (without late
    move reductions, which The Great City of Rome's defaults turn on and which are not
    exact)."""
    state = end_of_round_position(3)
    best = {}
    for chance in ("star1", "star2"):
        agent = romecore.make_agent(f"alphabeta:depth=5,chance={chance},lmr=0", game=state.game, seed=1)
        action = agent.step(state)
        best[chance] = dict(agent.stats["values"])[action]
    assert best["star1"] == pytest.approx(best["star2"], abs=1e-5)


def test_iterative_deepening_goes_deeper_with_more_nodes():
    state = end_of_round_position(4)
    small = romecore.make_agent("alphabeta:nodes=200", game=state.game, seed=1)
    large = romecore.make_agent("alphabeta:nodes=20000", game=state.game, seed=1)
    small.step(state)
    large.step(state)
    assert large.stats["depth"] > small.stats["depth"] >= 1


def test_pimc_votes():
    state = end_of_round_position(5)
    agent = romecore.make_agent("alphabeta:nodes=3000,pimc=3", game=state.game, seed=1)
    assert agent.step(state) in state.legal_actions()
    assert sum(agent.stats["votes"].values()) == 3


def test_unfinished_turns_are_searched_past_the_horizon():
    """At depth 1 the Market choice is only half a move; extend=N plays the rest of the
    turn (its cell, the end) before judging, extend=0 judges the half-made move."""
    state = ap.last_turn(2)
    short = romecore.make_agent("alphabeta:depth=1,extend=0", game=state.game, seed=1)
    short.step(state)
    assert dict(short.stats["values"])[ap.build_market(state)] < 1.0
    extended = romecore.make_agent("alphabeta:depth=1,extend=8", game=state.game, seed=1)
    assert extended.step(state) == ap.build_market(state)
    assert dict(extended.stats["values"])[ap.build_market(state)] == 1.0


@pytest.mark.parametrize("gid", ap.GAMES)
def test_a_turn_is_planned_in_one_world(gid):
    """The next decision of the mover's turn goes on in the world searched before (the
    view handed in is a fresh resample of the same knowledge); a sibling position, restart,
    pimc and reuse off (the default) search the view handed in."""
    state, p = ap.mid_turn(gid, 5)
    agent = romecore.make_agent("alphabeta:depth=2,reuse=1", game=state.game, seed=1)
    a = agent.step(state.resample(p, 1))
    assert agent.stats["same_world"] is False
    after = state.clone()
    after.apply_action(a)
    view = after.resample(p, 2)
    assert view.legal_actions() == after.legal_actions()
    assert agent.step(view) in view.legal_actions()
    assert agent.stats["same_world"] is True
    chosen = agent.step(state.resample(p, 3))
    other = state.clone()
    other.apply_action(next(b for b in state.legal_actions() if b != chosen))
    agent.step(other.resample(p, 4))
    assert agent.stats["same_world"] is False
    after = state.clone()
    after.apply_action(agent.step(state.resample(p, 1)))
    agent.restart()
    agent.step(after.resample(p, 2))
    assert agent.stats["same_world"] is False
    for spec in ("alphabeta:depth=2", "alphabeta:depth=2,reuse=1,pimc=2"):
        agent = romecore.make_agent(spec, game=state.game, seed=1)
        after = state.clone()
        after.apply_action(agent.step(state.resample(p, 1)))
        agent.step(after.resample(p, 2))
        assert not agent.stats.get("same_world", False)


def test_an_unfinished_iteration_can_change_the_move():
    """With the same node budget and seed, ``partial=0`` plays the last finished
    iteration's best move; ``partial=1`` runs the same search and plays the same move
    unless the unfinished iteration found one that beats the old best there (its value
    above the old best's new value).  Such switches are rare (a few moves in a hundred); these
    random Rise to Power positions hold some."""
    game = romecore.load_game("rise_to_power", players=2)
    rng = random.Random(3)
    switches = 0
    for seed in range(60):
        state = midgame(game, seed, steps=rng.randrange(5, 80))
        if len(state.legal_actions()) < 3:
            continue
        plain = romecore.make_agent("alphabeta:nodes=1000,partial=0", game=game, seed=1)
        partial = romecore.make_agent("alphabeta:nodes=1000", game=game, seed=1)
        a_plain, a_partial = plain.step(state), partial.step(state)
        assert plain.stats["partial_switch"] is False
        if partial.stats["partial_switch"]:
            switches += 1
            values = partial.stats["values"]   # the last best first, searched deeper
            assert a_partial != values[0][0]   # (partial=0 may have picked it among ties)
            assert dict(values)[a_partial] > values[0][1]
        else:
            assert a_partial == a_plain
    assert switches >= 1, "no position switched: choose positions (or a budget) where one does"


@pytest.mark.parametrize("gid", romecore.list_games())
@pytest.mark.parametrize("algorithm", ["paranoid", "brs"])
def test_principal_variation_search_only_prunes(gid, algorithm):
    """Null windows change which nodes are searched, not the values: at a fixed depth the
    best root value is the same with ``pvs`` on and off, and so is the set of moves that
    reach it (without late move reductions, which are not exact)."""
    players = 3 if algorithm == "brs" else 2
    depth = 3 if gid == "city_of_marble" else 5   # City of Marble's tree is the widest
    game = romecore.load_game(gid, players=players)
    for seed in range(4):
        state = midgame(game, seed, steps=30 + 7 * seed)
        result = {}
        for pvs in (True, False):
            agent = romecore.make_agent(f"alphabeta:depth={depth},algorithm={algorithm},pvs={int(pvs)},lmr=0",
                                        game=game, seed=1)
            agent.step(state)
            values = dict(agent.stats["values"])
            best = max(values.values())
            result[pvs] = (best, {a for a, v in values.items() if v >= best - 1e-5})
        assert result[True][0] == pytest.approx(result[False][0], abs=1e-5)
        assert result[True][1] == result[False][1]


@pytest.mark.parametrize("algorithm", ["paranoid", "brs"])
def test_late_move_reductions_touch_only_late_moves(algorithm):
    """``lmr=N`` reduces moves from the N-th on, three or more plies from the horizon: with N
    past every move list the search is the unreduced one (the same values and leaves), and
    with N=2 it judges fewer leaves at The Great City of Rome, where it is meant to buy a
    ply.  Its moves are legal."""
    players = 3 if algorithm == "brs" else 2
    game = romecore.load_game("great_city_of_rome", players=players)
    leaves = {0: 0, 2: 0, 1000: 0}
    for seed in range(6):
        state = midgame(game, seed, steps=30 + 7 * seed)
        values = {}
        for lmr in leaves:
            agent = romecore.make_agent(f"alphabeta:depth=5,algorithm={algorithm},lmr={lmr}",
                                        game=game, seed=1)
            assert agent.step(state) in state.legal_actions()
            leaves[lmr] += agent.stats["evaluations"]
            values[lmr] = agent.stats["values"]
        assert values[1000] == values[0]
    assert leaves[1000] == leaves[0]
    assert leaves[2] < leaves[0]


def test_late_move_reductions_reject_a_negative_index():
    game = romecore.load_game("great_city_of_rome", players=2)
    with pytest.raises(romecore.AgentSpecError, match="lmr"):
        romecore.make_agent("alphabeta:lmr=-1", game=game)
