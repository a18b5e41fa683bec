"""Rome: City of Marble (2-4 players): the triangular city, its sites, aqueducts and Imperium.

Rules: the rulebook ``city-of-marble.txt`` and the project's rulings ``city-of-marble.md``;
the board is the JSON file ``board.json`` in this package, and ``data.py`` derives every
board table from it.  Modules: ``data`` (the one data table), ``kernel`` (the rules in C),
``state`` (names, dict form, observations, drawing), ``plugin`` (registration).

Action encoding (fixed ids in consecutive blocks; ``num_distinct_actions()`` is 108)
-----------------------------------------------------------------------------------
A turn is two actions (Imperium buys more; one in the final round), each taken in small
steps.  A step with a single possible outcome (a forced action, the only site or place for
a tile, the only direction for an aqueduct piece, a bridge value no one can doubt) is taken
by the kernel itself and never appears in the history.  Sites, colours and aqueducts are
numbered as in ``data`` (sites in the board file's order; colours red, yellow, green, blue;
aqueducts gray, brown, white).

=========  ==========================  ===================================================
ids        name                        meaning
=========  ==========================  ===================================================
0-39       ``A_SITE + site``           the tile being played goes to this site (phase
                                       ``site``); or, in phase ``order``, this completed
                                       site resolves first
40-48      ``A_TILE + k``              placement ``k`` of the chosen site: 0-5 the spoke
                                       tiles (both triangles in the site), 6-8 the tiles
                                       across rim edges 0-2 (see ``data``)
49-56      ``A_PLAY + 2*colour + m``   play a tile of that colour, ``m=1`` with a magistrate
57-62      ``A_DRAW + pair``           draw two tiles, pairs (red, yellow), (red, green),
                                       (red, blue), (yellow, green), (yellow, blue),
                                       (green, blue)
63-66      ``A_DRAW1 + colour``        draw up to two of one colour (only one stack left)
67-69      ``A_RECALL + slot``         recall the magistrate in that slot of the player's
                                       ascending location list
70-87      ``A_PIPE + 6*aq + dir``     one aqueduct piece from the aqueduct's far end in
                                       lattice direction ``dir`` (``data.DIRS``): the first
                                       piece of an Expand (in the action menu), its second
                                       piece, or a piece of a start
88-90      ``A_SEND + slot``           move that magistrate from the completed site to the
                                       matching Imperium space (the Treasury for a Fountain)
91         ``A_KEEP``                  leave one's magistrates on the site
92-95      ``A_SPEND + colour``        spend an Imperium tile for one more action
96         ``A_END``                   end the turn
97-103     ``CH_HILL + hill``          chance: this hill (board file order) is revealed
104-107    ``CH_BRIDGE + value - 1``   chance: the bridge tile just taken is worth ``value``
=========  ==========================  ===================================================

Dict schema (``state.to_dict()``, read back by ``game.state_from_dict``)
------------------------------------------------------------------------
Coordinates are the board file's: a vertex is ``[q, r]``, a triangle its three vertices
(sorted), a site ``[s, t]``.

``phase``: one of ``hills action site tile bridge aqueduct_start order send expand extra
over``.  ``turn_player``, ``actor`` (who decides now), ``actions_left`` (the current
action included), ``final_turns_left`` (0 outside the final round).

``hills``: the revealed hills (sites).  ``stacks``: ``{colour: tiles}``.

``tiles``: ``[{"colour", "triangles": [tri, tri], "magistrate": player or null}]`` (when
loading, ``"vertices": [four vertices]`` may replace ``"triangles"``).

``sites``: the completed sites only: ``{"site", "building": "Arena" | "Theater" | "Temple" |
"Baths", "owner"}``, ``{"site", "fountain": true}`` or ``{"site", "empty": true}`` (no
fountain was left).

``aqueducts``: three ``{"colour", "started", "path": [vertex, ...]}``, the path from the
water source to the far end.

``players``: per seat ``{"points"`` (score track), ``"coins"``, ``"tiles"`` (centre box,
``{colour: n}``), ``"imperium"`` (``{colour: n}``), ``"magistrates"``: ``{"centre",
"treasury", "imperium": {colour: n}}`` (magistrates on tiles are on the tiles),
``"bridges"``: ``[values]}``.  ``drawn``: ``{colour: n}`` drawn this turn by the turn
player (they join the centre box at the end of the turn).

``tile_play``: while a tile is being played, ``{"colour", "magistrate", "site"}``.
``resolution``: while a placed tile resolves, ``{"bridges_to_take", "aqueducts_to_start",
"aqueduct", "pieces_left", "sites"`` (completed, not yet resolved) ``, "site"`` (whose
magistrates may leave now) ``, "seat"}`` (offset from the turn player of the next to decide).

Loading: left-out fields keep a fresh game's values; ``phase`` defaults to ``action`` when
three hills are given; ``stacks`` default to the tiles no one holds; ``points`` to the
buildings' points.  Every field is type- and range-checked first (counts within the
components, lists within their size, flags true/false, a hill or site listed once), then
the struct is validated, so wrong or inconsistent dicts raise ``SerializationError``.

Observations hide only the bridge values of other players (``bridges: null`` with their
``bridge_count``) until the game ends; so does ``render(p)`` (``str(state)`` shows them all).
The map labels each vertex row with its leftmost vertex ``(q,r)``; ``q`` grows by one at
each vertex to the right.
"""
