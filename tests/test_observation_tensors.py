"""What every game's observation tensor promises through the generic API, whatever its
layout: bad players and bad ``out`` buffers raise romecore errors and write nothing.  Each
game's own suite (``tests/<game>/test_*_tensor.py``) checks its layout against an independent
encoder of ``observation(p)``, across resampled worlds and for sensitivity."""

from __future__ import annotations

import numpy as np
import pytest

import romecore


def test_bad_players_and_buffers_raise_romecore_errors(game):
    state = game.new_initial_state(seed=1)
    n, size = game.num_players(), game.observation_tensor_size()
    assert game.observation_tensor_shape() == (size,)
    for p in (-1, n, 99, 2**70):
        with pytest.raises(romecore.InvalidArgumentError):
            state.observation_tensor(p)
    for p in ("0", 1.5, None):
        with pytest.raises(romecore.ArgumentTypeError):
            state.observation_tensor(p)
    bad_outs = (np.full(size, 7, dtype=np.float64), np.full(size + 1, 7, dtype=np.float32),
                np.full((1, size), 7, dtype=np.float32), np.full(2 * size, 7, dtype=np.float32)[::2])
    for out in bad_outs:
        with pytest.raises(romecore.InvalidArgumentError):
            state.observation_tensor(0, out=out)
        assert (out == 7).all()  # nothing written
    frozen = np.full(size, 7, dtype=np.float32)
    frozen.flags.writeable = False
    with pytest.raises(romecore.InvalidArgumentError):
        state.observation_tensor(0, out=frozen)
    with pytest.raises(romecore.ArgumentTypeError):
        state.observation_tensor(0, out=[0.0] * size)
