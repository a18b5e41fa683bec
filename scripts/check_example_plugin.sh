#!/usr/bin/env bash
# Installs the example plugin package (examples/romecore-example-plugin), checks that
# romecore finds its agent and evaluator through the entry point, plays a short tournament
# with its agent and runs its tests; uninstalls it again at the end, so the rest of a CI run
# sees only the built-in plugins.  Usage: scripts/check_example_plugin.sh
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY=${PYTHON:-python}
PKG=examples/romecore-example-plugin
WORK=$(mktemp -d)
cleanup() {
    "$PY" -m pip uninstall -y -q romecore-example-plugin >/dev/null 2>&1 || true
    rm -rf "$WORK"
}
trap cleanup EXIT

# --no-deps: romecore is the tree's own build, already installed
if "$PY" -c "import setuptools" 2>/dev/null; then
    "$PY" -m pip install -q --no-deps --no-build-isolation "./$PKG"
else
    "$PY" -m pip install -q --no-deps "./$PKG"
fi

romecore games --params > "$WORK/games.txt"
grep -q "example_agent" "$WORK/games.txt" || { echo "example_agent is not listed"; cat "$WORK/games.txt"; exit 1; }
grep -q "example_score_share" "$WORK/games.txt" || { echo "example_score_share is not listed"; exit 1; }

(cd "$WORK" && romecore tournament great_city_of_rome -p 2 -a example_agent:playouts=2 -a random \
    -g 4 -w 2 --no-progress --json --out results.jsonl > table.json)
"$PY" - "$WORK/table.json" <<'PYEOF'
import json, sys
table = json.load(open(sys.argv[1]))
rows = {r["agent"]: r for r in table["rows"]}
assert "example_agent:playouts=2" in rows, rows
assert sum(r["games"] for r in rows.values()) == 8, rows
assert not table.get("failures"), table["failures"]
print("example plugin tournament:", {a: r["wins"] for a, r in rows.items()})
PYEOF

(cd "$WORK" && "$PY" -m pytest -q -p no:cacheprovider "$ROOT/$PKG/tests")
echo "example plugin: OK"
