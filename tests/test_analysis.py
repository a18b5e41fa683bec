"""romecore.analyse: typed results from the agents' stats, pooling over resampled worlds,
verdicts, and honesty (an analysis never uses what the mover could not know)."""

from __future__ import annotations

import math
import random

import pytest

import romecore
from romecore import analysis
from romecore.analysis import Analysis, MoveValue
from romecore.plugins import registry

GAMES = ("great_city_of_rome", "city_of_marble", "rise_to_power", "glory_to_rome")


def _decision(game_id: str, seed: int, plies: int, hidden: bool = False):
    """A position of a random 2-player game after about ``plies`` random moves where a
    player has a choice (with ``hidden``: and where two of its worlds differ)."""
    game = romecore.load_game(game_id, players=2)
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        p = state.current_player()
        legal = state.legal_actions()
        if n >= plies and len(legal) > 1 and (
                not hidden or state.resample(p, 1).state_bytes() != state.resample(p, 2).state_bytes()):
            return state
        state.apply_action(rng.choice(legal))
        n += 1
    raise AssertionError(f"{game_id} seed {seed}: the game ended before a decision was found")


class _Stub:
    """An agent whose stats we write by hand."""

    def __init__(self, stats: dict) -> None:
        self.stats = stats
        self.spec = "stub"


# -- from_stats: the agents' stats as one typed object -------------------------------------
def test_from_stats_reads_a_tree_search_root():
    state = _decision("rise_to_power", 3, 10)
    legal = state.legal_actions()
    assert len(legal) >= 2
    a, b = legal[0], legal[1]
    # (action, visits, summed reward): 30 visits worth 21 wins, 10 worth 2; the rest untried
    result = analysis.from_stats(_Stub({"root": [(a, 30, 21.0), (b, 10, 2.0)], "iterations": 40,
                                        "seconds": 0.5}), state)
    assert isinstance(result, Analysis) and result.player == state.current_player()
    assert [m.action for m in result.moves[:2]] == [a, b] and result.best == a
    assert result.move(a).value == pytest.approx(0.7) and result.move(a).visits == 30
    assert result.move(b).value == pytest.approx(0.2)
    assert result.move(a).stderr == pytest.approx(math.sqrt(0.7 * 0.3 / 30))
    assert sorted(m.action for m in result.moves) == sorted(legal)
    untried = [m for m in result.moves if m.action not in (a, b)]
    assert all(m.value is None and m.visits == 0 for m in untried)
    assert result.iterations == 40 and result.seconds == 0.5
    assert result.best_text == state.action_to_string(a)


def test_from_stats_reads_values_without_visits_and_refuses_random():
    state = _decision("city_of_marble", 2, 6)
    legal = state.legal_actions()
    values = [(x, 0.1 * (i % 7)) for i, x in enumerate(legal)]
    result = analysis.from_stats(_Stub({"values": values}), state)
    top = max(values, key=lambda t: (t[1], -t[0]))
    assert result.best == top[0] and result.value == pytest.approx(top[1])
    assert all(m.visits is None and m.stderr is None for m in result.moves)
    with pytest.raises(romecore.AgentSpecError, match="no search statistics"):
        analysis.from_stats(romecore.make_agent("random", game=state.game, seed=1), state)


@pytest.mark.parametrize("spec", ["ismcts:simulations=300", "mcts:simulations=300", "greedy", "alphabeta:nodes=2000",
                                  "mcts:simulations=300,pimc=3", "alphabeta:nodes=2000,pimc=2"])
def test_from_stats_of_each_agent_holds_every_legal_move(spec):
    state = _decision("great_city_of_rome", 5, 20)
    agent = romecore.make_agent(spec, game=state.game, seed=3)
    chosen = agent.step(state.resample(state.current_player(), 9))
    result = analysis.from_stats(agent, state)
    assert sorted(m.action for m in result.moves) == sorted(state.legal_actions())
    assert all(m.value is None or -1e-9 <= m.value <= 1 + 1e-9 for m in result.moves)
    if "simulations" in spec and "pimc" not in spec:
        assert result.best == chosen  # the most visited: what the agent plays
        assert sum(m.visits for m in result.moves) == 300


# -- pooling over worlds ---------------------------------------------------------------------
def _analysis(moves):
    return Analysis(player=0, agent="stub", moves=tuple(moves), best=moves[0].action, best_text=moves[0].text,
                    value=moves[0].value, stderr=moves[0].stderr)


def test_pool_weights_by_visits_and_takes_the_spread_of_the_worlds():
    worlds = [_analysis([MoveValue(1, "a", 0.6, 100, 0.05), MoveValue(2, "b", 0.2, 20, 0.09)]),
              _analysis([MoveValue(1, "a", 0.8, 100, 0.04), MoveValue(2, "b", 0.5, 10, 0.15)])]
    pooled = analysis.pool(worlds)
    a, b = pooled.move(1), pooled.move(2)
    assert a.visits == 200 and a.value == pytest.approx(0.7)
    # spread: sd of (0.6, 0.8) = 0.1414 over sqrt 2 = 0.1; binomial: sqrt(0.21 / 200) = 0.032
    assert a.stderr == pytest.approx(0.1)
    assert b.value == pytest.approx((0.2 * 20 + 0.5 * 10) / 30)
    assert pooled.best == 1 and pooled.worlds == 2 and pooled.line == (1,)


def test_pool_of_values_is_the_plain_mean():
    worlds = [_analysis([MoveValue(1, "a", v), MoveValue(2, "b", w)]) for v, w in ((0.3, 0.5), (0.5, 0.3),
                                                                                   (0.4, 0.2))]
    pooled = analysis.pool(worlds)
    assert pooled.move(1).value == pytest.approx(0.4) and pooled.move(2).value == pytest.approx(1 / 3)
    assert pooled.best == 1  # no visits: the higher value
    assert pooled.move(1).stderr == pytest.approx(0.1 / math.sqrt(3))


# -- verdicts ----------------------------------------------------------------------------------
@pytest.mark.parametrize("loss, expected", [(0.0, "good"), (0.049, "good"), (0.05, "inaccuracy"),
                                            (0.099, "inaccuracy"), (0.10, "mistake"), (0.149, "mistake"),
                                            (0.15, "blunder"), (0.6, "blunder"), (-0.1, "good")])
def test_labels_follow_the_thresholds(loss, expected):
    best = MoveValue(1, "a", 0.7, 1000, 0.001)
    played = MoveValue(2, "b", 0.7 - loss, 1000, 0.001)
    assert analysis.label_for(played, best, is_best=False) == expected
    assert analysis.label_for(best, best, is_best=True) == "best"


def test_no_mistake_or_blunder_when_the_intervals_overlap():
    best = MoveValue(1, "a", 0.7, 50, 0.06)
    played = MoveValue(2, "b", 0.45, 5, 0.08)  # loss 0.25 but 0.7 - 1.96 * 0.06 < 0.45 + 1.96 * 0.08
    assert analysis.label_for(played, best, is_best=False) == "inaccuracy"
    sure = MoveValue(2, "b", 0.45, 500, 0.01)
    assert analysis.label_for(sure, best, is_best=False) == "blunder"
    unknown = MoveValue(2, "b", 0.45, None, None)  # no error to judge by: it may overlap
    assert analysis.label_for(unknown, best, is_best=False) == "inaccuracy"


def test_accuracy_falls_with_the_loss():
    assert analysis.move_accuracy(0.0) == 100.0 and analysis.move_accuracy(-0.2) == 100.0
    assert analysis.move_accuracy(0.1) == pytest.approx(100 / math.e)


# -- the judging agent and its budget -------------------------------------------------------
def test_agent_for_searches_each_world_as_the_judge_or_splits_a_given_budget():
    game = romecore.load_game("rise_to_power", players=2)
    assert analysis.agent_for(game) == game.spec.review  # each world as the game's review judge plays
    assert analysis.agent_for(game, "casual", worlds=3) == romecore.level_spec(game, "Casual")
    assert analysis.agent_for(game, "level:Expert") == romecore.level_spec(game, "Expert")
    assert analysis.agent_for(game, "ismcts:c=0.5", simulations=800, worlds=2) == "ismcts:c=0.5,simulations=400"
    assert analysis.agent_for(game, "Maximum", simulations=800, worlds=4) == "ismcts:clock=cpu,simulations=200"
    assert analysis.agent_for(game, "mcts:simulations=9", time=2.0, worlds=4) == "mcts:time=0.5,clock=cpu"
    assert analysis.agent_for(game, "greedy", simulations=100, worlds=2) == "greedy:nodes=50"
    with pytest.raises(romecore.AgentSpecError):
        analysis.agent_for(game, "random", simulations=100)
    with pytest.raises(romecore.InvalidArgumentError):
        analysis.agent_for(game, worlds=0)


# -- analyse -------------------------------------------------------------------------------------
@pytest.mark.parametrize("game_id", GAMES)
def test_analyse_values_every_legal_move_for_the_mover(game_id):
    state = _decision(game_id, 11, 12)
    before = state.state_bytes()
    a = romecore.analyse(state, agent="ismcts", simulations=800, seed=1)
    assert state.state_bytes() == before  # the state handed in is left alone
    assert a.player == state.current_player() and a.worlds == 4 and a.iterations >= 800
    assert sorted(m.action for m in a.moves) == sorted(state.legal_actions())
    assert a.best == a.moves[0].action and a.value == a.moves[0].value
    assert all(0.0 <= m.value <= 1.0 for m in a.moves if m.value is not None)
    assert all(m.stderr is not None and m.stderr > 0 for m in a.moves if m.visits)
    assert a.line[0] == a.best and len(a.line) == len(a.line_text) >= 1
    # the line is the mover's own turn: each of its moves is legal where it stands, same player
    w = state.resample(a.player, 5)
    for act in a.line[:-1]:
        w.apply_action(act)
        assert w.current_player() == a.player
    again = romecore.analyse(state, agent="ismcts", simulations=800, seed=1)
    assert again.to_dict() == {**a.to_dict(), "seconds": again.seconds}  # a function of the seed
    assert Analysis.from_dict(a.to_dict()) == a


def test_analyse_refuses_a_player_not_to_move_and_a_chance_node():
    state = _decision("rise_to_power", 4, 5)
    other = 1 - state.current_player()
    with pytest.raises(romecore.InvalidArgumentError, match="not to move"):
        romecore.analyse(state, other, simulations=100)
    chance = romecore.load_game("great_city_of_rome", players=2).new_initial_state(seed=1)
    assert chance.is_chance_node()
    with pytest.raises(romecore.InvalidArgumentError, match="player to move"):
        romecore.analyse(chance, simulations=100)


def _winning_decision():
    """A decision (of some random 2-player game) where one legal move ends the game won
    by the mover and another does not: the oracle is the rules' own result, not a search."""
    for game_id in ("rise_to_power", "great_city_of_rome", "city_of_marble"):
        game = romecore.load_game(game_id, players=2)
        for seed in range(30):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_random_chance()
                    continue
                p, legal = state.current_player(), state.legal_actions()
                won, other = [], []
                for act in legal:
                    after = state.clone()
                    after.apply_action(act)
                    (won if after.is_terminal() and after.returns()[p] == 1.0 else other).append(act)
                if won and other:
                    return state, won, other
                state.apply_action(rng.choice(legal))
    raise AssertionError("no decision with a winning move found")


def test_a_move_that_wins_at_once_is_valued_one_and_best():
    state, won, other = _winning_decision()
    a = romecore.analyse(state, agent="ismcts", simulations=400 + 20 * len(state.legal_actions()), seed=2)
    for act in won:
        assert a.move(act).value == pytest.approx(1.0)
    assert a.value == pytest.approx(1.0) and a.best in won or a.move(a.best).value == pytest.approx(1.0)


# -- honesty: the mover's information set only ------------------------------------------------
PEEKER = "alphabeta:nodes=4000"  # deterministic in a given world: what it sees shows at once


def _peeking_analysis(state) -> Analysis:
    """The control: :func:`romecore.analyse`'s pooling, but each search handed the true
    state itself (its hidden cards included) instead of a world resampled from the
    mover's view."""
    agent = romecore.make_agent(PEEKER, game=state.game, seed=1)
    runs = []
    for k in range(4):
        agent.reseed(k)
        agent.restart()
        agent.step(state)
        runs.append(analysis.from_stats(agent, state))
    return analysis.pool(runs)


def _agree(a: Analysis, b: Analysis, sigmas: float = 4.0) -> bool:
    """The same verdict within noise: every move's value in ``a`` and in ``b`` differ by
    at most ``sigmas`` combined standard errors (and a hundredth for rounding)."""
    for m in a.moves:
        n = b.move(m.action)
        if m.value is None or n.value is None:
            continue
        noise = math.hypot(m.stderr or 0.0, n.stderr or 0.0)
        if abs(m.value - n.value) > sigmas * noise + 0.01:
            return False
    return True


HIDDEN_POSITIONS = [("glory_to_rome", 1, 30), ("glory_to_rome", 2, 60), ("glory_to_rome", 3, 90),
                    ("great_city_of_rome", 3, 15), ("great_city_of_rome", 5, 12)]


def test_two_worlds_of_the_same_view_get_the_same_analysis_but_peeking_does_not():
    """The same decision analysed from true states that the mover cannot tell apart
    (worlds resampled from its view) agrees within noise, with the default judge
    (ISMCTS) and with alpha-beta; the control, the same alpha-beta analysis looking at the
    true hidden cards, disagrees at some of the same positions, so the test can fail."""
    peeked_apart = 0
    for game_id, seed, plies in HIDDEN_POSITIONS:
        state = _decision(game_id, seed, plies, hidden=True)
        p = state.current_player()
        worlds = [state.resample(p, k) for k in (1, 2, 3)]
        assert len({w.state_bytes() for w in worlds}) == 3  # the hidden cards differ
        assert all(w.observation(p) == worlds[0].observation(p) for w in worlds)  # the mover's view does not
        for judge in ("ismcts:simulations=1000", PEEKER):
            honest = [romecore.analyse(w, agent=judge, seed=7, line=False) for w in worlds]
            assert all(_agree(honest[0], h) for h in honest[1:]), (game_id, seed, judge, honest)
        peeked = [_peeking_analysis(w) for w in worlds]
        if not all(_agree(peeked[0], h) for h in peeked[1:]):
            peeked_apart += 1
    assert peeked_apart >= 2


@pytest.mark.parametrize("game_id", ["city_of_marble", "rise_to_power"])
def test_where_the_resample_is_canonical_the_analysis_is_identical(game_id):
    """Where a game redraws hidden cards from the view alone, two true worlds of one view
    give exactly the same analysis: nothing of the true state reaches the search."""
    state = _decision(game_id, 8, 20, hidden=True)
    p = state.current_player()
    one, two = state.resample(p, 1), state.resample(p, 2)
    assert one.state_bytes() != two.state_bytes()
    a, b = (romecore.analyse(w, agent="ismcts", simulations=400, seed=3) for w in (one, two))
    assert {**a.to_dict(), "seconds": 0} == {**b.to_dict(), "seconds": 0}


def test_a_blunder_is_confirmed_by_a_second_analysis_over_twice_the_worlds():
    """At the first decision of a random game whose worst move one analysis calls a
    blunder, the verdict is the milder of that and a second analysis over 8 worlds."""
    spec = "ismcts:simulations=300"
    game = romecore.load_game("rise_to_power", players=2)
    state, rng = game.new_initial_state(seed=5), random.Random(5)
    while True:
        assert not state.is_terminal(), "no blunder found"
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        a = analysis.search_worlds(state, state.current_player(), spec, 4, seed=1, line=False)
        worst = min((m for m in a.moves if m.value is not None), key=lambda m: m.value)
        first = analysis.Decision.judge(9, worst.action, a)
        if first.label == "blunder":
            break
        state.apply_action(rng.choice(state.legal_actions()))
    d = analysis.judge_decision(state, 9, worst.action, spec, 4, seed=1)
    again = analysis.Decision.judge(9, worst.action, analysis.search_worlds(
        state, state.current_player(), spec, 8, seed=analysis._seed(1, 0xC0F1)))
    assert d.checked and d.visits_best == again.visits_best and d.value_played == again.value_played
    assert d.label == min("blunder", again.label, key=analysis.LABELS.index)
    calm = analysis.judge_decision(state, 9, first.best, spec, 4, seed=1)
    assert calm.label == "best" and not calm.checked


@pytest.mark.parametrize("gid", sorted(registry.games()))
def test_the_default_judge_is_the_games_review_spec_not_its_strong_level(gid):
    """A review judges with ``GameSpec.review``, fixed where its speed and agreement were
    measured, so recalibrating the levels leaves reviews as they were."""
    game = romecore.load_game(gid, players=2)
    assert game.spec.review
    assert analysis.agent_for(game, worlds=1) == analysis.agent_for(game, game.spec.review, worlds=1)
    if game.spec.review != game.spec.levels["Strong"]:
        assert analysis.agent_for(game, worlds=1) != analysis.agent_for(game, "Strong", worlds=1)
