"""Trafficking 16 Airport Customs: a simultaneous secret choice (the Dealer's hand, the Narc's guess)."""
from __future__ import annotations

from rules.base import redact
from tests.rules.trafficking.support import T, at, first, game, p, play, roll_to, types


def at_customs(lids=4):
    """Seat 3 lands on Airport Customs (passing the West Expressway ramp) holding `lids`."""
    return roll_to(game(at={3: "street-3"}, lids={3: lids}), 3, 2)


def hidden_left():
    """At Customs, the Dealer has hidden his Lids in his left hand."""
    _, state = at_customs()
    return play(state, 3, {"type": "HideLids", "hand": "left"})[1]


def test_a_dealer_with_lids_and_the_narc_choose_at_once_and_in_secret():
    # Trafficking 16: "having the Dealer secretly put all his Lid tokens in one hand ... THE NARC must then choose"
    events, state = at_customs()
    assert "CustomsOpened" in types(events) and T.awaiting(state) == {3: "move", 0: "move"}
    hidden, state = play(state, 3, {"type": "HideLids", "hand": "left"})
    assert T.visible_to(hidden[0]) == {3} and "secret" not in redact(T, hidden[0], 0).data
    assert "your_hand" not in T.view(state, 0)["customs"] and T.view(state, 3)["customs"]["your_hand"] == "left"
    assert T.awaiting(state) == {0: "move"}


def test_the_narc_choosing_the_hand_with_the_lids_charges_an_offense_escorted_to_the_west_end():
    # Trafficking 16b and 16d: "escort that Dealer to the closest en route Cop Shop (i.e. The West End Cop Shop)"
    state = hidden_left()
    events, after = play(state, 0, {"type": "ChooseHand", "hand": "left"})
    assert first(events, "CustomsCleared") == {"dealer": 3, "hidden": "left", "guess": "left", "caught": True}
    assert first(events, "Busted")["to"] == "cop-shop-west" and at(after, 3) == "cop-shop-west"
    assert at(after, 0) == "cop-shop-north"   # 16d: "the NARC does not leave the square which he is on"


def test_the_empty_hand_clears_customs():
    # Trafficking 16a: "Should the Narc choose the empty hand, the Dealer has successfully cleared Customs"
    state = hidden_left()
    events, after = play(state, 0, {"type": "ChooseHand", "hand": "right"})
    assert "Busted" not in types(events) and p(after, 3)["lids"] == 4 and after["turn"]["seat"] != 3


def test_no_interrogation_without_lids():
    # Trafficking 16c: "Should a Dealer not have any Lids ... play continues without an interrogation"
    events, after = at_customs(lids=0)
    assert "CustomsOpened" not in types(events) and after["customs"] is None
