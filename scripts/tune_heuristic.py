"""Tunes a hand-written evaluator's weights for the greedy agent, reproducibly.

The objective is what the evaluator is for: ``greedy`` with the weights against ``random``
at every player count (seats rotated), each count's mean return divided by par (1/n),
averaged over the counts.  Every candidate plays the same seeded games (common random
numbers), so differences are the weights', not the dice's.  The search is coordinate
descent: sweep the weights in table order, try each at 0, half and double its value, keep
the best if it beats the current table by ``--margin`` (tables the evaluator refuses, as
breaking its invariants, are skipped); repeat ``--sweeps`` times.  It
starts from the game's start table below (or the module's ``WEIGHTS`` with ``--from-module``)
and finally reports start and result on fresh seeds.  Same arguments, same table:

    python scripts/tune_heuristic.py glory_to_rome --games 100 --sweeps 1 --seed 1
"""

from __future__ import annotations

import argparse
import importlib
import time

import romecore
from romecore_greedy.greedy import GreedyAgent

#: Where a search starts: every feature weight at 0.5 (no prior beyond the features), the
#: softmax temperatures as listed.
START_TEMPERATURES = {"temperature": 1.5, "temperature_per_left": 6.0}


def play(game_id: str, n: int, weights: dict, games: int, seed: int) -> float:
    """Greedy's mean return against n-1 random players over ``games`` seeded games,
    divided by par."""
    game = romecore.load_game(game_id, players=n)
    ev = romecore.make_evaluator(game, "heuristic", **weights)
    total = 0.0
    for g in range(games):
        seat = g % n
        st = game.new_initial_state(seed=seed * 100003 + g)
        agents = [GreedyAgent(game, seed=seed + g, evaluator=ev) if p == seat
                  else romecore.make_agent("random", game=game, seed=seed * 7919 + g * n + p)
                  for p in range(n)]
        k = 0
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_random_chance()
                continue
            p = st.current_player()
            k += 1
            st.apply_action(agents[p].step(st.resample(p, seed=k)))
        total += st.returns()[seat]
    return total / games * n


def objective(game_id: str, counts: list[int], weights: dict, games: int, seed: int) -> tuple:
    per = [play(game_id, n, weights, games, seed + n) for n in counts]
    return sum(per) / len(per), per


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=100, help="games per player count per try")
    ap.add_argument("--sweeps", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--margin", type=float, default=0.02, help="least gain kept (x par)")
    ap.add_argument("--players", type=int, nargs="*", help="player counts (default: all)")
    ap.add_argument("--from-module", action="store_true", help="start from WEIGHTS")
    args = ap.parse_args()

    module = importlib.import_module(f"romecore.games.{args.game}.heuristic")
    spec = romecore.load_game(args.game).spec
    counts = args.players or list(range(spec.min_players, spec.max_players + 1))
    if args.from_module:
        weights = dict(module.WEIGHTS)
    else:
        weights = {k: START_TEMPERATURES.get(k, 0.5) for k in module.WEIGHTS}
    start = dict(weights)
    best, per = objective(args.game, counts, weights, args.games, args.seed)
    print(f"start: {best:.3f} x par {[round(x, 2) for x in per]}", flush=True)
    for sweep in range(args.sweeps):
        t0 = time.time()
        for key in module.WEIGHTS:
            v = weights[key]
            tries = {0.0, v / 2, v * 2} if v else {0.5, 1.0}
            for t in sorted(tries):
                cand = dict(weights, **{key: round(t, 4)})
                try:
                    romecore.make_evaluator(romecore.load_game(args.game), "heuristic", **cand)
                except ValueError:
                    continue    # weights the evaluator refuses
                score, cper = objective(args.game, counts, cand, args.games, args.seed)
                if score > best + args.margin:
                    best, per, weights = score, cper, cand
                    print(f"  {key} = {t:.4g}: {best:.3f} x par {[round(x, 2) for x in per]}",
                          flush=True)
        print(f"sweep {sweep + 1}: {best:.3f} x par, {time.time() - t0:.0f} s", flush=True)
    fresh = args.seed + 5000
    s0, p0 = objective(args.game, counts, start, args.games, fresh)
    s1, p1 = objective(args.game, counts, weights, args.games, fresh)
    print(f"fresh seeds: start {s0:.3f} {[round(x, 2) for x in p0]}, "
          f"tuned {s1:.3f} {[round(x, 2) for x in p1]} (x par, players {counts})")
    print("WEIGHTS tuned:")
    for k, v in weights.items():
        print(f"    {k!r}: {v},")


if __name__ == "__main__":
    main()
