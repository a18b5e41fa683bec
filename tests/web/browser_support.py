"""Driving the web app in a real browser: the server in a thread, Debian's headless
chromium through selenium, and a random player that clicks in the page.  Shared by the
browser tests and ``scripts/screenshots.py``; needs selenium, chromium and chromedriver
(``scripts/install_browser.sh``)."""

from __future__ import annotations

import contextlib
import json
import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

__all__ = ["missing", "serve_in_thread", "chromium", "start_game", "wait_turn", "play_random", "result"]

CHROMIUM = ("chromium", "chromium-browser")
CHROMEDRIVER = "chromedriver"


def missing() -> str | None:
    """Why a browser test cannot run here (None when it can)."""
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (scripts/install_browser.sh)"
    if not any(shutil.which(b) for b in CHROMIUM):
        return "chromium is not installed (scripts/install_browser.sh: apt-get install chromium)"
    if not shutil.which(CHROMEDRIVER):
        return "chromedriver is not installed (scripts/install_browser.sh: apt-get install chromium-driver)"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def serve_in_thread(app: Any) -> Iterator[str]:
    """Runs ``app`` on uvicorn in a daemon thread on a free local port; yields its URL."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=_free_port(), log_level="warning",
                                           lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}/"
    finally:
        server.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def chromium(width: int = 1400, height: int = 1000) -> Iterator[Any]:
    """A headless chromium driven by chromedriver (the system's, never a download)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = next(p for p in map(shutil.which, CHROMIUM) if p)
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--hide-scrollbars"):
        opts.add_argument(arg)
    driver = webdriver.Chrome(options=opts, service=Service(executable_path=shutil.which(CHROMEDRIVER)))
    try:
        yield driver
    finally:
        driver.quit()


def _wait(driver: Any, script: str, timeout: float) -> Any:
    """Polls ``script`` (a JS expression) in the page until it is truthy; returns it."""
    deadline = time.monotonic() + timeout
    while True:
        value = driver.execute_script("return " + script)
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"the page never showed: {script}")
        time.sleep(0.005)


def start_game(driver: Any, url: str, game_id: str, players: int = 2, seat: int = 0,
               agent: str = "random", seed: int | None = None, delay: float = 0.0, timeout: float = 20) -> None:
    """Fills in the set-up form and starts a game."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url)
    _wait(driver, "document.querySelector('#game option') !== null && document.body.dataset.closed !== '1' "
                  "&& document.getElementById('status').textContent === 'connected'", timeout)
    Select(driver.find_element(By.ID, "game")).select_by_value(game_id)
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    Select(driver.find_element(By.ID, "seat")).select_by_value(str(seat))
    for box in driver.find_elements(By.CSS_SELECTOR, "#opponents input"):
        box.clear()
        box.send_keys(agent)
    for field, value in (("seed", seed), ("delay", delay)):
        box = driver.find_element(By.ID, field)
        box.clear()
        if value is not None:
            box.send_keys(str(value))
    driver.find_element(By.ID, "start").click()


def wait_turn(driver: Any, after: int = -1, timeout: float = 30) -> dict[str, Any]:
    """Waits for the human's turn (moves listed) at a ply past ``after``, or the end;
    returns ``{"ply", "over", "buttons", "picks"}``: the move list's buttons and the
    board's elements that name exactly one move (one round trip to the page a poll)."""
    return _wait(driver, f"""(() => {{
        const b = document.body.dataset;
        if (b.ply === undefined || Number(b.ply) <= {after}) return null;
        if (b.over === 'true') return {{ply: Number(b.ply), over: true, buttons: [], picks: []}};
        const buttons = Array.from(document.querySelectorAll('#moves button'));
        const picks = Array.from(document.querySelectorAll("#board [data-picks]:not([data-picks*=' '])"));
        return buttons.length ? {{ply: Number(b.ply), over: false, buttons: buttons, picks: picks}} : null;
    }})()""", timeout)


def play_random(driver: Any, rng: random.Random, max_moves: int | None = None, board: bool = True,
                timeout: float = 30) -> dict[str, int]:
    """Plays random moves by clicking in the page until the game ends (or ``max_moves``):
    where the picture offers exactly one move for an element, now and then that element is
    clicked on the board, else a button of the move list.  Returns counts of each."""
    from selenium.common.exceptions import WebDriverException

    clicks = {"list": 0, "board": 0}
    turn = wait_turn(driver, timeout=timeout)
    while not turn["over"] and (max_moves is None or clicks["list"] + clicks["board"] < max_moves):
        if board and turn["picks"] and rng.random() < 0.3:
            target = rng.choice(turn["picks"])
            try:
                target.click()
            except WebDriverException:  # a group with no box of its own: click it in the page
                driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))",
                                      target)
            clicks["board"] += 1
        else:
            rng.choice(turn["buttons"]).click()
            clicks["list"] += 1
        turn = wait_turn(driver, after=turn["ply"], timeout=timeout)
    return clicks


def result(driver: Any) -> dict[str, Any]:
    """The result the page shows at the end: returns, scores, verdict, record link."""
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.ID, "result")
    return {"returns": json.loads(box.get_attribute("data-returns")),
            "scores": json.loads(box.get_attribute("data-scores")),
            "verdict": driver.find_element(By.ID, "verdict").text,
            "scores_text": driver.find_element(By.ID, "scores").text,
            "record": driver.find_element(By.ID, "record-link").get_attribute("href"),
            "shown": box.is_displayed()}
