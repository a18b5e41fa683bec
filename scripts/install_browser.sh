#!/usr/bin/env bash
# The browser the web app's tests drive: Debian's chromium and chromium-driver (Playwright's
# own browser download cannot work here) and selenium from PyPI.  Idempotent: installs only
# what is missing.  CI calls it before the tests; tests/web/test_web_browser.py skips, saying
# why, where the browser is missing.
set -euo pipefail

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v chromedriver >/dev/null 2>&1 || need+=(chromium-driver)
if ((${#need[@]})); then
    if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null 2>&1; then
        echo "install_browser: need root (or sudo) to apt-get install ${need[*]}" >&2
        exit 1
    fi
    SUDO=$([ "$(id -u)" -eq 0 ] && echo "" || echo sudo)
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
python -c "import selenium" 2>/dev/null || python -m pip install -q "selenium>=4.20"
echo "install_browser: $(chromium --version 2>/dev/null | head -1); $(chromedriver --version | head -1)"
