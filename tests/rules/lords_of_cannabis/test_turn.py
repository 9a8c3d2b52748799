"""Turn Overview, Resources (production) and Special Actions (a roll of 7 and the Sheriff)."""
from __future__ import annotations

from tests.rules.lords_of_cannabis.support import (
    L,
    cards,
    first,
    greenhouse,
    legal,
    play,
    refused,
    rng_where,
    table,
    tunnel,
    types,
)

# Node 29 borders brick 6 (FUEL, chip 11), brick 11 (SOIL, chip 8) and brick 12 (SEEDS, chip 6).
FUEL, CEMENT, WATER, SEEDS, SOIL = range(5)


def roll_of(total):
    return rng_where(lambda r: sum(r.roll(2)) == total, f"roll-{total}")


def test_a_greenhouse_gets_one_card_and_a_plantation_two_and_so_on():
    # Resources: "Each player who has a Greenhouse bordering a resource marked with the number rolled receives one
    # Stash Card ... Any player that has a Plantation bordering that resource receives two"; Plantation: "If you
    # have a Greenhouse and a Plantation that share a resource, then you would get 3 Stash Cards"
    state = greenhouse(greenhouse(table(3), 0, 29), 0, 43, level=2)   # 43 is brick 12's bottom corner
    state = greenhouse(state, 1, 23)                                   # 23 is brick 12's top corner
    events, state = play(state, 0, {"type": "Roll"}, roll_of(6))
    assert first(events, "DiceRolled")["gains"][0][SEEDS] == 3
    assert state["hands"][0][SEEDS] == 3 and state["hands"][1][SEEDS] == 1 and state["hands"][2] == [0] * 5
    assert state["bank"][SEEDS] == 21 and state["phase"] == "main"


def test_the_sheriffs_brick_produces_nothing():
    # Special Actions: "the resource brick containing the Sheriff produces no resources when that number is rolled"
    state = {**greenhouse(table(3), 0, 29), "sheriff": 12}
    _, state = play(state, 0, {"type": "Roll"}, roll_of(6))
    assert state["hands"][0] == [0] * 5


def test_a_bank_too_short_for_everyone_pays_no_one_unless_one_player_is_owed():
    # Building: "You cannot build an item that is out of stock" -- ruling: a resource the bank cannot pay in full
    # goes to nobody, unless only one player is owed it (then they take what is left)
    state = greenhouse(greenhouse(table(3), 0, 29), 1, 23)
    state = cards(state, 2, SEEDS=24)
    _, after = play(state, 0, {"type": "Roll"}, roll_of(6))
    assert after["hands"][0][SEEDS] == 0 and after["hands"][1][SEEDS] == 0
    alone = cards(greenhouse(table(3), 0, 43, level=2), 2, SEEDS=24)
    _, after = play(alone, 0, {"type": "Roll"}, roll_of(6))
    assert after["hands"][0][SEEDS] == 1 and after["bank"][SEEDS] == 0


def test_building_waits_for_the_roll_and_only_the_active_player_acts():
    # Turn Overview: "Building Conversions must occur after a player rolls the dice."
    state = cards(tunnel(greenhouse(table(3), 0, 29), 0, 40), 0, CEMENT=1, WATER=1)
    assert not any(m["type"] == "BuildTunnel" for m in legal(state, 0))
    refused(state, 0, {"type": "EndTurn"}, "Turn Overview")
    refused(state, 1, {"type": "Roll"}, "Turn Overview", "seat 0's turn")
    assert L.awaiting(state) == {0: "move"}


def test_a_seven_produces_nothing_and_the_roller_moves_the_sheriff_to_a_new_brick():
    # Special Actions: "No player receives any Stash Cards ... The roller of the die must now move the Sheriff to a
    # new resource ... that is not currently covered by the Sheriff Badge."
    state = {**greenhouse(table(3), 0, 29), "sheriff": 5}
    events, state = play(state, 0, {"type": "Roll"}, roll_of(7))
    assert first(events, "DiceRolled")["gains"] is None and state["phase"] == "sheriff"
    assert {"type": "MoveSheriff", "brick": 5} not in legal(state, 0) and len(legal(state, 0)) == 23
    refused(state, 0, {"type": "MoveSheriff", "brick": 5}, "Special Actions", "not already on")


def test_everyone_built_around_the_sheriffs_new_brick_discards_one_card_of_their_choice():
    # Special Actions: "Any player who is built around the selected space must discard one of his or her Stash
    # Cards." -- ruling: each chooses which; the roller too; a player with no cards has nothing to discard
    state = greenhouse(greenhouse(greenhouse(table(3), 0, 29), 1, 23), 2, 37)
    state = cards(cards(state, 0, FUEL=1), 1, WATER=2, SOIL=1)
    _, state = play(state, 0, {"type": "Roll"}, roll_of(7))
    events, state = play(state, 0, {"type": "MoveSheriff", "brick": 12})
    assert first(events, "SheriffMoved")["discard"] == [0, 1]               # seat 2 holds nothing
    assert L.awaiting(state) == {0: "response", 1: "response"}
    assert legal(state, 1) == [{"type": "Discard", "resource": "WATER"}, {"type": "Discard", "resource": "SOIL"}]
    assert L.on_timeout(state, 1) == {"type": "Discard", "resource": "WATER"}  # the clock: the most plentiful
    _, state = play(state, 1, {"type": "Discard", "resource": "SOIL"})
    refused(state, 1, {"type": "Discard", "resource": "WATER"}, "Special Actions")
    _, state = play(state, 0, {"type": "Discard", "resource": "FUEL"})
    assert state["phase"] == "main" and state["hands"][1] == [0, 0, 2, 0, 0] and state["bank"][SOIL] == 25


def test_ending_the_turn_passes_the_dice_to_the_left():
    # Turn Overview: "After each turn, a player passes the dice to the person to his left."
    state = table(3, current=2, phase="main")
    events, state = play(state, 2, {"type": "EndTurn"})
    assert types(events) == ["TurnEnded"] and state["current"] == 0 and state["phase"] == "roll"
    assert L.on_timeout(state, 0) == {"type": "Roll"}
