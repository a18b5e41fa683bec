#!/usr/bin/env bash
# Lint, types and stubs, as CI and the pre-commit hook run them (needs ruff and mypy, from
# tests/requirements.txt, and romecore installed so the compiled modules import):
#   ruff      lint and import order (configuration in pyproject.toml)
#   mypy      the public API and the shipped .pyi stubs
#   stubtest  every .pyi stub against its compiled module
# The docstring examples run in the test suite (tests/test_doctests.py).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "+ ruff check ." && ruff check .
echo "+ mypy" && mypy
mods=$(find src -name '*.pyi' | sed -e 's|^src/plugins/||' -e 's|^src/||' -e 's|\.pyi$||' -e 's|/|.|g' | sort)
echo "+ stubtest ($(echo "$mods" | wc -l) modules)"
MYPYPATH="src:src/plugins" python -m mypy.stubtest --ignore-disjoint-bases \
    --allowlist .ci/stubtest-allowlist.txt $mods
