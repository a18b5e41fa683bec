"""A griffe extension for the API reference: docstrings written for Sphinx, read by mkdocstrings.

Two things the project's docstrings need that mkdocstrings does not do by itself:

- The Cython modules are described by ``.pyi`` stubs, which carry the signatures but no
  docstrings; the compiled objects carry the docstrings.  An object loaded from a stub
  without a docstring gets the runtime object's (less the signature line Cython's
  ``embedsignature`` puts first).
- Doctests become ``pycon`` code blocks.  Sphinx roles (``:class:`~romecore.Game```, ``:meth:`clone```) become optional
  cross-references: a link where the target is on the site, plain code where it is not
  (private helpers, other packages).  RST's ``text::`` before a literal block becomes
  ``text:``.
"""

from __future__ import annotations

import html
import importlib
import inspect
import re
import textwrap
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(class|meth|func|mod|data|attr|exc|obj|const):`(~?)([^`]+)`")
LITERAL_INTRO = re.compile(r"(\S)::$", re.M)
BARE_LITERAL_INTRO = re.compile(r"^(\s*)::$", re.M)
#: a doctest: lines from one starting ``>>>`` up to a blank line
DOCTEST = re.compile(r"^[ \t]*>>> .*(?:\n[ \t]*\S.*)*\n?", re.M)


def _runtime_doc(path: str) -> str | None:
    """The docstring of the object at the dotted ``path``, imported, or None."""
    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return None
        doc = inspect.getdoc(obj) if not isinstance(obj, (int, float, str, bytes)) else None
        return _strip_signature(doc, parts[-1]) if doc else None
    return None


def _strip_signature(doc: str, name: str) -> str:
    """``doc`` without the ``Name.method(args)`` line Cython's embedsignature adds."""
    first, _, rest = doc.partition("\n")
    if re.match(rf"^[\w.]*\b{re.escape(name)}\(.*\)(\s*->.*)?$", first.strip()):
        return rest.lstrip("\n")
    return doc


def _resolve(obj: griffe.Object, target: str) -> str | None:
    """The full path of the role's ``target`` as seen from ``obj``, if griffe knows it."""
    collection = obj.modules_collection
    module = obj.module.path
    if target.startswith("."):
        candidates = [module + target, module.rpartition(".")[0] + target]
    else:
        scopes = [obj.path] if obj.is_class else []
        parent = obj.parent
        while parent is not None:
            scopes.append(parent.path)
            parent = parent.parent
        candidates = [f"{scope}.{target}" for scope in scopes] + [target, f"romecore.{target}"]
    for path in candidates:
        try:
            collection.get_member(path)
        except (KeyError, ValueError, AttributeError, griffe.AliasResolutionError,
                griffe.CyclicAliasError):
            continue
        return path
    return None


def rst_to_markdown(obj: griffe.Object, text: str) -> str:
    """``text`` with Sphinx roles as optional cross-references and ``::`` intros as ``:``."""

    def role(m: re.Match[str]) -> str:
        short, target = m.group(2) == "~", m.group(3).strip()
        shown = target.lstrip(".").rpartition(".")[2] if short else target
        if m.group(1) in ("meth", "func"):
            shown += "()"
        code = f"<code>{html.escape(shown)}</code>"
        path = _resolve(obj, target)
        if path is None or any(p.startswith("_") for p in path.split(".")):
            return code
        return f'<autoref identifier="{html.escape(path)}" optional>{code}</autoref>'

    text = DOCTEST.sub(lambda m: f"```pycon\n{textwrap.dedent(m.group(0)).rstrip()}\n```\n",
                       text)
    text = ROLE.sub(role, text)
    text = BARE_LITERAL_INTRO.sub(r"\1", text)
    return LITERAL_INTRO.sub(r"\1:", text)


class RstDocstrings(griffe.Extension):
    """Fills stub objects' docstrings from the compiled modules and converts RST markup."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        for obj in _walk(pkg):
            from_stub = obj.filepath is not None and str(obj.filepath).endswith(".pyi")
            doc = obj.docstring.value if obj.docstring is not None else None
            if obj.is_attribute and doc is not None and doc.strip() in BUILTIN_DOCS:
                doc = None              # inspection gave the value's type's docstring
            elif from_stub and not obj.is_attribute and (doc is None or obj.is_module):
                # a stub has signatures, the compiled object the docstring (a stub
                # module's own docstring only says that it is a stub)
                doc = _runtime_doc(obj.path) or doc
            if doc is not None:
                doc = _strip_signature(doc, obj.name)
                obj.docstring = griffe.Docstring(rst_to_markdown(obj, doc), parent=obj)
            else:
                obj.docstring = None


BUILTIN_DOCS = {(inspect.getdoc(t) or "").strip() for t in (int, float, str, bytes, dict, list, tuple,
                                                    bool, set, frozenset, type(None))}


def _walk(obj: griffe.Object) -> Any:
    yield obj
    for member in obj.members.values():
        if not member.is_alias:
            yield from _walk(member)
