"""Soak test for any game: many random games with the snapshot validated at every step and
resampling checked, then snapshot fuzzing (corrupt bytes inside the struct: whatever
validation accepts must play on to the end without a crash).

    python scripts/soak.py rise_to_power --games 2000 --fuzz 200000 -o intrigue=all
    python scripts/soak.py glory_to_rome --games 3000 --fuzz 400000

Exits non-zero on the first failure; a crash (segfault) shows as a signal.
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import romecore
from romecore.plugins import registry


def _games(game_id: str, options: dict) -> list[romecore.Game]:
    spec = registry.game(game_id)
    return [romecore.load_game(game_id, players=n, **options)
            for n in range(spec.min_players, spec.max_players + 1)]


def _random_step(state: romecore.State, rng: random.Random) -> None:
    if state.is_chance_node():
        state.apply_random_chance()
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def random_games(games: list[romecore.Game], count: int, seed: int) -> int:
    steps = 0
    rng = random.Random(seed)
    for _ in range(count):
        game = rng.choice(games)
        st = game.new_initial_state(seed=rng.randrange(1 << 62))
        while not st.is_terminal():
            assert game.deserialize(st.serialize()) == st  # validates
            if rng.random() < 0.02:
                p = rng.randrange(game.num_players())
                w = st.resample(p, rng.randrange(1 << 62))
                assert w.observation_string(p) == st.observation_string(p)
                game.deserialize(w.serialize())
            _random_step(st, rng)
            steps += 1
        assert st.move_number() <= game.max_game_length()
    return steps


def fuzz(games: list[romecore.Game], trials: int, seed: int) -> int:
    rng = random.Random(seed)
    bases = []
    for k in range(40):
        game = rng.choice(games)
        st = game.new_initial_state(seed=k)
        for _ in range(rng.randrange(600)):
            if st.is_terminal():
                break
            _random_step(st, rng)
        bases.append((game, st.serialize(), bytes(st.state_bytes())))
    loaded = 0
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
        str(s2)
        s2.playout(t)
    return loaded


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--fuzz", type=int, default=20000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    games = _games(args.game, options)
    t = time.time()
    steps = random_games(games, args.games, args.seed)
    print(f"{args.games} games, {steps} validated steps in {time.time() - t:.1f}s")
    t = time.time()
    loaded = fuzz(games, args.fuzz, args.seed)
    print(f"{args.fuzz} corrupted snapshots, {loaded} accepted and played out, in {time.time() - t:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
