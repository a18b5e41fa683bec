"""Pictures (``romecore.picture.to_svg``) of every game and player count, at states along
seeded random games: each is valid SVG (parsed by xml.etree), names whose view it is, and
shows a player nothing hidden from them: the pictures that player gets of two worlds
``resample`` makes from their knowledge are equal (a check shown able to fail by a
renderer that is handed every seat's knowledge).  Contents are checked against the
state's dict (the truth, independent of the renderers' observations); ``romecore render``
is run through click's CliRunner."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

import romecore
from conftest import GAME_CONFIGS, GAME_IDS
from robustness import states_along
from romecore import picture, records
from romecore.cli import render
from romecore.match import play_game

SVG = "{http://www.w3.org/2000/svg}"


def _parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    assert int(root.get("width")) > 100 and int(root.get("height")) > 100
    return root


def _texts(root: ET.Element, tag: str = "text") -> list[str]:
    return [e.text or "" for e in root.iter(SVG + tag)]


def _states(game: romecore.Game, count: int = 6) -> list[romecore.State]:
    """About ``count`` states spread over one seeded random game, its end included."""
    probe = game.new_initial_state(seed=7)
    probe.playout(7)
    every = max(1, len(probe.history()) // count)
    return states_along(game, seed=7, every=every)


@pytest.mark.parametrize("gid,n", GAME_CONFIGS, ids=[f"{g}-{n}p" for g, n in GAME_CONFIGS])
def test_every_picture_parses_names_its_viewer_and_hides_nothing(gid, n):
    game = romecore.load_game(gid, players=n)
    states = _states(game)
    assert states[-1].is_terminal()
    for st in states:
        truth = _parse(picture.to_svg(st))
        assert any("whole truth" in t for t in _texts(truth))
        for p in range(n):
            mine = picture.to_svg(st, p)
            root = _parse(mine)
            assert any(f"view of P{p}" in t for t in _texts(root))
            seed = len(st.history())
            a = picture.to_svg(st.resample(p, seed=seed), p)
            b = picture.to_svg(st.resample(p, seed=seed + 1), p)
            assert a == b == mine, f"{gid} move {len(st.history())}: P{p}'s picture depends on hidden cards"


def _leaky_views(state, player):
    """What a renderer that looked at the whole state would be handed."""
    return {q: state.observation(q) for q in range(state.game.num_players())}


@pytest.mark.parametrize("gid", ["glory_to_rome", "great_city_of_rome"])
def test_the_resample_check_catches_a_leaky_renderer(gid, monkeypatch):
    game = romecore.load_game(gid, players=3)
    monkeypatch.setattr(picture, "views", _leaky_views)
    differ = 0
    for st in _states(game, 10)[1:-1]:
        for p in range(3):
            a = picture.to_svg(st.resample(p, seed=1), p)
            b = picture.to_svg(st.resample(p, seed=2), p)
            differ += a != b
    assert differ > 0


def _titles(svg: str) -> list[str]:
    return _texts(ET.fromstring(svg), "title")


def _mid(gid: str, n: int = 3, steps: int = 120, seed: int = 5) -> romecore.State:
    game = romecore.load_game(gid, players=n)
    st = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not st.is_terminal() and len(st.history()) < steps:
        if st.is_chance_node():
            st.apply_random_chance()
        else:
            st.apply_action(rng.choice(st.legal_actions()))
    return st


def test_great_city_draws_every_building_where_it_stands_and_the_viewer_hand():
    st = _mid("great_city_of_rome", steps=150)
    d = st.to_dict()
    for p in (None, 0, 2):
        titles = _titles(picture.to_svg(st, p))
        for pd in d["players"]:
            for b in pd["city"]:
                assert f"{b['building']} at ({b['row']},{b['col']})" in titles
    texts = _texts(ET.fromstring(picture.to_svg(st, 1)))
    for card in d["players"][1]["hand"]:
        assert card["building"] in texts
    # the board's row and column numbers (as build actions name cells) are drawn
    assert all(str(k) in texts for k in range(8))


def test_city_of_marble_draws_every_tile_hill_and_site():
    st = _mid("city_of_marble", steps=160)
    d = st.to_dict()
    svg = picture.to_svg(st, 0)
    titles = _titles(svg)
    tiles = [t for t in titles if " tile on " in t]
    assert len(tiles) == len(d["tiles"]) > 0
    for tile in d["tiles"]:
        corners = sorted({tuple(v) for tri in tile["triangles"] for v in tri})
        assert f"{tile['colour']} tile on " + " ".join(f"({q},{r})" for q, r in corners) in tiles
    for s, t in d["hills"]:
        assert titles.count(f"hill ({s},{t})") == 6
    texts = _texts(ET.fromstring(svg))
    assert "0,0" in texts and "-7,4" in texts  # every vertex carries its coordinates


def test_rise_to_power_draws_every_die_with_its_value():
    st = _mid("rise_to_power", steps=40)
    d = st.to_dict()
    want = sorted(f"P{g['player']}'s die: {v}" for track in d["tracks"].values() for g in track for v in g["dice"])
    want += [f"P{q}'s die: {v}" for q, pd in enumerate(d["players"]) for v in pd["dice"]]
    assert want
    got = sorted(t for t in _titles(picture.to_svg(st, None)) if "'s die: " in t)
    assert got == sorted(want)


def test_glory_to_rome_pool_counts_and_the_viewer_alone_sees_their_hand():
    st = _mid("glory_to_rome", steps=200)
    d = st.to_dict()
    texts = _texts(ET.fromstring(picture.to_svg(st, None)))
    pool = sum(int(t.split("\u00d7")[1]) for t in texts if "\u00d7" in t)
    assert pool == len(d["pool"])
    mine = picture.to_svg(st, 0)
    assert "scores are not shown" in mine and "score " not in "".join(_texts(ET.fromstring(mine)))
    assert "final:" not in mine


def test_bad_player_is_a_romecore_error_and_pictures_show_in_jupyter():
    st = romecore.load_game("great_city_of_rome", players=2).new_initial_state(seed=1)
    with pytest.raises(romecore.InvalidArgumentError):
        picture.to_svg(st, 2)
    with pytest.raises(romecore.ArgumentTypeError):
        picture.to_svg(st, "0")
    pic = picture.picture(st, 1)
    assert pic._repr_svg_() == picture.to_svg(st, 1)


def test_write_svg_and_png(tmp_path):
    st = romecore.load_game("rise_to_power", players=2).new_initial_state(seed=1)
    svg = picture.to_svg(st)
    picture.write(svg, tmp_path / "a.svg")
    assert (tmp_path / "a.svg").read_text() == svg
    pytest.importorskip("cairosvg")
    picture.write(svg, tmp_path / "a.png")
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# -- romecore render -------------------------------------------------------------------------
def _record(tmp_path, gid="great_city_of_rome", n=2, seed=3):
    game = romecore.load_game(gid, players=n)
    agents = [romecore.make_agent("random", game=game, seed=i) for i in range(n)]
    rec = play_game(game, agents, seed)
    path = tmp_path / "game.jsonl"
    records.write(str(path), [rec])
    return path, rec


def _invoke(*args):
    return CliRunner().invoke(render.command, list(args), catch_exceptions=False)


def test_render_draws_a_recorded_step_from_a_view_or_the_truth(tmp_path):
    path, rec = _record(tmp_path)
    out = tmp_path / "step.svg"
    res = _invoke("--record", str(path), "--step", "40", "--player", "1", "-o", str(out))
    assert res.exit_code == 0, res.output
    r = records.Replayer(rec)
    for _ in range(40):
        r.step()
    assert out.read_text() == picture.to_svg(r.state, 1)
    res = _invoke("great_city_of_rome", "--record", str(path), "-o", str(out))  # the last step, the truth
    assert res.exit_code == 0, res.output
    assert out.read_text() == picture.to_svg(records.replay(rec, check=False), None)
    res = _invoke("--record", str(path), "--step", "5")  # no -o: the SVG on stdout
    assert res.exit_code == 0 and res.output.startswith("<svg")


def test_render_refuses_bad_arguments_cleanly(tmp_path):
    path, rec = _record(tmp_path)
    for args, says in [
        (["--record", str(path), "--step", str(len(rec.actions) + 1)], "has only"),
        (["--record", str(path), "--player", "2"], "player"),
        (["rise_to_power", "--record", str(path)], "great_city_of_rome"),
        (["--record", str(tmp_path / "missing.jsonl")], "missing.jsonl"),
        (["--record", str(path), "-o", str(tmp_path / "a.gif")], ".svg or .png"),
    ]:
        res = CliRunner().invoke(render.command, args)
        assert res.exit_code != 0 and says in res.output, (args, res.output)
        assert res.exception is None or isinstance(res.exception, SystemExit)


@pytest.mark.parametrize("gid", GAME_IDS)
def test_render_without_a_record_draws_a_new_game(gid, tmp_path):
    out = tmp_path / "new.svg"
    res = _invoke(gid, "--players", "2", "--seed", "4", "-o", str(out))
    assert res.exit_code == 0, res.output
    st = romecore.load_game(gid, players=2).new_initial_state(seed=4)
    assert out.read_text() == picture.to_svg(st, None)


def test_great_city_view_with_drawn_cards_unknown_to_the_viewer_draws_them_as_hidden():
    """A seat's own drawn cards may include ones it has not seen (``None`` in its
    observation); the picture shows them as hidden instead of failing (found by the fuzzer)."""
    game = romecore.load_game("great_city_of_rome", players=3)
    seen = 0
    for seed in range(6):
        s, rng = game.new_initial_state(seed=seed), random.Random(seed)
        while not s.is_terminal() and seen < 5:
            if s.is_chance_node():
                s.apply_random_chance()
                continue
            for p in range(3):
                drawn = s.observation(p)["drawn"]
                if None in drawn:
                    texts = _texts(_parse(s.to_svg(p)))
                    line = next(t for t in texts if t.startswith("drawn: "))  # before the fix: TypeError
                    assert line.count("hidden") == drawn.count(None)
                    seen += 1
            s.apply_action(rng.choice(s.legal_actions()))
    assert seen == 5


def test_great_city_names_every_cell_a_build_may_use_so_a_click_can_pick_it():
    """Every coordinate a legal move names (an open cell to build on, a building) is an element
    of the mover's picture titled with it (the web page narrows the moves to those naming a
    clicked element's coordinates); before open cells had their own elements, builds failed."""
    import re

    game = romecore.load_game("great_city_of_rome", players=2)
    s, rng, checked = game.new_initial_state(seed=3), random.Random(3), 0
    while not s.is_terminal() and checked < 40:
        if s.is_chance_node():
            s.apply_random_chance()
            continue
        p = s.current_player()
        wanted = {m for a in s.legal_actions() for m in re.findall(r"\(\d+,\d+\)", s.action_to_string(a))}
        if wanted:
            titles = {t.text for t in _parse(s.to_svg(p)).iter(SVG + "title")}
            named = {m for t in titles for m in re.findall(r"\(\d+,\d+\)", t or "")}  # open cells, buildings
            assert wanted <= named, wanted - named
            checked += 1
        s.apply_action(rng.choice(s.legal_actions()))
    assert checked >= 10


@pytest.mark.parametrize("module", ["", "romecore.games.no_such_game.picture"])
def test_a_game_names_its_picture_module_or_has_none(module):
    """``GameSpec.picture`` names the drawing module: empty, or one that does not import,
    is a PluginError naming the game, never an ImportError or AttributeError."""
    import dataclasses
    import types

    from romecore.errors import PluginError
    from romecore.picture import to_svg

    spec = romecore.load_game("rise_to_power", players=2).spec
    assert spec.picture == "romecore.games.rise_to_power.picture"
    fake = types.SimpleNamespace(game=types.SimpleNamespace(spec=dataclasses.replace(spec, picture=module)))
    with pytest.raises(PluginError, match="rise_to_power"):
        to_svg(fake, None)


@pytest.mark.parametrize("gid,n", GAME_CONFIGS, ids=[f"{g}-{n}p" for g, n in GAME_CONFIGS])
def test_pictures_from_the_cache_equal_pictures_drawn_afresh(gid, n):
    """``Canvas.cached`` keeps a panel by its drawing function's arguments: a panel that
    read anything else (the seat to move, the viewer) would come back stale along a game,
    where the cache holds the earlier positions' panels and the other seats' pictures."""
    game = romecore.load_game(gid, players=n)
    stale = 0
    for st in states_along(game, seed=n, every=1, limit=120):
        for p in [*range(n), None, picture.PUBLIC]:
            kept = picture.to_svg(st, p)
            with picture.uncached():
                stale += kept != picture.to_svg(st, p)
    assert stale == 0


def test_a_cached_drawing_is_keyed_by_its_arguments():
    calls = []

    def box(c, x, label):
        calls.append(label)
        c.text(x, 20, label)
        return x + 10

    c = picture.Canvas(300)
    assert [c.cached(box, 5, "a"), c.cached(box, 5, "a"), c.cached(box, 5, "b")] == [15, 15, 15]
    assert calls == ["a", "b"]  # the second "a" came from the cache, as the text drawn the first time
    svg = c.to_string()
    assert svg.count(">a</text>") == 2 and svg.count(">b</text>") == 1 and c.height >= 24
    with picture.uncached():
        c.cached(box, 5, "a")
    assert calls == ["a", "b", "a"]
