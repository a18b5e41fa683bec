"""Snapshot fuzzing, generic over every installed game.

Every blob below (random bytes, bit flips, truncations, extensions, other games' and other
options' snapshots) must either raise ``SerializationError`` or load a state that the
kernel's ``validate()`` accepted, and such a state must then be safe to use: every API
call works and the game runs to its end within ``max_game_length`` actions.  A crash
fails the run; a hang is turned into a failure by the faulthandler watchdog below.
"""

from __future__ import annotations

import faulthandler
import random
import sys
import warnings

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import romecore
from romecore import SerializationError

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAMES = romecore.list_games()
HANG_SECONDS = 120


@pytest.fixture(autouse=True)
def _watchdog():
    """Kills the test process with a traceback if one test hangs."""
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True, file=sys.stderr)
    yield
    faulthandler.cancel_dump_traceback_later()


def _games_with_options():
    """Every installed game at its minimum and maximum player counts."""
    out = []
    for game_id in GAMES:
        spec = romecore.plugins.registry.game(game_id)
        for n in sorted({spec.min_players, spec.max_players, spec.default_players}):
            out.append(romecore.load_game(game_id, players=n))
    return out


ALL_GAMES = _games_with_options()


def _sample_states(game, seed=1, count=6):
    """States along one random game: the start, a few middles and the end."""
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    path = [state.clone()]
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_random_chance()
        else:
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
        path.append(state.clone())
    picks = [path[0], path[-1]] + [path[(len(path) * k) // count] for k in range(1, count)]
    return picks


SAMPLES = {game: _sample_states(game) for game in ALL_GAMES}


def _blobs(game):
    out = []
    for s in SAMPLES[game]:
        out.append(s.serialize())
        out.append(s.serialize(history=True))
    return out


def _exercise(state):
    """Uses every read-only API of a loaded state, then plays it to the end."""
    game = state.game
    n = game.num_players()
    assert state.num_players() == n
    p = state.current_player()
    assert p in (romecore.CHANCE, romecore.TERMINAL) or 0 <= p < n
    legal = state.legal_actions()
    assert legal == sorted(legal)
    assert all(0 <= a < game.num_distinct_actions() for a in legal)
    assert len(legal) <= game.max_legal_actions()
    assert (not legal) == state.is_terminal()
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes and abs(sum(pr for _, pr in outcomes) - 1.0) < 1e-6
    for a in legal[:8]:
        assert isinstance(state.action_to_string(a), str)
    state.returns()
    state.scores()
    str(state)
    for q in range(n):
        state.observation(q)
        state.score_breakdown(q)
        state.information_state_string(q)
        r = state.resample(q, seed=q + 1)
        r.legal_actions()
    d = state.to_dict()
    try:  # the dict form is the game's own; here it only has to be safe
        game.state_from_dict(d).legal_actions()
    except SerializationError:
        pass
    again = game.deserialize(state.serialize(history=True))
    assert again == state and again.history() == state.history()
    # Play on to the end, in Python and in C: both must terminate.
    c = state.clone()
    rng = random.Random(7)
    for _ in range(game.max_game_length() + 1):
        if c.is_terminal():
            break
        acts = c.legal_actions()
        c.apply_action(acts[rng.randrange(len(acts))])
    assert c.is_terminal(), "a loaded state did not reach the end within max_game_length"
    state.clone().playout(seed=3)


def _load_or_reject(game, blob):
    """game.deserialize and romecore.deserialize must agree: both raise
    SerializationError, or both load an equal state."""
    try:
        state = game.deserialize(blob)
    except SerializationError:
        state = None
    try:
        anywhere = romecore.deserialize(blob)
    except SerializationError:
        anywhere = None
    if state is not None:
        assert anywhere is not None and anywhere == state
        _exercise(state)
    elif anywhere is not None:
        assert anywhere.game != game  # a valid blob of another game or options
        _exercise(anywhere)
    return state


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_own_snapshots_round_trip(game):
    for blob in _blobs(game):
        state = game.deserialize(blob)
        assert state.serialize(history=state.move_number() > 0) in (blob, state.serialize())
        _exercise(state)


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_every_truncation_is_rejected(game):
    for blob in _blobs(game)[:4]:
        for cut in range(len(blob)):
            with pytest.raises(SerializationError):
                game.deserialize(blob[:cut])
            with pytest.raises(SerializationError):
                romecore.deserialize(blob[:cut])


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_trailing_bytes_are_rejected(game):
    for blob in _blobs(game)[:4]:
        for tail in (b"\x00", b"\xc0", b"\xff" * 9, msgpack.packb([1, 2, 3])):
            with pytest.raises(SerializationError):
                game.deserialize(blob + tail)


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_every_single_bit_flip_in_the_struct(game):
    """Flipping any one bit of the packed struct: rejected, or a sound state."""
    for state in (SAMPLES[game][0], SAMPLES[game][3], SAMPLES[game][1]):  # start, middle, end
        blob = state.serialize()
        off = blob.find(state.state_bytes())
        assert off > 0
        loaded = 0
        for i in range(off, off + len(state.state_bytes())):
            for bit in range(8):
                b = bytearray(blob)
                b[i] ^= 1 << bit
                if _load_or_reject(game, bytes(b)) is not None:
                    loaded += 1
        assert loaded < 8 * len(state.state_bytes())  # validate() rejects something


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_bit_flips(game, data):
    blobs = _blobs(game)
    blob = bytearray(data.draw(st.sampled_from(blobs)))
    flips = data.draw(st.lists(st.integers(0, len(blob) * 8 - 1), min_size=1, max_size=12))
    for f in flips:
        blob[f // 8] ^= 1 << (f % 8)
    _load_or_reject(game, bytes(blob))


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_random_byte_overwrites(game, data):
    blob = bytearray(data.draw(st.sampled_from(_blobs(game))))
    at = data.draw(st.integers(0, len(blob) - 1))
    junk = data.draw(st.binary(min_size=1, max_size=16))
    blob[at:at + len(junk)] = junk
    _load_or_reject(game, bytes(blob))


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(blob=st.binary(max_size=2048))
def test_random_bytes(game, blob):
    _load_or_reject(game, blob)


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_random_bytes_behind_a_valid_header(game):
    """The envelope intact up to the struct, then noise of the right length: exercises
    validate() rather than the envelope checks."""
    rng = random.Random(11)
    state = SAMPLES[game][2]
    blob = state.serialize()
    sb = state.state_bytes()
    off = blob.find(sb)
    for _ in range(300):
        noise = bytes(rng.randrange(256) for _ in range(len(sb)))
        _load_or_reject(game, blob[:off] + noise + blob[off + len(sb):])


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_foreign_snapshots_are_rejected(game):
    """Snapshots of other games, and of this game with other options, never load as this
    game; romecore.deserialize loads them as what they are."""
    for other in ALL_GAMES:
        if other == game:
            continue
        for blob in _blobs(other):
            with pytest.raises(SerializationError):
                game.deserialize(blob)
            assert romecore.deserialize(blob).game == other


@pytest.mark.parametrize("game", ALL_GAMES, ids=repr)
def test_envelope_fields_of_the_wrong_type(game):
    blob = SAMPLES[game][2].serialize(history=True)
    fields = msgpack.unpackb(blob, raw=False)
    assert len(fields) == 8
    bad_values = [None, True, -1, 2**63, 1.5, "x", b"x", [], {}, [1], {"a": 1}]
    for i in range(8):
        for v in bad_values:
            f = list(fields)
            f[i] = v
            _load_or_reject(game, msgpack.packb(f, use_bin_type=True))
    for f in (fields[:7], fields + [None], {"a": fields}, [fields]):
        with pytest.raises(SerializationError):
            game.deserialize(msgpack.packb(f, use_bin_type=True))


def test_non_bytes_are_rejected():
    game = ALL_GAMES[0]
    for v in (None, 1, "romecore", [], bytearray(b"\x98"), memoryview(b"")):
        with pytest.raises(SerializationError):
            game.deserialize(v)
        with pytest.raises(SerializationError):
            romecore.deserialize(v)
