#!/usr/bin/env python
"""Does a deeper search agree with the review's mistakes and blunders? (issue 54's target)

Plays 2-player games between the game's levels (the opponents people meet: ``Beginner``
and ``Casual`` by default, seats alternating), labels their decisions as ``romecore analyse``
does at the default budget (:func:`romecore.analysis.judge_decision`, the confirmation of
mistakes and blunders included) until ``--positions`` are labelled, then searches every move
labelled mistake or blunder again at ``--deep`` times that budget (other seeds) and counts
how often the deep search also finds the move played worse than its best move: strictly
worse, and worse by at least the inaccuracy threshold.  One process; the games' records
go to ``--records`` (reused when present; the games are a function of ``--seed``, so a
second run labels the same positions)::

    python bench/review_agreement.py rise_to_power --positions 200
    python bench/review_agreement.py glory_to_rome --positions 200 --json out.json

Prints one Markdown table row per game (for bench/results/review.md) and, with ``--json``,
writes every flagged decision with both verdicts.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time

import romecore
from romecore import analysis, records
from romecore.match import play_game
from romecore.records import MoveTexts
from romecore.spec import parse_agent_spec

GAMES = ("great_city_of_rome", "city_of_marble", "rise_to_power", "glory_to_rome")


def games_for(game_id: str, players: list[str], path: str, count: int, seed: int) -> list[records.GameRecord]:
    """``count`` records of 2-player games between ``players`` (level names or specs),
    played here or read back from ``path``."""
    if os.path.exists(path):
        recs = records.read(path)
        if len(recs) >= count:
            return recs[:count]
    game = romecore.load_game(game_id, players=2)
    recs = []
    for g in range(count):
        specs = [players[(g + s) % len(players)] for s in range(2)]
        levels = {name.lower() for name in game.spec.levels}
        specs = ["level:" + s if s.lower() in levels else s for s in specs]
        agents = [romecore.make_agent(s, game=game, seed=seed * 1000 + 10 * g + i) for i, s in enumerate(specs)]
        texts = MoveTexts()
        rec = play_game(game, agents, seed * 1000 + g, on_step=texts)
        rec.texts = texts.texts
        recs.append(rec)
    records.write(path, recs)
    return recs


def run(game_id: str, positions: int, deep: int, players: list[str], records_dir: str, seed: int,
        max_games: int) -> dict:
    game = romecore.load_game(game_id, players=2)
    spec = analysis.agent_for(game)  # the review's default judge, per world
    name, params = parse_agent_spec(spec)
    if "simulations" not in params:
        raise SystemExit(f"{game_id}: the default judge {spec} has no iteration budget to multiply")
    deep_spec = f"{name}:" + ",".join(f"{k}={int(v) * deep if k == 'simulations' else v}"
                                      for k, v in params.items())
    recs = games_for(game_id, players, os.path.join(records_dir, f"{game_id}.jsonl"), max_games, seed)
    labelled, flagged = [], []
    t0 = time.process_time()
    for g, rec in enumerate(recs):
        for task in analysis.decision_tasks(rec, spec, analysis.DEFAULT_WORLDS, seed):
            if len(labelled) >= positions:
                break
            state = romecore.deserialize(task.blob)
            d = analysis.judge_decision(state, task.ply, task.move, spec, analysis.DEFAULT_WORLDS, task.seed)
            labelled.append(d.label)
            if d.label in ("mistake", "blunder"):
                check = analysis.search_worlds(state, state.current_player(), deep_spec, analysis.DEFAULT_WORLDS,
                                               task.seed ^ 0x5EED, line=False)
                played, best = check.move(task.move), check.moves[0]
                worse = played.value is not None and best.value is not None and played.value < best.value
                margin = worse and best.value - played.value >= analysis.THRESHOLDS["inaccuracy"]
                flagged.append({"game": g, "ply": task.ply, "label": d.label, "move": d.move_text,
                                "best": d.best_text, "loss": d.loss, "deep_best": best.text,
                                "deep_loss": None if played.value is None else best.value - played.value,
                                "deep_worse": worse, "deep_worse_by_threshold": bool(margin)})
        if len(labelled) >= positions:
            break
    worse = sum(f["deep_worse"] for f in flagged)
    by_margin = sum(f["deep_worse_by_threshold"] for f in flagged)
    counts = {k: labelled.count(k) for k in analysis.LABELS}
    return {"game": game_id, "judge": spec, "worlds": analysis.DEFAULT_WORLDS, "deep_judge": deep_spec,
            "players": players, "games": g + 1, "positions": len(labelled), "counts": counts,
            "flagged": len(flagged), "deep_worse": worse, "deep_worse_by_threshold": by_margin,
            "cpu_seconds": round(time.process_time() - t0, 1), "decisions": flagged}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="*", default=list(GAMES), help="game ids (default: all four)")
    ap.add_argument("--positions", type=int, default=200, help="decisions to label per game")
    ap.add_argument("--deep", type=int, default=10, help="the checking search's budget, times the review's")
    ap.add_argument("--players", default="Beginner,Casual", help="levels (or specs) that play the games")
    ap.add_argument("--max-games", type=int, default=8, help="games to play per game at most")
    ap.add_argument("--records", default=os.path.join(tempfile.gettempdir(), "romecore-review-games"),
                    help="where the games' records go (the games are a function of --seed)")
    ap.add_argument("--seed", type=int, default=54)
    ap.add_argument("--json", default=None, help="write every result (flagged decisions included) here")
    args = ap.parse_args()
    os.makedirs(args.records, exist_ok=True)
    results = []
    print("| game | judge (per world x 4) | deep judge | positions | mistake | blunder | deep search agrees "
          "(worse) | worse by >= 0.05 | CPU s |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|")
    for game_id in args.games:
        r = run(game_id, args.positions, args.deep, args.players.split(","), args.records, args.seed,
                args.max_games)
        results.append(r)
        share = f"{r['deep_worse']}/{r['flagged']}" + (f" ({100 * r['deep_worse'] / r['flagged']:.0f}%)"
                                                        if r["flagged"] else "")
        print(f"| {game_id} | {r['judge']} | {r['deep_judge']} | {r['positions']} | {r['counts']['mistake']} | "
              f"{r['counts']['blunder']} | {share} | {r['deep_worse_by_threshold']}/{r['flagged']} | "
              f"{r['cpu_seconds']} |", flush=True)
    total, agree = sum(r["flagged"] for r in results), sum(r["deep_worse"] for r in results)
    if total:
        print(f"\nall games: the deeper search finds {agree} of {total} flagged moves worse "
              f"({100 * agree / total:.0f}%)")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
