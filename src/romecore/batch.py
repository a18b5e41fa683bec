"""Many games of one game stepped in one C call: numpy in, numpy out.

A :class:`Batch` holds ``n`` independent games (one block of kernel structs and dealer
RNGs).  Chance is resolved inside by each game's own dealer, and a game that ends is
reported in ``step``'s returns and dealt afresh at once, so every game always has a player
to move.  Results are written into arrays the caller passes (``out=``) or into arrays the
batch caches and overwrites on the next call (copy them to keep them).

>>> import numpy as np
>>> import romecore
>>> from romecore.batch import Batch
>>> game = romecore.load_game("great_city_of_rome", players=2)
>>> batch = Batch(game, 4, seed=1)
>>> batch.reset(seeds=[10, 11, 12, 13])    # game i deals as new_initial_state(seed=10 + i)
>>> batch.current_player().shape, batch.legal_mask().shape
((4,), (4, 158))
>>> actions = batch.random_actions()     # or a policy's choice where legal_mask() is True
>>> rewards, done = batch.step(actions)  # rewards (4, 2) float32: returns where done
>>> rewards.shape, done.tolist()
((4, 2), [False, False, False, False])
>>> state = batch.state(0)               # game 0 as a romecore State, to inspect
>>> state.move_number() == 0 and not state.is_terminal()
True

A bad action array raises before any game changes: a wrong shape or dtype
(``InvalidArgumentError``, ``ArgumentTypeError``) or an action that is not legal
(``IllegalActionError``, naming the batch index).  Slot i's k-th game is dealt as
``game.new_initial_state(seed=(seeds[i] + k * SEED_STEP) % 2**64)``, so any game can be
replayed alone.
"""

from romecore.core.batch import SEED_STEP, Batch

__all__ = ["SEED_STEP", "Batch"]
