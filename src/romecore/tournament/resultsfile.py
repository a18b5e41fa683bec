"""The results file: JSON lines, a header then one game record per finished game,
appended (one write, flushed) as each game ends.

The header names the tournament (game, options, agents, master seed, seating rule); a
game line is a :mod:`romecore.records` record whose ``meta`` holds its index and lineup;
a failure line notes a game that could not be played.  ``resume`` reads the file back,
drops a partial last line left by an interruption, checks that every game line belongs
to this tournament, and reports which games are done, so none is played or counted twice.
Failed games are not done: a resumed run tries them again.
"""

from __future__ import annotations

import json
import os
from typing import Any, BinaryIO

from romecore.records import RECORD_KIND, GameRecord, RecordError, append_jsonl
from romecore.tournament.local import TournamentError
from romecore.tournament.schedule import SEATING_SCHEME, game_seed, lineup
from romecore.tournament.stats import GameSummary

__all__ = ["HEADER_KIND", "FAILURE_KIND", "ResultsFile", "make_header"]

HEADER_KIND = "romecore.tournament"
FAILURE_KIND = "romecore.failure"
_IDENTITY = ("game", "options", "agents", "seed", "paired_seeds", "seating", "start")


def make_header(game_id: str, options: dict, agents: list[str], seed: int, games: int,
                paired: bool, start: str | None,
                move_time_limit: float | None = None) -> dict[str, Any]:
    """The first line.  The move time limit is noted but not part of the identity: a
    resumed run may change it."""
    return {"kind": HEADER_KIND, "version": 1, "game": game_id, "options": dict(options),
            "agents": list(agents), "seed": seed, "paired_seeds": paired,
            "seating": SEATING_SCHEME, "start": start, "games": games,
            "move_time_limit": move_time_limit}


class ResultsFile:
    """An open results file.  ``done`` maps each finished game's index to its summary."""

    def __init__(self, path: str | os.PathLike, header: dict[str, Any], resume: bool = False,
                 overwrite: bool = False) -> None:
        self.path = os.fspath(path)
        self.header = header
        self.done: dict[int, GameSummary] = {}
        exists = os.path.exists(self.path) and os.path.getsize(self.path) > 0
        if exists and not (resume or overwrite):
            raise TournamentError(f"{self.path} already exists: resume it with --resume "
                                  f"(resume=True) or start again with --overwrite")
        self._f: BinaryIO
        try:
            if exists and resume:
                keep = self._load()
                self._f = open(self.path, "r+b")
                self._f.truncate(keep)
                self._f.seek(keep)
            else:
                self._f = open(self.path, "wb")
                append_jsonl(self._f, header)
        except OSError as e:  # a missing folder, no permission, a full disk
            raise TournamentError(f"cannot write the results file {self.path}: "
                                  f"{e.strerror or e}") from None

    def _load(self) -> int:
        """Reads the file; returns the length of its whole lines (what to keep)."""
        with open(self.path, "rb") as f:  # OSError: reported by __init__
            data = f.read()
        keep = data.rfind(b"\n") + 1  # a last line without its newline was cut short
        lines = data[:keep].split(b"\n")[:-1]
        if not lines:
            raise TournamentError(f"{self.path}: no tournament header")
        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or head.get("kind") != HEADER_KIND:
            raise TournamentError(f"{self.path} is not a romecore tournament results file")
        for key in _IDENTITY:
            if head.get(key) != self.header[key]:
                raise TournamentError(f"{self.path} holds another tournament: its {key} is "
                                      f"{head.get(key)!r}, this one's is {self.header[key]!r}")
        n_agents = len(self.header["agents"])
        players = self.header["options"].get("players")
        for lineno, line in enumerate(lines[1:], 2):
            try:
                d = json.loads(line)
            except ValueError:
                raise TournamentError(f"{self.path}:{lineno}: not JSON; the file is damaged") from None
            if not isinstance(d, dict) or d.get("kind") != RECORD_KIND:
                continue  # failure notices and anything else
            try:
                rec = GameRecord.from_dict(d)
                index = rec.meta["index"]
                ok = (rec.game_id == self.header["game"] and rec.options == self.header["options"]
                      and isinstance(index, int) and index >= 0
                      and rec.meta.get("lineup") == lineup(index, n_agents, players or len(rec.agents))
                      and rec.seed == game_seed(self.header["seed"], index, n_agents,
                                                self.header["paired_seeds"])
                      and rec.finished())
            except (RecordError, KeyError, TypeError) as e:
                raise TournamentError(f"{self.path}:{lineno}: bad game record: {e}") from None
            if not ok:
                raise TournamentError(f"{self.path}:{lineno}: a game that is not of this tournament")
            self.done.setdefault(index, GameSummary.from_record(rec))
        return keep

    def add_line(self, line: bytes) -> None:
        """Appends a finished game's record, already a JSON line (without its newline),
        in one write, flushed."""
        self._f.write(line + b"\n")
        self._f.flush()

    def add_failure(self, index: int, reason: str, attempts: int) -> None:
        append_jsonl(self._f, {"kind": FAILURE_KIND, "index": index, "reason": reason,
                               "attempts": attempts})

    def close(self) -> None:
        if not self._f.closed:
            self._f.flush()
            os.fsync(self._f.fileno())
            self._f.close()
