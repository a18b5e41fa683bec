"""Who plays which game with which seed: seat rotation and seeds from a master seed.

Game ``g`` of a tournament between ``A`` agents seats agent ``(g + s) % A`` in seat ``s``,
so over every block of ``A`` consecutive games each agent sits in each seat exactly once
(with fewer agents than seats an agent fills several seats of a game).  With paired
seeds (the default) the ``A`` games of a block share one deal seed, so every agent meets
the same deals from every seat, which cuts the luck out of the comparison.

Every seed is a pure function of the master seed and the game's index, so any game can
be played again alone (a worker crash, ``--resume``) and comes out the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from romecore.core.seeds import seed64
from romecore.errors import ArgumentTypeError
from romecore.tournament.stats import agent_labels

__all__ = ["GameTask", "derive_seed", "lineup", "game_seed", "make_task", "SEATING_SCHEME"]

MASK64 = 0xFFFFFFFFFFFFFFFF
#: Names the rotation and seeding rule in results files: a file made under another rule
#: cannot be resumed under this one.
SEATING_SCHEME = "rotate-v1"
_GAME, _AGENT = 1, 2


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def derive_seed(master: int, *keys: int) -> int:
    """A 64-bit seed from a master seed and a path of integer keys (splitmix64 chain).  The
    master seed follows romecore's seed rule (:mod:`romecore.core.seeds`), but
    None is refused: every game is replayed from it, so it must be one fixed number."""
    if master is None:
        raise ArgumentTypeError("a master seed must be an integer, got None")
    x = _splitmix64(seed64(master))
    for k in keys:
        x = _splitmix64(x ^ _splitmix64(k & MASK64))
    return x


def lineup(index: int, num_agents: int, num_seats: int) -> list[int]:
    """The roster index of the agent in each seat of game ``index``."""
    return [(index + s) % num_agents for s in range(num_seats)]


def game_seed(master: int, index: int, num_agents: int, paired: bool = True) -> int:
    """The deal seed of game ``index``: shared by a block of ``num_agents`` games when
    ``paired``, else its own."""
    return derive_seed(master, _GAME, index // num_agents if paired else index, int(paired))


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, as plain data (see :meth:`payload`)."""

    index: int
    seed: int
    lineup: tuple[int, ...]
    agents: tuple[str, ...]  # spec per seat
    agent_seeds: tuple[int, ...]
    blob: bytes  # the start state's snapshot
    move_time_limit: float | None = None  # seconds an agent may think on one move
    labels: tuple[str, ...] = ()  # the table's label per seat, for the game record

    def payload(self, attempt: int = 1) -> dict:
        """What travels to a worker (msgpack-able: ints, floats, strings, bytes)."""
        return {"i": self.index, "seed": self.seed, "lineup": list(self.lineup),
                "agents": list(self.agents), "agent_seeds": list(self.agent_seeds),
                "blob": self.blob, "attempt": attempt, "move_time_limit": self.move_time_limit,
                "labels": list(self.labels)}


def make_task(game, roster: Sequence[str], master: int, index: int, paired: bool = True,
              start=None, move_time_limit: float | None = None) -> GameTask:
    """The task for game ``index`` of a tournament of ``game`` between ``roster``.
    ``start`` (a state) replaces the seed's initial state as the starting position; an
    agent thinking longer than ``move_time_limit`` seconds on a move forfeits."""
    n = game.num_players()
    seats = lineup(index, len(roster), n)
    seed = game_seed(master, index, len(roster), paired)
    state = game.new_initial_state(seed=seed) if start is None else start
    labels = agent_labels(roster)
    return GameTask(index, seed, tuple(seats), tuple(roster[a] for a in seats),
                    tuple(derive_seed(master, _AGENT, index, s) for s in range(n)),
                    state.serialize(history=True), move_time_limit, tuple(labels[a] for a in seats))
