"""Glory to Rome speed on one core, by CPU time (process_time: robust on a shared
machine) and wall time: C playouts of full games, steps/s, the Python step loop
(legal_actions + apply_action), snapshot round trip (serialize + deserialize with
validation), blob size.

    python scripts/speed_glory_to_rome.py [--players 4] [--games 2000]
"""

from __future__ import annotations

import argparse
import random
import time

import romecore


def timed(fn, reps):
    c0, w0 = time.process_time(), time.perf_counter()
    for _ in range(reps):
        fn()
    return (time.process_time() - c0) / reps, (time.perf_counter() - w0) / reps


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=2000)
    a = ap.parse_args()
    g = romecore.load_game("glory_to_rome", players=a.players)
    root = g.new_initial_state(seed=1)
    seeds = iter(range(10 ** 9))
    steps = [0]

    def one_game():
        s = root.clone()
        s.playout(next(seeds))
        steps[0] += s.move_number()

    cpu, wall = timed(one_game, a.games)
    per_game = steps[0] / a.games
    print(f"{a.players}p playouts: {1 / cpu:,.0f} games/s CPU ({1 / wall:,.0f} wall), "
          f"{per_game:.0f} actions/game, {per_game / cpu:,.0f} steps/s CPU")

    box = [root.clone(), 0]

    def step():
        s = box[0]
        if s.is_terminal():
            s = box[0] = root.clone()
        legal = s.legal_actions()
        s.apply_action(legal[box[1] % len(legal)])
        box[1] += 1

    cpu, wall = timed(step, 300_000)
    print(f"Python step loop: {cpu * 1e6:.2f} us/step CPU ({wall * 1e6:.2f} wall)")

    mid = root.clone()
    rng = random.Random(1)
    for _ in range(300):
        mid.apply_action(mid.sample_chance() if mid.is_chance_node() else rng.choice(mid.legal_actions()))
    cpu, wall = timed(lambda: g.deserialize(mid.serialize()), 50_000)
    print(f"snapshot round trip: {cpu * 1e6:.2f} us CPU ({wall * 1e6:.2f} wall), "
          f"blob {len(mid.serialize())} bytes, struct {g.state_size()} bytes")


if __name__ == "__main__":
    main()
