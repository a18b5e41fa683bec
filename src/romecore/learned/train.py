"""Training the learned evaluator's value net on self-play shards (PyTorch on the CPU: the
``romecore[train]`` extra; ``pip install torch --index-url https://download.pytorch.org/whl/cpu``
keeps the GPU libraries out).

The net: ``hidden`` ReLU layers over the observation tensor, a value head of one logit per
seat relative to the viewer, trained with cross-entropy against the final returns rotated
to the viewer (winners share 1, so the returns are a distribution over seats); with
``policy`` an extra head over the game's actions learns the search's root visit shares on
the mover's rows.  With ``residual`` the logits also get ``scale * log(base values)``, the
values the self-play's base evaluator gave each position (rotated to the viewer), with
``scale`` learned (from 1, not decayed) and the value head started at zero: training begins
at the hand-written evaluator's judgement and learns a correction, which small data sets
cannot learn from nothing.  Validation holds out whole games (``val_fraction``), so
positions of one game never sit on both sides; the base's own validation loss is logged
beside the net's, the bar a residual net has to clear.  With ``search_weight`` w, a row
whose mover searched also learns the search's value of the position (the shards'
``search_value``, the mean reward of the most visited root move): far less noisy than one
game's result, though biased toward the searcher's own judgement.

Writes the weights file (:mod:`romecore.learned.weights`) of the epoch with the lowest
validation loss (small self-play sets overfit fast) and the loss curve (PNG through
cairosvg when installed, else SVG).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from romecore.errors import InvalidArgumentError, SerializationError, UsageError

__all__ = ["TrainResult", "train", "loss_curve_svg"]


@dataclass
class TrainResult:
    """What :func:`train` did: the files it wrote and the losses per epoch."""

    weights: Path
    curve: Path | None
    train_loss: list[float] = field(default_factory=list)
    val_loss: list[float] = field(default_factory=list)
    val_accuracy: list[float] = field(default_factory=list)
    #: With a policy head: its part of ``val_loss`` (cross-entropy against the visit shares).
    val_policy_loss: list[float] = field(default_factory=list)
    #: The base evaluator's validation loss alone (residual training), else None.
    base_val_loss: float | None = None
    rows: int = 0
    val_rows: int = 0
    best_epoch: int = 0


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise UsageError("training needs PyTorch: pip install 'romecore[train]' "
                         "(the CPU wheel: --index-url https://download.pytorch.org/whl/cpu)") from None
    return torch


def _seat_relative(returns: np.ndarray, viewer: np.ndarray) -> np.ndarray:
    """``returns`` rotated so column j is seat (viewer + j) mod n."""
    n = returns.shape[1]
    idx = (viewer[:, None].astype(np.int64) + np.arange(n)[None, :]) % n
    return np.take_along_axis(returns, idx, axis=1)


def _policy_targets(arrays: dict[str, np.ndarray], num_actions: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows with a visit distribution and their dense targets (visit shares)."""
    offs, acts, visits = arrays["policy_offsets"], arrays["policy_actions"], arrays["policy_visits"]
    rows = np.nonzero(np.diff(offs) > 0)[0]
    target = np.zeros((len(rows), num_actions), dtype=np.float32)
    for k, r in enumerate(rows):
        a, v = acts[offs[r]:offs[r + 1]], visits[offs[r]:offs[r + 1]]
        if v.sum() > 0 and (a >= 0).all() and (a < num_actions).all():
            np.add.at(target[k], a, v / v.sum())
    return rows, target


def train(data: str | os.PathLike[str] | Sequence[str | os.PathLike[str]], out: str | os.PathLike[str], *,
          hidden: Sequence[int] = (64, 64), epochs: int = 20, batch: int = 256, lr: float = 1e-3,
          weight_decay: float = 1e-4, val_fraction: float = 0.1, seed: int = 0, policy: bool = False,
          residual: bool = False, search_weight: float = 0.0, threads: int = 1,
          curve: str | os.PathLike[str] | None = None,
          log: Callable[[str], None] | None = None) -> TrainResult:
    """Fits the value net on the shards in ``data`` and writes the weights to ``out`` and the
    loss curve to ``curve`` (default: beside ``out``, ``.png``).  Deterministic by ``seed``."""
    import romecore
    from romecore.learned.selfplay import load_shards
    from romecore.learned.weights import BASE_FLOOR, MAX_HIDDEN, MAX_LAYERS, Weights, layout_fingerprint, save_weights

    hidden = [int(h) for h in hidden]
    if not hidden or len(hidden) > MAX_LAYERS or any(not 1 <= h <= MAX_HIDDEN for h in hidden):
        raise InvalidArgumentError(f"hidden: 1 to {MAX_LAYERS} layers of 1..{MAX_HIDDEN} units, got {hidden}")
    if epochs < 1 or batch < 1 or lr <= 0 or weight_decay < 0 or not 0.0 <= val_fraction < 1.0 or threads < 1 \
            or not 0.0 <= search_weight <= 1.0:
        raise InvalidArgumentError("epochs, batch, threads >= 1, lr > 0, weight_decay >= 0, val_fraction in [0, 1), "
                                   "search_weight in [0, 1]")
    torch = _torch()
    try:  # fail before the training, not after it
        Path(out).parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise UsageError(f"cannot write the weights to {out}: {e.strerror or e}") from None
    meta, arrays = load_shards(data)
    game = romecore.load_game(meta["game"], **meta["options"])
    if meta["tensor_size"] != game.observation_tensor_size() or meta["layout"] != layout_fingerprint(game):
        raise SerializationError(f"self-play data {data} was written for another tensor layout of {game.game_id}")
    n = game.num_players()
    say = log or (lambda _m: None)
    if search_weight > 0 and "search_value" not in arrays:
        raise UsageError(f"self-play data {data} records no search values (written by an older romecore): "
                         "play it again to train on them")
    if residual and ("base" not in arrays or not meta.get("base")):
        raise UsageError(f"self-play data {data} records no base evaluator's values (written by an older "
                         "romecore, or several runs of different bases): play it again to train a residual net")
    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    x = arrays["x"]
    z = _seat_relative(arrays["returns"], arrays["viewer"])
    games_ = np.unique(arrays["game"])
    rng = np.random.default_rng(seed)
    nval = int(round(len(games_) * val_fraction)) if len(games_) > 1 else 0
    val_games = rng.choice(games_, size=nval, replace=False) if nval else np.array([], dtype=games_.dtype)
    is_val = np.isin(arrays["game"], val_games)
    tr, va = np.nonzero(~is_val)[0], np.nonzero(is_val)[0]
    prow, ptarget = _policy_targets(arrays, game.num_distinct_actions()) if policy else (np.array([], int), None)
    pindex = np.full(len(x), -1, dtype=np.int64)
    pindex[prow] = np.arange(len(prow))

    sizes = [x.shape[1], *hidden]
    trunk_layers: list[Any] = []
    for a, b in zip(sizes, sizes[1:]):
        trunk_layers += [torch.nn.Linear(a, b), torch.nn.ReLU()]
    trunk = torch.nn.Sequential(*trunk_layers)
    value = torch.nn.Linear(sizes[-1], n)
    phead = torch.nn.Linear(sizes[-1], game.num_distinct_actions()) if policy else None
    params = [*trunk.parameters(), *value.parameters(), *(phead.parameters() if phead else [])]
    scale = torch.nn.Parameter(torch.ones(1)) if residual else None
    LB = None
    if residual:
        torch.nn.init.zeros_(value.weight)
        torch.nn.init.zeros_(value.bias)
        base_rel = _seat_relative(arrays["base"].astype(np.float64), arrays["viewer"])
        LB = torch.from_numpy(np.log(np.maximum(base_rel, BASE_FLOOR)).astype(np.float32))
    groups = [{"params": params}] + ([{"params": [scale], "weight_decay": 0.0}] if scale is not None else [])
    opt = torch.optim.Adam(groups, lr=lr, weight_decay=weight_decay)
    X, Z = torch.from_numpy(x), torch.from_numpy(np.ascontiguousarray(z))
    Q: Any = None
    HAS_Q: Any = None
    MREL: Any = None
    if search_weight > 0:
        q = arrays["search_value"].astype(np.float32)
        Q, HAS_Q = torch.from_numpy(np.nan_to_num(q, nan=0.5).clip(0, 1)), torch.from_numpy(np.isfinite(q))
        MREL = torch.from_numpy((arrays["mover"].astype(np.int64) - arrays["viewer"]) % n)
        say(f"search values on {float(np.isfinite(q).mean()):.0%} of the rows, weight {search_weight}")
    PT = torch.from_numpy(ptarget) if ptarget is not None else None
    PI = torch.from_numpy(pindex)

    def value_loss(logits: Any, idx: Any) -> Any:
        """Cross-entropy against the returns; with ``search_weight`` w, rows with a search
        value q take (1 - w) of it plus w times the binary cross-entropy of the mover's
        share against q."""
        ls = torch.log_softmax(logits, dim=1)
        ce = -(Z[idx] * ls).sum(1)
        if Q is None:
            return ce.mean()
        q, has = Q[idx], HAS_Q[idx]
        lm = ls.gather(1, MREL[idx][:, None])[:, 0]
        lnot = torch.log1p(-lm.exp().clamp(max=1.0 - 1e-6))
        bce = -(q * lm + (1.0 - q) * lnot)
        return torch.where(has, (1.0 - search_weight) * ce + search_weight * bce, ce).mean()

    def losses(idx: Any) -> tuple[Any, Any, float]:
        """The objective on rows ``idx``, the value logits, and the policy head's part."""
        h = trunk(X[idx])
        logits = value(h)
        if LB is not None:
            logits = logits + scale * LB[idx]
        total = value_loss(logits, idx)
        part = 0.0
        if phead is not None and PT is not None:
            rows = PI[idx]
            keep = rows >= 0
            if bool(keep.any()):
                pl = torch.log_softmax(phead(h[keep]), dim=1)
                ploss = -(PT[rows[keep]] * pl).sum(1).mean()
                total = total + ploss
                part = float(ploss)
        return total, logits, part

    result = TrainResult(Path(out), None, rows=len(tr), val_rows=len(va))
    if LB is not None and len(va):
        vi = torch.from_numpy(va)
        result.base_val_loss = float(value_loss(LB[vi], vi))
        say(f"the base evaluator {meta['base']!r} alone: validation loss {result.base_val_loss:.4f}")
    modules = [trunk, value, *([phead] if phead else [])]
    if scale is not None:  # the scale is saved and restored with the best epoch's state
        holder = torch.nn.Module()
        holder.scale = scale
        modules.append(holder)
    best: tuple[float, int, list[Any]] | None = None
    gen = torch.Generator().manual_seed(seed)
    tr_t = torch.from_numpy(tr)
    for epoch in range(epochs):
        trunk.train()
        perm = tr_t[torch.randperm(len(tr_t), generator=gen)]
        run, seen = 0.0, 0
        for i in range(0, len(perm), batch):
            idx = perm[i:i + batch]
            loss, _, _ = losses(idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
            run += loss.item() * len(idx)
            seen += len(idx)
        result.train_loss.append(run / max(seen, 1))
        if len(va):
            with torch.no_grad():
                vl, logits, vpl = losses(torch.from_numpy(va))
                acc = float((logits.argmax(1) == Z[torch.from_numpy(va)].argmax(1)).float().mean())
            result.val_loss.append(float(vl))
            result.val_accuracy.append(acc)
            if phead is not None:
                result.val_policy_loss.append(vpl)
            if best is None or float(vl) < best[0]:
                best = (float(vl), epoch, [{k: v.clone() for k, v in m.state_dict().items()} for m in modules])
        say(f"epoch {epoch + 1}/{epochs}: train loss {result.train_loss[-1]:.4f}"
            + (f", validation loss {result.val_loss[-1]:.4f}, winner picked {result.val_accuracy[-1]:.1%}"
               if len(va) else "")
            + (f" (policy part {result.val_policy_loss[-1]:.4f})" if result.val_policy_loss else ""))

    if best is not None:  # the epoch that judged held-out games best
        for m, state in zip(modules, best[2]):
            m.load_state_dict(state)
        say(f"kept epoch {best[1] + 1} (validation loss {best[0]:.4f})")
        result.best_epoch = best[1] + 1
    with torch.no_grad():
        layers = [(m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
                  for m in [*trunk, value] if isinstance(m, torch.nn.Linear)]
        ph = (phead.weight.detach().numpy().T.copy(), phead.bias.detach().numpy().copy()) if phead else None
    notes = {"data": [str(d) for d in ([data] if isinstance(data, (str, os.PathLike)) else data)],
             "rows": len(tr), "val_rows": len(va), "epochs": epochs, "batch": batch, "lr": lr,
             "weight_decay": weight_decay, "seed": seed, "agents": meta.get("agents"),
             "final_train_loss": result.train_loss[-1],
             "best_epoch": result.best_epoch or epochs,
             "val_loss": min(result.val_loss) if result.val_loss else None,
             "base_val_loss": result.base_val_loss, "search_weight": search_weight,
             "val_policy_loss": (result.val_policy_loss[(result.best_epoch or epochs) - 1]
                                 if result.val_policy_loss else None)}
    w = Weights(game.game_id, dict(game.options), game.observation_tensor_size(), layout_fingerprint(game),
                [(a.astype(np.float32), b.astype(np.float32)) for a, b in layers],
                (ph[0].astype(np.float32), ph[1].astype(np.float32)) if ph else None, "relu", notes,
                meta["base"] if residual else None, float(scale.detach()) if scale is not None else 1.0)
    save_weights(w, out)
    result.curve = _write_curve(result, Path(curve) if curve is not None else Path(out).with_suffix(".png"), say)
    return result


def loss_curve_svg(train_loss: Sequence[float], val_loss: Sequence[float], title: str = "") -> str:
    """The loss per epoch as a small SVG line chart (training blue, validation orange)."""
    w, h, m = 480, 300, 40
    series = [s for s in (train_loss, val_loss) if len(s)]
    values = [v for s in series for v in s] or [0.0]
    lo, hi = min(values), max(values)
    hi = hi if hi > lo else lo + 1.0
    epochs = max(len(s) for s in series) if series else 1

    def pt(i: int, v: float) -> str:
        x = m + (w - 2 * m) * (i / max(epochs - 1, 1))
        y = h - m - (h - 2 * m) * (v - lo) / (hi - lo)
        return f"{x:.1f},{y:.1f}"

    lines = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
             f'<rect width="{w}" height="{h}" fill="white"/>',
             f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="black"/>',
             f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="black"/>',
             f'<text x="{m}" y="{m - 12}" font-family="sans-serif" font-size="13">{title}</text>',
             f'<text x="4" y="{m + 4}" font-family="sans-serif" font-size="10">{hi:.3f}</text>',
             f'<text x="4" y="{h - m}" font-family="sans-serif" font-size="10">{lo:.3f}</text>',
             f'<text x="{w - m - 40}" y="{h - m + 16}" font-family="sans-serif" font-size="10">epoch {epochs}</text>']
    for s, colour, name, row in ((train_loss, "#1f77b4", "training", 0), (val_loss, "#ff7f0e", "validation", 1)):
        if len(s):
            pts = " ".join(pt(i, v) for i, v in enumerate(s))
            lines.append(f'<polyline fill="none" stroke="{colour}" stroke-width="2" points="{pts}"/>')
            lines.append(f'<text x="{w - m - 90}" y="{m + 14 * row}" fill="{colour}" font-family="sans-serif" '
                         f'font-size="11">{name}</text>')
    lines.append("</svg>")
    return "\n".join(lines)


def _write_curve(result: TrainResult, path: Path, say: Callable[[str], None]) -> Path:
    from romecore.errors import PluginError
    from romecore.picture import write

    svg = loss_curve_svg(result.train_loss, result.val_loss, f"value loss ({result.weights.name})")
    try:
        write(svg, str(path))
    except PluginError as e:  # no cairosvg: the SVG instead
        path = path.with_suffix(".svg")
        write(svg, str(path))
        say(f"{e}; wrote {path}")
    return path
