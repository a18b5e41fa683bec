"""Soak test for Rise to Power: many random games with validation at every step, snapshot
bit-flip fuzzing (whatever validation accepts must play to the end), and resampling.

    python scripts/rtp_soak.py --games 2000 --fuzz 200000

Exits non-zero on the first failure; a crash (segfault) shows as a signal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import romecore


def random_games(games: int, seed: int) -> int:
    steps = 0
    rng = random.Random(seed)
    for g in range(games):
        players = rng.choice((2, 3, 4))
        intrigue = rng.choice(("none", "all", "Vicarius,Tribunus", "Hispania Maximus"))
        game = romecore.load_game("rise_to_power", players=players, intrigue=intrigue)
        st = game.new_initial_state(seed=rng.randrange(1 << 62))
        while not st.is_terminal():
            game.deserialize(st.serialize())  # validates
            if rng.random() < 0.02:
                p = rng.randrange(players)
                w = st.resample(p, rng.randrange(1 << 62))
                assert w.observation_string(p) == st.observation_string(p)
                game.deserialize(w.serialize())
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
            steps += 1
        assert len(st.history()) <= game.max_game_length()
    return steps


def fuzz(trials: int, seed: int) -> tuple[int, int]:
    rng = random.Random(seed)
    loaded = 0
    bases = []
    for k in range(40):
        game = romecore.load_game("rise_to_power", players=rng.choice((2, 3, 4)), intrigue="all")
        st = game.new_initial_state(seed=k)
        for _ in range(rng.randrange(400)):
            if st.is_terminal():
                break
            if st.is_chance_node():
                st.apply_random_chance()
            else:
                st.apply_action(rng.choice(st.legal_actions()))
        bases.append((game, st.serialize(), bytes(st.state_bytes())))
    for t in range(trials):
        game, blob, raw = rng.choice(bases)
        at = blob.index(raw)
        b = bytearray(raw)
        for _ in range(rng.choice((1, 1, 2, 4))):
            i = rng.randrange(len(b))
            if rng.random() < 0.7:
                b[i] ^= 1 << rng.randrange(8)
            else:
                b[i] = rng.randrange(256)
        try:
            s2 = game.deserialize(blob[:at] + bytes(b) + blob[at + len(raw):])
        except romecore.SerializationError:
            continue
        loaded += 1
        s2.legal_actions()
        for p in range(s2.num_players()):
            s2.observation(p)
            s2.resample(p, t)
        s2.to_dict()
        s2.playout(t)
    return trials, loaded


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--fuzz", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    t = time.time()
    steps = random_games(args.games, args.seed)
    print(f"{args.games} games, {steps} validated steps in {time.time() - t:.1f}s")
    t = time.time()
    trials, loaded = fuzz(args.fuzz, args.seed)
    print(f"{trials} corrupted snapshots, {loaded} accepted and played out, in {time.time() - t:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
