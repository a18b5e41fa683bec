"""Tables with friends in real browsers (issue 55): two chromium sessions play a whole
2-player game of each game against each other through the host's invitation link, by
clicking the board; a third watches through the watch link and is shown only the public
view (equal in every world resampled from any seat's knowledge); in the middle the server
is killed with SIGKILL and started again on the same database, the pages reload and
rejoin with the tokens they kept, and the game is finished.  A 3-player table with an AI
seat plays to its end too."""

from __future__ import annotations

import json
import random
import time

import pytest

pytest.importorskip("uvicorn", reason="the web app needs romecore[web]")

import browser_support as browser  # noqa: E402

import romecore  # noqa: E402
from romecore import records  # noqa: E402
from romecore.picture import PUBLIC, to_svg  # noqa: E402

why = browser.missing()
pytestmark = pytest.mark.skipif(why is not None, reason=f"no browser: {why}")

GAMES = sorted(romecore.list_games())


@pytest.fixture(scope="module")
def drivers():
    with browser.chromium() as a, browser.chromium() as b, browser.chromium() as c:
        yield a, b, c


def _link(driver, label):
    return browser._wait(driver, f"(document.querySelector('#invites input[data-link=\"{label}\"]') || {{}}).value", 20)


def _play(players, rng, until_ply=None, timeout=300.0):
    """Each page plays its own turns by clicking the board, until the game ends (or it
    reaches ``until_ply``)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        over = True
        for d in players:
            state = d.execute_script("return current && {ply: current.ply, over: current.over}")
            over = over and bool(state and state["over"])
            if until_ply is not None and state and state["ply"] >= until_ply:
                return
            turn = browser.my_turn(d)
            if turn is not None:
                browser.click_move(d, rng.choice(turn["moves"]), turn["ply"])
        if over:
            return
        time.sleep(0.01)
    raise AssertionError("the game did not end in time")


def _rejoin(driver):
    driver.refresh()
    browser._wait(driver, "current && document.getElementById('status').textContent.length > 0", 30)


@pytest.mark.parametrize("game_id", GAMES)
def test_two_friends_and_a_spectator_through_a_server_killed_mid_game(drivers, tmp_path, game_id):
    host, friend, watcher = drivers
    server = browser.ServerProcess(tmp_path / "tables.db", tmp_path / "records").start()
    rng = random.Random(GAMES.index(game_id))
    try:
        browser.start_game(host, server.url, game_id, friends=(1,), seed=60 + GAMES.index(game_id))
        friend.get(_link(host, "Invite P1"))
        watcher.get(_link(host, "Watch"))
        browser._wait(friend, "current && current.seat === 1 && !!current.token", 20)
        browser._wait(watcher, "current && current.seat === null", 20)
        tokens = [d.execute_script("return current.token") for d in (host, friend)]
        assert tokens[0] != tokens[1] and not watcher.execute_script("return current.token")
        _play([host, friend], rng, until_ply=25)
        seen = watcher.execute_script("return current && {ply: current.ply, svg: current.svg}")
        server.kill()
        server.start()
        for d in (host, friend, watcher):
            _rejoin(d)
        assert [d.execute_script("return current.seat") for d in (host, friend, watcher)] == [0, 1, None]
        _play([host, friend], rng)
        for d in (host, friend, watcher):
            browser._wait(d, "current && current.over", 30)
        [path] = (tmp_path / "records").glob("*.jsonl")
        [rec] = records.read(path)
        assert rec.agents == ["human", "human"]
        final = records.replay(rec)  # the record of the interrupted game replays move for move
        assert final.returns() == rec.returns == json.loads(host.find_element("id", "result")
                                                            .get_attribute("data-returns"))
        # the spectator saw the public view: the same in every world any seat could imagine
        state = romecore.load_game(game_id, players=2).new_initial_state(seed=rec.seed)
        for a in rec.actions[:seen["ply"]]:
            state.apply_action(state.sample_chance() if state.is_chance_node() else a)
        assert seen["svg"] == to_svg(state, PUBLIC)
        for q in range(2):
            for s in (1, 2):
                assert to_svg(state.resample(q, seed=s), PUBLIC) == seen["svg"]
    finally:
        server.stop()


def test_a_three_player_table_with_an_ai_seat_plays_to_the_end(drivers, tmp_path):
    host, friend, _ = drivers
    server = browser.ServerProcess(tmp_path / "tables.db", tmp_path / "records").start()
    try:
        browser.start_game(host, server.url, "rise_to_power", players=3, friends=(2,), level="Beginner", seed=9)
        friend.get(_link(host, "Invite P2"))
        browser._wait(friend, "current && current.seat === 2", 20)
        _play([host, friend], random.Random(9))
        [rec] = records.read(next((tmp_path / "records").glob("*.jsonl")))
        assert rec.agents[0] == rec.agents[2] == "human" and rec.labels[1] == "Beginner"
        assert records.replay(rec).returns() == rec.returns
    finally:
        server.stop()
