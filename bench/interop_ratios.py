"""Prints the side-by-side numbers of ``bench/test_bench_interop.py`` as rates and ratios.

    python bench/interop_ratios.py [--repeat 5] [--games great_city_of_rome,...]
    python bench/interop_ratios.py --step-loop [--rounds 15]     # the step-loop table only
    python bench/interop_ratios.py --playouts [--rounds 15]      # the C playout table only

Search: simulations per second from one position (median of ``--repeat`` searches after
one warm-up).  Step loop: microseconds per ``legal_actions()`` + ``apply_action()``, and
``ours/hearts``, romecore's time over OpenSpiel's on its C++ ``hearts`` for the same loop
(issue 57 asks for at most 0.5 in every game).  The step loops are timed in interleaved
rounds (hearts, then every game, then again), each engine's best round counting, so a
burst of load on a shared machine hits every engine alike.  Times are the process's CPU
time, so that other work slows the wall clock but not the numbers (everything measured
runs on one thread).

C playouts: nanoseconds per step of uniformly random play to the end inside C
(``State.playout``, 300 games from seed 1's first state, chance steps counted), against
OpenSpiel's C++ random rollouts on ``hearts``, timed through ``MCTSBot.mcts_search`` with
one simulation of ``HEARTS_ROLLOUTS`` rollouts from a dealt deal (pyspiel does not expose
the evaluator alone; the tree's share of that time is one node, and a rollout's length is
counted from the root's first child, so within one step of the truth).  ``hearts/ours`` above 1
means our steps are faster.  Results: ``bench/results/playouts.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
import timeit
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
warnings.simplefilter("ignore")

import test_bench_interop as cases  # noqa: E402


def sims_per_second(make, repeat):
    sims, run = make
    run()
    times = []
    for _ in range(repeat):
        t = time.process_time()
        run()
        times.append(time.process_time() - t)
    return sims / statistics.median(times)


def step_loop_table(games, rounds, number=20000):
    """Microseconds per step of hearts, each game and each game through the OpenSpiel
    adapter: the best of ``rounds`` interleaved rounds of ``number`` steps."""
    loops = {"hearts": cases.step_loop(cases.hearts_root())}
    for g in games:
        loops[g] = cases.step_loop(cases.romecore_root(g))
        loops[g + " adapter"] = cases.step_loop(cases.adapter_root(g))
    best = {name: float("inf") for name in loops}
    for loop in loops.values():
        loop()  # warm up
    for _ in range(rounds):
        for name, loop in loops.items():
            n = number // 4 if name.endswith(" adapter") else number
            best[name] = min(best[name], timeit.timeit(loop, number=n, timer=time.process_time) / n * 1e6)
    return best


HEARTS_ROLLOUTS = 1000
PLAYOUT_GAMES = 300


def hearts_playout_ns(rounds):
    """OpenSpiel's C++ random rollouts on hearts, ns per step: one MCTS simulation of
    HEARTS_ROLLOUTS rollouts from the first decision after the deal, best of rounds."""
    import random

    import pyspiel
    game = pyspiel.load_game("hearts")
    root, rng = game.new_initial_state(), random.Random(0)
    while root.is_chance_node():
        outcomes, probs = zip(*root.chance_outcomes())
        root.apply_action(rng.choices(outcomes, probs)[0])
    child = root.clone()
    child.apply_action(child.legal_actions()[0])
    steps = 0
    while not child.is_terminal():  # no chance after the deal: every rollout is this long
        child.apply_action(child.legal_actions()[0])
        steps += 1
    bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(HEARTS_ROLLOUTS, 1), 0.7, 1, 1000,
                          False, 1, False)
    best = min(timeit.repeat(lambda: bot.mcts_search(root), number=1, repeat=rounds, timer=time.process_time))
    return best / (HEARTS_ROLLOUTS * steps) * 1e9


def romecore_playout_ns(game_id, rounds):
    """State.playout, ns per step (chance included): PLAYOUT_GAMES games, best of rounds."""
    root = cases.romecore_root(game_id)
    best = float("inf")
    for _ in range(rounds):
        steps, t = 0, time.process_time()
        for seed in range(PLAYOUT_GAMES):
            s = root.clone()
            s.playout(seed)
            steps += len(s.history())
        best = min(best, (time.process_time() - t) / steps * 1e9)
    return best


def print_playouts(games, rounds):
    hearts = hearts_playout_ns(rounds)
    print(f"C playouts, ns per step, best of {rounds}; OpenSpiel C++ hearts rollouts: {hearts:.1f} ns")
    print(f"{'game':20} {'romecore':>9} {'hearts/ours':>12}")
    for g in games:
        ours = romecore_playout_ns(g, rounds)
        print(f"{g:20} {ours:9.1f} {hearts / ours:12.2f}")


def print_step_loop(games, rounds):
    us = step_loop_table(games, rounds)
    hearts = us["hearts"]
    print(f"Python step loop (legal_actions + apply_action), us per step, best of {rounds} "
          f"interleaved rounds; OpenSpiel C++ hearts: {hearts:.3f} us")
    print(f"{'game':20} {'romecore':>9} {'ours/hearts':>12} {'via adapter':>12} {'adapter/ours':>13}")
    for g in games:
        ours_us, adapter_us = us[g], us[g + " adapter"]
        print(f"{g:20} {ours_us:9.3f} {ours_us / hearts:12.2f} {adapter_us:12.2f} "
              f"{adapter_us / ours_us:13.1f}")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=15, help="interleaved rounds of the step-loop table")
    ap.add_argument("--step-loop", action="store_true", help="only the step-loop table (no search)")
    ap.add_argument("--playouts", action="store_true", help="only the C playout table (no search)")
    ap.add_argument("--games", default=",".join(cases.GAME_IDS))
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g]

    if args.playouts:
        print_playouts(games, args.rounds)
        return
    if not args.step_loop:
        print(f"{cases.PLAYERS} players, CPU time of one thread; search from the first real decision "
              f"(romecore sims={cases.OUR_SIMS}, OpenSpiel C++ MCTS sims="
              f"{cases.OPENSPIEL_CPP_SIMS}, OpenSpiel Python ISMCTS sims={cases.OPENSPIEL_PY_SIMS})\n")
        print(f"{'game':20} {'ours mcts/s':>12} {'OS C++ mcts/s':>14} {'ratio':>7}   "
              f"{'ours ismcts/s':>13} {'OS py ismcts/s':>15} {'ratio':>7}")
        for g in games:
            om = sims_per_second(cases.ours("mcts", g), args.repeat)
            cm = sims_per_second(cases.openspiel_cpp_mcts(g), args.repeat)
            oi = sims_per_second(cases.ours("ismcts", g), args.repeat)
            pi = sims_per_second(cases.openspiel_py_ismcts(g), args.repeat)
            print(f"{g:20} {om:12.0f} {cm:14.0f} {om / cm:7.1f}   {oi:13.0f} {pi:15.0f} {oi / pi:7.1f}")
        print()
    print_step_loop(games, args.rounds)


if __name__ == "__main__":
    main()
