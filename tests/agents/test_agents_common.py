"""What every search agent promises, on every installed game: legal moves only, the same
move for the same seed and budget, time budgets kept, clear errors for bad input."""

from __future__ import annotations

import random
import time
import warnings
from collections.abc import Callable

import pytest

import romecore
from romecore.errors import AgentSpecError, IllegalActionError
from romecore.match import play_game
from romecore.plugins import registry

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    INSTALLED = set(romecore.list_agents())

#: Small budgets: these tests check behaviour, not strength.  {ev} is the game's own
#: evaluator, or one random playout for a game that has none yet (the fallback of eight
#: playouts per evaluation is too slow for a unit test on the longer games).
SMALL = {
    "greedy": "greedy:nodes=60,evaluator={ev}",
    "mcts": "mcts:simulations=16",
    "ismcts": "ismcts:simulations=16",
    "alphabeta": "alphabeta:depth=2,nodes=60,evaluator={ev}",
}
SEARCH_AGENTS = [name for name in SMALL if name in INSTALLED]
SPECS = [SMALL[name] for name in SEARCH_AGENTS]
MAX_AGENT_MOVES = 80  # per whole-game test: then random moves finish the game


def ev_for(game: romecore.Game) -> str:
    from romecore.plugins import registry

    return "default" if registry.evaluators(game.game_id) else "playout1"


def spec_for(spec: str, game: romecore.Game) -> str:
    return spec.format(ev=ev_for(game))


def midgame(game: romecore.Game, seed: int, steps: int = 40) -> romecore.State:
    """A position some random moves into a seeded game, a player to move."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    state.resolve_chance()
    if state.is_terminal():
        return midgame(game, seed + 1000, steps // 2)
    return state


def test_every_search_agent_is_registered():
    assert {"greedy", "mcts", "ismcts"} <= INSTALLED


@pytest.mark.parametrize("spec", SPECS)
def test_whole_game_only_legal_moves(game, spec):
    """The agent plays every seat, seeing only resampled views, for its first
    MAX_AGENT_MOVES decisions (random moves finish longer games); apply_action raises on
    an illegal move."""
    spec = spec_for(spec, game)
    agents = [romecore.make_agent(spec, game=game, seed=s) for s in range(game.num_players())]
    rng = random.Random(3)
    state = game.new_initial_state(seed=3)
    moves = 0
    while not state.is_terminal():
        p = state.current_player()
        if p == romecore.CHANCE:
            state.apply_random_chance()
        elif moves < MAX_AGENT_MOVES:
            state.apply_action(agents[p].step(state.resample(p, moves)))
            moves += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert moves > 0
    assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_a_whole_game_through_play_game():
    """The shared game loop drives search agents to the end (Great City, 3 players)."""
    game = romecore.load_game("great_city_of_rome", players=3)
    agents = [romecore.make_agent(SMALL[n].format(ev="default"), game=game, seed=1)
              for n in ("mcts", "ismcts", "greedy")]
    result = play_game(game, agents, seed=3)
    assert abs(sum(result.returns) - 1.0) < 1e-9
    assert all(m > 10 for m in result.moves)


def choice_position(game: romecore.Game, seed: int) -> romecore.State:
    """:func:`midgame`, then forced moves played until the player to move has a choice."""
    state = midgame(game, seed)
    while len(state.legal_actions()) < 2:
        state.apply_action(state.legal_actions()[0])
        state.resolve_chance()
    return state


@pytest.mark.parametrize("spec", SPECS)
def test_same_seed_same_move(game, spec):
    spec = spec_for(spec, game)
    for seed in (1, 2):
        state = midgame(game, seed)
        view = state.resample(state.current_player(), seed)
        a = romecore.make_agent(spec, game=game, seed=seed).step(view)
        b = romecore.make_agent(spec, game=game, seed=seed).step(view.clone())
        assert a == b
        assert a in view.legal_actions()


@pytest.mark.parametrize("name", SEARCH_AGENTS)
def test_time_budget_is_kept(name):
    """A 0.2 s budget returns in under 0.3 s (Great City of Rome, 4 players, a position
    with a real choice)."""
    game = romecore.load_game("great_city_of_rome", players=4)
    state = choice_position(game, 5)
    agent = romecore.make_agent(f"{name}:time=0.2", game=game, seed=1)
    t0 = time.perf_counter()
    action = agent.step(state)
    elapsed = time.perf_counter() - t0
    assert action in state.legal_actions()
    assert elapsed < 0.3, f"{name} took {elapsed:.3f}s on a 0.2s budget"
    if name != "greedy":  # greedy may finish its look-ahead early
        assert elapsed > 0.15


@pytest.mark.parametrize("name", SEARCH_AGENTS)
def test_cpu_clock_budget_counts_the_searching_threads_cpu_time(name):
    """``clock=cpu`` spends 0.2 s of the thread's CPU time (what a loaded machine cannot
    shorten), measured here by ``time.thread_time``."""
    game = romecore.load_game("great_city_of_rome", players=4)
    state = choice_position(game, 5)
    agent = romecore.make_agent(f"{name}:time=0.2,clock=cpu", game=game, seed=1)
    assert agent.clock == "cpu"
    t0 = time.thread_time()
    action = agent.step(state)
    used = time.thread_time() - t0
    assert action in state.legal_actions()
    assert used < 0.3, f"{name} used {used:.3f} CPU s on a 0.2 s budget"
    if name != "greedy":
        assert used > 0.15


@pytest.mark.parametrize("spec, untimed_spec", [
    ("ismcts:time=0.2,clock=cpu,cutoff=2", "ismcts:simulations=50,cutoff=2"),
    ("mcts:time=0.2,clock=cpu", "mcts:simulations=50"),
    ("alphabeta:time=0.2,clock=cpu", "alphabeta:nodes=50"),
])
def test_a_time_budget_reads_the_clock_sparingly(spec, untimed_spec):
    """Reading a thread's CPU clock is a system call, as dear as a cheap iteration: a search
    of thousands of iterations reads it only some dozens of times (more as the deadline
    nears), and still keeps its budget."""
    game = romecore.load_game("great_city_of_rome", players=2)
    state = choice_position(game, 5)
    agent = romecore.make_agent(spec, game=game, seed=1)
    t0 = time.thread_time()
    agent.step(state)
    used = time.thread_time() - t0
    iterations, reads = agent.stats["iterations"], agent.stats["clock_reads"]
    assert iterations >= 1000, f"{spec}: {iterations} iterations, too few to tell"
    assert 2 <= reads <= iterations // 8, f"{spec}: {reads} clock reads for {iterations} iterations"
    assert 0.15 < used < 0.3
    untimed = romecore.make_agent(untimed_spec, game=game, seed=1)
    untimed.step(state)
    assert "clock_reads" not in untimed.stats


@pytest.mark.parametrize("name", SEARCH_AGENTS)
def test_iteration_budget_is_counted(name):
    game = romecore.load_game("great_city_of_rome", players=2)
    state = choice_position(game, 7)
    key = {"greedy": "nodes", "alphabeta": "nodes"}.get(name, "simulations")
    agent = romecore.make_agent(f"{name}:{key}=50", game=game, seed=1)
    agent.step(state)
    # Greedy and alpha-beta finish the action in hand when the budget runs out (a few
    # more evaluations); tree searches stop exactly.
    assert 1 <= agent.stats["iterations"] <= (50 if key == "simulations" else 50 + 64 * 4)


@pytest.mark.parametrize("name", SEARCH_AGENTS)
def test_step_refuses_chance_and_terminal(name):
    game = romecore.load_game("great_city_of_rome", players=2)
    agent = romecore.make_agent(SMALL[name].format(ev="default"), game=game, seed=1)
    state = game.new_initial_state(seed=1)
    assert state.is_chance_node()
    with pytest.raises(IllegalActionError):
        agent.step(state)
    state.playout(seed=1)
    with pytest.raises(IllegalActionError):
        agent.step(state)


@pytest.mark.parametrize("name", SEARCH_AGENTS)
def test_step_refuses_another_games_state(name):
    agent = romecore.make_agent(SMALL[name].format(ev="default"),
                                game=romecore.load_game("great_city_of_rome", players=2), seed=1)
    other = romecore.load_game("great_city_of_rome", players=3).new_initial_state(seed=1)
    other.resolve_chance()
    with pytest.raises(ValueError):
        agent.step(other)


@pytest.mark.parametrize("bad", [
    "mcts:nonsense=1", "mcts:simulations=-1", "mcts:rollout=clever", "mcts:c=-1",
    "mcts:eps=2", "ismcts:time=-0.5", "greedy:samples=0", "greedy:lookahead=far",
    "greedy:evaluator=none", "mcts:evaluator=no_such_evaluator,cutoff=5", "mcts:simulations=many",
    "mcts:workers=0", "mcts:max_nodes=3", "mcts:determinize=0", "alphabeta:algorithm=maxn",
    "alphabeta:chance=expect", "alphabeta:depth=99", "alphabeta:evaluator=none",
    "ismcts:expand=sideways", "mcts:bias=-1", "ismcts:widen=1.5", "ismcts:widen=-0.1",
    "ismcts:widen_k=0.5", "ismcts:clock=sundial", "alphabeta:clock=1", "ismcts:sample=-1",
])
def test_bad_parameters_are_refused(bad):
    game = romecore.load_game("great_city_of_rome", players=2)
    if bad.split(":")[0] not in INSTALLED:
        pytest.skip("agent not installed")
    with pytest.raises(AgentSpecError):
        romecore.make_agent(bad, game=game, seed=1)


VARIANTS = ["mcts:simulations=20,cutoff=3,evaluator={ev}", "ismcts:simulations=20,cutoff=3,evaluator={ev}",
            "mcts:simulations=4,rollout=greedy,eps=0.5,cutoff=2,evaluator={ev}",
            "ismcts:simulations=8,rollout=greedy,eps=0.2,sample=2,cutoff=2,evaluator={ev}",
            "mcts:simulations=8,cutoff=2,evaluator=playout1", "mcts:simulations=60,pimc=3",
            "ismcts:simulations=30,cutoff=1,bias=1,widen=0.3,c=0.1,evaluator={ev}",
            "mcts:simulations=30,cutoff=1,bias=1,widen=0.5,reuse=0,evaluator={ev}",
            "ismcts:simulations=20,expand=node", "mcts:simulations=20,expand=node",
            "alphabeta:nodes=60,algorithm=brs,chance=sample,evaluator={ev}",
            "alphabeta:nodes=60,chance=star1,pimc=2,evaluator={ev}",
            "greedy:evaluator=playout1,nodes=60,samples=2"]


@pytest.mark.parametrize("gid", sorted(romecore.list_games()))
@pytest.mark.parametrize("spec", VARIANTS)
def test_variants_play_legal_moves(gid, spec):
    if spec.split(":")[0] not in INSTALLED:
        pytest.skip("agent not installed")
    game = romecore.load_game(gid)
    state = midgame(game, 11)
    agent = romecore.make_agent(spec_for(spec, game), game=game, seed=4)
    for move in range(3):
        if state.is_terminal():
            break
        state.apply_action(agent.step(state.resample(state.current_player(), move)))
        state.resolve_chance()


def test_playout_evaluator_is_the_fallback():
    from romecore_search.core import PlayoutEvaluator, resolve_evaluator

    game = romecore.load_game("great_city_of_rome", players=2)
    ev = resolve_evaluator(game, "playout3")
    assert isinstance(ev, PlayoutEvaluator) and ev.playouts == 3 and ev.is_native
    state = midgame(game, 2)
    values = ev(state)
    assert values == ev(state)  # seeded by the position: the same value every time
    assert abs(sum(values) - 1.0) < 1e-9 and all(0 <= v <= 1 for v in values)
    assert resolve_evaluator(game, "none") is None
    with pytest.raises(AgentSpecError):
        resolve_evaluator(game, "playoutx")


@pytest.mark.parametrize("name,param", [("ismcts", "evaluator"), ("mcts", "evaluator"), ("greedy", "evaluator"),
                                        ("alphabeta", "evaluator"), ("ismcts", "prior"), ("mcts", "prior"),
                                        ("ismcts", "policy")])
def test_an_evaluator_object_of_another_game_is_refused(name, param):
    """A C evaluator made for one game, handed to an agent of another, is refused when the
    agent is made: searching with it would read the other game's state struct as its own
    (a crash, not a wrong value)."""
    cls = registry.agent(name).factory
    gcr = romecore.load_game("great_city_of_rome", players=2)
    gtr = romecore.load_game("glory_to_rome", players=2)
    priors_on = {"bias": 1.0} if param != "evaluator" else {}
    with pytest.raises(AgentSpecError, match="made for great_city_of_rome"):
        cls(game=gtr, seed=1, **{param: romecore.make_evaluator(gcr)}, **priors_on)
    if param != "policy":  # (the heuristic has no policy head)
        cls(game=gcr, seed=1, **{param: romecore.make_evaluator(gcr)})  # its own game: fine
    # a state of another game, handed to the evaluator itself, is refused too
    with pytest.raises(romecore.errors.EvaluatorError, match="not glory_to_rome"):
        romecore.make_evaluator(gcr)(gtr.new_initial_state(seed=1))


def leader_evaluator(calls: list) -> Callable[[romecore.State], list[float]]:
    """A Python evaluator: the returns at the end, else all of the value to the players
    with the best score so far; each call appends to ``calls``."""

    def by_score(state: romecore.State) -> list[float]:
        calls.append(1)
        if state.is_terminal():
            return state.returns()
        s = state.scores()
        best = max(s)
        return [1.0 if v == best else 0.0 for v in s]

    return by_score


def test_python_evaluator_is_usable():
    """An evaluator written in Python runs through the slow path, same results."""
    from romecore_greedy import GreedyAgent

    game = romecore.load_game("great_city_of_rome", players=2)
    calls: list = []
    by_score = leader_evaluator(calls)

    import agent_positions as ap

    agent = GreedyAgent(game, 1, evaluator=by_score)
    state = ap.last_turn()
    assert agent.step(state) == ap.build_market(state)  # terminal leaves: exact
    state = midgame(game, 3)
    assert agent.step(state) in state.legal_actions()
    assert calls  # the Python function was consulted


@pytest.mark.parametrize("name", ["mcts", "ismcts"])
def test_sampled_greedy_rollouts_judge_fewer_actions(name):
    """``sample=k``: a greedy rollout step judges k of the legal actions, not all."""
    if name not in INSTALLED:
        pytest.skip("agent not installed")
    game = romecore.load_game("city_of_marble", players=2)
    state = midgame(game, 5)
    judged = {}
    for k in (0, 1, 3):
        calls: list = []
        # the factory itself: the table's defaults, not the game's (no priors, no cut-off)
        agent = registry.agent(name).factory(game=game, seed=2, simulations=20,
                                             rollout="greedy", eps=0.0, sample=k,
                                             evaluator=leader_evaluator(calls))
        assert agent.step(state) in state.legal_actions()
        judged[k] = len(calls)
    # Every judged state is a candidate of some greedy step (no priors, no cut-off); the
    # rollouts play to the end, so even one candidate a step makes many calls.
    assert 0 < judged[1] < judged[3] < judged[0]


@pytest.mark.parametrize("weights", [{"temperature": 0.0}, {"temperature": -1.0}, {"no_such_weight": 1.0}])
def test_every_heuristic_refuses_bad_weights(game, weights):
    """One weight merger serves every game's heuristic: unknown names and a temperature
    that is not positive are refused with a ValueError naming the problem."""
    from romecore.plugins import registry

    if "heuristic" not in [spec.name for spec in registry.evaluators(game.game_id)]:
        pytest.skip(f"{game.game_id} has no heuristic")
    with pytest.raises(ValueError, match="temperature|unknown"):
        romecore.make_evaluator(game, "heuristic", **weights)
    increments = [k for k in romecore.make_evaluator(game, "heuristic").weights if k.startswith("temperature_")]
    assert increments, "each heuristic's temperature shrinks as the game goes on"
    with pytest.raises(ValueError, match="temperature"):
        romecore.make_evaluator(game, "heuristic", **{increments[0]: -0.5})
