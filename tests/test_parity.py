"""bench/parity.py: paired seat-rotated tasks, the summary table, and one real game
against OpenSpiel's ISMCTSBot at a tiny budget."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("open_spiel.python.algorithms.ismcts")

ROOT = Path(__file__).resolve().parents[1]


def _parity():
    spec = importlib.util.spec_from_file_location("parity", ROOT / "bench" / "parity.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


parity = _parity()


def test_tasks_pair_every_seed_with_both_seats():
    ts = list(parity.tasks(["rise_to_power", "glory_to_rome"], [300, 100], "ismcts:simulations={sims}",
                           2.0, 3, 5))
    assert len(ts) == 2 * 2 * 2 * 2  # 3 games round up to 2 pairs, 2 games, 2 budgets
    assert [t["sims"] for t in ts[:8]] == [100] * 8  # the cheap budget first
    assert {(t["game"], t["seed"], t["seat"]) for t in ts if t["sims"] == 100} == {
        (g, s, seat) for g in ("rise_to_power", "glory_to_rome") for s in (5, 6) for seat in (0, 1)}
    assert ts[0]["spec"] == "ismcts:simulations=100"


def _line(result, score):
    return {"game": "g", "sims": 100, "spec": "x", "os_c": 2.0, "result": result, "score": score,
            "cpu_romecore": 1.0, "cpu_openspiel": 2.0}


def test_summary_counts_and_wilson_interval():
    # issue 56's data point: 18 of 48 games, Wilson 95% 0.25-0.52
    lines = [_line("win", 1.0)] * 18 + [_line("loss", 0.0)] * 30
    (row,) = parity.summarize(lines)
    assert (row["games"], row["win"], row["draw"], row["loss"]) == (48, 18, 0, 30)
    assert row["rate"] == pytest.approx(0.375)
    assert (round(row["lo"], 2), round(row["hi"], 2)) == (0.25, 0.52)
    assert row["cpu_openspiel"] == pytest.approx(96.0)
    draws = parity.summarize([_line("draw", 0.5), _line("win", 1.0)])[0]
    assert (draws["draw"], draws["rate"]) == (1, 0.75)


def test_one_game_against_openspiel_and_resume(tmp_path):
    out = tmp_path / "p.jsonl"
    args = ["--game", "rise_to_power", "--sims", "2", "--games", "2", "--out", str(out)]
    assert parity.main(args) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert sorted(d["seat"] for d in lines) == [0, 1] and {d["seed"] for d in lines} == {1}
    for d in lines:
        assert d["score"] == d["returns"][d["seat"]]
        assert abs(sum(d["returns"]) - 1.0) < 1e-9
        assert d["result"] == ("win" if d["score"] > 0.5 else "loss" if d["score"] < 0.5 else "draw")
        assert d["cpu_openspiel"] > 0 and sum(d["moves"]) > 10
    assert parity.main(args) == 0  # resumed: nothing left to play
    assert len(out.read_text().splitlines()) == 2
    again = parity.play_one({k: lines[0][k] for k in ("game", "sims", "spec", "os_c", "seed", "seat")})
    assert again["returns"] == lines[0]["returns"] and again["moves"] == lines[0]["moves"]  # seeded
