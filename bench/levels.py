"""Calibrates a game's named levels: each level plays the level below it, seats rotated.

For every pair of neighbouring levels of ``GameSpec.levels`` (Beginner-Casual,
Casual-Strong, ...) this runs one two-agent ``romecore ladder`` match at 2 players: the same
deals with the seats swapped, each agent handed only its player's resampled view.  It prints
and writes (``--out``) one table: the stronger level's score against the level below (a
shared win counting half), the Elo gap that score means (``400 log10(s / (1 - s))``) with
a 95% Wilson interval, and the milliseconds a move.  The games go to ``--games-dir`` (one
results file per pair), so ``--resume`` adds games to an earlier run and ``--pairs`` picks
some pairs only (``--pairs 4`` is Expert-Maximum).  ``--report`` plays nothing: it reads the
results files of ``--games-dir`` (``pair-K/*.jsonl``, as a run writes them, and any below
``pair-K``: several runs of one pair; or any
``romecore ladder`` or ``tournament`` results file of the two levels' specs put there) and
prints the table.

    python bench/levels.py rise_to_power --games 20 --out bench/results/levels-rise_to_power.md
    python bench/levels.py rise_to_power --games 10 --pairs 4 --seed 3 --games-dir DIR

Every level's budget counts simulations, nodes or CPU seconds (``clock=cpu``), so a loaded
machine changes only the wall time a run takes, not the strength it measures.
"""

from __future__ import annotations

import argparse
import datetime
import glob
import json
import math
import os
import platform
import subprocess
import sys
from collections.abc import Iterator

import romecore
from romecore.tournament.ladder import run_ladder

Z95 = 1.959963984540054


def wilson(score: float, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``score`` over ``n`` trials."""
    if n == 0:
        return 0.0, 1.0
    centre = (score + Z95 * Z95 / (2 * n)) / (1 + Z95 * Z95 / n)
    half = Z95 * math.sqrt(score * (1 - score) / n + Z95 * Z95 / (4 * n * n)) / (1 + Z95 * Z95 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference an expected score means (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return 400 * math.log10(score / (1 - score))


def read_pair(folder: str, high_spec: str, low_spec: str) -> tuple[int, float, float, float]:
    """From the results files in ``folder``: games, the higher level's points, and each
    level's milliseconds a move (think time over moves), counting only games of these two."""
    games, points = 0, 0.0
    think = {high_spec: 0.0, low_spec: 0.0}
    moves = {high_spec: 0, low_spec: 0}
    for record in _records(folder):
        seats = {a["spec"]: a["seat"] for a in record["tags"]["agents"]}
        if set(seats) != {high_spec, low_spec}:
            continue
        games += 1
        points += record["tags"]["result"]["returns"][seats[high_spec]]
        for spec, seat in seats.items():
            think[spec] += record["think_seconds"][seat]
            moves[spec] += record["move_counts"][seat]
    ms = [1000 * think[s] / moves[s] if moves[s] else 0.0 for s in (high_spec, low_spec)]
    return games, points, ms[0], ms[1]


def _records(folder: str) -> Iterator[dict]:
    for path in sorted(glob.glob(os.path.join(folder, "**", "*.jsonl"), recursive=True)):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    d = json.loads(line)
                    if d.get("kind") == "romecore.record":
                        yield d


def _fmt_elo(x: float) -> str:
    return "+inf" if x == math.inf else "-inf" if x == -math.inf else f"{x:+.0f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20, help="games a pair (whole seat rotations)")
    parser.add_argument("--pairs", type=int, nargs="*", help="pairs to play, 1 = the lowest (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--games-dir", default=None, help="results files (default: levels-GAME-games)")
    parser.add_argument("--resume", action="store_true", help="add to the games already in --games-dir")
    parser.add_argument("--time-limit", type=float, default=3600.0,
                        help="wall seconds a game may take before it is played again (Maximum's games are long)")
    parser.add_argument("--report", action="store_true", help="play nothing: tabulate --games-dir's games")
    parser.add_argument("--out", default=None, help="write the Markdown table here")
    args = parser.parse_args(argv)

    game = romecore.load_game(args.game, players=2)
    levels = list(game.spec.levels.items())
    pairs = args.pairs or list(range(1, len(levels)))
    games_dir = args.games_dir or f"levels-{args.game}-games"
    rows = []
    for k in pairs:
        (low, low_spec), (high, high_spec) = levels[k - 1], levels[k]
        folder = os.path.join(games_dir, f"pair-{k}")
        if not args.report:
            run_ladder(game, [high_spec, low_spec], games_per_match=args.games, seed=args.seed,
                       workers=args.workers, games_dir=folder, resume=args.resume, overwrite=not args.resume,
                       move_time_limit=None, time_limit=args.time_limit)
        n, wins, ms_hi, ms_lo = read_pair(folder, high_spec, low_spec)
        score = wins / n if n else 0.5
        low95, high95 = wilson(score, n)
        rows.append((low, high, low_spec, high_spec, n, wins, score, elo(score),
                     elo(low95), elo(high95), ms_lo, ms_hi))
        print(f"{high} over {low}: {wins:g}/{n} = {score:.3f}, {_fmt_elo(elo(score))} Elo "
              f"({_fmt_elo(elo(low95))} to {_fmt_elo(elo(high95))})", flush=True)
    table = ["| pair | specs | games | score of the stronger | Elo gap | 95% interval | ms/move (wall) |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for low, high, ls, hs, n, wins, score, gap, g_lo, g_hi, ms_lo, ms_hi in rows:
        table.append(f"| {high} over {low} | `{hs}` vs `{ls}` | {n} | {wins:g} ({score:.2f}) | "
                     f"{_fmt_elo(gap)} | {_fmt_elo(g_lo)} to {_fmt_elo(g_hi)} | {ms_hi:.0f} vs {ms_lo:.0f} |")
    text = "\n".join(table)
    print(text)
    if args.out:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                cwd=os.path.dirname(os.path.abspath(__file__))).stdout.strip()
        when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
        cmd = " ".join(["python bench/levels.py", *(argv if argv is not None else sys.argv[1:])])
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(f"{text}\n\nMade with `{cmd}` at {commit}, {when}, on {platform.node()} "
                    f"({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}).\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
