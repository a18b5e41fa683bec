"""Soak and fuzz Glory to Rome: many random games with every step validated through a
snapshot round trip and a to_dict round trip, resample checks, and snapshot bit flips.

    python scripts/soak_glory_to_rome.py --games 2000 --flips 200000
"""

from __future__ import annotations

import argparse
import random
import time

import romecore
from romecore import SerializationError


def soak(games: int, seed: int) -> int:
    rng = random.Random(seed)
    steps = 0
    for gi in range(games):
        n = 2 + gi % 4
        g = romecore.load_game("glory_to_rome", players=n, training=gi % 10 == 9)
        st = g.new_initial_state(seed=seed + gi)
        while not st.is_terminal():
            assert g.deserialize(st.serialize()) == st
            if rng.random() < 0.05:
                assert g.state_from_dict(st.to_dict()) == st
                p = rng.randrange(n)
                w = st.resample(p, rng.randrange(1 << 30))
                assert w.observation(p) == st.observation(p)
                g.deserialize(w.serialize())
            la = st.legal_actions()
            assert la and la == sorted(set(la))
            st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(la))
            steps += 1
    return steps


def fuzz(flips: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    g = romecore.load_game("glory_to_rome", players=4)
    base = []
    for i in range(40):
        st = g.new_initial_state(seed=i)
        for _ in range(rng.randrange(0, 700)):
            if st.is_terminal():
                break
            st.apply_action(st.sample_chance() if st.is_chance_node() else rng.choice(st.legal_actions()))
        base.append(st)
    accepted = 0
    for i in range(flips):
        st = base[i % len(base)]
        raw = bytearray(st.state_bytes())
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(raw))
            if rng.random() < 0.5:
                raw[k] ^= 1 << rng.randrange(8)          # a flipped bit
            else:
                raw[k] = rng.choice((0, 1, 2, 5, 6, 35, 36, 143, 144, 255, rng.randrange(256)))
        try:
            w = g.deserialize(st.serialize().replace(st.state_bytes(), bytes(raw)))
        except SerializationError:
            continue
        accepted += 1
        w.to_dict()
        w.observation(i % 4)
        w.resample(i % 4, i)
        w.playout(i)
    return accepted, flips


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--flips", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    t = time.time()
    steps = soak(a.games, a.seed)
    print(f"soak: {a.games} games, {steps} steps validated in {time.time() - t:.1f}s")
    t = time.time()
    acc, total = fuzz(a.flips, a.seed)
    print(f"fuzz: {acc} of {total} flipped snapshots accepted and played out in {time.time() - t:.1f}s")


if __name__ == "__main__":
    main()
