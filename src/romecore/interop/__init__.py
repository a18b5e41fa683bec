"""Adapters that put every installed romecore game inside other game frameworks.

- :mod:`romecore.interop.openspiel`: each game as an OpenSpiel (``pyspiel``) Python game,
  named ``romecore_<game_id>`` (extra ``romecore[openspiel]``).
- :mod:`romecore.interop.pettingzoo`: each game as a PettingZoo AEC environment
  (extra ``romecore[pettingzoo]``).

Both are pure Python over the public romecore API and generic over
``romecore.list_games()``.  Neither is imported here, so ``import romecore.interop`` works
without the optional packages.
"""

__all__ = ["openspiel", "pettingzoo"]
