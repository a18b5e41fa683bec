"""The web app in a real browser (Debian's headless chromium through selenium), played as a
person plays it: a whole 2-player game of every game against the Beginner level **by
clicking the board** (the move list hidden; the prompt bar only for moves that name no
place), the last-move highlights checked as the AI moves, and the end summary checked
against the record and ``score_breakdown``.  With ``ROMECORE_SCREENSHOTS=DIR`` the game
tests also save DIR/<game>.png (mid-game) and DIR/<game>-end.png (``scripts/screenshots.py``)."""

from __future__ import annotations

import os
import random
import urllib.request

import pytest

pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="the web app needs romecore[web] (starlette, uvicorn)")

import browser_support as browser  # noqa: E402

import romecore  # noqa: E402
from romecore import records  # noqa: E402
from romecore.plugins import registry  # noqa: E402
from romecore.web.app import create_app  # noqa: E402

why = browser.missing()
pytestmark = pytest.mark.skipif(why is not None, reason=f"no browser: {why}")

GAMES = sorted(romecore.list_games())
#: The human's move after which the mid-game screenshot is taken.
SHOT_AT = {"great_city_of_rome": 14, "city_of_marble": 16, "rise_to_power": 8, "glory_to_rome": 20}


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


def _shot(driver, name):
    folder = os.environ.get("ROMECORE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        driver.save_screenshot(os.path.join(folder, name))


def _last_marks(driver):
    """For each board element marked as a player's last move: (key, player)."""
    return driver.execute_script("""
        return Array.from(document.querySelectorAll('#board [data-target].last'))
            .map((e) => [e.dataset.target, Number(e.dataset.lastPlayer)]);""")


@pytest.mark.parametrize("game_id", GAMES)
def test_a_whole_game_played_by_board_clicks_against_beginner(server, driver, game_id):
    url, folder, app = server
    seed = 100 + GAMES.index(game_id)
    browser.start_game(driver, url, game_id, level="Beginner", seed=seed)
    driver.execute_script("document.getElementById('moves-panel').hidden = true")  # no move list
    checked = {"last": 0}
    session = None

    def on_turn(turn):
        nonlocal session
        assert not driver.find_element("id", "moves-panel").is_displayed()
        session = app.state.sessions.games[driver.execute_script("return document.body.dataset.game")]
        # the last move of each player the seat saw is marked on the board, by its keys
        last = {}
        for e in session._log(0):
            if isinstance(e["player"], int):
                last[e["player"]] = e.get("keys", [])
        shown = _last_marks(driver)
        present = set(driver.execute_script(
            "return Array.from(document.querySelectorAll('#board [data-target]')).map((e) => e.dataset.target)"))
        for p, keys in last.items():
            for k in keys:
                if k in present:
                    assert any(key == k for key, _ in shown), (p, k, shown)
                    checked["last"] += 1
        if len(session.actions) and session.players.count(0) == SHOT_AT[game_id]:
            _shot(driver, f"{game_id}.png")

    chosen = browser.play_by_clicks(driver, random.Random(seed), on_turn=on_turn)
    shown = browser.result(driver)
    _shot(driver, f"{game_id}-end.png")
    game = driver.execute_script("return document.body.dataset.game")
    [path] = folder.glob(f"{game_id}-{game}.jsonl")
    [rec] = records.read(path)
    assert rec.agents[0] == "human" and rec.labels[1] == "Beginner" and rec.seed == seed
    assert [a for a, p in zip(rec.actions, rec.players) if p == 0] == chosen  # each click played what was meant
    assert checked["last"] > 0
    # the end explained, against the record and the rules' own breakdown
    final = records.replay(rec)
    assert shown["shown"] and shown["returns"] == rec.returns == final.returns()
    assert shown["scores"] == list(rec.scores)
    assert shown["winners"] == [p for p in range(2) if rec.returns[p] == max(rec.returns)]
    for p in range(2):
        truth = final.score_breakdown(p)
        for cat, cells in shown["breakdown"].items():
            want = truth["total"] if cat == "total" else truth[cat.replace(" ", "_")]
            assert cells[p] == str(want), (cat, p, cells, truth)
    won = 0 in shown["winners"]
    assert shown["verdict"].startswith("You won" if won and len(shown["winners"]) == 1 else
                                       "You share" if won else "You lost")
    assert f"{rec.scores[0]}–{rec.scores[1]}" in shown["verdict"]
    assert "played to its end" in shown["why"]
    # every hidden card revealed: the board is now the whole truth
    assert "the whole truth" in driver.find_element("id", "board").text
    with urllib.request.urlopen(browser.result(driver)["record"]) as r:  # the page's download link
        assert records.loads_json(r.read()).actions == rec.actions
    # a finished game stays finished
    assert not driver.find_element("id", "undo").is_enabled() and not driver.find_element("id", "hint").is_enabled()


def test_start_page_shows_no_table_and_a_stray_hint_breaks_nothing(server, driver):
    url, folder, app = server
    driver.get(url)
    browser._wait(driver, "document.querySelector('.game-card') !== null", 20)
    assert not driver.find_element("id", "play").is_displayed()  # the table stays hidden
    assert len(driver.find_elements("css selector", ".game-card")) == len(GAMES)
    driver.execute_script("document.getElementById('hint').click()")  # no game yet
    assert driver.find_element("id", "hint-text").text == ""
    errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "favicon" not in e["message"]]
    assert errors == []


def test_a_rules_primer_is_one_click_from_the_table(server, driver):
    url, folder, app = server
    for game_id in GAMES:
        with urllib.request.urlopen(url + f"rules/{game_id}") as r:
            page = r.read().decode()
        assert "<h2" in page and registry.game(game_id).name in page


def test_log_numbers_past_one_hundred_keep_their_digits(server, driver):
    url, folder, app = server
    browser.start_game(driver, url, "glory_to_rome", level="Beginner", seed=5)
    browser.play_by_clicks(driver, random.Random(5), max_moves=40)
    nums = driver.execute_script("""
        const log = document.getElementById('log').getBoundingClientRect();
        return Array.from(document.querySelectorAll('#log .entry')).map((e) => {
            const n = e.querySelector('.num'); const r = n.getBoundingClientRect();
            return [Number(e.dataset.ply), n.textContent, r.left >= log.left - 0.5, n.scrollWidth <= n.clientWidth + 1];
        });""")
    big = [n for n in nums if n[0] >= 100]
    assert big, "the game never reached move 100"
    for ply, text, inside, whole in big:
        assert text == f"{ply}." and inside and whole


def test_bad_input_from_the_page_shows_an_error_and_changes_nothing(server, driver):
    url, folder, app = server
    browser.start_game(driver, url, "glory_to_rome", seed=7)
    turn = browser.wait_turn(driver)
    game = driver.execute_script("return document.body.dataset.game")
    session = app.state.sessions.games[game]
    before = session.state.serialize()
    forged = next(a for a in range(10000) if not session.state.is_legal(a))
    token = driver.execute_script("return current.token")
    cases = [
        (f'{{"type": "move", "game": "{game}", "token": "{token}", "action": {forged}, "ply": {turn["ply"]}}}',
         "illegal"),
        (f'{{"type": "move", "game": "{game}", "token": "{token}", "action": 0, "ply": {turn["ply"] - 1}}}', "stale"),
        (f'{{"type": "move", "game": "{game}", "token": "{token[:-2]}", "action": 0}}', "forbidden"),
        (f'{{"type": "move", "game": "{"0" * 32}", "action": 0}}', "unknown_game"),
        ('{"type": "move", "game": ', "malformed"),
        ("[" * 5000 + "]" * 5000, "malformed"),
    ]
    for i, (text, code) in enumerate(cases):
        driver.execute_script("socket.send(arguments[0])", text)
        shown = browser._wait(driver, f"Number(document.body.dataset.errors || 0) > {i} && "
                                      "document.getElementById('error').textContent", 10)
        assert f"refused ({code})" in shown and driver.find_element("id", "error").is_displayed()
        assert session.state.serialize() == before
    # a reloaded tab rejoins the game, which goes on
    driver.execute_script("location.hash = '#' + arguments[0]; location.reload()", game)
    again = browser.wait_turn(driver)
    assert again["ply"] == turn["ply"]
    browser.play_by_clicks(driver, random.Random(1), max_moves=3)
    assert session.ply() > turn["ply"]
