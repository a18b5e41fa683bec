"""Rome: City of Marble (2-4 players): the triangular city, its sites, aqueducts and Imperium.

Rules: the rulebook ``city-of-marble.txt`` and the project's rulings ``city-of-marble.md``;
the board is the JSON file ``board.json`` in this package, and ``data.py`` derives every
board table from it.  Modules: ``data`` (the one data table), ``kernel`` (the rules in C),
``state`` (names, dict form, observations, drawing), ``plugin`` (registration).

Action encoding (fixed ids in consecutive blocks; ``num_distinct_actions()`` is 108)
------------------------------------------------------------------------------------
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

Observation tensor (``state.observation_tensor(p)``: 2794 + 447 per player floats)
----------------------------------------------------------------------------------
A common block, then one block of 447 per seat: p's own first, then each player in turn
order after p (offsets below are within the block; ``kernel.TENSOR_BLOCKS`` lists them and
a test checks this table against it).  Flags are 0/1; a count is divided by the bound in
the last column.  Boards are planes over the ids of ``data`` (placement and triangle bit
positions, vertex ids): ids that are not on the board stay 0.  It holds what p knows: the
whole state but other players' bridge values (until the game ends).  Left out as
derivable: ``current_player``, ``bridge_spaces_open``, final ``scores``.

======  ======  ====================  ===================================================  ======
offset  length  slice                 meaning                                              bound
======  ======  ====================  ===================================================  ======
0       1536    ``TC_TILES``          ``384 * colour + placement``: a tile of that colour  flag
1536    7       ``TC_HILLS``          hill revealed (board file order)                     flag
1543    160     ``TC_BUILDING``       ``40 * colour + site``: that civic building stands   flag
1703    40      ``TC_FOUNTAIN``       the site holds a fountain                            flag
1743    40      ``TC_EMPTY``          the site completed empty (no fountain left)          flag
1783    3       ``TC_AQ_STARTED``     aqueduct started                                     flag
1786    3       ``TC_AQ_LEN``         aqueduct pieces placed                               13
1789    234     ``TC_AQ_STEPS``       ``78 * aq + 6 * piece + dir``: piece's direction     flag
2023    576     ``TC_AQ_END``         ``192 * aq + vertex``: a started aqueduct's far end  flag
2599    40      ``TC_AQ_SITES``       an aqueduct piece lies in the site's hexagon         flag
2639    4       ``TC_STACKS``         Neighborhood stack of each colour                    tiles
2643    4       ``TC_DRAWN``          tiles drawn this turn by the turn player             tiles
2647    11      ``TC_PHASE``          phase one-hot (``state.PHASES`` order)               flag
2658    1       ``TC_ACTIONS_LEFT``   actions left this turn, the current one included     2
2659    1       ``TC_FINAL_LEFT``     turns left in the final round                        4
2660    4       ``TC_SEL_COLOUR``     colour of the tile being played (site, tile phases)  flag
2664    1       ``TC_SEL_MAG``        a magistrate goes on it                              flag
2665    40      ``TC_SEL_SITE``       its chosen site (tile phase)                         flag
2705    1       ``TC_PEND_BRIDGES``   bridge tiles the tile took, values still to draw     2
2706    3       ``TC_AQ_TODO``        aqueducts the tile starts, not begun yet             flag
2709    3       ``TC_AQ_CUR``         aqueduct being started (while pieces are left)       flag
2712    1       ``TC_AQ_LEFT``        its start pieces still to place                      3
2713    40      ``TC_PEND_SITES``     completed sites not yet resolved                     flag
2753    40      ``TC_RES_SITE``       site whose magistrates may leave (send phase)        flag
2793    1       ``TC_RES_SEAT``       resolution seat: offset from the turn player         4
0       1       ``TP_POINTS``         score track                                          96
1       1       ``TP_COINS``          coins                                                16
2       4       ``TP_TILES``          tiles in the centre box by colour                    tiles
6       4       ``TP_IMPERIUM``       Imperium tiles by colour                             12
10      1       ``TP_MAG_CENTRE``     magistrates in the centre box                        3
11      1       ``TP_MAG_TREASURY``   magistrates on the Treasury                          3
12      4       ``TP_MAG_IMPERIUM``   magistrates on each colour's Imperium space          3
16      384     ``TP_MAG_TILES``      a magistrate stands on the tile at this placement    flag
400     40      ``TP_BUILDINGS``      the player's civic building stands on the site       flag
440     1       ``TP_BRIDGE_COUNT``   bridge tiles held                                    7
441     4       ``TP_BRIDGE_VALUES``  bridge tiles held of value 1-4 (p's own; all at the  2
                                      end; else 0)
445     1       ``TP_TURN``           the turn player                                      flag
446     1       ``TP_ACTOR``          the player to decide (``actor``)                     flag
======  ======  ====================  ===================================================  ======

``tiles``: that colour's tiles in the game (``data.COLOURS``); 96 is every Commission cube
on the dearest building; 2 (bridge values) is the tiles of each value.

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
