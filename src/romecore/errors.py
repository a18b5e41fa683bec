"""The exceptions romecore raises.  Every error a caller can provoke with bad input is one
of these, so embedding code can catch :class:`RomecoreError` and nothing else."""

from __future__ import annotations

__all__ = [
    "RomecoreError",
    "IllegalActionError",
    "SerializationError",
    "GameOptionError",
    "UnknownGameError",
    "AgentSpecError",
    "InvalidArgumentError",
    "ArgumentTypeError",
    "EvaluatorError",
    "PluginError",
    "UsageError",
    "StorageError",
]


class RomecoreError(Exception):
    """Base class of every error romecore raises on bad input."""


class IllegalActionError(RomecoreError, ValueError):
    """An action that is not legal in the state it was applied to.

    The message names the action and says why; the state is left unchanged.
    """


class SerializationError(RomecoreError, ValueError):
    """A snapshot, record or dict that cannot be loaded: corrupt, truncated, foreign or
    inconsistent.  Nothing is built from it."""


class GameOptionError(RomecoreError, ValueError):
    """An unknown game id option, or an option value out of its range."""


class UnknownGameError(RomecoreError, KeyError):
    """A game id that no installed plugin registers."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class AgentSpecError(RomecoreError, ValueError):
    """An agent spec string naming an unknown agent or carrying bad parameters."""


class InvalidArgumentError(RomecoreError, ValueError):
    """An argument of the right type but outside its range (player 7 of a 4-player game)."""


class ArgumentTypeError(RomecoreError, TypeError):
    """An argument of the wrong type (a player given as None, a seed given as a string)."""


class EvaluatorError(RomecoreError, ValueError):
    """An evaluator used on another game's states, given unknown or out-of-range weights, or
    (a Python one) returning the wrong number of values."""


class PluginError(RomecoreError, RuntimeError):
    """A plugin that cannot be used: two plugins registering one name, a kernel built for
    another interface version, a state class that is not a romecore State."""


class UsageError(RomecoreError, RuntimeError):
    """A call in the wrong order or on an object in the wrong condition (an environment
    stepped before ``reset()``, a tournament that cannot start or go on)."""


class StorageError(RomecoreError, RuntimeError):
    """A game database that cannot be used: corrupt, foreign (another program's SQLite
    file), written by a newer romecore, or a write the storage refuses (a stale move)."""
