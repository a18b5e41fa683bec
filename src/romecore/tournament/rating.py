"""Ratings: one maximum-likelihood fit of all the games, for the tournament's table and the
ladder alike, so both rate on one scale.

The model.  A game ranks its agents (:func:`romecore.tournament.stats.agent_ranks`).  Under
Plackett-Luce each place goes to one of the agents not yet placed, with probability
proportional to exp(strength); at two players this is Bradley-Terry.  The ratings are the
log-strengths that maximise the likelihood of all the rankings at once (Newton's method on
the concave log-likelihood, solved with numpy), so the order of the games does not matter.
A tie counts as every order of the tied agents with equal weight (a drawn pair: half a win
each); ``prior`` virtual drawn games between every two agents keep an unbeaten agent's
rating finite.

The scale.  Ratings are shown as Elo, 400 log10 of the odds of winning (:data:`ELO` points a
unit of log-strength), with one agent at 0 (:func:`rating_anchor`: ``random``, else the
first).  Two agents alone, w wins to l losses, rate 400 log10(w / l) apart.  95% intervals
come from the observed Fisher information, or from a seeded bootstrap over games resampled
within strata (the ladder's matches; it shows no spread for a stratum whose games all ended
alike).

>>> [round(r.rating) for r in elo_ratings([{0: 1, 1: 2}] * 30 + [{0: 2, 1: 1}] * 10, 2, anchor=1, prior=0)]
[191, 0]
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from romecore.errors import InvalidArgumentError

__all__ = ["ELO", "INTERVALS", "Fit", "Outcome", "Rating", "bootstrap_intervals", "check_interval", "elo_ratings",
           "fisher_intervals", "fit_plackett_luce", "outcome_of", "rating_anchor"]

#: Elo points per unit of natural log-strength (400 / ln 10).
ELO = 400 / math.log(10)
#: Where the 95% intervals come from.
INTERVALS = ("fisher", "bootstrap")
_Z95 = 1.959964
#: Newton's method: at most this many steps, done when no rating moves more than _TOLERANCE.
_MAX_STEPS = 200
_TOLERANCE = 1e-10
#: A log-strength beyond this means the likelihood has no finite maximum.
_DIVERGED = 50.0

Outcome = tuple[tuple[int, ...], ...]  # groups best first; the agents of a group tied
Stage = tuple[int, tuple[int, ...]]  # one place: the agent placed, chosen from these (sorted)


@dataclass
class Fit:
    """A maximum-likelihood fit: log-strengths (natural log, the anchor at 0) and their
    covariance (the inverse observed information; the anchor's row and column are 0)."""

    ratings: list[float]
    covariance: list[list[float]]
    log_likelihood: float
    iterations: int


class Rating(NamedTuple):
    """One agent's rating and its 95% interval, on the Elo scale."""

    rating: float
    low: float
    high: float


def rating_anchor(specs: Sequence[str]) -> int:
    """The agent rated 0: the first ``random``, else the first agent."""
    return next((i for i, s in enumerate(specs) if s == "random"), 0)


def outcome_of(ranks: Mapping[int, int]) -> Outcome:
    """Agent -> rank (1 best, equal ranks tied) as groups of agents, best first."""
    groups: dict[int, list[int]] = {}
    for agent, rank in ranks.items():
        groups.setdefault(rank, []).append(agent)
    return tuple(tuple(sorted(groups[r])) for r in sorted(groups))


def _as_outcome(ranking: Sequence[Any], num_agents: int) -> Outcome:
    """A ranking given best first, each place an agent of 0..num_agents-1 or a sequence
    of tied agents."""
    try:
        outcome = tuple((int(g),) if not isinstance(g, (list, tuple)) else tuple(sorted(int(a) for a in g))
                        for g in ranking)
    except (TypeError, ValueError):
        raise InvalidArgumentError(f"a ranking is agents best first (a list for a tie), "
                                   f"got {ranking!r}") from None
    agents = [a for g in outcome for a in g]
    if len(set(agents)) != len(agents) or not all(0 <= a < num_agents for a in agents):
        raise InvalidArgumentError(f"ranking {ranking!r}: agents must be distinct, in 0..{num_agents - 1}")
    return outcome


# -- the likelihood's sufficient statistics: weighted places -----------------------------
def _stages(outcome: Outcome) -> dict[Stage, float]:
    """An outcome's places, each tied group in every order with equal weight: the games
    enter the likelihood only through these weights, so equal places are counted once."""
    parts = [list(itertools.permutations(g)) for g in outcome]
    weight = 1.0 / math.prod(len(p) for p in parts)
    stages: defaultdict[Stage, float] = defaultdict(float)
    for choice in itertools.product(*parts):
        order = sum(choice, ())
        for j in range(len(order) - 1):
            stages[(order[j], tuple(sorted(order[j:])))] += weight
    return stages


def _prior_stages(n: int, prior: float) -> dict[Stage, float]:
    """``prior`` drawn games between every two agents: half a win each."""
    stages: dict[Stage, float] = {}
    if prior > 0:
        for a, b in itertools.combinations(range(n), 2):
            stages[(a, (a, b))] = stages[(b, (a, b))] = prior / 2
    return stages


class _Design:
    """Places as arrays: place k puts agent ``chosen[k]`` first among ``member[k]``."""

    def __init__(self, stages: Sequence[Stage], n: int) -> None:
        self.n = n
        self.chosen = np.array([c for c, _ in stages], dtype=np.intp)
        self.member = np.zeros((len(stages), n), dtype=bool)
        for k, (_, rest) in enumerate(stages):
            self.member[k, list(rest)] = True

    def derivatives(self, theta: np.ndarray, w: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        """Log-likelihood, gradient and Hessian at log-strengths ``theta`` of the places
        weighted ``w`` (each place's softmax shifted by its own maximum)."""
        shifted = np.where(self.member, theta[None, :], -np.inf)
        top = shifted.max(axis=1)
        ex = np.exp(shifted - top[:, None])
        total = ex.sum(axis=1)
        p = ex / total[:, None]
        ll = float(w @ (theta[self.chosen] - top - np.log(total)))
        wp = w[:, None] * p
        grad = np.bincount(self.chosen, weights=w, minlength=self.n) - wp.sum(axis=0)
        hess = p.T @ wp - np.diag(wp.sum(axis=0))
        return ll, grad, hess

    def check_connected(self, w: np.ndarray) -> None:
        """Refuses games that leave some agent unlinked to the others: its strength
        relative to theirs is not identifiable."""
        parent = list(range(self.n))

        def root(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        for row in self.member[w > 0]:
            agents = np.flatnonzero(row)
            for a in agents[1:]:
                parent[root(int(a))] = root(int(agents[0]))
        if len({root(a) for a in range(self.n)}) > 1:
            raise InvalidArgumentError("the ratings are not identifiable: some agent has no "
                                       "games linking it to the others (use a prior > 0)")


def _design(weights: Mapping[Stage, float], n: int) -> tuple[_Design, np.ndarray]:
    keys = sorted(weights)
    return _Design(keys, n), np.array([weights[k] for k in keys], dtype=float)


def _newton_step(info: np.ndarray, grad: np.ndarray) -> np.ndarray:
    try:
        step = np.linalg.solve(info, grad)
    except np.linalg.LinAlgError:
        raise InvalidArgumentError("the ratings are not identifiable: some agent has no "
                                   "games linking it to the others (use a prior > 0)") from None
    return step


def _fit(design: _Design, w: np.ndarray, anchor: int, start: Sequence[float] | None = None,
         covariance: bool = True) -> Fit:
    """Newton's method with step halving on the concave log-likelihood, the anchor held
    at 0."""
    n = design.n
    design.check_connected(w)
    theta = np.array(start, dtype=float) if start is not None else np.zeros(n)
    free = np.arange(n) != anchor
    ll, grad, hess = design.derivatives(theta, w)
    iterations = 0
    while iterations < _MAX_STEPS:
        iterations += 1
        step = _newton_step(-hess[np.ix_(free, free)], grad[free])
        t = 1.0
        while True:
            trial = theta.copy()
            trial[free] += t * step
            t_ll, t_grad, t_hess = design.derivatives(trial, w)
            if t_ll >= ll - 1e-12 or t < 1e-9:
                break
            t /= 2
        theta, ll, grad, hess = trial, t_ll, t_grad, t_hess
        if np.max(np.abs(t * step), initial=0.0) < _TOLERANCE:
            break
        if not np.all(np.abs(theta) <= _DIVERGED):
            raise InvalidArgumentError("the ratings have no finite maximum: an agent won or lost "
                                       "every game (use a prior > 0)")
    cov = np.zeros((n, n))
    if covariance and free.any():
        cov[np.ix_(free, free)] = np.linalg.inv(-hess[np.ix_(free, free)])
    return Fit(theta.tolist(), cov.tolist(), ll, iterations)


# -- the public fits ---------------------------------------------------------------------
def _check(num_agents: int, anchor: int, prior: float) -> None:
    if not (isinstance(num_agents, int) and num_agents >= 1):
        raise InvalidArgumentError(f"num_agents must be a positive int, got {num_agents!r}")
    if not 0 <= anchor < num_agents:
        raise InvalidArgumentError(f"anchor {anchor!r} is not an agent of 0..{num_agents - 1}")
    if not (isinstance(prior, (int, float)) and prior >= 0 and math.isfinite(prior)):
        raise InvalidArgumentError(f"prior must be a finite number >= 0, got {prior!r}")


def fit_plackett_luce(rankings: Iterable[Sequence[Any]], num_agents: int, *, anchor: int = 0,
                      prior: float = 1.0, weights: Iterable[float] | None = None) -> Fit:
    """The maximum-likelihood Plackett-Luce (Bradley-Terry for pairs) log-strengths of
    ``num_agents`` agents from ``rankings``, each best first (a list in a place: a tie),
    with ``prior`` drawn games between every two agents, agent ``anchor`` at 0.

    >>> f = fit_plackett_luce([[0, 1]] * 30 + [[1, 0]] * 10, 2, anchor=1, prior=0)
    >>> round(f.ratings[0], 9) == round(math.log(3), 9)   # 30 wins of 40: odds 3
    True
    """
    _check(num_agents, anchor, prior)
    total: defaultdict[Stage, float] = defaultdict(float, _prior_stages(num_agents, prior))
    cache: dict[Outcome, dict[Stage, float]] = {}
    ws = itertools.repeat(1.0) if weights is None else weights
    for ranking, w in zip(rankings, ws):
        outcome = _as_outcome(ranking, num_agents)
        if sum(len(g) for g in outcome) > 1:
            if outcome not in cache:
                cache[outcome] = _stages(outcome)
            for stage, x in cache[outcome].items():
                total[stage] += float(w) * x
    return _fit(*_design(total, num_agents), anchor)


def fisher_intervals(fit: Fit) -> list[tuple[float, float]]:
    """95% intervals of the log-strengths from the observed Fisher information."""
    half = [_Z95 * math.sqrt(max(0.0, fit.covariance[i][i])) for i in range(len(fit.ratings))]
    return [(x - h, x + h) for x, h in zip(fit.ratings, half)]


def bootstrap_intervals(games: Sequence[tuple[Hashable, Outcome]], num_agents: int, *,
                        anchor: int = 0, prior: float = 1.0, samples: int = 200, seed: int = 0,
                        level: float = 0.95, start: Sequence[float] | None = None
                        ) -> list[tuple[float, float]]:
    """Percentile intervals of the log-strengths over ``samples`` refits, each on games
    drawn with replacement within each stratum (``games`` are ``(stratum, outcome)``)."""
    _check(num_agents, anchor, prior)
    distinct: dict[Outcome, int] = {}
    strata: dict[Hashable, list[int]] = {}
    for key, outcome in games:
        strata.setdefault(key, []).append(distinct.setdefault(_as_outcome(outcome, num_agents), len(distinct)))
    per_outcome = [_stages(o) for o in distinct]
    base = _prior_stages(num_agents, prior)
    keys = sorted(set(base).union(*per_outcome))
    column = {k: c for c, k in enumerate(keys)}
    design = _Design(keys, num_agents)
    prior_w = np.zeros(len(keys))
    for k, x in base.items():
        prior_w[column[k]] = x
    places = np.zeros((len(distinct), len(keys)))  # row: one game of that outcome's places
    for r, stages in enumerate(per_outcome):
        for k, x in stages.items():
            places[r, column[k]] = x
    rng = random.Random(seed)
    draws = np.zeros((samples, num_agents))
    for s in range(samples):
        picked: Counter[int] = Counter()
        for items in strata.values():
            picked.update(rng.choice(items) for _ in items)
        counts = np.zeros(len(distinct))
        for r, c in picked.items():
            counts[r] = c
        draws[s] = _fit(design, prior_w + counts @ places, anchor, start, covariance=False).ratings
    tail = (1 - level) / 2
    lows = np.quantile(draws, tail, axis=0) if samples else np.zeros(num_agents)
    highs = np.quantile(draws, 1 - tail, axis=0) if samples else np.zeros(num_agents)
    return [(float(lo), float(hi)) for lo, hi in zip(lows, highs)]


def check_interval(interval: str, samples: int) -> None:
    """Refuses an interval method other than :data:`INTERVALS`, or a bootstrap of no samples."""
    if interval not in INTERVALS:
        raise InvalidArgumentError(f"interval {interval!r}: choose bootstrap or fisher")
    if interval == "bootstrap" and not (isinstance(samples, int) and samples >= 1):
        raise InvalidArgumentError(f"bootstrap must be a positive number of resamples, got {samples!r}")


def elo_ratings(ranks: Sequence[Mapping[int, int]], num_agents: int, anchor: int, *, prior: float = 1.0,
                interval: str = "fisher", samples: int = 200, seed: int = 0,
                strata: Sequence[Hashable] | None = None) -> list[Rating]:
    """Each agent's :class:`Rating` from each game's agent ranks (agent -> rank, 1 best):
    the fit with ``prior`` drawn games between every two agents, agent ``anchor`` at 0,
    intervals from ``interval`` (a bootstrap of ``samples`` refits seeded by ``seed``,
    resampling within ``strata``, one key a game; default one stratum).  A game that
    ranks a single agent rates nothing."""
    check_interval(interval, samples)
    if strata is not None and len(strata) != len(ranks):
        raise InvalidArgumentError(f"strata: one key a game, got {len(strata)} for {len(ranks)} games")
    kept = [k for k, r in enumerate(ranks) if len(r) > 1]
    outcomes = [outcome_of(ranks[k]) for k in kept]
    fit = fit_plackett_luce(outcomes, num_agents, anchor=anchor, prior=prior)
    if interval == "fisher":
        bounds = fisher_intervals(fit)
    else:
        keys = [0] * len(ranks) if strata is None else strata
        bounds = bootstrap_intervals([(keys[k], o) for k, o in zip(kept, outcomes)], num_agents, anchor=anchor,
                                     prior=prior, samples=samples, seed=seed, start=fit.ratings)
    return [Rating(ELO * x, ELO * lo, ELO * hi) for x, (lo, hi) in zip(fit.ratings, bounds)]
