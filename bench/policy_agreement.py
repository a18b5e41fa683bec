#!/usr/bin/env python
"""How well a net's policy head predicts the self-play searches' choices, on shards.

For every row whose mover searched (the shards' visit counts), the head's softmax over the
actions the search tried is compared with the search's visits: how often the head's
likeliest action is the most visited one (top-1) or among the head's three likeliest
(top-3), beside what a uniform guess over those actions scores, and the cross-entropy of
the head against the visit shares.  Use shards the net did not train on::

    python bench/policy_agreement.py nets/gcr-pol20/great_city_of_rome-2p.npz data/gcr-b --rows 20000
"""

from __future__ import annotations

import argparse

import numpy as np

import romecore
from romecore.learned.selfplay import load_shards
from romecore.learned.weights import load_weights


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("weights", help="a weights file with a policy head")
    ap.add_argument("data", nargs="+", help="self-play directories of the same game")
    ap.add_argument("--rows", type=int, default=0, help="the first N searched rows (0: all)")
    args = ap.parse_args()
    meta, a = load_shards(args.data)
    game = romecore.load_game(meta["game"], **meta["options"])
    w = load_weights(args.weights, game)
    if w.policy is None:
        raise SystemExit(f"{args.weights} has no policy head")
    offs, acts, visits = a["policy_offsets"], a["policy_actions"], a["policy_visits"]
    rows = [r for r in np.nonzero(np.diff(offs) > 0)[0] if visits[offs[r]:offs[r + 1]].sum() > 0]
    rows = rows[:args.rows] if args.rows else rows
    logits = w.policy_logits(a["x"][rows]).astype(np.float64)
    top1 = top3 = uniform = ce = tried = 0.0
    for k, r in enumerate(rows):
        acted, v = acts[offs[r]:offs[r + 1]], visits[offs[r]:offs[r + 1]].astype(np.float64)
        z = logits[k, acted]
        logp = z - z.max() - np.log(np.exp(z - z.max()).sum())
        best = np.argmax(v)
        top1 += np.argmax(z) == best
        top3 += best in np.argsort(-z)[:3]
        uniform += 1.0 / len(acted)
        tried += len(acted)
        ce -= (v / v.sum() * logp).sum()
    n = max(len(rows), 1)
    print(f"{meta['game']}: {len(rows)} searched rows, {tried / n:.1f} actions tried a row; "
          f"top-1 {top1 / n:.3f} (uniform guess {uniform / n:.3f}), top-3 {top3 / n:.3f}, "
          f"cross-entropy {ce / n:.3f}")


if __name__ == "__main__":
    main()
