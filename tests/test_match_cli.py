"""``romecore match``: SPRT matches decide for a clearly stronger agent and against an
identical one, give the same answer on any backend, resume their results file, and refuse
bad input with a clear message."""

from __future__ import annotations

import json
import warnings

from click.testing import CliRunner

from romecore import records
from romecore.cli import main

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAME = "rise_to_power"  # the quickest game to play with search agents


def _match(*args: str, code: int = 0):
    result = CliRunner().invoke(main, ["match", *args], catch_exceptions=False)
    assert result.exit_code == code, result.output
    return result


def _json(*args: str) -> dict:
    return json.loads(_match(*args, "--json").stdout)


def test_a_clearly_stronger_agent_is_accepted_as_stronger():
    out = _match("ismcts:simulations=200", "random", GAME, "--sprt", "0,200", "--alpha", "0.1",
                 "--beta", "0.1", "--max-games", "40", "--backend", "inline", "-o", "-", "--every", "0")
    assert "H1 accepted" in out.stdout
    lines = out.stderr.splitlines()
    assert lines and all(len(line) <= 80 for line in lines), lines
    assert lines[-1].startswith("6 pairs")  # six won pairs cross ln(9) at 0.42 each
    assert all(len(line) <= 80 for line in out.stdout.splitlines()[2:])  # agent lines aside


def test_identical_agents_are_not_accepted_as_stronger():
    d = _json("random", "random", GAME, "--sprt", "0,200", "--max-games", "400", "--backend", "inline",
              "-o", "-")
    assert d["decision"] == "H0"
    assert d["llr"] <= d["lower"] and 2 * d["pairs"] < 400
    assert d["pentanomial"] is not None and sum(d["pentanomial"]) == d["pairs"]


def test_the_pool_decides_as_the_inline_loop(tmp_path):
    """Pairs count in index order, so two workers finishing out of order change nothing."""
    args = ["random", "random", GAME, "--sprt", "0,150", "--max-games", "200", "--seed", "4"]
    inline = _json(*args, "--backend", "inline", "-o", "-")
    pool = _json(*args, "--backend", "local", "-w", "2", "-o", str(tmp_path / "pool.jsonl"))
    keys = ("pairs", "counts", "llr", "decision", "elo")
    assert {k: pool[k] for k in keys} == {k: inline[k] for k in keys}


def test_an_interrupted_match_resumes_its_file(tmp_path):
    out = tmp_path / "m.jsonl"
    args = ["random", "random", GAME, "--sprt", "0,200", "--seed", "7", "--backend", "inline"]
    first = _json(*args, "--max-games", "10", "-o", str(out))
    assert first["decision"] is None and first["pairs"] == 5
    data = out.read_bytes()
    out.write_bytes(data[:len(data) - 40])  # the last game's line cut short, as by a kill
    resumed = _json(*args, "--max-games", "400", "-o", str(out), "--resume")
    fresh = _json(*args, "--max-games", "400", "-o", "-")
    keys = ("pairs", "counts", "llr", "decision")
    assert {k: resumed[k] for k in keys} == {k: fresh[k] for k in keys}
    assert resumed["games_this_run"] == fresh["games_this_run"] - 9  # game 9 is played again
    indices = [rec.meta["index"] for rec in records.read(str(out))]
    assert sorted(indices) == list(range(len(indices))) == list(range(2 * fresh["pairs"]))
    again = _json(*args, "--max-games", "400", "-o", str(out), "--resume")
    assert again["games_this_run"] == 0 and again["decision"] == fresh["decision"]
    fewer = _json(*args, "--max-games", "4", "-o", str(out), "--resume")  # the file holds more
    assert (fewer["pairs"], fewer["games_this_run"], fewer["decision"]) == (2, 0, None)


def test_bad_input_is_refused_clearly(tmp_path):
    assert "ELO0 must be below ELO1" in _match("random", "random", GAME, "--sprt", "5,0", code=2).output
    assert "ELO0,ELO1" in _match("random", "random", GAME, "--sprt", "five", code=2).output
    assert "--resume needs --out" in _match("random", "random", GAME, "--resume", code=2).output
    assert "nobody" in _match("nobody", "random", GAME, "-o", "-", code=1).output
    out = tmp_path / "m.jsonl"
    _match("random", "random", GAME, "--max-games", "2", "--backend", "inline", "-o", str(out))
    assert "already exists" in _match("random", "random", GAME, "--max-games", "2", "-o", str(out),
                                      code=1).output
    other = _match("greedy", "random", GAME, "--max-games", "2", "-o", str(out), "--resume", code=1)
    assert "another tournament" in other.output
