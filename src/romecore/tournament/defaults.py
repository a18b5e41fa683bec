"""The default line-up of ``romecore tournament GAME`` when no ``--agent`` is given.

One table, strongest first: the first row whose agents are all installed and accept the
spec is used, with its game count (chosen for about a minute on 2 cores).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_LINEUPS", "default_lineup"]

#: (agent specs, number of games).  Measured with 2 workers pinned to 2 cores of a 16-core
#: server: the first row's 300 games took 96 s (with mcts at 6.9 ms a move; ismcts, the
#: strongest agent and so the one users meet first, costs about the same), hence 180; 20000
#: random games took 10.6 s (more would only grow the results file: ~2 kB a game).  The
#: greedy row was not timed: it is estimated from about 15 ms a game.
DEFAULT_LINEUPS: list[tuple[tuple[str, ...], int]] = [
    (("ismcts:simulations=200", "greedy", "random"), 180),
    (("greedy", "random"), 6000),
    (("random", "random"), 20000),
]


def default_lineup(game: Any) -> tuple[list[str], int]:
    """The first default line-up whose agents can all be built for ``game``."""
    import romecore
    from romecore.errors import RomecoreError

    for specs, games in DEFAULT_LINEUPS:
        try:
            for spec in specs:
                romecore.make_agent(spec, game=game, seed=0)
        except RomecoreError:
            continue
        return list(specs), games
    raise RomecoreError("no installed agent can play; install romecore's agents")
