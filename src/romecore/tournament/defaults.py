"""The default line-up of ``romecore tournament GAME`` when no ``--agent`` is given.

One table, strongest first: the first row whose agents are all installed and accept the
spec is used, with its game count (chosen for about a minute on 2 cores).
"""

from __future__ import annotations

from typing import Any

__all__ = ["DEFAULT_LINEUPS", "default_lineup"]

#: (agent specs, number of games).  The first row is the README's main job: the game's
#: default search (ismcts with the game's ``agent_defaults``) at 0.05 s of CPU a move, so the
#: table means the same on a loaded machine, against greedy and random.  Measured at The
#: Great City of Rome (4 players) with 2 workers on a shared 2-core machine: 24 games took
#: 103 CPU seconds (about 52 s on 2 free cores), ismcts won 59.4% of its seats (95% CI
#: 42-74%), greedy 15.6% (7-32%).  ``ismcts:simulations=200``, the row before, won 36.7%
#: against greedy's 38.3%: too small a budget to show the search.  Twice the budget (0.1 s)
#: took as long (104 CPU seconds) for half the games.  20000 random games
#: took 10.6 s (more would only grow the results file: ~2 kB a game); the greedy row is
#: estimated from about 15 ms a game.
DEFAULT_LINEUPS: list[tuple[tuple[str, ...], int]] = [
    (("ismcts:time=0.05,clock=cpu", "greedy", "random"), 24),
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
