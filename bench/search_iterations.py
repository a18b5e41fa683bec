#!/usr/bin/env python
"""Iterations a tree search gets through in its budget, over the positions of one game.

Player 0 is the agent under test, every other seat ``greedy``; each agent is handed its
player's resampled view, as in a match.  Prints the median and the deciles of the
agent's ``stats["iterations"]`` and its mean CPU time a move, so a change to the search's
cost shows as iterations per CPU second::

    python bench/search_iterations.py city_of_marble "ismcts:time=0.1,clock=cpu"
    python bench/search_iterations.py city_of_marble "ismcts:time=0.1,clock=cpu" --players 4
"""

from __future__ import annotations

import argparse
import statistics
import time

import romecore


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("agent", help="the agent spec under test (seat 0)")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--moves", type=int, default=60, help="decisions played (all seats)")
    ap.add_argument("--seed", type=int, default=5)
    args = ap.parse_args()

    game = romecore.load_game(args.game, players=args.players)
    state = game.new_initial_state(seed=args.seed)
    agent = romecore.make_agent(args.agent, game=game, seed=1)
    other = romecore.make_agent("greedy", game=game, seed=2)
    iterations: list[int] = []
    cpu: list[float] = []
    moves = 0
    while not state.is_terminal() and moves < args.moves:
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        player = state.current_player()
        view = state.resample(player, seed=moves)
        if player == 0:
            start = time.process_time()
            action = agent.step(view)
            cpu.append(time.process_time() - start)
            iterations.append(int(agent.stats.get("iterations", 0)))
        else:
            action = other.step(view)
        state.apply_action(action)
        moves += 1
    if not iterations:
        raise SystemExit("the agent made no move in the positions played")
    deciles = sorted(iterations)[:: max(1, len(iterations) // 10)]
    print(f"{args.agent} at {args.game}, {args.players} players: {len(iterations)} moves, "
          f"median {statistics.median(iterations):,.0f} iterations, "
          f"{statistics.mean(cpu) * 1000:.1f} ms CPU a move")
    print("deciles:", ", ".join(f"{d:,}" for d in deciles))


if __name__ == "__main__":
    main()
