"""The web app in a real browser (Debian's headless chromium through selenium): one whole
2-player game of every game against random, played by clicking in the page, whose shown
result is the saved record's; bad input sent from the page is refused with a clear error."""

from __future__ import annotations

import random
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="the web app needs romecore[web] (starlette, uvicorn)")

import romecore  # noqa: E402
from romecore import records  # noqa: E402
from romecore.web import browser  # noqa: E402
from romecore.web.app import create_app  # noqa: E402

why = browser.missing()
pytestmark = pytest.mark.skipif(why is not None, reason=f"no browser: {why}")

GAMES = sorted(romecore.list_games())


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("records")
    app = create_app(records_dir=str(folder), hint="random", delay=0)
    with browser.serve_in_thread(app) as url:
        yield url, folder, app


@pytest.fixture(scope="module")
def driver():
    with browser.chromium() as d:
        yield d


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_clicked_in_the_page_ends_as_its_record_says(server, driver, game_id):
    url, folder, app = server
    seed = 100 + GAMES.index(game_id)
    browser.start_game(driver, url, game_id, seed=seed)
    clicks = browser.play_random(driver, random.Random(seed))
    shown = browser.result(driver)
    game = driver.execute_script("return document.body.dataset.game")
    [path] = folder.glob(f"{game_id}-{game}.jsonl")
    [rec] = records.read(path)
    assert shown["shown"] and shown["returns"] == rec.returns and shown["scores"] == list(rec.scores)
    assert all(f"P{p} {s}" in shown["scores_text"] for p, s in enumerate(rec.scores))
    won = rec.returns[0] == max(rec.returns)
    assert shown["verdict"].startswith("You") and ("lose" in shown["verdict"]) != won
    assert rec.agents == ["human", "random"] and rec.seed == seed
    assert rec.moves[0] == clicks["list"] + clicks["board"] > 0
    final = records.replay(rec)  # the record replays to the result shown
    assert final.returns() == shown["returns"]
    with urllib.request.urlopen(shown["record"]) as r:  # the page's download link
        assert records.loads_json(r.read()).actions == rec.actions


def test_bad_input_from_the_page_shows_an_error_and_changes_nothing(server, driver):
    url, folder, app = server
    browser.start_game(driver, url, "glory_to_rome", seed=7)
    turn = browser.wait_turn(driver)
    game = driver.execute_script("return document.body.dataset.game")
    session = app.state.sessions.games[game]
    before = session.state.serialize()
    forged = next(a for a in range(10000) if not session.state.is_legal(a))
    cases = [
        (f'{{"type": "move", "game": "{game}", "action": {forged}, "ply": {turn["ply"]}}}', "illegal"),
        (f'{{"type": "move", "game": "{game}", "action": 0, "ply": {turn["ply"] - 1}}}', "stale"),
        (f'{{"type": "move", "game": "{"0" * 32}", "action": 0}}', "unknown_game"),
        ('{"type": "move", "game": ', "malformed"),
    ]
    for i, (text, code) in enumerate(cases):
        driver.execute_script("socket.send(arguments[0])", text)
        shown = browser._wait(driver, f"Number(document.body.dataset.errors || 0) > {i} && "
                                      "document.getElementById('error').textContent", 10)
        assert f"refused ({code})" in shown and driver.find_element("id", "error").is_displayed()
        assert session.state.serialize() == before
    # an unknown game sends the page back to the set-up form; the game itself goes on
    driver.execute_script("location.hash = '#' + arguments[0]; location.reload()", game)
    again = browser.wait_turn(driver)
    assert again["ply"] == turn["ply"]
    browser.play_random(driver, random.Random(1), max_moves=3)
    assert session.ply() > turn["ply"]
