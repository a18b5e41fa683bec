#!/usr/bin/env bash
# Lint, types and stubs, as CI runs them (needs ruff, cython-lint and mypy, from
# tests/requirements.txt, and romecore installed so the compiled modules import):
#   ruff         lint and import order (configuration in pyproject.toml)
#   cython-lint  the same for the .pyx and .pxd (configuration in pyproject.toml)
#   mypy         the public API, the plugin packages (src/plugins/*) and the shipped .pyi stubs
#   stubtest     every .pyi stub against its compiled module
# pre-commit runs the fast ones (ruff, cython-lint, whitespace): .pre-commit-config.yaml.
# The docstring examples run in the test suite (tests/test_doctests.py).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "+ ruff check ." && ruff check .
echo "+ cython-lint src" && cython-lint src
plugins=$(find src/plugins -mindepth 2 -maxdepth 2 -name __init__.py | sed -e 's|^src/plugins/||' -e 's|/.*||' | sort)
echo "+ mypy (romecore and $(echo "$plugins" | wc -l) plugin packages)"
mypy -p romecore $(printf -- '-p %s ' $plugins)
mods=$(find src -name '*.pyi' | sed -e 's|^src/plugins/||' -e 's|^src/||' -e 's|\.pyi$||' -e 's|/|.|g' | sort)
echo "+ stubtest ($(echo "$mods" | wc -l) modules)"
MYPYPATH="src:src/plugins" python -m mypy.stubtest --ignore-disjoint-bases --mypy-config-file pyproject.toml \
    --allowlist .ci/stubtest-allowlist.txt $mods
