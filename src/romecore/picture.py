"""Pictures of game states as SVG: what every game's renderer shares.

``to_svg(state, player)`` draws ``player``'s view from ``state.observation(player)`` and the
game's data tables only (DESIGN.md principle 10: the picture cannot show more than the
observation), or, for ``player=None``, the whole truth from the observation of every seat
(spectators, finished games).  Each game's drawing lives in ``games/<game>/picture.py`` beside
its state class and exposes ``draw(canvas, views, player, game, scores)`` (``scores``
only for the whole truth: a player's picture shows what its observation says of them);
this module finds it, supplies the title, legend and primitives, and writes the document.

The document is a light tree of :class:`Element` (tag, attributes already formatted as
text, text, children) that :meth:`Canvas.to_string` writes out in one pass: the pictures
need only rectangles, circles, polygons, lines and text, each attribute value is formatted
once when drawn and escaped where it is text, and a web table redraws a picture on every
move, so the standard library's ElementTree (a C tree, but with a Python attribute dict
and a second serialising pass) cost twice as much.  For the same reason the games draw
their boards and panels through :meth:`Canvas.cached`, which keeps what a drawing function
wrote for its arguments and writes it again for equal ones.  PNG output goes through
cairosvg, an optional extra (``pip install cairosvg``).
"""

from __future__ import annotations

import contextlib
import importlib
import re
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from romecore.errors import ArgumentTypeError, InvalidArgumentError, PluginError

__all__ = ["Canvas", "Element", "Picture", "picture", "to_svg", "write", "views", "action_targets", "public_view",
           "PUBLIC", "PLAYER_COLOURS", "player_name", "uncached"]

T = TypeVar("T")

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"

#: One colour per seat (a game's own colours, e.g. tiles, are its own business).
PLAYER_COLOURS = ("#6a3d9a", "#e66101", "#1b7e74", "#4d4d4d", "#b8336a", "#2b6cb0")
INK = "#222222"
PAPER = "#fbf8f1"
MUTED = "#8a8276"
HIDDEN_FILL = "#cfc8bb"   # the back of a card nobody may see here
LINE_HEIGHT = 16


def player_name(p: int) -> str:
    return f"P{p}"


class Element:
    """One element of a picture: its tag, its attributes (as the SVG text they are written
    as, `` x="1" y="2"``, formatted and escaped once when drawn), its text and its
    children.  ``set`` changes an attribute after drawing (a frame whose height is known
    only once its contents are drawn); ``attrib`` reads them as a dict."""

    __slots__ = ("tag", "attrs", "text", "children")

    def __init__(self, tag: str, attrs: str = "", text: str | None = None) -> None:
        self.tag = tag
        self.attrs = attrs
        self.text = text
        self.children: list[Element] = []

    @property
    def attrib(self) -> dict[str, str]:
        """The attributes, name -> value as written (escaped), in their order."""
        return dict(_ATTR.findall(self.attrs))

    def set(self, key: str, value: Any) -> None:
        attrib = self.attrib
        attrib[_attr_name(key)] = _value(value)
        self.attrs = "".join([f' {k}="{v}"' for k, v in attrib.items()])

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(_attr_name(key), default)

    def find(self, tag: str) -> Element | None:
        """The first child with ``tag``, or None."""
        return next((c for c in self.children if c.tag == tag), None)

    def iter(self, tag: str | None = None) -> Iterator[Element]:
        """This element and all below it, depth first (those with ``tag`` only, if given)."""
        if tag is None or self.tag == tag:
            yield self
        for child in self.children:
            yield from child.iter(tag)

    def write(self, out: list[str]) -> None:
        """Appends this element as SVG text to ``out`` (an included fragment as it is).
        Childless children are written here, not by a call each: most of a picture is
        leaves (boxes and labels), and a web table writes a picture on every move."""
        tag = self.tag
        if not tag:
            out.append(self.text or "")
            return
        if self.text is None and not self.children:
            out.append(f"<{tag}{self.attrs}/>")
            return
        out.append(f"<{tag}{self.attrs}>")
        if self.text is not None:
            out.append(_escape(self.text))
        append = out.append
        for c in self.children:
            if c.children or not c.tag:
                c.write(out)
            elif c.text is None:
                append(f"<{c.tag}{c.attrs}/>")
            else:
                append(f"<{c.tag}{c.attrs}>{_escape(c.text)}</{c.tag}>")
        append(f"</{tag}>")


class Canvas:
    """A growing SVG document: games draw with absolute coordinates and say how tall
    they got; :meth:`to_string` closes it at the height used."""

    def __init__(self, width: int = 900) -> None:
        self.width = width
        self.height = 0.0
        self.root = Element("svg", f' xmlns="{SVG_NS}" version="1.1" font-family="{FONT}" font-size="12"'
                                   ' xml:space="preserve"')  # keep runs of spaces in text
        self._bg = self._add("rect", None, {"x": 0, "y": 0, "fill": PAPER})

    def include(self, fragment: str, bottom: float = 0, parent: Element | None = None) -> None:
        """Places ready SVG text (a game's fixed board, drawn once and kept) here."""
        self.grow(bottom)
        (self.root if parent is None else parent).children.append(Element("", "", fragment))

    def cached(self, draw: Callable[..., T], *args: Any, parent: Element | None = None) -> T:
        """``draw(canvas, *args)``, drawn the first time on a canvas of its own and kept as
        the SVG text it wrote; the next call with equal arguments (by ``repr``) includes that
        text again.  The picture is byte for byte what ``draw`` would draw here, so ``draw``
        must read nothing but its arguments (plain data: numbers, strings, tuples, lists,
        dicts) and constants, must not read the canvas's height, and should return
        something immutable (a number, a tuple).  Why: a web table redraws every seat's
        picture on every move, and most of a picture (the board, the panels of players who
        did not move) is as it was, or as another seat's picture has it.  Returns what
        ``draw`` returned."""
        key = (draw, repr(args), self.width)
        hit = _CACHED.get(key) if _caching else None
        if hit is None:
            sub = Canvas(self.width)
            result = draw(sub, *args)
            hit = (sub.fragment(), sub.height, result)
            if _caching:
                _keep(key, hit)
        self.include(hit[0], bottom=hit[1], parent=parent)
        return hit[2]

    def fragment(self) -> str:
        """Everything drawn so far as SVG text without the document around it, to
        :meth:`include` in other pictures."""
        out: list[str] = []
        for e in self.root.children[1:]:
            e.write(out)
        return "".join(out)

    def tooltip(self, element: Element, title: str) -> None:
        """Gives ``element`` a tooltip (an SVG ``title`` child)."""
        element.children.append(Element("title", "", title))

    # -- primitives (each returns its element; ``parent`` defaults to the document) -------
    def _add(self, tag: str, parent: Element | None, attrs: dict[str, Any],
             title: str | None = None) -> Element:
        pairs = _PAIRS
        e = Element(tag, "".join([pairs.get((k, v)) or _pair(k, v) for k, v in attrs.items() if v is not None]))
        (self.root if parent is None else parent).children.append(e)
        if title:
            e.children.append(Element("title", "", title))
        return e

    # group, rect and text, most of every picture, write their attributes straight into the
    # element's text (what _add does, in the same order, without a dict on the way)
    def _leaf(self, tag: str, parent: Element | None, text: str, attrs: dict[str, Any],
              title: str | None = None) -> Element:
        if attrs:
            pairs = _PAIRS
            text += "".join([pairs.get((k, v)) or _pair(k, v) for k, v in attrs.items() if v is not None])
        e = Element(tag, text)
        (self.root if parent is None else parent).children.append(e)
        if title:
            e.children.append(Element("title", "", title))
        return e

    def group(self, cls: str | None = None, parent: Element | None = None, **attrs: Any) -> Element:
        return self._leaf("g", parent, "" if cls is None else f' class="{_VALUES.get(cls) or _value(cls)}"', attrs)

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none", stroke: str | None = INK,
             rx: float = 0, parent: Element | None = None, title: str | None = None, **attrs: Any) -> Element:
        if y + h > self.height:
            self.height = y + h
        v = _VALUES.get
        text = (f' x="{v(x) or _value(x)}" y="{v(y) or _value(y)}" width="{v(w) or _value(w)}"'
                f' height="{v(h) or _value(h)}"')
        if fill is not None:
            text += f' fill="{v(fill) or _value(fill)}"'
        if stroke is not None:
            text += f' stroke="{v(stroke) or _value(stroke)}"'
        if rx:
            text += f' rx="{v(rx) or _value(rx)}"'
        return self._leaf("rect", parent, text, attrs, title)

    def circle(self, cx: float, cy: float, r: float, fill: str = "none", stroke: str | None = INK,
               parent: Element | None = None, title: str | None = None, **attrs: Any) -> Element:
        self.grow(cy + r)
        return self._add("circle", parent, {"cx": cx, "cy": cy, "r": r, "fill": fill, "stroke": stroke,
                                            **attrs}, title)

    def polygon(self, points: Iterable[tuple[float, float]], fill: str = "none", stroke: str | None = INK,
                parent: Element | None = None, title: str | None = None, **attrs: Any) -> Element:
        pts = list(points)
        self.grow(max(y for _, y in pts))
        return self._add("polygon", parent, {"points": _points(pts), "fill": fill, "stroke": stroke,
                                             **attrs}, title)

    def polyline(self, points: Iterable[tuple[float, float]], stroke: str = INK, width: float = 1,
                 parent: Element | None = None, title: str | None = None, **attrs: Any) -> Element:
        pts = list(points)
        self.grow(max(y for _, y in pts))
        return self._add("polyline", parent, {"points": _points(pts), "fill": "none", "stroke": stroke,
                                              "stroke_width": width, **attrs}, title)

    def path(self, d: str, stroke: str = INK, fill: str = "none", bottom: float = 0,
             parent: Element | None = None, **attrs: Any) -> Element:
        """A path given by its ``d`` string (``bottom``: its lowest y, for the height)."""
        self.grow(bottom)
        return self._add("path", parent, {"d": d, "stroke": stroke, "fill": fill, **attrs})

    def grid(self, x: float, y: float, cols: int, rows: int, cell: float, stroke: str = "#c9c2b4",
             parent: Element | None = None) -> Element:
        """The lines of a ``cols`` x ``rows`` grid of square cells (one path)."""
        f = _fmt
        d = "".join(f"M{f(float(x))} {f(float(y + r * cell))}h{f(float(cols * cell))}" for r in range(rows + 1))
        d += "".join(f"M{f(float(x + k * cell))} {f(float(y))}v{f(float(rows * cell))}" for k in range(cols + 1))
        return self.path(d, stroke=stroke, bottom=y + rows * cell, parent=parent)

    def text(self, x: float, y: float, s: Any, size: float = 12, anchor: str = "start",
             weight: str | None = None, fill: str = INK, parent: Element | None = None,
             **attrs: Any) -> Element:
        if y + 4 > self.height:
            self.height = y + 4
        v = _VALUES.get
        text = f' x="{v(x) or _value(x)}" y="{v(y) or _value(y)}"'
        if size is not None and size != 12:
            text += f' font-size="{v(size) or _value(size)}"'
        if anchor is not None and anchor != "start":
            text += f' text-anchor="{v(anchor) or _value(anchor)}"'
        if weight is not None:
            text += f' font-weight="{v(weight) or _value(weight)}"'
        if fill is not None and fill != INK:
            text += f' fill="{v(fill) or _value(fill)}"'
        e = self._leaf("text", parent, text, attrs)
        e.text = str(s)
        return e

    # -- shared pieces ----------------------------------------------------------------------
    def title(self, game_name: str, player: int | str | None, info: str, y: float = 22) -> float:
        """The heading: the game, whose view this is (or the whole truth, or the public
        view) and one info line; returns the y below it."""
        if player == PUBLIC:
            who, colour = "public view: what every player may see", MUTED
        elif player is None:
            who, colour = "the whole truth (spectator)", MUTED
        else:
            seat = int(player)
            who = f"view of {player_name(seat)}: only what {player_name(seat)} knows"
            colour = PLAYER_COLOURS[seat % len(PLAYER_COLOURS)]
        g = self.group("title")
        self.text(12, y, game_name, size=17, weight="bold", parent=g)
        self.text(self.width - 12, y, who, size=12, anchor="end", parent=g, fill=colour)
        self.text(12, y + 19, info, size=12, parent=g)
        return y + 32

    def card(self, x: float, y: float, w: float, h: float, label: str, fill: str = "#ffffff",
             sub: str | None = None, stroke: str = INK, parent: Element | None = None,
             size: float = 10, title: str | None = None, target: str | None = None) -> Element:
        """A labelled box: a card, a tile, a cell; ``target`` is its board key (see
        :func:`action_targets`), set on the whole group so the label never swallows a click."""
        g = self.group("card", parent, data_target=target)
        self.rect(x, y, w, h, fill=fill, stroke=stroke, rx=3, parent=g, title=title or label)
        self.text(x + w / 2, y + (h / 2 + size / 3 if sub is None else h / 2 - 2), label,
                  size=size, anchor="middle", parent=g)
        if sub is not None:
            self.text(x + w / 2, y + h / 2 + size, sub, size=size - 1, anchor="middle", fill=MUTED, parent=g)
        return g

    def hidden_cards(self, x: float, y: float, count: int, w: float = 18, h: float = 26,
                     parent: Element | None = None, label: str = "hidden") -> float:
        """``count`` card backs (one box with the count when many); returns the x after."""
        if count <= 0:
            return x
        self.card(x, y, max(w, 30), h, f"{count}?", fill=HIDDEN_FILL, parent=parent,
                  title=f"{count} {label}")
        return x + max(w, 30) + 4

    def row_of_cards(self, x: float, y: float, names: Sequence[str], w: float = 92, h: float = 26,
                     fill: Any = "#ffffff", parent: Element | None = None, size: float = 10,
                     wrap: float | None = None, target: Any = None) -> tuple[float, float]:
        """Cards side by side (wrapping at ``wrap``), ``fill`` a colour or a function of the
        name, ``target`` None or a function of (index, name) giving each card's board key;
        returns (x, y) after the last one."""
        right = wrap if wrap is not None else self.width - 12
        x0 = x
        for i, name in enumerate(names):
            if x + w > right and x > x0:
                x, y = x0, y + h + 4
            self.card(x, y, w, h, _fit(name, w, size), fill=fill(name) if callable(fill) else fill,
                      parent=parent, size=size, title=name, target=target(i, name) if target else None)
            x += w + 4
        return x, y

    def legend(self, y: float, items: Sequence[tuple[str, str, str]]) -> float:
        """The key: (shape, colour, meaning) with shape one of box, dot, line, text (the
        colour then is the symbol); returns the y below it.  A game's key never changes,
        so it is drawn once per width and items and placed with a translation."""
        key = (self.width, tuple(items))
        drawn = _LEGENDS.get(key)
        if drawn is None:
            sub = Canvas(self.width)
            bottom = sub._draw_legend(items)
            drawn = (sub.fragment(), sub.height, bottom)
            if len(_LEGENDS) < 256:
                _LEGENDS[key] = drawn
        text, height, bottom = drawn
        self.include(text, bottom=y + height, parent=self.group(None, transform=f"translate(0,{_fmt(float(y))})"))
        return y + bottom

    def _draw_legend(self, items: Sequence[tuple[str, str, str]]) -> float:
        g = self.group("legend")
        self.text(12, 12, "Legend", size=12, weight="bold", parent=g)
        x, y = 70.0, 0.0
        for shape, colour, label in items:
            sym = max(14.0, 7.5 * len(colour)) if shape == "text" else 14.0
            width = sym + 12 + 6.3 * len(label)
            if x + width > self.width - 12:
                x, y = 70.0, y + 18
            if shape == "box":
                self.rect(x, y + 2, 14, 12, fill=colour, stroke=INK, parent=g)
            elif shape == "dot":
                self.circle(x + 7, y + 8, 6, fill=colour, stroke=INK, parent=g)
            elif shape == "line":
                self.polyline([(x, y + 8), (x + 14, y + 8)], stroke=colour, width=4, parent=g)
            else:
                self.text(x + sym / 2, y + 12, colour, size=12, anchor="middle", weight="bold", parent=g)
            self.text(x + sym + 5, y + 12, label, size=11, parent=g)
            x += width
        return y + 24

    def grow(self, y: float) -> None:
        """Makes the picture at least ``y`` tall."""
        if y > self.height:
            self.height = y

    def to_string(self) -> str:
        h = int(self.height + 12)
        self.root.set("width", str(self.width))
        self.root.set("height", str(h))
        self.root.set("viewBox", f"0 0 {self.width} {h}")
        self._bg.set("width", str(self.width))
        self._bg.set("height", str(h))
        out: list[str] = []
        self.root.write(out)
        return "".join(out)


#: Fragments drawn by :meth:`Canvas.cached`: (function, repr of its arguments, width) ->
#: (SVG text, height, result), the oldest dropped past :data:`CACHE_CHARS` characters.
_CACHED: dict[tuple[Any, str, int], tuple[str, float, Any]] = {}
_cached_chars = 0
_cache_lock = threading.Lock()
_caching = True
#: The bound of :data:`_CACHED`: the SVG text it may hold, in characters (about a few
#: hundred tables' pictures).
CACHE_CHARS = 16_000_000


def _keep(key: tuple[Any, str, int], hit: tuple[str, float, Any]) -> None:
    global _cached_chars
    with _cache_lock:
        if key in _CACHED:
            return
        _CACHED[key] = hit
        _cached_chars += len(hit[0]) + len(key[1])
        while _cached_chars > CACHE_CHARS and _CACHED:
            old_key = next(iter(_CACHED))  # the oldest first
            old = _CACHED.pop(old_key)
            _cached_chars -= len(old[0]) + len(old_key[1])


@contextlib.contextmanager
def uncached() -> Iterator[None]:
    """Draws everything afresh while in the block (the tests compare it with the cache's
    pictures); not for use while other threads draw."""
    global _caching
    _caching = False
    try:
        yield
    finally:
        _caching = True


_ATTR_NAMES: dict[str, str] = {}
#: Drawn keys: (width, items) -> (SVG text, its height, the y below it), from y = 0.
_LEGENDS: dict[tuple[int, tuple[tuple[str, str, str], ...]], tuple[str, float, float]] = {}


def _attr_name(k: str) -> str:
    """``font_size`` -> ``font-size`` (keyword arguments cannot hold a dash)."""
    name = _ATTR_NAMES.get(k)
    if name is None:
        name = _ATTR_NAMES[k] = k.replace("_", "-")
    return name


def _plain(s: str) -> bool:
    """True when ``s`` needs no escaping in SVG text or an attribute."""
    return "&" not in s and "<" not in s and ">" not in s and '"' not in s


def _escape(s: str) -> str:
    if _plain(s):
        return s
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def _fmt(v: Any) -> str:
    """A number as the picture writes it: floats to one decimal, without a trailing ``.0``."""
    if isinstance(v, float):
        s = f"{v:.1f}"
        return s[:-2] if s.endswith(".0") else s
    return str(v)


def _value(v: Any) -> str:
    """An attribute value (a str, int or float; never a bool) as SVG text: a number
    formatted, a string escaped.  Remembered in :data:`_VALUES`, up to a bound, as a
    picture repeats its coordinates and colours."""
    if type(v) is bool:
        raise ArgumentTypeError("an SVG attribute value is a str, int or float, not a bool")
    s = _escape(v) if isinstance(v, str) else _fmt(v)
    if type(v) in (str, int, float) and len(_VALUES) < 50_000:
        _VALUES[v] = s
    return s


#: Attribute values as SVG text, by value (an int and the float equal to it format alike).
_VALUES: dict[Any, str] = {}
#: Whole attributes as SVG text (`` font-size="10"``), by (keyword, value), up to a bound.
_PAIRS: dict[tuple[str, Any], str] = {}
#: An attribute in an element's text (values are escaped: no ``"`` inside).
_ATTR = re.compile(r' ([^\s=]+)="([^"]*)"')


def _pair(k: str, v: Any) -> str:
    """`` name="value"``: the attribute ``k=v`` as written (remembered, as pictures repeat
    their coordinates, sizes and colours)."""
    s = f' {_ATTR_NAMES.get(k) or _attr_name(k)}="{_VALUES.get(v) or _value(v)}"'
    if len(_PAIRS) < 200_000:
        _PAIRS[k, v] = s
    return s
_WHOLE = re.compile(r"\.0(?=[, ]|$)")


def _points(pts: Sequence[tuple[float, float]]) -> str:
    """``x,y x,y ...`` with each number as :func:`_fmt` writes it (one pass: format to one
    decimal, then drop the ``.0`` of whole numbers)."""
    return _WHOLE.sub("", " ".join([f"{x:.1f},{y:.1f}" for x, y in pts]))


def _fit(name: str, w: float, size: float) -> str:
    """``name`` cut to fit a box ``w`` wide at font ``size`` (the full name is its tooltip)."""
    room = max(3, int(w / (size * 0.58)))
    return name if len(name) <= room else name[: room - 1] + "."


# -- what a picture is drawn from ------------------------------------------------------------
def views(state: Any, player: int | None) -> dict[int, dict]:
    """The knowledge a picture may use: ``{player: observation(player)}``, or every seat's
    observation for the whole truth."""
    if player is None:
        return {q: state.observation(q) for q in range(state.game.num_players())}
    return {player: state.observation(player)}


def _check_player(state: Any, player: Any) -> int | None:
    if player is None:
        return None
    if isinstance(player, bool) or not isinstance(player, int):
        raise ArgumentTypeError(f"player must be an int seat or None, not {type(player).__name__}")
    n = state.game.num_players()
    if not 0 <= player < n:
        raise InvalidArgumentError(f"player {player} is not a seat of a {n}-player game (0..{n - 1})")
    return player


def _renderer(state: Any) -> Any:
    """The drawing module the state's game names (``GameSpec.picture``), so no game is
    named here."""
    spec = state.game.spec
    if not spec.picture:
        raise PluginError(f"{spec.game_id} has no picture renderer (its GameSpec names no picture module)")
    try:
        return importlib.import_module(spec.picture)
    except ImportError as e:
        raise PluginError(f"{spec.game_id}: its picture module {spec.picture!r} does not import: {e}") from None


#: ``to_svg(state, PUBLIC)``: what every player may see (a spectator's picture while a game
#: is under way).
PUBLIC = "public"


def public_view(state: Any) -> dict:
    """The public observation: what every seat knows, nothing one seat knows alone, in the
    shape of a seat's observation with ``"player": None``.  Each game's
    ``picture.public_view(state)`` builds it; a game without one raises
    :class:`PluginError`.  Equal for every world resampled from any seat's view (the tests
    check it), so a spectator learns nothing a player could hide."""
    fn = getattr(_renderer(state), "public_view", None)
    if fn is None:
        raise PluginError(f"{state.game.game_id} has no public view (picture.public_view)")
    return fn(state)


def to_svg(state: Any, player: int | str | None = None) -> str:
    """The SVG picture of ``state`` as ``player`` sees it (None: the whole truth;
    :data:`PUBLIC`: what every player may see, drawn from :func:`public_view`)."""
    if player == PUBLIC:
        module = _renderer(state)
        canvas = Canvas(getattr(module, "WIDTH", 900))
        module.draw(canvas, {PUBLIC: public_view(state)}, PUBLIC, state.game, None)
        return canvas.to_string()
    player = _check_player(state, player)
    module = _renderer(state)
    canvas = Canvas(getattr(module, "WIDTH", 900))
    scores = state.scores() if player is None else None  # the truth's, for spectators only
    module.draw(canvas, views(state, player), player, state.game, scores)
    return canvas.to_string()


def action_targets(state: Any, action: int) -> tuple[str, ...]:
    """The board keys a legal ``action`` of ``state`` names, in the order a player clicks
    them: the places, cards and pieces of the picture (elements carrying ``data-target``
    with these keys) that pick the move.  A move that names nothing (pass, end a turn) has
    none.  Each game's ``picture.targets(state, action)`` says; the keys of a seat's legal
    moves name only what that seat's picture shows, and no two of its legal moves share
    the same set of keys, so clicks pick exactly one move (the browser page's contract)."""
    module = _renderer(state)
    fn = getattr(module, "targets", None)
    return tuple(fn(state, action)) if fn is not None else ()


class Picture(str):
    """An SVG document that Jupyter shows as a picture."""

    def _repr_svg_(self) -> str:
        return str(self)


def picture(state: Any, player: int | None = None) -> Picture:
    """:func:`to_svg` as a :class:`Picture` (shown inline in Jupyter)."""
    return Picture(to_svg(state, player))


PNG_HINT = "PNG output needs cairosvg: pip install cairosvg (it also needs the cairo library)"


def write(svg: str, path: str) -> None:
    """Writes ``svg`` to ``path``: as SVG text, or as PNG when the name ends in .png."""
    if str(path).lower().endswith(".png"):
        try:
            import cairosvg
        except (ImportError, OSError):
            raise PluginError(PNG_HINT) from None
        cairosvg.svg2png(bytestring=svg.encode("utf-8"), write_to=str(path))
        return
    with open(path, "w", encoding="utf-8") as f:
        f.write(svg)
