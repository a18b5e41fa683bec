"""Game review (romecore.analysis.review and ``romecore analyse``): the review JSON against its
schema, labels and summary recomputed from the rule, records of format 1 and 2, the local
pool, resuming, the graph, and bad input refused with nothing written."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

import romecore
from romecore import analysis, records
from romecore.cli import main
from romecore.match import play_game
from romecore.records import MoveTexts

DATA = Path(__file__).parent / "data"
SIMS = "300"  # iterations per decision: enough to tell moves apart, quick in a test
THRESHOLDS = {"inaccuracy": 0.05, "mistake": 0.10, "blunder": 0.15}  # the documented ones


def run(*args, **kw):
    return CliRunner().invoke(main, list(args), catch_exceptions=False, **kw)


def _played(game_id: str, seed: int, spec: str = "greedy") -> records.GameRecord:
    game = romecore.load_game(game_id, players=2)
    texts = MoveTexts()
    rec = play_game(game, [romecore.make_agent(spec, game=game, seed=seed + i) for i in range(2)], seed,
                    on_step=texts)
    rec.texts = texts.texts
    return rec


@pytest.fixture(scope="module")
def rtp(tmp_path_factory) -> Path:
    """A format 2 record of a 2-player Rise to Power game between greedy agents."""
    path = tmp_path_factory.mktemp("rec") / "rtp.jsonl"
    records.write(path, [_played("rise_to_power", 4)])
    return path


def _choices(rec: records.GameRecord) -> list[tuple[int, int, int]]:
    """(ply, player, action) of every decision with a choice, by replaying the record here."""
    game = romecore.load_game(rec.game_id, **rec.options)
    state = game.new_initial_state(seed=rec.seed)
    out = []
    for i, (p, a) in enumerate(zip(rec.players, rec.actions)):
        if p >= 0 and len(state.legal_actions()) > 1:
            out.append((i + 1, p, a))
        state.apply_action(a)
    return out


def _expected_label(d: dict, z: float) -> str:
    """The documented rule, applied to the JSON's own numbers."""
    if d["move"] == d["best"]:
        return "best"
    loss = d["value_best"] - d["value_played"]
    label = "good"
    for name in ("inaccuracy", "mistake", "blunder"):
        if loss >= THRESHOLDS[name] - 1e-9:
            label = name
    if label in ("mistake", "blunder"):
        apart = (d["stderr_best"] is not None and d["stderr_played"] is not None
                 and d["value_best"] - z * d["stderr_best"] > d["value_played"] + z * d["stderr_played"])
        if not apart:
            label = "inaccuracy"
    return label


def test_review_json_follows_its_schema_and_the_rule(rtp, tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    out = tmp_path / "review.json"
    res = run("analyse", str(rtp), "--simulations", SIMS, "--backend", "inline", "-o", str(out))
    assert res.exit_code == 0, res.output
    review = json.loads(out.read_text())
    jsonschema.validate(review, analysis.review_schema())
    rec = records.read(rtp)[0]
    assert [(d["ply"], d["player"], d["move"]) for d in review["decisions"]] == _choices(rec)
    assert review["thresholds"] == THRESHOLDS and review["z"] == pytest.approx(1.96)
    for d in review["decisions"]:
        assert d["move_text"] == rec.texts[d["ply"] - 1]
        rule = _expected_label(d, review["z"])
        if not d["checked"]:  # one analysis: its numbers give the label, never a mistake or blunder unconfirmed
            assert d["label"] == rule and rule not in ("mistake", "blunder"), d
        else:  # the first analysis said mistake or blunder; the milder of that and these numbers' label
            assert d["label"] == rule or (rule, d["label"]) == ("blunder", "mistake"), d
        assert d["loss"] == pytest.approx(d["value_best"] - d["value_played"])
        assert d["line"][0] == d["best"]
    for s in review["summary"]:
        mine = [d for d in review["decisions"] if d["player"] == s["player"]]
        assert s["decisions"] == len(mine)
        assert s["counts"] == {k: sum(d["label"] == k for d in mine) for k in analysis.LABELS}
        acc = sum(100 * math.exp(-max(0.0, d["loss"]) / 0.1) for d in mine) / len(mine)
        assert s["accuracy"] == pytest.approx(acc, abs=0.05)
    assert "player 0 (greedy): accuracy" in res.output  # the terminal's summary


def test_records_of_format_1_and_2_review_alike(tmp_path):
    v1 = records.read(DATA / "records-v1.jsonl")[1]  # rise_to_power, 3 players, a shared win
    assert v1.date is None and not v1.texts  # format 1: ids only
    v2_path = tmp_path / "v2.jsonl"
    records.write(v2_path, [v1])
    assert json.loads(v2_path.read_text())["format"] == 2
    reviews = []
    for path, index in ((DATA / "records-v1.jsonl", 1), (v2_path, 0)):
        out = tmp_path / f"r{index}.json"
        res = run("analyse", str(path), "-n", str(index), "--simulations", SIMS, "--backend", "inline",
                  "-o", str(out))
        assert res.exit_code == 0, res.output
        reviews.append(json.loads(out.read_text()))
    assert reviews[0]["decisions"] == reviews[1]["decisions"] and reviews[0]["decisions"]
    assert {d["player"] for d in reviews[0]["decisions"]} <= {0, 1, 2}
    assert len(reviews[0]["summary"]) == 3
    assert [(d["ply"], d["player"], d["move"]) for d in reviews[0]["decisions"]] == _choices(v1)


def test_the_local_pool_reviews_as_this_process_does(rtp):
    rec = records.read(rtp)[0]
    inline = analysis.review(rec, simulations=200, backend="inline")
    pooled = analysis.review(rec, simulations=200, backend="local", workers=2)
    assert [d for d in pooled.decisions] == [d for d in inline.decisions]


def test_an_interrupted_review_resumes_from_its_partial_file(rtp, tmp_path):
    rec = records.read(rtp)[0]
    partial = str(tmp_path / "r.json.partial")

    def stop_after_5(done, total):
        if done >= 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        analysis.review(rec, simulations=200, backend="inline", partial=partial, progress=stop_after_5)
    lines = Path(partial).read_text().splitlines()
    assert len(lines) == 1 + 5 and json.loads(lines[0])["kind"] == "romecore.review.partial"
    Path(partial).write_text("\n".join(lines) + "\n{\"i\": 5, \"analy")  # a write cut short
    seen = []
    resumed = analysis.review(rec, simulations=200, backend="inline", partial=partial,
                              progress=lambda done, total: seen.append(done))
    assert seen[0] == 5 and seen[-1] == len(resumed.decisions)
    assert not Path(partial).exists()
    fresh = analysis.review(rec, simulations=200, backend="inline")
    assert resumed.decisions == fresh.decisions
    # another judge's partial file is not resumed
    Path(partial).write_text("\n".join(lines) + "\n")
    seen.clear()
    analysis.review(rec, simulations=100, backend="inline", partial=partial,
                    progress=lambda done, total: seen.append(done))
    assert seen[0] == 0


def test_the_graph_marks_every_flagged_move(tmp_path):
    rec_path = tmp_path / "g.jsonl"
    records.write(rec_path, [_played("city_of_marble", 2, "random")])  # random play: moves to flag
    out, svg = tmp_path / "r.json", tmp_path / "g.svg"
    res = run("analyse", str(rec_path), "--simulations", "400", "--backend", "inline", "-o", str(out),
              "--plot", str(svg))
    assert res.exit_code == 0, res.output
    review = json.loads(out.read_text())
    flagged = [d for d in review["decisions"] if d["label"] in ("inaccuracy", "mistake", "blunder")]
    assert flagged  # a random player errs
    root = ET.fromstring(svg.read_text())
    ns = "{http://www.w3.org/2000/svg}"
    marks = [g for g in root.iter(ns + "g") if g.get("class") == "mark"]
    assert sorted(int(g.get("data-ply")) for g in marks) == sorted(d["ply"] for d in flagged)
    assert {g.get("data-label") for g in marks} == {d["label"] for d in flagged}
    lines = [g for g in root.iter(ns + "g") if g.get("class") == "player"]
    assert {g.get("data-player") for g in lines} == {"0", "1"}
    for s in review["summary"]:
        assert f"accuracy {s['accuracy']:.0f}%" in svg.read_text()
    pytest.importorskip("cairosvg")
    png = tmp_path / "g.png"
    res = run("analyse", str(rec_path), "--simulations", "100", "--backend", "inline", "--plot", str(png))
    assert res.exit_code == 0 and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_dash_writes_the_review_on_standard_output(rtp, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    res = run("analyse", str(rtp), "--simulations", "100", "--backend", "inline", "-o", "-")
    assert res.exit_code == 0 and json.loads(res.stdout)["kind"] == "romecore.review"
    assert list(tmp_path.iterdir()) == []
    res = run("analyse", "-", "--simulations", "100", "--backend", "inline", "-o", "-", input=rtp.read_bytes())
    assert res.exit_code == 0 and json.loads(res.stdout)["source"]["file"] is None


# -- bad input: a clear error naming the file and the move, nothing written ----------------------
def _refused(tmp_path: Path, rec_path: Path, *words: str) -> str:
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    res = run("analyse", str(rec_path), "--simulations", "50", "--backend", "inline",
              "-o", str(out_dir / "r.json"), "--plot", str(out_dir / "g.svg"))
    assert res.exit_code == 1, res.output
    assert res.output.startswith(f"Error: {rec_path}"), res.output
    for w in words:
        assert w in res.output, res.output
    assert list(out_dir.iterdir()) == []
    return res.output


def test_a_record_of_another_game_is_refused(rtp, tmp_path):
    d = json.loads(rtp.read_text())
    d["tags"]["game"], d["tags"]["options"] = "city_of_marble", {"players": 2}
    bad = tmp_path / "other.jsonl"
    bad.write_text(json.dumps(d) + "\n")
    _refused(tmp_path, bad, "move 1:")  # Rise to Power's first move is no City of Marble move
    d["tags"]["options"] = json.loads(rtp.read_text())["tags"]["options"]
    bad.write_text(json.dumps(d) + "\n")
    (tmp_path / "out").rmdir()
    _refused(tmp_path, bad, "cannot be loaded", "intrigue")  # its options are no City of Marble options
    d["tags"]["game"] = "no_such_game"
    bad.write_text(json.dumps(d) + "\n")
    (tmp_path / "out").rmdir()
    _refused(tmp_path, bad, "no_such_game")


def test_a_corrupt_record_is_refused(rtp, tmp_path):
    bad = tmp_path / "corrupt.jsonl"
    bad.write_bytes(rtp.read_bytes()[:200])  # cut mid-record
    _refused(tmp_path, bad)
    bad.write_bytes(b"\x93\x01\x02")  # not a record at all
    (tmp_path / "out").rmdir()
    _refused(tmp_path, bad)


def test_a_record_with_an_illegal_move_is_refused(rtp, tmp_path):
    d = json.loads(rtp.read_text())
    rec = records.read(rtp)[0]
    game = romecore.load_game(rec.game_id, **rec.options)
    state = game.new_initial_state(seed=rec.seed)
    for i, (p, a) in enumerate(zip(rec.players, rec.actions)):
        if i >= 20 and p >= 0:
            illegal = next(x for x in range(game.num_distinct_actions()) if not state.is_legal(x))
            d["moves"][i]["id"] = illegal
            break
        state.apply_action(a)
    bad = tmp_path / "illegal.jsonl"
    bad.write_text(json.dumps(d) + "\n")
    _refused(tmp_path, bad, f"move {i + 1}")


def test_flags_that_contradict_each_other_are_refused(rtp):
    res = run("analyse", str(rtp), "--level", "Strong", "--agent", "ismcts")
    assert res.exit_code == 2 and "not both" in res.output
    res = run("analyse", str(rtp), "--time", "1", "--simulations", "10")
    assert res.exit_code == 2 and "not both" in res.output
    res = run("analyse", str(rtp), "--plot", "g.pdf")
    assert res.exit_code == 2 and ".svg or .png" in res.output
    res = run("analyse", str(rtp), "--agent", "random", "--backend", "inline")
    assert res.exit_code == 1 and "search agent" in res.output
    res = run("analyse", str(rtp), "-n", "3")
    assert res.exit_code == 1 and "there is no record 3" in res.output
    res = run("analyse", str(rtp), "-o", str(rtp.parent / "nowhere" / "r.json"))  # refused before any search
    assert res.exit_code == 1 and "no folder" in res.output


def test_ray_reviews_as_this_process_does():
    """One private local Ray instance (seconds to start); skipped without Ray."""
    pytest.importorskip("ray")
    rec = records.read(DATA / "records-v1.jsonl")[1]
    inline = analysis.review(rec, simulations=100, backend="inline")
    on_ray = analysis.review(rec, simulations=100, backend="ray", workers=2)
    assert on_ray.decisions == inline.decisions
    from romecore.tournament import ray_backend

    assert ray_backend._play_remote.__module__ == "romecore.tournament.ray_backend"  # put back
