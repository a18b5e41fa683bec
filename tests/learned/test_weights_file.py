"""Weights files: a round trip, and every kind of wrong file raising a named romecore error."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from learned_helpers import random_weights

import romecore
from romecore.errors import EvaluatorError, SerializationError
from romecore.learned.mlp import LearnedEvaluator
from romecore.learned.weights import load_weights, save_weights


@pytest.fixture
def game():
    return romecore.load_game("great_city_of_rome", players=2)


@pytest.fixture
def saved(tmp_path, game):
    path = tmp_path / "w.npz"
    save_weights(random_weights(game), path)
    return path


def _rewrite(path, out, edit_meta=None, edit_arrays=None):
    with np.load(path) as z:
        arrays = {k: z[k] for k in z.files}
    meta = json.loads(str(arrays.pop("metadata")))
    if edit_meta:
        edit_meta(meta)
    if edit_arrays:
        edit_arrays(arrays)
    np.savez(out, metadata=np.array(json.dumps(meta)), **arrays)
    return out


def test_round_trip(saved, game):
    st = game.new_initial_state(seed=1)
    st.apply_random_chance() if st.is_chance_node() else None
    assert LearnedEvaluator(game, saved)(st) == LearnedEvaluator(game, random_weights(game))(st)
    w = load_weights(saved, game)
    assert w.hidden == [24, 16] and w.players == 2


def _raises(path, game, *words):
    with pytest.raises(SerializationError) as e:
        LearnedEvaluator(game, path)
    for word in (str(path), *words):
        assert word in str(e.value)


def test_another_game(saved):
    _raises(saved, romecore.load_game("rise_to_power", players=2), "great_city_of_rome", "rise_to_power")


def test_another_player_count(saved):
    _raises(saved, romecore.load_game("great_city_of_rome", players=3), "options")


def test_another_layout(tmp_path, saved, game):
    _raises(_rewrite(saved, tmp_path / "l.npz", lambda m: m.update(layout="0123456789abcdef")), game, "layout")
    _raises(_rewrite(saved, tmp_path / "s.npz", lambda m: m.update(tensor_size=1000)), game, "1000")


def test_another_format_or_activation(tmp_path, saved, game):
    _raises(_rewrite(saved, tmp_path / "f.npz", lambda m: m.update(format=99)), game, "format 99")
    _raises(_rewrite(saved, tmp_path / "a.npz", lambda m: m.update(activation="tanh")), game, "tanh")


def test_bad_arrays(tmp_path, saved, game):
    def shape(a):
        a["W1"] = a["W1"][:, :5]

    def nan(a):
        a["b0"][3] = np.nan

    def dtype(a):
        a["W0"] = a["W0"].astype(np.float64)

    def missing(a):
        del a["b2"]

    for name, edit, word in (("shape", shape, "has shape"), ("nan", nan, "not finite"), ("dtype", dtype, "float64"),
                             ("missing", missing, "arrays")):
        _raises(_rewrite(saved, tmp_path / f"{name}.npz", edit_arrays=edit), game, word)


def test_truncated_garbage_and_missing(tmp_path, saved, game):
    blob = saved.read_bytes()
    for i, cut in enumerate((0, 10, len(blob) // 2, len(blob) - 5)):
        p = tmp_path / f"t{i}.npz"
        p.write_bytes(blob[:cut])
        _raises(p, game)
    p = tmp_path / "g.npz"
    p.write_bytes(bytes(range(256)) * 40)
    _raises(p, game, "not a readable")
    _raises(tmp_path / "absent.npz", game, "cannot be read")
    p = tmp_path / "nometa.npz"
    np.savez(p, W0=np.zeros((2, 2), np.float32))
    _raises(p, game, "no metadata")
    p = tmp_path / "pickle.npz"
    with zipfile.ZipFile(p, "w") as z:
        z.writestr("metadata.npy", b"\x93NUMPY garbage")
    _raises(p, game)


def test_weights_object_of_another_game(game):
    other = romecore.load_game("city_of_marble", players=2)
    with pytest.raises(EvaluatorError):
        LearnedEvaluator(game, random_weights(other))
    with pytest.raises(romecore.RomecoreError):
        LearnedEvaluator(game, 42)


def test_residual_round_trip_and_its_errors(tmp_path, game):
    w = random_weights(game, base="heuristic", base_scale=0.5)
    path = tmp_path / "r.npz"
    save_weights(w, path)
    back = load_weights(path, game)
    assert back.base == "heuristic" and back.base_scale == 0.5
    ev = LearnedEvaluator(game, path)
    assert ev.base is not None and ev.base.name == "heuristic" and "residual over heuristic" in repr(ev)
    st = game.new_initial_state(seed=4)
    st.resolve_chance()
    assert ev(st) == LearnedEvaluator(game, w)(st)

    def drop_scale(a):
        del a["base_scale"]

    def nan_scale(a):
        a["base_scale"] = np.array([np.nan], np.float32)

    def wide_scale(a):
        a["base_scale"] = np.zeros(2, np.float32)

    _raises(_rewrite(path, tmp_path / "noscale.npz", edit_arrays=drop_scale), game, "no base_scale")
    _raises(_rewrite(path, tmp_path / "nan.npz", edit_arrays=nan_scale), game, "not finite")
    _raises(_rewrite(path, tmp_path / "wide.npz", edit_arrays=wide_scale), game, "base_scale has shape")
    _raises(_rewrite(path, tmp_path / "unknown.npz", lambda m: m.update(base="oracle")), game, "'oracle'")
    _raises(_rewrite(path, tmp_path / "learned.npz", lambda m: m.update(base="learned")), game, "'learned'")
    _raises(_rewrite(path, tmp_path / "f1.npz", lambda m: m.update(format=1)), game, "format 2")
    _raises(_rewrite(path, tmp_path / "num.npz", lambda m: m.update(base=3)), game, "base 3")
    # a plain net's file with a stray scale is refused by its array list
    _raises(_rewrite(path, tmp_path / "stray.npz", lambda m: m.update(base=None)), game, "arrays")


def test_unwritable_path(tmp_path, game):
    (tmp_path / "file").write_text("")
    with pytest.raises(SerializationError, match="cannot be written"):
        save_weights(random_weights(game), tmp_path / "file" / "w.npz")


def test_policy_head_round_trip_and_its_errors(tmp_path, game):
    """A policy head survives the file and judges as before; a head of the wrong shape, in
    a file or in memory, is refused with the mismatch named."""
    w = random_weights(game, policy=True)
    path = tmp_path / "p.npz"
    save_weights(w, path)
    st = game.new_initial_state(seed=2)
    while st.is_chance_node():
        st.apply_random_chance()
    assert LearnedEvaluator(game, path).policy(st) == LearnedEvaluator(game, w).policy(st)
    narrow = _rewrite(path, tmp_path / "n.npz", edit_arrays=lambda a: a.update(PW=a["PW"][:, :-1]))
    _raises(narrow, game, "PW", "shape")
    headless = _rewrite(path, tmp_path / "h.npz", edit_arrays=lambda a: a.pop("Pb"))
    _raises(headless, game, "arrays", "Pb")
    w.policy = (w.policy[0][:, :-1], w.policy[1])
    with pytest.raises(EvaluatorError, match="policy head"):
        LearnedEvaluator(game, w)
    w.policy = (w.policy[0],)
    with pytest.raises(EvaluatorError, match="pair"):
        LearnedEvaluator(game, w)
