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

Each match is a tournament (``romecore.tournament.run``): the tested agent and
``players - 1`` copies of the opponent spec rotate through the seats, so each sits in each
seat equally often and the same seeds are dealt to every rotation; every agent is handed
only its player's resampled view; a faulty agent forfeits.  The win rate is the tested
agent's mean return (a shared win counts as its share) with the tournament's Wilson 95%
interval.  Each finished match appends one JSON line to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass

from romecore import tournament
from romecore.tournament.stats import agent_labels


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
    forfeits: int         # games the tested agent forfeited (counted as losses)
    seconds: float
    seed: int


#: Seconds one game may take on the local pool before it is abandoned (and retried).  The
#: tournament default (600 s) is for agents at play speed; a 10,000-simulation search plays
#: a long game for longer, and a game dropped for its length would bias the rate.
GAME_TIME_LIMIT = 6 * 3600.0


def whole_rotations(games: int, players: int) -> int:
    """``games`` rounded up to whole seat rotations: what a match of ``games`` plays."""
    return -(-games // players) * players


def match(game_id: str, players: int, agent: str, opponent: str, games: int, jobs: int,
          seed: int = 0, progress: bool = True,
          game_time_limit: float = GAME_TIME_LIMIT) -> MatchResult:
    """Plays ``games`` seat-rotated games (rounded up to whole rotations) as a tournament;
    a game abandoned after ``game_time_limit`` seconds (and its retries) is missing from the
    result's ``games``."""
    games = whole_rotations(games, players)
    specs = [agent] + [opponent] * (players - 1)
    t0 = time.perf_counter()
    result = tournament.run(game_id, specs, games=games, players=players, seed=seed,
                            workers=jobs, backend="local" if jobs > 1 else "inline",
                            progress=progress, time_limit=game_time_limit)
    labels = agent_labels(specs)
    rows = {row.agent: row for row in result.rows}
    tested = rows[labels[0]]
    others = [rows[label] for label in labels[1:]]
    return MatchResult(game_id, players, agent, opponent, tested.games, tested.wins, tested.win_rate,
                       tested.win_rate_low, tested.win_rate_high, 1 / players, tested.mean_score,
                       sum(r.mean_score for r in others) / len(others), tested.seconds_per_move,
                       tested.forfeits, time.perf_counter() - t0, seed)


def report(r: MatchResult) -> str:
    return (f"{r.agent} vs {r.opponent} ({r.game}, {r.players}p, {r.games} games): "
            f"win rate {r.win_rate:.3f} [95% CI {r.ci_low:.3f}-{r.ci_high:.3f}], par {r.par:.2f}; "
            f"mean score {r.mean_score:.1f} vs {r.mean_opponent_score:.1f}; "
            f"{r.agent_seconds_per_move * 1000:.2f} ms a move; {r.forfeits} forfeits; {r.seconds:.0f}s")


def _save(path: str | None, r: MatchResult, extra: dict | None = None) -> None:
    if path:
        with open(path, "a") as f:
            f.write(json.dumps({**asdict(r), **(extra or {})}) + "\n")


def table(path: str) -> str:
    """The matches saved in ``path`` (JSON lines) as one Markdown table, with the command that
    reproduces each row."""
    out = ["| game | players | agent | opponent | games | win rate | 95% interval | par | ms a move | forfeits |",
           "| --- | ---: | --- | --- | ---: | ---: | --- | ---: | ---: | ---: |"]
    cmds = []
    with open(path) as f:
        for line in f:
            r = json.loads(line)
            # A game the pool dropped (past its time limit) is not in "games"; the command
            # must still ask for the games that were asked for.
            asked = r.get("asked", r["games"])
            due = whole_rotations(asked, r["players"])
            played = r["games"] if due == r["games"] else f"{r['games']} of {due}"
            out.append(f"| {r['game']} | {r['players']} | `{r['agent']}` | `{r['opponent']}` | {played} "
                       f"| {r['win_rate']:.3f} | {r['ci_low']:.3f}-{r['ci_high']:.3f} | {r['par']:.2f} "
                       f"| {1000 * r['agent_seconds_per_move']:.0f} | {r['forfeits']} |")
            cmds.append(f"python scripts/strength.py match --game {r['game']} --players {r['players']} "
                        f"--agent {r['agent']} --opponent {r['opponent']} --games {asked} --seed {r['seed']}")
    return "\n".join(out) + "\n\nCommands:\n\n```sh\n" + "\n".join(cmds) + "\n```\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    tp = sub.add_parser("table", help="print the matches of a --out file as a Markdown table")
    tp.add_argument("path")
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
        p.add_argument("--game-time-limit", type=float, default=GAME_TIME_LIMIT,
                       help="seconds one game may run on the local pool before it is abandoned "
                            "(default: %(default)g)")
        if name == "curve":
            p.add_argument("--points", default="10,30,100,300,1000,3000",
                           help="comma-separated budgets substituted for {} in --agent")
    args = ap.parse_args(argv)
    if args.cmd == "table":
        print(table(args.path), end="")
        return 0
    if args.cmd == "match":
        r = match(args.game, args.players, args.agent, args.opponent, args.games, args.jobs, args.seed,
                  game_time_limit=args.game_time_limit)
        print(report(r), flush=True)
        _save(args.out, r, {"asked": args.games})
        return 0
    if "{}" not in args.agent:
        ap.error("curve: --agent needs {} where the budget goes, e.g. ismcts:simulations={}")
    rows = []
    for point in args.points.split(","):
        spec = args.agent.format(point.strip())
        r = match(args.game, args.players, spec, args.opponent, args.games, args.jobs, args.seed,
                  game_time_limit=args.game_time_limit)
        print(report(r), flush=True)
        _save(args.out, r, {"curve_point": point.strip(), "asked": args.games})
        rows.append((point.strip(), r))
    print(f"\nsimulations vs win rate ({args.opponent}, {args.players}p):")
    for point, r in rows:
        bar = "#" * round(40 * r.win_rate)
        print(f"  {point:>8}  {r.win_rate:.3f} [{r.ci_low:.3f}, {r.ci_high:.3f}]  {bar}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
