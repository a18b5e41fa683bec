"""Where an agent's points come from: the seat-rotated games of ``weights_screen.py`` (an
agent against copies of an opponent, each handed only its player's resampled view, either
optionally on the heuristic with overridden weights), then the mean final score of each
score-pad category, the agent's beside the opponents' mean.  A diagnostic for an
evaluator: the categories a stronger agent gains in are the ones the evaluator undervalues.

    python bench/score_breakdown.py great_city_of_rome 2 30 5 "ismcts:time=0.05,clock=cpu" greedy

Games are seeded from the seed: with the same seed, the games of ``weights_screen.py``.
"""

from __future__ import annotations

from collections import defaultdict

import romecore
from weights_screen import parser, play


def main(argv: list[str] | None = None) -> None:
    a = parser(__doc__).parse_args(argv)
    game = romecore.load_game(a.game, players=a.players)
    mine: dict[str, float] = defaultdict(float)
    theirs: dict[str, float] = defaultdict(float)
    won = 0.0
    for g in range(a.games):
        seat = g % a.players
        state = play(game, a.agent, a.opponent, a.seed, g)
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
