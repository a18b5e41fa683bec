"""Soak test for any game: many random games of every player count, with the snapshot and
the dict form validated at every step, and every so often each player's resampled world
checked to be a state the game could really be in (it loads back through ``deserialize``
and ``state_from_dict`` and shows that player the same view).

    python scripts/soak.py rise_to_power --games 2000 -o intrigue=all
    python scripts/soak.py glory_to_rome --games 3000 --resample-rate 0.2

Corrupt snapshots and dicts are ``scripts/fuzz.py``'s work.  Exits non-zero on the first
failure; a crash (segfault) shows as a signal.
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


def check_world(game: romecore.Game, world: romecore.State, player: int,
                truth: romecore.State) -> None:
    """A resampled world must load back in both forms and show ``player`` what the truth does."""
    assert game.deserialize(world.serialize()) == world, "resampled world's snapshot refused"
    assert game.state_from_dict(world.to_dict()) == world, "resampled world's dict refused"
    assert world.observation_string(player) == truth.observation_string(player)


def random_games(games: list[romecore.Game], count: int, seed: int,
                 resample_rate: float = 0.05) -> int:
    """Plays ``count`` random games checking every step; returns the steps taken."""
    steps = 0
    rng = random.Random(seed)
    for _ in range(count):
        game = rng.choice(games)
        st = game.new_initial_state(seed=rng.randrange(1 << 62))
        while not st.is_terminal():
            assert game.deserialize(st.serialize()) == st  # validates
            assert game.state_from_dict(st.to_dict(history=False)) == st
            if rng.random() < resample_rate:
                for p in range(game.num_players()):
                    check_world(game, st.resample(p, rng.randrange(1 << 62)), p, st)
            _random_step(st, rng)
            steps += 1
        assert st.move_number() <= game.max_game_length()
    return steps


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--resample-rate", type=float, default=0.05,
                    help="share of steps at which every player's world is resampled and checked")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    options = dict(o.split("=", 1) for o in args.option)
    games = _games(args.game, options)
    t = time.time()
    steps = random_games(games, args.games, args.seed, args.resample_rate)
    print(f"{args.games} games, {steps} validated steps in {time.time() - t:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
