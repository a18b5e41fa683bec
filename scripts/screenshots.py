"""Screenshots of the web app, one per game: docs/screenshots/<game>.png.

Starts the app in a thread, plays a 2-player game against ``random`` in headless chromium
by clicking (a fixed seed, a fixed number of the human's moves), and saves the page.
Needs the browser (scripts/install_browser.sh).

    python scripts/screenshots.py [--out docs/screenshots] [--moves 12]
"""

from __future__ import annotations

import argparse
import os
import random
import sys

import romecore
from romecore.web import browser
from romecore.web.app import create_app

#: How many of the human's moves each picture is taken after (a game well under way).
MOVES = {"great_city_of_rome": 14, "city_of_marble": 16, "rise_to_power": 8, "glory_to_rome": 20}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join("docs", "screenshots"))
    ap.add_argument("--moves", type=int, default=None, help="human moves before the picture (per game default)")
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    why = browser.missing()
    if why:
        print(f"screenshots: {why}", file=sys.stderr)
        return 1
    os.makedirs(args.out, exist_ok=True)
    app = create_app(records_dir=None, hint="random", delay=0)
    with browser.serve_in_thread(app) as url, browser.chromium(1400, 1000) as driver:
        for game_id in sorted(romecore.list_games()):
            browser.start_game(driver, url, game_id, seed=args.seed)
            moves = args.moves if args.moves is not None else MOVES.get(game_id, 12)
            clicks = browser.play_random(driver, random.Random(args.seed), max_moves=moves, board=False)
            driver.execute_script("document.getElementById('hint').click()")
            browser._wait(driver, "document.getElementById('hint-text').textContent.startsWith('hint')", 20)
            path = os.path.join(args.out, f"{game_id}.png")
            driver.save_screenshot(path)
            print(f"{path}: after {sum(clicks.values())} moves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
