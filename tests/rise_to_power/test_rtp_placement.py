"""Phase 2, placing Power Dice: the rulebook's four placement examples, the group rule,
the leftmost-die rule and passing when no die can be placed."""

from __future__ import annotations

from rtp_helpers import BLUE, PURPLE, RED, YELLOW, act, group, names, position

# Red, Blue, Yellow, Purple play in that order (seats 0-3).


def test_first_die_goes_leftmost_and_the_next_behind_it():
    st = position(dice={RED: [2, 5, 5, 5], BLUE: [3, 5, 5, 5]})
    act(st, "place a 2 on Senate")
    assert st.current_player() == BLUE
    act(st, "place a 3 on Senate")
    assert group(st, "senate") == [(RED, [2]), (BLUE, [3])]


def test_lower_die_moves_into_the_leftmost_section():
    # Red played a 2 on the Senate track; Blue places a 1: Blue moves left, Red right.
    st = position(dice={RED: [2, 5, 5, 5], BLUE: [1, 5, 5, 5], YELLOW: [1, 5, 5, 5]})
    act(st, "place a 2 on Senate")
    act(st, "place a 1 on Senate")
    assert group(st, "senate") == [(BLUE, [1]), (RED, [2])]
    # Yellow places a 1: not lower than Blue's 1, lower than Red's 2.
    act(st, "place a 1 on Senate")
    assert group(st, "senate") == [(BLUE, [1]), (YELLOW, [1]), (RED, [2])]


def test_lowest_die_pushes_both_groups_right():
    # Red a 4, Blue a 3, then Yellow a 2.
    st = position(dice={RED: [4, 6, 6, 6], BLUE: [3, 6, 6, 6], YELLOW: [2, 6, 6, 6]})
    act(st, "place a 4 on Senate")
    act(st, "place a 3 on Senate")
    assert group(st, "senate") == [(BLUE, [3]), (RED, [4])]
    act(st, "place a 2 on Senate")
    assert group(st, "senate") == [(YELLOW, [2]), (BLUE, [3]), (RED, [4])]


def test_group_rule_next_die_not_above_the_rightmost():
    # Red has a 4 on the Military track: the next die there must be 4 or lower; after a
    # 2, a third must be 2 or lower.
    st = position(actor=RED, tracks={"military": [(RED, [4])]}, dice={RED: [5, 2, 1]}, turn=4)
    legal = names(st)
    assert "place a 2 on Military" in legal and "place a 1 on Military" in legal
    assert "place a 5 on Military" not in legal
    assert "place a 5 on Senate" in legal
    act(st, "place a 2 on Military")
    assert group(st, "military") == [(RED, [4, 2])]
    st = position(actor=RED, tracks={"military": [(RED, [4, 2])]}, dice={RED: [6, 1]}, turn=8)
    assert "place a 1 on Military" in names(st)
    assert "place a 6 on Military" not in names(st)


def test_only_the_leftmost_die_orders_the_groups():
    # Blue has 4 then 2 on the Military track; Yellow's 4 is not lower than Blue's
    # leftmost 4, so the sections stay.
    tracks = {"military": [(BLUE, [4, 2])], "senate": [(RED, [6])], "black_market": [(YELLOW, [6])]}
    st = position(actor=YELLOW, tracks=tracks, dice={YELLOW: [4, 3, 6]}, turn=6,
                  order=[RED, BLUE, YELLOW, PURPLE])
    st4 = st.clone()
    act(st4, "place a 4 on Military")
    assert group(st4, "military") == [(BLUE, [4, 2]), (YELLOW, [4])]
    # A 3 is lower than Blue's leftmost 4: Yellow takes the first section.
    act(st, "place a 3 on Military")
    assert group(st, "military") == [(YELLOW, [3]), (BLUE, [4, 2])]


def test_blue_example_played_out_turn_by_turn():
    st = position(dice={RED: [6, 6, 6, 6], BLUE: [4, 2, 6, 6], YELLOW: [3, 6, 6, 6], PURPLE: [6, 6, 6, 6]})
    act(st, "place a 6 on Senate")        # Red elsewhere
    act(st, "place a 4 on Military")      # Blue
    act(st, "place a 6 on Black Market")  # Yellow elsewhere
    act(st, "place a 6 on Black Market")  # Purple
    act(st, "place a 6 on Senate")        # Red again
    act(st, "place a 2 on Military")      # Blue's second die
    assert group(st, "military") == [(BLUE, [4, 2])]
    act(st, "place a 3 on Military")      # Yellow: 3 < 4
    assert group(st, "military") == [(YELLOW, [3]), (BLUE, [4, 2])]


def test_a_player_with_a_group_cannot_open_a_second_on_that_track():
    st = position(actor=RED, tracks={"military": [(RED, [2])]}, dice={RED: [5, 6, 6]}, turn=4)
    assert not any(n.endswith("on Military") for n in names(st))


def test_pass_when_no_die_can_be_placed():
    tracks = {"military": [(RED, [1])], "senate": [(RED, [1])], "black_market": [(RED, [1])]}
    st = position(actor=RED, tracks=tracks, dice={RED: [6]}, turn=12)
    assert names(st) == ["pass (no die can be placed)"]
    before = st.to_dict()["players"][RED]["dice"]
    act(st, "pass")
    assert st.to_dict()["players"][RED]["dice"] == before  # the die stays unplaced
    assert st.current_player() == BLUE


def test_turns_go_round_in_order_four_times():
    st = position(order=[2, 0, 3, 1], actor=2)
    seen = []
    while st.to_dict()["phase"] in ("place", "after_place"):
        seen.append(st.current_player())
        st.apply_action(st.legal_actions()[0])
    assert seen == [2, 0, 3, 1] * 4
