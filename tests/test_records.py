"""Game records: both file formats round-trip, any record replays to the same final state,
and tampered or malformed records are refused with RecordError."""

from __future__ import annotations

import json
import warnings

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import romecore
from romecore import records
from romecore.match import play_game
from romecore.records import GameRecord, RecordError, ReplayError

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAMES = romecore.list_games()


def _play(game_id, seed, players=None, state=None):
    game = romecore.load_game(game_id, **({"players": players} if players else {}))
    agents = [romecore.make_agent("random", game=game, seed=seed * 10 + i)
              for i in range(game.num_players())]
    return play_game(game, agents, seed, state=state)


@pytest.fixture(scope="module", params=GAMES)
def sample(request):
    """(records, final states) of a few random games of one game."""
    recs, finals = [], []
    for seed in range(4):
        rec = _play(request.param, seed)
        recs.append(rec)
        finals.append(records.replay(rec, check=False))
    return recs, finals


def test_record_holds_every_action_with_its_player(sample):
    recs, finals = sample
    for rec, final in zip(recs, finals):
        assert rec.finished() and len(rec.actions) == len(rec.players) > 0
        assert final.history() == rec.actions
        assert set(rec.players) <= {-1, *range(len(rec.agents))}
        assert sum(rec.moves) == sum(1 for p in rec.players if p >= 0)
        assert rec.agents == ["random"] * len(rec.agents)


@pytest.mark.parametrize("fmt,suffix", [("jsonl", ".jsonl"), ("msgpack", ".msgpack")])
def test_files_round_trip(sample, tmp_path, fmt, suffix):
    recs, _ = sample
    path = tmp_path / f"games{suffix}"
    assert records.write(path, recs) == len(recs)
    if fmt == "jsonl":
        assert path.read_bytes().count(b"\n") == len(recs)
        assert all(json.loads(line)["kind"] == records.RECORD_KIND for line in path.read_text().splitlines())
    else:
        assert path.read_bytes()[:1] != b"{"
    assert records.read(path) == recs
    assert records.read(path.read_bytes()) == recs


def test_replay_reaches_the_same_final_state(sample, tmp_path):
    recs, finals = sample
    records.write(tmp_path / "g.jsonl", recs)
    for rec, final in zip(records.read(tmp_path / "g.jsonl"), finals):
        state = records.replay(rec)
        assert state.is_terminal()
        assert state.state_bytes() == final.state_bytes()
        assert state.returns() == rec.returns and state.scores() == rec.scores


def test_replay_is_the_game_that_was_played():
    """Replaying against the original: the live state after every step is the one the
    game loop had when it applied that action."""
    seen = []
    game = romecore.load_game(GAMES[0])
    agents = [romecore.make_agent("random", game=game, seed=i) for i in range(game.num_players())]
    rec = play_game(game, agents, 99, on_step=lambda s, p, a: seen.append(s.state_bytes()))
    r = records.Replayer(rec)
    for before in seen:
        assert r.state.state_bytes() == before
        r.step()
    assert r.done()
    with pytest.raises(IndexError):
        r.step()


def test_record_from_a_start_state(tmp_path):
    game = romecore.load_game(GAMES[0])
    start = game.new_initial_state(seed=5)
    start.resolve_chance()
    start.apply_action(start.legal_actions()[-1])
    rec = _play(GAMES[0], 6, state=start.clone())
    assert rec.start is not None
    records.write(tmp_path / "s.jsonl", [rec])
    records.write(tmp_path / "s.msgpack", [rec])
    for back in (records.read(tmp_path / "s.jsonl")[0], records.read(tmp_path / "s.msgpack")[0]):
        assert back == rec
        final = records.replay(back)
        assert final.returns() == rec.returns


def test_tampered_records_do_not_replay(sample):
    rec = sample[0][0]
    d = rec.to_dict()

    def variant(**change):
        return GameRecord.from_dict({**d, **change})

    with pytest.raises(ReplayError, match="not over"):
        records.replay(variant(actions=rec.actions[:-3], players=rec.players[:-3]))
    with pytest.raises(ReplayError, match="already over"):
        records.replay(variant(actions=rec.actions + [0], players=rec.players + [0]))
    with pytest.raises(ReplayError, match="returns"):
        records.replay(variant(returns=[1.0 - x for x in rec.returns]))
    with pytest.raises(ReplayError, match="scores"):
        records.replay(variant(scores=[x + 1 for x in rec.scores]))
    first_move = next(i for i, p in enumerate(rec.players) if p >= 0)
    players = list(rec.players)
    players[first_move] = (players[first_move] + 1) % len(rec.agents)
    with pytest.raises(ReplayError, match="is to move"):
        records.replay(variant(players=players))
    bad = list(rec.actions)
    bad[first_move] = 10**6
    with pytest.raises(ReplayError, match=f"move {first_move}"):
        records.replay(variant(actions=bad))
    with pytest.raises(RecordError):
        records.replay(variant(game="no_such_game"))
    with pytest.raises(RecordError):
        records.replay(variant(options={"players": 99}))
    # an unfinished record (no returns) replays without the final check
    partial = variant(actions=rec.actions[:10], players=rec.players[:10], returns=[], scores=[])
    assert records.replay(partial).move_number() == 10


def test_malformed_fields_are_refused(sample):
    d = sample[0][0].to_dict()
    bad = {
        "kind": ["x", None], "version": [2, "1", None], "game": [1, None], "options": [[], {"a": [1]}],
        "seed": [-1, 2**64, 1.5, True, "3"], "agents": [None, [1]], "actions": [None, [1.5], [True]],
        "players": [[0], "x"], "returns": [[float("nan")], ["1"]], "scores": [None, [None]],
        "think_seconds": [[float("inf")]], "moves": [[0.5]], "start": [1, "not base64!"], "meta": [[]],
    }
    for key, values in bad.items():
        for v in values:
            with pytest.raises(RecordError):
                GameRecord.from_dict({**d, key: v})
    for missing in ("game", "options", "seed", "agents", "actions", "players", "returns", "scores"):
        e = dict(d)
        del e[missing]
        with pytest.raises(RecordError):
            GameRecord.from_dict(e)
    with pytest.raises(RecordError):
        GameRecord.from_dict([d])


def test_files_with_other_lines_and_corruption(sample, tmp_path):
    recs, _ = sample
    path = tmp_path / "mixed.jsonl"
    with open(path, "wb") as f:
        records.append_jsonl(f, {"kind": "romecore.tournament", "games": 3})
        for r in recs:
            records.append_jsonl(f, r)
        records.append_jsonl(f, {"kind": "romecore.failure", "index": 3})
    assert records.read(path) == recs  # header and notice lines are skipped
    text = path.read_bytes()
    with pytest.raises(RecordError, match=":2:"):
        records.read(text.replace(b'"version":1', b'"version":7', 1))
    with pytest.raises(RecordError):
        records.read(text[:-20])  # a cut last line
    packed = b"".join(msgpack.packb(r.to_dict()) for r in recs)
    for cut in (1, len(packed) // 2, len(packed) - 1):
        with pytest.raises(RecordError):
            records.read(packed[:cut])
    with pytest.raises(RecordError):
        records.read(packed + msgpack.packb([1, 2]))
    with pytest.raises(RecordError):
        records.read(tmp_path / "missing.jsonl")
    assert records.read(b"") == [] and records.read(b"\n\n") == []


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(blob=st.binary(max_size=512))
def test_random_bytes_never_crash_the_reader(blob):
    try:
        for rec in records.iter_records(blob):
            try:
                records.replay(rec)
            except RecordError:
                pass
    except RecordError:
        pass


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_bit_flipped_msgpack_records(data):
    rec = _play(GAMES[0], 3)
    blob = bytearray(msgpack.packb(rec.to_dict()))
    for f in data.draw(st.lists(st.integers(0, len(blob) * 8 - 1), min_size=1, max_size=6)):
        blob[f // 8] ^= 1 << (f % 8)
    try:
        for r in records.iter_records(bytes(blob)):
            records.replay(r)
    except RecordError:
        pass


# -- forfeits ------------------------------------------------------------------------------
class _Raises:
    spec = "raises"

    def __init__(self, at):
        self.at, self.moves = at, 0

    def step(self, state):
        self.moves += 1
        if self.moves == self.at:
            raise ValueError("gave up")
        return state.legal_actions()[0]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_forfeited_game_records_and_replays(game_id, tmp_path):
    game = romecore.load_game(game_id, players=3)
    agents = [romecore.make_agent("random", game=game, seed=1), _Raises(4),
              romecore.make_agent("random", game=game, seed=2)]
    rec = play_game(game, agents, 5, forfeits=True)
    # the rule, written out: the faulty seat gets nothing, the two others share the win
    assert rec.forfeit["seat"] == 1 and "gave up" in rec.forfeit["reason"]
    assert rec.returns == [0.5, 0.0, 0.5] and records.forfeit_returns(3, 1) == [0.5, 0.0, 0.5]
    assert records.forfeit_returns(2, 0) == [0.0, 1.0]
    assert rec.moves[1] == 4 and rec.players.count(1) == 3  # the fourth move never happened
    for suffix in (".jsonl", ".msgpack"):
        records.write(tmp_path / f"f{suffix}", [rec])
        back = records.read(tmp_path / f"f{suffix}")
        assert back == [rec] and back[0].finished()
        state = records.replay(back[0])
        assert not state.is_terminal() and state.current_player() == 1
    assert "forfeit" not in _play(game_id, 1).to_dict()  # plain records are unchanged
    agents[1] = _Raises(4)
    with pytest.raises(ValueError, match="gave up"):  # not a forfeit: the error goes through
        play_game(game, agents, 5)


def test_forfeit_fields_are_checked():
    game = romecore.load_game(GAMES[0], players=2)
    rec = play_game(game, [_Raises(2), romecore.make_agent("random", game=game, seed=1)], 3,
                    forfeits=True)
    good = rec.to_dict()
    assert GameRecord.from_dict(good) == rec
    for bad in ({"seat": 2, "reason": "x"}, {"seat": "0", "reason": "x"}, {"seat": 0},
                {"seat": 0, "reason": 5}, [0], {"seat": 1, "reason": "x"}):
        with pytest.raises(RecordError):
            GameRecord.from_dict({**good, "forfeit": bad})
    with pytest.raises(RecordError):  # returns that are not the forfeit's
        GameRecord.from_dict({**good, "returns": [0.5, 0.5]})
    rec.actions.append(rec.actions[-1])  # a move past the forfeit
    rec.players.append(rec.players[-1])
    with pytest.raises(ReplayError):
        records.replay(rec)


def test_illegal_moves_and_time_overruns_forfeit():
    game = romecore.load_game(GAMES[0], players=2)

    class Illegal:
        spec = "illegal"

        def step(self, state):
            return "a move"

    class Slow:
        spec = "slow"

        def step(self, state):
            import time
            time.sleep(0.05)
            return state.legal_actions()[0]

    rand = romecore.make_agent("random", game=game, seed=1)
    rec = play_game(game, [rand, Illegal()], 1, forfeits=True)
    assert rec.forfeit["seat"] == 1 and "'a move'" in rec.forfeit["reason"]
    rec = play_game(game, [Slow(), rand], 1, forfeits=True, move_time_limit=0.01)
    assert rec.forfeit["seat"] == 0 and "move time limit" in rec.forfeit["reason"]
    with pytest.raises(ValueError):
        play_game(game, [Slow(), rand], 1, move_time_limit=0.01)
