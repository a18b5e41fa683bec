"""Registers ``GAME:learned`` evaluators (:mod:`romecore.learned`) through the ``romecore``
entry point ``learned``: one generic evaluator for every game with a weights file (see
:mod:`romecore.learned.plugin`), registered as any third-party plugin would be."""

from __future__ import annotations

from romecore.learned.plugin import games_with_weights, romecore_evaluators

__all__ = ["games_with_weights", "romecore_evaluators"]
