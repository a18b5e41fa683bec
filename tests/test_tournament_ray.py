"""The Ray backend against the local pool: a private local Ray instance plays the same
tournament and must produce the same games and the same table for the same master seed.
One Ray start (they take seconds) covers it all, through the CLI with ``--json``.
Skipped when Ray is not installed (``pip install 'romecore[ray]'``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings

import pytest

from romecore import records, tournament

ray = pytest.importorskip("ray")
warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
warnings.filterwarnings("ignore", category=DeprecationWarning)
GAME = "great_city_of_rome"
PLUGIN = "test_tournament_faults"  # the faulty agent, a plugin module beside this one


def _games(path):
    out = {}
    for rec in records.read(path):
        d = rec.to_dict()
        d.pop("think_seconds")
        d["meta"].pop("attempts")
        out[d["meta"]["index"]] = d
    return out


def _table(rows):
    return [{k: v for k, v in row.items() if k != "seconds_per_move"} for row in rows]


def _roster(flag):
    # a worker that dies once (its game is replayed), an agent that hangs at its 40th move
    # every game (a forfeit), and two random agents; 3 seats, so the four rotate
    return [f"faulty:mode=exit,flag={flag},at=20", "faulty:mode=hang,always=true,at=40",
            "random", "random"]


def test_ray_and_pool_give_identical_results_and_json_stays_clean(tmp_path):
    """A Ray worker that dies makes the raylet print "(raylet) A worker died ..." on the
    driver: with --json that goes to stderr, leaving stdout the JSON alone.  The games,
    the forfeits and the table are the pool's."""
    kw = dict(games=8, players=3, seed=77, move_time_limit=0.5)
    flag = tmp_path / "ray-died-once"
    args = [sys.executable, "-W", "ignore", "-c", "from romecore.cli import main; main()",
            "tournament", GAME, "-p", "3", "-g", "8", "--seed", "77", "--backend", "ray",
            "-w", "2", "--plugin", PLUGIN, "--move-time-limit", "0.5",
            "--out", str(tmp_path / "ray.jsonl"), "--json", "--no-progress"]
    for spec in _roster(flag):
        args += ["-a", spec]
    here = os.path.dirname(__file__)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([here, os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run(args, capture_output=True, text=True, timeout=240, env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    assert flag.exists(), "the worker never died"
    on_ray = json.loads(res.stdout)  # nothing but the JSON
    assert "(raylet)" in res.stderr and "(raylet)" not in res.stdout
    assert on_ray["backend"] == "ray" and on_ray["games_played"] == 8 and not on_ray["failures"]
    assert any("replaying it from its seed" in e for e in on_ray["events"])
    assert on_ray["forfeits"] and all("move time limit" in f["reason"] for f in on_ray["forfeits"])

    sys.path.insert(0, here)
    try:
        pooled = tournament.run(GAME, _roster(tmp_path / "pool-died-once"), workers=2,
                                plugins=[PLUGIN], out=str(tmp_path / "pool.jsonl"), **kw)
    finally:
        sys.path.remove(here)
    ray_games, pool_games = _games(tmp_path / "ray.jsonl"), _games(tmp_path / "pool.jsonl")
    for d in (*ray_games.values(), *pool_games.values()):
        for a in d["tags"]["agents"]:  # the flags differ
            a["spec"], a["label"] = (a[k].split(",flag=")[0] for k in ("spec", "label"))
    assert ray_games == pool_games
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("agent", "spec")} for r in rows]
    assert strip(_table(on_ray["rows"])) == strip(_table(pooled.table))
