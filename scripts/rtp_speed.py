"""Rise to Power speed numbers without pytest-benchmark (best of several repeats, one
core): playouts/s of full games, Python step loop us/step, snapshot round trip us.

    python scripts/rtp_speed.py [--register]   # --register: no installed entry points
"""

from __future__ import annotations

import sys
import time
import timeit

import romecore

if "--register" in sys.argv:  # a source tree that is not pip-installed
    from romecore.plugins import registry
    import romecore.games.rise_to_power.plugin as _plugin

    registry.register(_plugin, "rise_to_power")


def playouts(players: int, games: int = 4000, repeats: int = 5) -> tuple[float, float]:
    game = romecore.load_game("rise_to_power", players=players)
    root = game.new_initial_state(seed=1)
    best, steps = 0.0, 0
    for r in range(repeats):
        t = time.perf_counter()
        steps = 0
        for i in range(games):
            s = root.clone()
            s.playout(r * games + i)
            steps += s.move_number()
        best = max(best, games / (time.perf_counter() - t))
    return best, steps / games


def step_loop(n: int = 200000) -> float:
    game = romecore.load_game("rise_to_power", players=4)
    root = game.new_initial_state(seed=1)
    box = [root.clone(), 0]

    def step():
        s = box[0]
        if s.is_terminal():
            s = box[0] = root.clone()
        legal = s.legal_actions()
        s.apply_action(legal[box[1] % len(legal)])
        box[1] += 1

    return min(timeit.repeat(step, number=n, repeat=5)) / n * 1e6


def snapshot(n: int = 200000) -> tuple[float, int]:
    game = romecore.load_game("rise_to_power", players=4)
    s = game.new_initial_state(seed=1)
    s.playout(3)
    hist = s.history()
    mid = game.new_initial_state(seed=1)
    for a in hist[: len(hist) // 2]:
        mid.apply_action(a)
    blob = mid.serialize()
    assert game.deserialize(blob) == mid
    t = min(timeit.repeat(lambda: game.deserialize(mid.serialize()), number=n, repeat=5)) / n * 1e6
    return t, len(blob)


if __name__ == "__main__":
    for n in (2, 3, 4):
        gps, length = playouts(n)
        print(f"playouts {n}p: {gps:,.0f} games/s, {gps * length / 1e6:.2f} M actions/s, {length:.0f} actions/game")
    print(f"python step loop: {step_loop():.3f} us/step")
    us, size = snapshot()
    print(f"snapshot round trip: {us:.3f} us, blob {size} bytes "
          f"(struct {romecore.load_game('rise_to_power').state_size()} bytes)")
