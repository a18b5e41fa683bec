#!/usr/bin/env python
"""Fits a hand-written evaluator's weights to game outcomes, reproducibly (regression).

Where ``tune_heuristic.py`` asks which weights make ``greedy`` win, this asks which weights
make the evaluator *predict*: the quantity a search reads at its cut-offs.  It plays seeded
games between agents (default ``greedy``, each handed only its player's resampled view),
keeps a share of the positions where a player is to move, and fits

* the **linear weights** (those whose effect on ``estimates`` is linear: a weight at 0, 1
  and 2 moves each player's estimate by 0, x and 2x), by least squares of every player's
  score still to come (the final score less the estimate with those weights at 0) on the
  features, both centred over the players of the position (a part every player shares
  does not change who wins, so it is not fitted); weights that come out negative are held
  at 0 and the rest fitted again (the evaluators assume no negative worth);
* then the **softmax temperatures** (``temperature`` and ``temperature_*``), by a grid
  search over the log-likelihood of the final returns under the evaluator's values.

Weights neither linear nor temperatures (for example a share that sets a site's expected
size) keep their values.  ``--only name,...`` fits just the weights named (a new feature
beside a table already fitted); the others are held, so the R^2 printed is then of what
they leave unexplained.  Games are split by index: the first four fifths fit, the rest
report how well the old and new tables predict (R^2 of the centred scores, log-loss of the
returns).  Same arguments, same table (``bench/archive/fitted-weights.md`` has the runs):

    python scripts/fit_heuristic.py city_of_marble --players 2 --games 400 --seed 1
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import multiprocessing
import sys
import time
from pathlib import Path

import numpy as np

import romecore

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
from weights_screen import build  # noqa: E402  (an agent from "SPEC|weight=value,...")


def play(args: tuple) -> list[tuple]:
    """One seeded game: ``(players, serialized state, final scores, final returns)`` for
    the sampled decision positions."""
    game_id, n, specs, seed, share = args
    game = romecore.load_game(game_id, players=n)
    rng = np.random.default_rng(seed)
    agents = [build(specs[p % len(specs)], game, seed * 31 + p) for p in range(n)]
    st = game.new_initial_state(seed=seed)
    kept = []
    k = 0
    while not st.is_terminal():
        if st.is_chance_node():
            st.apply_random_chance()
            continue
        p = st.current_player()
        if rng.random() < share:
            kept.append(st.serialize())
        k += 1
        st.apply_action(agents[p].step(st.resample(p, seed=seed * 7919 + k)))
    scores, returns = list(st.scores()), list(st.returns())
    return [(n, blob, scores, returns) for blob in kept]


def features(evs: dict, names: list[str], states: list) -> tuple[np.ndarray, np.ndarray]:
    """The estimates with every fitted weight at 0 (``base``, positions x players) and each
    weight's unit feature (positions x weights x players)."""
    base = np.array([evs[None].estimates(s) for s in states])
    feats = np.stack([np.array([evs[k].estimates(s) for s in states]) - base for k in names],
                     axis=1) if names else np.zeros((len(states), 0, base.shape[1]))
    return base, feats


def centred(x: np.ndarray) -> np.ndarray:
    """``x`` less its mean over the players (the last axis)."""
    return x - x.mean(axis=-1, keepdims=True)


def design(base: np.ndarray, feats: np.ndarray, final: np.ndarray) -> tuple:
    """One row per (position, player): the centred features, and the centred score still
    to come (the final score less the estimate every fitted weight leaves out)."""
    y = centred(final - base).reshape(-1)
    x = centred(feats).transpose(0, 2, 1).reshape(feats.shape[0] * feats.shape[2], feats.shape[1])
    return x, y


def fit_linear(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least squares of ``y`` on ``x`` with negative weights held at 0 (an active set,
    refitted until none is negative)."""
    free = np.ones(x.shape[1], dtype=bool)
    w = np.zeros(x.shape[1])
    while free.any():
        w[:] = 0.0
        w[free] = np.linalg.lstsq(x[:, free], y, rcond=None)[0]
        if (w >= 0).all():
            break
        free &= w > 0
    return np.maximum(w, 0.0)


def r_squared(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> float:
    return float(1.0 - ((y - x @ w) ** 2).sum() / (y ** 2).sum())


def log_loss(ev, states: list, returns: np.ndarray) -> float:
    """Mean cross-entropy of the final returns under the evaluator's values."""
    vals = np.array([ev(s) for s in states])
    return float(-(returns * np.log(np.clip(vals, 1e-9, 1.0))).sum(axis=1).mean())


def collect(game_id: str, counts: list[int], specs: list[str], games: int, seed: int,
            share: float, jobs: int) -> dict:
    """Per player count: the game, the sampled states, their games' final scores and
    returns, and which positions fit (the first four fifths of the games) and which test."""
    tasks = [(game_id, n, specs, seed * 1000003 + n * 10007 + g, share)
             for n in counts for g in range(games)]
    if jobs > 1:
        with multiprocessing.Pool(jobs) as pool:
            played = pool.map(play, tasks, chunksize=4)
    else:
        played = list(map(play, tasks))
    data = {}
    for n in counts:
        game = romecore.load_game(game_id, players=n)
        rows = [(g % games, r) for g, task in enumerate(tasks) if task[1] == n
                for r in played[g]]
        data[n] = (game, [game.deserialize(r[1]) for _, r in rows],
                   np.array([r[2] for _, r in rows], dtype=float),
                   np.array([r[3] for _, r in rows], dtype=float),
                   np.array([g < games * 4 // 5 for g, _ in rows]))
    return data


def linear_weights(make, table: dict, probe: list) -> list[str]:
    """The weights (softmax temperatures aside) whose effect on the estimates is linear
    and not nil on the ``probe`` states, all others at their values in ``table``."""
    names = []
    for k in table:
        if k.startswith("temperature"):
            continue
        try:
            e0, e1, e2 = (np.array([make({**table, k: v}).estimates(s) for s in probe])
                          for v in (0.0, 1.0, 2.0))
        except (ValueError, romecore.RomecoreError):
            continue  # a value the evaluator refuses: not a free weight
        if np.abs(e1 - e0).max() > 1e-9 and np.allclose(e2 - e0, 2 * (e1 - e0), atol=1e-6):
            names.append(k)
    return names


def fit(counts: list[int], data: dict, table: dict, say=print,
        only: set[str] | None = None) -> dict:
    """The fitted table: ``table`` with its linear weights and temperatures fitted (with
    ``only``, just those of them named there; the others keep their values)."""
    def make(weights: dict):
        return romecore.make_evaluator(data[counts[0]][0], "heuristic", **weights)

    states = data[counts[0]][1]
    names = linear_weights(make, table, states[:: max(1, len(states) // 300)])
    temps = [k for k in table if k.startswith("temperature")]
    if only is not None:
        unknown = only - set(names) - set(temps)
        if unknown:
            raise SystemExit(f"--only: not a linear weight or a temperature of the table: "
                             f"{', '.join(sorted(unknown))} (linear: {', '.join(names)})")
        names = [k for k in names if k in only]
        temps = [k for k in temps if k in only]
    say(f"linear weights: {', '.join(names)}; kept as they are: "
        + (", ".join(k for k in table if k not in names and k not in temps) or "-"))

    zero = {**table, **{k: 0.0 for k in names}}
    evs = {None: make(zero), **{k: make({**zero, k: 1.0}) for k in names}}
    rows = {}
    for n in counts:
        _, states, final, _, train = data[n]
        base, feats = features(evs, names, states)
        rows[n] = {m: design(base[train == m], feats[train == m], final[train == m])
                   for m in (True, False)}
    x, y = (np.concatenate([rows[n][True][i] for n in counts]) for i in (0, 1))
    w = fit_linear(x, y)
    fitted = {**table, **{k: round(float(v), 3) for k, v in zip(names, w)}}
    for label, ww in (("current", np.array([table[k] for k in names])), ("fitted", w)):
        say(f"held-out R^2 of the centred scores still to come, {label}: "
            + ", ".join(f"{n}p {r_squared(*rows[n][False], ww):.3f}" for n in counts))

    def loss(weights: dict, fitting: bool) -> float:
        """Mean log-loss over the fitting (or the test) positions of every count."""
        ev = make(weights)
        total = count = 0
        for n in counts:
            _, states, _, rets, train = data[n]
            sel = [s for s, t in zip(states, train) if t == fitting]
            total += log_loss(ev, sel, rets[train == fitting]) * len(sel)
            count += len(sel)
        return total / count

    # temperatures: a grid of multiples of the current values, on the fitting positions
    grid = [0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0]
    best = min((loss({**fitted, **{k: table[k] * f for k, f in zip(temps, fs)}}, True), fs)
               for fs in itertools.product(grid, repeat=len(temps)))
    fitted.update({k: round(table[k] * f, 3) for k, f in zip(temps, best[1])})
    say(f"held-out log-loss of the returns: current {loss(table, False):.4f}, "
        f"fitted {loss(fitted, False):.4f}")
    return fitted


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, nargs="*", help="player counts (default: all)")
    ap.add_argument("--games", type=int, default=400, help="games per player count")
    ap.add_argument("--agent", action="append",
                    help="agent by seat, SPEC or SPEC|weight=value,... (default: greedy "
                         "on the starting table)")
    ap.add_argument("--start", default="", help="weight=value,...: the table to start from "
                    "(default: the module's WEIGHTS)")
    ap.add_argument("--only", default="", help="name,...: fit only these weights, the others "
                    "held at their values (default: every linear weight and the temperatures)")
    ap.add_argument("--share", type=float, default=0.1, help="share of positions kept")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args(argv)

    module = importlib.import_module(f"romecore.games.{args.game}.heuristic")
    spec = romecore.load_game(args.game).spec
    counts = args.players or list(range(spec.min_players, spec.max_players + 1))
    start = {k: float(v) for k, v in (kv.split("=") for kv in args.start.split(",") if kv)}
    specs = args.agent or ["greedy" + (f"|{args.start}" if args.start else "")]
    t0 = time.time()
    data = collect(args.game, counts, specs, args.games, args.seed, args.share, args.jobs)
    print(f"{len(counts) * args.games} games, {sum(len(d[1]) for d in data.values())} "
          f"positions in {time.time() - t0:.0f} s", flush=True)
    table = {**module.WEIGHTS, **start}
    fitted = fit(counts, data, table, only={k for k in args.only.split(",") if k} or None)
    print("fitted table (the starting one in brackets):")
    for k, v in fitted.items():
        print(f"    {k} = {v}  ({table[k]})")
    print("as overrides: " + ",".join(f"{k}={v}" for k, v in fitted.items() if v != table[k]))
    print(f"{time.time() - t0:.0f} s")
    return fitted


if __name__ == "__main__":
    main()
