"""Learned evaluator speed: evaluations/s of each game's shipped 2-player net through the C
path (``LearnedEvaluator.rate``: the rc_eval_fn called in a loop without the GIL), over
states spread along a random game (decisions and chance nodes, whose cost differs).

    python -m pytest bench/test_bench_learned.py --benchmark-enable --benchmark-columns=mean,median

Target (issue 16; recorded in extra_info, never asserted): >= 200,000 evaluations/s on one
core for every game's shipped network.
"""

from __future__ import annotations

import pytest

import romecore
from conftest import states_along_a_game
from romecore.learned import ensure_registered
from romecore.learned.plugin import games_with_weights

CALLS = 20_000


@pytest.mark.parametrize("gid", games_with_weights())
def test_learned_eval_rate(benchmark, gid):
    ensure_registered()
    game = romecore.load_game(gid, players=2)
    ev = romecore.make_evaluator(game, "learned")
    states = [s for s in states_along_a_game(game, count=8) if not s.is_terminal()]

    def run():
        return sum(CALLS / ev.rate(s, CALLS) for s in states)  # seconds for CALLS calls per state

    seconds = benchmark.pedantic(run, rounds=3, iterations=1)
    rate = CALLS * len(states) / seconds
    benchmark.extra_info.update(target_evals_per_s=200_000, evals_per_s=round(rate),
                                hidden=ev.weights.hidden, tensor=game.observation_tensor_size())
    print(f"{gid}: {rate:,.0f} evaluations/s (hidden {ev.weights.hidden})")
