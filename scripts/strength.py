#!/usr/bin/env python
"""Strength of search agents: seat-rotated matches with win rates and confidence intervals,
and the simulations-vs-win-rate curve.

Examples (The Great City of Rome)::

    # ismcts at 0.1 s a move against random, 2 players, 200 games on 2 processes
    python scripts/strength.py match --players 2 --agent ismcts:time=0.1 --opponent random --games 200
    # one ismcts against three greedy players
    python scripts/strength.py match --players 4 --agent ismcts:time=0.1 --opponent greedy --games 200
    # the curve: simulations per move against a fixed opponent
    python scripts/strength.py curve --players 2 --agent "ismcts:simulations={}" \
        --opponent greedy --points 10,30,100,300,1000,3000 --games 100

Seat rotation: games come in blocks of ``players``; a block deals the same seed with the
tested agent in each seat in turn, the other seats held by the opponent spec.  The win rate
is the tested agent's mean return (a shared win counts as its share); the interval is the
Wilson 95% interval.  Each finished match appends one JSON line to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
import warnings
from dataclasses import asdict, dataclass


@dataclass
class MatchResult:
    game: str
    players: int
    agent: str
    opponent: str
    games: int
    wins: float           # summed returns of the tested agent
    win_rate: float
    ci_low: float
    ci_high: float
    par: float            # 1 / players
    mean_score: float
    mean_opponent_score: float
    agent_seconds_per_move: float
    agent_iterations_per_move: float  # simulations / nodes the tested agent managed
    seconds: float
    seed: int


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval for a proportion (fractional wins allowed)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


class _Counting:
    """Wraps an agent and adds up the iterations its searches report."""

    def __init__(self, agent):
        self.agent = agent
        self.spec = getattr(agent, "spec", "?")
        self.iterations = 0

    def step(self, state):
        action = self.agent.step(state)
        self.iterations += int(getattr(self.agent, "stats", {}).get("iterations", 0))
        return action

    def restart(self):
        restart = getattr(self.agent, "restart", None)
        if restart:
            restart()


def _play_one(job: tuple) -> tuple[float, float, float, float, int, int]:
    """One game: (agent's return, agent's score, opponents' mean score, agent seconds,
    agent moves, agent iterations)."""
    game_id, players, agent_spec, opponent_spec, index, seed = job
    warnings.simplefilter("ignore")
    import romecore
    from romecore.match import play_game

    game = romecore.load_game(game_id, players=players)
    deal, seat = divmod(index, players)
    game_seed = seed * 1_000_003 + deal
    agents = [romecore.make_agent(opponent_spec, game=game, seed=game_seed * 31 + p)
              for p in range(players)]
    tested = _Counting(romecore.make_agent(agent_spec, game=game, seed=game_seed * 31 + 17))
    agents[seat] = tested
    result = play_game(game, agents, game_seed)
    others = [s for p, s in enumerate(result.scores) if p != seat]
    for a in agents:
        close = getattr(getattr(a, "agent", a), "close", None)
        if close:
            close()
    return (result.returns[seat], result.scores[seat], sum(others) / len(others),
            result.think_seconds[seat], result.moves[seat], tested.iterations)


def match(game_id: str, players: int, agent: str, opponent: str, games: int, jobs: int,
          seed: int = 0, progress: bool = True) -> MatchResult:
    """Plays ``games`` seat-rotated games (rounded up to whole rotation blocks)."""
    games = -(-games // players) * players
    work = [(game_id, players, agent, opponent, i, seed) for i in range(games)]
    t0 = time.perf_counter()
    results = []
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for r in pool.imap_unordered(_play_one, work):
                results.append(r)
                if progress:
                    _progress(results, games, t0)
    else:
        for w in work:
            results.append(_play_one(w))
            if progress:
                _progress(results, games, t0)
    if progress:
        print(file=sys.stderr)
    wins = sum(r[0] for r in results)
    lo, hi = wilson(wins, games)
    moves = sum(r[4] for r in results)
    return MatchResult(game_id, players, agent, opponent, games, wins, wins / games, lo, hi,
                       1 / players, sum(r[1] for r in results) / games,
                       sum(r[2] for r in results) / games,
                       sum(r[3] for r in results) / max(moves, 1),
                       sum(r[5] for r in results) / max(moves, 1),
                       time.perf_counter() - t0, seed)


def _progress(results: list, total: int, t0: float) -> None:
    wins = sum(r[0] for r in results)
    print(f"\r  {len(results)}/{total} games, win rate {wins / len(results):.3f}, "
          f"{time.perf_counter() - t0:.0f}s", end="", file=sys.stderr, flush=True)


def report(r: MatchResult) -> str:
    return (f"{r.agent} vs {r.opponent} ({r.game}, {r.players}p, {r.games} games): "
            f"win rate {r.win_rate:.3f} [95% CI {r.ci_low:.3f}-{r.ci_high:.3f}], par {r.par:.2f}; "
            f"mean score {r.mean_score:.1f} vs {r.mean_opponent_score:.1f}; "
            f"{r.agent_seconds_per_move * 1000:.1f} ms and {r.agent_iterations_per_move:.0f} "
            f"iterations a move; {r.seconds:.0f}s")


def _save(path: str | None, r: MatchResult, extra: dict | None = None) -> None:
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({**asdict(r), **(extra or {})}) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    for name in ("match", "curve"):
        p = sub.add_parser(name)
        p.add_argument("--game", default="great_city_of_rome")
        p.add_argument("--players", type=int, default=2)
        p.add_argument("--agent", required=True, help="agent spec; for curve, with {} for the budget")
        p.add_argument("--opponent", default="random")
        p.add_argument("--games", type=int, default=200)
        p.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--out", default=None, help="append one JSON line per match here")
        if name == "curve":
            p.add_argument("--points", default="10,30,100,300,1000,3000",
                           help="comma-separated budgets substituted for {} in --agent")
    args = ap.parse_args(argv)
    if args.cmd == "match":
        r = match(args.game, args.players, args.agent, args.opponent, args.games, args.jobs, args.seed)
        print(report(r), flush=True)
        _save(args.out, r)
        return 0
    if "{}" not in args.agent:
        ap.error("curve: --agent needs {} where the budget goes, e.g. ismcts:simulations={}")
    rows = []
    for point in args.points.split(","):
        spec = args.agent.format(point.strip())
        r = match(args.game, args.players, spec, args.opponent, args.games, args.jobs, args.seed)
        print(report(r), flush=True)
        _save(args.out, r, {"curve_point": point.strip()})
        rows.append((point.strip(), r))
    print(f"\nsimulations vs win rate ({args.opponent}, {args.players}p):")
    for point, r in rows:
        bar = "#" * round(40 * r.win_rate)
        print(f"  {point:>8}  {r.win_rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]  {bar}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
