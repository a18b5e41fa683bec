#!/usr/bin/env bash
# Builds a copy of the working tree with AddressSanitizer and UndefinedBehaviorSanitizer
# (setup.py's ROMECORE_SANITIZE=1) and runs a command under it, by default the fuzzer:
#
#   scripts/sanitize.sh --seconds 60                      # scripts/fuzz.py, every game
#   scripts/sanitize.sh -- python -m pytest tests/test_api_types.py
#
# The copy lives in build/sanitize (ROMECORE_SANITIZE_TREE overrides), so an unchanged
# module is not rebuilt.  Python itself is not instrumented: the runtimes are preloaded.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=${ROMECORE_SANITIZE_TREE:-build/sanitize}
mkdir -p "$tree"
git ls-files -co --exclude-standard -z | tar --null -T - -cf - | tar -xpf - -C "$tree"
echo "sanitizer build in $tree (log: $tree/build.log)" >&2
# The build runs in place, outside pip's isolated build environment: bring its tools.
python -c "import Cython, setuptools" 2>/dev/null ||
    python -m pip install -q "Cython>=3.0.8" "setuptools>=68" wheel
(cd "$tree" && ROMECORE_SANITIZE=1 python setup.py build_ext --inplace >build.log 2>&1) || {
    tail -40 "$tree/build.log" >&2; exit 1; }

cc=${CC:-gcc}
export LD_PRELOAD="$($cc -print-file-name=libasan.so) $($cc -print-file-name=libubsan.so)"
# Leaks in a long-lived interpreter are not the question here; huge allocations must fail
# (and so be refused) instead of taking the machine's memory.
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=2048
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export PYTHONPATH="$tree/src:$tree/src/plugins${PYTHONPATH:+:$PYTHONPATH}"
if [ "${1:-}" = "--" ]; then
    shift
    exec "$@"
fi
exec python "$tree/scripts/fuzz.py" "$@"
