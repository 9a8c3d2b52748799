"""Druglord Rule 9 Violence: range, war dice with Sway, ties, pressing, defending by 5, the counterattack."""
from __future__ import annotations

from tests.rules.druglord.support import D, dice, first, legal, play, put, refused, stash, table, types

ATTACK = {"type": "Attack", "from": "FS1", "target": "FS3"}      # Appalachia borders Great Plains


def border_war(**weights):
    """Seat 0 holds Appalachia, seat 1 Great Plains; seat 0 acts first."""
    state = table([["FS1"], ["FS3"]])
    for region, units in weights.items():
        state = put(state, region, "reefer", units)
    return state


def test_range_is_a_border_or_the_same_zone_across_at_most_one_unoccupied_space():
    # Druglord 9: "The attacking Region must border the Region to be Attacked, or be within the same Zone and not
    # cross more than 1 unoccupied space."
    state = table([["FS1"], ["FS3", "FS5", "AE1"]])
    targets = {m["target"] for m in legal(state, 0) if m["type"] == "Attack"}
    assert targets == {"FS3", "FS5"}            # Southwest: across Great Plains (occupied) -- in range
    near = table([["FS1"], ["FS4"]])            # Rocky Mountains: across one unoccupied space (Great Plains)
    assert {m["target"] for m in legal(near, 0) if m["type"] == "Attack"} == {"FS4"}
    far = table([["AS1"], ["AS5"]])             # New England to Florida: New York, Mid-Atlantic, Southeast empty
    assert [m for m in legal(far, 0) if m["type"] == "Attack"] == []
    closer = table([["AS1", "AS2", "AS3"], ["AS5"]])   # own regions are crossed freely: only Southeast is empty
    assert {(m["from"], m["target"]) for m in legal(closer, 0) if m["type"] == "Attack"} == {
        ("AS1", "AS5"), ("AS2", "AS5"), ("AS3", "AS5")}
    apart = table([["FS1"], ["NP4"]])           # another zone, no border
    assert [m for m in legal(apart, 0) if m["type"] == "Attack"] == []
    refused(apart, 0, {"type": "Attack", "from": "FS1", "target": "NP4"}, rule="9", match="out of range")


def test_attacker_wins_destroys_the_weight_and_may_press():
    # Druglord 9: "If the Attacker wins, the Defending Region loses any remaining Weight, including any being stored
    # for future Domestic Trades ... If the Attacker succeeds in destroying the Weight, the Attack may be pressed."
    events, state = play(border_war(FS3=2), 0, ATTACK, dice(5, 3))
    war = first(events, "WarResolved")
    assert (war["attack"], war["defence"], war["winner"], war["offer"]) == (5, 3, "attacker", "press")
    assert state["weight"]["FS3"]["reefer"] == 0 and state["owner"]["FS3"] == 1
    assert legal(state, 0) == [{"type": "PressAttack"}, {"type": "EndAction"}]
    # "On a second successful attack, the Defending Region is lost and goes up for Draft, and can be Drafted by
    # the Attacker"
    events, state = play(state, 0, {"type": "PressAttack"}, dice(4, 2))
    assert first(events, "RegionLost") == {"region": "FS3", "seat": 1, "priority": 0, "cause": "violence"}
    assert "FS3" not in state["owner"] and state["lost"] == [{"region": "FS3", "priority": 0}]
    assert state["pos"] == 1                       # the whole exchange was seat 0's one action


def test_an_empty_region_that_loses_goes_to_the_draft_at_once():
    # Druglord 9: "If the Defending Region loses and has no Weight, the Region goes up for Draft, and can be Drafted
    # by the Attacker next Region Phase."
    events, state = play(border_war(), 0, ATTACK, dice(3, 2))
    assert first(events, "RegionLost")["priority"] == 0 and "FS3" not in state["owner"]


def test_ties_go_to_the_defender():
    # Druglord 9: "Each player rolls 1 die, high roll wins. A tie is in Defender's favor."
    events, state = play(border_war(FS3=1), 0, ATTACK, dice(4, 4))
    assert first(events, "WarResolved")["winner"] == "defender" and state["weight"]["FS3"]["reefer"] == 1
    assert types(events)[-1] == "ActionEnded"


def test_defending_by_five_costs_the_attacker_its_weight_and_allows_a_counterattack():
    # Druglord 9: "If the Defender Defends by 5 or more, the Attacking Region loses its Weight instead, and the
    # Defender may press a counterattack."  "If the Defender wins this counterattack by any amount, the Attacking
    # Region is lost and goes up for Draft, and can be Drafted first by the Defender".
    events, state = play(border_war(FS1=2), 0, ATTACK, dice(2, 9))
    assert first(events, "WarResolved")["offer"] == "counter"
    assert state["weight"]["FS1"]["reefer"] == 0
    assert D.awaiting(state) == {1: "response"}                        # defending costs no action
    assert legal(state, 1) == [{"type": "Counterattack"}, {"type": "DeclineCounter"}]
    assert D.on_timeout(state, 1) == {"type": "DeclineCounter"}
    events, state = play(state, 1, {"type": "Counterattack"}, dice(3, 2))
    assert first(events, "RegionLost") == {"region": "FS1", "seat": 0, "priority": 1, "cause": "counterattack"}
    assert state["pos"] == 1 and D.awaiting(state) == {1: "move"}      # now seat 1 takes its own action


def test_a_counterattack_that_ties_fails_and_can_be_declined():
    # Druglord 9: the counterattack must win "by any amount"; ties stay with the defending (attacking) region.
    _, state = play(border_war(), 0, ATTACK, dice(1, 9))
    events, after = play(state, 1, {"type": "Counterattack"}, dice(3, 3))
    assert first(events, "WarResolved")["winner"] == "defender" and after["owner"]["FS1"] == 0
    events, after = play(state, 1, {"type": "DeclineCounter"})
    assert types(events) == ["CounterDeclined", "ActionEnded"]


def test_pressed_attack_repelled_by_five_opens_the_counterattack_too():
    # Druglord 9: "If the Defender now defends by 5 or more, the Attacking Region loses any attached weight, and the
    # Defender may press a counterattack."
    _, state = play(border_war(FS1=1, FS3=1), 0, ATTACK, dice(5, 2))
    events, state = play(state, 0, {"type": "PressAttack"}, dice(4, 9))
    assert first(events, "WarResolved")["offer"] == "counter" and state["weight"]["FS1"]["reefer"] == 0


def test_war_dice_take_sway_from_both_sides():
    # Druglord 7 / 9: "Attacker Roll + Sway" against "Defender Roll + Sway".
    state = stash(stash(border_war(), 0, "pills", 1), 1, "pills", 3)
    _, state = play(state, 0, ATTACK)
    _, state = play(state, 0, {"type": "Sway", "die": "attack", "weight": "pills", "units": 1})
    assert D.awaiting(state) == {1: "response"}
    _, state = play(state, 1, {"type": "Sway", "die": "defence", "weight": "pills", "units": 2})
    events, state = play(state, 1, {"type": "EndSway"}, dice(5, 4))     # 6 vs 6: a tie, the defender holds
    assert first(events, "RollCast")["totals"] == {"attack": 6, "defence": 6}
    assert first(events, "WarResolved")["winner"] == "defender"


def test_violence_is_the_action_of_the_phase():
    # Druglord 9: "The Attacking player may not yet have taken an Action that Phase".
    state = put(table([["FS1", "FS5"], ["FS3"]]), "FS1", "reefer", 1)
    state = put(state, "FS5", "reefer", 2)
    _, state = play(state, 0, {"type": "Trade", "from": "FS5", "to": "FS5", "route": "domestic", "units": 1},
                    dice(2))
    assert not [m for m in legal(state, 0) if m["type"] == "Attack"]
    refused(state, 0, ATTACK, rule="4", match="already took your action")
