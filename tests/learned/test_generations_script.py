"""``scripts/generations.py``: two tiny generations end to end (self-play with the best net,
a residual net trained by the shipped recipe, the gate, the best net kept or not), and a
rerun that resumes rather than replays a finished generation."""

from __future__ import annotations

import json
import os

import pytest

from scripts_loader import load_script


def test_two_generations_then_resume(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    import romecore
    from romecore.learned import ENV_DIR, SHIPPED_DIR
    from romecore.learned.weights import load_weights

    monkeypatch.setenv(ENV_DIR, str(tmp_path / "caller"))  # the script points it at each net, then restores it
    generations = load_script("generations")
    spec = "ismcts:simulations=10,evaluator=learned"
    argv = ["rise_to_power", "--dir", str(tmp_path), "--generations", "2", "--games", "2", "--gate-games", "2",
            "--agent", spec, "--gate-agent", spec, "--hidden", "8", "--epochs", "1", "--window", "2", "--seed", "3"]
    generations.main(argv)
    assert os.environ[ENV_DIR] == str(tmp_path / "caller")
    game = romecore.load_game("rise_to_power", players=2)
    name = "rise_to_power-2p.npz"
    best = (SHIPPED_DIR / name).read_bytes()
    for g in range(2):
        gen = tmp_path / f"gen-{g}"
        report = json.loads((gen / "gate.json").read_text())
        assert 0.0 <= report["score"] <= 1.0 and report["kept"] == (report["score"] > 0.55)
        net = load_weights(gen / name, game)
        assert net.base == "heuristic" and net.hidden == [8]  # residual, of the asked width
        assert net.training["search_weight"] == 0.5
        if report["kept"]:
            best = (gen / name).read_bytes()
    assert (tmp_path / "best" / name).read_bytes() == best
    # gen-1 trained on both generations' data
    assert load_weights(tmp_path / "gen-1" / name, game).training["rows"] > \
        load_weights(tmp_path / "gen-0" / name, game).training["rows"]
    stamps = [(tmp_path / f"gen-{g}" / "gate.json").stat().st_mtime_ns for g in range(2)]
    generations.main(argv)  # finished generations are kept, not played again
    assert [(tmp_path / f"gen-{g}" / "gate.json").stat().st_mtime_ns for g in range(2)] == stamps
