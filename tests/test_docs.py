"""The documentation site: its examples run, its generated parts come from the code, it builds.

Rule for the examples: every ```python block of a hand-written page under docs/ runs, the
blocks of one page in order in one namespace (a page reads as one session).  The only
blocks skipped are those a ``<!-- docs: requires ... -->`` line just above declares to need
what this environment lacks: an optional package (``pyspiel``, ``pettingzoo``,
``gymnasium``, ``torch``, ``starlette``, ``jsonschema``, ``cairosvg``, ...) or a game's
observation tensor (``observation-tensor GAME``).  Shell blocks are not run here (CI runs
the commands they show: the README's, the example plugin's, ``mkdocs build --strict``).
"""

from __future__ import annotations

import importlib.util
import json
import logging
import os
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

import pytest

import romecore
from romecore.plugins import registry

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXAMPLE = ROOT / "examples" / "romecore-example-plugin"
BLOCK = re.compile(r"^```python[^\n]*\n(.*?)^```$", re.S | re.M)
REQUIRES = re.compile(r"<!-- docs: requires (.*?) -->\s*\n\s*$")
SITE_PACKAGES = ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python", "docutils")


def _pages() -> list[Path]:
    return sorted(p for p in DOCS.rglob("*.md") if "rules" not in p.relative_to(DOCS).parts)


def _missing(requirement: str) -> str | None:
    """Why ``requirement`` is not met here, or None."""
    kind, _, arg = requirement.strip().partition(" ")
    if kind == "observation-tensor":
        try:
            romecore.load_game(arg).observation_tensor_shape()
        except romecore.RomecoreError:
            return f"{arg} has no observation tensor yet"
        return None
    if importlib.util.find_spec(kind) is None:
        return f"{kind} is not installed"
    return None


def page_blocks(text: str) -> list[tuple[str, list[str]]]:
    """(code, unmet requirements) of each python block of a page, in order."""
    out = []
    for m in BLOCK.finditer(text):
        req = REQUIRES.search(text[: m.start()])
        reasons = []
        if req:
            reasons = [r for r in map(_missing, req.group(1).split(",")) if r]
        out.append((m.group(1), reasons))
    return out


def test_pages_have_examples():
    counted = {p.relative_to(DOCS).as_posix(): len(page_blocks(p.read_text())) for p in _pages()}
    assert sum(counted.values()) >= 10, counted
    for page in ("getting-started.md", "tournaments.md", "embedding.md", "plugins.md",
                 "learning.md", "records.md", "pictures-and-browser.md", "agents.md"):
        assert counted[page] >= 1, page


def test_requires_marker_is_read():
    text = "x\n<!-- docs: requires no_such_module_xyz -->\n```python\nraise SystemExit\n```\n"
    ((code, reasons),) = page_blocks(text)
    assert "raise SystemExit" in code and reasons == ["no_such_module_xyz is not installed"]
    ((_, reasons),) = page_blocks("```python\npass\n```\n")
    assert reasons == []


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_page_examples_run(page, tmp_path, monkeypatch):
    blocks = page_blocks(page.read_text())
    if not blocks:
        pytest.skip("no python examples on this page")
    monkeypatch.chdir(tmp_path)  # examples that write files write them here
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    skipped = []
    for i, (code, reasons) in enumerate(blocks):
        if reasons:
            skipped.append(f"block {i}: {'; '.join(reasons)}")
            continue
        exec(compile(code, f"{page.relative_to(ROOT)}[block {i}]", "exec"), namespace)
    if skipped:
        pytest.skip("ran the others; " + ", ".join(skipped))


# -- the generated parts --------------------------------------------------------------------


@pytest.fixture(scope="module")
def hooks():
    if importlib.util.find_spec("docutils") is None or importlib.util.find_spec("mkdocs") is None:
        pytest.skip("the docs requirements are not installed (pip install -r docs/requirements.txt)")
    spec = importlib.util.spec_from_file_location("romecore_docs_hooks", DOCS / "hooks.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _table_rows(markdown: str) -> list[list[str]]:
    rows = [line.strip().strip("|").split(" | ") for line in markdown.splitlines()
            if line.startswith("| ")]
    return [[c.strip() for c in row] for row in rows[1:]]  # the header's separator is "| ---"


@pytest.mark.parametrize("game_id", romecore.list_games())
def test_action_table_covers_every_id(hooks, game_id, caplog):
    """Every action id is in exactly one row, in order, each block described (no warning)."""
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.romecore"):
        table, _doc = hooks.action_table(game_id)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    rows = [r for r in _table_rows(table) if r[0] != "---"]
    game = romecore.load_game(game_id)
    covered = []
    for ids, _block, reads, meaning in rows:
        first, _, last = ids.partition("-")
        first_id, last_id = int(first), int(last or first)
        covered.extend(range(first_id, last_id + 1))
        assert meaning, f"{game_id}: ids {ids} have no meaning"
        assert reads, f"{game_id}: id {first_id} has no name"
    assert covered == list(range(game.num_distinct_actions()))


def test_undocumented_block_warns(hooks, monkeypatch, caplog):
    """A block the package docstring does not describe is a warning (a failed strict build)."""
    package = importlib.import_module("romecore.games.great_city_of_rome")
    doc = package.__doc__.replace("A_PRODUCE", "A_PRODUCED")
    monkeypatch.setattr(package, "__doc__", doc)
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.romecore"):
        hooks.action_table("great_city_of_rome")
    assert "A_PRODUCE is not in the package docstring" in caplog.text


def _tensor_kernel(game_id):
    kernel = importlib.import_module(f"romecore.games.{game_id}.kernel")
    if not getattr(kernel, "TENSOR_BLOCKS", None):
        pytest.skip(f"{game_id} has no TENSOR_BLOCKS")
    return kernel


@pytest.mark.parametrize("game_id", romecore.list_games())
def test_tensor_table_covers_every_slice(hooks, game_id, caplog):
    """Every slice of TENSOR_BLOCKS is one row with a meaning, no warning; each block's
    slices tile it from 0 with no gap; the common block plus one seat block per player is
    the tensor's size at every player count."""
    kernel = _tensor_kernel(game_id)
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.romecore"):
        _table, doc = hooks.action_table(game_id)
        markdown = hooks.tensor_table(game_id, doc)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
    rows = [r for r in _table_rows(markdown) if r[0] not in ("---", "offset")]  # one table a block
    assert [r[2].strip("`") for r in rows] == list(kernel.TENSOR_BLOCKS), game_id
    assert all(r[4] for r in rows), [r for r in rows if not r[4]]
    sizes = {}
    for heading, size, blocks in hooks._tensor_sections(kernel):
        end = 0
        for name, offset, length in blocks:
            assert offset == end, (game_id, name, offset, end)
            end = offset + length
        assert end == size
        sizes[heading] = size
    common = sizes["the common block"]
    seat = next(v for k, v in sizes.items() if k.startswith("each seat"))
    spec = registry.game(game_id)
    for players in range(spec.min_players, spec.max_players + 1):
        game = romecore.load_game(game_id, players=players)
        assert game.observation_tensor_size() == common + players * seat, (game_id, players)
    assert "\"Observation tensor\" below" in doc.astext()  # the table left the reference


def test_undocumented_or_misplaced_tensor_slice_warns(hooks, monkeypatch, caplog):
    """A slice the docstring leaves out, or gives at another offset, fails a strict build."""
    _tensor_kernel("great_city_of_rome")
    package = importlib.import_module("romecore.games.great_city_of_rome")
    original = package.__doc__
    row = re.search(r"^13(\s+)14(\s+)``O_ROUND``", original, re.M)
    assert row, "the docstring's O_ROUND row moved: update this test"
    moved = original.replace(row.group(0), f"13{row.group(1)}15{row.group(2)}``O_ROUND``")
    for doc, expected in ((original.replace("``O_FACE_SHOWN``", "``O_FACE_SHOWX``"),
                           "tensor slice O_FACE_SHOWN is not in the package docstring"),
                          (moved, "gives O_ROUND offset 13, length 15; the kernel 13, 14")):
        monkeypatch.setattr(package, "__doc__", doc)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.romecore"):
            _table, tree = hooks.action_table("great_city_of_rome")
            hooks.tensor_table("great_city_of_rome", tree)
        assert expected in caplog.text, caplog.text


def test_include_rest_picks_up_new_files(hooks, monkeypatch, tmp_path):
    """A new results file appears on the page without editing it; one the page names is
    not included twice."""
    monkeypatch.setattr(hooks, "ROOT", tmp_path)
    (tmp_path / "results").mkdir()
    for name in ("strength", "ladder-x", "strength-rows"):
        (tmp_path / "results" / f"{name}.md").write_text(f"# Title {name}\n\nbody\n")
    page = "<!-- gen:include results/strength.md -->\n\n<!-- gen:include-rest results/*.md -->\n"
    out = hooks._expand(page, "strength.md")
    assert out.count("## Title strength\n") == 1
    assert "## Title ladder-x" in out and "## Title strength-rows" in out
    assert out.index("Title strength\n") < out.index("Title ladder-x")


def test_images_embeds_each_picture_of_a_folder(hooks, monkeypatch, tmp_path):
    monkeypatch.setattr(hooks, "ROOT", tmp_path)
    assert hooks.images("screenshots") == ""           # no folder yet: nothing, no warning
    (tmp_path / "docs" / "screenshots").mkdir(parents=True)
    for name in ("b-game.png", "a-setup.png", "notes.txt"):
        (tmp_path / "docs" / "screenshots" / name).write_bytes(b"x")
    assert hooks.images("screenshots") == ("![a setup](screenshots/a-setup.png)\n\n"
                                           "![b game](screenshots/b-game.png)")


def test_every_command_is_documented(hooks):
    """Every command module's help is on the site: registered commands on the command-line
    page, any other (not yet added to the group) through a cli-command marker."""
    from romecore import cli
    from romecore.cli import main

    marked = {m.group(2) for page in _pages() for m in hooks.MARKER.finditer(page.read_text())
              if m.group(1) == "cli-command"}
    registered = {cmd.callback.__module__.rpartition(".")[2] for cmd in main.commands.values()}
    for info in pkgutil.iter_modules(cli.__path__):
        module = importlib.import_module(f"romecore.cli.{info.name}")
        if hasattr(module, "command"):
            assert info.name in registered or info.name in marked, info.name
    assert "Usage: romecore serve" in hooks.cli_command("serve")


def test_agent_tables_list_every_parameter(hooks):
    text = hooks.agents_section()
    for name, spec in registry.agents().items():
        assert f"### `{name}`" in text
        for key in spec.params:
            assert f"| `{key}` |" in text, (name, key)


def test_markers_are_known_and_includes_exist(hooks):
    for page in _pages():
        for m in hooks.MARKER.finditer(page.read_text()):
            assert m.group(1) in hooks.GENERATORS, (page, m.group(0))
            if m.group(1) in ("include", "code"):
                assert (ROOT / m.group(2)).is_file(), (page, m.group(2))
            if m.group(1) == "include-rest":
                assert list(ROOT.glob(m.group(2))), (page, m.group(2))


# -- the example plugin (its install-and-run is scripts/check_example_plugin.sh) ------------


def test_example_plugin_without_installing(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE / "src"))
    example = importlib.import_module("romecore_example_plugin")
    (agent_spec,) = example.romecore_agents()
    game = romecore.load_game("great_city_of_rome", players=2)
    bot = agent_spec.build(game, 1, {"playouts": "2"})
    state = game.new_initial_state(seed=4)
    moves = 0
    while not state.is_terminal() and moves < 12:
        if state.is_chance_node():
            state.apply_random_chance()
            continue
        action = bot.step(state.resample(state.current_player(), seed=moves))
        state.apply_action(action)  # IllegalActionError if the agent were wrong
        moves += 1
    with pytest.raises(romecore.AgentSpecError):
        agent_spec.build(game, 1, {"playouts": "0"})
    specs = example.romecore_evaluators()
    assert {s.game_id for s in specs} == set(romecore.list_games())
    values = specs[0].factory(game=game)(state)
    assert len(values) == 2 and abs(sum(values) - 1.0) < 1e-9


# -- the site builds -----------------------------------------------------------------------


def test_site_builds_strict(tmp_path):
    missing = [m for m in SITE_PACKAGES if importlib.util.find_spec(m.split(".")[0]) is None
               or importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (pip install -r docs/requirements.txt)")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
         "-d", str(tmp_path / "site")],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    for game_id in romecore.list_games():
        page = (tmp_path / "site" / "games" / game_id / "index.html").read_text()
        assert "action ids in all" in page
        assert "The common block</strong>" in page, game_id
    from romecore import records

    published = (tmp_path / "site" / "schemas" / "record-v2.schema.json").read_text()
    assert json.loads(published) == records.record_schema()
