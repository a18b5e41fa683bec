"""Benchmarks run with ``python -m pytest bench --benchmark-enable`` (the normal test run
does not collect this folder).  Targets are recorded in ``extra_info``, never asserted:
speed is measured here, not timed in tests."""
