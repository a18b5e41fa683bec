"""Tournaments: many games between agents, in parallel on this machine or a Ray cluster.

>>> from romecore import tournament
>>> result = tournament.run("great_city_of_rome", ["random", "random"], games=4,
...                         backend="inline")
>>> [row.games for row in result.rows]
[8, 8]

See :func:`run`.  Seats rotate so each agent sits in each seat equally; seeds derive from
a master seed; results stream to a JSON-lines file that ``resume`` continues; workers get
agents by spec string and states as msgpack snapshots.
"""

from romecore.tournament.local import InlineBackend, LocalBackend, TournamentError
from romecore.tournament.runner import BACKENDS, run
from romecore.tournament.schedule import GameTask, derive_seed, game_seed, lineup, make_task
from romecore.tournament.stats import AgentRow, Failure, Forfeit, TournamentResult, wilson_interval

__all__ = [
    "BACKENDS",
    "AgentRow",
    "Failure",
    "Forfeit",
    "GameTask",
    "InlineBackend",
    "LocalBackend",
    "TournamentError",
    "TournamentResult",
    "derive_seed",
    "game_seed",
    "lineup",
    "make_task",
    "run",
    "wilson_interval",
]
