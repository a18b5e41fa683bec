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
