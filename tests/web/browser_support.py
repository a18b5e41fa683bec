"""Test support: the web app in a real browser (the server in a thread, Debian's headless
chromium through selenium) and a random player that plays by clicking the board.  Used by
the browser tests (which also take the documentation's screenshots, see
``scripts/screenshots.py``); needs selenium, chromium and chromedriver
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

__all__ = ["missing", "serve_in_thread", "chromium", "start_game", "wait_turn", "click_key", "click_move",
           "play_by_clicks", "my_turn", "ServerProcess", "result"]

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
               level: str | None = "Beginner", spec: str | None = None, seed: int | None = None,
               delay: float = 0.0, timeout: float = 20, friends: tuple[int, ...] = ()) -> None:
    """Starts a game as a person does: the game's card on the start page, then the form
    (each opponent at ``level``, or the raw ``spec`` under Advanced; the seats in
    ``friends`` left open for invited people)."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url)
    _wait(driver, "document.querySelector('.game-card') !== null && document.body.dataset.closed !== '1' "
                  "&& document.getElementById('status').textContent === 'connected'", timeout)
    driver.find_element(By.CSS_SELECTOR, f'.game-card[data-game="{game_id}"]').click()
    Select(driver.find_element(By.ID, "players")).select_by_value(str(players))
    Select(driver.find_element(By.ID, "seat")).select_by_value(str(seat))
    for box in driver.find_elements(By.CSS_SELECTOR, "#opponents select.level"):
        if int(box.get_attribute("data-seat")) in friends:
            Select(box).select_by_value("open")
        elif level is not None:
            Select(box).select_by_value(level)
    driver.find_element(By.CSS_SELECTOR, "#advanced summary").click()
    if spec is not None:
        for box in driver.find_elements(By.CSS_SELECTOR, "#custom-specs input"):
            box.clear()
            box.send_keys(spec)
    for field, value in (("seed", seed), ("delay", delay)):
        box = driver.find_element(By.ID, field)
        box.clear()
        if value is not None:
            box.send_keys(str(value))
    driver.find_element(By.ID, "start").click()


def wait_turn(driver: Any, after: int = -1, timeout: float = 30) -> dict[str, Any]:
    """Waits for the human's turn at a ply past ``after``, or the end; returns
    ``{"ply", "over", "moves"}`` (the legal moves the page was sent, with their keys)."""
    return _wait(driver, f"""(() => {{
        const b = document.body.dataset;
        if (b.ply === undefined || Number(b.ply) <= {after} || !current) return null;
        if (b.over === 'true') return {{ply: Number(b.ply), over: true, moves: []}};
        return current.moves.length ? {{ply: Number(b.ply), over: false, moves: current.moves}} : null;
    }})()""", timeout)


_SHAPE = "rect, polygon, circle, path, ellipse"


def click_key(driver: Any, key: str) -> None:
    """Clicks the board element marked as a target for ``key`` where a person would: on
    its largest drawn shape (a real mouse click, so a label over it must let it through)."""
    from selenium.webdriver.common.action_chains import ActionChains

    shape = driver.execute_script(f"""
        const el = Array.from(document.querySelectorAll('#board [data-target].target'))
            .find((e) => e.dataset.target === arguments[0]);
        if (!el) return null;
        const shapes = el.matches('{_SHAPE}') ? [el] : Array.from(el.querySelectorAll('{_SHAPE}'));
        const area = (s) => {{ const r = s.getBoundingClientRect(); return r.width * r.height; }};
        const best = shapes.sort((a, b) => area(b) - area(a))[0] || el;
        best.scrollIntoView({{block: 'center'}});
        return best;""", key)
    if shape is None:
        raise AssertionError(f"no board target {key!r} on the page")
    ActionChains(driver).move_to_element(shape).click().perform()


def click_move(driver: Any, move: dict[str, Any], ply: int) -> None:
    """Makes ``move`` (from the page's ``current.moves``, at ``ply``) as a person does: its
    board keys clicked in order, and the prompt bar's button only for what the board cannot
    name."""
    from selenium.webdriver.common.by import By

    sent = f"document.body.dataset.sent === '{ply}' || Number(document.body.dataset.ply) !== {ply}"
    for key in move["targets"]:
        if driver.execute_script("return " + sent):
            break  # the keys so far named this move alone: it is played
        click_key(driver, key)
    if not driver.execute_script("return " + sent):
        buttons = driver.find_elements(By.CSS_SELECTOR, f'#prompt-buttons button[data-action="{move["id"]}"]')
        assert buttons, f"move {move['text']!r} can be neither clicked on the board nor chosen in the prompt"
        buttons[0].click()


def play_by_clicks(driver: Any, rng: random.Random, on_turn: Any = None, max_moves: int | None = None,
                   timeout: float = 60) -> list[int]:
    """Plays random legal moves by clicking the board (:func:`click_move`) until the game
    ends (or ``max_moves``).  ``on_turn(turn)`` is called at each of the human's turns.
    Returns the moves chosen, in order."""
    chosen: list[int] = []
    turn = wait_turn(driver, timeout=timeout)
    while not turn["over"] and (max_moves is None or len(chosen) < max_moves):
        if on_turn is not None:
            on_turn(turn)
        move = rng.choice(turn["moves"])
        chosen.append(move["id"])
        click_move(driver, move, turn["ply"])
        turn = wait_turn(driver, after=turn["ply"], timeout=timeout)
    return chosen


def my_turn(driver: Any) -> dict[str, Any] | None:
    """The page's decision now (``{"ply", "moves"}``), or None when it is not its turn."""
    return driver.execute_script("""
        if (!current || current.over || !current.moves.length || document.body.dataset.sent === String(current.ply))
            return null;
        return {ply: current.ply, moves: current.moves};""")


class ServerProcess:
    """``romecore serve --db FILE`` as its own process on a fixed free port, so a test can
    kill it with SIGKILL and start it again where the pages expect it."""

    def __init__(self, db: str, records_dir: str) -> None:
        self.db, self.records_dir, self.port, self.proc = str(db), str(records_dir), _free_port(), None
        self.url = f"http://127.0.0.1:{self.port}/"

    def start(self) -> ServerProcess:
        import subprocess
        import sys

        self.proc = subprocess.Popen([sys.executable, "-m", "romecore", "serve", "--port", str(self.port),
                                      "--db", self.db, "--records", self.records_dir, "--delay", "0",
                                      "--rate", "10000"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        import os
        import signal

        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


def result(driver: Any) -> dict[str, Any]:
    """The end as the page shows it: returns, scores, winners, verdict, the breakdown
    table (category -> one cell per seat), the record link."""
    from selenium.webdriver.common.by import By

    box = driver.find_element(By.ID, "result")
    table = driver.execute_script("""
        const rows = Array.from(document.querySelectorAll('#breakdown tr')).slice(1);
        return rows.map((r) => Array.from(r.children).map((c) => c.textContent));""")
    return {"returns": json.loads(box.get_attribute("data-returns")),
            "scores": json.loads(box.get_attribute("data-scores")),
            "winners": json.loads(box.get_attribute("data-winners")),
            "verdict": driver.find_element(By.ID, "verdict").text,
            "why": driver.find_element(By.ID, "why").text,
            "winner": driver.find_element(By.ID, "winner").text,
            "breakdown": {row[0]: row[1:] for row in table},
            "record": driver.find_element(By.ID, "record-link").get_attribute("href"),
            "shown": box.is_displayed()}
