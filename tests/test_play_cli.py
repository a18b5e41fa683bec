"""``romecore play``: a whole game of every game against random, fed by input lines, with
the saved record as the oracle: every screen is the seat's own drawing of the world it
was handed (a resample of the true state from its knowledge, so even a drawing that
shows too much cannot show the truth; never the whole truth), scores appear only at the
end, each move is echoed, and menu numbers never stand for action ids."""

from __future__ import annotations

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
    assert rec.forfeit["seat"] == 0 and rec.returns == [0.0, 1.0]
    replayed = CliRunner().invoke(main, ["replay", str(out), "--no-step"])
    assert replayed.exit_code == 0, replayed.output
    assert "forfeit:" in replayed.output and "reaches the recorded result" in replayed.output


def test_play_out_into_a_missing_folder_is_refused_before_playing(tmp_path):
    res = CliRunner().invoke(main, ["play", "-p", "2", "--out", str(tmp_path / "no" / "g.jsonl")],
                             input="#0\n")
    assert res.exit_code == 1 and "cannot write" in res.output and PROMPT not in res.output
