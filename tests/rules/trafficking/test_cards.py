"""Trafficking 18 Sour Grapes and Flip Out cards (texts reconstructed in cards.json, but for the Narc's
Time Warp card)."""
from __future__ import annotations

from rules.base import redact
from tests.rules.trafficking.support import T, at, first, game, p, play, roll_to, types

IN_ORDER = list(range(16))


def test_the_top_card_is_followed_and_returned_to_the_bottom_and_the_narc_enters_the_time_warp():
    # Trafficking 18: "return the card face-down to the bottom of the stack"; 4h: "There is a directive on a
    # Sour Grapes card which allows the Narc to enter the Time Warp"
    state = game(at={2: "street-3"}, lids={2: 3})
    events, after = roll_to(state, 3, 4, 1, 1, 1, 1)
    assert first(events, "CardDrawn")["card"] == "SG01" and after["decks"]["sour_grapes"][-1] == "SG01"
    narc_moves = [e.data for e in events if e.type == "Moved" and e.data["seat"] == 0]
    assert [m["to"] for m in narc_moves] == ["roxy", "street-3"] and narc_moves[1]["how"] == "time_warp"
    assert first(events, "Busted")["seat"] == 2   # the Narc lands on a Dealer holding Lids


def test_the_narc_ignores_the_draw_squares():
    # Trafficking 4e: "ignores all draw cards"
    _, state = roll_to(game(turn=0, narc_at="cop-shop-south"), 0, 3)
    events, _ = play(state, 0, {"type": "Move", "to": "flip-out-4"})
    assert "CardDrawn" not in types(events)


def test_a_kept_card_is_secret_to_its_dealer_and_beats_the_next_offense():
    # Trafficking 18: "(unless otherwise stated)": Al Bluff's Retainer is kept (reconstructed)
    events, state = roll_to(game(at={3: "jc-flowers"}, lids={3: 2}), 3, 1)
    drawn = next(e for e in events if e.type == "CardDrawn")
    assert drawn.data["kept"] and T.visible_to(drawn) == {3} and "secret" not in redact(T, drawn, 2).data
    assert p(state, 3)["kept"] == ["FO01"] and "kept" not in T.view(state, 2)["players"][3]
    assert T.view(state, 2)["players"][3]["kept_count"] == 1 and T.view(state, 3)["players"][3]["kept"]
    charged = game(turn=0, at={3: "miss-turn-1"}, lids={3: 2})
    charged = T.fold(charged, [drawn])
    _, moving = roll_to(charged, 0, 2)
    events, after = play(moving, 0, {"type": "Move", "to": "miss-turn-1"})
    assert "Busted" not in types(events) and first(events, "CardUsed")["use"] == "retainer"
    assert p(after, 3)["lids"] == 2 and after["decks"]["flip_out"][-1] == "FO01"


def test_a_fine_the_dealer_cannot_pay_puts_him_out():
    # Trafficking 17a: "Should a Dealer be unable to pay for a fine or penalty, he is automatically out"
    decks = {"sour_grapes": [8] + [i for i in IN_ORDER if i != 8], "flip_out": IN_ORDER}   # Parking Tickets: $50
    events, after = roll_to(game(cash={3: 40}, decks=decks), 3, 4)
    assert first(events, "CardDrawn")["name"] == "Parking Tickets" and p(after, 3)["out"] == "bankrupt"


def test_the_stool_pigeon_brings_the_narc_to_the_dealer():
    decks = {"sour_grapes": [1] + [i for i in IN_ORDER if i != 1], "flip_out": IN_ORDER}
    events, after = roll_to(game(lids={3: 2}, decks=decks), 3, 4)
    assert at(after, 0) == "sour-grapes-1" and first(events, "Busted")["seat"] == 3
