"""``bench/value_loss.py``: every net judged on the same shards.  A residual net whose head
is zero judges as its base does, and a random net's outcome cross-entropy is recomputed
row by row with the independent numpy forward pass of the other learned tests."""

from __future__ import annotations

import re

import numpy as np
import pytest
from learned_helpers import oracle_view, random_weights

import romecore
from romecore.learned.selfplay import load_shards, selfplay
from romecore.learned.weights import save_weights
from scripts_loader import load_script


def _numbers(line: str) -> list[float]:
    return [float(x) for x in re.findall(r"(?<=[ ])\d+\.\d+", line)]


def test_every_net_on_the_same_rows(tmp_path, capsys):
    game = romecore.load_game("rise_to_power", players=2)
    selfplay(game, tmp_path / "d", agents=["ismcts:simulations=20"], games=4, shard_games=2, seed=5, sample=0.3)
    zero = random_weights(game, hidden=(8,), seed=1, base="heuristic")
    zero.layers[-1] = (np.zeros_like(zero.layers[-1][0]), np.zeros_like(zero.layers[-1][1]))
    save_weights(zero, tmp_path / "zero.npz")
    rand = random_weights(game, hidden=(8,), seed=2, scale=0.05, base="heuristic", base_scale=0.7)
    save_weights(rand, tmp_path / "rand.npz")
    load_script("value_loss", "bench").main([str(tmp_path / "d"), str(tmp_path / "zero.npz"),
                                             str(tmp_path / "rand.npz")])
    lines = capsys.readouterr().out.strip().splitlines()
    base_line, zero_line, rand_line = lines[1:]
    assert base_line.startswith("base 'heuristic' alone")
    assert _numbers(zero_line) == pytest.approx(_numbers(base_line), abs=1.5e-4)
    _, a = load_shards(tmp_path / "d")
    ce = [-sum(a["returns"][r][s] * np.log(oracle_view(rand, a["x"][r], int(a["viewer"][r]), a["base"][r])[s])
               for s in range(2)) for r in range(len(a["x"]))]
    assert _numbers(rand_line)[0] == pytest.approx(float(np.mean(ce)), abs=1.5e-4)
    assert abs(_numbers(rand_line)[0] - _numbers(base_line)[0]) > 1e-3
