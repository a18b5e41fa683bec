#!/usr/bin/env python
"""The cost of a :class:`romecore.interop.gym.RomeEnv` step per opponent: milliseconds of
CPU per learner step, the learner playing uniformly random legal moves, over whole seeded
games (2 players unless ``--players``), each opponent spec against each game::

    python bench/gym_env_step.py
    python bench/gym_env_step.py --games 10 --opponents random greedy level:Casual

A step is the learner's move, then every opponent move (and chance) up to the learner's
next turn, so the opponent's thinking is most of it; ``random`` is the environment's own
cost.  The table printed is the one in ``romecore.interop.gym``'s docstring.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import romecore
from romecore.interop.gym import RomeEnv


def ms_per_step(game_id: str, opponent: str, players: int, games: int) -> float:
    """CPU milliseconds per learner step over ``games`` seeded games."""
    env = RomeEnv(game_id, opponent=opponent, players=players)
    rng = np.random.default_rng(0)
    steps, cpu = 0, 0.0
    for seed in range(games):
        t0 = time.process_time()
        obs, _ = env.reset(seed=seed)
        terminated = False
        while not terminated:
            obs, _, terminated, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
        cpu += time.process_time() - t0
    return 1000 * cpu / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="seeded games per cell (default 4)")
    parser.add_argument("-p", "--players", type=int, default=2)
    parser.add_argument("--opponents", nargs="+", default=["random", "greedy", "level:Beginner"])
    args = parser.parse_args()
    game_ids = romecore.list_games()
    print(f"{'opponent':<16}" + "".join(f"{g:>20}" for g in game_ids) + "   (ms per step)")
    for spec in args.opponents:
        cells = [ms_per_step(g, spec, args.players, args.games) for g in game_ids]
        print(f"{spec:<16}" + "".join(f"{c:>20.2f}" for c in cells))


if __name__ == "__main__":
    main()
