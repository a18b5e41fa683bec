"""Self-play shards (reload, determinism, resume) and training into a loadable weights file,
through the library and through the CLI commands."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import romecore
from romecore.errors import UsageError
from romecore.learned.mlp import LearnedEvaluator
from romecore.learned.selfplay import load_shards, read_manifest, selfplay
from romecore.match import play_game

AGENT = "ismcts:simulations=20"


@pytest.fixture(scope="module")
def game():
    return romecore.load_game("rise_to_power", players=2)


def _run(game, out, games=4, **kw):
    return selfplay(game, out, agents=[AGENT], games=games, shard_games=2, seed=5, sample=0.3, **kw)


def test_shards_reload_and_match_the_games(tmp_path, game):
    _run(game, tmp_path / "a")
    meta, a = load_shards(tmp_path / "a")
    rows = len(a["x"])
    assert rows > 0 and a["x"].shape == (rows, game.observation_tensor_size()) and a["x"].dtype == np.float32
    assert meta["game"] == "rise_to_power" and set(np.unique(a["game"])) <= {0, 1, 2, 3}
    assert len(a["policy_offsets"]) == rows + 1 and a["policy_offsets"][-1] == len(a["policy_actions"])
    # every position is kept from each seat's view; the mover's row carries the visits
    assert (np.bincount(a["viewer"]) == rows // 2).all()
    has_policy = np.diff(a["policy_offsets"]) > 0
    assert has_policy.any() and (a["viewer"][has_policy] == a["mover"][has_policy]).all()
    # the oracle: game 0 replayed here from the same seed, agents and seats
    from romecore.tournament import derive_seed

    gseed = derive_seed(5, 0) & 0x7FFFFFFFFFFFFFFF
    bots = [romecore.make_agent(AGENT, game=game, seed=(gseed + s) & 0x7FFFFFFF) for s in range(2)]
    seen, q = {}, {}

    def look(st, p, a):
        seen.setdefault(st.move_number(), st.clone())
        root = bots[p].stats.get("root")  # no search when one move is legal
        top = max(root, key=lambda r: r[1]) if root else (0, 0, 0.0)  # the most visited root move
        q[st.move_number()] = top[2] / top[1] if top[1] else np.nan

    rec = play_game(game, bots, gseed, on_step=look)
    mine = a["game"] == 0
    assert mine.any()
    np.testing.assert_array_equal(a["returns"][mine], np.tile(rec.returns, (mine.sum(), 1)))
    heuristic = romecore.make_evaluator(game, "heuristic")
    assert meta["base"] == "heuristic" and a["base"].shape == (rows, 2)
    assert np.isfinite(a["search_value"][mine][:10]).any()
    for r in np.nonzero(mine)[0][:10]:
        st = seen[int(a["move"][r])]
        np.testing.assert_array_equal(a["x"][r], st.observation_tensor(int(a["viewer"][r])))
        assert st.current_player() == a["mover"][r]
        np.testing.assert_allclose(a["base"][r], heuristic(st), rtol=1e-6)  # absolute seats, the true state
        assert a["search_value"][r] == pytest.approx(q[int(a["move"][r])], rel=1e-6, nan_ok=True)


def test_deterministic_by_seed_and_resumes(tmp_path, game):
    _run(game, tmp_path / "a")
    _run(game, tmp_path / "b")
    for i in range(2):
        name = f"shard-{i:05d}.npz"
        with np.load(tmp_path / "a" / name) as x, np.load(tmp_path / "b" / name) as y:
            for k in x.files:
                np.testing.assert_array_equal(x[k], y[k])
    # interrupted: a shard lost, another cut short; the run again plays only those
    full = (tmp_path / "a" / "shard-00001.npz").read_bytes()
    (tmp_path / "b" / "shard-00001.npz").write_bytes(full[: len(full) // 3])
    kept = (tmp_path / "b" / "shard-00000.npz").stat().st_mtime_ns
    done = []
    _run(game, tmp_path / "b", progress=lambda d, t: done.append(d))
    assert done[0] == 2 and done[-1] == 4
    assert (tmp_path / "b" / "shard-00000.npz").stat().st_mtime_ns == kept
    _, a = load_shards(tmp_path / "a")
    _, b = load_shards(tmp_path / "b")
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])
    with pytest.raises(UsageError):  # another run's directory
        selfplay(game, tmp_path / "b", agents=["random"], games=4, shard_games=2, seed=5, sample=0.3)


def test_train_one_epoch_writes_loadable_weights(tmp_path, game):
    pytest.importorskip("torch")
    from romecore.learned.train import train

    _run(game, tmp_path / "d")
    res = train(tmp_path / "d", tmp_path / "w.npz", hidden=(16,), epochs=1, val_fraction=0.25, policy=True)
    assert res.curve is not None and res.curve.exists() and res.rows > 0 and res.val_rows > 0
    ev = LearnedEvaluator(game, tmp_path / "w.npz")
    st = game.new_initial_state(seed=2)
    while st.is_chance_node():
        st.apply_random_chance()
    v = ev(st)
    assert len(v) == 2 and abs(sum(v) - 1) < 1e-9
    assert ev.weights.policy is not None and ev.weights.policy[0].shape == (16, game.num_distinct_actions())
    # the head's part of the objective is reported, and it is a part: above 0, below the whole
    assert len(res.val_policy_loss) == 1 and 0 < res.val_policy_loss[0] < res.val_loss[0]
    assert ev.weights.training["val_policy_loss"] == res.val_policy_loss[0]
    assert ev.has_policy and abs(sum(ev.policy(st).values()) - 1) < 1e-9


def test_residual_training_starts_at_its_base(tmp_path, game):
    """A residual net names its base, and the base's validation loss is the cross-entropy of
    the recorded base values against the held-out games' returns, mixed a quarter with the
    binary cross-entropy of the mover's value against its search's (recomputed here)."""
    pytest.importorskip("torch")
    from romecore.learned.train import train

    _run(game, tmp_path / "d", games=6)
    res = train(tmp_path / "d", tmp_path / "w.npz", hidden=(8,), epochs=1, val_fraction=0.5, residual=True, seed=3,
                search_weight=0.25)
    ev = LearnedEvaluator(game, tmp_path / "w.npz")
    assert ev.weights.base == "heuristic" and ev.weights.training["base_val_loss"] == res.base_val_loss
    _, a = load_shards(tmp_path / "d")
    val_games = np.random.default_rng(3).choice(np.unique(a["game"]), size=3, replace=False)
    rows = np.isin(a["game"], val_games)
    ce = []
    for r in np.nonzero(rows)[0]:
        v, z, b = int(a["viewer"][r]), a["returns"][r], a["base"][r] / a["base"][r].sum()
        loss = -sum(z[(v + j) % 2] * np.log(b[(v + j) % 2]) for j in range(2))
        q, m = a["search_value"][r], int(a["mover"][r])
        ce.append(loss if np.isnan(q) else 0.75 * loss - 0.25 * (q * np.log(b[m]) + (1 - q) * np.log(1 - b[m])))
    assert np.isfinite(a["search_value"][rows]).mean() > 0.5
    assert res.base_val_loss == pytest.approx(float(np.mean(ce)), rel=1e-4)
    # zero epochs of learning would leave the base's loss: one epoch moved the net off it a little
    assert res.val_loss[0] == pytest.approx(res.base_val_loss, abs=0.05)


def test_residual_training_needs_base_values(tmp_path, game):
    """Shards of an older run (no base array) train a plain net but not a residual one."""
    pytest.importorskip("torch")
    from romecore.learned.train import train

    _run(game, tmp_path / "d")
    for path in (tmp_path / "d").glob("shard-*.npz"):
        with np.load(path) as z:
            kept = {k: z[k] for k in z.files if k != "base"}
        np.savez(path, **kept)
    with pytest.raises(UsageError, match="base"):
        train(tmp_path / "d", tmp_path / "w.npz", hidden=(8,), epochs=1, residual=True)
    assert train(tmp_path / "d", tmp_path / "p.npz", hidden=(8,), epochs=1).rows > 0


def test_cli_selfplay_then_train(tmp_path):
    pytest.importorskip("torch")
    from romecore.cli.selfplay import command as selfplay_cmd
    from romecore.cli.train import command as train_cmd

    runner = CliRunner()
    r = runner.invoke(selfplay_cmd, ["great_city_of_rome", "-p", "2", "-g", "2", "-O", str(tmp_path / "d"),
                                     "-a", "greedy", "--sample", "0.2", "--no-progress"])
    assert r.exit_code == 0, r.output
    r = runner.invoke(train_cmd, ["great_city_of_rome", str(tmp_path / "d"), "-O", str(tmp_path / "w.npz"),
                                  "--epochs", "1", "--hidden", "8", "--val-fraction", "0.5", "--residual"])
    assert r.exit_code == 0, r.output
    assert "epoch 1/1" in r.output and "'heuristic' alone" in r.output and (tmp_path / "w.npz").exists()
    r = runner.invoke(train_cmd, ["great_city_of_rome", str(tmp_path / "d"), "-O", str(tmp_path / "new" / "w.npz"),
                                  "--epochs", "1", "--hidden", "8"])  # the folder is made
    assert r.exit_code == 0 and (tmp_path / "new" / "w.npz").exists(), r.output
    (tmp_path / "file").write_text("")
    r = runner.invoke(train_cmd, ["great_city_of_rome", str(tmp_path / "d"), "-O", str(tmp_path / "file" / "w.npz")])
    assert r.exit_code != 0 and "cannot write" in r.output and "Traceback" not in r.output
    r = runner.invoke(train_cmd, ["rise_to_power", str(tmp_path / "d"), "-O", str(tmp_path / "x.npz")])
    assert r.exit_code != 0 and "not rise_to_power" in r.output
    r = runner.invoke(selfplay_cmd, ["great_city_of_rome", "-O", str(tmp_path / "e"), "-a", "nonsense:x=1"])
    assert r.exit_code != 0 and "Traceback" not in r.output
    r = runner.invoke(selfplay_cmd, ["great_city_of_rome", "-p", "2", "-O", str(tmp_path / "e"), "-a", "greedy",
                                     "--base", "learned"])  # a net cannot be its own base
    assert r.exit_code != 0 and "not a native hand-written one" in r.output and "Traceback" not in r.output


def test_runs_of_two_bases_load_without_base_values(tmp_path):
    """Directories recorded with different base evaluators load together, but without the
    base values (they would mix two judges); the other arrays are all kept."""
    com = romecore.load_game("city_of_marble", players=2)
    for name in ("heuristic", "fitted"):
        selfplay(com, tmp_path / name, agents=["random"], games=1, seed=1, sample=0.2, base=name)
    meta, a = load_shards([tmp_path / "heuristic", tmp_path / "fitted"])
    assert "base" not in a and "search_value" in a and len(a["search_value"]) == len(a["x"])
    assert np.isnan(a["search_value"]).all()  # random has no tree
    _, one = load_shards(tmp_path / "fitted")
    assert read_manifest(tmp_path / "fitted")["base"] == "fitted" and "base" in one


def test_directories_of_several_agents_name_them_all(tmp_path):
    """Runs of different agents load together; the manifest then names every agent once,
    in order, so a net trained on both records what it learned from."""
    com = romecore.load_game("city_of_marble", players=2)
    selfplay(com, tmp_path / "r", agents=["random"], games=1, seed=1, sample=0.2)
    selfplay(com, tmp_path / "g", agents=["greedy", "random"], games=1, seed=2, sample=0.2)
    meta, _ = load_shards([tmp_path / "r", tmp_path / "g"])
    assert meta["agents"] == ["random", "greedy"]
    assert load_shards(tmp_path / "g")[0]["agents"] == ["greedy", "random"]
