"""MkDocs hooks: the parts of the site that come from code, generated at every build.

- One rules primer per installed game (``games/<game_id>-primer.md``): the ``primer.md``
  its package ships (``romecore.primers.primer_text``, the text ``romecore serve`` shows at
  ``/rules/<game_id>``) under a title; a game without one is a warning.
- One page per installed game (``games/<game_id>.md``): a link to its primer, its spec
  (players, options, agent defaults), the action table built from ``kernel.ACTION_BLOCKS`` and ``NUM_ACTIONS`` (each
  row's meaning read from the package docstring's table, each example name from
  ``action_to_string``), the package docstring itself, the observation tensor, a picture
  and the rulings from ``docs/rules/`` (each part appears as soon as the code has it).
- Each game page's observation tensor table: every slice of ``kernel.TENSOR_BLOCKS``
  (offsets and lengths from the kernel), its bound and meaning from the package
  docstring's "Observation tensor" table.
- Markers in hand-written pages, a line ``<!-- gen:NAME ARGS -->`` each: ``agents``
  (every registered agent's parameter table), ``evaluators``, ``include PATH`` (a file of
  the repository, e.g. ``bench/results/README.md``), ``include-rest GLOB`` (every file
  matching GLOB that the page does not include by name, so new results appear by
  themselves), ``code PATH`` (a file as a code block), ``cli`` (every command's help),
  ``cli-command NAME`` (one command's help), ``images DIR`` (every picture in ``docs/DIR``,
  e.g. the web app's screenshots once there are some), ``api-batch`` (the batched API's
  reference), ``version`` (``romecore.__version__``, written once in the package).
- ``contributing.md`` from ``CONTRIBUTING.md`` and ``changelog.md`` from ``CHANGELOG.md``;
  the JSON Schemas of ``src/romecore/schemas/`` published as ``schemas/<name>.schema.json``.
- The footer names the version (``romecore X.Y.Z``, MkDocs' ``copyright``).

Anything missing (a block the docstring does not document, a file to include, an unknown
marker) is logged as a warning, which fails ``mkdocs build --strict``.
"""

from __future__ import annotations

import html
import importlib
import importlib.util
import logging
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import click
from docutils import nodes
from docutils.core import publish_doctree, publish_from_doctree
from docutils.parsers.rst import roles
from mkdocs.structure.files import File, Files

import romecore
from romecore.plugins import registry
from romecore.primers import primer_text

log = logging.getLogger("mkdocs.plugins.romecore")
try:  # the learned evaluators, as an installed romecore has them (a checkout may predate
    from romecore.learned import ensure_registered  # the entry point)
except ImportError:  # pragma: no cover - a build without numpy
    pass
else:
    ensure_registered()
ROOT = Path(__file__).resolve().parent.parent
MARKER = re.compile(r"^<!-- gen:(\S+)(?: (.*?))? -->$", re.M)
SPHINX_ROLES = ("mod", "class", "meth", "func", "data", "attr", "exc", "obj", "const")


def _literal_role(name: str, rawtext: str, text: str, lineno: int, inliner: Any,
                  options: Any = None, content: Any = None) -> tuple[list, list]:
    """Sphinx's Python roles, for docutils alone: the target as inline code."""
    return [nodes.literal(rawtext, text.lstrip("~"))], []


for _role in SPHINX_ROLES:
    roles.register_local_role(_role, _literal_role)

RST_SETTINGS = {
    "doctitle_xform": False,
    "initial_header_level": 3,
    "report_level": 2,          # warnings and errors reach the log ...
    "halt_level": 5,            # ... and are turned into build warnings below
    "warning_stream": None,
    "embed_stylesheet": False,
    "syntax_highlight": "none",
}


# -- reStructuredText (the package docstrings) ----------------------------------------------


def _doctree(text: str, source: str) -> nodes.document:
    messages: list[str] = []

    class Stream:
        def write(self, s: str) -> None:
            messages.append(s.strip())

    doc = publish_doctree(text, source_path=source,
                          settings_overrides={**RST_SETTINGS, "warning_stream": Stream()})
    for m in filter(None, messages):
        # errors fail the build; warnings (a short underline) are shown but do not
        severe = re.search(r"\((ERROR|SEVERE)/\d\)", m)
        (log.warning if severe else log.info)("reStructuredText in %s: %s", source, m)
    return doc


def _html(doc: nodes.document) -> str:
    parts = publish_from_doctree(doc, writer="html5", settings_overrides=RST_SETTINGS)
    body = parts.decode() if isinstance(parts, bytes) else parts
    m = re.search(r'<main>\n?(.*)</main>', body, re.S) or re.search(
        r'<div class="document"[^>]*>\n?(.*)</div>', body, re.S)
    return m.group(1) if m else body


def _inline_md(node: nodes.Node) -> str:
    """A table cell's text as Markdown: literals as code, the rest escaped (a cell that
    starts with ``+ `` parses as a bullet list; the bullet is kept)."""
    out: list[str] = []

    def walk(n: nodes.Node) -> None:
        if isinstance(n, nodes.system_message):     # docutils' remarks, not the cell's text
            return
        if isinstance(n, nodes.literal):
            out.append(f"`{n.astext()}`")
        elif isinstance(n, nodes.Text):
            out.append(re.sub(r"([*_|<>\[\]\\])", r"\\\1", n.astext()))
        else:
            if isinstance(n, nodes.bullet_list):
                out.append(f"{n.get('bullet', '')} ")
            for child in n.children:
                walk(child)
            out.append(" ")

    walk(node)
    return re.sub(r"\s+", " ", "".join(out)).strip()


# -- game pages ---------------------------------------------------------------------------


def _blocks(kernel: Any) -> list[tuple[str, int, int]]:
    """(name, first id, last id) of each action block, in id order, from the kernel."""
    firsts = sorted(kernel.ACTION_BLOCKS.items(), key=lambda kv: kv[1])
    ends = [first for _, first in firsts[1:]] + [kernel.NUM_ACTIONS]
    return [(name, first, end - 1) for (name, first), end in zip(firsts, ends)]


def _action_table_node(doc: nodes.document, names: list[str]) -> nodes.table | None:
    """The docstring's table that documents the action blocks (the one naming most)."""
    best, hits = None, 0
    for table in doc.findall(nodes.table):
        text = table.astext()
        n = sum(1 for name in names if re.search(rf"\b{name}\b", text))
        if n > hits:
            best, hits = table, n
    return best


def _meanings(table: nodes.table | None, names: list[str]) -> dict[str, tuple[str, str]]:
    """block name -> (the cell naming it, the last cell) from the docstring's table."""
    found: dict[str, tuple[str, str]] = {}
    if table is None:
        return found
    for row in table.findall(nodes.row):
        cells = [c for c in row.children if isinstance(c, nodes.entry)]
        for name in names:
            for cell in cells[:-1]:
                if re.search(rf"\b{name}\b", cell.astext()) and name not in found:
                    found[name] = (_inline_md(cell), _inline_md(cells[-1]))
    return found


def action_table(game_id: str) -> tuple[str, nodes.document]:
    """The action table (Markdown) and the package docstring's doctree without its table."""
    package = importlib.import_module(f"romecore.games.{game_id}")
    kernel = importlib.import_module(f"romecore.games.{game_id}.kernel")
    game = romecore.load_game(game_id)
    state = game.new_initial_state(seed=0)
    blocks = _blocks(kernel)
    names = [name for name, _, _ in blocks]
    doc = _doctree(package.__doc__ or "", f"romecore.games.{game_id}")
    table = _action_table_node(doc, names)
    meanings = _meanings(table, names)
    rows = ["| ids | block | first id reads | meaning |", "| --- | --- | --- | --- |"]
    for name, first, last in blocks:
        if name not in meanings:
            log.warning("%s: action block %s is not in the package docstring's table",
                        game_id, name)
        cell, meaning = meanings.get(name, (f"`{name}`", ""))
        ids = f"{first}" if first == last else f"{first}-{last}"
        example = html.escape(state.action_to_string(first)).replace("|", "\\|")
        rows.append(f"| {ids} | {cell} | {example} | {meaning} |")
    if table is not None:
        table.parent.remove(table)
    total = (f"\n{kernel.NUM_ACTIONS} action ids in all (`game.num_distinct_actions()`); "
             "ids, blocks and first names above come from the kernel "
             "(`kernel.ACTION_BLOCKS`, `action_to_string`), meanings from the package "
             "docstring.\n")
    return "\n".join(rows) + "\n" + total, doc


def _options_table(spec: Any) -> str:
    rows = ["| option | type | default | allowed | what |", "| --- | --- | --- | --- | --- |",
            f"| `players` | int | {spec.default_players} | "
            f"{spec.min_players}-{spec.max_players} | number of players |"]
    for opt in spec.options:
        allowed = ", ".join(f"`{c!r}`" for c in opt.choices) if opt.choices else "see text"
        rows.append(f"| `{opt.name}` | {opt.type.__name__} | `{opt.default!r}` | {allowed} | "
                    f"{opt.doc} |")
    return "\n".join(rows)


#: What each ``kernel.TENSOR_<NAME>`` size constant is a block of, for the section headings.
TENSOR_SECTIONS = {
    "COMMON": "the common block",
    "PER_PLAYER": "each seat's block (p's own first, then the seats after p)",
    "PLAYER": "each seat's block (p's own first, then the seats after p)",
    "SLOT": "each structure slot",
    "FRAME": "each action frame",
}


def _tensor_sections(kernel: Any) -> list[tuple[str, int, list[tuple[str, int, int]]]]:
    """(heading, size, [(name, offset, length)]) of each block of ``kernel.TENSOR_BLOCKS``:
    a block starts where offsets start again at 0, and is named by the ``TENSOR_*``
    constant equal to its size."""
    sections: list[list[tuple[str, int, int]]] = []
    for name, (offset, length) in kernel.TENSOR_BLOCKS.items():
        if not sections or (offset == 0 and sections[-1]):
            sections.append([])
        sections[-1].append((name, int(offset), int(length)))
    sizes = {key[len("TENSOR_"):]: getattr(kernel, key) for key in dir(kernel)
             if key.startswith("TENSOR_") and key != "TENSOR_BLOCKS"}
    out = []
    for blocks in sections:
        size = max(o + n for _, o, n in blocks)
        kind = next((k for k, v in sizes.items() if v == size), None)
        if kind is None:
            log.warning("%s: a tensor block of %d floats matches no TENSOR_* size",
                        kernel.__name__, size)
        heading = TENSOR_SECTIONS.get(kind or "", f"a block of {size} floats")
        out.append((heading, size, blocks))
    return out


def _header(table: nodes.table) -> list[str]:
    head = next(table.findall(nodes.thead), None)
    row = next(head.findall(nodes.row), None) if head is not None else None
    if row is None:
        return []
    return [c.astext().strip().lower() for c in row.children if isinstance(c, nodes.entry)]


def tensor_table(game_id: str, doc: nodes.document) -> str:
    """The observation tensor's layout (Markdown): every slice of ``kernel.TENSOR_BLOCKS``
    (offset and length from the kernel), its bound and meaning read from the package
    docstring's table, which is taken out of ``doc`` (a note stands in its place).
    A slice the docstring does not describe, or describes at another offset or length,
    is a warning."""
    kernel = importlib.import_module(f"romecore.games.{game_id}.kernel")
    blocks = getattr(kernel, "TENSOR_BLOCKS", None)
    if not blocks:
        return ""
    names = list(blocks)
    table = _action_table_node(doc, names)
    header = _header(table) if table is not None else []
    col = {h: i for i, h in enumerate(header)}
    meaning_col = col.get("meaning", -1)
    bound_col = col.get("by", col.get("bound"))
    found: dict[str, list[str]] = {}
    for row in table.findall(nodes.row) if table is not None else []:
        cells = [c for c in row.children if isinstance(c, nodes.entry)]
        for name in names:
            if name not in found and any(re.fullmatch(rf"\s*{name}\s*", c.astext())
                                         for c in cells):
                found[name] = [c.astext().strip() for c in cells] + [_inline_md(c) for c in cells]
    out = []
    for heading, size, section in _tensor_sections(kernel):
        out.append(f"**{heading[0].upper()}{heading[1:]}**: {size} floats\n")
        out.append("| offset | length | slice | divided by | meaning |\n| --- | --- | --- | --- | --- |")
        for name, offset, length in section:
            cells = found.get(name)
            if cells is None:
                log.warning("%s: tensor slice %s is not in the package docstring's table",
                            game_id, name)
                cells = [""] * 2 * max(len(header), 1)
            half = len(cells) // 2
            text, md = cells[:half], cells[half:]
            if cells[0] and (text[0:2] != [str(offset), str(length)]):
                log.warning("%s: the package docstring gives %s offset %s, length %s; the "
                            "kernel %d, %d", game_id, name, text[0], text[1], offset, length)
            bound = md[bound_col] if bound_col is not None and bound_col < half else ""
            bound = "" if bound in ("`-`", "-", "flag", "--") else bound
            meaning = md[meaning_col] if half else ""
            out.append(f"| {offset} | {length} | `{name}` | {bound} | {meaning} |")
        out.append("")
    if table is not None:
        note = nodes.paragraph(text="(The table of slices is under \"Observation tensor\" "
                                    "below, generated from kernel.TENSOR_BLOCKS.)")
        table.replace_self(note)
    return "\n".join(out)


def _tensor_section(game: Any, table: str) -> str:
    try:
        shape = game.observation_tensor_shape()
    except romecore.RomecoreError:
        return ("This game does not provide an observation tensor yet; when its kernel "
                "fills the slot, its shape appears here and its layout (the package "
                "docstring's \"Observation tensor\" table) in the reference above.")
    sizes = ", ".join(
        f"{p} players: {romecore.load_game(game.game_id, players=p).observation_tensor_size()}"
        for p in range(game.spec.min_players, game.spec.max_players + 1))
    return (f"`state.observation_tensor(p)` is a float32 array of shape `{tuple(shape)}` "
            f"at {game.num_players()} players ({sizes} floats), every value in [0, 1]; "
            "`game.observation_tensor_shape()` gives it.  The slices below: offsets and "
            "lengths from the kernel (`kernel.TENSOR_BLOCKS`, offsets within their block), "
            "the bound each count is divided by and the meaning from the package docstring "
            "(blank: a flag or one-hot).  The whole tensor is the common block, then one "
            "seat block per player.\n\n" + table)


def _picture_section(game: Any) -> str:
    """A fresh game after set-up, drawn by ``romecore.picture.to_svg`` (or ``state.to_svg``)."""
    state = game.new_initial_state(seed=1)
    state.resolve_chance()
    draw = getattr(state, "to_svg", None)
    if draw is None and importlib.util.find_spec("romecore.picture") is not None:
        module = importlib.import_module("romecore.picture")
        draw = lambda player=None: module.to_svg(state, player)  # noqa: E731
    if draw is None:
        return "Pictures (`to_svg(state, player)`) are not available yet."
    try:
        svg = draw(None)
    except (romecore.PluginError, NotImplementedError):
        return "This game cannot draw a picture yet."
    except romecore.RomecoreError as e:
        log.warning("%s: to_svg failed: %s", game.game_id, e)
        return ""
    svg = re.sub(r"<\?xml[^>]*>\s*", "", svg)
    return ("A fresh game after set-up, drawn by `romecore.picture.to_svg(state, None)` (the "
            "whole truth; `to_svg(state, p)` draws what player p sees):\n\n"
            f'<div class="romecore-board" markdown="0">\n{svg}\n</div>')


def _knowledge_section(game: Any) -> str:
    state = game.new_initial_state(seed=3)
    state.resolve_chance()
    obs, full = state.observation(0), state.to_dict()
    hidden = sorted(set(full) - set(obs))
    shown = ", ".join(f"`{k}`" for k in obs)
    text = (f"`state.observation(p)` is what player `p` knows and nothing more; after "
            f"set-up its keys are {shown}.")
    if hidden:
        text += (" Of the full `to_dict()`, these fields are left out of it: "
                 + ", ".join(f"`{k}`" for k in hidden) + ".")
    return text + (" The reference above says what is hidden and how `resample(p)` "
                   "redraws it.")


def _rulings(game_id: str) -> str:
    path = ROOT / "docs" / "rules" / f"{game_id.replace('_', '-')}.md"
    if not path.exists():
        return "This game has no rulings file in `docs/rules/`."
    text = path.read_text(encoding="utf-8")
    return re.sub(r"^(#+) ", lambda m: "#" + m.group(0), text, flags=re.M)


def primer_page(game_id: str) -> str | None:
    """The game's rules primer as a page: the shipped text under a title (its headings
    start at ``##``), or None (a warning) when the game ships none."""
    try:
        text = primer_text(game_id)
    except romecore.PluginError as e:
        log.warning("%s", e)
        return None
    name = registry.game(game_id).name
    return (f"# {name}: rules primer\n\n"
            f"How to play {name}, for someone who never has: the primer that ships with the "
            f"game (`romecore.primers.primer_text(\"{game_id}\")`, and on the browser table "
            f"`/rules/{game_id}`). The [reference page]({game_id}.md) has the options, the "
            f"actions and the encodings.\n\n{text}")


def _defaults(name: str, players: int | None, params: Mapping[str, Any]) -> str:
    """One group of a game's agent defaults: `name` (at N players): `k=v`, ..."""
    where = "" if players is None else f" at {players} players"
    return f"`{name}`{where}: " + ", ".join(f"`{k}={v}`" for k, v in params.items())


def game_page(game_id: str) -> str:
    spec = registry.game(game_id)
    game = romecore.load_game(game_id)
    table, doc = action_table(game_id)
    tensors = tensor_table(game_id, doc)
    defaults = "".join(f"\n- {_defaults(agent, players, params)}"
                       for agent, players, params in spec.agent_default_groups()) or " none."
    return f"""# {spec.name}

{spec.description}

New to the game? Start with its [rules primer]({game_id}-primer.md).

Game id `{game_id}`, {spec.min_players} to {spec.max_players} players (default
{spec.default_players}), {"perfect" if spec.perfect_information else "imperfect"} information.
Everything on this page except the prose of the sections below is generated from the code at
build time.

```sh
romecore tournament {game_id} -a ismcts:time=0.1 -a greedy -g 8
```

## Options

{_options_table(spec)}

Agent parameter defaults this game sets (applied under the user's own):{defaults}

## Actions

{table}

## Reference

From the package docstring of `romecore.games.{game_id}`: the encoding details, the
`to_dict()` schema and what each player knows.

<div class="romecore-docstring" markdown="0">
{_html(doc)}
</div>

## What each player knows

{_knowledge_section(game)}

## Observation tensor

{_tensor_section(game, tensors)}

## Picture

{_picture_section(game)}

## Rulings

The rulebook text comes first; these rulings (`docs/rules/`) fill its gaps.

{_rulings(game_id)}
"""


# -- markers in hand-written pages ----------------------------------------------------------


def agents_section() -> str:
    out = []
    game_defaults = {gid: spec.agent_default_groups() for gid, spec in registry.games().items()}
    for name, spec in registry.agents().items():
        out.append(f"### `{name}`\n\n{spec.description}\n")
        factory = spec.factory
        doc = (factory.__doc__ or "").strip()
        if doc:
            para = _doctree(doc.split("\n\n")[0], f"agent {name}")
            out.append(f'<div markdown="0">{_html(para)}</div>\n')
        if spec.params:
            out.append("| parameter | type | default | what it does |\n| --- | --- | --- | --- |")
            for key, (typ, default, help_) in spec.params.items():
                help_md = re.sub(r"([|<>])", r"\\\1", help_)
                out.append(f"| `{key}` | {typ.__name__} | `{default!r}` | {help_md} |")
            out.append("")
        else:
            out.append("No parameters.\n")
        per_game = [_defaults(gid, players, params) for gid, groups in game_defaults.items()
                    for agent, players, params in groups if agent == name]
        if per_game:
            out.append("Game defaults: " + "; ".join(per_game) + ".\n")
    return "\n".join(out)


def evaluators_section() -> str:
    rows = ["| game | evaluator | what it is |", "| --- | --- | --- |"]
    for gid in registry.games():
        for i, e in enumerate(registry.evaluators(gid)):
            default = " (default)" if i == 0 else ""
            rows.append(f"| `{gid}` | `{e.name}`{default} | {e.description} |")
    return "\n".join(rows)


def include(path: str) -> str:
    """A repository file, its headings one level down (the page has the title)."""
    file = ROOT / path
    if not file.is_file():
        log.warning("include: %s does not exist", path)
        return ""
    text = file.read_text(encoding="utf-8")
    return re.sub(r"^(#+) ", lambda m: "#" + m.group(0), text, flags=re.M)


def include_rest(pattern: str, page: str = "") -> str:
    """Every repository file matching ``pattern`` (a glob) that the page does not already
    include by name, in name order: new result files appear without editing the page."""
    named = {m.group(2) for m in MARKER.finditer(page) if m.group(1) == "include"}
    paths = sorted(f.relative_to(ROOT).as_posix() for f in ROOT.glob(pattern) if f.is_file())
    if not paths:
        log.warning("include-rest: nothing matches %s", pattern)
    return "\n\n".join(include(path) for path in paths if path not in named)


def images(folder: str) -> str:
    """Every picture in ``docs/<folder>/`` (e.g. the web app's screenshots), in name order,
    each with its name as the caption; nothing while the folder does not exist."""
    pictures = sorted(f for f in (ROOT / "docs" / folder).glob("*")
                      if f.suffix.lower() in (".png", ".svg", ".jpg", ".jpeg", ".webp"))
    return "\n\n".join(f"![{f.stem.replace('-', ' ')}]({folder}/{f.name})" for f in pictures)


def code(path: str) -> str:
    """A repository file as a code block, verbatim."""
    file = ROOT / path
    if not file.is_file():
        log.warning("code: %s does not exist", path)
        return ""
    lang = {".py": "python", ".toml": "toml", ".sh": "sh", ".md": "markdown",
            ".json": "json"}.get(file.suffix, "text")
    return f"```{lang} title=\"{path}\"\n{file.read_text(encoding='utf-8').rstrip()}\n```"


def cli_section() -> str:
    from romecore.cli import main

    out = []
    ctx = click.Context(main, info_name="romecore")
    for name, cmd in sorted(main.commands.items()):
        sub = click.Context(cmd, info_name=name, parent=ctx, terminal_width=100)
        out.append(f"## `romecore {name}`\n\n```text\n{cmd.get_help(sub)}\n```\n")
    return "\n".join(out)


def cli_command(name: str) -> str:
    """One command's help, from its module ``romecore.cli.<name>`` (registered or not)."""
    from romecore.cli import main

    cmd = main.commands.get(name) or importlib.import_module(f"romecore.cli.{name}").command
    ctx = click.Context(main, info_name="romecore")
    sub = click.Context(cmd, info_name=name, parent=ctx, terminal_width=100)
    return f"```text\n{cmd.get_help(sub)}\n```"


def api_batch() -> str:
    if importlib.util.find_spec("romecore.batch") is None:
        return ("The batched API (`romecore.batch`: many states stepped at once, numpy in "
                "and out) is being added; its reference appears here, generated from its "
                "docstrings, as soon as the module exists.")
    return "::: romecore.batch"


def version() -> str:
    """The package's version, as ``romecore.__version__`` gives it."""
    return romecore.__version__


GENERATORS = {
    "agents": agents_section,
    "evaluators": evaluators_section,
    "include": include,
    "include-rest": include_rest,
    "cli-command": cli_command,
    "images": images,
    "code": code,
    "cli": cli_section,
    "api-batch": api_batch,
    "version": version,
}


def _expand(markdown: str, where: str) -> str:
    def one(m: re.Match[str]) -> str:
        name, arg = m.group(1), m.group(2)
        gen = GENERATORS.get(name)
        if gen is None:
            log.warning("%s: unknown marker gen:%s", where, name)
            return ""
        if name == "include-rest":
            return include_rest(arg, markdown)
        return gen(arg) if arg else gen()  # type: ignore[operator]

    return MARKER.sub(one, markdown)


# -- MkDocs events --------------------------------------------------------------------------


def on_config(config: Any) -> Any:
    """The footer names the version the site documents."""
    config["copyright"] = f"romecore {romecore.__version__}"
    return config


def on_files(files: Files, config: Any) -> Files:
    for game_id in registry.games():
        files.append(File.generated(config, f"games/{game_id}.md", content=game_page(game_id)))
        primer = primer_page(game_id)
        if primer is not None:
            files.append(File.generated(config, f"games/{game_id}-primer.md", content=primer))
    contributing = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "contributing.md", content=contributing))
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "changelog.md", content=changelog))
    for schema in sorted((ROOT / "src" / "romecore" / "schemas").glob("*.schema.json")):
        # published as they ship, so other programs can fetch them from the site
        files.append(File.generated(config, f"schemas/{schema.name}",
                                    content=schema.read_text(encoding="utf-8")))
    return files


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    return _expand(markdown, page.file.src_uri)
