"""The web server's storage (issue 55, games that survive): the same suite on SQLite and in
memory, then what only a file can show -- schema versions, migrations, corrupt and foreign
files, and ``kill -9`` in the middle of a game.

The oracle for stored games is the game itself: moves replayed from the table's seed (each
chance move drawn by the dealer and checked against the stored one) must give exactly the
stored snapshot, and token hashes are recomputed with :mod:`hashlib`."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading

import pytest

import romecore
from romecore.errors import InvalidArgumentError, RomecoreError, StorageError
from romecore.web.storage import (
    AI,
    HUMAN,
    MIGRATIONS,
    OPEN,
    OVER,
    SCHEMA_VERSION,
    MemoryStorage,
    Seat,
    SQLiteStorage,
    Storage,
    StorageConflict,
    StoredTable,
    TableRow,
    UnknownTable,
    hash_token,
    new_token,
    token_matches,
    verify_seat,
)

T0 = 1_000_000.0


@pytest.fixture(params=["sqlite", "memory"])
def store(request, tmp_path):
    s = SQLiteStorage(tmp_path / "games.db") if request.param == "sqlite" else MemoryStorage()
    yield s
    s.close()


def _table(tid: str = "t1", game_id: str = "rise_to_power", seed: int = 11, now: float = T0) -> TableRow:
    return TableRow(tid, game_id, seed, [Seat(HUMAN, "you"), Seat(AI, "level 2", "ismcts:time=0.5")],
                    options={}, settings={"hints": True, "undo": False, "clock": None}, created=now, updated=now)


def _moves(game_id: str, seed: int, n: int, rng: random.Random) -> list[tuple[int, int, str, bytes]]:
    """The first ``n`` moves of a real 2-player game: (player, action, text, snapshot after)."""
    state = romecore.load_game(game_id, players=2).new_initial_state(seed=seed)
    out = []
    while len(out) < n and not state.is_terminal():
        player = state.current_player()
        action = state.sample_chance() if player == romecore.CHANCE else rng.choice(state.legal_actions())
        text = state.action_to_string(action)
        state.apply_action(action)
        out.append((player, action, text, state.serialize()))
    return out


def _write(store: Storage, tid: str, moves, first: int = 1, now: float = T0) -> None:
    for i, (player, action, text, snap) in enumerate(moves, first):
        store.add_move(tid, i, player, action, text, snap, now=now)


def _replay(stored: StoredTable) -> romecore.State:
    """The table's game replayed from its seed, checking each stored move on the way."""
    t = stored.table
    state = romecore.load_game(t.game_id, players=t.players, **t.options).new_initial_state(seed=t.seed)
    for i, m in enumerate(stored.moves, 1):
        assert m.ply == i
        assert state.current_player() == m.player
        if m.player == romecore.CHANCE:
            assert state.sample_chance() == m.action  # the dealer draws what was stored
        assert state.is_legal(m.action) and state.action_to_string(m.action) == m.text
        state.apply_action(m.action)
    return state


# -- the interface, on both backends --------------------------------------------------------------
def test_a_store_is_a_storage(store):
    assert isinstance(store, Storage)


def test_round_trip(store):
    table = _table()
    store.create_table(table)
    moves = _moves(table.game_id, table.seed, 30, random.Random(1))
    _write(store, "t1", moves, now=T0 + 5)
    got = store.load("t1")
    assert got.table == TableRow(**{**vars(table), "updated": T0 + 5})
    assert [(m.ply, m.player, m.action, m.text, m.at) for m in got.moves] == [
        (i, p, a, t, T0 + 5) for i, (p, a, t, _) in enumerate(moves, 1)]
    assert got.ply == 30 and got.snapshot == moves[-1][3]
    assert _replay(got).serialize() == got.snapshot
    game = romecore.load_game(table.game_id, players=2)
    assert game.deserialize(got.snapshot).serialize() == moves[-1][3]


def test_a_new_table_has_no_snapshot_and_options_survive(store):
    table = _table(game_id="great_city_of_rome")
    table.options = {"variant": "x", "n": (1, 2)}
    store.create_table(table)
    got = store.load("t1")
    assert got.moves == [] and got.snapshot is None and got.table.options == {"variant": "x", "n": [1, 2]}
    table = _table("t2")
    table.settings = {"clock": object()}
    with pytest.raises(InvalidArgumentError, match="JSON"):
        store.create_table(table)
    with pytest.raises(UnknownTable):
        store.load("t2")


def test_what_load_returns_is_a_copy(store):
    store.create_table(_table())
    got = store.load("t1")
    got.table.seats[0].token_hash = "x"
    got.table.settings["undo"] = True
    again = store.load("t1").table
    assert again.seats[0].token_hash is None and again.settings["undo"] is False


def test_unknown_tables_and_taken_ids(store):
    for call in (lambda: store.load("nope"), lambda: store.add_move("nope", 1, 0, 0, "", b""),
                 lambda: store.truncate("nope", 0), lambda: store.finish("nope", "{}"),
                 lambda: store.touch("nope"), lambda: store.seat_token_hash("nope", 0)):
        with pytest.raises(UnknownTable):
            call()
    store.create_table(_table())
    with pytest.raises(StorageConflict):
        store.create_table(_table(game_id="glory_to_rome"))
    assert store.load("t1").table.game_id == "rise_to_power"
    assert issubclass(UnknownTable, RomecoreError) and issubclass(StorageConflict, StorageError)


def test_only_the_next_ply_is_written(store):
    store.create_table(_table())
    moves = _moves("rise_to_power", 11, 3, random.Random(2))
    _write(store, "t1", moves[:1])
    for ply in (0, 1, 3, -1):  # a replayed stale move, a skipped one, nonsense
        with pytest.raises(StorageConflict, match="not the next"):
            store.add_move("t1", ply, *moves[1])
    got = store.load("t1")
    assert got.ply == 1 and got.snapshot == moves[0][3]
    store.add_move("t1", 2, *moves[1])
    assert store.load("t1").snapshot == moves[1][3]


def test_a_settled_decision_is_written_all_or_nothing(store):
    store.create_table(_table())
    moves = _moves("rise_to_power", 11, 25, random.Random(4))  # its deal: 19 chance plies first
    assert sum(p == romecore.CHANCE for p, *_ in moves[:19]) == 19
    store.add_moves("t1", 1, moves[:19])
    got = store.load("t1")
    assert [m.ply for m in got.moves] == list(range(1, 20)) and got.snapshot == moves[18][3]
    for first in (1, 19, 21):  # stale, a replay of its last ply, a gap: none of the batch is written
        with pytest.raises(StorageConflict, match="not the next"):
            store.add_moves("t1", first, moves[19:22])
    assert store.load("t1").ply == 19
    store.add_moves("t1", 20, moves[19:22])
    _write(store, "t1", moves[22:], first=23)
    got = store.load("t1")
    assert got.ply == 25 and got.snapshot == moves[24][3]
    assert _replay(got).serialize() == got.snapshot


def test_two_writers_racing_for_one_ply_one_wins(store):
    store.create_table(_table())
    (p, a, t, snap), = _moves("rise_to_power", 11, 1, random.Random(3))

    async def race():
        return await asyncio.gather(*[asyncio.to_thread(store.add_move, "t1", 1, p, a, t, snap) for _ in range(8)],
                                    return_exceptions=True)

    results = asyncio.run(race())
    assert sum(r is None for r in results) == 1
    assert all(isinstance(r, StorageConflict) for r in results if r is not None)
    assert store.load("t1").ply == 1


def test_threads_write_their_own_tables(store):
    games = [("rise_to_power", 1), ("city_of_marble", 2), ("glory_to_rome", 3), ("great_city_of_rome", 4)]
    plays = {f"t{i}": _moves(g, s, 40, random.Random(i)) for i, (g, s) in enumerate(games)}
    for i, (g, s) in enumerate(games):
        store.create_table(_table(f"t{i}", g, s))
    threads = [threading.Thread(target=_write, args=(store, tid, moves)) for tid, moves in plays.items()]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    for tid, moves in plays.items():
        got = store.load(tid)
        assert [m.action for m in got.moves] == [a for _, a, _, _ in moves] and got.snapshot == moves[-1][3]


def test_truncate_is_undo(store):
    store.create_table(_table())
    moves = _moves("rise_to_power", 11, 6, random.Random(4))
    _write(store, "t1", moves[:5])
    store.truncate("t1", 2, now=T0 + 9)
    got = store.load("t1")
    assert [m.ply for m in got.moves] == [1, 2] and got.snapshot == moves[1][3] and got.table.updated == T0 + 9
    with pytest.raises(StorageConflict):
        store.truncate("t1", 3)  # past the last move
    with pytest.raises(StorageConflict):
        store.add_move("t1", 4, *moves[3])  # the undone plies are gone: 3 is next
    _write(store, "t1", moves[2:6], first=3)
    assert store.load("t1").snapshot == moves[5][3]
    store.truncate("t1", 0)
    got = store.load("t1")
    assert got.moves == [] and got.snapshot is None


def test_finish(store):
    store.create_table(_table())
    moves = _moves("rise_to_power", 11, 2, random.Random(5))
    _write(store, "t1", moves[:1])
    store.finish("t1", '{"format": "record-v2"}', now=T0 + 60)
    got = store.load("t1")
    assert got.table.status == OVER and got.table.record == '{"format": "record-v2"}'
    assert got.table.updated == T0 + 60 and got.ply == 1
    for call in (lambda: store.add_move("t1", 2, *moves[1]), lambda: store.truncate("t1", 0),
                 lambda: store.finish("t1", "{}")):
        with pytest.raises(StorageConflict, match="over"):
            call()
    got = store.load("t1")
    assert got.ply == 1 and got.table.record == '{"format": "record-v2"}'


def test_list_tables(store):
    for i, when in enumerate([30.0, 10.0, 20.0]):
        store.create_table(_table(f"t{i}", now=T0 + when))
    store.finish("t2", "{}", now=T0 + 40)
    assert [t.id for t in store.list_tables()] == ["t2", "t0", "t1"]
    assert [t.id for t in store.list_tables(status=OPEN)] == ["t0", "t1"]
    assert [t.id for t in store.list_tables(status=OVER)] == ["t2"]
    assert [t.id for t in store.list_tables(limit=2)] == ["t2", "t0"]
    assert store.list_tables(limit=0) == []
    assert store.list_tables()[1] == _table("t0", now=T0 + 30)


def test_idle_open_tables_expire(store):
    """The rule: an open table whose last write (or touch) is more than idle_seconds old is
    deleted; a finished one is kept however old."""
    for tid in ("moved", "touched", "idle", "edge", "over"):
        store.create_table(_table(tid, now=T0))
    store.add_move("moved", 1, *_moves("rise_to_power", 11, 1, random.Random(6))[0], now=T0 + 500)
    store.touch("touched", now=T0 + 500)
    store.touch("edge", now=T0 + 100)
    store.finish("over", "{}", now=T0)
    assert store.expire(1000, now=T0 + 1000) == []  # exactly idle_seconds idle: kept
    assert store.expire(1000, now=T0 + 1000.5) == ["idle"]
    assert store.expire(1000, now=T0 + 1100) == []
    assert sorted(store.expire(1000, now=T0 + 1500.5)) == ["edge", "moved", "touched"]
    with pytest.raises(UnknownTable):
        store.load("moved")
    assert [t.id for t in store.list_tables()] == ["over"]


def test_tokens_are_stored_hashed_and_verified(store):
    tokens = [new_token() for _ in range(50)]
    assert len(set(tokens)) == 50
    assert all(len(base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))) * 8 >= 128 for t in tokens)
    mine, other = tokens[:2]
    assert hash_token(mine) == hashlib.sha256(mine.encode()).hexdigest() and hash_token(mine) != mine
    table = _table()
    table.seats.append(Seat(HUMAN, "friend"))
    store.create_table(table)
    store.create_table(_table("t2"))
    store.take_seat("t1", 0, hash_token(mine), "Ann", now=T0 + 3)
    store.take_seat("t1", 2, hash_token(other), "Bob")
    store.take_seat("t2", 0, hash_token(tokens[2]))
    got = store.load("t1").table
    assert got.seats[0].name == "Ann" and got.seats[0].token_hash == hashlib.sha256(mine.encode()).hexdigest()
    assert all(s.token_hash not in tokens for s in got.seats)
    assert verify_seat(store, "t1", 0, mine) and verify_seat(store, "t1", 2, other)
    refused = [("t1", 2, mine), ("t1", 0, other), ("t2", 0, mine), ("t1", 1, mine), ("t1", 9, mine),
               ("nope", 0, mine), ("t1", 0, mine[:-1]), ("t1", 0, mine[:16]), ("t1", 0, mine + "A"),
               ("t1", 0, ""), ("t1", 0, None), ("t1", 0, 123), ("t1", 0, ["x"]), ("t1", 0, "\ud800"),
               ("t1", 0, mine * 100), ("t1", 0, hash_token(mine)), (None, 0, mine), (1, 0, mine),
               ("t1", 2**70, mine), ("t1", -1, mine), ("t1", "0", mine), ("t1", 0.0, mine)]
    for tid, seat, token in refused:
        assert not verify_seat(store, tid, seat, token), (tid, seat, token)
    assert not token_matches(None, mine)
    for seat in (0, 1, 5):  # taken, an AI's, no such seat: the first token keeps the seat
        with pytest.raises(StorageConflict):
            store.take_seat("t1", seat, hash_token(tokens[3]))
    assert verify_seat(store, "t1", 0, mine) and store.seat_token_hash("t1", 1) is None


# -- only a file ----------------------------------------------------------------------------------
def test_no_token_in_clear_on_disk(tmp_path):
    path = tmp_path / "games.db"
    store = SQLiteStorage(path)
    token = new_token()
    store.create_table(_table())
    store.take_seat("t1", 0, hash_token(token))
    on_disk = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert hash_token(token).encode() in on_disk and token.encode() not in on_disk
    store.close()


def test_a_table_outlives_its_store(tmp_path):
    path = tmp_path / "games.db"
    store = SQLiteStorage(path)
    store.create_table(_table())
    moves = _moves("rise_to_power", 11, 10, random.Random(7))
    _write(store, "t1", moves)
    before = store.load("t1")
    store.close()
    again = SQLiteStorage(path)
    assert again.load("t1") == before and again.load("t1").snapshot == moves[-1][3]
    again.close()


def test_a_group_commit_refuses_each_write_on_its_own(tmp_path):
    """Writes queued while another commits go in one transaction; a refused one (a stale
    ply, an unknown table, one failing half-way) leaves nothing and the others written."""
    store = SQLiteStorage(tmp_path / "games.db")
    moves = _moves("rise_to_power", 11, 2, random.Random(10))
    for tid in ("a", "b", "c"):
        store.create_table(_table(tid))
    _write(store, "a", moves[:1])
    commits = []
    commit = store._commit
    store._commit = lambda batch: (commits.append(len(batch)), commit(batch))
    calls = {"a": ("a", 2, *moves[1]), "b": ("b", 1, *moves[0]), "stale": ("a", 1, *moves[0]),
             "c": ("c", 1, *moves[0]), "unknown": ("zz", 1, *moves[0]), "half": ()}
    results: dict[str, object] = {}

    def half(db):
        db.execute("UPDATE tables SET game_id = 'changed' WHERE id = 'b'")
        return 1 / 0

    def call(name):
        try:
            results[name] = store._group(half) if name == "half" else store.add_move(*calls[name])
        except (StorageError, ZeroDivisionError) as e:
            results[name] = e

    with store._lock:  # as if a commit were under way: the writes queue up
        threads = [threading.Thread(target=call, args=(name,)) for name in calls]
        for th in threads:
            th.start()
        while len(store._queue) < len(calls):
            threading.Event().wait(0.001)
    for th in threads:
        th.join()
    assert commits == [6]
    assert results["a"] is None and results["b"] is None and results["c"] is None
    assert isinstance(results["unknown"], UnknownTable)
    assert isinstance(results["stale"], StorageConflict) and isinstance(results["half"], ZeroDivisionError)
    assert [store.load(t).snapshot for t in "abc"] == [moves[1][3], moves[0][3], moves[0][3]]
    assert store.load("b").table.game_id == "rise_to_power"  # the failed half-write left nothing
    store.close()


def test_a_finished_table_keeps_only_its_last_snapshot(tmp_path):
    store = SQLiteStorage(tmp_path / "games.db")
    for tid in ("over", "open"):
        store.create_table(_table(tid))
        _write(store, tid, _moves("rise_to_power", 11, 20, random.Random(12)))
    before = store.load("over")
    store.finish("over", "{}")
    after = store.load("over")
    assert after.snapshot == before.snapshot and after.moves == before.moves
    kept = dict(store._db.execute("SELECT table_id, COUNT(snapshot) FROM moves GROUP BY table_id"))
    assert kept == {"over": 1, "open": 20}
    store.close()


def test_the_file_is_versioned_and_set_up(tmp_path):
    path = tmp_path / "games.db"
    store = SQLiteStorage(path)
    assert store.schema_version == SCHEMA_VERSION == 1
    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA user_version").fetchone()[0] == 1
    assert raw.execute("PRAGMA application_id").fetchone()[0] == 0x524F4D45
    assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type = 'table'")} == {
        "tables", "seats", "moves"}
    raw.close()
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    store.close()


def _v2_titles(db: sqlite3.Connection) -> None:
    """An example version 2: tables get a title, the old ones their game's name."""
    db.execute("ALTER TABLE tables ADD COLUMN title TEXT NOT NULL DEFAULT ''")
    db.execute("UPDATE tables SET title = game_id")


def test_migration_to_version_2(tmp_path):
    path = tmp_path / "games.db"
    store = SQLiteStorage(path)
    store.create_table(_table())
    _write(store, "t1", _moves("rise_to_power", 11, 4, random.Random(8)))
    before = store.load("t1")
    store.close()

    v2 = SQLiteStorage(path, migrations={**MIGRATIONS, 2: _v2_titles})
    assert v2.schema_version == 2 and v2.load("t1") == before
    assert v2._db.execute("SELECT title FROM tables").fetchall() == [("rise_to_power",)]
    v2.create_table(_table("t2"))  # a version-1 writer's rows still fit (title has a default)
    v2.close()
    with pytest.raises(StorageError, match="newer"):  # this romecore (version 1) refuses a version 2 file
        SQLiteStorage(path)
    fresh = SQLiteStorage(tmp_path / "new.db", migrations={**MIGRATIONS, 2: _v2_titles})
    assert fresh.schema_version == 2  # an empty file climbs every step
    fresh.close()


def test_a_failed_migration_changes_nothing(tmp_path):
    path = tmp_path / "games.db"
    store = SQLiteStorage(path)
    store.create_table(_table())
    store.close()

    def broken(db):
        db.execute("ALTER TABLE tables ADD COLUMN title TEXT")
        db.execute("UPDATE no_such_table SET x = 1")

    with pytest.raises(StorageError):
        SQLiteStorage(path, migrations={**MIGRATIONS, 2: broken})
    with pytest.raises(StorageError, match="no migration to schema version 2"):
        SQLiteStorage(path, migrations={**MIGRATIONS, 3: _v2_titles})
    again = SQLiteStorage(path)
    assert again.schema_version == 1 and again.load("t1").table.game_id == "rise_to_power"
    assert "title" not in {r[1] for r in again._db.execute("PRAGMA table_info(tables)")}
    again.close()


@pytest.mark.parametrize("kind", ["garbage", "text", "header"])
def test_a_corrupt_file_raises_a_romecore_error(tmp_path, kind):
    path = tmp_path / "games.db"
    if kind == "garbage":
        path.write_bytes(random.Random(9).randbytes(8192))
    elif kind == "text":
        path.write_text("these are not the games you are looking for\n" * 100)
    else:  # a real game database whose header is overwritten
        store = SQLiteStorage(path)
        store.create_table(_table())
        store.close()
        data = bytearray(path.read_bytes())
        data[:16] = b"\0" * 16
        path.write_bytes(bytes(data))
    with pytest.raises(StorageError, match="not a usable romecore game database") as e:
        SQLiteStorage(path)
    assert isinstance(e.value, RomecoreError)


@pytest.mark.parametrize("where", ["no/such/folder/games.db", "."])
def test_a_path_that_cannot_be_opened_raises_a_romecore_error(tmp_path, where):
    with pytest.raises(StorageError):
        SQLiteStorage(tmp_path / where)


def test_damaged_pages_raise_a_romecore_error(tmp_path):
    path = tmp_path / "games.db"
    store = SQLiteStorage(path)
    for i in range(10):
        store.create_table(_table(f"t{i}"))
        _write(store, f"t{i}", _moves("rise_to_power", i, 20, random.Random(i)))
    store.close()
    data = bytearray(path.read_bytes())
    for page in range(4096, len(data), 4096):  # every b-tree page but the first loses its header
        data[page:page + 16] = b"\xff" * 16
    path.write_bytes(bytes(data))
    with pytest.raises(StorageError):
        again = SQLiteStorage(path)
        try:
            again.load("t5")
        finally:
            again.close()


def test_a_foreign_sqlite_file_is_refused_untouched(tmp_path):
    path = tmp_path / "other.db"
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE tables (id TEXT)")
    raw.execute("INSERT INTO tables VALUES ('mine')")
    raw.commit()
    raw.close()
    before = path.read_bytes()
    with pytest.raises(StorageError, match="another program"):
        SQLiteStorage(path)
    assert path.read_bytes() == before and sorted(os.listdir(tmp_path)) == ["other.db"]


# -- kill -9 ------------------------------------------------------------------------------------
#: Threads of the killed writer, each playing its own tables: kills also land in group commits.
WRITERS = 3
_WRITER = r"""
import random, sys, threading
import romecore
from romecore.web.storage import AI, HUMAN, Seat, SQLiteStorage, TableRow

path, seed, writers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
store, games, printing = SQLiteStorage(path), romecore.list_games(), threading.Lock()

def play(k):  # one writer: game after game, tables "k-n"
    rng = random.Random(seed + k)
    for n in range(10**6):
        game_id, tid, game_seed = games[(seed + k + n) % len(games)], f"{k}-{n}", seed + 1000 * k + n
        store.create_table(TableRow(tid, game_id, game_seed, [Seat(HUMAN), Seat(AI, "random", "random")]))
        state, ply = romecore.load_game(game_id, players=2).new_initial_state(seed=game_seed), 0
        while not state.is_terminal():
            player = state.current_player()
            action = state.sample_chance() if player == romecore.CHANCE else rng.choice(state.legal_actions())
            text = state.action_to_string(action)
            state.apply_action(action)
            ply += 1
            store.add_move(tid, ply, player, action, text, state.serialize())
            with printing:
                print(tid, ply, flush=True)  # acknowledged: the move is committed
        store.finish(tid, "{}")

for k in range(writers):
    threading.Thread(target=play, args=(k,)).start()
"""


@pytest.mark.parametrize("trial", range(3))
def test_kill_9_leaves_every_table_at_its_last_acknowledged_move(tmp_path, trial):
    rng = random.Random(trial)
    path = tmp_path / "games.db"
    writer = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(trial * 100), str(WRITERS)],
                              stdout=subprocess.PIPE, text=True)
    acked: dict[str, int] = {}
    try:
        for _ in range(rng.randrange(100, 800)):
            line = writer.stdout.readline()
            assert line, "the writer stopped by itself"
            tid, ply = line.split()
            acked[tid] = int(ply)
        threading.Event().wait(rng.random() * 0.005)  # land anywhere, mid-transaction included
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
        writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL

    raw = sqlite3.connect(path)
    assert raw.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    raw.close()
    store = SQLiteStorage(path)
    tables = store.list_tables(limit=10**6)
    assert {t.id for t in tables} >= set(acked)
    for t in tables:
        stored = store.load(t.id)
        assert stored.ply >= acked.get(t.id, 0)  # nothing acknowledged is lost
        state = _replay(stored)
        if stored.moves:
            assert stored.snapshot == state.serialize()
        else:
            assert stored.snapshot is None
        assert t.status == OPEN or (t.record == "{}" and state.is_terminal())
    assert sum(t.status == OPEN for t in tables) <= WRITERS  # only the games under way when killed
    store.close()
