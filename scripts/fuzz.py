"""Fuzzer for snapshots and dicts of every game, player count and option set.

Each case takes a real state from a random game, corrupts its snapshot (bit flips, bytes at
their limits, truncation, extension, random bytes, another configuration's struct, the
envelope's options relabelled, a corrupt history) or its dict (integers at their limits,
wrong types, deep nesting, keys dropped, list items moved between zones, dropped or
duplicated), and loads it.  The load must raise ``SerializationError`` or give a state that
keeps every promise: it round-trips through ``serialize`` and ``to_dict``, every player's
view and resampled worlds load back, and every step of a random walk from it does too.

    python scripts/fuzz.py --seconds 60              # every game, two worker processes
    python scripts/fuzz.py --game glory_to_rome --players 5 --seconds 600
    python scripts/fuzz.py --game great_city_of_rome --players 2 --case 1234   # one case
    scripts/sanitize.sh --seconds 60                 # the same under ASan and UBSan

Cases run in worker processes, so a crash is counted (with the sanitizer's report) and the
run goes on from the next case.  Prints per game: cases tried, refused, accepted, crashes,
wrong error types, accepted-then-misbehaving; exits 1 if any of the last three is not 0.
"""

from __future__ import annotations

import argparse
import faulthandler
import json
import os
import random
import resource
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import msgpack

import romecore
from romecore.plugins import registry

LIMIT_INTS = (-1, 0, 1, 2, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255, 256, 65535, 65536,
              2**31 - 1, 2**31, -(2**31), 2**32, 2**40, 2**63, 2**64, -(2**64))
WRONG_TYPES: tuple[Any, ...] = (None, "x", "", 1.5, True, False, [], {}, [[[]]], {"x": 1}, b"\x00")
WALK_STEPS = 12
WORKER_MEMORY = 3 << 30  # bytes of address space a worker may map


# -- configurations -------------------------------------------------------------------------
def option_variants(opt: Any) -> list[Any]:
    """Representative values of one game option: its own list where it has one."""
    if hasattr(opt, "variants"):
        return list(opt.variants())
    if opt.type is bool:
        return [False, True]
    if opt.choices:
        return list(opt.choices)
    return [opt.default]


def configs(game_ids: list[str] | None = None, players: int | None = None) -> list[dict[str, Any]]:
    """Every (game, player count, option set) to fuzz, as load_game keywords."""
    out = []
    for gid, spec in sorted(registry.games().items()):
        if game_ids and gid not in game_ids:
            continue
        sets: list[dict[str, Any]] = [{}]
        for opt in spec.options:
            sets = [dict(s, **{opt.name: v}) for s in sets for v in option_variants(opt)]
        for n in range(spec.min_players, spec.max_players + 1):
            if players is not None and n != players:
                continue
            out.extend({"game": gid, "players": n, **s} for s in sets)
    return out


def load(cfg: dict[str, Any]) -> romecore.Game:
    kw = {k: v for k, v in cfg.items() if k != "game"}
    return romecore.load_game(cfg["game"], **kw)


def base_states(game: romecore.Game, seed: int, count: int = 3) -> list[romecore.State]:
    """States along ``count`` random games: every chance node, every player node, the end."""
    rng = random.Random(seed)
    out = []
    for g in range(count):
        s = game.new_initial_state(seed=seed * 1000 + g)
        while True:
            if rng.random() < 0.08 or s.is_terminal():
                out.append(s.clone())
            if s.is_terminal():
                break
            step(s, rng)
    return out


def step(s: romecore.State, rng: random.Random) -> int:
    if s.is_chance_node():
        return s.apply_random_chance()
    a = rng.choice(s.legal_actions())
    s.apply_action(a)
    return a


# -- mutations ------------------------------------------------------------------------------
def mutate_snapshot(game: romecore.Game, state: romecore.State, others: list[bytes],
                    rng: random.Random) -> bytes:
    blob = state.serialize(history=rng.random() < 0.3)
    raw = state.state_bytes()
    at = blob.index(raw)
    kind = rng.randrange(9)
    if kind <= 2:  # bits and bytes inside the struct
        b = bytearray(raw)
        for _ in range(rng.choice((1, 1, 1, 2, 3, 8))):
            i = rng.randrange(len(b))
            r = rng.random()
            if r < 0.5:
                b[i] ^= 1 << rng.randrange(8)
            elif r < 0.8:
                b[i] = rng.choice((0, 1, 0x7F, 0x80, 0xFE, 0xFF))
            else:
                b[i] = (b[i] + rng.choice((-1, 1))) & 0xFF
        return blob[:at] + bytes(b) + blob[at + len(raw):]
    if kind == 3:
        return blob[:rng.randrange(len(blob))]
    if kind == 4:
        return blob + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    if kind == 5:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(len(blob) + 1)))
    fields = msgpack.unpackb(blob, raw=False)
    if kind == 6 and others:  # another configuration's struct (or whole blob) under ours
        other = msgpack.unpackb(rng.choice(others), raw=False)
        if rng.random() < 0.5:
            fields[5] = other[5]
        else:
            fields = other
            fields[3] = dict(game.options)
    elif kind == 7:  # the envelope's options relabelled: another player count or option set
        opts = dict(fields[3])
        spec = registry.game(game.game_id)
        name = rng.choice(["players"] + [o.name for o in spec.options])
        if name == "players":
            opts[name] = rng.randrange(spec.min_players, spec.max_players + 1)
        else:
            opt = next(o for o in spec.options if o.name == name)
            opts[name] = rng.choice(option_variants(opt))
        fields[3] = opts
    else:  # a corrupt or foreign history
        n = game.num_distinct_actions()
        hist = [rng.choice((rng.randrange(n), -1, n, 2**31 - 1)) for _ in range(rng.randrange(8))]
        fields[7] = b"".join(int.to_bytes(a & 0xFFFFFFFF, 4, "little") for a in hist) + (
            b"\x00" * rng.randrange(4))
    return msgpack.packb(fields, use_bin_type=True)


def _paths(x: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    yield path, x
    if len(path) > 12:  # never into the deep nests this fuzzer plants itself
        return
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, path + (i,))


def _set(d: Any, path: tuple, value: Any) -> None:
    for k in path[:-1]:
        d = d[k]
    d[path[-1]] = value


def _deep(depth: int) -> Any:
    x: Any = 0
    for _ in range(depth):
        x = [x]
    return x


def mutate_dict(d: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    d = json.loads(json.dumps(d))  # a deep copy with plain types
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        paths = [(p, v) for p, v in _paths(d) if p and p[0] not in ("game", "options")]
        if not paths:
            break
        path, value = rng.choice(paths)
        kind = rng.randrange(8)
        if kind <= 2 and isinstance(value, int) and not isinstance(value, bool):
            _set(d, path, rng.choice(LIMIT_INTS + (value + 1, value - 1, -value)))
        elif kind == 3:
            _set(d, path, rng.choice(WRONG_TYPES))
        elif kind == 4:
            _set(d, path, _deep(rng.choice((50, 5000))))
        elif kind == 5:  # a key dropped
            parent = d
            for k in path[:-1]:
                parent = parent[k]
            if isinstance(parent, dict):
                parent.pop(path[-1], None)
        elif kind == 6 and isinstance(value, list):  # a list shortened, grown or reordered
            r = rng.random()
            if r < 0.3 and value:
                value.pop(rng.randrange(len(value)))
            elif r < 0.6 and value:
                value.append(rng.choice(value))
            elif r < 0.8:
                value.append(rng.choice(LIMIT_INTS))
            else:
                rng.shuffle(value)
        else:  # a zone change: an item moved from one list to another
            lists = [v for _, v in _paths(d) if isinstance(v, list) and v
                     and all(isinstance(e, int) and not isinstance(e, bool) for e in v)]
            targets = [v for _, v in _paths(d) if isinstance(v, list)]
            if lists and targets:
                src = rng.choice(lists)
                rng.choice(targets).append(src.pop(rng.randrange(len(src))))
    return d


# -- checks -------------------------------------------------------------------------------
def check_accepted(game: romecore.Game, s: romecore.State, rng: random.Random) -> None:
    """What an accepted state must keep: round trips, honest views, valid successors."""
    for t in range(WALK_STEPS + 1):
        again = game.deserialize(s.serialize(history=True))
        assert again == s, "snapshot round trip changed the state"
        back = game.state_from_dict(s.to_dict())
        assert back == s, "dict round trip changed the state"
        if s.is_terminal():
            s.returns()
            s.scores()
            break
        legal = s.legal_actions()
        assert legal, "no legal action before the end"
        if t == 0:
            for p in range(game.num_players()):
                s.observation(p)
                s.render(p)
                w = s.resample(p, rng.randrange(1 << 62))
                assert game.deserialize(w.serialize()) == w, "resampled world refused"
                assert game.state_from_dict(w.to_dict()) == w, "resampled world's dict refused"
                assert w.observation_string(p) == s.observation_string(p), "resample changed a view"
                x = s.observation_tensor(p)
                assert ((x >= 0) & (x <= 1)).all(), "tensor value outside [0, 1] (or NaN)"
                assert (w.observation_tensor(p) == x).all(), "resample changed the tensor"
                s.to_svg(p)
            str(s)
            s.scores()
        step(s, rng)
    c = s.clone()
    c.playout(rng.randrange(1 << 62))
    assert c.is_terminal()


def run_case(game: romecore.Game, bases: list[romecore.State], others: list[bytes],
             seed: int, case: int) -> tuple[str, str]:
    """One case: ("refused" | "accepted" | "wrong-type" | "misbehaving", detail)."""
    rng = random.Random(f"{seed}:{case}")
    base = rng.choice(bases)
    use_dict = rng.random() < 0.5
    try:
        if use_dict:
            s = game.state_from_dict(mutate_dict(base.to_dict(history=rng.random() < 0.3), rng))
        else:
            s = romecore.deserialize(mutate_snapshot(game, base, others, rng))
    except romecore.SerializationError:
        return "refused", ""
    except Exception as e:  # the fault this tool exists to find
        return "wrong-type", f"{'dict' if use_dict else 'snapshot'}: {type(e).__name__}: {e}"
    try:
        check_accepted(s.game, s, rng)
    except Exception as e:
        return "misbehaving", f"{'dict' if use_dict else 'snapshot'}: {type(e).__name__}: {e}"
    return "accepted", ""


# -- worker and driver --------------------------------------------------------------------
def worker(cfg: dict[str, Any], seed: int, start: int, stop: int, deadline: float) -> None:
    """Runs cases start.. until stop or the deadline; one JSON line per case on stdout,
    written before the verdict (``{"case": i}``) and after it, so a crash names its case."""
    faulthandler.enable()  # a crash leaves the Python stack on stderr for the report
    if "asan" not in os.environ.get("LD_PRELOAD", ""):  # ASan bounds allocations itself
        # An input that sizes an allocation must fail fast, not eat the machine's memory.
        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY, WORKER_MEMORY))
    game = load(cfg)
    bases = base_states(game, seed)
    others = [b for c in configs([cfg["game"]]) if c != cfg
              for b in [base_states(load(c), seed, 1)[-1].serialize()]][:6]
    out = sys.stdout
    i = start
    while i < stop and time.time() < deadline:
        out.write(json.dumps({"case": i}) + "\n")
        out.flush()
        verdict, detail = run_case(game, bases, others, seed, i)
        out.write(json.dumps({"done": i, "verdict": verdict, "detail": detail[:400]}) + "\n")
        i += 1
    out.write(json.dumps({"end": i}) + "\n")
    out.flush()


def drive(cfg: dict[str, Any], seed: int, seconds: float, max_cases: int) -> dict[str, Any]:
    """Runs a worker process for one configuration, restarting it after a crash."""
    counts: Counter[str] = Counter()
    findings: list[dict[str, Any]] = []
    deadline = time.time() + seconds
    start = 0
    while start < max_cases and time.time() < deadline:
        cmd = [sys.executable, os.path.abspath(__file__), "--worker", json.dumps(cfg),
               "--seed", str(seed), "--start", str(start), "--stop", str(max_cases),
               "--deadline", repr(deadline)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        current, ended = None, None
        for line in proc.stdout.splitlines():
            rec = json.loads(line)
            if "case" in rec:
                current = rec["case"]
            elif "done" in rec:
                counts["tried"] += 1
                counts[rec["verdict"]] += 1
                if rec["verdict"] not in ("refused", "accepted"):
                    findings.append({"config": cfg, "case": rec["done"], "kind": rec["verdict"],
                                     "detail": rec["detail"]})
                current = None
            elif "end" in rec:
                ended = rec["end"]
        if ended is not None and proc.returncode == 0:
            break
        if current is None:  # died outside a case: setting up, not a finding of a case
            findings.append({"config": cfg, "case": None, "kind": "crash",
                             "detail": (proc.stderr or "")[-2000:]})
            counts["crash"] += 1
            break
        counts["tried"] += 1
        counts["crash"] += 1
        findings.append({"config": cfg, "case": current, "kind": "crash",
                         "detail": f"exit {proc.returncode}: " + (proc.stderr or "")[-2000:]})
        start = current + 1
    return {"config": cfg, "counts": dict(counts), "findings": findings}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", action="append", help="game id (repeatable; default every game)")
    ap.add_argument("--players", type=int, help="one player count (default every count)")
    ap.add_argument("--seconds", type=float, default=60.0, help="wall time for the whole run")
    ap.add_argument("--cases", type=int, default=10**9, help="at most this many cases per configuration")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=2, help="worker processes at once")
    ap.add_argument("--case", type=int, help="run one case in this process and print its verdict")
    ap.add_argument("--json", action="store_true", help="print the per-game counts as JSON")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--start", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--stop", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--deadline", type=float, default=0.0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(json.loads(args.worker), args.seed, args.start, args.stop, args.deadline)
        return 0
    cfgs = configs(args.game, args.players)
    if not cfgs:
        ap.error("no configuration matches --game/--players")
    if args.case is not None:
        for cfg in cfgs:
            game = load(cfg)
            others = [base_states(load(c), args.seed, 1)[-1].serialize()
                      for c in configs([cfg["game"]]) if c != cfg][:6]
            print(cfg, *run_case(game, base_states(game, args.seed), others, args.seed, args.case))
        return 0
    per_cfg = args.seconds * max(1, args.jobs) / len(cfgs)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:  # threads wait on processes
        results = list(pool.map(lambda c: drive(c, args.seed, per_cfg, args.cases), cfgs))
    by_game: dict[str, Counter[str]] = {}
    findings = []
    for r in results:
        by_game.setdefault(r["config"]["game"], Counter()).update(r["counts"])
        findings.extend(r["findings"])
    bad = 0
    cols = ("tried", "refused", "accepted", "crash", "wrong-type", "misbehaving")
    if args.json:
        print(json.dumps({"games": {g: {c: cnt[c] for c in cols} for g, cnt in by_game.items()},
                          "findings": findings}, indent=1))
    else:
        print(f"{'game':<20}" + "".join(f"{c:>12}" for c in cols))
        for g, cnt in sorted(by_game.items()):
            print(f"{g:<20}" + "".join(f"{cnt[c]:>12}" for c in cols))
        for f in findings[:40]:
            cfg = f["config"]
            repro = (f"python scripts/fuzz.py --game {cfg['game']} --players {cfg['players']} "
                     f"--seed {args.seed} --case {f['case']}")
            print(f"\n{f['kind']} in {cfg} case {f['case']}: {f['detail'][:1500]}\n  repro: {repro}")
    for cnt in by_game.values():
        bad += cnt["crash"] + cnt["wrong-type"] + cnt["misbehaving"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
