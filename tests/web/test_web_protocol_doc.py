"""The protocol page (docs/web-protocol.md) keeps up with the web app's code.

The oracle is the code itself, read with :mod:`ast` (no list is written down here): the
message types ``_Tab.dispatch`` accepts, the ``type`` of every message the server builds,
every error code the socket's handler and the sessions pass to ``_error`` or
``SessionError``, every field a ``new`` or ``join`` message is read for, every field of a
``state`` message and of its ``result``, and every field of
:class:`~romecore.web.limits.Limits` with its default.  Each must be on the page; and the
page's table of error codes lists no code the socket cannot send."""

from __future__ import annotations

import ast
import dataclasses
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "romecore" / "web"
PAGE = ROOT / "docs" / "web-protocol.md"


def _tree(name: str) -> ast.Module:
    return ast.parse((WEB / name).read_text())


def _function(tree: ast.AST, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef:
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name == name:
            return node
    raise AssertionError(f"no function {name!r}: the test must follow the code")


def _text(node: ast.AST | None) -> str | None:
    """The string a node is a literal of, else None."""
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _strings(node: ast.AST) -> set[str]:
    return {s for n in ast.walk(node) if (s := _text(n)) is not None}


def dispatched_types() -> set[str]:
    """The ``type`` values ``_Tab.dispatch`` compares ``kind`` with."""
    out: set[str] = set()
    for node in ast.walk(_function(_tree("app.py"), "dispatch")):
        if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and node.left.id == "kind":
            for right in node.comparators:
                out |= _strings(right)
    return out


def sent_types() -> set[str]:
    """The ``type`` of every dict literal the app and the sessions build."""
    out: set[str] = set()
    for name in ("app.py", "sessions.py"):
        for node in ast.walk(_tree(name)):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values):
                    if _text(key) == "type" and (kind := _text(value)) is not None:
                        out.add(kind)
    return out


def _class(tree: ast.AST, name: str) -> ast.ClassDef:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    raise AssertionError(f"no class {name!r}: the test must follow the code")


def error_codes() -> set[str]:
    """The codes the socket can answer with: the first argument of every ``_error(...)``
    and ``SessionError(...)`` call in the socket's handler (``_Tab``) and the sessions
    (the HTTP routes' own codes are not the socket's)."""
    out: set[str] = set()
    for tree in (_class(_tree("app.py"), "_Tab"), _tree("sessions.py")):
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                    and node.func.id in ("_error", "SessionError") and node.args \
                    and (code := _text(node.args[0])) is not None:
                out.add(code)
    return out


def fields_read(tree: ast.AST) -> set[str]:
    """Keys read from a message named ``msg`` or ``d``: ``msg.get(k)``, ``msg[k]``,
    ``_int(msg, k)``, ``_bool(msg, k)``."""
    out: set[str | None] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "msg" and node.args:
            out.add(_text(node.args[0]))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("_int", "_bool") \
                and len(node.args) > 1:
            out.add(_text(node.args[1]))
    return {s for s in out if s is not None}


def dict_keys(function: ast.AST) -> set[str]:
    """Every string key a function puts in a dict: literals, ``msg[k] = ...``, ``update({...})``."""
    out: set[str | None] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Dict):
            out |= {_text(k) for k in node.keys}
        elif isinstance(node, ast.Assign):
            out |= {_text(t.slice) for t in node.targets if isinstance(t, ast.Subscript)}
    return {s for s in out if s is not None}


@pytest.fixture(scope="module")
def page() -> str:
    return PAGE.read_text()


def _missing(names: set[str], text: str) -> list[str]:
    return sorted(n for n in names if f"`{n}`" not in text)


def test_the_parsers_find_what_is_known():
    """A parser that found nothing would let every check below pass: it must find these."""
    assert {"new", "join", "move", "resign"} <= dispatched_types()
    assert {"hello", "state", "error", "hint"} <= sent_types()
    assert {"malformed", "forbidden", "stale", "rate_limited"} <= error_codes()
    assert {"game_id", "seats", "seed"} <= fields_read(_tree("sessions.py"))
    assert {"svg", "moves", "seed", "ply"} <= dict_keys(_function(_tree("sessions.py"), "update"))


def test_the_version_is_the_code_s(page):
    from romecore.web.app import PROTOCOL

    assert page.startswith(f"# The web protocol (version {PROTOCOL})")
    assert f'{{"type": "hello", "protocol": {PROTOCOL}}}' in page


def test_every_message_type_is_documented(page):
    headings = {name for line in re.findall(r"^### (.*)$", page, re.M) for name in re.findall(r"`(\w+)`", line)}
    assert dispatched_types() <= headings, sorted(dispatched_types() - headings)
    assert sent_types() <= headings, sorted(sent_types() - headings)


def test_every_error_code_is_in_the_table_and_only_those(page):
    table = set(re.findall(r"^\| `(\w+)` \| ", page.split("### `error`")[1].split("\n## ")[0], re.M))
    assert table == error_codes(), (sorted(error_codes() - table), sorted(table - error_codes()))


def test_every_field_a_page_sends_is_documented(page):
    read = fields_read(_tree("sessions.py")) | fields_read(_function(_tree("app.py"), "dispatch"))
    assert not _missing(read, page)


def test_every_field_of_state_and_result_is_documented(page):
    sessions = _tree("sessions.py")
    fields = (dict_keys(_function(sessions, "update")) | dict_keys(_function(sessions, "human_view"))
              | dict_keys(_function(sessions, "_result")) | dict_keys(_function(sessions, "_log"))
              | dict_keys(_function(sessions, "broadcast"))
              | dict_keys(_function(_tree("app.py"), "_new")))
    assert not _missing(fields, page)


def test_every_limit_is_documented(page):
    from romecore.web.limits import Limits

    limits = {f.name: f.default for f in dataclasses.fields(Limits)}
    assert not _missing(set(limits), page)
    rows = dict(re.findall(r"^\| `(\w+)` \| ([^|]+) \|", page.split("## Limits")[1], re.M))
    for name, default in limits.items():  # the default the page states is the code's
        if isinstance(default, (bool, tuple)):  # a switch, or a list the operator gives (engines)
            continue
        number = f"{default:g}" if isinstance(default, float) else str(default)
        assert re.search(rf"\b{re.escape(number)}\b", rows[name]), (name, default, rows[name])


def test_the_page_is_in_the_site_nav():
    assert re.search(r"^\s*- .*: web-protocol\.md$", (ROOT / "mkdocs.yml").read_text(), re.M)
