#!/usr/bin/env python
"""How well nets predict the games' results on self-play shards none of them trained on.

For each net (and the shards' base evaluator alone): the cross-entropy of its seat-relative
values against the final returns, the binary cross-entropy of the mover's value against
its search's root value, and how often its likeliest seat is the winner.  Unlike each
net's own validation loss, every net here is judged on the same rows::

    python bench/value_loss.py data/gcr-c nets/a/great_city_of_rome-2p.npz nets/b/great_city_of_rome-2p.npz
"""

from __future__ import annotations

import argparse

import numpy as np

import romecore
from romecore.learned.selfplay import load_shards
from romecore.learned.weights import BASE_FLOOR, load_weights


def report(name: str, logp: np.ndarray, z: np.ndarray, q: np.ndarray, mover: np.ndarray) -> str:
    """One line of the three measures for seat-relative log-values ``logp``."""
    rows = np.arange(len(z))
    has = np.isfinite(q)
    pm = np.exp(logp[rows, mover]).clip(1e-6, 1 - 1e-6)[has]
    bce = -(q[has] * np.log(pm) + (1 - q[has]) * np.log(1 - pm)).mean()
    ce = -(z * logp).sum(1).mean()
    picked = (np.argmax(logp, 1) == np.argmax(z, 1)).mean()
    return f"{name}: outcome cross-entropy {ce:.4f}, search-value cross-entropy {bce:.4f}, winner picked {picked:.3f}"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", help="self-play directories of one game, comma-separated")
    ap.add_argument("weights", nargs="+", help="weights files of that game")
    args = ap.parse_args(argv)
    meta, a = load_shards(args.data.split(","))
    game = romecore.load_game(meta["game"], **meta["options"])
    n = game.num_players()
    viewer = a["viewer"].astype(np.int64)
    rel = (viewer[:, None] + np.arange(n)[None, :]) % n          # relative seat j -> absolute
    rows = np.arange(len(viewer))[:, None]
    z = a["returns"][rows, rel].astype(np.float64)
    base = a["base"].astype(np.float64)[rows, rel]
    mover = (a["mover"].astype(np.int64) - viewer) % n
    q = a["search_value"].astype(np.float64)
    print(f"{meta['game']}: {len(z)} rows of {len(np.unique(a['game']))} games")
    print(report(f"base {meta['base']!r} alone", np.log(np.maximum(base / base.sum(1, keepdims=True), BASE_FLOOR)),
                 z, q, mover))
    for path in args.weights:
        w = load_weights(path, game)
        if w.base is not None and w.base != meta["base"]:
            raise SystemExit(f"{path} corrects {w.base!r}; these shards recorded {meta['base']!r}")
        h = w.forward(a["x"], base).astype(np.float64)
        h -= h.max(1, keepdims=True)
        print(report(path, h - np.log(np.exp(h).sum(1, keepdims=True)), z, q, mover))


if __name__ == "__main__":
    main()
