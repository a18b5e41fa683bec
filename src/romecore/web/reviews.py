"""Game reviews in the web app (issue 54, part 3): the finished games a server keeps, and the
AI's review of one of them, or of an uploaded record, computed on the server.

A review is :func:`romecore.analysis.review` of a record, run in one worker thread of the
server (the searches run in C without the GIL, so live tables keep playing) with a bounded
budget: each decision gets at most :attr:`ReviewBudget.time` seconds (and never more than
the server's ``--max-think``), split over its resampled worlds.  Reviews queue one at a
time; a game has one review, requested once and cached (in memory, and for a game of this
server beside its record in the records folder, so a restarted server keeps it).  A
review is offered only for a finished game: a live game's record (its seed deals every
hidden card) never leaves the server, and neither does its review.

The page steps through the game with the board as one seat saw it: :meth:`ReviewJob.board`
draws ``to_svg(state, seat)`` of the position after ``ply`` moves, optionally with the
first moves of the AI's line for the next decision played on it, and :meth:`ReviewJob.log`
gives the moves as that seat saw them (another player's hidden move is not named).
"""

from __future__ import annotations

import concurrent.futures
import datetime
import hashlib
import json
import logging
import os
import re
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from romecore import analysis, records
from romecore.core.state import HIDDEN
from romecore.errors import InvalidArgumentError, RomecoreError
from romecore.plugins import registry
from romecore.web.limits import bound_spec
from romecore.web.sessions import SessionError
from romecore.web.storage import OVER, Storage, TableRow

__all__ = ["ReviewBudget", "ReviewJob", "Reviews", "finished_games", "read_upload", "result_line", "upload_key",
           "check_key", "MAX_UPLOAD", "MAX_PAGE", "MAX_LISTED"]

#: The largest record file a page may upload for review (bytes).
MAX_UPLOAD = 1 << 20
#: Finished games listed a page at most, and how far back the list pages at most.
MAX_PAGE = 50
MAX_LISTED = 500
#: Reviews kept in memory (the least recently asked for go first; files stay).
MAX_CACHED = 32
#: Reviews waiting or running at once; past it a request is refused as busy.
MAX_QUEUED = 8
_KEY = re.compile(r"(?:up-)?[0-9a-f]{32}\Z")
_SUFFIX = ".review.json"

log = logging.getLogger("romecore.web")


@dataclass(frozen=True)
class ReviewBudget:
    """How the server reviews: ``agent`` (a level's name or a search agent's spec; default
    the analysis's :data:`~romecore.analysis.DEFAULT_LEVEL`) searches each of ``worlds``
    worlds resampled from the mover's view, with at most ``time`` seconds a decision over
    all its worlds (never more than the server's think limit)."""

    agent: str | None = None
    time: float = 1.0
    worlds: int = 2

    def spec(self, game: Any, max_think: float) -> str:
        """The per-world agent spec, its thinking bounded (:func:`bound_spec`)."""
        if not self.time > 0 or self.worlds < 1:
            raise InvalidArgumentError(f"a review budget needs time > 0 and worlds >= 1, not {self}")
        per_world = analysis.agent_for(game, self.agent, worlds=1)
        return bound_spec(per_world, min(self.time, max_think) / self.worlds)


def check_key(key: Any) -> str:
    """A review's key: a game id of this server (32 hex digits) or an upload's (``up-``
    and 32 hex digits)."""
    if not isinstance(key, str) or not _KEY.match(key):
        raise SessionError("bad_request", f"not a game id or an uploaded record's key: {repr(key)[:40]}")
    return key


def upload_key(record: records.GameRecord) -> str:
    """The key of an uploaded record: a digest of what determines the game (the same
    record uploaded twice is reviewed once)."""
    what = json.dumps([record.game_id, record.options, record.seed, record.actions, record.players,
                       record.start.hex() if record.start else None], sort_keys=True)
    return "up-" + hashlib.sha256(what.encode()).hexdigest()[:32]


# -- one review -------------------------------------------------------------------------------
@dataclass
class ReviewJob:
    """One game's review: ``status`` queued, running, done or failed; ``done`` of ``total``
    decisions analysed so far; then ``review`` (:meth:`Review.to_dict`) and ``plot`` (the
    value graph, :func:`~romecore.analysis.plot_svg`), or ``error``."""

    key: str
    record: records.GameRecord
    source: dict[str, Any] = field(default_factory=dict)
    status: str = "queued"
    done: int = 0
    total: int = 0
    review: dict[str, Any] | None = None
    plot: str | None = None
    error: str | None = None
    seconds: float = 0.0

    def progress(self) -> dict[str, Any]:
        """What the page polls: the status and how far the review is."""
        out: dict[str, Any] = {"key": self.key, "status": self.status, "done": self.done, "total": self.total,
                               "game_id": self.record.game_id, "source": self.source}
        if self.error is not None:
            out["error"] = self.error
        return out

    def players(self) -> int:
        return len(self.record.agents)

    def check_seat(self, seat: Any) -> int:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players():
            raise SessionError("bad_request", f"'seat' must be a seat of 0..{self.players() - 1}")
        return seat

    def result(self, seat: int) -> dict[str, Any]:
        """The finished review as the page shows it to ``seat``: the review, the graph, the
        seats' labels, and the game's moves as that seat saw them."""
        return {**self.progress(), "review": self.review, "plot": self.plot, "seat": seat,
                "name": registry.game(self.record.game_id).name, "labels": self.record.seat_labels(),
                "scores": list(self.record.scores), "returns": list(self.record.returns),
                "termination": self.record.termination(), "plies": len(self.record.actions),
                "result": self.result_text(),
                "log": self.log(seat)}

    def result_text(self) -> str:
        """The result in a few words (:func:`result_line`); "unfinished" for a record without one."""
        rec = self.record
        if not rec.returns:
            return "unfinished"
        winners = [p for p, r in enumerate(rec.returns) if r == max(rec.returns) and r > 0]
        return result_line(rec.seat_labels(), list(rec.scores), winners, rec.termination())

    def log(self, seat: int) -> list[dict[str, Any]]:
        """Every move as ``seat`` saw it: ``{"ply", "player" (a seat or "chance"), "text"}``,
        the text None for a move hidden from the seat (a deal to another, another's hidden
        choice)."""
        r = records.Replayer(self.record)
        out = []
        while not r.done():
            state, i = r.state, r.index
            player, action = self.record.players[i], self.record.actions[i]
            hidden = player != seat and bool(state.observe_action(seat, action) & HIDDEN)
            _, _, text = r.step()
            out.append({"ply": i + 1, "player": "chance" if player == records.CHANCE_PLAYER else player,
                        "text": None if hidden else text})
        return out

    def board(self, seat: int, ply: int, line: int = 0) -> str:
        """The picture of the position after ``ply`` moves as ``seat`` saw it; with
        ``line`` > 0, after the first ``line`` moves of the AI's line for the decision
        taken there (move ``ply + 1``) instead of the move played."""
        from romecore.picture import to_svg

        plies = len(self.record.actions)
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= plies:
            raise SessionError("bad_request", f"'ply' must be a position of 0..{plies}")
        r = records.Replayer(self.record)
        while r.index < ply:
            r.step()
        state = r.state
        if line:
            moves = self._line(ply + 1)
            if isinstance(line, bool) or not isinstance(line, int) or not 0 <= line <= len(moves):
                raise SessionError("bad_request", f"'line' must be a step of the AI's line, 0..{len(moves)}")
            state = state.clone()
            for action in moves[:line]:
                if not state.is_legal(action):  # a line found in another world: stop where it departs
                    break
                state.apply_action(action)
        return to_svg(state, seat)

    def _line(self, ply: int) -> list[int]:
        for d in (self.review or {}).get("decisions", []):
            if d["ply"] == ply:
                return list(d.get("line") or [])
        raise SessionError("bad_request", f"move {ply} is not a reviewed decision: no line to show")


# -- the server's reviews ----------------------------------------------------------------------
class Reviews:
    """Every review the server holds, and the one thread that computes them.  ``records_dir``
    (None: memory only) keeps each game's finished review beside its record."""

    def __init__(self, records_dir: str | None, budget: ReviewBudget, max_think: float,
                 max_cached: int = MAX_CACHED, max_queued: int = MAX_QUEUED) -> None:
        self.records_dir = records_dir
        self.budget = budget
        self.max_think = max_think
        self.max_cached = max_cached
        self.max_queued = max_queued
        self.jobs: OrderedDict[str, ReviewJob] = OrderedDict()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="romecore-review")

    def get(self, key: str) -> ReviewJob | None:
        """The review of ``key`` in memory or, for a game of this server, on disk."""
        with self._lock:
            job = self.jobs.get(key)
            if job is not None:
                self.jobs.move_to_end(key)
                return job
        return self._from_disk(key)

    def request(self, key: str, record: records.GameRecord, source: dict[str, Any]) -> ReviewJob:
        """The review of ``record`` under ``key``: the one held or under way, else a new one
        queued (``busy`` when too many wait already).  A failed review is tried again."""
        job = self.get(key)
        if job is not None and job.status != "failed":
            return job
        with self._lock:
            waiting = sum(j.status in ("queued", "running") for j in self.jobs.values())
            if waiting >= self.max_queued:
                raise SessionError("busy", f"{waiting} reviews are under way on this server: try again later")
            job = ReviewJob(key, record, dict(source))
            self.jobs[key] = job
            self._evict()
        self._executor.submit(self._run, job)
        return job

    def _evict(self) -> None:
        finished = [k for k, j in self.jobs.items() if j.status in ("done", "failed")]
        for k in finished[: max(0, len(self.jobs) - self.max_cached)]:
            del self.jobs[k]

    def _run(self, job: ReviewJob) -> None:
        """Computes a review in the review thread (never raises: a failure is the job's)."""
        if self._stopping.is_set():
            return
        job.status = "running"
        t0 = time.perf_counter()
        try:
            game = _load_game(job.record)
            spec = self.budget.spec(game, self.max_think)
            review = analysis.review(job.record, spec, worlds=self.budget.worlds, backend="inline",
                                     source=job.source, progress=lambda done, total: self._advance(job, done, total))
            job.review, job.plot = review.to_dict(), analysis.plot_svg(review)
            job.seconds = time.perf_counter() - t0
            job.status = "done"
            self._save(job)
        except _Stopped:
            job.status, job.error = "failed", "the server stopped before the review ended"
        except RomecoreError as e:
            job.status, job.error = "failed", str(e)
        except Exception as e:  # a bug of ours: the page says so, the server goes on
            log.exception("a review failed")
            job.status, job.error = "failed", f"internal error: {type(e).__name__}: {e}"

    def _advance(self, job: ReviewJob, done: int, total: int) -> None:
        if self._stopping.is_set():
            raise _Stopped()
        job.done, job.total = done, total

    # reviews kept beside the records
    def _path(self, key: str, game_id: str | None = None) -> str | None:
        if self.records_dir is None or key.startswith("up-"):
            return None
        if game_id is not None:
            return os.path.join(self.records_dir, f"{game_id}-{key}{_SUFFIX}")
        for gid in registry.games():  # a stat per installed game, not a listing of the folder
            path = os.path.join(self.records_dir, f"{gid}-{key}{_SUFFIX}")
            if os.path.exists(path):
                return path
        return None

    def _save(self, job: ReviewJob) -> None:
        path = self._path(job.key, job.record.game_id)
        if path is None:
            return
        try:
            os.makedirs(self.records_dir or ".", exist_ok=True)
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump({"review": job.review, "plot": job.plot, "record": records.dumps_json(job.record),
                           "source": job.source, "seconds": job.seconds}, f)
            os.replace(tmp, path)
        except OSError:
            log.exception("could not keep the review of %s", job.key)

    def _from_disk(self, key: str) -> ReviewJob | None:
        path = self._path(key)
        if path is None:
            return None
        try:
            with open(path, encoding="utf-8") as f:
                kept = json.load(f)
            job = ReviewJob(key, records.loads_json(kept["record"]), kept.get("source", {}), status="done",
                            review=kept["review"], plot=kept["plot"], seconds=kept.get("seconds", 0.0))
        except (OSError, ValueError, KeyError, TypeError, RomecoreError):
            log.warning("ignoring an unreadable review file %s", path)
            return None
        job.done = job.total = len(job.review.get("decisions", [])) if job.review else 0
        with self._lock:
            self.jobs[key] = job
            self._evict()
        return job

    def close(self) -> None:
        """Stops the review under way (at its next decision) and drops those waiting."""
        self._stopping.set()
        self._executor.shutdown(wait=False, cancel_futures=True)


class _Stopped(Exception):
    """The server is stopping: the review under way ends."""


def _load_game(record: records.GameRecord) -> Any:
    from romecore.api import load_game

    return load_game(record.game_id, **record.options)


# -- uploads ------------------------------------------------------------------------------------
def read_upload(data: bytes, name: str, index: int) -> records.GameRecord:
    """Record ``index`` of an uploaded file (JSON lines or msgpack, format 1 or 2), checked
    to replay to its recorded end; a :class:`romecore.records.RecordError` names the file,
    and the move where it fails."""
    if len(data) > MAX_UPLOAD:
        raise records.RecordError(f"{name}: {len(data)} bytes; a record uploaded for review has at most "
                                  f"{MAX_UPLOAD} bytes")
    try:
        found = records.read(data)
    except records.RecordError as e:
        where = str(e)  # "<bytes>:LINE: why" or "<bytes>: why": the file's name in its place
        named = name + where[len("<bytes>"):] if where.startswith("<bytes>") else f"{name}: {where}"
        raise records.RecordError(named) from None
    if not found:
        raise records.RecordError(f"{name}: holds no romecore record")
    if not 0 <= index < len(found):
        raise records.RecordError(f"{name}: holds {len(found)} records; there is no record {index}")
    record = found[index]
    try:
        records.replay(record, game=index)
    except records.RecordError as e:
        raise records.RecordError(f"{name}: {e}") from None
    return record


# -- the finished games ------------------------------------------------------------------------
def finished_games(storage: Storage, offset: int = 0, limit: int = 20) -> dict[str, Any]:
    """A page of the finished games ``storage`` keeps, the most recent first: at most
    :data:`MAX_PAGE` a page and :data:`MAX_LISTED` in all."""
    if not 0 <= offset <= MAX_LISTED or not 1 <= limit <= MAX_PAGE:
        raise SessionError("bad_request", f"'offset' must be in 0..{MAX_LISTED} and 'limit' in 1..{MAX_PAGE}")
    rows = storage.list_tables(OVER, limit=min(offset + limit, MAX_LISTED) + 1)
    page = [_listed(row) for row in rows[offset:offset + limit]]
    more = len(rows) > offset + limit and offset + limit < MAX_LISTED
    return {"games": [g for g in page if g is not None], "offset": offset, "limit": limit, "more": more}


def _listed(row: TableRow) -> dict[str, Any] | None:
    """One finished game as the list shows it (None if its record cannot be read)."""
    try:
        rec = records.loads_json(row.record or "")
        name = registry.game(row.game_id).name
    except RomecoreError:
        log.warning("finished table %s has an unreadable record", row.id)
        return None
    labels = rec.seat_labels()
    winners = [p for p, r in enumerate(rec.returns) if r == max(rec.returns) and r > 0]
    return {"game": row.id, "game_id": row.game_id, "name": name,
            "players": [{"seat": p, "label": labels[p], "human": s.kind == "human"} for p, s in enumerate(row.seats)],
            "scores": list(rec.scores), "winners": winners, "termination": rec.termination(),
            "result": result_line(labels, list(rec.scores), winners, rec.termination()),
            "moves": len(rec.actions), "date": _date(row.updated),
            "record": f"/api/record/{row.id}", "review": f"/review#{row.id}"}


def result_line(labels: Sequence[str], scores: Sequence[Any], winners: Sequence[int],
                termination: dict[str, Any]) -> str:
    """The result in a few words, the winner's score first: ``P1 (Strong) won 96–87``.

    >>> result_line(["human", "Strong"], [87, 96], [1], {"kind": "normal"})
    'P1 (Strong) won 96–87'
    >>> result_line(["human", "Beginner"], [3, 5], [1], {"kind": "resigned", "seat": 0})
    'P0 (human) resigned; P1 (Beginner) won'
    """
    def who(p: int) -> str:
        return f"P{p} ({labels[p]})" if p < len(labels) else f"P{p}"

    order = list(winners) + [p for p in range(len(scores)) if p not in winners]
    line = "–".join(str(scores[p]) for p in order)
    kind = termination.get("kind")
    if kind in ("resigned", "forfeit", "time"):
        what = {"resigned": "resigned", "forfeit": "forfeited", "time": "ran out of time"}[kind]
        return f"{who(termination['seat'])} {what}; " + " and ".join(who(p) for p in winners) + " won"
    if not winners:
        return f"nobody won {line}"
    verb = "won" if len(winners) == 1 else "shared the win"
    return " and ".join(who(p) for p in winners) + f" {verb} {line}"


def _date(t: float) -> str:
    return datetime.datetime.fromtimestamp(t, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
