"""Turn Overview, Resources (production) and Special Actions (a roll of 7 and the Sheriff)."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.blocks.turns import next_seat
from rules.lords_of_cannabis import guards
from rules.lords_of_cannabis.board import BRICK_NODES, BRICK_RESOURCE, BRICKS, RESOURCES
from rules.lords_of_cannabis.guards import SPECIAL, TURN
from rules.lords_of_cannabis.state import seats_around

RESOURCES_RULE = "Resources"


def production(state: dict, total: int) -> list[list[int]]:
    """Stash cards each seat receives for a roll: 1 per Greenhouse, 2 per Plantation bordering a brick
    with that number, none from the Sheriff's brick; a resource the bank cannot pay in full goes to
    nobody, unless only one player is owed it (then they get what is left)."""
    seats, sites, chips, sheriff = state["seats"], state["sites"], state["chips"], state["sheriff"]
    owed = [[0] * 5 for _ in range(seats)]
    for b in range(BRICKS):
        if chips[b] != total or b == sheriff:
            continue
        r = BRICK_RESOURCE[b]
        for n in BRICK_NODES[b]:
            site = sites[n]
            if site is not None:
                owed[site[0]][r] += site[1]
    bank = state["bank"]
    for r in range(5):
        claimants = [s for s in range(seats) if owed[s][r]]
        if sum(owed[s][r] for s in claimants) > bank[r]:
            for s in claimants:
                owed[s][r] = bank[r] if len(claimants) == 1 else 0
    return owed


def decide_roll(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "The sum of the two numbers that are rolled on the dice represents the Stash Cards ..." """
    guards.phase(state, ("roll",), "rolling", TURN)
    guards.my_turn(state, seat)
    guards.no_open_offers(state)
    dice = rng.roll(2)
    total = sum(dice)
    gains = None if total == 7 else production(state, total)
    return [Event("DiceRolled", {"seat": seat, "dice": dice, "gains": gains})]


def must_discard(state: dict, brick: int) -> list[int]:
    """Players built around a brick who hold a Stash card to discard."""
    return [s for s in seats_around(state, BRICK_NODES[brick]) if sum(state["hands"][s])]


def sheriff_bricks(state: dict) -> list[int]:
    """Bricks the Sheriff may be sent to: any but the one he is on."""
    return [b for b in range(BRICKS) if b != state["sheriff"]]


def check_new_brick(state: dict, value, rule: str) -> int:
    b = guards.brick(value, rule)
    if b == state["sheriff"]:
        raise IllegalMove("the Sheriff must move to a brick he is not already on", rule=rule)
    return b


def decide_move_sheriff(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "The roller of the die must now move the Sheriff to a new resource ... Any player who is built
    around the selected space must discard one of his or her Stash Cards." """
    guards.phase(state, ("sheriff",), "moving the Sheriff", SPECIAL)
    guards.my_turn(state, seat, SPECIAL)
    b = check_new_brick(state, command["brick"], SPECIAL)
    return [Event("SheriffMoved", {"seat": seat, "brick": b, "discard": must_discard(state, b)})]


def decide_discard(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """The busted player chooses which Stash card to discard."""
    guards.phase(state, ("discard",), "discarding", SPECIAL)
    r = guards.resource(command["resource"], SPECIAL)
    if seat not in state["discarding"]:
        raise IllegalMove("you have nothing to discard now", rule=SPECIAL)
    if not state["hands"][seat][r]:
        raise IllegalMove(f"you hold no {RESOURCES[r]}", rule=SPECIAL)
    return [Event("StashDiscarded", {"seat": seat, "resource": RESOURCES[r]})]


def decide_end_turn(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "After each turn, a player passes the dice to the person to his left." """
    guards.my_action(state, seat, "ending the turn (roll first)", TURN, after_roll=True)
    return [Event("TurnEnded", {"seat": seat, "next": next_seat(state["seats"], seat)})]
