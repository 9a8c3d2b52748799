"""Druglord Rule 11 Baller Moves: the deck (43 cards, reconstructed except the two printed), drawing in secret,
and every card's effect and timing."""
from __future__ import annotations

import json

from rules.base import redact
from rules.druglord.data import BALLER_FILE, CARDS, HAND_LIMIT, baller_deck
from tests.rules.druglord.support import (
    D,
    dice,
    first,
    legal,
    play,
    put,
    refused,
    stash,
    table,
    trade,
    types,
    with_cases,
    with_hand,
)


def card(name, region=None):
    return {"type": "PlayCard", "card": name, "region": region}


def test_the_deck_has_43_cards_and_says_what_is_reconstructed():
    # Druglord components: "43 Baller Cards"; only Armed Locals and Ideal Rainfall are printed (Rule 11).
    data = json.loads(BALLER_FILE.read_text(encoding="utf-8"))
    assert "reconstructed" in data["reconstructed"] and len(baller_deck()) == 43
    printed = {c["id"] for c in data["cards"] if c["printed"]}
    assert printed == {"armed_locals", "ideal_rainfall"}
    assert CARDS["armed_locals"]["text"].startswith("+3 bonus on your next Defence (Rule 9).")
    assert "1=0 2=1 3=2 4-8=3 9+=4" in CARDS["ideal_rainfall"]["text"]
    assert HAND_LIMIT == 3 and len(CARDS) >= 8


def test_drawing_a_card_is_the_action_and_the_card_is_secret():
    # Druglord 11: "As an action, a player may draw 1 card from the Baller Moves Deck. A drawn card may be held,
    # played immediately ..."
    state = table([["FS5"], ["AE1"]])
    top = state["baller_deck"][0]
    events, state = play(state, 0, {"type": "DrawBaller"})
    drawn = first(events, "BallerDrawn")
    assert drawn["secret"] == {"card": top} and D.visible_to(events[0]) == {0}
    assert "secret" not in redact(D, events[0], 1).data
    assert D.view(state, 0)["players"][0]["hand"] == [top]
    assert "hand" not in D.view(state, 1)["players"][0] and D.view(state, 1)["players"][0]["hand_count"] == 1
    assert legal(state, 0)[-1] == {"type": "EndAction"}                  # keep it: the action ends
    events, state = play(state, 0, {"type": "EndAction"})
    assert state["pos"] == 1


def test_hand_limit_and_reshuffling_the_discards():
    # Druglord 11 (reconstructed): at most 3 cards in hand; an empty deck is the discards reshuffled.
    state = with_hand(table([["FS5"], ["AE1"]]), 0, "snitch", "snitch", "plea_deal")
    assert {"type": "DrawBaller"} not in legal(state, 0)
    refused(state, 0, {"type": "DrawBaller"}, rule="11", match="hand is full")
    empty = dict(table([["FS5"], ["AE1"]]), baller_deck=[], baller_discard=baller_deck())
    events, empty = play(empty, 0, {"type": "DrawBaller"})
    assert types(events)[:2] == ["BallerDeckShuffled", "BallerDrawn"]
    assert D.visible_to(events[0]) == set() and len(empty["baller_deck"]) == 42


def test_armed_locals_add_three_to_a_defence_by_surprise():
    # Druglord 11 a.: "Armed Locals ... +3 bonus on your next Defence (Rule 9). Discard after use." -- "may be played
    # by surprise when the Player is attacked."
    state = with_hand(table([["FS1"], ["FS3"]]), 1, "armed_locals")
    _, state = play(state, 0, {"type": "Attack", "from": "FS1", "target": "FS3"})
    assert D.awaiting(state) == {1: "response"} and card("armed_locals") in legal(state, 1)
    events, state = play(state, 1, card("armed_locals"))
    assert first(events, "CardPlayed")["amount"] == 3 and state["baller_discard"] == ["armed_locals"]
    events, state = play(state, 1, {"type": "EndSway"}, dice(5, 3))      # 5 vs 3 + 3
    assert first(events, "RollCast")["totals"] == {"attack": 5, "defence": 6}
    assert first(events, "WarResolved")["winner"] == "defender" and state["owner"]["FS3"] == 1
    refused(with_hand(table([["FS1"], ["FS3"]]), 0, "armed_locals"), 0, card("armed_locals"), rule="11",
            match="played on a die roll")


def test_ideal_rainfall_rolls_bonus_opiates_on_a_poppy_region():
    # Druglord 11 b.: "Roll for a one-time bonus of up to 4 Opiates to any Opiates growing region ... 1=0 2=1 3=2
    # 4-8=3 9+=4". Playing it does not use the action.
    state = with_hand(table([["AG1", "FS5"], ["AE1"]]), 0, "ideal_rainfall")
    assert legal(state, 0).count(card("ideal_rainfall", "AG1")) == 1
    assert card("ideal_rainfall", "FS5") not in legal(state, 0)       # Southwest grows no poppies
    events, after = play(state, 0, card("ideal_rainfall", "AG1"), dice(5))
    assert first(events, "BonusWeight")["units"] == 3 and after["weight"]["AG1"]["opiates"] == 3
    assert after["pos"] == 0 and after["action"] is None               # still seat 0's action to take
    for face, units in ((1, 0), (2, 1), (3, 2), (4, 3), (9, 4)):
        events, _ = play(state, 0, card("ideal_rainfall", "AG1"), dice(face))
        assert first(events, "BonusWeight")["units"] == units


def test_bumper_crop_is_the_reefer_twin():
    # Druglord 11 (reconstructed): Bumper Crop -- the same table for Reefer.
    state = with_hand(table([["FS5"], ["AE1"]]), 0, "bumper_crop")
    events, after = play(state, 0, card("bumper_crop", "FS5"), dice(9))
    assert first(events, "BonusWeight")["units"] == 4 and after["weight"]["FS5"]["reefer"] == 4


def test_hired_guns_add_two_to_the_attack():
    # Druglord 11 (reconstructed): +2 on your Attack roll.
    state = with_hand(table([["FS1"], ["FS3"]]), 0, "hired_guns")
    _, state = play(state, 0, {"type": "Attack", "from": "FS1", "target": "FS3"})
    assert D.awaiting(state) == {0: "move"} and card("hired_guns") in legal(state, 0)
    events, _ = play(state, 0, card("hired_guns"), dice(3, 4))      # nothing left to declare: the dice roll
    assert first(events, "RollCast")["totals"] == {"attack": 5, "defence": 4}
    assert first(events, "RegionLost")["region"] == "FS3"


def test_greased_palms_and_snitch_on_a_trade_roll():
    # Druglord 11: "used to disrupt another player's action" -- Snitch -2; Greased Palms +2 on your own trade.
    state = put(table([["AE2", "AS2"], ["FS1"]], wtype="pills"), "AE2", "pills", 1)
    state = with_hand(with_hand(state, 0, "greased_palms"), 1, "snitch")
    _, state = play(state, 0, trade("AE2", "AS2", "sea:atlantic"))
    assert card("snitch") not in legal(state, 0)
    _, state = play(state, 0, card("greased_palms"))
    assert D.awaiting(state) == {1: "response"} and card("snitch") in legal(state, 1)
    _, state = play(state, 1, card("snitch"))
    events, _ = play(state, 1, {"type": "EndSway"}, dice(2))             # 2 + 2 - 2 = 2 < 3
    assert first(events, "RollCast")["modifiers"] == {"trade": 0} and "TradeFailed" in types(events)


def test_bent_lawyer_and_plea_deal_at_trial():
    # Druglord 11 (reconstructed): protection from Trial.
    base = with_cases(put(table([["FS1", "FS5"], ["AE1"]]), "FS1", "reefer", 2), 0, "reefer", 4)
    lawyer = with_hand(base, 0, "bent_lawyer")
    _, state = play(lawyer, 0, trade("FS1", "FS5", "land"))
    _, state = play(state, 0, {"type": "EndSway"}, dice(1))              # bust: Trial
    assert state["roll"]["kind"] == "trial" and card("bent_lawyer") in legal(state, 0)
    events, state = play(state, 0, card("bent_lawyer"), dice(4))        # 4 + 3 = 7: walks
    assert first(events, "TrialResolved")["name"] == "Nothing"
    deal = with_hand(base, 0, "plea_deal")
    _, state = play(deal, 0, trade("FS1", "FS5", "land"))
    _, state = play(state, 0, {"type": "EndSway"}, dice(1))
    events, state = play(state, 0, card("plea_deal"))
    assert types(events)[:3] == ["CardPlayed", "TrialResolved", "CasesReset"]
    assert first(events, "TrialResolved")["walked"] is True and state["players"][0]["cases"]["reefer"] == 0


def test_evidence_lost_removes_two_cases():
    # Druglord 11 (reconstructed): "Remove up to 2 Cases from your Status Card."
    state = with_hand(with_cases(with_cases(table([["FS5"], ["AE1"]]), 0, "pills", 2), 0, "reefer", 1),
                      0, "evidence_lost")
    events, state = play(state, 0, card("evidence_lost"))
    assert first(events, "CasesCleared")["removed"] == {"pills": 1, "reefer": 1}   # most numerous first
    assert state["players"][0]["cases"] == {"reefer": 0, "pills": 1, "cocaine": 0, "opiates": 0}
    assert card("evidence_lost") not in legal(with_hand(table([["FS5"], ["AE1"]]), 0, "evidence_lost"), 0)


def test_crooked_cop_calls_the_attack_off():
    # Druglord 11 (reconstructed): the attack is called off before the dice; the attacker's action is spent.
    state = with_hand(stash(table([["FS1"], ["FS3"]]), 1, "pills", 1), 1, "crooked_cop")
    _, state = play(state, 0, {"type": "Attack", "from": "FS1", "target": "FS3"})
    events, state = play(state, 1, card("crooked_cop"))
    assert types(events) == ["CardPlayed", "WarCalledOff", "ActionEnded"]
    assert state["roll"] is None and state["pos"] == 1 and state["owner"]["FS3"] == 1
