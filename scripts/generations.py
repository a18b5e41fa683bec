"""The learned evaluators' generation loop: self-play with the newest net, train on the
recent data, gate the new net against the current one, keep the better.

    python scripts/generations.py great_city_of_rome --dir runs/gcr --generations 5 \
        --games 3000 --workers 2 --budget 7200

Each generation g writes ``DIR/gen-<g>/`` (self-play shards, ``<game>-<n>p.npz``, the loss
curve, ``gate.json``); ``DIR/best/`` holds the net that won its gate (the shipped one to
start with).  Self-play and the gate's agents use ``evaluator=learned`` with
``$ROMECORE_LEARNED_WEIGHTS`` pointing at the net in question, so every worker process reads
the same file.  Training takes the last ``--window`` generations' data, with the shipped nets'
recipe by default: a residual net over ``--base`` (the game's default evaluator unless
named), half its target the search's root value, 8 epochs, hidden 64.  The gate is a
seat-rotated match, same deals for both orders, at a fixed iteration budget; the new net
is kept when it scores above ``--gate`` (default 0.55).  ``--budget`` (seconds) stops the
loop before a generation that would start past it.  More machines: ``--backend ray
--ray-address ...`` for self-play and more ``--workers``.  Not run in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
from pathlib import Path

import romecore
from romecore.learned import ENV_DIR, ensure_registered, weights_file
from romecore.learned.selfplay import selfplay
from romecore.learned.train import train
from romecore.match import play_game
from romecore.tournament import derive_seed


def gate(game, new_dir: Path, old_dir: Path, spec: str, games: int, seed: int) -> float:
    """The new net's mean return against the old one, each deal played with the new net in
    every seat.  An agent builds its evaluator when it is made, reading
    ``$ROMECORE_LEARNED_WEIGHTS`` then, so each side is made with its own directory set."""
    n = game.num_players()
    total = 0.0
    for g in range(games):
        deal = derive_seed(seed, g // n) & 0x7FFFFFFF
        new_seat = g % n
        bots = []
        for s in range(n):
            os.environ[ENV_DIR] = str(new_dir if s == new_seat else old_dir)
            bots.append(romecore.make_agent(spec, game=game, seed=deal + s))
        total += play_game(game, bots, deal).returns[new_seat]
    return total / games


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--dir", type=Path, required=True)
    ap.add_argument("--generations", type=int, default=3)
    ap.add_argument("--games", type=int, default=200, help="self-play games per generation")
    ap.add_argument("--agent", default="ismcts:simulations=300,evaluator=learned")
    ap.add_argument("--gate-agent", default="ismcts:simulations=300,evaluator=learned")
    ap.add_argument("--gate-games", type=int, default=40)
    ap.add_argument("--gate", type=float, default=0.55)
    ap.add_argument("--window", type=int, default=3, help="generations of data to train on")
    ap.add_argument("--hidden", default="64")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--weight-decay", type=float, default=1e-3)
    ap.add_argument("--plain", action="store_true", help="a plain net, not a residual one over --base")
    ap.add_argument("--base", default=None, help="the evaluator a residual net corrects (game default)")
    ap.add_argument("--search-weight", type=float, default=0.5, help="share of the target that is the search's value")
    ap.add_argument("--sample", type=float, default=0.15, help="share of decisions kept in self-play")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--backend", default="local", choices=["local", "ray"])
    ap.add_argument("--ray-address", default=None)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budget", type=float, default=0.0, help="seconds; 0: no limit")
    args = ap.parse_args(argv)
    saved = os.environ.get(ENV_DIR)
    try:
        run(args)
    finally:  # the loop points $ROMECORE_LEARNED_WEIGHTS at each net; the caller's value returns
        if saved is None:
            os.environ.pop(ENV_DIR, None)
        else:
            os.environ[ENV_DIR] = saved


def run(args: argparse.Namespace) -> None:
    """The generations of ``main``'s parsed arguments."""
    t0 = time.monotonic()
    ensure_registered()
    game = romecore.load_game(args.game, players=args.players)
    name = f"{game.game_id}-{game.num_players()}p.npz"
    best = args.dir / "best"
    best.mkdir(parents=True, exist_ok=True)
    if not (best / name).exists():
        shutil.copy(weights_file(game), best / name)
    data_dirs: list[Path] = []
    for g in range(args.generations):
        if args.budget and time.monotonic() - t0 > args.budget:
            print(f"budget of {args.budget:g} s spent: stopping before generation {g}")
            break
        gen = args.dir / f"gen-{g}"
        gen.mkdir(parents=True, exist_ok=True)
        if (gen / "gate.json").exists():  # a finished generation (resume)
            data_dirs.append(gen / "selfplay")
            continue
        os.environ[ENV_DIR] = str(best)  # self-play with the newest accepted net
        selfplay(game, gen / "selfplay", agents=[args.agent], games=args.games, seed=derive_seed(args.seed, g),
                 sample=args.sample, shard_games=50, base=args.base, workers=args.workers, backend=args.backend,
                 ray_address=args.ray_address,
                 progress=lambda d, t, g=g: print(f"\rgeneration {g}: self-play {d}/{t}", end="", flush=True))
        print()
        data_dirs.append(gen / "selfplay")
        res = train(data_dirs[-args.window:], gen / name, hidden=[int(h) for h in args.hidden.split(",")],
                    epochs=args.epochs, lr=args.lr, weight_decay=args.weight_decay, residual=not args.plain,
                    search_weight=args.search_weight, seed=args.seed + g, log=print)
        score = gate(game, gen, best, args.gate_agent, args.gate_games, derive_seed(args.seed, 1000 + g))
        kept = score > args.gate
        if kept:
            shutil.copy(gen / name, best / name)
        (gen / "gate.json").write_text(json.dumps({"score": score, "kept": kept, "games": args.gate_games,
                                                   "val_loss": min(res.val_loss) if res.val_loss else None,
                                                   "seconds": time.monotonic() - t0}, indent=1))
        print(f"generation {g}: new net scored {score:.3f} against the best; {'kept' if kept else 'dropped'}")


if __name__ == "__main__":
    main()
