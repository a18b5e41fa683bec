"""Game records: both file formats round-trip, any record replays to the same final state,
tampered or malformed records are refused with RecordError, records validate against the
published JSON Schema, and format 1 records stay readable."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json
import pathlib
import warnings

import jsonschema
import msgpack
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import romecore
from romecore import records, tournament
from romecore.match import play_game
from romecore.records import GameRecord, RecordError, ReplayError

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAMES = romecore.list_games()
DATA = pathlib.Path(__file__).parent / "data"
VALIDATOR = jsonschema.Draft202012Validator(records.record_schema())


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
        for line in path.read_text().splitlines():
            d = json.loads(line)
            assert d["kind"] == records.RECORD_KIND and d["format"] == 2
            VALIDATOR.validate(d)
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
    rec.move_texts()

    def variant(**change):
        return dataclasses.replace(rec, **change)

    cut = dict(actions=rec.actions[:-3], players=rec.players[:-3], texts=rec.texts[:-3])
    with pytest.raises(ReplayError, match="not over"):
        records.replay(variant(**cut))
    with pytest.raises(ReplayError, match="already over"):
        records.replay(variant(actions=rec.actions + [0], players=rec.players + [0], texts=rec.texts + ["x"]))
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
    with pytest.raises(ReplayError, match=f"move {first_move + 1}:") as e:  # moves count from 1
        records.replay(variant(actions=bad), game=3)
    assert e.value.move == first_move + 1 and e.value.game == 3 and str(e.value).startswith("game 3, ")
    with pytest.raises(RecordError):
        records.replay(variant(game_id="no_such_game"))
    with pytest.raises(RecordError, match="game 2: "):
        records.replay(variant(options={"players": 99}), game=2)
    # an unfinished record (no returns) replays without the final check
    partial = variant(actions=rec.actions[:10], players=rec.players[:10], texts=rec.texts[:10],
                      returns=[], scores=[])
    assert records.replay(partial).move_number() == 10
    assert records.GameRecord.from_dict(partial.to_dict()).termination() == {"kind": "unfinished"}


def _other_legal_action(rec):
    """(move index, another legal action whose text differs) at the first seat move
    that has one."""
    state = romecore.load_game(rec.game_id, **rec.options).new_initial_state(seed=rec.seed)
    for i, (a, p) in enumerate(zip(rec.actions, rec.players)):
        if p >= 0:
            for b in state.legal_actions():
                if state.action_to_string(b) != state.action_to_string(a):
                    return i, b
        state.apply_action(a)
    raise AssertionError("no move with a choice")


@pytest.mark.parametrize("game_id", GAMES)
def test_tampered_ids_and_texts_are_refused_naming_game_and_move(game_id, tmp_path):
    recs = [_play(game_id, seed) for seed in (1, 2)]
    path = tmp_path / "g.jsonl"
    records.write(path, recs)
    lines = path.read_text().splitlines()
    i, other = _other_legal_action(recs[1])
    d = json.loads(lines[1])
    text = d["moves"][i]["text"]
    d["moves"][i]["text"] = text + "!"  # a wrong text for the right id
    wrong_text = json.dumps(d)
    d["moves"][i] = {**d["moves"][i], "text": text, "id": other}  # another legal id, the old text
    wrong_id = json.dumps(d)
    for tampered in (wrong_text, wrong_id):
        VALIDATOR.validate(json.loads(tampered))  # well-formed: only a replay can tell
        path.write_text("\n".join([lines[0], tampered]) + "\n")
        back = records.read(path)
        records.replay(back[0], game=0)
        with pytest.raises(ReplayError, match=f"^game 1, move {i + 1}: record says ") as e:
            records.replay(back[1], game=1)
        assert (e.value.game, e.value.move) == (1, i + 1)
        res = CliRunner().invoke(romecore_cli(), ["replay", str(path), "--check"])
        assert res.exit_code == 1 and f"game 1, move {i + 1}: " in res.output and "1 of 2 records" in res.output
        res = CliRunner().invoke(export_command(), [str(path), "--index", "1"])
        assert res.exit_code != 0 and f"game 1, move {i + 1}: " in res.output


def romecore_cli():
    from romecore.cli import main

    return main


def export_command():
    from romecore.cli.export import command

    return command


def _changed(d, path, value):
    """A deep copy of ``d`` with the item at dotted ``path`` (list indices as numbers)
    set to ``value``, or removed when ``value`` is ``DELETE``."""
    d = copy.deepcopy(d)
    *head, last = [int(k) if k.isdigit() else k for k in path.split(".")]
    target = d
    for k in head:
        target = target[k]
    if value is DELETE:
        del target[last]
    else:
        target[last] = value
    return d


DELETE = object()
#: Bad values for a format 2 record's fields: the reader and the schema both refuse each.
BAD_V2 = {
    "kind": ["x", None], "format": [1, 3, "2", True, 2.5, DELETE], "tags": [[], DELETE],
    "tags.game": [1, DELETE], "tags.options": [[], {"a": [1]}, DELETE],
    "tags.seed": [-1, 2**64, 1.5, True, "3", DELETE],
    "tags.date": ["yesterday", "2024-1-2", 20240102], "tags.romecore": [1],
    "tags.agents": [None, [1], DELETE], "tags.agents.0.seat": ["0", DELETE], "tags.agents.0.spec": [None, DELETE],
    "tags.agents.0.label": [3], "tags.time_control": [[], {"move_time_limit": -1}, {"move_time_limit": [1]}],
    "tags.result": [None, DELETE], "tags.result.returns": [["1"], DELETE], "tags.result.scores": [None, [None]],
    "tags.termination": [None, {"kind": "resigned"}, {"kind": "forfeit"}, {"kind": "normal", "seat": 0}, DELETE],
    "moves": [None, [1], DELETE], "moves.0": [[1]], "moves.0.id": [-1, 1.5, True, "3", 2**31, DELETE],
    "moves.0.player": ["nature", -1, True, DELETE], "moves.0.text": [None, 5, DELETE],
    "think_seconds": [["1"]], "move_counts": [[0.5]], "start": [1], "meta": [[]],
}


def test_malformed_fields_are_refused(sample):
    d = json.loads(records.dumps_json(sample[0][0]))
    assert d["moves"][0]["player"] == "chance"
    VALIDATOR.validate(d)
    GameRecord.from_dict(d)
    for key, values in BAD_V2.items():
        for v in values:
            bad = _changed(d, key, v)
            with pytest.raises(RecordError):
                GameRecord.from_dict(bad)
            assert not VALIDATOR.is_valid(bad), f"the schema takes {key}={v!r}"
    # what the schema cannot say, the reader checks across fields
    for key, v in [("start", "not base64!"), ("tags.agents.0.seat", 1), ("moves.0.player", 9),
                   ("tags.result.returns", []),  # a normal end without returns
                   ("tags.termination", {"kind": "forfeit", "seat": 0, "reason": "x"})]:  # not its returns
        with pytest.raises(RecordError):
            GameRecord.from_dict(_changed(d, key, v))
    with pytest.raises(RecordError):
        GameRecord.from_dict([d])


def test_malformed_format1_fields_are_refused():
    d = json.loads((DATA / "records-v1.jsonl").read_text().splitlines()[1])
    assert d["version"] == 1 and "format" not in d
    GameRecord.from_dict(d)
    bad = {
        "kind": ["x", None], "version": [2, "1", None, True], "game": [1, None], "options": [[], {"a": [1]}],
        "seed": [-1, 2**64, 1.5, True, "3"], "agents": [None, [1]], "actions": [None, [1.5], [True]],
        "players": [[0], "x"], "returns": [[float("nan")], ["1"]], "scores": [None, [None]],
        "think_seconds": [[float("inf")]], "moves": [[0.5]], "start": [1, "not base64!"], "meta": [[]],
        "forfeit": [{"seat": 0}, {"seat": 1, "reason": "x"}],  # returns [0, 1] are not a forfeit by 1
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
    with pytest.raises(RecordError):  # "format" names format 2 and later; 1 is "version"
        GameRecord.from_dict({**d, "format": 1})


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
        records.read(text.replace(b'"format":2', b'"format":7', 1))
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
    assert _play(game_id, 1).to_dict()["tags"]["termination"] == {"kind": "normal"}
    agents[1] = _Raises(4)
    with pytest.raises(ValueError, match="gave up"):  # not a forfeit: the error goes through
        play_game(game, agents, 5)


def test_forfeit_fields_are_checked():
    game = romecore.load_game(GAMES[0], players=2)
    rec = play_game(game, [_Raises(2), romecore.make_agent("random", game=game, seed=1)], 3,
                    forfeits=True)
    good = rec.to_dict()
    assert good["tags"]["termination"] == {"kind": "forfeit", "seat": 0, "reason": rec.forfeit["reason"]}
    assert GameRecord.from_dict(good) == rec
    for bad in ({"seat": 2, "reason": "x"}, {"seat": "0", "reason": "x"}, {"seat": 0},
                {"seat": 0, "reason": 5}, {"seat": 1, "reason": "x"}):
        with pytest.raises(RecordError):
            GameRecord.from_dict(_changed(good, "tags.termination", {"kind": "forfeit", **bad}))
    with pytest.raises(RecordError):
        GameRecord.from_dict(_changed(good, "tags.termination", [0]))
    with pytest.raises(RecordError):  # returns that are not the forfeit's
        GameRecord.from_dict(_changed(good, "tags.result.returns", [0.5, 0.5]))
    # a loss on time whose reason does not say so keeps its kind through a round trip
    timed = _changed(good, "tags.termination.kind", "time")
    back = GameRecord.from_dict(timed)
    assert back.termination()["kind"] == "time" and back.to_dict() == timed
    rec.actions.append(rec.actions[-1])  # a move past the forfeit
    rec.players.append(rec.players[-1])
    rec.texts.append(rec.texts[-1])
    with pytest.raises(ReplayError):
        records.replay(rec)


def test_a_resignation_is_recorded_as_resigned(tmp_path):
    """``resign(seat)``: the termination is ``{"kind": "resigned", "seat"}`` (no exception
    quoted), the seat loses and the others share the win; it round-trips through both
    file formats, validates, replays, and the export and replay say so."""
    game = romecore.load_game(GAMES[0], players=3)
    rec = _play(GAMES[0], 7, players=3)
    k = len(rec.actions) // 2  # resigned half way: the record stops there
    del rec.actions[k:], rec.players[k:]
    rec.texts = []
    state = game.new_initial_state(seed=7)
    for a in rec.actions:
        state.apply_action(a)
    rec.scores = state.scores()  # the scores when it resigned
    rec.resign(1)
    assert rec.resigned == 1 and rec.returns == [0.5, 0.0, 0.5]
    d = json.loads(records.dumps_json(rec))
    assert d["tags"]["termination"] == {"kind": "resigned", "seat": 1}
    VALIDATOR.validate(d)
    for suffix in (".jsonl", ".msgpack"):
        path = tmp_path / f"r{suffix}"
        records.write(path, [rec])
        (back,) = records.read(path)
        assert back.resigned == 1 and back.termination() == {"kind": "resigned", "seat": 1}
        assert back.returns == [0.5, 0.0, 0.5]
        state = records.replay(back)
        assert not state.is_terminal() and state.history() == rec.actions
    assert '[Termination "resigned"]' in records.export_text(rec) and '[ResignedSeat "1"]' in records.export_text(rec)
    res = CliRunner().invoke(romecore_cli(), ["replay", str(tmp_path / "r.jsonl"), "--no-step"])
    assert res.exit_code == 0 and "resigned: player 1" in res.output and "forfeit" not in res.output
    for bad in ({"kind": "resigned"}, {"kind": "resigned", "seat": 3}, {"kind": "resigned", "seat": 1, "reason": "x"},
                {"kind": "resigned", "seat": 0}):  # seat 0 did not lose these returns
        with pytest.raises(RecordError):
            GameRecord.from_dict(_changed(d, "tags.termination", bad))
    with pytest.raises(romecore.InvalidArgumentError):
        rec.resign(game.num_players())


def test_older_records_of_a_resignation_read_as_resigned():
    """Records written before the ``resigned`` termination: the terminal's quit (a forfeit
    quoting the exception) and the web app's (a forfeit saying so) read as resignations;
    any other forfeit stays one."""
    rec = _play(GAMES[0], 8, players=2)
    rec.forfeit, rec.returns = {"seat": 0, "reason": "x"}, [0.0, 1.0]
    d = rec.to_dict()
    for reason in ("player 0 (human) raised Resigned: quit at the prompt", "player 0 (human) resigned"):
        old = _changed(d, "tags.termination", {"kind": "forfeit", "seat": 0, "reason": reason})
        assert GameRecord.from_dict(old).termination() == {"kind": "resigned", "seat": 0}
    for reason in ("player 0 (random) raised ValueError: x", "player 0 (human) raised KeyError: 'Resigned'"):
        old = _changed(d, "tags.termination", {"kind": "forfeit", "seat": 0, "reason": reason})
        assert GameRecord.from_dict(old).termination()["kind"] == "forfeit"


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
    assert rec.termination()["kind"] == "forfeit"
    rec = play_game(game, [Slow(), rand], 1, forfeits=True, move_time_limit=0.01)
    assert rec.forfeit["seat"] == 0 and "move time limit" in rec.forfeit["reason"]
    assert rec.termination() == {"kind": "time", "seat": 0, "reason": rec.forfeit["reason"]}
    VALIDATOR.validate(json.loads(records.dumps_json(rec)))
    with pytest.raises(ValueError):
        play_game(game, [Slow(), rand], 1, move_time_limit=0.01)


# -- the published format: schema, tags, texts, older records -------------------------------
def test_the_schema_ships_as_package_data_and_is_draft_2020_12():
    from importlib.resources import files

    schema = records.record_schema()
    assert files("romecore.schemas").joinpath(records.SCHEMA_RESOURCE).is_file()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["format"]["const"] == records.RECORD_FORMAT == 2


def _today_utc():
    """The UTC dates a record written around now may carry (midnight may pass)."""
    now = datetime.datetime.now(datetime.UTC)
    return {(now + datetime.timedelta(minutes=m)).date().isoformat() for m in (-10, 0)}


def _check_texts(d):
    """Every move's text is the action's text where it was taken, walked independently
    of the record code: from the seed's initial state, applying the ids in order."""
    tags = d["tags"]
    state = romecore.load_game(tags["game"], **tags["options"]).new_initial_state(seed=tags["seed"])
    for m in d["moves"]:
        to_move = state.current_player()
        assert m["player"] == ("chance" if to_move == romecore.CHANCE else to_move)
        assert m["text"] == state.action_to_string(m["id"])
        state.apply_action(m["id"])
    return state


def test_a_tournaments_records_validate_against_the_schema_and_replay(tmp_path):
    out = tmp_path / "t.jsonl"
    res = tournament.run(GAMES[0], ["random", "greedy", "random"], games=3, players=2, seed=4,
                         workers=2, out=str(out), move_time_limit=30.0)
    assert res.games_played == 3
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    games = [d for d in lines if d["kind"] == records.RECORD_KIND]
    assert len(games) == 3 and lines[0]["kind"] == "romecore.tournament"
    for d in games:
        VALIDATOR.validate(d)
        tags = d["tags"]
        assert tags["game"] == GAMES[0] and tags["options"]["players"] == 2
        assert tags["romecore"] == romecore.__version__ and tags["date"] in _today_utc()
        assert tags["time_control"] == {"move_time_limit": 30.0}
        lineup = d["meta"]["lineup"]
        roster = ["random#1", "greedy", "random#2"]  # the table's labels, spelled out
        assert [(a["seat"], a["label"]) for a in tags["agents"]] == [(s, roster[a]) for s, a in enumerate(lineup)]
        assert [a["spec"] for a in tags["agents"]] == [roster[a].split("#")[0] for a in lineup]
        assert tags["termination"] == {"kind": "normal"}
        final = _check_texts(d)
        assert final.is_terminal() and tags["result"] == {"returns": final.returns(), "scores": final.scores()}
    assert [r.agent for r in res.rows] == ["random#1", "greedy", "random#2"]
    for i, rec in enumerate(records.read(out)):
        records.replay(rec, game=i)
    res = CliRunner().invoke(romecore_cli(), ["replay", str(out), "--check"])
    assert res.exit_code == 0 and "3 of 3 records replay" in res.output


def test_the_text_hook_gives_the_texts_a_replay_gives(sample):
    recs, _ = sample
    rec = recs[0]
    game = romecore.load_game(rec.game_id, **rec.options)
    hook = records.MoveTexts()
    again = play_game(game, [romecore.make_agent("random", game=game, seed=i) for i in range(len(rec.agents))],
                      rec.seed, on_step=hook)
    assert hook.texts and again.actions == rec.actions
    assert hook.texts == dataclasses.replace(rec, texts=[]).move_texts()


def test_play_out_writes_a_record_that_validates(tmp_path):
    out = tmp_path / "me.jsonl"
    res = CliRunner().invoke(romecore_cli(), ["play", GAMES[0], "-p", "2", "--seed", "5", "-a", "random",
                                              "--out", str(out)], input="#0\n" * 3000)
    assert res.exit_code == 0, res.output[-2000:]
    (d,) = [json.loads(line) for line in out.read_text().splitlines()]
    VALIDATOR.validate(d)
    assert [a["spec"] for a in d["tags"]["agents"]] == ["human", "random"]
    assert d["tags"]["termination"] == {"kind": "normal"} and d["tags"]["date"] in _today_utc()
    assert _check_texts(d).is_terminal()
    records.replay(records.read(out)[0])


def test_format1_records_are_still_read_and_replay(tmp_path):
    old = records.read(DATA / "records-v1.jsonl")  # its header line is skipped
    assert old == records.read(DATA / "records-v1.msgpack")
    # what the fixture holds, written out: a finished City of Marble game and a Rise to
    # Power game that seat 1 forfeited at its third move
    assert [(r.game_id, r.seed, len(r.actions)) for r in old] == [("city_of_marble", 11, 177),
                                                                  ("rise_to_power", 12, 31)]
    assert old[0].returns == [0.0, 1.0] and old[1].returns == [0.5, 0.0, 0.5]
    assert old[1].forfeit["seat"] == 1 and old[0].meta["index"] == 0
    assert all(r.date is None and r.romecore_version is None and r.texts == [] for r in old)
    for i, rec in enumerate(old):
        records.replay(rec, game=i)
    path = tmp_path / "v2.jsonl"
    records.write(path, old)  # written again: format 2, the texts recomputed
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for d in lines:
        VALIDATOR.validate(d)
        assert d["format"] == 2 and "date" not in d["tags"] and "romecore" not in d["tags"]
        _check_texts(d)
    assert lines[1]["tags"]["termination"]["kind"] == "forfeit"
    assert records.read(path) == old
    res = CliRunner().invoke(romecore_cli(), ["replay", str(DATA / "records-v1.jsonl"), "--check"])
    assert res.exit_code == 0 and "2 of 2 records replay" in res.output


def test_replay_shows_the_move_texts(tmp_path):
    rec = _play(GAMES[0], 8, players=2)
    rec.move_texts()
    path = tmp_path / "g.jsonl"
    records.write(path, [rec])
    res = CliRunner().invoke(romecore_cli(), ["replay", str(path), "--no-step"])
    assert res.exit_code == 0, res.output
    for n, (p, text) in enumerate(zip(rec.players, rec.texts), 1):
        who = "chance" if p < 0 else f"player {p}"
        assert f"\n{n}. {who}: {text}\n" in res.output
    assert f'[Game "{GAMES[0]}"]' in res.output and "reaches the recorded result" in res.output


def test_export_writes_a_readable_move_list(tmp_path):
    recs = [_play(GAMES[-1], 3, players=2), _play(GAMES[-1], 4, players=2)]
    path = tmp_path / "g.msgpack"
    records.write(path, recs)
    out = tmp_path / "game1.txt"
    res = CliRunner().invoke(export_command(), [str(path), "-n", "1", "-o", str(out)])
    assert res.exit_code == 0 and res.output == "", res.output
    head, _, body = out.read_text().partition("\n\n")
    tags = dict(line[1:-1].split(" ", 1) for line in head.splitlines())
    rec = recs[1]
    assert tags["Game"] == f'"{GAMES[-1]}"' and tags["Seed"] == '"4"' and tags["Termination"] == '"normal"'
    assert tags["Seat0"] == tags["Seat1"] == '"random"' and tags["Date"].strip('"') in _today_utc()
    assert tags["Returns"] == '"' + " ".join(f"{x:g}" for x in rec.returns) + '"'
    moves = body.splitlines()
    assert len(moves) == len(rec.actions)
    state = romecore.load_game(GAMES[-1], players=2).new_initial_state(seed=4)
    for n, (line, a, p) in enumerate(zip(moves, rec.actions, rec.players), 1):
        assert line == f"{n}. {'chance' if p < 0 else f'player {p}'}: {state.action_to_string(a)}"
        state.apply_action(a)
    res = CliRunner().invoke(export_command(), [str(path)])  # the first, to standard output
    assert res.exit_code == 0 and res.output.startswith(f'[Game "{GAMES[-1]}"]\n') and '[Seed "3"]' in res.output
    res = CliRunner().invoke(export_command(), [str(path), "--index", "2"])
    assert res.exit_code != 0 and "holds 2 records" in res.output
    res = CliRunner().invoke(export_command(), [str(DATA / "records-v1.jsonl"), "--index", "1"])
    assert res.exit_code == 0 and '[Termination "forfeit"]' in res.output and '[ForfeitSeat "1"]' in res.output
    assert len(res.output.partition("\n\n")[2].splitlines()) == 31  # the fixture's forfeited game
    res = CliRunner().invoke(export_command(), [str(tmp_path / "missing.jsonl")])
    assert res.exit_code != 0 and "cannot read" in res.output
    res = CliRunner().invoke(export_command(), [str(path), "-o", str(tmp_path / "no" / "x.txt")])
    assert res.exit_code != 0 and "cannot write" in res.output


def test_a_ladders_records_carry_its_budget_and_labels(tmp_path):
    from romecore.tournament.ladder import run_ladder

    game = romecore.load_game(GAMES[0], players=2)
    run_ladder(game, ["random", "random"], simulations=5, games_per_match=2, backend="inline",
               games_dir=str(tmp_path), bootstrap=0)
    (path,) = tmp_path.glob("*.jsonl")
    games = [json.loads(line) for line in path.read_text().splitlines()][1:]
    assert len(games) == 2
    for d in games:
        VALIDATOR.validate(d)
        assert d["tags"]["time_control"] == {"move_time_limit": 60.0, "budget": "5 simulations (or nodes) a move"}
        lineup = d["meta"]["lineup"]
        assert [a["label"] for a in d["tags"]["agents"]] == [["random#1", "random#2"][a] for a in lineup]
    assert [r.meta["index"] for r in records.read(path)] == [0, 1]


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6)


def _paths(d, prefix=""):
    """Every dotted path into a record's map (list items by index)."""
    items = d.items() if isinstance(d, dict) else enumerate(d) if isinstance(d, list) else ()
    for k, v in items:
        path = f"{prefix}{k}"
        yield path
        if not (isinstance(v, list) and len(v) > 4):  # a few items of the long lists
            yield from _paths(v, path + ".")
        else:
            yield from _paths(v[:2], path + ".")


_BASE_LINE = records.dumps_json(_play(GAMES[0], 2, players=2))


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_changed_field_is_refused_or_replays(data):
    """A format 2 record with any field replaced by any JSON value: the reader and replay
    raise RecordError or accept, never anything else."""
    d = json.loads(_BASE_LINE)
    for _ in range(data.draw(st.integers(1, 3))):
        d = _changed(d, data.draw(st.sampled_from(sorted(_paths(d)))), data.draw(_JSON | st.just(DELETE)))
        if not d:  # every field deleted
            break
    try:
        back = GameRecord.from_dict(d)
        records.replay(back)
        records.export_text(back)
    except RecordError:
        pass
