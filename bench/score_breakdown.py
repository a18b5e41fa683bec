"""Where an agent's points come from: seat-rotated games of an agent against copies of an
opponent (each handed only its player's resampled view, as in a tournament), then the
mean final score of each score-pad category, the agent's beside the opponents' mean.  A
diagnostic for an evaluator: the categories a stronger agent gains in are the ones the
evaluator undervalues.

    python bench/score_breakdown.py great_city_of_rome 2 30 5 "ismcts:time=0.05,clock=cpu" greedy

Games are seeded from the seed: the same command gives the same games.
"""

from __future__ import annotations

import argparse
from collections import defaultdict

import romecore
from romecore.match import play_game


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("agent")
    ap.add_argument("opponent")
    a = ap.parse_args(argv)
    game = romecore.load_game(a.game, players=a.players)
    mine: dict[str, float] = defaultdict(float)
    theirs: dict[str, float] = defaultdict(float)
    won = 0.0
    for i in range(a.games):
        seat = i % a.players
        seed = a.seed * 100_003 + i
        specs = [a.agent if p == seat else a.opponent for p in range(a.players)]
        agents = [romecore.make_agent(s, game=game, seed=seed * 7 + p) for p, s in enumerate(specs)]
        state = game.new_initial_state(seed=seed)
        play_game(game, agents, seed, state=state)  # plays ``state`` on to the end
        won += state.returns()[seat]
        for p in range(a.players):
            for k, v in state.score_breakdown(p).items():
                if isinstance(v, (int, float)):
                    if p == seat:
                        mine[k] += v / a.games
                    else:
                        theirs[k] += v / a.games / (a.players - 1)
    print(f"{a.agent} vs {a.opponent}, {a.game} {a.players}p, {a.games} games, seed {a.seed}: "
          f"win rate {won / a.games:.3f}")
    print(f"| category | {a.agent} | {a.opponent} |\n| --- | ---: | ---: |")
    for k in mine:
        print(f"| {k} | {mine[k]:.1f} | {theirs[k]:.1f} |")


if __name__ == "__main__":
    main()
