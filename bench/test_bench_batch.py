"""romecore.batch speed, one core: game steps/s at N = 1, 64 and 1024 for every game with
legal masks and observation tensors read every step, beside the per-state Python loop
doing the same and the C playout rate (the runners live in ``batch_rates.py``, which
prints the same comparison as a table).

    python -m pytest bench/test_bench_batch.py --benchmark-enable --benchmark-columns=mean,ops

``extra_info["steps_per_s"]`` is the rate at the mean call (``steps_per_s_best`` at the
fastest; a call makes ``steps_per_call`` player steps);
``target_steps_per_s`` is the issue's target at N = 1024, recorded, never asserted.
A game without an observation tensor yet is timed with masks only (``tensors`` False).
"""

from __future__ import annotations

import pytest

import romecore
from batch_rates import PLAYERS, SIZES, TARGETS, batch_runner, has_tensor, playout_runner, python_runner

GAMES = romecore.list_games()


def timed(benchmark, runner, **info):
    run, steps = runner
    benchmark.extra_info.update(info, steps_per_call=steps)
    benchmark(run)
    if benchmark.stats is not None:  # None under --benchmark-disable
        benchmark.extra_info["steps_per_s"] = steps / benchmark.stats.stats.mean
        benchmark.extra_info["steps_per_s_best"] = steps / benchmark.stats.stats.min  # least noise


@pytest.fixture(params=GAMES)
def game(request):
    return romecore.load_game(request.param, players=PLAYERS)


@pytest.mark.parametrize("n", SIZES)
def test_batch_steps(benchmark, game, n):
    tensors = has_tensor(game)
    info = {"n": n, "tensors": tensors}
    if n == 1024:
        info["target_steps_per_s"] = TARGETS.get(game.game_id)
    timed(benchmark, batch_runner(game, n, tensors), **info)


def test_batch_steps_masks_only(benchmark, game):
    timed(benchmark, batch_runner(game, 1024, tensors=False), n=1024, tensors=False)


def test_python_state_loop(benchmark, game):
    tensors = has_tensor(game)
    timed(benchmark, python_runner(game, tensors), tensors=tensors)


def test_c_playout(benchmark, game):
    timed(benchmark, playout_runner(game))
