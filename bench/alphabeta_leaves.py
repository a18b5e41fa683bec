#!/usr/bin/env python
"""Leaves an alpha-beta search judges at a fixed depth, over positions of `greedy` games.

Every seventh decision of a few seeded `greedy` self-play games (2 players) is searched,
from the mover's resampled view, by each spec given (with ``--random N``: instead N
positions 30, 37, 44, ... random moves into seeded games, where `greedy` games are too
slow to search); the count of evaluator calls
(``stats["evaluations"]``, move ordering's included) is the search's cost independent of
the machine.  Also printed: the CPU seconds and a digest of the moves chosen, so a change
meant to prune only (the same values) shows as fewer leaves and, ties aside, the same
moves::

    python bench/alphabeta_leaves.py great_city_of_rome "alphabeta:depth=5,pvs=0" "alphabeta:depth=5,pvs=1"

With ``--reference SPEC`` (typically a longer time budget) each spec's moves are also
counted where they agree with that search's, and the median depth finished is printed: a
change meant to search deeper in the same time should agree more often::

    python bench/alphabeta_leaves.py great_city_of_rome --games 5 --every 2 \
        --reference "alphabeta:time=0.4,clock=cpu" \
        "alphabeta:time=0.1,clock=cpu" "alphabeta:time=0.1,clock=cpu,lmr=2"
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from pathlib import Path

import romecore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "agents"))
from test_agents_common import midgame  # noqa: E402  (the tests' random positions)


def positions(game: romecore.Game, games: int, every: int) -> list[romecore.State]:
    """The mover's resampled view at every ``every``-th decision of ``games`` greedy games."""
    out = []
    for g in range(games):
        state = game.new_initial_state(seed=100 + g)
        bots = [romecore.make_agent("greedy", game=game, seed=2 * g + i)
                for i in range(game.num_players())]
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_random_chance()
                continue
            p = state.current_player()
            if n % every == 0 and len(state.legal_actions()) > 1:
                out.append(state.resample(p, seed=n))
            state.apply_action(bots[p].step(state.resample(p, seed=n)))
            n += 1
    return out


def random_positions(game: romecore.Game, count: int) -> list[romecore.State]:
    """Position ``i`` is ``30 + 7 i`` seeded random moves into game ``i`` (the tests'
    ``midgame``), as its mover sees it."""
    out = []
    for i in range(count):
        state = midgame(game, i, steps=30 + 7 * i)
        out.append(state.resample(state.current_player(), seed=i))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("specs", nargs="+", help="alphabeta specs with a fixed depth")
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("--random", type=int, default=0, help="N random positions instead")
    ap.add_argument("--reference", help="count the moves that agree with this spec's")
    args = ap.parse_args()
    game = romecore.load_game(args.game, players=2)
    views = (random_positions(game, args.random) if args.random
             else positions(game, args.games, args.every))
    reference = [romecore.make_agent(args.reference, game=game, seed=i).step(view)
                 for i, view in enumerate(views)] if args.reference else []
    for spec in args.specs:
        digest = hashlib.sha1()
        leaves = agree = 0
        depths = []
        t0 = time.process_time()
        for i, view in enumerate(views):
            agent = romecore.make_agent(spec, game=game, seed=i)
            move = agent.step(view)
            digest.update(str(move).encode())
            leaves += agent.stats["evaluations"]
            depths.append(agent.stats["depth"])
            agree += bool(reference) and move == reference[i]
        cpu = time.process_time() - t0
        print(f"{spec}: {len(views)} positions, {leaves} leaves, {cpu:.2f} s CPU, "
              f"moves {digest.hexdigest()[:12]}"
              + (f", median depth {statistics.median(depths)}, {agree} agree with the reference"
                 if reference else ""))


if __name__ == "__main__":
    main()
