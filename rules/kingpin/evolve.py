"""Kingpin `evolve`: one small function per event type, (state, data, own) -> state.

Each changes the state it is given and returns it; the cards, stacks and bankrolls inside it it changes
through `own` (rules/folding.py: the base copies on write for `evolve`, and folds a long history in
place).  It never rolls.  The state's shape is described in state.py.
"""
from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.folding import IN_PLACE, Evolver, Own, evolve_by_type


def _gain_card(state: dict, own: Own, seat: int, kind: str, card_id: str) -> None:
    """Take a card from its stack into seat's empire (Junkies get their Cash on Hand from the bank)."""
    stacks = own(state, "stacks")
    stacks[kind] = [c for c in stacks[kind] if c != card_id]
    card = own(own(state, "cards"), card_id)
    card["owner"] = seat
    card["where"] = "play"
    if card["type"] == "junkie":
        card["cash"] = state["catalog"]["kinds"][kind]["cash_on_hand"]
        state["bank_net"] += card["cash"]
    elif card["type"] == "special":
        card["acquired"] = state["turn"]
        card["exhausted"] = False
        card["target"] = None


def _pay_bank(state: dict, own: Own, seat: int, amount: int) -> None:
    """Seat pays the bank."""
    own(state, "bankrolls")[seat] -= amount
    state["bank_net"] -= amount


def _transfer(state: dict, own: Own, payer: int, payee: int, amount: int) -> None:
    """Move money between bankrolls."""
    bankrolls = own(state, "bankrolls")
    bankrolls[payer] -= amount
    bankrolls[payee] += amount


def _ev_game_started(state: Any, d: dict, own: Own) -> dict:
    catalog = d["catalog"]
    cards: dict[str, dict] = {}
    stacks: dict[str, list] = {}
    for kind in catalog["order"]:
        entry = catalog["kinds"][kind]
        stacks[kind] = list(entry["ids"])
        for cid in entry["ids"]:
            card = {"id": cid, "kind": kind, "type": entry["type"], "owner": None, "where": "stack"}
            if entry["type"] in ("truck", "dealer"):
                card["hits"] = 0
            elif entry["type"] == "junkie":
                card["cash"] = 0
            else:
                card.update(special=entry["special"], exhausted=False, target=None, acquired=0)
            cards[cid] = card
    n = d["seats"]
    new = {
        "catalog": catalog, "options": dict(d["options"]), "seats": n,
        "bankrolls": [d["bankroll"]] * n, "bank_net": d["bankroll"] * n,
        "cards": cards, "stacks": stacks, "removed": [],
        "turn": 0, "current": None, "phase": "setup", "first_rolls": [],
        "bought": [], "dice": [], "used": [], "given_up": None,
        "pending": None, "window": None, "blocked": [], "bailed": False, "result": None,
    }
    for seat, start in enumerate(d["starting"]):
        for cid in (start["truck"], start["dealer"], start["junkie"]):
            _gain_card(new, IN_PLACE, seat, cards[cid]["kind"], cid)  # the cards were just made
        new["cards"][start["truck"]]["hits"] = d["truck_hits"]
    return new


def _ev_first_player_rolled(state: dict, d: dict, own: Own) -> dict:
    state["first_rolls"] = d["rounds"]  # never changed after: the event's own list is kept
    return state


def _ev_turn_started(state: dict, d: dict, own: Own) -> dict:
    # item by item: a replay applies one a turn, and update(**kwargs) builds a dict first
    state["current"], state["turn"], state["phase"] = d["seat"], d["turn"], "buy"
    state["bought"], state["dice"], state["used"], state["blocked"] = [], [], [], []
    state["given_up"] = state["pending"] = state["window"] = None
    state["bailed"] = False
    return state


def _ev_card_purchased(state: dict, d: dict, own: Own) -> dict:
    _pay_bank(state, own, d["seat"], d["price"])
    _gain_card(state, own, d["seat"], d["kind"], d["card"])
    own(state, "bought").append(d["kind"])
    return state


def _ev_dice_rolled(state: dict, d: dict, own: Own) -> dict:
    dice = d["dice"]
    state["phase"], state["dice"], state["used"] = "dice", list(dice), [False] * len(dice)
    return state


def _ev_roll_given_up(state: dict, d: dict, own: Own) -> dict:
    state["dice"], state["used"], state["given_up"] = [d["face"]], [False], d["face"]
    return state


def _ev_dice_used(state: dict, d: dict, own: Own) -> dict:
    left, wanted, dice, used = d["count"], d["face"], state["dice"], own(state, "used")
    i = 0
    while left:  # the first `count` unused dice showing the face, in order (list.index: a search in C)
        try:
            i = dice.index(wanted, i)
        except ValueError:
            break
        if not used[i]:
            used[i] = True
            left -= 1
        i += 1
    return state


def _ev_shipment_made(state: dict, d: dict, own: Own) -> dict:
    own(own(state, "cards"), d["truck"])["hits"] = d["hits"]
    return state


def _ev_shipment_blocked(state: dict, d: dict, own: Own) -> dict:
    own(state, "blocked").append(d["regulator"])
    return state


def _ev_distribution_started(state: dict, d: dict, own: Own) -> dict:
    own(own(state, "cards"), d["truck"])["hits"] = 0
    state["pending"] = {"kind": "distribute", "truck": d["truck"], "hits": d["hits"]}
    return state


def _ev_hits_placed(state: dict, d: dict, own: Own) -> dict:
    own(own(state, "cards"), d["dealer"])["hits"] += d["hits"]
    own(state, "pending")["hits"] -= d["hits"]
    return state


def _ev_distribution_finished(state: dict, d: dict, own: Own) -> dict:
    state["pending"] = None
    return state


def _ev_sale_started(state: dict, d: dict, own: Own) -> dict:
    state["pending"] = {"kind": "sale", "face": d["face"], "junkie": d["junkie"], "dealer": d["dealer"]}
    return state


def _ev_hits_sold(state: dict, d: dict, own: Own) -> dict:
    cards = own(state, "cards")
    own(cards, d["dealer"])["hits"] -= d["hits"]
    own(cards, d["junkie"])["cash"] -= d["cash"]
    own(state, "bankrolls")[d["seat"]] += d["cash"]
    state["pending"] = None
    return state


def _ev_noop(state: dict, d: dict, own: Own) -> dict:
    return state


def _ev_sale_abandoned(state: dict, d: dict, own: Own) -> dict:
    state["pending"] = None
    return state


def _remove_card(state: dict, own: Own, card_id: str) -> None:
    """A card leaves the game: its cash to the bank, its hits discarded, a Regulator's target cleared."""
    card = own(own(state, "cards"), card_id)
    if card["type"] == "junkie":
        state["bank_net"] -= card["cash"]
        card["cash"] = 0
    if card["type"] in ("truck", "dealer"):
        card["hits"] = 0
    if card["type"] == "special":
        card["target"] = None
    card["where"] = "removed"
    own(state, "removed").append(card_id)


def _ev_junkie_died(state: dict, d: dict, own: Own) -> dict:
    _remove_card(state, own, d["junkie"])
    return state


def _ev_payday_collected(state: dict, d: dict, own: Own) -> dict:
    cards, paid = own(state, "cards"), 0
    for junkie, amount in d["payouts"]:
        own(cards, junkie)["cash"] += amount
        paid += amount
    state["bank_net"] += paid
    return state


def _ev_card_chloroformed(state: dict, d: dict, own: Own) -> dict:
    _pay_bank(state, own, d["seat"], d["cost"])
    own(own(state, "cards"), d["card"])["exhausted"] = True
    return state


def _ev_card_activated(state: dict, d: dict, own: Own) -> dict:
    own(own(state, "cards"), d["card"])["exhausted"] = False
    return state


def _ev_double_cashed(state: dict, d: dict, own: Own) -> dict:
    own(state, "bankrolls")[d["seat"]] += d["amount"]
    state["bank_net"] += d["amount"]
    return state


def _ev_free_card_taken(state: dict, d: dict, own: Own) -> dict:
    _gain_card(state, own, d["seat"], d["kind"], d["card"])
    return state


def _special_played(state: dict, d: dict, own: Own, kind: str, answer: str) -> dict:
    """A Cop or a Hit Man is used on a card: exhausted, and a window opens for the card's owner (`answer`:
    the bribe or the bounty it is offered)."""
    own(own(state, "cards"), d[kind])["exhausted"] = True
    state["phase"] = "specials"
    state["window"] = {"kind": kind, "attacker": d["seat"], "responder": d["owner"], "card": d["target"],
                       kind: d[kind], answer: d[answer]}
    return state


def _ev_cop_used(state: dict, d: dict, own: Own) -> dict:
    _pay_bank(state, own, d["seat"], d["cost"])
    return _special_played(state, d, own, "cop", "bribe")


def _ev_cop_bribed(state: dict, d: dict, own: Own) -> dict:
    _transfer(state, own, d["seat"], d["to"], d["amount"])
    state["window"] = None
    return state


def _ev_card_jailed(state: dict, d: dict, own: Own) -> dict:
    card = own(own(state, "cards"), d["card"])
    if card["type"] == "junkie":
        state["bank_net"] -= card["cash"]
        card["cash"] = 0
    if card["type"] == "special":
        card["target"] = None
    card["where"] = "jail"
    state["window"] = None
    return state


def _ev_immunity_used(state: dict, d: dict, own: Own) -> dict:
    cards = own(state, "cards")
    own(cards, d["card"])["exhausted"] = True
    window = state["window"]
    if window and window["kind"] == "regulator":
        own(cards, window["regulator"])["target"] = None
    state["window"] = None
    return state


def _ev_hit_man_used(state: dict, d: dict, own: Own) -> dict:
    return _special_played(state, d, own, "hitman", "bounty")


def _ev_bounty_doubled(state: dict, d: dict, own: Own) -> dict:
    state["window"] = dict(state["window"], attacker=d["seat"], responder=d["owner"], card=d["target"],
                           bounty=d["bounty"])
    return state


def _ev_card_eliminated(state: dict, d: dict, own: Own) -> dict:
    _pay_bank(state, own, d["paid_by"], d["bounty"])
    _remove_card(state, own, d["card"])
    state["window"] = None
    return state


def _ev_regulator_placed(state: dict, d: dict, own: Own) -> dict:
    own(own(state, "cards"), d["regulator"])["target"] = d["target"]
    state["phase"] = "specials"
    state["window"] = {"kind": "regulator", "attacker": d["seat"], "responder": d["target"],
                       "regulator": d["regulator"], "bribe": d["bribe"]}
    return state


def _ev_regulator_accepted(state: dict, d: dict, own: Own) -> dict:
    state["window"] = None
    return state


def _ev_regulator_bribed(state: dict, d: dict, own: Own) -> dict:
    _transfer(state, own, d["seat"], d["to"], d["amount"])
    card = own(own(state, "cards"), d["regulator"])
    card["exhausted"] = True
    card["target"] = None
    if state["window"] and state["window"]["kind"] == "regulator":
        state["window"] = None
    return state


def _ev_card_bailed(state: dict, d: dict, own: Own) -> dict:
    _pay_bank(state, own, d["seat"], d["price"])
    own(own(state, "cards"), d["card"])["where"] = "play"
    state["phase"] = "bail"
    state["bailed"] = True
    return state


def _ev_turn_ended(state: dict, d: dict, own: Own) -> dict:
    state["pending"] = state["window"] = None
    return state


def _ev_game_ended(state: dict, d: dict, own: Own) -> dict:
    state.update(phase="over", pending=None, window=None,
                 result={"winners": list(d["winners"]), "reason": d["reason"], "bankrolls": list(d["bankrolls"])})
    return state


EVOLVERS: dict[str, Evolver] = {
    "GameStarted": _ev_game_started,
    "FirstPlayerRolled": _ev_first_player_rolled,
    "TurnStarted": _ev_turn_started,
    "CardPurchased": _ev_card_purchased,
    "DiceRolled": _ev_dice_rolled,
    "RollGivenUp": _ev_roll_given_up,
    "DiceUsed": _ev_dice_used,
    "ShipmentMade": _ev_shipment_made,
    "ShipmentBlocked": _ev_shipment_blocked,
    "DistributionStarted": _ev_distribution_started,
    "HitsPlaced": _ev_hits_placed,
    "DistributionFinished": _ev_distribution_finished,
    "SaleStarted": _ev_sale_started,
    "HitsSold": _ev_hits_sold,
    "SaleAbandoned": _ev_sale_abandoned,
    "ODRolled": _ev_noop,
    "JunkieDied": _ev_junkie_died,
    "PaydayCollected": _ev_payday_collected,
    "CardChloroformed": _ev_card_chloroformed,
    "CardActivated": _ev_card_activated,
    "DoubleCashed": _ev_double_cashed,
    "FreeCardTaken": _ev_free_card_taken,
    "CopUsed": _ev_cop_used,
    "CopBribed": _ev_cop_bribed,
    "CardJailed": _ev_card_jailed,
    "ImmunityUsed": _ev_immunity_used,
    "HitManUsed": _ev_hit_man_used,
    "BountyDoubled": _ev_bounty_doubled,
    "CardEliminated": _ev_card_eliminated,
    "RegulatorPlaced": _ev_regulator_placed,
    "RegulatorAccepted": _ev_regulator_accepted,
    "RegulatorBribed": _ev_regulator_bribed,
    "CardBailed": _ev_card_bailed,
    "TurnEnded": _ev_turn_ended,
    "GameEnded": _ev_game_ended,
}


def evolve(state: dict | None, event: Event) -> dict:
    """Apply one event; returns a new state and leaves `state` untouched."""
    return evolve_by_type(EVOLVERS, "Kingpin", state, event)
