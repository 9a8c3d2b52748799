"""Kingpin `evolve`: one small handler per event type.

`evolve` never rolls and never mutates its input: it shallow-copies the state
and copies only the containers (and the cards) an event changes.  Each handler
takes `owned` (rules/ruleset.py fold_in_place): True in a fold that has made
the state its own, where it skips those copies and changes the state in place.
The state's shape is described in state.py.
"""
from __future__ import annotations

from typing import Any, Callable

from rules.base import Event
from rules.ruleset import copy_containers as _copy
from rules.ruleset import evolve_by_type


def _card(new: dict, owned: bool, card_id: str) -> dict:
    """A private copy of one card inside `new` (whose "cards" is already copied); in an in-place
    fold (`owned`) the card itself, already private."""
    if owned:
        return new["cards"][card_id]
    card = dict(new["cards"][card_id])
    new["cards"][card_id] = card
    return card


def _gain_card(new: dict, owned: bool, seat: int, kind: str, card_id: str) -> None:
    """Take a card from its stack into seat's empire (Junkies get their Cash on Hand from the bank)."""
    new["stacks"][kind] = [c for c in new["stacks"][kind] if c != card_id]
    card = _card(new, owned, card_id)
    card["owner"] = seat
    card["where"] = "play"
    if card["type"] == "junkie":
        card["cash"] = new["catalog"]["kinds"][kind]["cash_on_hand"]
        new["bank_net"] += card["cash"]
    elif card["type"] == "special":
        card["acquired"] = new["turn"]
        card["exhausted"] = False
        card["target"] = None


def _pay_bank(new: dict, seat: int, amount: int) -> None:
    """Seat pays the bank (new["bankrolls"] must already be copied)."""
    new["bankrolls"][seat] -= amount
    new["bank_net"] -= amount


def _ev_game_started(state: Any, d: dict, owned: bool = False) -> dict:
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
            _gain_card(new, True, seat, cards[cid]["kind"], cid)  # the cards were just made
        new["cards"][start["truck"]]["hits"] = d["truck_hits"]
    return new


def _ev_first_player_rolled(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["first_rolls"] = d["rounds"]
    return new


def _ev_turn_started(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    # item by item: a replay applies one a turn, and update(**kwargs) builds a dict first
    new["current"], new["turn"], new["phase"] = d["seat"], d["turn"], "buy"
    new["bought"], new["dice"], new["used"], new["blocked"] = [], [], [], []
    new["given_up"] = new["pending"] = new["window"] = None
    new["bailed"] = False
    return new


def _ev_card_purchased(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "stacks", "bankrolls", "bought")
    _pay_bank(new, d["seat"], d["price"])
    _gain_card(new, owned, d["seat"], d["kind"], d["card"])
    new["bought"].append(d["kind"])
    return new


def _ev_dice_rolled(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    dice = d["dice"]
    new["phase"], new["dice"], new["used"] = "dice", list(dice), [False] * len(dice)
    return new


def _ev_roll_given_up(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["dice"], new["used"], new["given_up"] = [d["face"]], [False], d["face"]
    return new


def _ev_dice_used(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "used")
    left, wanted, dice, used = d["count"], d["face"], new["dice"], new["used"]
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
    return new


def _ev_shipment_made(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    (new["cards"][d["truck"]] if owned else _card(new, owned, d["truck"]))["hits"] = d["hits"]
    return new


def _ev_shipment_blocked(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "blocked")
    new["blocked"].append(d["regulator"])
    return new


def _ev_distribution_started(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    (new["cards"][d["truck"]] if owned else _card(new, owned, d["truck"]))["hits"] = 0
    new["pending"] = {"kind": "distribute", "truck": d["truck"], "hits": d["hits"]}
    return new


def _ev_hits_placed(state: dict, d: dict, owned: bool = False) -> dict:
    if owned:  # the pending distribution is the fold's own too (DistributionStarted made it)
        state["cards"][d["dealer"]]["hits"] += d["hits"]
        state["pending"]["hits"] -= d["hits"]
        return state
    new = _copy(state, "cards")
    _card(new, owned, d["dealer"])["hits"] += d["hits"]
    new["pending"] = dict(new["pending"], hits=new["pending"]["hits"] - d["hits"])
    return new


def _ev_distribution_finished(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["pending"] = None
    return new


def _ev_sale_started(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["pending"] = {"kind": "sale", "face": d["face"], "junkie": d["junkie"], "dealer": d["dealer"]}
    return new


def _ev_hits_sold(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "bankrolls")
    if owned:
        cards = new["cards"]
        cards[d["dealer"]]["hits"] -= d["hits"]
        cards[d["junkie"]]["cash"] -= d["cash"]
    else:
        _card(new, owned, d["dealer"])["hits"] -= d["hits"]
        _card(new, owned, d["junkie"])["cash"] -= d["cash"]
    new["bankrolls"][d["seat"]] += d["cash"]
    new["pending"] = None
    return new


def _ev_noop(state: dict, d: dict, owned: bool = False) -> dict:
    return state


def _ev_sale_abandoned(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["pending"] = None
    return new


def _remove_card(new: dict, owned: bool, card_id: str) -> None:
    """A card leaves the game: its cash to the bank, its hits discarded, a Regulator's target cleared."""
    card = _card(new, owned, card_id)
    if card["type"] == "junkie":
        new["bank_net"] -= card["cash"]
        card["cash"] = 0
    if card["type"] in ("truck", "dealer"):
        card["hits"] = 0
    if card["type"] == "special":
        card["target"] = None
    card["where"] = "removed"
    new["removed"] = new["removed"] + [card_id]


def _ev_junkie_died(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    _remove_card(new, owned, d["junkie"])
    return new


def _ev_payday_collected(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    cards, paid = new["cards"], 0
    for junkie, amount in d["payouts"]:
        (cards[junkie] if owned else _card(new, owned, junkie))["cash"] += amount
        paid += amount
    new["bank_net"] += paid
    return new


def _ev_card_chloroformed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "bankrolls")
    _pay_bank(new, d["seat"], d["cost"])
    _card(new, owned, d["card"])["exhausted"] = True
    return new


def _ev_card_activated(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    (new["cards"][d["card"]] if owned else _card(new, owned, d["card"]))["exhausted"] = False
    return new


def _ev_double_cashed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "bankrolls")
    new["bankrolls"][d["seat"]] += d["amount"]
    new["bank_net"] += d["amount"]
    return new


def _ev_free_card_taken(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "stacks")
    _gain_card(new, owned, d["seat"], d["kind"], d["card"])
    return new


def _ev_cop_used(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "bankrolls")
    _pay_bank(new, d["seat"], d["cost"])
    _card(new, owned, d["cop"])["exhausted"] = True
    new["phase"] = "specials"
    new["window"] = {"kind": "cop", "attacker": d["seat"], "responder": d["owner"], "card": d["target"],
                     "cop": d["cop"], "bribe": d["bribe"]}
    return new


def _transfer(new: dict, payer: int, payee: int, amount: int) -> None:
    """Move money between bankrolls (new["bankrolls"] must already be copied)."""
    new["bankrolls"][payer] -= amount
    new["bankrolls"][payee] += amount


def _ev_cop_bribed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "bankrolls")
    _transfer(new, d["seat"], d["to"], d["amount"])
    new["window"] = None
    return new


def _ev_card_jailed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    card = _card(new, owned, d["card"])
    if card["type"] == "junkie":
        new["bank_net"] -= card["cash"]
        card["cash"] = 0
    if card["type"] == "special":
        card["target"] = None
    card["where"] = "jail"
    new["window"] = None
    return new


def _ev_immunity_used(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    _card(new, owned, d["card"])["exhausted"] = True
    window = new["window"]
    if window and window["kind"] == "regulator":
        _card(new, owned, window["regulator"])["target"] = None
    new["window"] = None
    return new


def _ev_hit_man_used(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    _card(new, owned, d["hitman"])["exhausted"] = True
    new["phase"] = "specials"
    new["window"] = {"kind": "hitman", "attacker": d["seat"], "responder": d["owner"], "card": d["target"],
                     "hitman": d["hitman"], "bounty": d["bounty"]}
    return new


def _ev_bounty_doubled(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["window"] = dict(state["window"], attacker=d["seat"], responder=d["owner"], card=d["target"],
                         bounty=d["bounty"])
    return new


def _ev_card_eliminated(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "bankrolls")
    _pay_bank(new, d["paid_by"], d["bounty"])
    _remove_card(new, owned, d["card"])
    new["window"] = None
    return new


def _ev_regulator_placed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards")
    _card(new, owned, d["regulator"])["target"] = d["target"]
    new["phase"] = "specials"
    new["window"] = {"kind": "regulator", "attacker": d["seat"], "responder": d["target"],
                     "regulator": d["regulator"], "bribe": d["bribe"]}
    return new


def _ev_regulator_accepted(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["window"] = None
    return new


def _ev_regulator_bribed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "bankrolls")
    _transfer(new, d["seat"], d["to"], d["amount"])
    card = _card(new, owned, d["regulator"])
    card["exhausted"] = True
    card["target"] = None
    if new["window"] and new["window"]["kind"] == "regulator":
        new["window"] = None
    return new


def _ev_card_bailed(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else _copy(state, "cards", "bankrolls")
    _pay_bank(new, d["seat"], d["price"])
    _card(new, owned, d["card"])["where"] = "play"
    new["phase"] = "bail"
    new["bailed"] = True
    return new


def _ev_turn_ended(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new["pending"] = new["window"] = None
    return new


def _ev_game_ended(state: dict, d: dict, owned: bool = False) -> dict:
    new = state if owned else dict(state)
    new.update(phase="over", pending=None, window=None,
               result={"winners": list(d["winners"]), "reason": d["reason"], "bankrolls": list(d["bankrolls"])})
    return new


EVOLVERS: dict[str, Callable[[Any, dict], dict]] = {
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
