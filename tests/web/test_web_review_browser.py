"""The review page in a real browser (headless chromium through selenium): a short game is
played to its end on the table page, its end screen's link opens the review, and the page
steps through the game (buttons and arrow keys) with the board as the player saw it, jumps
to a flagged move, and plays the AI's line ("show me").  A tiny search budget keeps the
review to a second.  With ``ROMECORE_SCREENSHOTS=DIR`` it saves DIR/review.png, the
documentation's picture (docs/screenshots/review.png), during "show me"."""

from __future__ import annotations

import os
import random
import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("starlette", reason="the web app needs romecore[web] (starlette, uvicorn)")
pytest.importorskip("uvicorn", reason="the web app needs romecore[web] (starlette, uvicorn)")

import browser_support as browser  # noqa: E402

from romecore import records  # noqa: E402
from romecore.picture import to_svg  # noqa: E402
from romecore.web.app import create_app  # noqa: E402
from romecore.web.reviews import ReviewBudget  # noqa: E402

why = browser.missing()
pytestmark = pytest.mark.skipif(why is not None, reason=f"no browser: {why}")

def _text(svg: str) -> str:
    """The words a picture shows (what a person reads on the board)."""
    return "".join(ET.fromstring(svg).itertext())


def _page_text(driver) -> str:
    return driver.execute_script("return document.querySelector('#board svg').textContent")


def _wait(driver, script, timeout=20):
    return browser._wait(driver, script, timeout)


def _play_to_the_end(driver, rng):
    """Plays random moves through the table page's own move function (how the page plays
    is the other browser tests' subject) until the game ends."""
    turn = browser.wait_turn(driver)
    while not turn["over"]:
        driver.execute_script("play(arguments[0])", rng.choice(turn["moves"])["id"])
        turn = browser.wait_turn(driver, after=turn["ply"])


def test_a_finished_game_is_reviewed_step_by_step_in_the_browser(tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    app = create_app(records_dir=str(tmp_path), hint="random", delay=0,
                     review=ReviewBudget(agent="ismcts:simulations=16", time=0.5, worlds=1))
    with browser.serve_in_thread(app) as url, browser.chromium(1400, 1000) as driver:
        browser.start_game(driver, url, "rise_to_power", level="Beginner", seed=7)
        _play_to_the_end(driver, random.Random(7))
        game = driver.execute_script("return document.body.dataset.game")
        rec = app.state.sessions.games[game].record
        states = [records.Replayer(rec).state]
        for a in rec.actions:
            states.append(states[-1].clone())
            states[-1].apply_action(a)

        # the end screen links to the review; the review is computed, then shown
        driver.find_element(By.ID, "review-link").click()
        _wait(driver, "document.body.dataset.ready === '1' && document.body.dataset.board === '0'", 60)
        assert driver.find_element(By.ID, "seat").get_attribute("value") == "0"
        assert _page_text(driver) == _text(to_svg(states[0].resample(0, 1), 0))

        # step: buttons and arrow keys; the board is the player's view (equal in a world resampled from it)
        driver.find_element(By.ID, "next").click()
        body = driver.find_element(By.TAG_NAME, "body")
        body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_LEFT)
        _wait(driver, "document.body.dataset.board === '3'")
        assert _page_text(driver) == _text(to_svg(states[3].resample(0, 2), 0))
        body.send_keys(Keys.END)
        _wait(driver, f"document.body.dataset.board === '{len(rec.actions)}'")

        # a flagged move of this player: the position where it was played, the AI's move beside it
        review = app.state.reviews.jobs[game].review
        flagged = ("inaccuracy", "mistake", "blunder")
        mine = [d for d in review["decisions"] if d["player"] == 0 and d["label"] in flagged]
        assert mine, "a random player makes no flagged move?"
        d = max(mine, key=lambda d: (len(d["line"]), d["ply"]))
        driver.find_element(By.CSS_SELECTOR, f'#flagged li[data-ply="{d["ply"]}"] .played').click()
        _wait(driver, f"document.body.dataset.board === '{d['ply'] - 1}'")
        caption = driver.find_element(By.ID, "caption").text
        assert d["move_text"] in caption and d["best_text"] in caption and d["label"] in caption

        # show me: the AI's line played on the board, one move at a time, as this player sees it
        driver.find_element(By.ID, "show-me").click()
        n = len(d["line"])
        _wait(driver, f"document.body.dataset.board === '{d['ply'] - 1}+{n}'", 30)
        line_state = states[d["ply"] - 1].clone()
        for a in d["line"]:
            line_state.apply_action(a)
        assert _page_text(driver) == _text(to_svg(line_state, 0))
        assert d["line_text"][-1] in driver.find_element(By.ID, "line-text").text
        shots = os.environ.get("ROMECORE_SCREENSHOTS") or str(tmp_path)  # the docs' picture only when asked
        os.makedirs(shots, exist_ok=True)
        driver.save_screenshot(os.path.join(shots, "review.png"))
        driver.find_element(By.ID, "line-back").click()
        _wait(driver, f"document.body.dataset.board === '{d['ply'] - 1}' && !document.body.dataset.lineStep")

        # the graph's marks go to their moves
        other = next(x for x in mine if x["ply"] != d["ply"]) if len(mine) > 1 else d
        driver.execute_script(f"document.querySelector('#graph g.mark[data-ply=\"{other['ply']}\"]')"
                              ".dispatchEvent(new MouseEvent('click', {bubbles: true}))")
        _wait(driver, f"document.body.dataset.board === '{other['ply'] - 1}'")

        # the finished games list links the game to its review and its record
        driver.get(url + "review")
        _wait(driver, "document.body.dataset.listed === '1'")
        row = driver.find_element(By.CSS_SELECTOR, f'#games tr[data-game="{game}"]')
        assert "Beginner" in row.text and row.find_element(By.CSS_SELECTOR, "a.review").get_attribute(
            "href").endswith(f"/review#{game}/0")
