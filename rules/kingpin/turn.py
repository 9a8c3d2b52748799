"""Initial Setup, On Your Turn steps 1, 2, 5 and 6, and Winning the Game."""
from __future__ import annotations

import copy

from rules.base import BadCommand, Event, IllegalMove, Rng
from rules.blocks import turns
from rules.kingpin.guards import (
    FACE_RULE,
    describe,
    money,
    require_active_player,
    require_funds,
    require_no_pending,
    require_phase,
)
from rules.kingpin.state import dice_pool, must_place_hits, owned

# ----------------------------------------------------------------------------
# Initial Setup
# ----------------------------------------------------------------------------


def first_player_rounds(seats: int, rng: Rng) -> tuple[list[dict], int]:
    """"Roll a die; highest roll will go first" — ties re-roll among the tied players."""
    contenders = list(range(seats))
    rounds = []
    while True:
        dice = rng.roll(len(contenders))
        rounds.append({"seats": contenders, "dice": dice})
        best = max(dice)
        contenders = [s for s, d in zip(contenders, dice) if d == best]
        if len(contenders) == 1:
            return rounds, contenders[0]


def setup_events(catalog: dict, options: dict, seats: int, rng: Rng) -> list[Event]:
    """GameStarted (starting cards, bankrolls), FirstPlayerRolled, the first TurnStarted."""
    start = catalog["starting"]
    kinds = catalog["kinds"]
    starting = [{"truck": kinds[start["truck"]]["ids"][s], "dealer": kinds[start["dealer"]]["ids"][s],
                 "junkie": kinds[start["junkie"]]["ids"][s]} for s in range(seats)]
    rounds, first = first_player_rounds(seats, rng)
    return [
        Event("GameStarted", {"catalog": copy.deepcopy(catalog), "options": options, "seats": seats,
                              "bankroll": start["bankroll_per_player"] * seats, "starting": starting,
                              "truck_hits": start["truck_hits"]}),
        Event("FirstPlayerRolled", {"rounds": rounds, "seat": first}),
        Event("TurnStarted", {"seat": first, "turn": 1}),
    ]


# ----------------------------------------------------------------------------
# Step 1: Purchase Cards; step 2: roll
# ----------------------------------------------------------------------------

RULE_PURCHASE = "Purchase Cards"


def purchasable(state: dict, seat: int) -> list[str]:
    """Kinds seat may buy now: in stock, not bought this turn, affordable."""
    kinds = state["catalog"]["kinds"]
    return [k for k in state["catalog"]["order"]
            if state["stacks"][k] and k not in state["bought"] and kinds[k]["price"] <= state["bankrolls"][seat]]


def decide_purchase(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PurchaseCard{kind}: before rolling; no two identical cards a turn; not from an exhausted stack."""
    require_active_player(state, seat, RULE_PURCHASE)
    if state["phase"] != "buy":
        raise IllegalMove("you already rolled; cards must be purchased before rolling", rule=RULE_PURCHASE)
    kinds = state["catalog"]["kinds"]
    kind = cmd["kind"]
    if kind not in kinds:
        raise IllegalMove(f"there is no card kind {kind!r}; kinds: {', '.join(state['catalog']['order'])}",
                          rule=RULE_PURCHASE)
    entry = kinds[kind]
    if not state["stacks"][kind]:
        raise IllegalMove(f"the {entry['name']} stack has run out", rule=RULE_PURCHASE)
    if kind in state["bought"]:
        raise IllegalMove(f"you already bought a {entry['name']} this turn; you may not purchase two "
                          f"identical cards on a turn", rule=RULE_PURCHASE)
    require_funds(state, seat, entry["price"], f"a {entry['name']}", RULE_PURCHASE)
    return [Event("CardPurchased", {"seat": seat, "kind": kind, "card": state["stacks"][kind][0],
                                    "price": entry["price"]})]


def decide_roll(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """RollDice: one die per Basic Card plus per active Special Card in play."""
    require_active_player(state, seat, "Roll Outcomes")
    if state["phase"] != "buy":
        raise IllegalMove("you already rolled this turn", rule="On Your Turn")
    return [Event("DiceRolled", {"seat": seat, "dice": rng.roll(dice_pool(state, seat))})]


def decide_give_up(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """GiveUpRoll{face}: "use a roll you did not get as a single action", giving up the whole roll."""
    rule = "Roll Outcomes"
    require_active_player(state, seat, rule)
    require_phase(state, ("dice",), "giving up your roll", rule)
    require_no_pending(state)
    face = cmd["face"]
    if face not in range(1, 7):
        raise IllegalMove(f"a die has faces 1 to 6, not {face}", rule=rule)
    if state["given_up"] is not None:
        raise IllegalMove("you already gave up your roll this turn", rule=rule)
    if any(state["used"]):
        raise IllegalMove("you already used part of your roll; giving it up must come first", rule=rule)
    if face in state["dice"]:
        raise IllegalMove(f"you rolled a {face}; only a roll you did not get can replace the whole roll",
                          rule=rule)
    return [Event("RollGivenUp", {"seat": seat, "face": face})]


# ----------------------------------------------------------------------------
# Step 5: Jail (bail); step 6: end of turn
# ----------------------------------------------------------------------------

RULE_JAIL = "Jail"


def bail_price(state: dict, card_id: str) -> int:
    """Junkie: its Payday; Dealer: $100 x circle; Special Card: $1000."""
    entry = state["catalog"]["kinds"][state["cards"][card_id]["kind"]]
    costs = state["catalog"]["costs"]
    if entry["type"] == "junkie":
        return entry["payday"]
    if entry["type"] == "dealer":
        return costs["bail_per_dealer_circle"] * entry["size"]
    return costs["bail_special"]


def decide_bail(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Bail{card}: step 5, one card a turn; the turn then passes to the left."""
    require_active_player(state, seat, RULE_JAIL)
    require_phase(state, ("dice", "specials"), "bailing a card out", RULE_JAIL)
    require_no_pending(state)
    card_id = cmd["card"]
    card = state["cards"].get(card_id)
    if card is None:
        raise IllegalMove(f"there is no card {card_id!r}", rule=RULE_JAIL)
    if card["owner"] != seat or card["where"] != "jail":
        raise IllegalMove(f"{describe(state, card_id)} is not one of your cards in Jail", rule=RULE_JAIL)
    price = bail_price(state, card_id)
    require_funds(state, seat, price, f"bailing out {describe(state, card_id)}", RULE_JAIL)
    return [Event("CardBailed", {"seat": seat, "card": card_id, "price": price})] + end_turn_events(state, seat)


def decide_end_turn(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """EndTurn: play moves to the player on your left (a pending sale or Distribute is closed first)."""
    require_active_player(state, seat)
    if state["phase"] == "buy":
        raise IllegalMove("roll the dice first (step 2 of On Your Turn)", rule="On Your Turn")
    events = []
    pending = state["pending"]
    if must_place_hits(state):
        raise IllegalMove(f"place the {pending['hits']} distributed Hit(s) first: your Dealers still have room "
                          f"(\"discard the extra\" only)", rule=FACE_RULE)
    if pending and pending["kind"] == "distribute":
        events.append(Event("DistributionFinished", {"seat": seat, "discarded": pending["hits"]}))
    elif pending and pending["kind"] == "sale":
        events.append(Event("SaleAbandoned", {"seat": seat, "junkie": pending["junkie"],
                                              "dealer": pending["dealer"]}))
    return events + end_turn_events(state, seat)


def end_turn_events(state: dict, seat: int) -> list[Event]:
    """TurnEnded, then the next TurnStarted, or GameEnded when the turn limit is reached."""
    events = [Event("TurnEnded", {"seat": seat, "turn": state["turn"]})]
    limit = state["options"].get("turn_limit", 0)
    if limit and state["turn"] >= limit * state["seats"]:
        events.append(game_ended(state["bankrolls"], "most money when the turn limit "
                                 f"({limit} rounds) was reached"))
    else:
        events.append(Event("TurnStarted", {"seat": turns.next_seat(state["seats"], seat), "turn": state["turn"] + 1}))
    return events


def game_ended(bankrolls: list[int], reason: str) -> Event:
    """GameEnded naming every seat with the most money."""
    best = max(bankrolls)
    return Event("GameEnded", {"winners": [s for s, b in enumerate(bankrolls) if b == best],
                               "reason": reason, "bankrolls": list(bankrolls)})


def win_event(state: dict) -> Event | None:
    """"Be the first Kingpin to bankroll $5,000": checked after every command."""
    if state["phase"] == "over":
        return None
    target = state["options"]["target"]
    if max(state["bankrolls"]) >= target:
        return game_ended(state["bankrolls"], f"bankroll reached {money(target)}")
    return None


# ----------------------------------------------------------------------------
# Legal moves for these steps
# ----------------------------------------------------------------------------

def moves(state: dict, seat: int) -> list[dict]:
    """PurchaseCard, RollDice, GiveUpRoll, Bail, EndTurn available to the active seat."""
    phase = state["phase"]
    out: list[dict] = []
    if phase == "buy":
        out += [{"type": "PurchaseCard", "kind": k} for k in purchasable(state, seat)]
        out.append({"type": "RollDice"})
        return out
    if state["pending"] is None:
        if phase == "dice" and state["given_up"] is None and not any(state["used"]):
            out += [{"type": "GiveUpRoll", "face": f} for f in range(1, 7) if f not in state["dice"]]
        if phase in ("dice", "specials") and not state["bailed"]:
            out += [{"type": "Bail", "card": c} for c in owned(state, seat, where="jail")
                    if bail_price(state, c) <= state["bankrolls"][seat]]
    if not must_place_hits(state):
        out.append({"type": "EndTurn"})
    return out


HANDLERS = {
    "PurchaseCard": decide_purchase,
    "RollDice": decide_roll,
    "GiveUpRoll": decide_give_up,
    "Bail": decide_bail,
    "EndTurn": decide_end_turn,
}

__all__ = ["HANDLERS", "moves", "setup_events", "win_event", "bail_price", "BadCommand"]
