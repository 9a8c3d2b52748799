"""Trafficking `evolve`: one small function per event; never rolls, never mutates its input."""
from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.blocks import offers
from rules.ruleset import copy_containers, evolve_by_type, rules_version
from rules.trafficking import lending
from rules.trafficking.data import CARDS, deck
from rules.trafficking.state import START_CASH


def _with_player(state: dict, seat: int, **changes: Any) -> dict:
    new = copy_containers(state, "players")
    new["players"][seat] = {**state["players"][seat], **changes}
    return new


def _with_turn(state: dict, **changes: Any) -> dict:
    return {**state, "turn": {**state["turn"], **changes}} if state["turn"] else state


def _p(state: dict, seat: int) -> dict:
    return state["players"][seat]


def _is_turn(state: dict, seat: int) -> bool:
    return state["turn"] is not None and state["turn"]["seat"] == seat


def started(state: None, d: dict) -> dict:
    players = [{"role": "narc" if s == d["narc"] else "dealer", "dealer": None, "square": None,
                "lids": d["lids"][s], "cash": 0 if s == d["narc"] else START_CASH, "offenses": 0, "sold": 0,
                "out": None, "pass": False, "miss": False, "kept": [], "bet": None} for s in range(d["seats"])]
    decks = {name: [deck(name)[i] for i in order] for name, order in d["secret"]["decks"].items()}
    return {"seats": d["seats"], "phase": "characters", "narc": d["narc"], "order": list(d["order"]),
            "choosers": list(d["choosers"]), "chooser": 0, "players": players,
            "decks": decks, "passes": d["passes"], "turn": None, "customs": None,
            "offers": offers.empty(), "last": None, "result": None,
            **({"lending": True, "loans": {}} if d.get("lending") else {})}   # version 2's option (17b)


def dealer_chosen(state: dict, d: dict) -> dict:
    new = _with_player(state, d["seat"], dealer=d["dealer"], square=d["square"])
    new["chooser"] = state["chooser"] + 1
    if new["chooser"] >= len(state["choosers"]):
        new["phase"] = "place_narc"
    return new


def narc_placed(state: dict, d: dict) -> dict:
    new = _with_player(state, state["narc"], square=d["square"])
    return {**new, "phase": "play"}


def turn_started(state: dict, d: dict) -> dict:
    return {**state, "turn": {"seat": d["seat"], "stage": "roll", "die": None, "choices": {}, "how": None,
                              "again": False, "transaction": False, "offered": [], "picked": False, "bought": False,
                              "gambled": False, "sell_die": None}}


def turn_missed(state: dict, d: dict) -> dict:
    return _with_turn(_with_player(state, d["seat"], miss=False), stage="done")


def passed(state: dict, d: dict) -> dict:
    return _with_turn(state, stage="done")


def turn_ended(state: dict, d: dict) -> dict:
    return {**state, "turn": None, "last": d["seat"]}


def move_rolled(state: dict, d: dict) -> dict:
    return _with_turn(state, die=d["die"], choices={k: list(v) for k, v in d["destinations"].items()},
                      stage="move")


def bet_settled(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    return _with_player(state, d["seat"], cash=p["cash"] + d["payout"], bet=None)


def moved(state: dict, d: dict) -> dict:
    new = _with_player(state, d["seat"], square=d["to"])
    if _is_turn(state, d["seat"]):
        stage = "done" if d["seat"] == state["narc"] else "landed"
        new = _with_turn(new, stage=stage, how=d["how"], transaction=False, offered=[], picked=False,
                         bought=False, gambled=False, choices={})
    return new


def busted(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    if d["out"]:
        new = _with_player(state, d["seat"], lids=0, cash=0, offenses=d["offense"], out="busted", square=None,
                           bet=None, kept=[])
        new = lending.written_off(_return_pass(_return_cards(new, p["kept"]), d["seat"], p), d["seat"])
    else:
        new = _with_player(state, d["seat"], lids=0, cash=p["cash"] - d["fee"], offenses=d["offense"], square=d["to"])
    return _with_turn(new, stage="done", again=False) if _is_turn(state, d["seat"]) else new


def bankrupt(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    new = _with_player(state, d["seat"], lids=0, cash=0, out="bankrupt", square=None, bet=None, kept=[])
    new = lending.written_off(_return_pass(_return_cards(new, p["kept"]), d["seat"], p), d["seat"])
    return _with_turn(new, stage="done", again=False) if _is_turn(state, d["seat"]) else new


def _return_pass(state: dict, seat: int, was: dict) -> dict:
    """8b, 11b: a Dealer out of the game "turns over all of his possessions": from version 2 his THC
    Transit Pass goes back to the bank (version 1 left it with him)."""
    if not was["pass"] or rules_version(state) < 2:
        return state
    return {**_with_player(state, seat, **{"pass": False}), "passes": state["passes"] + 1}


def _return_cards(state: dict, cards: list) -> dict:
    """Kept cards go back to the bottom of their stacks (a player out of the game, or a card used)."""
    if not cards:
        return state
    decks = {k: list(v) for k, v in state["decks"].items()}
    for card in cards:
        decks["sour_grapes" if card.startswith("SG") else "flip_out"].append(card)
    return {**state, "decks": decks}


def _shown(state: dict, card: str) -> dict:
    """The card last shown face up from its stack: everyone saw it go under the stack (the view's `shown`)."""
    return {**state, "shown": {**state.get("shown", {}), "sour_grapes" if card.startswith("SG") else "flip_out": card}}


def card_used(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    new = _with_player(state, d["seat"], kept=[c for c in p["kept"] if c != d["card"]])
    return _shown(_return_cards(new, [d["card"]]), d["card"])


def cash_paid(state: dict, d: dict) -> dict:
    return _with_player(state, d["seat"], cash=_p(state, d["seat"])["cash"] - d["amount"])


def cash_collected(state: dict, d: dict) -> dict:
    return _with_player(state, d["seat"], cash=_p(state, d["seat"])["cash"] + d["amount"])


def lids_lost(state: dict, d: dict) -> dict:
    return _with_player(state, d["seat"], lids=_p(state, d["seat"])["lids"] - d["lids"])


def lids_gained(state: dict, d: dict) -> dict:
    return _with_player(state, d["seat"], lids=_p(state, d["seat"])["lids"] + d["lids"])


def lids_bought(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    new = _with_player(state, d["seat"], lids=p["lids"] + d["lids"], cash=p["cash"] - d["paid"])
    return _with_turn(new, transaction=True) if d["where"] == "dealing" and _is_turn(state, d["seat"]) else new


def buy_failed(state: dict, d: dict) -> dict:
    return _with_turn(state, transaction=True)


def sell_rolled(state: dict, d: dict) -> dict:
    return _with_turn(state, stage="sell", sell_die=d["die"])


def lids_sold(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    new = _with_player(state, d["seat"], lids=p["lids"] - d["lids"], sold=p["sold"] + d["lids"],
                       cash=p["cash"] + d["lids"] * d["each"])
    if d["to"] in ("bank", "marcus") and _is_turn(state, d["seat"]):
        new = _with_turn(new, transaction=True, stage="landed", sell_die=None)
    elif d["to"] == "card" and state["turn"] and state["turn"].get("card_sale"):
        new = _with_turn(new, card_sale=None)   # version 2: the card's sale is made
    return new


def lid_picked_up(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    return _with_turn(_with_player(state, d["seat"], lids=p["lids"] + 1, cash=p["cash"] - d["paid"]), picked=True)


def pass_bought(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    new = _with_player(state, d["seat"], **{"pass": True, "cash": p["cash"] - d["paid"]})
    new["passes"] = state["passes"] - 1
    return _with_turn(new, bought=True) if _is_turn(state, d["seat"]) else new


def cab_taken(state: dict, d: dict) -> dict:
    return _with_player(state, d["seat"], cash=_p(state, d["seat"])["cash"] - d["fare"])


def bet_placed(state: dict, d: dict) -> dict:
    p = _p(state, d["seat"])
    return _with_turn(_with_player(state, d["seat"], cash=p["cash"] - d["stake"], bet=dict(d["bets"])), gambled=True)


def card_drawn(state: dict, d: dict) -> dict:
    card = d["secret"]["card"] if d.get("kept") else d["card"]
    decks = {k: list(v) for k, v in state["decks"].items()}
    decks[d["deck"]].pop(0)
    new = {**state, "decks": decks}
    if d.get("kept"):
        return _with_player(new, d["seat"], kept=_p(state, d["seat"])["kept"] + [card])
    decks[d["deck"]].append(card)  # "return the card face-down to the bottom of the stack"
    new = _shown(new, card)
    effect = CARDS[card]["effect"]
    if effect["kind"] == "sell" and rules_version(state) >= 2 and _is_turn(state, d["seat"]) \
            and _p(state, d["seat"])["lids"] > 0:  # "Sell up to 3 Lids": the Dealer says how many (SellLids)
        new = _with_turn(new, card_sale={"card": card, "most": min(effect["lids"], _p(state, d["seat"])["lids"]),
                                         "each": effect["price"]})
    return new


def miss_marked(state: dict, d: dict) -> dict:
    return _with_player(state, d["seat"], miss=True)


def again_marked(state: dict, d: dict) -> dict:
    return _with_turn(state, again=True) if _is_turn(state, d["seat"]) else state


def time_warp_rolled(state: dict, d: dict) -> dict:
    return state


def customs_opened(state: dict, d: dict) -> dict:
    customs = {"dealer": d["dealer"], "narc": d["narc"], "hidden": None, "guess": None}
    return _with_turn({**state, "customs": customs}, stage="customs")


def lids_hidden(state: dict, d: dict) -> dict:
    return {**state, "customs": {**state["customs"], "hidden": d["secret"]["hand"]}}


def hand_chosen(state: dict, d: dict) -> dict:
    return {**state, "customs": {**state["customs"], "guess": d["secret"]["hand"]}}


def customs_cleared(state: dict, d: dict) -> dict:
    return _with_turn({**state, "customs": None}, stage="done")


def offer_event(state: dict, d: dict, event_type: str) -> dict:
    new = {**state, "offers": offers.evolve(state["offers"], Event(event_type, d))}
    if event_type == "OfferMade" and state["turn"] and d["from"] == state["turn"]["seat"]:
        if lending.is_loan(d["terms"]):   # a loan (17b option) is no deal on the square: its own tally
            new = _with_turn(new, loans_offered=state["turn"].get("loans_offered", []) + [d["to"]])
        else:
            new = _with_turn(new, offered=state["turn"]["offered"] + [d["to"]])
    return new


def deal_made(state: dict, d: dict) -> dict:
    seller, buyer = _p(state, d["seller"]), _p(state, d["buyer"])
    new = copy_containers(state, "players")
    new["players"][d["seller"]] = {**seller, "lids": seller["lids"] - d["lids"], "sold": seller["sold"] + d["lids"],
                                   "cash": seller["cash"] + d["price"]}
    new["players"][d["buyer"]] = {**buyer, "lids": buyer["lids"] + d["lids"], "cash": buyer["cash"] - d["price"]}
    return _with_turn(new, transaction=True)


def game_won(state: dict, d: dict) -> dict:
    return {**state, "phase": "over", "turn": None, "result": {"winners": list(d["winners"]), "reason": d["reason"]}}


EVOLVERS = {
    "GameStarted": started, "DealerChosen": dealer_chosen, "NarcPlaced": narc_placed,
    "TurnStarted": turn_started, "TurnMissed": turn_missed, "TurnEnded": turn_ended, "Passed": passed,
    "MoveRolled": move_rolled, "BetSettled": bet_settled, "Moved": moved, "Busted": busted,
    "Bankrupt": bankrupt, "CardUsed": card_used, "CashPaid": cash_paid, "CashCollected": cash_collected,
    "LidsLost": lids_lost, "LidsGained": lids_gained, "LidsBought": lids_bought, "BuyFailed": buy_failed,
    "SellRolled": sell_rolled, "LidsSold": lids_sold, "LidPickedUp": lid_picked_up, "PassBought": pass_bought,
    "CabTaken": cab_taken, "BetPlaced": bet_placed, "CardDrawn": card_drawn, "MissTurnMarked": miss_marked,
    "RollAgainMarked": again_marked, "TimeWarpRolled": time_warp_rolled, "CustomsOpened": customs_opened,
    "LidsHidden": lids_hidden, "HandChosen": hand_chosen, "CustomsCleared": customs_cleared,
    "DealMade": deal_made, "GameWon": game_won, "LoanMade": lending.loan_made, "LoanRepaid": lending.loan_repaid,
    **{t: (lambda s, d, t=t: offer_event(s, d, t)) for t in offers.EVENTS},
}


def evolve(state: Any, event: Event) -> Any:
    return evolve_by_type(EVOLVERS, "Trafficking", state, event)
