"""Trafficking 4 Movement: red arrows, the Cop Shop branch, the Narc in any direction, the Expressway (13),
the Time Warp (4h), Roll Again, Buddy Jim's and Miss a Turn (4e)."""
from __future__ import annotations

from tests.rules.trafficking.support import T, at, ev, first, game, given, p, play, refused, roll_to, types


def test_a_dealer_follows_the_red_arrows():
    # Trafficking 4b: "All Dealers roll one die and must follow the direction of the red arrows"
    events, after = roll_to(game(), 3, 3)
    assert first(events, "Moved")["path"] == ["mcdoobies", "eleven-seven-1", "subway-north"]


def test_a_dealer_on_a_cop_shop_chooses_between_two_directions_on_his_next_roll():
    # Trafficking 4c / 9c: "a choice of two directions in which to proceed (follow the arrows)"
    events, state = roll_to(game(at={3: "cop-shop-north"}), 3, 4)
    assert set(state["turn"]["choices"]) == {"flip-out-2", "eleven-seven-2"}
    refused(state, 3, {"type": "Move", "to": "marcus"}, rule="4c")
    _, after = play(state, 3, {"type": "Move", "to": "eleven-seven-2"})
    assert at(after, 3) == "eleven-seven-2"


def test_a_dealer_passing_a_cop_shop_keeps_to_the_main_arrow():
    # Trafficking 4c: the choice comes only on the roll after landing on the Cop Shop
    events, _ = roll_to(game(at={3: "dont-fret"}), 3, 2)
    assert first(events, "Moved")["to"] == "marcus"


def test_the_narc_moves_in_any_direction_by_the_exact_count_without_turning_back():
    # Trafficking 4d: "THE NARC rolls one die and may move in any direction he desires"
    _, state = roll_to(game(turn=0), 0, 2)
    assert set(state["turn"]["choices"]) == {"roll-again-1", "miss-turn-1", "alley-ne-2"}
    assert all("cop-shop-north" not in path for path in state["turn"]["choices"].values())


def test_the_narc_ignores_buddy_jims_and_does_not_roll_again():
    # Trafficking 4e / 4h: "does not roll again on any Roll Again squares"; "he's not a buddy of Jim's"
    _, state = roll_to(game(turn=0, narc_at="cop-shop-east"), 0, 1)
    events, after = play(state, 0, {"type": "Move", "to": "buddy-jims"})
    assert "RollAgainMarked" not in types(events) and after["turn"]["seat"] != 0


def test_everyone_landing_on_an_expressway_square_must_take_the_expressway():
    # Trafficking 4f and 13: "All players, including the Narc, ... MUST immediately take the expressway"
    events, after = roll_to(game(at={3: "street-1"}), 3, 2)
    assert [e.data["to"] for e in events if e.type == "Moved"] == ["expressway-east", "expressway-west"]
    _, state = roll_to(game(turn=0, narc_at="ez-smoke"), 0, 1)
    events, after = play(state, 0, {"type": "Move", "to": "expressway-east"})
    assert at(after, 0) == "expressway-west"


def test_the_roxy_time_warp_rolls_both_dice_twice_and_only_the_end_of_the_advance_counts():
    # Trafficking 4h: "the Time Warp on the ROXY square where Dealers get to roll both dice twice and advance"
    events, after = roll_to(game(at={3: "subway-south"}, lids={3: 2}), 3, 2, 1, 1, 1, 1)
    assert first(events, "TimeWarpRolled")["dice"] == [1, 1, 1, 1]
    warp = [e.data for e in events if e.type == "Moved"][-1]
    assert warp["how"] == "time_warp" and warp["path"][0] == "hashton-arms" and at(after, 3) == "street-3"
    assert "SellRolled" not in types(events) and after["turn"]["seat"] != 3   # passing a Dealing square does nothing


def test_the_narc_cannot_enter_the_time_warp_by_landing_on_the_roxy():
    # Trafficking 4h: "nor can he enter the Time Warp on the ROXY square"
    _, state = roll_to(game(turn=0, narc_at="cop-shop-south"), 0, 4)
    events, after = play(state, 0, {"type": "Move", "to": "roxy"})
    assert "TimeWarpRolled" not in types(events) and at(after, 0) == "roxy"


def test_roll_again_gives_the_dealer_another_roll():
    # Trafficking 4e (a Dealer rolls again on a Roll Again square)
    events, after = roll_to(game(at={3: "cab-stand-1"}), 3, 1)
    assert types(events)[-2:] == ["TurnEnded", "TurnStarted"] and events[-1].data == {"seat": 3, "again": True}
    assert T.awaiting(after) == {3: "move"}


def test_miss_a_turn_skips_the_dealers_next_turn():
    # Trafficking 4e (a Dealer misses a turn on a Miss a Turn square)
    events, after = roll_to(game(at={3: "street-2"}), 3, 2)
    assert "MissTurnMarked" in types(events) and p(after, 3)["miss"]
    state = given(game(turn=0, at={3: "street-2"}), ev("MissTurnMarked", seat=3, why="test"))
    _, state = roll_to(state, 0, 1)
    events, after = play(state, 0, {"type": "Move", "to": sorted(state["turn"]["choices"])[0]})
    assert "TurnMissed" in types(events) and after["turn"]["seat"] == 2 and not p(after, 3)["miss"]
