"""Bad input from Python: every kind raises the named romecore error, with a message that
says what was wrong, and leaves the state exactly as it was."""

from __future__ import annotations

import pytest

import romecore


def _mid_game(game, seed=3, steps=40):
    """A live state some way into a game (never a terminal one)."""
    s = game.new_initial_state(seed=seed)
    for _ in range(steps):
        nxt = s.clone()
        nxt.apply_random_chance() if nxt.is_chance_node() else nxt.apply_action(nxt.legal_actions()[-1])
        if nxt.is_terminal():
            break
        s = nxt
    return s


@pytest.mark.parametrize("bad", [-1, 10**20, -(10**20), "abc", 1.5, None, [1], b"\x01"])
def test_illegal_action_values_raise_and_change_nothing(game, bad):
    s = _mid_game(game)
    before, hist = s.state_bytes(), s.history()
    with pytest.raises(romecore.IllegalActionError) as info:
        s.apply_action(bad)
    assert str(bad)[:10] in str(info.value) or type(bad).__name__ in str(info.value)
    assert s.state_bytes() == before and s.history() == hist


def test_out_of_range_and_wrong_phase_actions_name_the_action(game):
    s = _mid_game(game)
    legal = set(s.legal_actions())
    n = game.num_distinct_actions()
    with pytest.raises(romecore.IllegalActionError, match=f"action {n}: out of range"):
        s.apply_action(n)
    bad = next(a for a in range(n) if a not in legal)
    before = s.state_bytes()
    with pytest.raises(romecore.IllegalActionError, match=f"action {bad} \\(.*\\) is not legal"):
        s.apply_action(bad)
    assert s.state_bytes() == before


def test_actions_after_the_end(game):
    s = game.new_initial_state(seed=1)
    s.playout(1)
    before = s.state_bytes()
    for a in (0, 1, game.num_distinct_actions() - 1):
        with pytest.raises(romecore.IllegalActionError, match="game is over"):
            s.apply_action(a)
    with pytest.raises(romecore.IllegalActionError):
        s.apply_random_chance()
    assert s.state_bytes() == before


def test_chance_helpers_refuse_player_nodes(game):
    s = _mid_game(game)
    while s.is_chance_node():
        s.apply_random_chance()
    if not s.is_terminal():
        with pytest.raises(romecore.IllegalActionError, match="not a chance node"):
            s.apply_random_chance()


def test_string_to_action_errors(game):
    s = _mid_game(game)
    with pytest.raises(romecore.IllegalActionError, match="no legal action"):
        s.string_to_action("fly to the moon")
    with pytest.raises(romecore.IllegalActionError):
        s.string_to_action("")
    with pytest.raises(romecore.IllegalActionError):
        s.string_to_action(42)  # not a str
    a = s.legal_actions()[0]
    assert s.string_to_action(s.action_to_string(a)) == a
    assert s.string_to_action(str(a)) == a


def test_player_arguments_are_checked(game):
    s = _mid_game(game)
    n = game.num_players()
    for bad in (-1, n, 99):
        with pytest.raises(ValueError, match="out of range"):
            s.observation(bad)
        with pytest.raises(ValueError):
            s.resample(bad, seed=1)
    with pytest.raises(TypeError):
        s.observation("0")


def test_bad_game_options(game):
    gid = game.game_id
    spec = romecore.plugins.registry.game(gid)
    with pytest.raises(romecore.GameOptionError, match="players"):
        romecore.load_game(gid, players=spec.max_players + 1)
    with pytest.raises(romecore.GameOptionError, match="players"):
        romecore.load_game(gid, players=spec.min_players - 1)
    with pytest.raises(romecore.GameOptionError, match="int"):
        romecore.load_game(gid, players="many")
    with pytest.raises(romecore.GameOptionError, match="no option 'colour'"):
        romecore.load_game(gid, colour="red")


def test_unknown_game_and_agent():
    with pytest.raises(romecore.UnknownGameError, match="no game 'chess'"):
        romecore.load_game("chess")
    with pytest.raises(romecore.UnknownGameError):
        romecore.load_game(7)
    g = romecore.load_game("great_city_of_rome")
    with pytest.raises(romecore.AgentSpecError, match="no agent"):
        romecore.make_agent("deep_blue", game=g)
    with pytest.raises(romecore.AgentSpecError, match="no parameter"):
        romecore.make_agent("random:depth=3", game=g)
    with pytest.raises(romecore.AgentSpecError, match="key=value"):
        romecore.make_agent("random:depth", game=g)


def test_corrupt_snapshots(game):
    s = _mid_game(game)
    blob = s.serialize()
    for bad in (b"", b"\x00", blob[:-1], blob[: len(blob) // 2], b"\x93\x01\x02\x03", blob + b"\x00",
                blob.replace(b"romecore", b"romecorf", 1)):
        with pytest.raises(romecore.SerializationError):
            game.deserialize(bad)
    with pytest.raises(romecore.SerializationError):
        game.deserialize("not bytes")
    with pytest.raises(romecore.SerializationError):
        romecore.deserialize(b"\xc1")
    # a snapshot of the same game with other options is refused
    spec = romecore.plugins.registry.game(game.game_id)
    other_n = spec.min_players if game.num_players() != spec.min_players else spec.max_players
    if other_n != game.num_players():
        other = romecore.load_game(game.game_id, players=other_n)
        with pytest.raises(romecore.SerializationError, match="options"):
            other.deserialize(blob)
    assert romecore.deserialize(blob) == s


def test_bad_dicts(game):
    with pytest.raises(romecore.SerializationError):
        game.state_from_dict([1, 2])
    with pytest.raises(romecore.SerializationError, match="game"):
        game.state_from_dict({"game": "chess"})
    d = _mid_game(game).to_dict()
    d["phase"] = "nonsense"
    with pytest.raises(romecore.SerializationError):
        game.state_from_dict(d)


def test_states_cannot_be_constructed_directly():
    with pytest.raises(TypeError):
        romecore.State()
