"""The Great City of Rome (Dunstan and Gilbert, 2018), 2 to 4 players.

Game id ``great_city_of_rome``; option ``players`` (2, 3 or 4; default 4).

Actions (ids are fixed; names come from ``state.action_to_string``): consecutive blocks,
each named by its first id's constant in the kernel (``kernel.ACTION_BLOCKS``); a test
checks this table against them.

=============  =================  ===========================================================
ids            block              meaning
=============  =================  ===========================================================
``0-63``       ``A_PLACE``        build the chosen building at cell ``row * 8 + col``
``64-93``      ``A_BUILD``        ``64 + type``: choose the building of that type to build
``94``         ``A_PRODUCE``      produce
``95``         ``A_END``          end the turn
``96-99``      ``A_TAKE``         take offer card 1-4 (offer cards in card-id order)
``100-104``    ``A_EMISSARY``     put the emissary on strip space 1-5 (1 is next to the emperor)
``105-108``    ``A_DRAFT``        keep this card in the set-up draft
``109-111``    ``A_SCHOOL_DECK``  School: draw from deck II, III or IV
``112-116``    ``A_KEEP``         keep this School draw
``117-121``    ``A_BOTTOM``       put this card under the deck next
``122-151``    ``CH_CARD``        ``122 + type``: chance, a card of this type is drawn
``152-157``    ``CH_STRIP``       chance: this strip comes up next
=============  =================  ===========================================================

158 action ids in all (``NUM_ACTIONS``).

Observation tensor (``state.observation_tensor(p)``, float32, written in C): what seat p
knows, every value in [0, 1].  A common block of 398 floats, then one block of 713 floats
per seat: p's first, then p + 1, p + 2, ... (mod players), so 398 + 713 x players floats
(1824, 2537, 3250).  ``kernel.TENSOR_BLOCKS`` names each slice (offset, length), offsets
within their block; a test checks this table against it.  Counts are divided by the bound
in "by" (``-``: a flag or one-hot; ``deck``: the deck's size; ``rounds``: 7 or 14; two
numbers: the count capped at the first, then divided exactly by the second).  Hidden cards
appear only as counts: another seat's unknown hand cards by deck, unknown drawn and bottom
cards as a number.  Left out: the order of the cards under a deck (only which p knows)
and ``rounds`` (fixed by the player count).

=========  =======  ==================  ========  ===================================================
offset     length   block               by        meaning
=========  =======  ==================  ========  ===================================================
0          13       ``O_PHASE``         ``-``     phase one-hot, in the ``phase`` order of the schema
13         14       ``O_ROUND``         ``-``     ``round - 1`` one-hot
27         1        ``O_PROGRESS``      rounds    ``round``
28         36       ``O_STRIPS``        ``-``     slot ``i`` (6 floats): the strip revealed ``i``-th
64         5        ``O_FACE``          ``-``     this round's face: 1 where space ``k`` gives a brick
69         1        ``O_FACE_SHOWN``    ``-``     the face is shown (emissary phase to the round's end)
70         5        ``O_TURN_SPACE``    ``-``     strip space of the turn being played (take to School)
75         1        ``O_TURN_BRICKS``   5         the turn's strip bricks not yet used
76         1        ``O_TURN_COGS``     5         the turn's strip cogs not yet used
77         3        ``O_TURN_FLAGS``    ``-``     took, built, produced this turn
80         30       ``O_SELECTED``      ``-``     building type chosen to place (phase place)
110        120      ``O_OFFER``         ``-``     offer slot ``k`` (``A_TAKE + k``, card-id order) x type
230        30       ``O_DRAWN``         5         drawn cards p knows, by type
260        1        ``O_DRAWN_HIDDEN``  5         drawn cards p does not know
261        30       ``O_DRAFT_GROUP``   3         p's draft group (passed on, still hidden), by type
291        93       ``O_BOTTOM``        14        per deck II-IV (31 floats): cards under it p
                                                  knows, by type, then those p does not know
384        4        ``O_DECK_SIZES``    deck      cards left in deck I-IV (unknown part and bottom)
388        6        ``O_INFL_IN_PLAY``  ``-``     influence card (``data.INFLUENCE_VALUES``) in play
394        3        ``O_SCHOOL_DECK``   ``-``     School phases: deck II-IV drawn from
397        1        ``O_SCHOOL_LEFT``   5         School phases: draws left
0          1        ``P_ACTOR``         ``-``     the seat decides now
1          1        ``P_FIRST``         ``-``     first player this round
2          5        ``P_EMISSARY``      ``-``     its emissary on strip space ``k``
7          2        ``P_COINS``         64,32767  coins
9          2        ``P_INFLUENCE``     64,32767  influence tokens
11         1        ``P_SCORE``         256       points as final scoring counts them now (capped)
12         6        ``P_INFL_CARDS``    ``-``     influence cards held
18         30       ``P_HAND``          16        hand cards p knows (all of p's own), by type
48         4        ``P_HAND_HIDDEN``   deck      other hand cards, by deck (draft card excepted)
52         1        ``P_DRAFT_HIDDEN``  ``-``     its hidden draft card is in p's draft group
53         30       ``P_CITY_TYPES``    16        city buildings, by type
83         630      ``P_PLANES``        ``-``     15 planes x 42 cells (``row * 6 + col``):
                                                  occupied, residential 2, 3, 4, yellow, red,
                                                  green, blue, aqueduct, coin farm (veg,
                                                  vineyard), grain farm (and vineyard), sheep,
                                                  temple, brick token, bath tokens (/ 5)
=========  =======  ==================  ========  ===================================================

Types are positions in ``data.TYPES``.  Paying is automatic: strip bricks, then brick
tokens, then 2 coins a brick (cogs: strip, then 1 coin).

Coordinates: ``(row, col)`` on the engine's board, each seat starting with its Vegetable
Farm at (3, 2) and Residential 2 at (3, 3); a 4x4 city spreads over rows 0-6, columns 0-5.

``state.to_dict()`` schema (``game.state_from_dict`` reads it back; fields it omits keep a
fresh game's values)::

    game, options           the game id and options
    round                   1..14 (1..7 with two players)
    phase                   draft_deal | draft_pick | strip | offer | emissary | take | main |
                            place | school_deck | school_draw | school_keep | school_bottom | over
    first_player, actor     seats
    strip_order             strips revealed so far, in order (indices into data.STRIP_FRONTS)
    emissaries              5 entries: the seat on each strip space, or null
    emissaries_placed       emissaries placed this round
    turn                    {space, bricks, cogs, took, built, produced, selected}
    draw_index              offer draws made this upkeep
    offer                   [{id, building, deck}]
    decks                   4 x {pool: [card ids, unordered], bottom: [card ids, drawn first first]}
    box                     card ids out of the game
    drawn                   card ids drawn and not yet placed (draft or School)
    school                  {deck, draws_left}
    influence_cards         [{value, holder: "unused" | "in play" | seat}]
    players                 per seat {coins, influence, city: [{id, building, row, col,
                            tokens?}], hand: [{id, building, deck}], draft_card}
    known                   {card id: [seats who know it]} for every face-down card

Cards may be given by ``id`` or by ``building`` name (a free card of that building is
used), so test positions can be written by hand.  ``first_player`` defaults to the one the
round implies and ``actor`` to the seat the phase names.  Every field is checked (type,
range, length, no unknown fields); ``box`` and a deck's ``pool``, when given, must list
exactly the cards that end up there.  Anything else raises ``SerializationError``.
"""
