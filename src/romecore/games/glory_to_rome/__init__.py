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
---------------------------------------------------------------------------------
Consecutive blocks (``kernel.ACTION_BLOCKS`` lists them; a test checks this table against it):

=====  ============  ====  ===================================================================
first  block         size  meaning
=====  ============  ====  ===================================================================
0      A_CARD        40    ``+ building``: a hand card of that building: lead / follow with it,
                           choose it for a petition, a Craftsman or Architect action (then
                           its target), Dock / Basilica / Aqueduct, a Legionary demand
                           (reveal), a Latrine discard, a card given to a Legionary
40     A_JACK        6     ``+ role``: lead (any role) / follow (the led role) with a Jack
46     A_PETITION    36    ``+ role * 6 + material``: lead / follow as role with a petition of
                           that material (3 cards, 2 with a Circus; then the cards, in
                           building order)
82     A_THINK       1     think
83     A_THINK_JACK  1     think: take a Jack
84     A_THINK_DRAW  1     think: draw (to the hand limit, or one card)
85     A_VOMIT       1     Vomitorium: discard the whole hand first
86     A_POOL        6     ``+ material``: a pool card of that material (Laborer, Patron,
                           Archway, Stairway)
92     A_STOCK       6     ``+ material``: a stockpile material (Architect, Merchant, Stairway)
98     A_DECK        1     from the draw pile (Fountain, Atrium, Bar)
99     A_FOUND_IN    6     ``+ site material``: lay the selected card as a foundation in town
105    A_FOUND_OUT   6     ``+ site material``: lay it out of town (two actions; one with a
                           Tower)
111    A_STRUCT      36    ``+ slot``: into structure ``slot`` (own foundation; a Stairway
                           target), or the structure a Prison steals
147    A_TO_HAND     1     Fountain: keep the drawn card in hand
148    A_SENATE      4     ``+ k - 1``: Senate: take the Jack played by the player k seats to
                           the left
152    A_COLISEUM    6     ``+ role``: Coliseum: slay a client of that role of the current victim
158    A_SEWER       6     ``+ material``: Sewer: a played card of that material into the
                           stockpile
164    A_DONE        1     done / decline (one action, an optional extra, no more cards)
165    CH_CARD       40    ``+ building``: chance: a card of that building comes off the draw pile
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

Observation tensor (``state.observation_tensor(p)``: 3224 + 218 per player floats)
----------------------------------------------------------------------------------
A common block, then one block of 218 per seat: p's own first, then each player in turn
order after p.  ``TC_STRUCTS`` repeats the ``TS_*`` slices for each structure slot (65
floats a slot, zero past the last structure) and ``TC_FRAMES`` the ``TF_*`` slices for
each action frame (18 a frame); ``TS_*``, ``TF_*`` and ``TP_*`` offsets are within their
slot, frame or seat block.  ``kernel.TENSOR_BLOCKS`` lists every slice and a test checks
this table against it.  Flags and one-hots are 0/1 (a seat is counted from p); a count is
divided by the bound in the last column (``copies``: the building's cards in the deck, 6 or
3).  It holds what p knows: every public zone by building, the hand, vault and Fountain
cards p knows (the others only as counts) and the turn fields.  Left out: the order
tie-breakers of the dict form (``pet_last``, ``last_unit``, ``eot_last``, the Legionary's
``last``), which say only in which order choices were made.

======  ======  ===================  =========================================================  ======
offset  length  slice                meaning                                                    bound
======  ======  ===================  =========================================================  ======
0       16      ``TC_PHASE``         phase one-hot (``state.PHASES`` order)                     flag
16      6       ``TC_ROLE``          led role (none before the lead)                            flag
22      1       ``TC_STEPS``         actions applied (``steps``)                                6000
23      1       ``TC_DECK``          draw pile size                                             144
24      1       ``TC_JACK_PILE``     Jacks in the pile                                          6
25      40      ``TC_POOL``          pool cards by building                                     copies
65      6       ``TC_IN_TOWN``       in-town sites left by material                             6
71      6       ``TC_OUT_TOWN``      out-of-town sites left by material                         6
77      40      ``TC_REVEALED``      cards revealed for the demand being made                   copies
117     40      ``TC_DRAWN``         a Fountain draw p knows, by building                       copies
157     1       ``TC_DRAWN_HIDDEN``  Fountain draws p does not know                             144
158     40      ``TC_SELECTED``      selected card's building (target stages, if p knows it)    flag
198     4       ``TC_SEL_SRC``       where it comes from (``state.SOURCES``), shown with it     flag
202     40      ``TC_STRUCT_MATS``   materials in all structures, by building                   copies
242     2340    ``TC_STRUCTS``       36 structure slots of 65 (``TS_*`` below), slot order      --
2582    576     ``TC_FRAMES``        32 action frames of 18 (``TF_*`` below), bottom first      --
3158    5       ``TC_FOLLOW_I``      seats after the leader of the follower deciding            flag
3163    5       ``TC_ACT_I``         seats after the leader of the player acting                flag
3168    4       ``TC_EOT_STEP``      end-of-turn step                                           flag
3172    6       ``TC_EOT_I``         end-of-turn index (0..players)                             flag
3178    4       ``TC_THINK_RET``     where a Thinker action returns (``state.RETURNS``)         flag
3182    1       ``TC_THINK_USED``    a Latrine or Vomitorium discard was made                   flag
3183    1       ``TC_DRAW_LEFT``     Thinker cards left to draw                                 255
3184    6       ``TC_PET_MAT``       petition material                                          flag
3190    1       ``TC_PET_LEFT``      petition cards left to choose                              3
3191    3       ``TC_XDRAW``         in-action draw kind (Fountain, Atrium, Bar)                flag
3194    6       ``TC_DEMANDS``       Legionary demands by material                              24
3200    4       ``TC_LEG_STAGE``     Legionary resolution stage                                 flag
3204    5       ``TC_LEG_V``         victim offset from the Legionary                           flag
3209    7       ``TC_LEG_M``         material being given (6: none)                             flag
3216    1       ``TC_GIVE_LEFT``     cards the victim has left to give                          24
3217    6       ``TC_COL_TAKEN``     clients slain from the victim by role                      24
3223    1       ``TC_SETUP_DEALT``   set-up cards dealt                                         255
0       40      ``TS_BUILDING``      the structure's building                                   flag
40      5       ``TS_OWNER``         owner's seat (from p)                                      flag
45      5       ``TS_HOLDER``        seat holding its site (Prison)                             flag
50      6       ``TS_SITE``          site material                                              flag
56      1       ``TS_OUT``           built out of town                                          flag
57      1       ``TS_DONE``          complete                                                   flag
58      1       ``TS_PUBLIC``        public (Stairway)                                          flag
59      6       ``TS_MATERIALS``     materials in it by material (capped at the bound)          4
0       8       ``TF_ROLE``          frame role (six roles, Thinker, Prison)                    flag
8       1       ``TF_BASE``          the role turn's base frame                                 flag
9       8       ``TF_STAGE``         stage (``state.STAGES``)                                   flag
17      1       ``TF_N``             actions used (base) or left (others)                       255
0       40      ``TP_HAND``          hand cards p knows by building (all of p's own)            copies
40      1       ``TP_HAND_SIZE``     hand cards (Jacks apart)                                   144
41      1       ``TP_JACKS``         Jacks in hand                                              6
42      1       ``TP_JACKS_PLAYED``  Jacks played this turn                                     6
43      40      ``TP_STOCK``         stockpile by building                                      copies
83      40      ``TP_CLIENTS``       clientele by building                                      copies
123     40      ``TP_CAMP``          cards played this turn by building                         copies
163     40      ``TP_VAULT``         vault cards p knows by building                            copies
203     1       ``TP_VAULT_HIDDEN``  vault cards p does not know                                144
204     1       ``TP_INFLUENCE``     Influence                                                  74
205     1       ``TP_UNITS``         cards, Jacks and petitions played this turn                255
206     6       ``TP_NEW_CLIENTS``   clients hired this turn by role                            24
212     1       ``TP_LEADER``        the leader                                                 flag
213     1       ``TP_ACTOR``         the current player (none at chance or the end)             flag
214     1       ``TP_DID_CRAFT``     executed a Craftsman action this turn                      flag
215     1       ``TP_TIE``           in the set-up tie-break                                    flag
216     1       ``TP_TIE_DEALT``     dealt a tie-break card                                     flag
217     1       ``TP_FORUM_WIN``     won by the Forum                                           flag
======  ======  ===================  =========================================================  ======

Hidden information
------------------
``observation(p)`` shows p's hand, what p knows of other hands (Legionary reveals),
each vault's known cards and hidden count (a Basilica card is its owner's, an Atrium
card nobody's), a Fountain draw to its drawer, and everything public.
``resample(p)`` redraws every identity p does not know, as one class.
"""
