"""The rules primers: one ships with every game, has the sections a new player needs, and its
worked first turn replays move for move in the engine, so the example cannot drift from it.

The worked turn's convention: a fenced code block names the game (``load_game("ID",
players=N)``) and the seed (``new_initial_state(seed=S)``); each numbered item starts with
the seat in bold (``**P1**``) and quotes, in backticks, the moves that seat plays, in order.
Between the moves chance is dealt by the state's seeded dealer (``apply_random_chance``).
Every inline code span of the section outside the code block is such a move.
"""

from __future__ import annotations

import ast
import fnmatch
import re
from importlib import resources
from pathlib import Path

import pytest

import romecore
from romecore import primers
from romecore.errors import PluginError, UnknownGameError
from romecore.plugins import registry

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("great_city_of_rome", "city_of_marble", "rise_to_power", "glory_to_rome")
SECTIONS = (
    "What the game is about",
    "On the table",
    "How a round goes",
    "Scoring and the end of the game",
    "A worked first turn",
    "The project's rulings",
    "Options, player counts and playing time",
)
WORKED = "A worked first turn"
ITEM = re.compile(r"^\d+\.\s+\*\*P(\d+)\*\*\s")
FENCE = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)


def packaged(game_id: str) -> str:
    """The primer as the game's package ships it, read without the code under test."""
    return resources.files(f"romecore.games.{game_id}").joinpath("primer.md").read_text(encoding="utf-8")


def sections(text: str) -> dict[str, str]:
    """Level-2 heading -> the text under it (code blocks left in)."""
    parts = re.split(r"^## (.+?)\s*$", text, flags=re.M)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts), 2)}


def worked_items(section: str) -> list[tuple[int, list[str]]]:
    """(seat, [move texts]) for each numbered item of the worked turn, in order."""
    items: list[tuple[int, list[str]]] = []
    for line in FENCE.sub("", section).splitlines():
        m = ITEM.match(line)
        if m:
            items.append((int(m.group(1)), []))
        elif line.strip() and not line.startswith((" ", "\t")):
            items.append((-1, []))  # a paragraph: its code spans belong to no item
        if line.strip() and items:
            items[-1][1].extend(re.findall(r"`([^`]+)`", line))
    return items


def test_every_registered_game_has_a_primer() -> None:
    assert set(GAMES) <= set(registry.games())
    for game_id in registry.games():
        assert primers.primer_text(game_id) == packaged(game_id)


@pytest.mark.parametrize("game_id", GAMES)
def test_primer_has_the_sections_in_order(game_id: str) -> None:
    text = packaged(game_id)
    headings = re.findall(r"^## (.+?)\s*$", text, flags=re.M)
    assert headings == list(SECTIONS)
    outside_code = FENCE.sub("", text)
    assert not re.search(r"^# ", outside_code, flags=re.M), "the page title comes from the site"
    assert 80 <= len(text.splitlines()) <= 160
    for name, body in sections(text).items():
        assert body.strip(), f"{game_id}: section {name!r} is empty"


@pytest.mark.parametrize("game_id", GAMES)
def test_options_section_names_players_and_every_option(game_id: str) -> None:
    spec = registry.game(game_id)
    body = sections(packaged(game_id))["Options, player counts and playing time"]
    assert f"{spec.min_players} to {spec.max_players} players" in body
    assert f"default {spec.default_players}" in body
    for option in spec.options:
        assert f"`{option.name}`" in body, f"{game_id}: option {option.name} is not explained"


@pytest.mark.parametrize("game_id", GAMES)
def test_worked_first_turn_replays_in_the_engine(game_id: str) -> None:
    body = sections(packaged(game_id))[WORKED]
    setup = re.search(r'load_game\("(\w+)", players=(\d+)\)\.new_initial_state\(seed=(\d+)\)', body)
    assert setup, "the worked turn names its game, player count and seed in a code block"
    assert setup.group(1) == game_id
    items = worked_items(body)
    assert all(seat >= 0 for seat, moves in items if moves), "a quoted move outside a numbered item"
    moves = [(seat, text) for seat, texts in items for text in texts]
    assert len(moves) >= 6
    state = romecore.load_game(game_id, players=int(setup.group(2))).new_initial_state(seed=int(setup.group(3)))
    for i, (seat, text) in enumerate(moves):
        while state.is_chance_node():
            state.apply_random_chance()
        legal = {state.action_to_string(a): a for a in state.legal_actions()}
        assert state.current_player() == seat, f"move {i} ({text!r}) is P{state.current_player()}'s, not P{seat}'s"
        assert text in legal, f"move {i} ({text!r}) is not legal here; legal: {sorted(legal)}"
        state.apply_action(legal[text])


def test_unknown_game_and_missing_primer(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(UnknownGameError):
        primers.primer_text("no_such_game")

    class Elsewhere:  # a "state class" in a package that ships no primer
        __module__ = "romecore.tournament"

    spec = registry.game("glory_to_rome")
    monkeypatch.setattr(registry, "game", lambda game_id: type(spec)(**{**spec.__dict__, "state_class": Elsewhere}))
    with pytest.raises(PluginError):
        primers.primer_text("glory_to_rome")


def test_primers_are_package_data() -> None:
    """setup.py's package_data ships ``primer.md`` from each game package (an editable
    install reads the source tree, so the import above would pass without it)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", "") == "setup")
    data = ast.literal_eval(next(k.value for k in call.keywords if k.arg == "package_data"))
    patterns = data.get("", [])
    for game_id in GAMES:
        assert (ROOT / "src" / "romecore" / "games" / game_id / "primer.md").is_file()
        assert any(fnmatch.fnmatch("primer.md", p) for p in patterns), patterns


@pytest.mark.parametrize("game_id", GAMES)
def test_primer_html_renders_every_section(game_id: str) -> None:
    pytest.importorskip("markdown", reason="primer_html needs the web extra's Markdown")
    text, page = primers.primer_text(game_id), primers.primer_html(game_id)
    headings = [line[3:].strip() for line in text.splitlines() if line.startswith("## ")]
    assert headings and all(f"<h2>{h}</h2>" in page for h in headings if "`" not in h and "*" not in h)
    assert page.count("<table>") == text.count("\n| --- ") + text.count("\n|---")
