"""Screenshots of the web app for the documentation: docs/screenshots/<game>.png (mid-game)
and <game>-end.png (the end explained), one 2-player game of each game against the
Beginner level, played by clicking the board.

The browser tests take them (tests/web/test_web_browser.py, with ``ROMECORE_SCREENSHOTS``
set), so the pictures show exactly what the tests checked.  Needs the browser
(scripts/install_browser.sh).

    python scripts/screenshots.py [--out docs/screenshots]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join("docs", "screenshots"))
    args = ap.parse_args()
    env = dict(os.environ, ROMECORE_SCREENSHOTS=os.path.abspath(args.out))
    test = os.path.join(HERE, "..", "tests", "web", "test_web_browser.py")
    return subprocess.call([sys.executable, "-m", "pytest", "-q", test, "-k", "whole_game"], env=env)


if __name__ == "__main__":
    raise SystemExit(main())
