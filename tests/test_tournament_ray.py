"""The Ray backend against the local pool: a private local Ray instance plays the same
tournament and must produce the same games and the same table for the same master seed.
Skipped when Ray is not installed (``pip install 'romecore[ray]'``)."""

from __future__ import annotations

import json
import warnings

import pytest

from romecore import records, tournament

ray = pytest.importorskip("ray")
warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
warnings.filterwarnings("ignore", category=DeprecationWarning)
GAME = "great_city_of_rome"


def _games(path):
    out = {}
    for rec in records.read(path):
        d = rec.to_dict()
        d.pop("think_seconds")
        d["meta"].pop("attempts")
        out[d["meta"]["index"]] = d
    return out


def _table(result):
    return [{k: v for k, v in row.items() if k != "seconds_per_move"} for row in result.table]


def test_ray_and_pool_give_identical_results(tmp_path):
    kw = dict(games=12, players=3, seed=77)
    agents = ["random", "random", "random"]
    pooled = tournament.run(GAME, agents, workers=2, out=str(tmp_path / "pool.jsonl"), **kw)
    on_ray = tournament.run(GAME, agents, backend="ray", workers=2, out=str(tmp_path / "ray.jsonl"),
                            ray_init={"num_cpus": 2, "object_store_memory": 80 * 1024 * 1024},
                            **kw)
    assert not ray.is_initialized()  # the private instance is shut down again
    assert on_ray.backend == "ray" and on_ray.games_played == 12 and not on_ray.failures
    assert _games(tmp_path / "ray.jsonl") == _games(tmp_path / "pool.jsonl")
    assert _table(on_ray) == _table(pooled)


def test_cli_json_on_ray_keeps_stdout_clean(tmp_path):
    """A Ray worker that dies makes the raylet print "(raylet) A worker died ..." on the
    driver: with --json that must go to stderr, leaving stdout the JSON alone.  The
    replayed game and an agent hanging past the move limit (a forfeit) come out too."""
    import os
    import subprocess
    import sys

    flag = tmp_path / "died-once"
    args = [sys.executable, "-W", "ignore", "-c", "from romecore.cli import main; main()",
            "tournament", GAME, "-p", "2", "-a", f"faulty:mode=exit,flag={flag},at=20",
            "-a", "faulty:mode=hang,always=true,at=40", "-g", "2", "--backend", "ray",
            "-w", "2", "--plugin", "test_tournament_faults", "--move-time-limit", "0.5",
            "--out", "-", "--json", "--no-progress"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([os.path.dirname(__file__),
                                                        os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run(args, capture_output=True, text=True, timeout=240, env=env)
    assert res.returncode == 0, res.stderr[-2000:]
    assert flag.exists(), "the worker never died"
    data = json.loads(res.stdout)  # nothing but the JSON
    assert "(raylet)" in res.stderr and "(raylet)" not in res.stdout
    assert data["games_played"] == 2 and not data["failures"]
    assert any("replaying it from its seed" in e for e in data["events"])
    assert len(data["forfeits"]) == 2 and all("move time limit" in f["reason"] for f in data["forfeits"])
