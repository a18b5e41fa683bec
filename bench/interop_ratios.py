"""Prints the side-by-side numbers of ``bench/test_bench_interop.py`` as rates and ratios.

    python bench/interop_ratios.py [--repeat 5] [--games great_city_of_rome,...]

Search: simulations per second from one position (median of ``--repeat`` searches after
one warm-up).  Step loop: microseconds per ``legal_actions()`` + ``apply_action()``
(best of ``--repeat`` timeit runs).  Times are the process's CPU time, so that other
work on a shared machine slows the wall clock but not the numbers (everything measured
runs on one thread).
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


def step_us(step, repeat, number=20000):
    step()
    return min(timeit.repeat(step, number=number, repeat=repeat, timer=time.process_time)) / number * 1e6


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--games", default=",".join(cases.GAME_IDS))
    args = ap.parse_args(argv)
    games = [g for g in args.games.split(",") if g]

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

    hearts = step_us(cases.step_loop(cases.hearts_root()), args.repeat)
    print(f"\nPython step loop (legal_actions + apply_action), us per step; "
          f"OpenSpiel C++ hearts: {hearts:.2f} us")
    print(f"{'game':20} {'romecore':>9} {'hearts/ours':>12} {'via adapter':>12} {'adapter/ours':>13}")
    for g in games:
        ours_us = step_us(cases.step_loop(cases.romecore_root(g)), args.repeat)
        adapter_us = step_us(cases.step_loop(cases.adapter_root(g)), args.repeat, number=5000)
        print(f"{g:20} {ours_us:9.2f} {hearts / ours_us:12.1f} {adapter_us:12.2f} "
              f"{adapter_us / ours_us:13.1f}")


if __name__ == "__main__":
    main()
