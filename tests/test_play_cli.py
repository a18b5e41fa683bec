"""``romecore play``: a whole game of every game against random, fed by input lines, with
the saved record as the oracle: every screen is the seat's own drawing of the world it
was handed (a resample of the true state from its knowledge, so even a drawing that
shows too much cannot show the truth; never the whole truth), scores appear only at the
end, each move is echoed, and menu numbers never stand for action ids."""

from __future__ import annotations

import json
import warnings

import pytest
from click.testing import CliRunner

import romecore
from romecore import records
from romecore.cli import main
from romecore.cli.play import PROMPT, parse_move
from romecore.match import view_seed

warnings.filterwarnings("ignore", category=RuntimeWarning)  # plugins still to come
GAMES = romecore.list_games()


def _play(*args, input):
    return CliRunner().invoke(main, ["play", *args], input=input, catch_exceptions=False)


def _check_screens(output: str, rec: records.GameRecord, seat: int) -> None:
    """Replays the record; at each of the seat's turns the screen printed next must be
    ``render(seat)`` of the seat's view of the true state then (equal to the truth's own
    ``render(seat)`` wherever a game's drawing is honest), and the whole-truth drawing
    must not be printed where it shows more."""
    r = records.Replayer(rec)
    pos = mine = theirs = 0
    while not r.done():
        player = rec.players[r.index]
        if player == seat:
            mine += 1
            view = r.state.resample(seat, view_seed(rec.seed, r.state.move_number()))
            screen = view.render(seat)
            found = output.find(screen, pos)
            assert found >= 0, f"move {r.index}: the seat's drawing is not on screen"
            pos = found + len(screen)
            truth = r.state.render(None)
            if truth != screen:
                assert truth not in output, f"move {r.index}: the whole truth was drawn"
            assert rec.actions[r.index] == r.state.legal_actions()[0]  # '#0' was the first item
        elif player != records.CHANCE_PLAYER:
            theirs += 1
        r.step()
    assert output.count("\nyou: ") == mine > 0
    assert output.count(f"\nplayer {1 - seat}: ") == theirs > 0
    final = r.state
    assert final.is_terminal()
    assert output.count("final scores") == 1
    assert output.index("final scores") > output.rindex(PROMPT)  # only once it is over
    assert f"final scores {final.scores()}" in output


@pytest.mark.parametrize("game_id", GAMES)
def test_play_every_game_to_the_end(game_id, tmp_path):
    out = tmp_path / "game.jsonl"
    res = _play(game_id, "-p", "2", "--seed", "11", "-a", "random", "--out", str(out),
                input="#0\n" * 5000)
    assert res.exit_code == 0, res.output[-2000:]
    (rec,) = records.read(out)
    assert rec.finished() and rec.forfeit is None and rec.agents == ["human", "random"]
    _check_screens(res.output, rec, 0)
    replayed = CliRunner().invoke(main, ["replay", str(out), "--no-step"])
    assert replayed.exit_code == 0 and "reaches the recorded result" in replayed.output


def test_play_from_the_second_seat_by_bare_numbers(tmp_path):
    out = tmp_path / "game.msgpack"
    res = _play("great_city_of_rome", "-p", "2", "--seat", "1", "--seed", "4", "-a", "random",
                "--out", str(out), input="0\n" * 1000)
    assert res.exit_code == 0, res.output[-2000:]
    (rec,) = records.read(out)
    assert rec.agents == ["random", "human"]
    _check_screens(res.output, rec, 1)


def test_play_meets_the_strongest_agent_by_default(tmp_path):
    out = tmp_path / "game.jsonl"
    res = _play("rise_to_power", "-p", "2", "--seed", "2", "--out", str(out), input="q\n")
    assert res.exit_code == 0, res.output[-2000:]
    (rec,) = records.read(out)
    assert rec.agents == ["human", "ismcts:time=0.5"]


def test_menu_numbers_and_action_ids_do_not_collide():
    game = romecore.load_game("great_city_of_rome", players=2)
    state = game.new_initial_state(seed=3)
    state.resolve_chance()
    legal = state.legal_actions()
    assert len(legal) >= 2 and min(legal) >= len(legal)  # ids are not menu numbers here
    assert parse_move(state, legal, "1") == parse_move(state, legal, "# 1") == legal[1]
    assert parse_move(state, legal, f"id:{legal[1]}") == legal[1]
    assert parse_move(state, legal, "?") is None and parse_move(state, legal, "") is None
    assert parse_move(state, legal, state.action_to_string(legal[1])) == legal[1]
    with pytest.raises(romecore.IllegalActionError, match="no menu item"):
        parse_move(state, legal, str(legal[0]))  # a bare id is a menu number, out of range
    with pytest.raises(romecore.IllegalActionError):
        parse_move(state, legal, "id:0")  # an id, but not a legal one
    with pytest.raises(romecore.IllegalActionError):
        parse_move(state, legal, "id:x")


def test_bad_input_reprompts_and_quitting_resigns(tmp_path):
    out = tmp_path / "resigned.jsonl"
    res = _play("great_city_of_rome", "-p", "2", "--seed", "3", "--out", str(out),
                input="fly\n999\nid:0\n?\n#0\nq\n")
    assert res.exit_code == 0, res.output
    assert "no legal action is named 'fly'" in res.output and "no menu item 999" in res.output
    assert "you: " in res.output and "you resign" in res.output and "final scores" not in res.output
    (rec,) = records.read(out)
    assert rec.resigned == 0 and rec.returns == [0.0, 1.0]
    line = json.loads(out.read_text())
    assert line["tags"]["termination"] == {"kind": "resigned", "seat": 0}  # no exception quoted
    replayed = CliRunner().invoke(main, ["replay", str(out), "--no-step"])
    assert replayed.exit_code == 0, replayed.output
    assert "resigned: player 0" in replayed.output and "reaches the recorded result" in replayed.output
    assert "raised Resigned" not in replayed.output and "forfeit" not in replayed.output


def test_play_out_into_a_missing_folder_is_refused_before_playing(tmp_path):
    res = CliRunner().invoke(main, ["play", "-p", "2", "--out", str(tmp_path / "no" / "g.jsonl")],
                             input="#0\n")
    assert res.exit_code == 1 and "cannot write" in res.output and PROMPT not in res.output


# -- hint, undo and the view-only screen ------------------------------------------------------
def _first_decision(rec: records.GameRecord, seat: int) -> records.Replayer:
    """The record replayed up to the seat's first decision (the end, if it resigned there)."""
    r = records.Replayer(rec)
    while not r.done() and rec.players[r.index] != seat:
        r.step()
    assert r.state.current_player() == seat
    return r


def test_hint_names_what_ismcts_plays_from_the_view_alone(tmp_path):
    out = tmp_path / "game.jsonl"
    spec = "ismcts:simulations=40"
    res = _play("great_city_of_rome", "-p", "2", "--seed", "6", "-a", "random", "--hint", spec,
                "--out", str(out), input="hint\nq\n")
    assert res.exit_code == 0, res.output
    (rec,) = records.read(out)
    r = _first_decision(rec, 0)
    view = r.state.resample(0, view_seed(rec.seed, r.state.move_number()))
    game = r.state.game
    want = romecore.make_agent(spec, game=game, seed=1).step(view.clone())
    item = r.state.legal_actions().index(want)
    assert f"hint ({spec}): #{item} {r.state.action_to_string(want)}" in res.output
    assert res.output.index("hint (") > res.output.index(PROMPT)  # asked at the prompt


def test_undo_goes_back_to_the_previous_decision_and_deals_nothing_anew(tmp_path):
    plain, undone = tmp_path / "plain.jsonl", tmp_path / "undone.jsonl"
    args = ("great_city_of_rome", "-p", "2", "--seed", "3", "-a", "random")
    first = _play(*args, "--out", str(plain), input="#0\nq\n")
    (base,) = records.read(plain)
    mine = [i for i, p in enumerate(base.players) if p == 0]
    assert len(mine) == 1  # the resignation came at the second decision
    res = _play(*args, "--out", str(undone), input="undo\n#0\nundo\n#1\nq\n")
    assert res.exit_code == 0, res.output
    assert "nothing to undo" in res.output  # at the first decision there is none
    assert f"undo: back to your move before '{base.texts[mine[0]]}'" in res.output
    (rec,) = records.read(undone)
    k = mine[0]
    assert rec.actions[:k] == base.actions[:k] and rec.players[:k] == base.players[:k]  # the same deal
    r = _first_decision(rec, 0)
    assert rec.actions[k] == r.state.legal_actions()[1] != base.actions[k]  # the decision taken back
    # the screen of that decision is drawn again, and the moves echoed once each
    screen = r.state.resample(0, view_seed(rec.seed, r.state.move_number())).render(0)
    assert res.output.count(screen) == first.output.count(screen) + 1
    assert res.output.count("\nyou: ") == 2
    assert rec.forfeit["seat"] == 0
    replayed = CliRunner().invoke(main, ["replay", str(undone), "--no-step"])
    assert replayed.exit_code == 0 and "reaches the recorded result" in replayed.output


@pytest.mark.parametrize("game_id", GAMES)
def test_the_screen_is_the_same_in_every_world_the_seat_cannot_tell_apart(game_id):
    """The Glory to Rome case of the issue (scores that depend on hidden vaults), checked in
    every game: two worlds that resample makes from a seat's knowledge draw the same
    screen for that seat, at states along a random game."""
    import random

    game = romecore.load_game(game_id, players=3)
    st = game.new_initial_state(seed=8)
    rng = random.Random(8)
    checked = 0
    while not st.is_terminal():
        if len(st.history()) % 9 == 0:
            for p in range(3):
                a = st.resample(p, seed=1).render(p)
                assert a == st.resample(p, seed=2).render(p) == st.render(p)
                checked += 1
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    assert checked > 10
