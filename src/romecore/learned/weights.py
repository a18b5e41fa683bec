"""The learned evaluator's weights file: one ``.npz`` a data scientist can open with numpy.

Arrays ``W0, b0, W1, b1, ...``: layer ``i`` computes ``x @ W{i} + b{i}`` (``W{i}`` has shape
(inputs, outputs), float32), ReLU between layers; the last layer is the value head, one
logit per seat relative to the viewer (viewer first, then p+1, p+2, ... mod n).  Optional
``PW, Pb``: a policy head over the game's distinct actions on the last hidden layer (its
softmax over the legal actions; the C evaluator's move judge, which tree searches' ``policy``
parameter uses for priors).  ``metadata``: a JSON string with
``format`` (:data:`FORMAT`), ``game``, ``options``, ``players``, ``tensor_size``,
``layout`` (:func:`layout_fingerprint`), ``hidden``, ``activation``, ``base`` and free
``training`` notes.  :func:`load_weights` checks every field against the game and raises
:class:`romecore.SerializationError` naming the file and the mismatch.

A *residual* net (format 2) names a native ``base`` evaluator of its game and holds one more
array, ``base_scale`` (shape (1,)): its logits are the net's output plus ``base_scale`` times
the log of the base's values (seat-relative, floored at :data:`BASE_FLOOR`), so a net whose
head is zero judges exactly as the base does, and training learns a correction to a
hand-written heuristic rather than a value from nothing.  Format 1 files (no base) still load.
"""

from __future__ import annotations

import hashlib
import importlib
import io
import json
import os
import zipfile
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from romecore.errors import EvaluatorError, SerializationError

__all__ = ["BASE_FLOOR", "FORMAT", "MAX_HIDDEN", "MAX_LAYERS", "READS", "Weights", "check_weights",
           "layout_fingerprint", "load_weights", "save_weights", "tensor_blocks"]

#: Version of the file format this module writes; it reads :data:`READS`.
FORMAT = 2
READS = (1, 2)
#: The smallest base value whose log a residual net adds (a base may judge a seat at 0).
BASE_FLOOR = 1e-6
#: Bounds the C forward pass sizes its stack scratch by.
MAX_HIDDEN = 256
MAX_LAYERS = 4
MAX_INPUT = 8192


@dataclass
class Weights:
    """A value net (and optional policy head) with the game it was trained for."""

    game_id: str
    options: dict[str, Any]
    tensor_size: int
    layout: str
    layers: list[tuple[np.ndarray, np.ndarray]]
    policy: tuple[np.ndarray, np.ndarray] | None = None
    activation: str = "relu"
    training: dict[str, Any] = field(default_factory=dict)
    #: A residual net's base evaluator (its name in the game's registry), or None.
    base: str | None = None
    base_scale: float = 1.0

    @property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def hidden(self) -> list[int]:
        return [int(w.shape[1]) for w, _ in self.layers[:-1]]

    def metadata(self) -> dict[str, Any]:
        return {"format": FORMAT, "game": self.game_id, "options": self.options, "players": self.players,
                "tensor_size": self.tensor_size, "layout": self.layout, "hidden": self.hidden,
                "activation": self.activation, "training": self.training, "base": self.base}

    def trunk(self, x: np.ndarray) -> np.ndarray:
        """The last hidden layer's activations for a batch of tensors: what the value and
        policy heads both read (numpy, for tests and tools)."""
        h = np.asarray(x, dtype=np.float32)
        for w, b in self.layers[:-1]:
            h = np.maximum(h @ w + b, 0.0)
        return h

    def policy_logits(self, x: np.ndarray) -> np.ndarray:
        """The policy head's logits over every distinct action for a batch of tensors."""
        if self.policy is None:
            raise EvaluatorError("this net has no policy head")
        return self.trunk(x) @ self.policy[0] + self.policy[1]

    def forward(self, x: np.ndarray, base: np.ndarray | None = None) -> np.ndarray:
        """Seat-relative value logits for a batch of tensors (numpy, for tests and tools); a
        residual net also needs ``base``, its base's values rotated to each row's viewer."""
        w, b = self.layers[-1]
        h = self.trunk(x) @ w + b
        if self.base is not None:
            if base is None:
                raise EvaluatorError(f"a residual net over {self.base!r} needs its base's values")
            h = h + (self.base_scale * np.log(np.maximum(np.asarray(base, dtype=np.float64), BASE_FLOOR))
                     ).astype(np.float32)
        return h


def tensor_blocks(game: Any) -> dict[str, tuple[int, int]]:
    """The game's ``kernel.TENSOR_BLOCKS`` (the module beside its state class), or {}."""
    package = game.spec.state_class.__module__.rpartition(".")[0]
    try:
        kernel = importlib.import_module(package + ".kernel")
    except ImportError:
        return {}
    return dict(getattr(kernel, "TENSOR_BLOCKS", {}))


def layout_fingerprint(game: Any) -> str:
    """A short hash of the game's tensor layout (its named slices and its size): weights
    trained on one layout must not be read against another."""
    blocks = sorted((k, [int(v) for v in val]) for k, val in tensor_blocks(game).items())
    text = json.dumps({"game": game.game_id, "size": game.observation_tensor_size(), "blocks": blocks},
                      sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def save_weights(weights: Weights, path: str | os.PathLike[str]) -> None:
    """Writes ``weights`` to ``path`` (.npz), atomically (a partial file never replaces a good one)."""
    arrays: dict[str, np.ndarray] = {}
    for i, (w, b) in enumerate(weights.layers):
        arrays[f"W{i}"] = np.ascontiguousarray(w, dtype=np.float32)
        arrays[f"b{i}"] = np.ascontiguousarray(b, dtype=np.float32)
    if weights.base is not None:
        arrays["base_scale"] = np.array([weights.base_scale], dtype=np.float32)
    if weights.policy is not None:
        arrays["PW"] = np.ascontiguousarray(weights.policy[0], dtype=np.float32)
        arrays["Pb"] = np.ascontiguousarray(weights.policy[1], dtype=np.float32)
    arrays["metadata"] = np.array(json.dumps(weights.metadata(), sort_keys=True))
    path = os.fspath(path)
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)  # type: ignore[arg-type]
        os.replace(tmp, path)
    except OSError as e:
        raise _fail(path, f"cannot be written ({e.strerror or e})") from None


def _fail(path: str, why: str) -> SerializationError:
    return SerializationError(f"weights file {path}: {why}")


def _read(path: str) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The metadata and arrays of a weights file; SerializationError for anything unreadable."""
    try:
        with open(path, "rb") as f:
            blob = f.read()
    except OSError as e:
        raise _fail(path, f"cannot be read ({e.strerror or e})") from None
    try:
        with np.load(io.BytesIO(blob), allow_pickle=False) as z:
            arrays = {k: z[k] for k in z.files}
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zipfile.LargeZipFile) as e:
        raise _fail(path, f"is not a readable .npz ({type(e).__name__}: {e})") from None
    if "metadata" not in arrays:
        raise _fail(path, "has no metadata")
    try:
        meta = json.loads(str(arrays.pop("metadata")))
    except (TypeError, ValueError) as e:
        raise _fail(path, f"metadata is not JSON ({e})") from None
    if not isinstance(meta, dict):
        raise _fail(path, "metadata is not a JSON object")
    return meta, arrays


def load_weights(path: str | os.PathLike[str], game: Any) -> Weights:
    """The weights in ``path`` checked against ``game`` (id, options, tensor size and layout,
    array shapes, dtypes and finiteness); SerializationError naming the file otherwise."""
    path = os.fspath(path)
    meta, arrays = _read(path)
    if meta.get("format") not in READS:
        raise _fail(path, f"format {meta.get('format')!r}, this romecore reads formats {list(READS)}")
    if meta.get("game") != game.game_id:
        raise _fail(path, f"is for game {meta.get('game')!r}, not {game.game_id!r}")
    if meta.get("options") != dict(game.options):
        raise _fail(path, f"is for options {meta.get('options')!r}, not {dict(game.options)!r}")
    size = game.observation_tensor_size()
    if size > MAX_INPUT:
        raise _fail(path, f"{game.game_id} has a tensor of {size} floats; the evaluator reads at most {MAX_INPUT}")
    if meta.get("tensor_size") != size:
        raise _fail(path, f"was trained on a tensor of {meta.get('tensor_size')!r} floats, "
                          f"{game.game_id} now has {size}")
    layout = layout_fingerprint(game)
    if meta.get("layout") != layout:
        raise _fail(path, f"tensor layout {meta.get('layout')!r} differs from the game's {layout!r} "
                          "(the tensor's slices changed: retrain)")
    if meta.get("activation") != "relu":
        raise _fail(path, f"activation {meta.get('activation')!r}; only 'relu' is supported")
    base = meta.get("base")
    if base is not None and (meta["format"] < 2 or not isinstance(base, str) or not base):
        raise _fail(path, f"base {base!r} is not the name of an evaluator (format 2 or later)")
    base_scale = 1.0
    if base is not None:
        if "base_scale" not in arrays:
            raise _fail(path, f"is a residual net over {base!r} but has no base_scale")
        base_scale = float(_checked(path, "base_scale", arrays.pop("base_scale"), (1,))[0])
    nlayers = sum(1 for k in arrays if k.startswith("W"))
    if not 1 <= nlayers <= MAX_LAYERS + 1:
        raise _fail(path, f"{nlayers} layers; 1 to {MAX_LAYERS + 1} are supported")
    head = {"PW", "Pb"}  # the policy head: both arrays or neither
    expected = {f"{c}{i}" for i in range(nlayers) for c in "Wb"} | (head if head & set(arrays) else set())
    if set(arrays) != expected:
        raise _fail(path, f"arrays {sorted(arrays)}, expected {sorted(expected)}")
    layers = []
    inputs = size
    for i in range(nlayers):
        w, b = arrays[f"W{i}"], arrays[f"b{i}"]
        outputs = game.num_players() if i == nlayers - 1 else (w.shape[1] if w.ndim == 2 else -1)
        if i < nlayers - 1 and not 1 <= outputs <= MAX_HIDDEN:
            raise _fail(path, f"W{i} has shape {w.shape}; hidden layers hold 1 to {MAX_HIDDEN} units")
        layers.append((_checked(path, f"W{i}", w, (inputs, outputs)), _checked(path, f"b{i}", b, (outputs,))))
        inputs = outputs
    policy = None
    if "PW" in arrays:
        last = layers[-1][0].shape[0]
        na = game.num_distinct_actions()
        policy = (_checked(path, "PW", arrays["PW"], (last, na)), _checked(path, "Pb", arrays["Pb"], (na,)))
    hidden = [int(w.shape[1]) for w, _ in layers[:-1]]
    if meta.get("hidden") != hidden:
        raise _fail(path, f"metadata says hidden {meta.get('hidden')!r}, the arrays have {hidden}")
    training = meta.get("training")
    return Weights(game.game_id, dict(game.options), size, layout, layers, policy, "relu",
                   training if isinstance(training, dict) else {}, base, base_scale)


def _checked(path: str, name: str, a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    if a.shape != shape:
        raise _fail(path, f"{name} has shape {a.shape}, expected {shape}")
    if a.dtype != np.float32:
        raise _fail(path, f"{name} is {a.dtype}, expected float32")
    if not np.isfinite(a).all():
        raise _fail(path, f"{name} holds a value that is not finite")
    return np.ascontiguousarray(a)


def check_weights(weights: Weights, game: Any) -> None:
    """Weights built in memory meet the checks a file's do (EvaluatorError, no file to name)."""
    if weights.game_id != game.game_id or weights.options != dict(game.options):
        raise EvaluatorError(f"weights for {weights.game_id} {weights.options} do not fit "
                             f"{game.game_id} {dict(game.options)}")
    if weights.tensor_size != game.observation_tensor_size() or weights.layout != layout_fingerprint(game):
        raise EvaluatorError(f"weights were made for another tensor layout of {game.game_id} "
                             f"({weights.tensor_size} floats, layout {weights.layout})")
    sizes = [weights.tensor_size] + [int(np.shape(w)[1]) for w, _ in weights.layers]
    shapes_ok = all(np.shape(w) == (a, c) and np.shape(b) == (c,)
                    for (w, b), a, c in zip(weights.layers, sizes, sizes[1:]))
    if not (1 <= len(weights.layers) <= MAX_LAYERS + 1 and shapes_ok and sizes[-1] == game.num_players()
            and all(1 <= c <= MAX_HIDDEN for c in sizes[1:-1]) and sizes[0] <= MAX_INPUT
            and (weights.base is None or (isinstance(weights.base, str) and np.isfinite(weights.base_scale)))):
        raise EvaluatorError(f"weights have layer sizes {sizes}; expected {weights.tensor_size} inputs, "
                             f"hidden layers of 1..{MAX_HIDDEN} units, {game.num_players()} outputs")
    if weights.policy is not None:
        na = game.num_distinct_actions()
        try:
            pw, pb = weights.policy
        except (TypeError, ValueError):
            raise EvaluatorError("the policy head must be a pair of arrays (PW, Pb)") from None
        if np.shape(pw) != (sizes[-2], na) or np.shape(pb) != (na,) \
                or not (np.isfinite(pw).all() and np.isfinite(pb).all()):
            raise EvaluatorError(f"the policy head has shapes {np.shape(pw)} and {np.shape(pb)}; expected "
                                 f"({sizes[-2]}, {na}) and ({na},), finite")
