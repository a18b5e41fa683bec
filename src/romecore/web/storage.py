"""Where ``romecore serve`` keeps its tables, so that a game outlives the server (issue 55).

A table is stored as its row (game, options, seed, seats, settings, status), its move list,
and after each move the position that move produced (``state.serialize()``).  A move and its
position are written in one transaction: after a crash, even ``kill -9``, a table is exactly
as it was at its last acknowledged move, never half a move further.

**The interface.**  :class:`Storage` is all the server may call.  :class:`SQLiteStorage`
keeps tables in one SQLite file (``romecore serve --db FILE``), :class:`MemoryStorage` in
dicts (tests, and ``serve`` without ``--db``).

- ``add_move`` writes only the *next* ply of an open table; any other ply raises
  :class:`StorageConflict`, so a replayed stale move is never written twice and two writers
  racing for one ply cannot both win.  ``add_moves`` writes several plies from the next one
  on in one transaction (a person's move and the chance plies it triggers), all or none.
  ``truncate`` (undo) and ``finish`` close the list.
- Seat tokens are never stored, only :func:`hash_token` of them (SHA-256).  A token is 256
  random bits (:func:`new_token`), so a fast hash is enough (a slow password hash only
  protects secrets that can be guessed); :func:`token_matches` compares with
  :func:`hmac.compare_digest`.
- Idle tables: every write to a table (creation, a move, an undo, a seat taken,
  :meth:`~Storage.touch`) sets its ``updated`` time.  ``expire(idle_seconds)`` deletes each
  *open* table whose ``updated`` is more than ``idle_seconds`` old, with its seats and
  moves, and returns their ids so the server drops them from memory too.  Finished tables
  never expire by this rule: they stay browsable and exportable.

**How the app calls it.**  The methods are synchronous and thread-safe (one connection
behind a lock).  The web app runs in one asyncio loop, so it calls them off the loop, under
the table's own lock so that plies are written in order, and acknowledges a move only once
the write has returned.  It applies a person's move and the chance plies that follow,
then writes them together, each with the position it produced, before any page hears::

    async with session.lock:
        for player, action in settled:   # the move, then chance until someone must decide
            state.apply_action(action)
            batch.append((player, action, text, state.serialize()))
        await loop.run_in_executor(writer, storage.add_moves, table_id, first_ply, batch)
        ... broadcast ...

The app runs storage calls in their own threads (``Sessions.writer``), apart from the
agents' searches, so the writes of many tables can wait at once and share a commit.

A settled decision costs one disk sync with ``synchronous=FULL`` (a few milliseconds; a tenth of one
with ``NORMAL``).  Writes from several threads that arrive while one is syncing are
committed together in the next transaction (group commit), so a busy server's tables share
their syncs.

A restarted server rebuilds an open table from :meth:`~Storage.load`: from the last
snapshot (``game.deserialize(stored.snapshot)``, which carries the dealer's random state
too) or, before the first move, ``game.new_initial_state(seed)``.  Replaying the moves from
the seed reaches the same bytes only if each chance move is drawn with
``state.sample_chance()`` (which advances the dealer) and checked against the stored action.

**Schema** (SQLite, ``PRAGMA user_version`` 1, ``application_id`` 0x524F4D45, "ROME"):
``tables(id PK, game_id, options JSON, seed, settings JSON, created, updated, status
'open'|'over', record JSON|NULL)``; ``seats(table_id FK, seat, kind 'human'|'ai', spec,
label, name, token_hash|NULL, PK(table_id, seat))``; ``moves(table_id FK, ply >= 1,
player, action, text, snapshot BLOB, at, PK(table_id, ply))``.  Seats and moves go with
their table (``ON DELETE CASCADE``); a finished table keeps only its last snapshot.  The
file runs in WAL mode with ``synchronous=FULL`` (a move acknowledged is on disk, power loss
included; ``NORMAL`` survives ``kill -9`` but not a power cut) and foreign keys on.

**Migrations.**  :data:`MIGRATIONS` maps each schema version to the step that upgrades a
file from the version before it (1: create the schema in an empty file).  Opening a file
runs the missing steps in order, each in its own transaction with its new
``user_version``, so a failed step leaves the file at the version before it.  For version
2, write a function of the connection (``ALTER TABLE``, a data copy) and add it as
``MIGRATIONS[2]`` (:data:`SCHEMA_VERSION` follows); the tests run such a step.  A file from
a newer romecore, another program's SQLite file, or a file that is not SQLite raises
:class:`~romecore.errors.StorageError`.

**Moving to a networked database.**  When one machine is outgrown, a ``PostgresStorage``
is a new class beside these two, implementing :class:`Storage` on a connection pool
(psycopg): the same three tables (``BYTEA`` snapshots, ``JSONB`` options and settings),
each method one transaction.  ``add_move`` locks the table's row (``SELECT status FROM
tables WHERE id = %s FOR UPDATE``), checks the status and ``MAX(ply)`` as here, and
inserts; the primary key ``(table_id, ply)`` stays as a backstop, its unique violation
mapped to :class:`StorageConflict`.  ``take_seat`` is one ``UPDATE seats ... WHERE
token_hash IS NULL`` (no row updated: a conflict), ``expire`` one ``DELETE FROM tables ...
RETURNING id``.  Postgres commits concurrent transactions with shared syncs by itself, so
there is no group commit to write.  Migrations keep the same step registry, the version in
a one-row table.  Several server processes may then share the database, each table served
by one of them at a time.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from romecore.errors import InvalidArgumentError, StorageError

__all__ = ["Storage", "SQLiteStorage", "MemoryStorage", "TableRow", "Seat", "Move", "StoredTable",
           "StorageConflict", "UnknownTable", "NewMove", "new_token", "hash_token", "token_matches", "verify_seat",
           "StorageError", "SCHEMA_VERSION", "MIGRATIONS", "OPEN", "OVER", "HUMAN", "AI"]

OPEN, OVER = "open", "over"
HUMAN, AI = "human", "ai"
#: Marks a romecore game database (``PRAGMA application_id``): "ROME".
APPLICATION_ID = 0x524F4D45
#: Longest token :func:`token_matches` hashes at all (a page may send anything).
_MAX_TOKEN = 256


class StorageConflict(StorageError):
    """A write that contradicts what is stored: a ply that is not the next one (a stale or
    replayed move), a change to a finished table, a table id already used, a seat taken."""


class UnknownTable(StorageError):
    """No table has this id (never created, or expired)."""


# -- rows ---------------------------------------------------------------------------------------
@dataclass
class Seat:
    """One seat: a human's (open until someone takes it) or an AI's."""

    kind: str  # HUMAN or AI
    label: str = ""  # what the page shows: a level's name, the agent spec
    spec: str = "human"  # the agent spec an AI seat plays (and a timed-out human's stand-in)
    name: str = ""  # the name the player gave
    token_hash: str | None = None  # hash_token(token) once taken; never the token itself


@dataclass
class TableRow:
    """One table as stored.  ``options`` are ``load_game``'s besides ``players`` (which is
    the number of seats); ``settings`` are the table's (hints, undo, clock)."""

    id: str
    game_id: str
    seed: int
    seats: list[Seat]
    options: dict[str, Any] = field(default_factory=dict)
    settings: dict[str, Any] = field(default_factory=dict)
    created: float = field(default_factory=time.time)
    updated: float = field(default_factory=time.time)
    status: str = OPEN
    record: str | None = None  # the record-v2 JSON, once over

    @property
    def players(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class Move:
    """One applied action: ``player`` is the seat, or -1 for chance."""

    ply: int
    player: int
    action: int
    text: str
    at: float


@dataclass
class StoredTable:
    """What :meth:`Storage.load` gives back: the row, the moves in order, and the position
    after the last one (None before the first move: the game's initial state from its seed)."""

    table: TableRow
    moves: list[Move]
    snapshot: bytes | None

    @property
    def ply(self) -> int:
        return len(self.moves)


#: One move for :meth:`Storage.add_moves`: (player, action, text, the snapshot after it).
NewMove = tuple[int, int, str, bytes]


# -- the interface ------------------------------------------------------------------------------
@runtime_checkable
class Storage(Protocol):
    """What the server needs from a store of tables.  Times are Unix seconds (``now``
    defaults to :func:`time.time`).  Unknown ids raise :class:`UnknownTable`."""

    def create_table(self, table: TableRow) -> None:
        """Stores a new table (StorageConflict if its id is taken)."""

    def take_seat(self, table_id: str, seat: int, token_hash: str, name: str = "", now: float | None = None) -> None:
        """Gives a free human seat its token's hash (StorageConflict if the seat is an AI's
        or already taken: of two people following one invitation, one wins)."""

    def seat_token_hash(self, table_id: str, seat: int) -> str | None:
        """The stored hash of the seat's token; None for a free seat, an AI's or no such seat."""

    def add_move(self, table_id: str, ply: int, player: int, action: int, text: str, snapshot: bytes,
                 now: float | None = None) -> None:
        """Writes move ``ply`` (1 for the first) and the position it produced, in one
        transaction.  StorageConflict unless the table is open and ``ply`` is the next."""

    def add_moves(self, table_id: str, first: int, moves: Sequence[NewMove], now: float | None = None) -> None:
        """Writes moves ``first``, ``first + 1``, ... (each ``(player, action, text,
        snapshot)``, the snapshot the position it produced) in one transaction: all of them
        or none.  A move and the chance plies it triggers go together, with one disk sync."""

    def truncate(self, table_id: str, ply: int, now: float | None = None) -> None:
        """Undo: keeps moves 1..``ply`` and drops the rest (StorageConflict on a finished
        table or a ply past the last)."""

    def finish(self, table_id: str, record_json: str, now: float | None = None) -> None:
        """Marks the table over with its record; nothing is written to it after this.  Its
        snapshots but the last are dropped (undo is over; the record replays the game)."""

    def load(self, table_id: str) -> StoredTable:
        """The table, its moves and its last snapshot."""

    def list_tables(self, status: str | None = None, limit: int = 100) -> list[TableRow]:
        """Tables (of one status, or all), the most recently updated first."""

    def touch(self, table_id: str, now: float | None = None) -> None:
        """Marks the table active now (a join, a chat: anything short of a move)."""

    def expire(self, idle_seconds: float, now: float | None = None) -> list[str]:
        """Deletes the open tables idle for more than ``idle_seconds``; returns their ids."""

    def close(self) -> None:
        """Releases the store; nothing may be called after."""


# -- seat tokens --------------------------------------------------------------------------------
def new_token() -> str:
    """A fresh seat token: 256 bits from the OS's random source, URL-safe."""
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    """What is stored for a token: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(stored_hash: str | None, token: Any) -> bool:
    """Whether ``token`` (whatever a page sent) is the one ``stored_hash`` was made from;
    compares in constant time."""
    if not isinstance(stored_hash, str) or not isinstance(token, str) or not 0 < len(token) <= _MAX_TOKEN:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)


def verify_seat(storage: Storage, table_id: Any, seat: Any, token: Any) -> bool:
    """Whether ``token`` acts for ``seat`` at ``table_id`` (False for an unknown table, and
    for ids of the wrong type or range, as a page may send)."""
    if not isinstance(table_id, str) or not isinstance(seat, int) or not 0 <= seat < 2**31:
        return False
    try:
        return token_matches(storage.seat_token_hash(table_id, seat), token)
    except UnknownTable:
        return False


# -- rules both backends share ------------------------------------------------------------------
def _now(now: float | None) -> float:
    return time.time() if now is None else float(now)


def _check_row(table: TableRow) -> None:
    try:
        json.dumps([table.options, table.settings])
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(f"table {table.id!r}: options and settings must be JSON ({e})") from None
    if not table.seats:
        raise InvalidArgumentError(f"table {table.id!r} has no seats")
    if any(s.kind not in (HUMAN, AI) for s in table.seats):
        raise InvalidArgumentError(f"table {table.id!r}: a seat's kind must be {HUMAN!r} or {AI!r}")
    if table.status not in (OPEN, OVER):
        raise InvalidArgumentError(f"table {table.id!r}: status must be {OPEN!r} or {OVER!r}")
    if not -(2**63) <= table.seed < 2**63:
        raise InvalidArgumentError(f"table {table.id!r}: seed out of the 64-bit range")


def _json_copy(d: dict[str, Any]) -> dict[str, Any]:
    """``d`` as it comes back from JSON (what SQLite gives back: lists for tuples, ...)."""
    return json.loads(json.dumps(d))


def _check_move(table_id: str, status: str, last: int, ply: int) -> None:
    if status != OPEN:
        raise StorageConflict(f"table {table_id} is over: no move is written")
    if ply != last + 1:
        raise StorageConflict(f"ply {ply} is not the next move of table {table_id} (it has {last})")


def _check_truncate(table_id: str, status: str, last: int, ply: int) -> None:
    if status != OPEN:
        raise StorageConflict(f"table {table_id} is over: its moves stay")
    if not 0 <= ply <= last:
        raise StorageConflict(f"table {table_id} has {last} moves: cannot keep {ply}")


def _check_seat(table_id: str, seats: list[Seat], seat: int) -> None:
    if not 0 <= seat < len(seats) or seats[seat].kind != HUMAN:
        raise StorageConflict(f"table {table_id} has no human seat {seat}")
    if seats[seat].token_hash is not None:
        raise StorageConflict(f"seat {seat} of table {table_id} is taken")


# -- in memory ----------------------------------------------------------------------------------
class MemoryStorage:
    """:class:`Storage` in dicts: what a server without ``--db`` keeps, lost when it stops."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tables: dict[str, TableRow] = {}
        self._moves: dict[str, list[tuple[Move, bytes | None]]] = {}

    def _get(self, table_id: str) -> TableRow:
        try:
            return self._tables[table_id]
        except KeyError:
            raise UnknownTable(f"no table {table_id!r}") from None

    def create_table(self, table: TableRow) -> None:
        _check_row(table)
        with self._lock:
            if table.id in self._tables:
                raise StorageConflict(f"table {table.id} exists")
            row = copy.deepcopy(table)
            row.options, row.settings = _json_copy(table.options), _json_copy(table.settings)
            self._tables[table.id] = row
            self._moves[table.id] = []

    def take_seat(self, table_id: str, seat: int, token_hash: str, name: str = "", now: float | None = None) -> None:
        with self._lock:
            row = self._get(table_id)
            _check_seat(table_id, row.seats, seat)
            row.seats[seat].token_hash, row.seats[seat].name = token_hash, name
            row.updated = _now(now)

    def seat_token_hash(self, table_id: str, seat: int) -> str | None:
        with self._lock:
            seats = self._get(table_id).seats
            return seats[seat].token_hash if 0 <= seat < len(seats) else None

    def add_move(self, table_id: str, ply: int, player: int, action: int, text: str, snapshot: bytes,
                 now: float | None = None) -> None:
        with self._lock:
            row, moves = self._get(table_id), self._moves[table_id]
            _check_move(table_id, row.status, len(moves), ply)
            row.updated = _now(now)
            moves.append((Move(ply, player, action, text, row.updated), bytes(snapshot)))

    def add_moves(self, table_id: str, first: int, moves: Sequence[NewMove], now: float | None = None) -> None:
        with self._lock:
            row, stored = self._get(table_id), self._moves[table_id]
            _check_move(table_id, row.status, len(stored), first)
            row.updated = _now(now)
            stored.extend((Move(first + i, player, action, text, row.updated), bytes(snapshot))
                          for i, (player, action, text, snapshot) in enumerate(moves))

    def truncate(self, table_id: str, ply: int, now: float | None = None) -> None:
        with self._lock:
            row, moves = self._get(table_id), self._moves[table_id]
            _check_truncate(table_id, row.status, len(moves), ply)
            del moves[ply:]
            row.updated = _now(now)

    def finish(self, table_id: str, record_json: str, now: float | None = None) -> None:
        with self._lock:
            row = self._get(table_id)
            if row.status != OPEN:
                raise StorageConflict(f"table {table_id} is over already")
            row.status, row.record, row.updated = OVER, record_json, _now(now)
            moves = self._moves[table_id]
            moves[:-1] = [(m, None) for m, _ in moves[:-1]]

    def load(self, table_id: str) -> StoredTable:
        with self._lock:
            row, moves = self._get(table_id), self._moves[table_id]
            return StoredTable(copy.deepcopy(row), [m for m, _ in moves], moves[-1][1] if moves else None)

    def list_tables(self, status: str | None = None, limit: int = 100) -> list[TableRow]:
        with self._lock:
            rows = [r for r in self._tables.values() if status is None or r.status == status]
            rows.sort(key=lambda r: r.updated, reverse=True)
            return copy.deepcopy(rows[:max(0, limit)])

    def touch(self, table_id: str, now: float | None = None) -> None:
        with self._lock:
            self._get(table_id).updated = _now(now)

    def expire(self, idle_seconds: float, now: float | None = None) -> list[str]:
        cutoff = _now(now) - idle_seconds
        with self._lock:
            gone = [t.id for t in self._tables.values() if t.status == OPEN and t.updated < cutoff]
            for table_id in gone:
                del self._tables[table_id], self._moves[table_id]
            return gone

    def close(self) -> None:
        pass


# -- SQLite -------------------------------------------------------------------------------------
Migration = Callable[[sqlite3.Connection], None]


def _schema_v1(db: sqlite3.Connection) -> None:
    """Version 1: the three tables, on an empty file."""
    for sql in (
        f"PRAGMA application_id = {APPLICATION_ID}",
        """CREATE TABLE tables (
             id TEXT PRIMARY KEY, game_id TEXT NOT NULL, options TEXT NOT NULL, seed INTEGER NOT NULL,
             settings TEXT NOT NULL, created REAL NOT NULL, updated REAL NOT NULL,
             status TEXT NOT NULL CHECK (status IN ('open', 'over')), record TEXT)""",
        "CREATE INDEX tables_by_status ON tables (status, updated)",
        """CREATE TABLE seats (
             table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE, seat INTEGER NOT NULL,
             kind TEXT NOT NULL CHECK (kind IN ('human', 'ai')), spec TEXT NOT NULL, label TEXT NOT NULL,
             name TEXT NOT NULL, token_hash TEXT, PRIMARY KEY (table_id, seat)) WITHOUT ROWID""",
        """CREATE TABLE moves (
             table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE, ply INTEGER NOT NULL CHECK (ply >= 1),
             player INTEGER NOT NULL, action INTEGER NOT NULL, text TEXT NOT NULL, snapshot BLOB,
             at REAL NOT NULL, PRIMARY KEY (table_id, ply)) WITHOUT ROWID""",
    ):
        db.execute(sql)


#: Schema version -> the step that upgrades a file from the version before it.
MIGRATIONS: dict[int, Migration] = {1: _schema_v1}
#: The version this romecore writes.
SCHEMA_VERSION = max(MIGRATIONS)


#: The columns of ``tables`` this code reads and writes (named: a later version may add some).
_TABLE_COLUMNS = "id, game_id, options, seed, settings, created, updated, status, record"


@dataclass(eq=False)
class _Job:
    """One write waiting for a group commit (see :meth:`SQLiteStorage._group`)."""

    work: Callable[[sqlite3.Connection], None]
    error: BaseException | None = None
    done: bool = False


def _pragma(db: sqlite3.Connection, name: str) -> Any:
    return db.execute(f"PRAGMA {name}").fetchone()[0]


class SQLiteStorage:
    """:class:`Storage` in one SQLite file (created if missing, migrated if older).

    One connection serves every thread, behind a lock.  Writes are ``BEGIN IMMEDIATE``
    transactions; the writes of several threads that wait at once are committed together
    (group commit, one disk sync), each still all-or-nothing and refused on its own.
    ``synchronous`` is ``"FULL"`` (survives power loss) or ``"NORMAL"`` (survives a killed
    process, not a power cut; cheaper).  ``migrations`` is for tests and the next schema
    (see the module's docstring).
    """

    def __init__(self, path: str | os.PathLike[str], *, synchronous: str = "FULL",
                 migrations: Mapping[int, Migration] = MIGRATIONS, timeout: float = 30.0) -> None:
        if synchronous not in ("FULL", "NORMAL", "EXTRA"):
            raise InvalidArgumentError(f"synchronous must be FULL, NORMAL or EXTRA, not {synchronous!r}")
        self.path = os.fspath(path)
        self._lock = threading.RLock()  # the connection's: one transaction at a time
        self._queue_lock = threading.Lock()  # the writes waiting for the next group commit
        self._queue: list[_Job] = []
        try:
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as e:  # a folder, a path that does not exist
            raise StorageError(f"{self.path}: cannot open the game database ({e})") from e
        try:
            self._check_identity()
            if _pragma(self._db, "journal_mode = WAL").lower() != "wal":
                raise StorageError(f"{self.path}: cannot use WAL mode here")
            self._db.execute(f"PRAGMA synchronous = {synchronous}")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._migrate(migrations)
        except sqlite3.Error as e:
            self._db.close()
            raise StorageError(f"{self.path}: not a usable romecore game database ({e})") from e
        except BaseException:
            self._db.close()
            raise

    # the file
    def _check_identity(self) -> None:
        """Refuses another program's SQLite file before changing anything in it."""
        app_id = _pragma(self._db, "application_id")
        empty = _pragma(self._db, "user_version") == 0 and not self._db.execute(
            "SELECT 1 FROM sqlite_master LIMIT 1").fetchone()
        if app_id != APPLICATION_ID and not (app_id == 0 and empty):
            raise StorageError(f"{self.path}: a SQLite file of another program (application_id {app_id:#x}),"
                               " not a romecore game database")

    def _migrate(self, migrations: Mapping[int, Migration]) -> None:
        """Runs the missing steps, each in its own transaction with its version number."""
        target = max(migrations)
        while True:
            with self._write() as db:
                version = _pragma(db, "user_version")  # read inside: another process may have migrated
                if version > target:
                    raise StorageError(f"{self.path}: schema version {version} is newer than this romecore's"
                                       f" ({target}); upgrade romecore")
                if version == target:
                    return
                step = migrations.get(version + 1)
                if step is None:
                    raise StorageError(f"{self.path}: no migration to schema version {version + 1}")
                step(db)
                db.execute(f"PRAGMA user_version = {version + 1}")

    @property
    def schema_version(self) -> int:
        with self._lock:
            return _pragma(self._db, "user_version")

    @contextmanager
    def _tx(self, begin: str) -> Iterator[sqlite3.Connection]:
        """One transaction under the lock; sqlite errors become StorageErrors (a broken
        uniqueness rule a StorageConflict), and nothing of a failed one stays."""
        with self._lock:
            db = self._db
            try:
                db.execute(begin)
                try:
                    yield db
                    db.execute("COMMIT")
                except BaseException:
                    if db.in_transaction:
                        db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as e:
                raise self._error(e) from e

    def _error(self, e: BaseException) -> BaseException:
        """The romecore error for a sqlite one (a broken uniqueness rule: a conflict)."""
        if isinstance(e, sqlite3.IntegrityError):
            return StorageConflict(f"{self.path}: {e}")
        return StorageError(f"{self.path}: {e}") if isinstance(e, sqlite3.Error) else e

    def _group(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """Runs ``work`` in a write transaction and returns once that is committed.  Writes
        that arrive while a commit is under way wait for it, then go together in the next
        transaction, each in its own savepoint (all of it or none, refused on its own): one
        disk sync for the group instead of one each (group commit)."""
        job = _Job(work)
        with self._queue_lock:
            self._queue.append(job)
        with self._lock:
            if not job.done:  # no one committed it meanwhile: commit all that waits
                with self._queue_lock:
                    batch, self._queue = self._queue, []
                self._commit(batch)
        if job.error is not None:
            raise job.error

    def _commit(self, batch: list[_Job]) -> None:
        try:
            with self._write() as db:
                for job in batch:
                    db.execute("SAVEPOINT job")
                    try:
                        job.work(db)
                    except Exception as e:
                        db.execute("ROLLBACK TO job")
                        job.error = self._error(e)
                    db.execute("RELEASE job")
        except BaseException as e:  # nothing of the batch was written
            for job in batch:
                job.error = job.error or e
            raise
        finally:
            for job in batch:
                job.done = True

    def _write(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._tx("BEGIN IMMEDIATE")

    def _read(self) -> AbstractContextManager[sqlite3.Connection]:
        return self._tx("BEGIN")

    @staticmethod
    def _head(db: sqlite3.Connection, table_id: str) -> tuple[str, int]:
        """The table's status and its last ply (0 before the first move)."""
        row = db.execute("SELECT status, (SELECT COALESCE(MAX(ply), 0) FROM moves WHERE table_id = t.id)"
                         " FROM tables t WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            raise UnknownTable(f"no table {table_id!r}")
        return row[0], row[1]

    # the interface
    def create_table(self, table: TableRow) -> None:
        _check_row(table)

        def work(db: sqlite3.Connection) -> None:
            db.execute(f"INSERT INTO tables ({_TABLE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (table.id, table.game_id, json.dumps(table.options, sort_keys=True), table.seed,
                        json.dumps(table.settings, sort_keys=True), table.created, table.updated,
                        table.status, table.record))
            db.executemany("INSERT INTO seats (table_id, seat, kind, spec, label, name, token_hash)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)",
                           [(table.id, i, s.kind, s.spec, s.label, s.name, s.token_hash)
                            for i, s in enumerate(table.seats)])

        self._group(work)

    def take_seat(self, table_id: str, seat: int, token_hash: str, name: str = "", now: float | None = None) -> None:
        at = _now(now)

        def work(db: sqlite3.Connection) -> None:
            self._head(db, table_id)
            _check_seat(table_id, self._seats(db, table_id), seat)
            db.execute("UPDATE seats SET token_hash = ?, name = ? WHERE table_id = ? AND seat = ?",
                       (token_hash, name, table_id, seat))
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (at, table_id))

        self._group(work)

    def seat_token_hash(self, table_id: str, seat: int) -> str | None:
        with self._read() as db:
            self._head(db, table_id)
            row = db.execute("SELECT token_hash FROM seats WHERE table_id = ? AND seat = ?",
                             (table_id, seat)).fetchone()
            return row[0] if row else None

    def add_move(self, table_id: str, ply: int, player: int, action: int, text: str, snapshot: bytes,
                 now: float | None = None) -> None:
        at, snapshot = _now(now), bytes(snapshot)

        def work(db: sqlite3.Connection) -> None:
            _check_move(table_id, *self._head(db, table_id), ply)
            db.execute("INSERT INTO moves (table_id, ply, player, action, text, snapshot, at)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?)", (table_id, ply, player, action, text, snapshot, at))
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (at, table_id))

        self._group(work)

    def add_moves(self, table_id: str, first: int, moves: Sequence[NewMove], now: float | None = None) -> None:
        at = _now(now)
        rows = [(table_id, first + i, player, action, text, bytes(snapshot), at)
                for i, (player, action, text, snapshot) in enumerate(moves)]

        def work(db: sqlite3.Connection) -> None:
            _check_move(table_id, *self._head(db, table_id), first)
            db.executemany("INSERT INTO moves (table_id, ply, player, action, text, snapshot, at)"
                           " VALUES (?, ?, ?, ?, ?, ?, ?)", rows)
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (at, table_id))

        self._group(work)

    def truncate(self, table_id: str, ply: int, now: float | None = None) -> None:
        at = _now(now)

        def work(db: sqlite3.Connection) -> None:
            _check_truncate(table_id, *self._head(db, table_id), ply)
            db.execute("DELETE FROM moves WHERE table_id = ? AND ply > ?", (table_id, ply))
            db.execute("UPDATE tables SET updated = ? WHERE id = ?", (at, table_id))

        self._group(work)

    def finish(self, table_id: str, record_json: str, now: float | None = None) -> None:
        at = _now(now)

        def work(db: sqlite3.Connection) -> None:
            if self._head(db, table_id)[0] != OPEN:
                raise StorageConflict(f"table {table_id} is over already")
            db.execute("UPDATE tables SET status = ?, record = ?, updated = ? WHERE id = ?",
                       (OVER, record_json, at, table_id))
            db.execute("UPDATE moves SET snapshot = NULL WHERE table_id = ? AND ply < "
                       "(SELECT MAX(ply) FROM moves WHERE table_id = ?)", (table_id, table_id))

        self._group(work)

    def load(self, table_id: str) -> StoredTable:
        with self._read() as db:
            row = db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE id = ?", (table_id,)).fetchone()
            if row is None:
                raise UnknownTable(f"no table {table_id!r}")
            moves = [Move(*m) for m in db.execute(
                "SELECT ply, player, action, text, at FROM moves WHERE table_id = ? ORDER BY ply", (table_id,))]
            last = db.execute("SELECT snapshot FROM moves WHERE table_id = ? ORDER BY ply DESC LIMIT 1",
                              (table_id,)).fetchone()
            return StoredTable(self._row(db, row), moves, bytes(last[0]) if last else None)

    def list_tables(self, status: str | None = None, limit: int = 100) -> list[TableRow]:
        with self._read() as db:
            rows = db.execute(f"SELECT {_TABLE_COLUMNS} FROM tables WHERE ? IS NULL OR status = ?"
                              " ORDER BY updated DESC LIMIT ?", (status, status, max(0, limit))).fetchall()
            return [self._row(db, r) for r in rows]

    def touch(self, table_id: str, now: float | None = None) -> None:
        at = _now(now)

        def work(db: sqlite3.Connection) -> None:
            if db.execute("UPDATE tables SET updated = ? WHERE id = ?", (at, table_id)).rowcount == 0:
                raise UnknownTable(f"no table {table_id!r}")

        self._group(work)

    def expire(self, idle_seconds: float, now: float | None = None) -> list[str]:
        cutoff = _now(now) - idle_seconds
        with self._write() as db:
            gone = [r[0] for r in db.execute("SELECT id FROM tables WHERE status = ? AND updated < ?",
                                             (OPEN, cutoff))]
            db.executemany("DELETE FROM tables WHERE id = ?", [(t,) for t in gone])
            return gone

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # rows back to objects
    @staticmethod
    def _seats(db: sqlite3.Connection, table_id: str) -> list[Seat]:
        return [Seat(kind=k, spec=sp, label=lb, name=nm, token_hash=th) for k, sp, lb, nm, th in db.execute(
            "SELECT kind, spec, label, name, token_hash FROM seats WHERE table_id = ? ORDER BY seat", (table_id,))]

    @classmethod
    def _row(cls, db: sqlite3.Connection, row: tuple) -> TableRow:
        tid, game_id, options, seed, settings, created, updated, status, record = row
        return TableRow(id=tid, game_id=game_id, seed=seed, seats=cls._seats(db, tid), options=json.loads(options),
                        settings=json.loads(settings), created=created, updated=updated, status=status,
                        record=record)
