"""The results table: per agent, games, wins, forfeits, win rate with a 95% interval,
mean score, mean seconds per move, and a rating with its 95% interval.

Everything here is computed from the finished games in index order, never in the order
they happened to finish, so the table depends only on the games (the same master seed
gives the same table on any backend, resumed or not), timing columns aside.

Ratings are the ladder's (:mod:`romecore.tournament.rating`): the Plackett-Luce
(Bradley-Terry at 2 players) log-strengths that maximise the likelihood of all the games'
rankings at once, shown as Elo (400 log10 of the odds of winning) with ``random`` at 0
(else the first agent), each with a 95% interval from the observed Fisher information.
A game's ranking (:func:`agent_ranks`) puts the winners (highest return) first, then the
others by score; equal (return, score) is a tie.  An agent in several seats of one game
(fewer agents than seats) counts with its best seat; a game with a single distinct agent
rates nothing.

A forfeited game (an agent raised, returned an illegal move or overran its time) counts
like any other in games, wins, win rate, interval and rating, with the forfeit's returns
(:func:`romecore.records.forfeit_returns`: the faulty seat 0, the others share the win).
Its ranking is by return alone (the others tie for first, the faulty seat is last): the
scores of an unfinished game decide nothing.  For the same reason the mean score is over
the games an agent played to their end.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["GameSummary", "AgentRow", "Failure", "Forfeit", "TournamentResult", "wilson_interval",
           "summarise", "seat_ranks", "agent_ranks"]


@dataclass(frozen=True)
class GameSummary:
    """What the table needs from one game record."""

    index: int
    lineup: tuple[int, ...]
    returns: tuple[float, ...]
    scores: tuple[float, ...]
    think_seconds: tuple[float, ...]
    moves: tuple[int, ...]
    forfeit: int | None = None  # the seat that forfeited the game

    @classmethod
    def from_summary(cls, d: dict) -> GameSummary:
        """From the summary a worker sends with each finished game."""
        return cls(int(d["index"]), tuple(d["lineup"]), tuple(d["returns"]), tuple(d["scores"]),
                   tuple(d["think_seconds"]), tuple(d["moves"]), d.get("forfeit"))

    @classmethod
    def from_record(cls, rec: Any) -> GameSummary:
        """From a :class:`romecore.records.GameRecord` whose ``meta`` holds its index and lineup."""
        meta = rec.meta
        return cls(int(meta["index"]), tuple(meta["lineup"]), tuple(rec.returns), tuple(rec.scores),
                   tuple(rec.think_seconds), tuple(rec.moves),
                   None if rec.forfeit is None else int(rec.forfeit["seat"]))


@dataclass
class AgentRow:
    """One agent's line of the table."""

    agent: str  # label: the spec, with #k appended when a spec is listed twice
    spec: str
    games: int  # seats played (an agent in two seats of one game counts twice)
    wins: float  # sum of returns: a shared win counts its share
    forfeits: int  # games this agent forfeited (counted as losses in games and wins)
    win_rate: float
    win_rate_low: float  # 95% Wilson interval
    win_rate_high: float
    mean_score: float  # over the games it played to their end (not forfeited ones)
    seconds_per_move: float
    rating: float  # Elo scale, random (else the first agent) at 0; see the module text
    rating_low: float  # 95% interval
    rating_high: float


@dataclass
class Failure:
    """A game that could not be played (after its retries)."""

    index: int
    reason: str
    attempts: int


@dataclass
class Forfeit:
    """A game an agent forfeited (it is in the table, as that agent's loss)."""

    index: int
    seat: int
    agent: str
    reason: str


@dataclass
class TournamentResult:
    """What :func:`romecore.tournament.run` returns: the table as data and how it went."""

    game_id: str
    options: dict[str, Any]
    seed: int
    agents: list[str]
    rows: list[AgentRow]
    games_planned: int
    games_played: int  # finished games in the table (resumed ones included)
    games_this_run: int
    failures: list[Failure] = field(default_factory=list)
    forfeits: list[Forfeit] = field(default_factory=list)  # this run's
    events: list[str] = field(default_factory=list)
    elapsed: float = 0.0
    backend: str = "local"
    workers: int = 1
    out: str | None = None

    @property
    def games_per_second(self) -> float:
        return self.games_this_run / self.elapsed if self.elapsed > 0 else 0.0

    @property
    def table(self) -> list[dict[str, Any]]:
        """The rows as plain dicts."""
        return [asdict(r) for r in self.rows]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["games_per_second"] = self.games_per_second
        return d


def wilson_interval(successes: float, n: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval of a proportion (fractional successes allowed)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def seat_ranks(returns: Sequence[float], scores: Sequence[float]) -> list[int]:
    """Competition ranks per seat (1 is best): by return, then score; equal is a tie."""
    keys = [(r, s) for r, s in zip(returns, scores)]
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def agent_ranks(g: GameSummary) -> dict[int, int]:
    """Each roster agent's rank in game ``g`` (1 is best), by its best seat; a forfeited
    game ranks by return alone.  What the ratings here and the ladder's fit rank by."""
    keys = g.scores if g.forfeit is None else [0.0] * len(g.lineup)
    best: dict[int, int] = {}
    for seat, rank in enumerate(seat_ranks(g.returns, keys)):
        a = g.lineup[seat]
        best[a] = min(rank, best.get(a, rank))
    return best


def summarise(specs: Sequence[str], labels: Sequence[str],
              games: Iterable[GameSummary]) -> list[AgentRow]:
    """The table for a roster from its games (any order; they are sorted by index)."""
    n = len(specs)
    count = [0] * n
    wins = [0.0] * n
    forfeits = [0] * n
    scored = [0] * n
    score = [0.0] * n
    think = [0.0] * n
    moves = [0] * n
    rankings: list[dict[int, int]] = []
    for g in sorted(games, key=lambda g: g.index):
        for seat, a in enumerate(g.lineup):
            count[a] += 1
            wins[a] += g.returns[seat]
            think[a] += g.think_seconds[seat]
            moves[a] += g.moves[seat]
            if g.forfeit is None:
                scored[a] += 1
                score[a] += g.scores[seat]
            elif g.forfeit == seat:
                forfeits[a] += 1
        rankings.append(agent_ranks(g))
    # the fit needs numpy, imported here only: a worker process, which never rates, then
    # starts no BLAS threads that could take the move alarm's SIGALRM (romecore.match)
    from romecore.tournament.rating import elo_ratings, rating_anchor

    ratings = elo_ratings(rankings, n, rating_anchor(specs)) if n else []
    rows = []
    for a in range(n):
        lo, hi = wilson_interval(wins[a], count[a])
        rows.append(AgentRow(
            agent=labels[a], spec=specs[a], games=count[a], wins=wins[a], forfeits=forfeits[a],
            win_rate=wins[a] / count[a] if count[a] else 0.0, win_rate_low=lo, win_rate_high=hi,
            mean_score=score[a] / scored[a] if scored[a] else 0.0,
            seconds_per_move=think[a] / moves[a] if moves[a] else 0.0,
            rating=ratings[a].rating, rating_low=ratings[a].low, rating_high=ratings[a].high))
    return rows


def agent_labels(specs: Sequence[str]) -> list[str]:
    """Unique labels: a spec listed more than once gets ``#1``, ``#2``, ..."""
    labels = []
    for i, s in enumerate(specs):
        if specs.count(s) > 1:
            labels.append(f"{s}#{specs[:i + 1].count(s)}")
        else:
            labels.append(s)
    return labels
