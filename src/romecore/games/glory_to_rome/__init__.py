"""Glory to Rome (Carl Chudyk; Cambridge Games Factory, I.V edition 2007), 2 to 5 players.

Rules: ``rules/rulebooks/glory-to-rome.txt`` and the rulings ``rules/glory-to-rome.md``.
Options: ``players`` (2-5, default 4), ``training`` (the Training Game: no building
functions; Catacomb and Forum do not end it; the Statue stays on a Marble site).

Cards
-----
Orders card ids 0..143 follow ``data.card_table()``: building by building in
``data.BUILDINGS`` order, which is material by material (Rubble 0-23, Wood 24-47,
Concrete 48-71, Brick 72-95, Stone 96-119, Marble 120-143), so ``id // 24`` is the
material (and role: Laborer, Craftsman, Architect, Legionary, Merchant, Patron).
Jacks, sites, the Leader and the Merchant Bonus cards are counts and fields.

Action encoding (``num_distinct_actions() == 205``; ids mean what the phase says)
-----------------------------------------------------------------------------
Consecutive blocks (``kernel.ACTION_BLOCKS`` lists them; a test checks this table against it):

=====  ============  ====  ===================================================================
first  block         size  meaning
=====  ============  ====  ===================================================================
0      A_CARD        40    + building: a hand card of that building: lead / follow with it,
                           choose it for a petition, a Craftsman or Architect action (then
                           its target), Dock / Basilica / Aqueduct, a Legionary demand
                           (reveal), a Latrine discard, a card given to a Legionary
40     A_JACK        6     + role: lead (any role) / follow (the led role) with a Jack
46     A_PETITION    36    + role * 6 + material: lead / follow as role with a petition of
                           that material (3 cards, 2 with a Circus; then the cards, in
                           building order)
82     A_THINK       1     think
83     A_THINK_JACK  1     think: take a Jack
84     A_THINK_DRAW  1     think: draw (to the hand limit, or one card)
85     A_VOMIT       1     Vomitorium: discard the whole hand first
86     A_POOL        6     + material: a pool card of that material (Laborer, Patron,
                           Archway, Stairway)
92     A_STOCK       6     + material: a stockpile material (Architect, Merchant, Stairway)
98     A_DECK        1     from the draw pile (Fountain, Atrium, Bar)
99     A_FOUND_IN    6     + site material: lay the selected card as a foundation in town
105    A_FOUND_OUT   6     + site material: lay it out of town (two actions; one with a
                           Tower)
111    A_STRUCT      36    + slot: into structure ``slot`` (own foundation; a Stairway
                           target), or the structure a Prison steals
147    A_TO_HAND     1     Fountain: keep the drawn card in hand
148    A_SENATE      4     + k - 1: Senate: take the Jack played by the player k seats to
                           the left
152    A_COLISEUM    6     + role: Coliseum: slay a client of that role of the current victim
158    A_SEWER       6     + material: Sewer: a played card of that material into the
                           stockpile
164    A_DONE        1     done / decline (one action, an optional extra, no more cards)
165    CH_CARD       40    + building: chance: a card of that building comes off the draw pile
=====  ============  ====  ===================================================================

Every draw is a chance node whose outcomes are buildings weighted by the copies left in
the draw pile.  A decision with one legal action is taken inside ``apply`` (the kernel's
forced steps), and so is a draw with one possible outcome.  Legal lists are ascending and
name each action distinctly (``action_to_string``).

``to_dict`` schema (``game.state_from_dict`` reads it back)
-----------------------------------------------------------
Cards are ids; when loading, a card may also be named by building ("Tower"), material
("Concrete") or role ("Architect"): an unplaced card of that kind is used (named ids
first, then buildings, then materials).  Cards no list places are in the draw pile
(if ``deck`` is given, every card must be placed).

- ``phase``: one of ``state.PHASES`` (default ``"lead"``); ``steps``: actions applied.
- ``leader``, ``actor`` (derived when left out), ``role`` (led role name or None).
- ``deck``, ``pool``, ``drawn`` (a Fountain draw awaiting use): card lists.
- ``jack_pile`` (default: six minus the Jacks held and played).
- ``sites``: ``{"in_town": {material: n}, "out_of_town": {material: n}}`` (default:
  players per material in town, 6 - players out of town, less the structures' sites).
- ``players``: per seat ``hand``, ``stockpile``, ``vault``, ``clientele``, ``camp``
  (cards played this turn), ``jacks`` (default 0), ``jacks_played``, ``units`` (cards,
  Jacks and petitions played this turn), ``new_clients`` ({role: n} hired this turn),
  ``setup_rank``; ``influence`` is written for reading only (it is derived).
- ``structures``: in slot order, each ``{"owner", "building" (or "card"), "site"
  (material; default the building's), "out_of_town", "materials": [cards],
  "complete", "public" (Stairway), "site_holder" (who has the site in camp; Prison)}``.
- ``frames``: the action frames, bottom first: ``{"role" (a role, "Thinker" for a
  School burst or "Prison"), "base" (the role turn), "stage" (``state.STAGES``),
  "n" (actions used by a base frame, left in others)}``.
- ``turn``: ``follow_index``, ``act_index``, ``eot_step``, ``eot_index``, ``did_craft``
  (players), ``think_return``, ``think_used``, ``draw_left``, ``petition``
  ({material, left, last}), ``last_unit``, ``selected`` ({card, from}), ``draw``
  (Fountain / Atrium / Bar), ``eot_last`` (the last Senate take or Sewer card: they
  go in order, so no two orders reach one state).
- ``legionary``: ``demands`` ({material: n}), ``stage``, ``victim_offset``,
  ``material``, ``give_left``, ``coliseum_taken`` ({role: n}), ``last`` (the last
  building revealed or given, or role slain: these go in order).
- ``setup``: ``dealt``, ``tie``, ``tie_dealt``; ``forum_winners``: players.
- ``known``: ``{card id: [players]}`` where knowledge differs from the zone's default
  (draw pile: nobody; a hand: its owner; a Fountain draw: the drawer; else everyone);
  ``revealed``: cards shown as Legionary demands being made.

Hidden information
------------------
``observation(p)`` shows p's hand, what p knows of other hands (Legionary reveals),
each vault's known cards and hidden count (a Basilica card is its owner's, an Atrium
card nobody's), a Fountain draw to its drawer, and everything public.
``resample(p)`` redraws every identity p does not know, as one class.
"""
