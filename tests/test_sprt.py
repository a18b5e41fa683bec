"""The match statistics of romecore.tournament.sprt against numbers worked out here from
first principles (closed forms, hand arithmetic, optimality conditions) and, where scipy
is installed, a general-purpose constrained optimizer."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace

import pytest

from romecore.errors import InvalidArgumentError
from romecore.tournament import sprt
from romecore.tournament.sprt import PairTally, Sprt


def _phi(x: float) -> float:
    """The standard normal CDF from the error function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def _s(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


# -- Elo scale and bounds ---------------------------------------------------------------------

@pytest.mark.parametrize("elo", [-600.0, -35.0, 0.0, 12.5, 400.0])
def test_elo_and_score_are_inverse(elo):
    assert sprt.score_to_elo(sprt.elo_to_score(elo)) == pytest.approx(elo, abs=1e-9)


def test_400_elo_is_ten_to_one_odds():
    assert sprt.elo_to_score(400.0) == pytest.approx(10.0 / 11.0)
    assert sprt.score_to_elo(10.0 / 11.0) == pytest.approx(400.0)


def test_wald_bounds():
    assert sprt.wald_bounds(0.05, 0.05) == pytest.approx((math.log(0.05 / 0.95), math.log(0.95 / 0.05)))
    assert sprt.wald_bounds(0.1, 0.2) == pytest.approx((math.log(0.2 / 0.9), math.log(0.8 / 0.1)))


# -- the likelihood ratio ----------------------------------------------------------------------

@pytest.mark.parametrize("wins,losses,elo0,elo1", [(7, 3, 0, 100), (3, 9, -20, 40), (50, 48, 0, 5)])
def test_llr_of_whole_pair_wins_and_losses_is_walds_coin_test(wins, losses, elo0, elo1):
    """Pairs that score only 0 or 1: the one distribution with mean s on {0, 1} puts s on
    1, so the ratio is the coin's."""
    s0, s1 = _s(elo0), _s(elo1)
    expected = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert sprt.llr({0.0: losses, 1.0: wins}, elo0, elo1, pseudo=0) == pytest.approx(expected, abs=1e-9)


def test_llr_on_three_scores_by_hand():
    """Counts 2, 2, 2 on 0, 1/2, 1.  Under mean 1/2 the counts' own frequencies (1/3 each)
    are the most likely.  Under mean s = elo_to_score(100) the weights are
    1/3 / (1 + lam (x - s)); the mean condition sum (x - s) / (1 + lam (x - s)) = 0 is the
    quadratic  3 a b c lam^2 ... solved here directly for lam."""
    s = _s(100.0)
    a, b, c = -s, 0.5 - s, 1.0 - s  # x - s for the three scores
    # sum d / (1 + lam d) = 0  <=>  a(1+lam b)(1+lam c) + b(1+lam a)(1+lam c) + c(1+lam a)(1+lam b) = 0
    # <=> (a+b+c) + 2 lam (ab+bc+ca) + 3 lam^2 abc = 0
    qa, qb, qc = 3 * a * b * c, 2 * (a * b + b * c + c * a), a + b + c
    roots = [(-qb + sign * math.sqrt(qb * qb - 4 * qa * qc)) / (2 * qa) for sign in (1, -1)]
    lam = next(r for r in roots if all(1 + r * d > 0 for d in (a, b, c)))
    p1 = [1 / 3 / (1 + lam * d) for d in (a, b, c)]
    assert sum(p1) == pytest.approx(1.0)
    expected = sum(2 * math.log(p / (1 / 3)) for p in p1)
    assert sprt.llr({0.0: 2, 0.5: 2, 1.0: 2}, 0.0, 100.0, pseudo=0) == pytest.approx(expected, abs=1e-9)
    got = sprt.mle_distribution([0.0, 0.5, 1.0], [2, 2, 2], s)
    assert got == pytest.approx(p1, abs=1e-9)


@pytest.mark.parametrize("counts,mean", [((0, 3, 9, 12, 6), 0.55), ((1, 0, 5, 0, 4), 0.48),
                                         ((2, 7, 20, 9, 1), 0.6)])
def test_mle_distribution_is_optimal(counts, mean):
    """Mean right, sums to 1, and no move that keeps both (adding t to one cell, taking
    it from two others in proportion) raises the likelihood."""
    x = list(sprt.PENTANOMIAL)
    w = [float(c) for c in counts]
    p = sprt.mle_distribution(x, w, mean)
    assert sum(p) == pytest.approx(1.0, abs=1e-12)
    assert sum(pi * xi for pi, xi in zip(p, x)) == pytest.approx(mean, abs=1e-12)

    def loglik(q):
        return sum(wi * math.log(qi) for wi, qi in zip(w, q) if wi > 0)

    best = loglik(p)
    for i in range(5):
        for j in range(5):
            for k in range(j + 1, 5):
                if len({i, j, k}) < 3:
                    continue
                # keep sum and mean: d_i = 1, d_j + d_k = -1, x_j d_j + x_k d_k = -x_i
                dj = (x[i] - x[k]) / (x[k] - x[j])
                dk = -1.0 - dj
                for t in (1e-4, -1e-4):
                    q = list(p)
                    q[i] += t
                    q[j] += t * dj
                    q[k] += t * dk
                    if min(q) > 0:
                        assert loglik(q) <= best + 1e-12


@pytest.mark.parametrize("counts", [(0, 3, 9, 12, 6), (4, 0, 11, 0, 5), (0, 0, 2, 10, 30), (9, 1, 0, 0, 0)])
def test_llr_matches_a_general_optimizer(counts):
    """The pentanomial LLR with fishtest's pseudo-counts, each hypothesis's distribution
    found by scipy's SLSQP maximizing the likelihood under the two constraints."""
    np = pytest.importorskip("numpy")
    optimize = pytest.importorskip("scipy.optimize")
    x = np.array(sprt.PENTANOMIAL)
    w = np.array([c or sprt.PSEUDO_COUNT for c in counts], dtype=float)

    def mle(mean):
        cons = [{"type": "eq", "fun": lambda p: p.sum() - 1.0}, {"type": "eq", "fun": lambda p: p @ x - mean}]
        res = optimize.minimize(lambda p: -(w * np.log(p)).sum(), np.full(5, 0.2), method="SLSQP",
                                bounds=[(1e-15, 1.0)] * 5, constraints=cons,
                                options={"ftol": 1e-15, "maxiter": 2000})
        return res.x

    p0, p1 = mle(_s(0.0)), mle(_s(25.0))
    expected = float((w * np.log(p1 / p0)).sum())
    got = sprt.llr(dict(zip(sprt.PENTANOMIAL, counts)), 0.0, 25.0)
    assert got == pytest.approx(expected, abs=1e-5)


def test_no_distribution_outside_the_scores_seen():
    with pytest.raises(InvalidArgumentError):
        sprt.mle_distribution([0.5, 1.0], [3, 4], 0.4)


# -- Elo interval and LOS ----------------------------------------------------------------------

def test_elo_interval_and_los_by_hand():
    """Pairs scoring 0, 1/2, 1/2, 1, 1, 1: mean 2/3, variance
    (4/9 + 2/36 + 3/9) / 6 = 5/36, standard error sqrt(5/216)."""
    counts = {0.0: 1, 0.5: 2, 1.0: 3}
    mean, var = sprt.mean_and_variance(counts)
    assert (mean, var) == (pytest.approx(2 / 3), pytest.approx(5 / 36))
    se = math.sqrt(5 / 216)
    low, high = 2 / 3 - 1.959964 * se, 2 / 3 + 1.959964 * se
    elo, elo_low, elo_high = sprt.elo_interval(counts)
    assert elo == pytest.approx(400 * math.log10(2.0))
    assert elo_low == pytest.approx(400 * math.log10(low / (1 - low)), abs=1e-3)
    assert elo_high == pytest.approx(400 * math.log10(high / (1 - high)), abs=1e-3)
    assert sprt.los(counts) == pytest.approx(_phi((2 / 3 - 0.5) / se), abs=1e-9)


def test_interval_without_spread_is_wilsons():
    n, z = 8, 1.959964
    low = n / (n + z * z)  # Wilson's lower bound at 8 successes of 8
    elo, elo_low, elo_high = sprt.elo_interval({1.0: n})
    assert (elo, elo_high) == (math.inf, math.inf)
    assert elo_low == pytest.approx(400 * math.log10(low / (1 - low)), abs=1e-3)


# -- the test ----------------------------------------------------------------------------------

def test_bad_tests_are_refused():
    with pytest.raises(InvalidArgumentError, match="below"):
        Sprt(5, 0)
    with pytest.raises(InvalidArgumentError, match="alpha"):
        Sprt(0, 5, alpha=0.0)
    with pytest.raises(InvalidArgumentError, match="alpha"):
        Sprt(0, 5, alpha=0.6, beta=0.6)
    for text in ("5", "a,b", "1,2,3", "5,0", "nan,1"):
        with pytest.raises(InvalidArgumentError):
            sprt.parse_bounds(text)
    with pytest.raises(InvalidArgumentError):
        sprt.tally([1.5])


def _simulate(true_elo, test, rng, max_pairs=400):
    """Runs the test on pairs of independent games won with probability s(true_elo)."""
    t = PairTally(test)
    s = _s(true_elo)
    games = {}
    for k in range(max_pairs):
        for g in (2 * k, 2 * k + 1):
            a_wins = rng.random() < s
            seat = g % 2  # A's seat in this game
            returns = [0.0, 0.0]
            returns[seat if a_wins else 1 - seat] = 1.0
            games[g] = SimpleNamespace(returns=tuple(returns), lineup=(g % 2, 1 - g % 2))
        if t.update(games):
            break
    return t.decision


def test_the_test_errs_rarely_at_either_hypothesis():
    """At Elo 0 it accepts H0, at Elo 150 H1, nearly always (alpha = beta = 0.05)."""
    rng = random.Random(12)
    test = Sprt(0, 150)
    at_h0 = [_simulate(0.0, test, rng) for _ in range(40)]
    at_h1 = [_simulate(150.0, test, rng) for _ in range(40)]
    assert at_h0.count("H1") <= 6 and at_h0.count("H0") >= 34
    assert at_h1.count("H0") <= 6 and at_h1.count("H1") >= 34


def test_pairs_count_in_order_and_not_after_the_decision():
    def game(index, a_score):  # two players, A in seat index % 2
        seat = index % 2
        r = [0.0, 0.0]
        r[seat] = a_score
        r[1 - seat] = 1.0 - a_score
        return SimpleNamespace(returns=tuple(r), lineup=(seat, 1 - seat))

    t = PairTally(Sprt(0, 400, alpha=0.2, beta=0.2))
    assert not t.update({0: game(0, 1.0), 2: game(2, 1.0), 3: game(3, 0.0)})
    assert t.pairs == 0  # pair 0 misses game 1; pair 1 waits for it
    wins = {i: game(i, 1.0) for i in range(40)}
    assert t.update(wins)
    _, upper = Sprt(0, 400, alpha=0.2, beta=0.2).bounds
    # a won pair adds about ln(s1 / s0) = ln(20 / 11) = 0.6: the third crosses ln(4) = 1.39
    assert t.pairs == 3 and t.counts == {1.0: 3}
    assert sprt.llr({1.0: 2}, 0, 400) < upper <= t.status().llr


def test_a_four_player_game_scores_the_seats_an_agent_holds():
    t = PairTally()
    g0 = SimpleNamespace(returns=(0.0, 0.5, 0.0, 0.5), lineup=(0, 1, 0, 1))  # B's two seats share
    g1 = SimpleNamespace(returns=(0.0, 1.0, 0.0, 0.0), lineup=(1, 0, 1, 0))  # A wins from seat 1
    t.update({0: g0, 1: g1})
    assert t.counts == {0.5: 1}
    assert sprt.pentanomial(t.counts) == (0, 0, 1, 0, 0)
