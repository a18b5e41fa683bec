"""Equal-simulation parity: romecore's ``ismcts`` against OpenSpiel's Python ``ISMCTSBot``
(issue 56, "Sound at every budget").

Two players, seat-rotated and paired: each deal seed is played twice, romecore in seat 0
and then in seat 1.  Both searches get the same number of simulations a move, so the
match measures the algorithm, not the speed.  The games are played by
:func:`romecore.match.play_game`, the loop tournaments use, so each agent is handed only
``state.resample(player)``: romecore's agent searches that view; OpenSpiel's bot gets the
same view wrapped as an OpenSpiel state and resamples it through
``resample_from_infostate`` itself, every simulation.

OpenSpiel's bot: ``ISMCTSBot(game, evaluator, uct_c, N)`` with its own defaults for the
rest (unlimited world samples, the most visited move, information-state keys, UCT,
consistent action sets) and :class:`romecore.interop.openspiel.PlayoutEvaluator` (one
uniformly random playout per leaf, run in C: the estimate of OpenSpiel's
``RandomRolloutEvaluator``, faster); ``--os-c`` sets ``uct_c`` (2.0, as in
tests/test_interop_openspiel.py and OpenSpiel's examples).  The bot's resampler is its own
call, ``state.resample_from_infostate(player, sampler)``, with a seeded sampler in place of
the unseeded ``pyspiel.UniformProbabilitySampler``, so a game is reproducible.

    nice -n 19 python bench/parity.py --game rise_to_power --sims 100 --games 100 \\
        --workers 2 --out bench/results/parity.jsonl
    python bench/parity.py --summary bench/results/parity.jsonl

Every game is one JSON line in ``--out``; a run skips the games already there, so it can be
stopped and resumed or extended with more ``--games``.  ``--spec`` replaces romecore's
agent (``{sims}`` is filled in; default ``ismcts:simulations={sims}``, the game's defaults
on top).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from collections import defaultdict
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import romecore
from romecore.match import play_game
from romecore.tournament.stats import wilson_interval

DEFAULT_SPEC = "ismcts:simulations={sims}"
OS_AGENT = "openspiel-ismcts"


class _Timed:
    """An agent wrapper that adds up the process CPU seconds of its moves (one game per
    process at a time, so process time is this agent's)."""

    def __init__(self, agent: Any, spec: str) -> None:
        self.agent = agent
        self.spec = spec
        self.cpu = 0.0

    def restart(self) -> None:
        restart = getattr(self.agent, "restart", None)
        if restart is not None:
            restart()

    def step(self, view: romecore.State) -> int:
        t0 = time.process_time()
        try:
            return int(self.agent.step(view))
        finally:
            self.cpu += time.process_time() - t0


class OpenSpielISMCTS:
    """OpenSpiel's Python ``ISMCTSBot`` as a romecore agent: ``step(view)`` wraps the
    view handed in as an OpenSpiel state (no copy) and lets the bot search it."""

    def __init__(self, game: romecore.Game, sims: int, uct_c: float, seed: int) -> None:
        import numpy as np
        from open_spiel.python.algorithms import ismcts

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            import romecore.interop.openspiel as ros
        self._ros = ros
        self.game = ros.load_game(game.game_id, **game.options)
        evaluator = ros.PlayoutEvaluator(1, np.random.RandomState(seed % (1 << 32)))
        self.bot = ismcts.ISMCTSBot(self.game, evaluator, uct_c, sims,
                                    random_state=np.random.RandomState((seed + 1) % (1 << 32)))
        # The bot's own resampler draws from an unseeded pyspiel.UniformProbabilitySampler;
        # the same call with a seeded sampler makes a game reproducible from its seeds.
        draws = np.random.RandomState((seed + 2) % (1 << 32))
        self.bot.set_resampler(lambda state, player: state.resample_from_infostate(player, draws.random_sample))

    def step(self, view: romecore.State) -> int:
        return int(self.bot.step(self._ros.RomeState(self.game, view)))


def play_one(task: dict[str, Any]) -> dict[str, Any]:
    """Plays one game of a task (``game``, ``sims``, ``spec``, ``os_c``, ``seed``,
    ``seat``: romecore's seat) and returns its JSON line's dict."""
    game = romecore.load_game(task["game"], players=2)
    seed, seat = task["seed"], task["seat"]
    ours = _Timed(romecore.make_agent(task["spec"], game=game, seed=seed * 2 + 1), task["spec"])
    theirs = _Timed(OpenSpielISMCTS(game, task["sims"], task["os_c"], seed * 2 + 2), OS_AGENT)
    agents = [ours, theirs] if seat == 0 else [theirs, ours]
    t0 = time.perf_counter()
    record = play_game(game, agents, seed)
    score = record.returns[seat]
    return {**task, "returns": record.returns, "scores": record.scores, "score": score,
            "result": "win" if score > 0.5 else "loss" if score < 0.5 else "draw",
            "cpu_romecore": round(ours.cpu, 3), "cpu_openspiel": round(theirs.cpu, 3),
            "moves": record.moves, "wall": round(time.perf_counter() - t0, 2)}


def task_key(t: dict[str, Any]) -> tuple:
    return (t["game"], t["sims"], t["spec"], t["os_c"], t["seed"], t["seat"])


def read_lines(path: Path | None) -> list[dict[str, Any]]:
    """The games already in a results file (none when it does not exist)."""
    if path is None or not path.exists():
        return []
    with path.open() as f:
        return [json.loads(line) for line in f if line.strip()]


def tasks(games: list[str], sims: list[int], spec: str, os_c: float, n_games: int,
          first_seed: int) -> Iterator[dict[str, Any]]:
    """Paired tasks: each seed twice, romecore in seat 0 then seat 1; budgets cheapest
    first, then games in turn, so a stopped run has filled the cheap rows."""
    pairs = (n_games + 1) // 2
    for n in sorted(sims):
        for i in range(pairs):
            for g in games:
                for seat in (0, 1):
                    yield {"game": g, "sims": n, "spec": spec.format(sims=n), "os_c": os_c,
                           "seed": first_seed + i, "seat": seat}


def summarize(lines: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (game, sims, spec, os_c): wins, draws, losses, score rate with its
    Wilson 95% interval, games, CPU seconds of each side."""
    rows: dict[tuple, dict[str, Any]] = defaultdict(lambda: {"win": 0, "draw": 0, "loss": 0, "score": 0.0,
                                                             "cpu_romecore": 0.0, "cpu_openspiel": 0.0})
    for d in lines:
        r = rows[(d["game"], d["sims"], d["spec"], d["os_c"])]
        r[d["result"]] += 1
        r["score"] += d["score"]
        r["cpu_romecore"] += d["cpu_romecore"]
        r["cpu_openspiel"] += d["cpu_openspiel"]
    out = []
    for (g, n, spec, c), r in sorted(rows.items()):
        games = r["win"] + r["draw"] + r["loss"]
        lo, hi = wilson_interval(r["score"], games)
        out.append({"game": g, "sims": n, "spec": spec, "os_c": c, "games": games, "win": r["win"],
                    "draw": r["draw"], "loss": r["loss"], "rate": r["score"] / games, "lo": lo, "hi": hi,
                    "cpu_romecore": r["cpu_romecore"], "cpu_openspiel": r["cpu_openspiel"]})
    return out


def print_table(rows: list[dict[str, Any]], out: Any = sys.stdout) -> None:
    print("| game | sims | romecore spec | OpenSpiel uct_c | games | W/D/L | score | Wilson 95% "
          "| CPU s romecore / OpenSpiel |", file=out)
    print("|---|---:|---|---:|---:|---|---:|---|---|", file=out)
    for r in rows:
        print(f"| {r['game']} | {r['sims']} | `{r['spec']}` | {r['os_c']:g} | {r['games']} "
              f"| {r['win']}/{r['draw']}/{r['loss']} | {r['rate']:.3f} | {r['lo']:.2f}-{r['hi']:.2f} "
              f"| {r['cpu_romecore']:.0f} / {r['cpu_openspiel']:.0f} |", file=out)


def _play_all(todo: list[dict[str, Any]], workers: int) -> Iterator[dict[str, Any]]:
    """The games' lines as they finish: in this process with one worker, else in a pool."""
    if workers == 1:
        yield from map(play_one, todo)
        return
    with ProcessPoolExecutor(workers) as pool:
        for fut in as_completed([pool.submit(play_one, t) for t in todo]):
            yield fut.result()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", action="append", help="game id (repeatable; default: every game)")
    ap.add_argument("--sims", default="100", help="simulations a move for both sides, comma-separated")
    ap.add_argument("--games", type=int, default=100, help="games per row (rounded up to pairs)")
    ap.add_argument("--spec", default=DEFAULT_SPEC, help="romecore agent; {sims} is filled in")
    ap.add_argument("--os-c", type=float, default=2.0, help="OpenSpiel's uct_c")
    ap.add_argument("--seed", type=int, default=1, help="first deal seed")
    ap.add_argument("--workers", type=int, default=1, help="processes (at most 2)")
    ap.add_argument("--out", type=Path, help="JSON lines results file (read to resume, appended to)")
    ap.add_argument("--summary", type=Path, help="only print the table of a results file")
    a = ap.parse_args(argv)
    if a.summary:
        print_table(summarize(read_lines(a.summary)))
        return 0
    if not 1 <= a.workers <= 2:
        ap.error("--workers must be 1 or 2")
    games = a.game or romecore.list_games()
    sims = [int(s) for s in a.sims.split(",")]
    done = read_lines(a.out)
    have = {task_key(d) for d in done}
    todo = [t for t in tasks(games, sims, a.spec, a.os_c, a.games, a.seed) if task_key(t) not in have]
    print(f"{len(todo)} games to play ({len(have)} already in {a.out})", file=sys.stderr, flush=True)
    played = []
    sink = a.out.open("a") if a.out else None
    try:
        for d in _play_all(todo, a.workers):
            played.append(d)
            if sink:
                sink.write(json.dumps(d) + "\n")
                sink.flush()
            print(f"{d['game']} sims={d['sims']} seed={d['seed']} seat={d['seat']}: {d['result']} "
                  f"({d['cpu_romecore']:.1f} / {d['cpu_openspiel']:.1f} CPU s)", file=sys.stderr, flush=True)
    finally:
        if sink:
            sink.close()
    wanted = {(t["game"], t["sims"], t["spec"], t["os_c"]) for t in tasks(games, sims, a.spec, a.os_c, 2, a.seed)}
    print_table([r for r in summarize(done + played) if (r["game"], r["sims"], r["spec"], r["os_c"]) in wanted])
    return 0


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    raise SystemExit(main())
