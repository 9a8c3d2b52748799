"""Trafficking `evolve`: one small function per event, (state, data, own) -> state.

Each changes the state it is given and returns it; the players, the turn, the decks and the customs
inside it it changes through `own` (rules/folding.py).  It never rolls.
"""
from __future__ import annotations

from typing import Any

from rules.base import Event
from rules.blocks import offers
from rules.folding import Evolver, Own, evolve_by_type, rules_version
from rules.trafficking import lending
from rules.trafficking.data import CARDS, deck
from rules.trafficking.state import START_CASH


def _player(state: dict, own: Own, seat: int) -> dict:
    """One player of the state, the evolver's to change."""
    return own(own(state, "players"), seat)


def _turn(state: dict, own: Own, **changes: Any) -> None:
    """The turn's fields changed, when there is a turn."""
    if state["turn"]:
        own(state, "turn").update(changes)


def _p(state: dict, seat: int) -> dict:
    return state["players"][seat]


def _is_turn(state: dict, seat: int) -> bool:
    return state["turn"] is not None and state["turn"]["seat"] == seat


def started(state: None, d: dict, own: Own) -> dict:
    players = [{"role": "narc" if s == d["narc"] else "dealer", "dealer": None, "square": None,
                "lids": d["lids"][s], "cash": 0 if s == d["narc"] else START_CASH, "offenses": 0, "sold": 0,
                "out": None, "pass": False, "miss": False, "kept": [], "bet": None} for s in range(d["seats"])]
    decks = {name: [deck(name)[i] for i in order] for name, order in d["secret"]["decks"].items()}
    return {"seats": d["seats"], "phase": "characters", "narc": d["narc"], "order": list(d["order"]),
            "choosers": list(d["choosers"]), "chooser": 0, "players": players,
            "decks": decks, "passes": d["passes"], "turn": None, "customs": None,
            "offers": offers.empty(), "last": None, "result": None,
            **({"lending": True, "loans": {}} if d.get("lending") else {})}   # version 2's option (17b)


def dealer_chosen(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"]).update(dealer=d["dealer"], square=d["square"])
    state["chooser"] += 1
    if state["chooser"] >= len(state["choosers"]):
        state["phase"] = "place_narc"
    return state


def narc_placed(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, state["narc"])["square"] = d["square"]
    state["phase"] = "play"
    return state


def turn_started(state: dict, d: dict, own: Own) -> dict:
    state["turn"] = {"seat": d["seat"], "stage": "roll", "die": None, "choices": {}, "how": None, "again": False,
                     "transaction": False, "offered": [], "picked": False, "bought": False, "gambled": False,
                     "sell_die": None}
    return state


def turn_missed(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"])["miss"] = False
    _turn(state, own, stage="done")
    return state


def passed(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, stage="done")
    return state


def turn_ended(state: dict, d: dict, own: Own) -> dict:
    state["turn"], state["last"] = None, d["seat"]
    return state


def move_rolled(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, die=d["die"], choices={k: list(v) for k, v in d["destinations"].items()}, stage="move")
    return state


def bet_settled(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    player["cash"] += d["payout"]
    player["bet"] = None
    return state


def moved(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"])["square"] = d["to"]
    if _is_turn(state, d["seat"]):
        stage = "done" if d["seat"] == state["narc"] else "landed"
        _turn(state, own, stage=stage, how=d["how"], transaction=False, offered=[], picked=False, bought=False,
              gambled=False, choices={})
    return state


def _out(state: dict, own: Own, seat: int, **changes: Any) -> None:
    """A Dealer out of the game (busted out, bankrupt): his possessions turned over (8b, 11b)."""
    player = _player(state, own, seat)
    kept, had_pass = player["kept"], player["pass"]
    player.update(lids=0, cash=0, **changes, square=None, bet=None, kept=[])
    _return_cards(state, own, kept)
    _return_pass(state, own, seat, had_pass)
    lending.written_off(state, seat)


def busted(state: dict, d: dict, own: Own) -> dict:
    if d["out"]:
        _out(state, own, d["seat"], offenses=d["offense"], out="busted")
    else:
        player = _player(state, own, d["seat"])
        player.update(lids=0, cash=player["cash"] - d["fee"], offenses=d["offense"], square=d["to"])
    if _is_turn(state, d["seat"]):
        _turn(state, own, stage="done", again=False)
    return state


def bankrupt(state: dict, d: dict, own: Own) -> dict:
    _out(state, own, d["seat"], out="bankrupt")
    if _is_turn(state, d["seat"]):
        _turn(state, own, stage="done", again=False)
    return state


def _return_pass(state: dict, own: Own, seat: int, had_pass: bool) -> None:
    """8b, 11b: a Dealer out of the game "turns over all of his possessions": from version 2 his THC
    Transit Pass goes back to the bank (version 1 left it with him)."""
    if had_pass and rules_version(state) >= 2:
        _player(state, own, seat)["pass"] = False
        state["passes"] += 1


def _return_cards(state: dict, own: Own, cards: list) -> None:
    """Kept cards go back to the bottom of their stacks (a player out of the game, or a card used)."""
    if cards:
        decks = own(state, "decks")
        for card in cards:
            own(decks, "sour_grapes" if card.startswith("SG") else "flip_out").append(card)


def _shown(state: dict, card: str) -> None:
    """The card last shown face up from its stack: everyone saw it go under the stack (the view's `shown`)."""
    state["shown"] = {**state.get("shown", {}), "sour_grapes" if card.startswith("SG") else "flip_out": card}


def card_used(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    player["kept"] = [c for c in player["kept"] if c != d["card"]]
    _return_cards(state, own, [d["card"]])
    _shown(state, d["card"])
    return state


def _counted(field: str, amount: str, sign: int) -> Evolver:
    """The evolver of an event that moves one count of its seat's by one of its amounts (cash paid, lids lost)."""
    def evolver(state: dict, d: dict, own: Own) -> dict:
        _player(state, own, d["seat"])[field] += sign * d[amount]
        return state
    return evolver


cash_paid, cash_collected = _counted("cash", "amount", -1), _counted("cash", "amount", 1)
lids_lost, lids_gained = _counted("lids", "lids", -1), _counted("lids", "lids", 1)


def lids_bought(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    player["lids"] += d["lids"]
    player["cash"] -= d["paid"]
    if d["where"] == "dealing" and _is_turn(state, d["seat"]):
        _turn(state, own, transaction=True)
    return state


def buy_failed(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, transaction=True)
    return state


def sell_rolled(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, stage="sell", sell_die=d["die"])
    return state


def lids_sold(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    player["lids"] -= d["lids"]
    player["sold"] += d["lids"]
    player["cash"] += d["lids"] * d["each"]
    if d["to"] in ("bank", "marcus") and _is_turn(state, d["seat"]):
        _turn(state, own, transaction=True, stage="landed", sell_die=None)
    elif d["to"] == "card" and state["turn"] and state["turn"].get("card_sale"):
        _turn(state, own, card_sale=None)   # version 2: the card's sale is made
    return state


def lid_picked_up(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    player["lids"] += 1
    player["cash"] -= d["paid"]
    _turn(state, own, picked=True)
    return state


def pass_bought(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    player["pass"] = True
    player["cash"] -= d["paid"]
    state["passes"] -= 1
    if _is_turn(state, d["seat"]):
        _turn(state, own, bought=True)
    return state


def cab_taken(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"])["cash"] -= d["fare"]
    return state


def bet_placed(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    player["cash"] -= d["stake"]
    player["bet"] = dict(d["bets"])
    _turn(state, own, gambled=True)
    return state


def card_drawn(state: dict, d: dict, own: Own) -> dict:
    card = d["secret"]["card"] if d.get("kept") else d["card"]
    pile = own(own(state, "decks"), d["deck"])
    pile.pop(0)
    if d.get("kept"):
        own(_player(state, own, d["seat"]), "kept").append(card)
        return state
    pile.append(card)  # "return the card face-down to the bottom of the stack"
    _shown(state, card)
    effect = CARDS[card]["effect"]
    lids = _p(state, d["seat"])["lids"]
    if effect["kind"] == "sell" and rules_version(state) >= 2 and _is_turn(state, d["seat"]) \
            and lids > 0:  # "Sell up to 3 Lids": the Dealer says how many (SellLids)
        _turn(state, own, card_sale={"card": card, "most": min(effect["lids"], lids), "each": effect["price"]})
    return state


def miss_marked(state: dict, d: dict, own: Own) -> dict:
    _player(state, own, d["seat"])["miss"] = True
    return state


def again_marked(state: dict, d: dict, own: Own) -> dict:
    if _is_turn(state, d["seat"]):
        _turn(state, own, again=True)
    return state


def time_warp_rolled(state: dict, d: dict, own: Own) -> dict:
    return state


def customs_opened(state: dict, d: dict, own: Own) -> dict:
    state["customs"] = {"dealer": d["dealer"], "narc": d["narc"], "hidden": None, "guess": None}
    _turn(state, own, stage="customs")
    return state


def lids_hidden(state: dict, d: dict, own: Own) -> dict:
    own(state, "customs")["hidden"] = d["secret"]["hand"]
    return state


def hand_chosen(state: dict, d: dict, own: Own) -> dict:
    own(state, "customs")["guess"] = d["secret"]["hand"]
    return state


def customs_cleared(state: dict, d: dict, own: Own) -> dict:
    state["customs"] = None
    _turn(state, own, stage="done")
    return state


def offer_event(state: dict, d: dict, own: Own, event_type: str) -> dict:
    state["offers"] = offers.evolve(state["offers"], Event(event_type, d))
    turn = state["turn"]
    if event_type == "OfferMade" and turn and d["from"] == turn["seat"]:
        if lending.is_loan(d["terms"]):   # a loan (17b option) is no deal on the square: its own tally
            _turn(state, own, loans_offered=turn.get("loans_offered", []) + [d["to"]])
        else:
            _turn(state, own, offered=turn["offered"] + [d["to"]])
    return state


def deal_made(state: dict, d: dict, own: Own) -> dict:
    seller = _player(state, own, d["seller"])
    seller["lids"] -= d["lids"]
    seller["sold"] += d["lids"]
    seller["cash"] += d["price"]
    buyer = _player(state, own, d["buyer"])
    buyer["lids"] += d["lids"]
    buyer["cash"] -= d["price"]
    _turn(state, own, transaction=True)
    return state


def game_won(state: dict, d: dict, own: Own) -> dict:
    state["phase"], state["turn"] = "over", None
    state["result"] = {"winners": list(d["winners"]), "reason": d["reason"]}
    return state


EVOLVERS: dict[str, Evolver] = {
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
    **{t: (lambda s, d, own, t=t: offer_event(s, d, own, t)) for t in offers.EVENTS},
}


def evolve(state: Any, event: Event) -> Any:
    return evolve_by_type(EVOLVERS, "Trafficking", state, event)
