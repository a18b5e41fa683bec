"""Agents and threads: one agent shared by several threads serialises its calls (every
move legal, and the move it would make alone wherever a move is a function of seed and
position); separate agents in separate threads give what they give one after the other.

The oracle for legality is the state's own ``legal_actions()``; the oracle for the moves
is the same agent spec and seed stepped in one thread."""

from __future__ import annotations

import functools
import threading
import warnings

import pytest
from test_agents_common import ev_for, midgame

import romecore
from romecore.errors import RomecoreError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    INSTALLED_AGENTS = set(romecore.list_agents())
    GAMES = sorted(romecore.list_games())

THREADS = 4
ROUNDS = 2        # each thread steps every position this many times
POSITIONS = 4     # positions per game, each with a real choice
JOIN_TIMEOUT = 60.0  # a hang fails the test instead of blocking the run

#: name -> (spec, deterministic when shared).  A shared agent's move is a function of its
#: seed and the position except where it keeps something between calls: mcts's kept tree,
#: what ismcts and alphabeta keep within a turn (reuse) and random's single stream make
#: the move depend on the order of the calls, so there only legality is checked.
AGENTS = {
    "random": ("random", False),
    "greedy": ("greedy:evaluator={ev}", True),
    "mcts": ("mcts:simulations=50,reuse=0", True),
    "mcts-reuse": ("mcts:simulations=50", False),
    "ismcts": ("ismcts:simulations=50", True),
    "ismcts-reuse": ("ismcts:simulations=50,reuse=1", False),
    "alphabeta": ("alphabeta:depth=2,nodes=500,evaluator={ev}", True),
    "alphabeta-reuse": ("alphabeta:depth=2,nodes=500,reuse=1,evaluator={ev}", False),
}


def make(name: str, game: romecore.Game, seed: int):
    spec = AGENTS[name][0]
    if spec.split(":")[0] not in INSTALLED_AGENTS:
        pytest.skip(f"{spec.split(':')[0]} not installed")
    return romecore.make_agent(spec.format(ev=ev_for(game)), game=game, seed=seed)


@functools.cache
def game_of(gid: str) -> romecore.Game:
    return romecore.load_game(gid, players=2)


@functools.cache
def _positions(gid: str) -> tuple:
    game = game_of(gid)
    out, seed = [], 0
    while len(out) < POSITIONS:
        seed += 1
        state = midgame(game, seed, 4 + 9 * seed)
        if len(state.legal_actions()) >= 2:
            out.append(state)
    return tuple(out)


def positions(gid: str) -> list:
    """Mid-game positions with a choice to make (fresh clones: tests never share one)."""
    return [s.clone() for s in _positions(gid)]


def run_threads(work, n: int) -> list:
    """Runs ``work(t)`` in n threads released together; their results in thread order.
    An exception in a thread is raised here; a thread still running after the timeout
    fails the test."""
    barrier = threading.Barrier(n)
    results: list = [None] * n
    errors: list = []

    def body(t):
        try:
            barrier.wait()
            results[t] = work(t)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(t,), daemon=True) for t in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(JOIN_TIMEOUT)
    assert not any(th.is_alive() for th in threads), "a thread hangs"
    if errors:
        raise errors[0]
    return results


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("name", list(AGENTS))
@pytest.mark.parametrize("same_state", [False, True], ids=["different-states", "clones"])
def test_one_agent_shared_by_four_threads(gid, name, same_state):
    """Four threads step one agent ROUNDS times over the positions (each thread in
    another order), or all on clones of one position: every move is legal for the state
    it was given, and, for an agent deterministic by seed, the one-thread move."""
    game = game_of(gid)
    states = positions(gid)
    if same_state:
        states = [states[0]] * len(states)
    expected = [make(name, game, 7).step(s.clone()) for s in states]
    shared = make(name, game, 7)

    def work(t):
        mine = [s.clone() for s in states]  # a thread's own states
        order = [(t * 2 + i) % len(mine) for i in range(len(mine))] * ROUNDS
        return [(i, mine[i], shared.step(mine[i])) for i in order]

    done = [move for moves in run_threads(work, THREADS) for move in moves]
    assert len(done) == THREADS * ROUNDS * len(states)
    for _, state, action in done:
        assert action in state.legal_actions(), f"{name} chose illegal action {action}"
    if AGENTS[name][1]:
        assert [a for i, _, a in done] == [expected[i] for i, _, _ in done]


def play(agent, game: romecore.Game, seed: int, moves: int = 12) -> list:
    """The agent's actions over the first ``moves`` decisions of a seeded game in which
    it plays every seat (chance drawn by the state's own dealer)."""
    state = game.new_initial_state(seed=seed)
    out = []
    while len(out) < moves and not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        a = agent.step(state.resample(state.current_player(), len(out)))
        assert a in state.legal_actions()
        state.apply_action(a)
        out.append(a)
    return out


@pytest.mark.parametrize("gid", GAMES)
@pytest.mark.parametrize("name", list(AGENTS))
def test_two_agents_in_two_threads_play_as_one_after_the_other(gid, name):
    """Two agents (seeds 1 and 2), each playing its own game in its own thread, make
    exactly the moves they make one after the other (kept trees and streams included)."""
    game = game_of(gid)
    alone = [play(make(name, game, s + 1), game, 10 + s) for s in range(2)]
    agents = [make(name, game, s + 1) for s in range(2)]
    together = run_threads(lambda t: play(agents[t], game, 10 + t), 2)
    assert together == alone


def test_python_evaluator_in_shared_and_separate_agents():
    """A Python evaluator: the C search takes the GIL back for each call; shared or
    separate, the moves are the one-thread moves."""
    from romecore_mcts import MCTSAgent

    gid = "great_city_of_rome"
    game = game_of(gid)
    calls = []

    def evaluator(state):
        calls.append(1)
        s = state.scores()
        total = sum(s) + len(s)
        return [(v + 1) / total for v in s]

    def agent():
        return MCTSAgent(game, seed=3, simulations=40, cutoff=2, evaluator=evaluator, reuse=False)

    states = positions(gid)
    expected = [agent().step(s) for s in states]
    assert calls  # the evaluator is used
    shared = agent()
    results = run_threads(lambda t: [shared.step(s.clone()) for s in states], THREADS)
    assert results == [expected] * THREADS
    separate = [agent() for _ in range(2)]
    results = run_threads(lambda t: [separate[t].step(s.clone()) for s in states], 2)
    assert results == [expected] * 2


def test_one_playout_evaluator_serves_agents_in_two_threads():
    """The playout evaluator keeps its scratch per call: two greedy agents holding the
    same evaluator object move in threads as they move alone."""
    from romecore_greedy import GreedyAgent
    from romecore_search.core import PlayoutEvaluator

    gid = "great_city_of_rome"
    game = game_of(gid)
    ev = PlayoutEvaluator(game, 2)
    states = positions(gid)

    def moves(agent):  # each action with the values greedy gave the root's actions
        out = []
        for st in states:
            out.append((agent.step(st.clone()), agent.stats["values"]))
        return out

    alone = [moves(GreedyAgent(game, seed=s, nodes=200, evaluator=ev)) for s in range(2)]
    for _ in range(3):
        agents = [GreedyAgent(game, seed=s, nodes=200, evaluator=ev) for s in range(2)]
        assert run_threads(lambda t, agents=agents: moves(agents[t]), 2) == alone


def test_restart_and_reseed_while_another_thread_steps():
    """restart (which drops mcts's tree) and reseed wait for the step under way."""
    if "mcts" not in INSTALLED_AGENTS:
        pytest.skip("mcts not installed")
    gid = "glory_to_rome"
    game = game_of(gid)
    agent = make("mcts-reuse", game, 1)
    states = positions(gid)

    def work(t):
        for r in range(5):
            if t == 0:
                for s in states:
                    assert agent.step(s) in s.legal_actions()
            else:
                agent.restart()
                agent.reseed(r)
        return True

    assert run_threads(work, 2) == [True, True]


def test_step_from_inside_its_own_search_raises():
    """A Python evaluator that steps the agent calling it gets a RomecoreError instead of
    waiting forever for the agent's lock; the agent works afterwards."""
    from romecore_mcts import MCTSAgent

    game = game_of("great_city_of_rome")
    state = positions("great_city_of_rome")[0]
    reenter = [True]

    def evaluator(s):
        if reenter[0]:
            agent.step(state)
        return [0.5, 0.5]

    agent = MCTSAgent(game, seed=1, simulations=5, cutoff=1, evaluator=evaluator)
    with pytest.raises(RomecoreError, match="inside"):
        agent.step(state)
    reenter[0] = False
    assert agent.step(state) in state.legal_actions()  # the lock was let go


#: Searches that spend their whole 0.1 s budget (greedy's look-ahead ends early with the
#: heuristic, so it judges by random playouts here).
TIMED = ["greedy:time=0.1,evaluator=playout8", "mcts:time=0.1", "ismcts:time=0.1",
         "alphabeta:time=0.1"]


@pytest.mark.parametrize("spec", TIMED)
def test_search_lets_python_run_meanwhile(spec):
    """The search runs without the GIL: a Python thread counts on while an agent
    searches for 0.1 s (were the GIL held, it could not count at all meanwhile)."""
    if spec.split(":")[0] not in INSTALLED_AGENTS:
        pytest.skip(f"{spec.split(':')[0]} not installed")
    game = game_of("great_city_of_rome")
    state = positions("great_city_of_rome")[0]
    agent = romecore.make_agent(spec, game=game, seed=1)
    counts, started, done = [0], threading.Event(), threading.Event()

    def count(t):
        started.set()
        while not done.is_set():
            counts[0] += 1
        return True

    def search(t):
        if t == 0:
            return count(t)
        started.wait()
        before = counts[0]
        agent.step(state)
        during = counts[0] - before
        done.set()
        return during

    during = run_threads(search, 2)[1]
    assert during > 1000, f"the Python thread counted {during} times during the search"
