"""Statistics of a match between two agents played in paired deals, and the sequential
probability ratio test (SPRT) that decides when it has said enough.

A match plays pairs of games: one deal twice, seats swapped (two agents in a tournament
with paired seeds, :mod:`romecore.tournament.schedule`).  Agent A's score in a game is the
sum of its seats' returns: 1 a win, a share of a shared win, 0 a loss (a forfeit counts as
usual).  A pair's score is the mean of its two games'.  With plain wins, draws and losses
it takes one of five values, 0, 1/4, 1/2, 3/4 and 1: the pentanomial model.  Pairs, not
games, are the independent trials.  The two games of a pair share a deal, so they are
correlated, and counting the pair as one trial keeps the variance honest.  (Shares of a
win at 3 or 4 players give other values; everything here takes any pair scores in [0, 1].)

Elo is logistic Elo throughout: an expected score ``s`` is ``400 log10(s / (1 - s))`` Elo
(:func:`score_to_elo`), the scale of the Elo gains people quote.  It is not fishtest's
normalized Elo, which divides by the spread of the scores.

The test is the generalized SPRT that fishtest uses on pentanomial counts.  Under the
hypothesis that A is ``elo`` Elo stronger, the pair scores follow the distribution that
is most likely given the counts among those whose mean is ``elo_to_score(elo)``
(:func:`mle_distribution`).  The log-likelihood ratio (:func:`llr`) of the counts under
``elo1`` against ``elo0`` is compared with Wald's bounds ``ln(beta / (1 - alpha))`` and
``ln((1 - beta) / alpha)`` (:func:`wald_bounds`).  At or above the upper bound H1 (``elo1``)
is accepted, at or below the lower one H0 (``elo0``).  The chance of accepting H1 when A is
really ``elo0`` Elo stronger is at most about ``alpha``, and of accepting H0 at ``elo1``
about ``beta``.  An empty pentanomial cell gets a pseudo-count of 1/1000, as in fishtest,
so that a mean outside the scores seen so far stays reachable.

Pairs count in index order only (:class:`PairTally`): the test is checked after each pair
and stops at the first that decides.  The same seed therefore gives the same decision
at the same pair on any backend, with any number of workers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from statistics import NormalDist
from typing import Any

from romecore.errors import InvalidArgumentError
from romecore.tournament.stats import wilson_interval

__all__ = ["PENTANOMIAL", "PSEUDO_COUNT", "Sprt", "MatchStatus", "PairTally", "score_to_elo",
           "elo_to_score", "wald_bounds", "tally", "pentanomial", "mle_distribution", "llr",
           "mean_and_variance", "elo_interval", "los", "status", "game_score", "parse_bounds"]

#: The pair scores of the pentanomial model: A's mean score over the two games of a pair.
PENTANOMIAL = (0.0, 0.25, 0.5, 0.75, 1.0)
#: What an empty pentanomial cell counts for in the likelihood ratio (fishtest's choice).
PSEUDO_COUNT = 1e-3

Counts = Mapping[float, float]


def score_to_elo(score: float) -> float:
    """Logistic Elo of an expected score: how much stronger A is when it scores ``score``.

    >>> round(score_to_elo(0.75), 2)
    190.85
    >>> score_to_elo(0.5), score_to_elo(1.0), score_to_elo(0.0)
    (0.0, inf, -inf)
    """
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def elo_to_score(elo: float) -> float:
    """The expected score of an agent ``elo`` Elo stronger than its opponent.

    >>> elo_to_score(0.0), round(elo_to_score(400.0), 4)
    (0.5, 0.9091)
    """
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """Wald's (lower, upper) bounds on the log-likelihood ratio for error rates alpha
    (accepting H1 when H0 holds) and beta (accepting H0 when H1 holds).

    >>> [round(b, 4) for b in wald_bounds(0.05, 0.05)]
    [-2.9444, 2.9444]
    """
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def game_score(returns: Sequence[float], lineup: Sequence[int], agent: int = 0) -> float:
    """An agent's score in one game: the sum of the returns of the seats it holds.

    >>> game_score([0.0, 1.0], [1, 0]), game_score([0.5, 0.0, 0.5, 0.0], [0, 1, 0, 1])
    (1.0, 1.0)
    """
    return float(sum(r for r, a in zip(returns, lineup) if a == agent))


def tally(pair_scores: Iterable[float]) -> dict[float, int]:
    """Counts of each pair score, in increasing order (scores equal to 1e-9 merge).

    >>> tally([1.0, 0.5, 1.0, 0.75])
    {0.5: 1, 0.75: 1, 1.0: 2}
    """
    counts: dict[float, int] = {}
    for x in pair_scores:
        if not 0.0 <= x <= 1.0:
            raise InvalidArgumentError(f"a pair score is between 0 and 1, not {x}")
        key = round(x, 9) + 0.0
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items()))


def pentanomial(counts: Counts) -> tuple[int, ...] | None:
    """The counts of pair scores 0, 1/4, 1/2, 3/4 and 1, or None when some pair scored
    something else (a shared win at 3 or 4 players).

    >>> pentanomial({0.5: 1, 0.75: 1, 1.0: 2})
    (0, 0, 1, 1, 2)
    >>> pentanomial({1 / 3: 1}) is None
    True
    """
    if any(x not in PENTANOMIAL for x in counts):
        return None
    return tuple(int(counts.get(x, 0)) for x in PENTANOMIAL)


def _regularized(counts: Counts, pseudo: float) -> tuple[list[float], list[float]]:
    """(scores, counts) over the observed scores and the five pentanomial ones, an empty
    cell counting ``pseudo``."""
    support = sorted(set(PENTANOMIAL) | set(counts))
    return support, [float(counts.get(x, 0)) or pseudo for x in support]


def mle_distribution(scores: Sequence[float], weights: Sequence[float], mean: float) -> list[float]:
    """The probabilities over ``scores`` that make counts ``weights`` most likely among
    the distributions whose mean is ``mean``.

    Maximizing sum w_i log p_i with sum p_i = 1 and sum p_i x_i = mean gives
    p_i = q_i / (1 + lam (x_i - mean)), q the normalized weights, with the one lam
    that makes the mean right: found by bisection (the mean's error falls as lam grows).
    Every 1 + lam (x_i - mean) must stay positive, empty cells' too; when the mean cannot
    be reached so, lam stops at that edge and the empty cell there takes what is left.

    >>> [round(p, 6) for p in mle_distribution([0.0, 1.0], [3, 1], 0.5)]
    [0.5, 0.5]
    >>> [round(p, 4) for p in mle_distribution([0.0, 0.5, 1.0], [1, 2, 1], 0.5)]
    [0.25, 0.5, 0.25]
    >>> [round(p, 4) for p in mle_distribution([0.0, 0.5, 1.0], [0, 1, 1], 0.5)]
    [0.25, 0.5, 0.25]
    """
    total = float(sum(weights))
    if len(scores) != len(weights) or total <= 0 or min(weights) < 0:
        raise InvalidArgumentError("mle_distribution needs one non-negative weight per score, not all 0")
    q = [w / total for w in weights]
    d = [x - mean for x in scores]
    if not min(d) < 0.0 < max(d):
        raise InvalidArgumentError(f"no distribution on the scores {list(scores)} has mean {mean}")
    lo, hi = -1.0 / max(d), 1.0 / -min(d)  # where some 1 + lam d_i reaches 0

    def excess(lam: float) -> float:
        return sum(qi * di / (1.0 + lam * di) for di, qi in zip(d, q) if qi > 0)

    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid in (lo, hi):
            break
        if excess(mid) > 0.0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    p = [qi / (1.0 + lam * di) if qi > 0 else 0.0 for di, qi in zip(d, q)]
    left = 1.0 - sum(p)
    if left > 1e-9:  # lam at an edge: the empty cell whose 1 + lam d_i is 0 takes the rest
        edge = min((i for i in range(len(p)) if q[i] == 0), key=lambda i: abs(1.0 + lam * d[i]))
        p[edge] = left
    s = sum(p)
    return [pi / s for pi in p]


def llr(counts: Counts, elo0: float, elo1: float, pseudo: float = PSEUDO_COUNT) -> float:
    """The log-likelihood ratio of pair-score counts for H1 (A is ``elo1`` Elo stronger)
    against H0 (``elo0``), each hypothesis taking its most likely distribution.

    With only wins and losses of whole pairs and no pseudo-counts it is Wald's test on
    a coin: n1 ln(s1 / s0) + n0 ln((1 - s1) / (1 - s0)).

    >>> s0, s1 = elo_to_score(0), elo_to_score(100)
    >>> round(llr({0.0: 3, 1.0: 7}, 0, 100, pseudo=0), 6) == round(
    ...     7 * math.log(s1 / s0) + 3 * math.log((1 - s1) / (1 - s0)), 6)
    True
    >>> llr({}, 0, 5)
    0.0
    """
    if not sum(counts.values()):
        return 0.0
    if pseudo > 0:
        scores, weights = _regularized(counts, pseudo)
    else:
        scores, weights = list(counts), [float(c) for c in counts.values()]
    p0 = mle_distribution(scores, weights, elo_to_score(elo0))
    p1 = mle_distribution(scores, weights, elo_to_score(elo1))
    return sum(w * math.log(b / a) for w, a, b in zip(weights, p0, p1) if w > 0)


def mean_and_variance(counts: Counts) -> tuple[float, float]:
    """The mean pair score and the pair scores' variance (over the pairs: divided by n).

    >>> mean_and_variance({0.5: 2, 1.0: 2})
    (0.75, 0.0625)
    """
    n = float(sum(counts.values()))
    if n <= 0:
        return 0.5, 0.0
    mean = sum(x * c for x, c in counts.items()) / n
    return mean, sum(c * (x - mean) ** 2 for x, c in counts.items()) / n


def elo_interval(counts: Counts, confidence: float = 0.95) -> tuple[float, float, float]:
    """(Elo, low, high): A's logistic Elo over its opponent from the mean pair score, and
    the interval where the normal approximation of the mean puts it with ``confidence``.
    When every pair scored alike (no spread to measure) the interval is Wilson's, as if
    each pair were a coin toss: the widest spread a mean score allows.

    >>> [round(e, 1) for e in elo_interval({0.5: 2, 1.0: 2})]
    [190.8, 3.5, 919.4]
    >>> [round(e, 1) for e in elo_interval({1.0: 8})]
    [inf, 127.4, inf]
    """
    n = sum(counts.values())
    mean, var = mean_and_variance(counts)
    if n <= 0:
        return 0.0, -math.inf, math.inf
    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    if var <= 0:
        low, high = wilson_interval(mean * n, int(n), z)
    else:
        half = z * math.sqrt(var / n)
        low, high = mean - half, mean + half
    return score_to_elo(mean), score_to_elo(low), score_to_elo(high)


def los(counts: Counts) -> float:
    """The likelihood of superiority: how sure the pairs make it that A is the stronger
    (the normal approximation of the mean pair score above 1/2).

    >>> round(los({0.5: 2, 1.0: 2}), 4)
    0.9772
    >>> los({0.5: 3}), los({})
    (0.5, 0.5)
    """
    n = float(sum(counts.values()))
    mean, var = mean_and_variance(counts)
    if n <= 0 or var <= 0:
        return 0.5 if n <= 0 or mean == 0.5 else float(mean > 0.5)
    return NormalDist().cdf((mean - 0.5) / math.sqrt(var / n))


def parse_bounds(text: str) -> tuple[float, float]:
    """``"ELO0,ELO1"`` as two numbers, the first below the second.

    >>> parse_bounds("0,5")
    (0.0, 5.0)
    """
    parts = text.split(",")
    try:
        elo0, elo1 = (float(p) for p in parts)
    except ValueError:
        raise InvalidArgumentError(f"SPRT bounds are ELO0,ELO1 (e.g. 0,5), not {text!r}") from None
    if not elo0 < elo1 or not (math.isfinite(elo0) and math.isfinite(elo1)):
        raise InvalidArgumentError(f"SPRT bounds {text!r}: ELO0 must be below ELO1")
    return elo0, elo1


@dataclass(frozen=True)
class Sprt:
    """A test: H0 says A is ``elo0`` Elo stronger, H1 ``elo1`` (logistic Elo, elo0 <
    elo1), with error rates ``alpha`` (accepting H1 under H0) and ``beta``."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise InvalidArgumentError(f"SPRT: elo0 ({self.elo0}) must be below elo1 ({self.elo1})")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise InvalidArgumentError(f"SPRT: alpha ({self.alpha}) and beta ({self.beta}) must be "
                                       "in (0, 1) with a sum below 1")

    @property
    def bounds(self) -> tuple[float, float]:
        return wald_bounds(self.alpha, self.beta)


@dataclass
class MatchStatus:
    """Where a match stands after ``pairs`` pairs: A's score, Elo with its 95% interval,
    likelihood of superiority, and (with a test) the LLR, its bounds and the decision
    (``"H1"``, ``"H0"`` or None)."""

    pairs: int
    counts: dict[float, int]
    score: float
    elo: float
    elo_low: float
    elo_high: float
    los: float
    llr: float | None = None
    lower: float | None = None
    upper: float | None = None
    decision: str | None = None
    sprt: dict[str, float] | None = field(default=None)

    def line(self) -> str:
        """One line of at most 80 columns: the running state.

        >>> print(status({0.5: 2, 1.0: 2}, Sprt(0, 5)).line())
        4 pairs  Elo +190.8 [+3.5, +919.4]  LOS 97.7%  LLR 0.06 [-2.94, 2.94]
        """
        text = (f"{self.pairs} pairs  Elo {self.elo:+.1f} [{self.elo_low:+.1f}, {self.elo_high:+.1f}]"
                f"  LOS {100 * self.los:.1f}%")
        if self.llr is not None:
            text += f"  LLR {self.llr:.2f} [{self.lower:.2f}, {self.upper:.2f}]"
        return text

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["counts"] = [[x, c] for x, c in self.counts.items()]
        d["pentanomial"] = pentanomial(self.counts)
        return d


def status(counts: Counts, test: Sprt | None = None) -> MatchStatus:
    """The match's state from its pair-score counts, under ``test`` when given.

    >>> s = status({0.0: 1, 0.5: 3, 0.75: 10, 1.0: 30}, Sprt(0, 50))
    >>> s.decision, round(s.llr, 2)
    ('H1', 5.53)
    """
    whole = {float(x): int(c) for x, c in sorted(counts.items())}
    score, _ = mean_and_variance(whole)
    elo, low, high = elo_interval(whole)
    out = MatchStatus(sum(whole.values()), whole, score, elo, low, high, los(whole))
    if test is not None:
        out.lower, out.upper = test.bounds
        out.llr = llr(whole, test.elo0, test.elo1)
        out.sprt = {"elo0": test.elo0, "elo1": test.elo1, "alpha": test.alpha, "beta": test.beta}
        out.decision = "H1" if out.llr >= out.upper else "H0" if out.llr <= out.lower else None
    return out


class PairTally:
    """The pairs of a match counted in index order: games ``2k`` and ``2k + 1`` are pair
    ``k``, and a pair counts once both are finished and every pair before it counts.
    ``test`` (optional) is checked after each pair; the first that decides ends the
    tally (later pairs are not counted), and so does pair ``limit`` (None: no limit).

    >>> from types import SimpleNamespace as G
    >>> t = PairTally(Sprt(0, 400, 0.2, 0.2))
    >>> t.update({0: G(returns=(1.0, 0.0), lineup=(0, 1)), 1: G(returns=(0.0, 1.0), lineup=(1, 0))})
    False
    >>> t.counts, t.pairs
    ({1.0: 1}, 1)
    """

    def __init__(self, test: Sprt | None = None, agent: int = 0, limit: int | None = None) -> None:
        self.test = test
        self.agent = agent
        self.limit = limit
        self.counts: dict[float, int] = {}
        self.pairs = 0
        self.decision: str | None = None

    def update(self, games: Mapping[int, Any]) -> bool:
        """Counts the pairs newly complete in ``games`` (index to an object with
        ``returns`` and ``lineup``, e.g. a tournament's game summary); True once the
        test has decided."""
        while (self.decision is None and (self.limit is None or self.pairs < self.limit)
               and 2 * self.pairs in games and 2 * self.pairs + 1 in games):
            first, second = games[2 * self.pairs], games[2 * self.pairs + 1]
            x = (game_score(first.returns, first.lineup, self.agent)
                 + game_score(second.returns, second.lineup, self.agent)) / 2
            key = next(iter(tally([x])))
            self.counts[key] = self.counts.get(key, 0) + 1
            self.pairs += 1
            if self.test is not None:
                self.decision = status(self.counts, self.test).decision
        return self.decision is not None

    def status(self) -> MatchStatus:
        return status(dict(sorted(self.counts.items())), self.test)
