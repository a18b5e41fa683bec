"""Random weights and an independent numpy forward pass for the learned-evaluator tests."""

from __future__ import annotations

import numpy as np

from romecore.learned.weights import Weights, layout_fingerprint


def random_weights(game, hidden=(24, 16), seed=0, scale=0.3, base=None, base_scale=1.0,
                   policy=False) -> Weights:
    rng = np.random.default_rng(seed)
    sizes = [game.observation_tensor_size(), *hidden, game.num_players()]
    layers = [(rng.normal(0, scale, (a, b)).astype(np.float32), rng.normal(0, scale, b).astype(np.float32))
              for a, b in zip(sizes, sizes[1:])]
    na = game.num_distinct_actions()
    head = ((rng.normal(0, scale, (sizes[-2], na)).astype(np.float32), rng.normal(0, scale, na).astype(np.float32))
            if policy else None)
    return Weights(game.game_id, dict(game.options), sizes[0], layout_fingerprint(game), layers, head,
                   base=base, base_scale=base_scale)


def oracle_policy(weights: Weights, tensor: np.ndarray, actions) -> dict[int, float]:
    """The policy head's probabilities of ``actions`` from a tensor, in float64 with explicit
    loops over the hidden layers: softmax over those actions' logits only."""
    h = tensor.astype(np.float64)
    for w, b in weights.layers[:-1]:
        h = np.einsum("i,ij->j", h, w.astype(np.float64)) + b
        h = np.where(h > 0, h, 0.0)
    pw, pb = weights.policy
    logits = np.array([h @ pw[:, a].astype(np.float64) + pb[a] for a in actions])
    e = np.exp(logits - logits.max())
    return dict(zip(actions, e / e.sum()))


def oracle_view(weights: Weights, tensor: np.ndarray, viewer: int, base=None) -> np.ndarray:
    """Absolute-seat values from ``viewer``'s tensor, in float64 with explicit loops over
    layers (not Weights.forward): ReLU hidden layers, softmax, rotation back to seats.  A
    residual net's logit j also gets ``base_scale * log(base[(viewer + j) % n])`` (floored
    at 1e-6), ``base`` being its base evaluator's values of the position, absolute seats."""
    h = tensor.astype(np.float64)
    for i, (w, b) in enumerate(weights.layers):
        h = np.einsum("i,ij->j", h, w.astype(np.float64)) + b
        if i < len(weights.layers) - 1:
            h = np.where(h > 0, h, 0.0)
    if weights.base is not None:
        n = len(h)
        h = h + np.array([weights.base_scale * np.log(max(base[(viewer + j) % n], 1e-6)) for j in range(n)])
    e = np.exp(h - h.max())
    shares = e / e.sum()
    n = len(shares)
    out = np.zeros(n)
    for j in range(n):
        out[(viewer + j) % n] = shares[j]
    return out
