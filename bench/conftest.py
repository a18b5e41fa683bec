"""Benchmarks run with ``python -m pytest bench --benchmark-enable`` (the normal test run
does not collect this folder).  Targets are recorded in ``extra_info``, never asserted:
speed is measured here, not timed in tests."""


def states_along_a_game(game, count=8):
    """States spread over one random game (start, middles, end), for timing operations
    whose cost depends on how far a game has gone."""
    s = game.new_initial_state(seed=3)
    s.playout(3)
    hist = s.history()
    out = []
    for k in range(count):
        t = game.new_initial_state(seed=3)
        for a in hist[: (len(hist) * k) // (count - 1)]:
            t.apply_action(a)
        out.append(t)
    return out
