"""Rules primers: a short how-to-play page for each game, shipped inside the game's package.

A game package holds ``primer.md``: Markdown whose headings start at ``##`` (the page that
shows it supplies the title), written for a player who has never played the game.  The
documentation site publishes each primer (``docs/hooks.py``) and the web app serves it at
``/rules/<game_id>``; both read it through :func:`primer_text`, so the text a player reads
on the table is the text that ships.

:func:`primer_html` renders it with a small Markdown reader of its own (headings,
paragraphs, lists, tables, fenced code, inline code, bold, italics and links: what the
primers use), so the web app needs no Markdown package.
"""

from __future__ import annotations

import html
import re
import sys
from importlib import import_module, resources

from romecore.errors import PluginError
from romecore.plugins import registry

__all__ = ["PRIMER_FILE", "game_package", "primer_text", "primer_html", "markdown_to_html"]

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
    """A registered game's rules primer as an HTML fragment (see :func:`markdown_to_html`)."""
    return markdown_to_html(primer_text(game_id))


# -- a small Markdown reader ----------------------------------------------------------------

_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*(.+?)\*|\[([^\]]+)\]\(([^)\s]+)\)")
_ITEM = re.compile(r"^(?:([-*])|(\d+)\.)\s+(.*)$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


def _inline(text: str) -> str:
    """One line's inline Markdown as HTML: code spans verbatim, the rest escaped."""
    out, pos = [], 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[pos:m.start()], quote=False))
        code, strong, em, label, href = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code, quote=False)}</code>")
        elif strong is not None:
            out.append(f"<strong>{_inline(strong)}</strong>")
        elif em is not None:
            out.append(f"<em>{_inline(em)}</em>")
        else:
            out.append(f'<a href="{html.escape(href)}">{_inline(label)}</a>')
        pos = m.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def _cells(row: str) -> list[str]:
    return [c.strip() for c in row.strip().strip("|").split("|")]


def _table(rows: list[str]) -> str:
    head, body = _cells(rows[0]), [_cells(r) for r in rows[2:]]
    out = ["<table>", "<thead><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in head) + "</tr></thead>",
           "<tbody>"]
    out += ["<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body]
    return "\n".join(out + ["</tbody>", "</table>"])


def _list(items: list[tuple[bool, str]]) -> str:
    tag = "ol" if items[0][0] else "ul"
    return f"<{tag}>\n" + "\n".join(f"<li>{_inline(t)}</li>" for _, t in items) + f"\n</{tag}>"


def markdown_to_html(text: str) -> str:
    """The Markdown the primers use, as HTML: ``#`` headings (with ids), paragraphs, ``-``
    and ``1.`` lists (an item goes on over indented lines), pipe tables, fenced code blocks,
    and inline code, ``**bold**``, ``*italics*`` and ``[links](url)``.  Everything else is
    text, escaped."""
    lines = text.splitlines()
    out: list[str] = []
    para: list[str] = []
    items: list[tuple[bool, str]] = []

    def flush() -> None:
        if para:
            out.append(f"<p>{_inline(' '.join(para))}</p>")
            para.clear()
        if items:
            out.append(_list(items))
            items.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].strip().startswith("```"):
                j += 1
            lang = stripped[3:].strip().split(" ")[0]
            cls = f' class="language-{html.escape(lang)}"' if lang else ""
            out.append(f"<pre><code{cls}>{html.escape(chr(10).join(lines[i + 1:j]), quote=False)}</code></pre>")
            i = j + 1
            continue
        heading = _HEADING.match(line)
        item = _ITEM.match(line)
        if not stripped:
            flush()
        elif heading:
            flush()
            level, title = len(heading.group(1)), heading.group(2)
            out.append(f'<h{level} id="{_slug(title)}">{_inline(title)}</h{level}>')
        elif stripped.startswith("|") and i + 1 < len(lines) and re.match(r"^\s*\|[\s:|-]+\|\s*$", lines[i + 1]):
            flush()
            j = i
            while j < len(lines) and lines[j].strip().startswith("|"):
                j += 1
            out.append(_table(lines[i:j]))
            i = j
            continue
        elif item:
            ordered = item.group(2) is not None
            if para or (items and items[0][0] != ordered):
                flush()
            items.append((ordered, item.group(3)))
        elif items and line[:1] in (" ", "\t"):
            ordered, start = items[-1]
            items[-1] = (ordered, f"{start} {stripped}")
        else:
            if items:
                flush()
            para.append(stripped)
        i += 1
    flush()
    return "\n".join(out) + "\n"
