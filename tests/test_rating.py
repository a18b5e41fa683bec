"""The rating fit (romecore.tournament.rating): hand-computable cases, synthetic data of
known strengths, an independent fit (minorise-maximise), the closed form at two agents,
and the numbers of the pure-Python fit it replaced."""

from __future__ import annotations

import math
import random

import pytest

from romecore.errors import InvalidArgumentError
from romecore.tournament.ladder import matches
from romecore.tournament.rating import (
    ELO,
    bootstrap_intervals,
    elo_ratings,
    fisher_intervals,
    fit_plackett_luce,
    outcome_of,
    rating_anchor,
)
from romecore.tournament.stats import GameSummary, summarise


# -- the fit: hand-computable cases --------------------------------------------------------
def test_two_agents_thirty_wins_of_forty_is_log_odds_ln3():
    """Bradley-Terry with two agents: the MLE of the log-odds is ln(30/10), and its
    variance 1 / (n p (1 - p)) = 1 / (40 * 0.75 * 0.25)."""
    fit = fit_plackett_luce([[0, 1]] * 30 + [[1, 0]] * 10, 2, anchor=1, prior=0)
    assert fit.ratings[1] == 0.0
    assert fit.ratings[0] == pytest.approx(math.log(3), abs=1e-9)
    assert fit.covariance[0][0] == pytest.approx(1 / 7.5, rel=1e-9)
    assert fit.covariance[1][1] == 0.0


def test_a_draw_is_half_a_win_and_the_prior_adds_drawn_games():
    # 25 wins, 10 losses, 10 draws = 30 to 15: log-odds ln 2
    rankings = [[0, 1]] * 25 + [[1, 0]] * 10 + [[[0, 1]]] * 10
    assert fit_plackett_luce(rankings, 2, anchor=1, prior=0).ratings[0] == pytest.approx(math.log(2))
    # 40 of 40 has no finite maximum; one virtual draw makes it 40.5 to 0.5
    with pytest.raises(InvalidArgumentError, match="prior"):
        fit_plackett_luce([[0, 1]] * 40, 2, prior=0)
    assert fit_plackett_luce([[0, 1]] * 40, 2, anchor=1).ratings[0] == pytest.approx(math.log(81))


def test_plackett_luce_three_way_by_hand():
    """Three agents, the orders 0 > 1 > 2 and 1 > 0 > 2 equally often: 0 and 1 are
    symmetric, so equal, and far above 2; a tie of 0 and 1 for first counts as both
    orders, half each, so it gives the same fit."""
    fit = fit_plackett_luce([[0, 1, 2], [1, 0, 2]] * 20, 3, prior=0.5)
    assert fit.ratings[1] == pytest.approx(fit.ratings[0], abs=1e-9)
    assert fit.ratings[2] < fit.ratings[0] - 1
    # tied first places are every order of the tied pair, equally: the same fit
    tied = fit_plackett_luce([[[0, 1], 2]] * 40, 3, prior=0.5)
    assert tied.ratings == pytest.approx(fit.ratings, abs=1e-9)


def _log_likelihood(rankings, theta):
    """The Plackett-Luce log-likelihood from its definition: each place is won by its
    agent out of those not yet placed, with probability exp(theta) over their sum."""
    total = 0.0
    for r in rankings:
        for j in range(len(r) - 1):
            total += theta[r[j]] - math.log(sum(math.exp(theta[a]) for a in r[j:]))
    return total


def test_the_fit_maximises_the_likelihood():
    rng = random.Random(8)
    rankings = [rng.sample(range(4), rng.choice([2, 3, 4])) for _ in range(200)]
    fit = fit_plackett_luce(rankings, 4, anchor=0, prior=0)
    best = _log_likelihood(rankings, fit.ratings)
    assert fit.log_likelihood == pytest.approx(best, abs=1e-9)
    h = 1e-5
    for i in range(1, 4):  # a stationary point: central differences vanish
        up = [x + h * (k == i) for k, x in enumerate(fit.ratings)]
        down = [x - h * (k == i) for k, x in enumerate(fit.ratings)]
        assert abs(_log_likelihood(rankings, up) - _log_likelihood(rankings, down)) / (2 * h) < 1e-5
    for _ in range(20):  # and a maximum: every nearby point is worse
        moved = [0.0] + [x + rng.uniform(-0.05, 0.05) for x in fit.ratings[1:]]
        assert _log_likelihood(rankings, moved) < best


def test_the_order_of_games_does_not_matter():
    rng = random.Random(3)
    rankings = [rng.sample(range(4), rng.choice([2, 3, 4])) for _ in range(300)]
    a = fit_plackett_luce(rankings, 4)
    rng.shuffle(rankings)
    b = fit_plackett_luce(rankings, 4)
    assert a.ratings == pytest.approx(b.ratings, abs=1e-12)


def test_bad_rankings_raise_romecore_errors():
    for bad in ([[0, 0]], [[0, 5]], [["x", 1]], [[None]]):
        with pytest.raises(InvalidArgumentError):
            fit_plackett_luce(bad, 2)
    with pytest.raises(InvalidArgumentError):
        fit_plackett_luce([[0, 1]], 2, prior=-1)
    with pytest.raises(InvalidArgumentError):
        fit_plackett_luce([[0, 1]], 2, anchor=2)
    with pytest.raises(InvalidArgumentError):  # agent 2 never plays: no strength to find
        fit_plackett_luce([[0, 1], [1, 0]], 3, prior=0)


# -- synthetic data of known strengths --------------------------------------------
def _sample_ranking(rng, agents, strength):
    """A Plackett-Luce draw, written from the model's definition: each place goes to one
    of the agents left with probability proportional to exp(strength)."""
    left, out = list(agents), []
    while left:
        weights = [math.exp(strength[a]) for a in left]
        pick = rng.choices(left, weights)[0]
        out.append(pick)
        left.remove(pick)
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_fit_recovers_known_strengths(players):
    truth = [0.0, 0.4, 1.0, 1.8]
    rng = random.Random(11)
    rankings = [_sample_ranking(rng, roster, truth)
                for roster in matches(4, players) for _ in range(1200 // players)]
    fit = fit_plackett_luce(rankings, 4, anchor=0, prior=1)
    for i, t in enumerate(truth):
        se = math.sqrt(fit.covariance[i][i])
        assert abs(fit.ratings[i] - t) < max(3.5 * se, 1e-9), (i, fit.ratings, truth, se)
    assert 0 < fit.covariance[3][3] < 0.05
    # the bootstrap interval of each covers the truth as well (seeded: reproducible)
    games = [(tuple(sorted(r)), outcome_of({a: k for k, a in enumerate(r)})) for r in rankings]
    ci = bootstrap_intervals(games, 4, samples=60, seed=5, start=fit.ratings)
    assert ci == bootstrap_intervals(games, 4, samples=60, seed=5, start=fit.ratings)
    for (lo, hi), x in zip(ci[1:], fit.ratings[1:]):
        assert lo < x < hi
    assert sum(lo - 0.15 < t < hi + 0.15 for (lo, hi), t in zip(ci[1:], truth[1:])) == 3


# -- the numbers before numpy ----------------------------------------------------------------
#: A fixed set of results: 2 to 4 of 5 agents a game, ties for first and for last.
RESULTS = [[2, 0], [4, 1, 2], [2, 4, 3, 0], [[3, 4]], [4, 2, 1], [3, 4, [0, 2]], [3, 2], [0, 3, 1],
           [0, 3, 2, 1], [4, 2], [[0, 3], 2], [3, 2, 1, 0], [4, 0], [2, 1, 4], [4, 3, 0, 1], [3, 4],
           [3, [0, 4]], [[2, 4], 1, 0], [4, 0], [3, 2, 1], [1, 4, 3, 2], [3, 4], [3, 4, 0], [3, 4, 0, 2],
           [[1, 2]], [2, 4, 0], [1, 3, 2, 0], [[0, 1]], [3, 2, 0], [2, 4, 3, 0], [1, 0], [[2, 4], 1],
           [2, 3, 4, 1], [2, 1], [3, 2, 1], [4, 0, 2, 1]]


def test_the_numbers_of_the_pure_python_fit():
    """RESULTS as the fit in pure Python (Gauss-Jordan Newton steps, romecore.tournament.ladder
    at commit dc002da) rated them, to 10 places: the numpy fit agrees to 1e-6, bootstrap
    intervals (seeded) included, so the printed tables keep their numbers."""
    fit = fit_plackett_luce(RESULTS, 5, anchor=0, prior=1.0)
    assert fit.ratings == pytest.approx([0.0, 0.0605158992, 0.8097824316, 1.761732505, 1.391253151], abs=1e-6)
    assert [fit.covariance[i][i] for i in range(5)] == pytest.approx(
        [0.0, 0.2349501383, 0.2003842755, 0.2342088259, 0.2255614267], abs=1e-6)
    assert fit.log_likelihood == pytest.approx(-63.5935876235, abs=1e-6)
    fit = fit_plackett_luce(RESULTS, 5, anchor=2, prior=0.5)
    assert fit.ratings == pytest.approx([-0.8696128506, -0.8098090331, 0.0, 1.0204738082, 0.6296144977], abs=1e-6)
    assert [x for pair in fisher_intervals(fit) for x in pair] == pytest.approx(
        [-1.7874726766, 0.0482469754, -1.6957480875, 0.0761300213, 0.0, 0.0, 0.1621721707, 1.8787754458,
         -0.2333597044, 1.4925886998], abs=1e-6)
    fit = fit_plackett_luce(RESULTS, 5)
    games = [(len(r), r) for r in RESULTS]  # strata: the games of 2, 3 and 4 agents
    ci = bootstrap_intervals(games, 5, samples=30, seed=9, start=fit.ratings)
    assert [x for pair in ci for x in pair] == pytest.approx(
        [0.0, 0.0, -0.7668618847, 0.6505837504, 0.2102959842, 1.4194087387, 1.1985318585, 2.5288677291,
         0.8324656656, 1.9792431487], abs=1e-6)


# -- independent computations --------------------------------------------------------------
def _minorise_maximise(rankings, n, steps=20000):
    """Hunter's (2004) MM iteration for Plackett-Luce strengths, strict rankings only: each
    strength becomes its wins (places taken) over the sum, across the places it was open to
    take, of one over the total strength still unplaced.  A different algorithm from the
    Newton fit; log-strengths, agent 0 at 0."""
    gamma = [1.0] * n
    wins = [0] * n
    for r in rankings:
        for a in r[:-1]:
            wins[a] += 1
    for _ in range(steps):
        denom = [0.0] * n
        for r in rankings:
            for j in range(len(r) - 1):
                inv = 1.0 / sum(gamma[a] for a in r[j:])
                for a in r[j:]:
                    denom[a] += inv
        new = [wins[a] / denom[a] for a in range(n)]
        done = max(abs(x / y - 1) for x, y in zip(new, gamma)) < 1e-13
        gamma = new
        if done:
            break
    return [math.log(g / gamma[0]) for g in gamma]


def test_an_independent_minorise_maximise_fit_agrees():
    rng = random.Random(57)
    truth = [0.0, 0.3, 0.9, 1.4]
    rankings = [_sample_ranking(rng, rng.sample(range(4), rng.choice([2, 3, 4])), truth) for _ in range(150)]
    fit = fit_plackett_luce(rankings, 4, anchor=0, prior=0)
    assert fit.ratings == pytest.approx(_minorise_maximise(rankings, 4), abs=1e-6)


@pytest.mark.parametrize("won,lost,drawn", [(30, 10, 0), (7, 12, 3), (1, 1, 5), (19, 0, 2)])
def test_two_agents_rate_400_log10_of_wins_over_losses(won, lost, drawn):
    """Bradley-Terry at two agents in closed form: 400 log10(w / l), a draw half a win each
    and the prior's drawn game too, whether rated by elo_ratings or the tournament's table."""
    ranks = [{0: 1, 1: 2}] * won + [{0: 2, 1: 1}] * lost + [{0: 1, 1: 1}] * drawn
    w, lost_ = won + drawn / 2 + 0.5, lost + drawn / 2 + 0.5
    (greedy, low, high), anchor = elo_ratings(ranks, 2, anchor=1)
    assert greedy == pytest.approx(400 * math.log10(w / lost_), abs=1e-6)
    assert anchor == (0.0, 0.0, 0.0)
    half = 1.959964 * ELO * math.sqrt((w + lost_) / (w * lost_))  # 1 / (N p (1 - p))
    assert (high - greedy, greedy - low) == pytest.approx((half, half), abs=1e-6)
    games = [GameSummary(k, (0, 1), (1.0, 0.0) if r[0] < r[1] else (0.0, 1.0) if r[0] > r[1] else (0.5, 0.5),
                         (0.0, 0.0), (0.0, 0.0), (1, 1)) for k, r in enumerate(ranks)]
    rows = summarise(["greedy", "random"], ["greedy", "random"], games)
    assert (rows[0].rating, rows[0].rating_low, rows[0].rating_high) == pytest.approx((greedy, low, high), abs=1e-9)


# -- the Elo table -------------------------------------------------------------------------
def test_elo_ratings_bootstrap_within_strata_and_refuses_bad_arguments():
    rng = random.Random(4)
    truth = [0.0, 0.5, 1.0]
    ranks = [{a: k + 1 for k, a in enumerate(_sample_ranking(rng, [0, 1, 2], truth))} for _ in range(90)]
    strata = [k % 3 for k in range(90)]
    fisher = elo_ratings(ranks, 3, 0)
    boot = elo_ratings(ranks, 3, 0, interval="bootstrap", samples=40, seed=2, strata=strata)
    assert [r.rating for r in boot] == pytest.approx([r.rating for r in fisher], abs=1e-9)
    assert boot == elo_ratings(ranks, 3, 0, interval="bootstrap", samples=40, seed=2, strata=strata)
    assert all(r.low < r.rating < r.high for r in boot[1:])
    assert elo_ratings(ranks + [{1: 1}], 3, 0) == fisher  # a game of one agent rates nothing
    for bad in (dict(interval="wald"), dict(interval="bootstrap", samples=0), dict(strata=[0])):
        with pytest.raises(InvalidArgumentError):
            elo_ratings(ranks, 3, 0, **bad)
    with pytest.raises(InvalidArgumentError, match="identifiable"):  # {0, 1} and {2, 3} never meet
        fit_plackett_luce([[0, 1], [1, 0], [2, 3], [3, 2]], 4, prior=0)
    with pytest.raises(InvalidArgumentError):
        bootstrap_intervals([(0, [0, 7])], 2)
    assert rating_anchor(["greedy", "random", "random"]) == 1 and rating_anchor(["mcts", "greedy"]) == 0
    assert abs(ELO * math.log(10) - 400) < 1e-9
