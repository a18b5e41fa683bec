"""``scripts/fit_heuristic.py``: the least-squares core recovers known weights from
synthetic data, and a tiny fit end to end finds the linear weights, keeps the others and
gives the same table for the same arguments."""

from __future__ import annotations

import numpy as np
import pytest

from scripts_loader import load_script

fit = load_script("fit_heuristic")


def test_least_squares_recovers_weights_and_holds_a_negative_one_at_zero():
    rng = np.random.default_rng(3)
    feats = rng.normal(size=(500, 3, 2))          # positions x weights x players
    base = rng.normal(size=(500, 2)) * 5
    true = np.array([1.5, 0.0, 2.5])
    # the score still to come is the features' worth, plus a part both players share
    final = base + np.einsum("skp,k->sp", feats, true) + rng.normal(size=(500, 1))
    x, y = fit.design(base, feats, final)
    assert x.shape == (1000, 3) and np.allclose(y.reshape(500, 2).sum(axis=1), 0.0)
    assert np.allclose(fit.fit_linear(x, y), true, atol=1e-9)
    assert fit.r_squared(x, y, true) == pytest.approx(1.0)
    # a feature that predicts against the score gets no negative worth
    w = fit.fit_linear(x, y - 0.8 * x[:, 1])
    assert w[1] == 0.0 and np.allclose(w[[0, 2]], true[[0, 2]], atol=0.1)


def test_a_tiny_fit_is_reproducible_and_changes_only_what_it_fits(capsys):
    from romecore.games.great_city_of_rome import heuristic

    args = ["great_city_of_rome", "--players", "2", "--games", "10", "--seed", "4",
            "--share", "0.5"]
    table = fit.main(args)
    assert set(table) == set(heuristic.WEIGHTS)
    out = capsys.readouterr().out
    linear = out.split("linear weights: ")[1].split(";")[0].split(", ")
    assert "veg_per_round" in linear and "pending_take" in linear
    # the hand weights also rank the offer (a maximum, not a sum): not linear, kept
    assert "residential_in_hand" not in linear
    assert table["residential_in_hand"] == heuristic.WEIGHTS["residential_in_hand"]
    assert all(table[k] >= 0 for k in linear) and table["temperature"] > 0
    assert fit.main(args) == table


def test_only_fits_the_weights_named_and_holds_the_rest(capsys):
    from romecore.games.great_city_of_rome import heuristic

    args = ["great_city_of_rome", "--players", "2", "--games", "10", "--seed", "4",
            "--share", "0.5"]
    table = fit.main(args + ["--only", "tempo_build,veg_per_round"])
    changed = {k for k in table if table[k] != heuristic.WEIGHTS[k]}
    assert changed and changed <= {"tempo_build", "veg_per_round"}
    assert "linear weights: veg_per_round, tempo_build;" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="residential_in_hand"):
        fit.main(args + ["--only", "residential_in_hand"])
