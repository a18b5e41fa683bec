"""Rules primers: a short how-to-play page for each game, shipped inside the game's package.

A game package holds ``primer.md``: Markdown whose headings start at ``##`` (the page that
shows it supplies the title), written for a player who has never played the game.  The
documentation site publishes each primer (``docs/hooks.py``) and the web app serves it at
``/rules/<game_id>``; both read it through :func:`primer_text`, so the text a player reads
on the table is the text that ships.

:func:`primer_html` renders it with Python-Markdown, the library the documentation
site's own build uses, so a page reads the same in both places.
"""

from __future__ import annotations

import sys
from importlib import import_module, resources

from romecore.errors import PluginError
from romecore.plugins import registry

__all__ = ["PRIMER_FILE", "game_package", "primer_text", "primer_html"]

#: The primer's file name inside a game's package.
PRIMER_FILE = "primer.md"


def game_package(game_id: str) -> str:
    """The package of a registered game (the one its state class lives in); raises
    :class:`~romecore.errors.UnknownGameError` for an unknown id."""
    module_name = registry.game(game_id).state_class.__module__
    module = sys.modules.get(module_name) or import_module(module_name)
    return module.__package__ or module_name


def primer_text(game_id: str) -> str:
    """The Markdown text of a registered game's rules primer, as its package ships it.

    Raises :class:`~romecore.errors.UnknownGameError` for an unknown id and
    :class:`~romecore.errors.PluginError` for a game that ships no primer.
    """
    package = game_package(game_id)
    try:
        return resources.files(package).joinpath(PRIMER_FILE).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        raise PluginError(f"game {game_id!r} ships no {PRIMER_FILE} in {package}") from None


def primer_html(game_id: str) -> str:
    """A registered game's rules primer as an HTML fragment, rendered by Python-Markdown
    (the ``web`` extra: the documentation site renders the same text with it)."""
    import markdown

    return markdown.markdown(primer_text(game_id), extensions=["tables", "fenced_code"])
