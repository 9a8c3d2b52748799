"""Section 18 Sour Grapes and Flip Out: draw the top card, follow it, return it face down to the bottom
("unless otherwise stated": the kept cards, held in secret). Texts and effects: cards.json
(reconstructed but for the Narc's Time Warp card)."""
from __future__ import annotations

from typing import Callable

from rules.base import Rng
from rules.folding import rules_version
from rules.trafficking import board, offenses
from rules.trafficking.data import CARDS
from rules.trafficking.state import Tx, player


def draw(tx: Tx, seat: int, deck: str, rng: Rng, arrive: Callable) -> None:
    """The Dealer on a draw square takes the top card and follows it."""
    card = tx.state["decks"][deck][0]
    effect = CARDS[card]["effect"]
    if effect["kind"] == "keep":   # held in secret: only the drawer learns which card it is
        tx.add("CardDrawn", seat=seat, deck=deck, kept=True, secret={"card": card})
        return
    tx.add("CardDrawn", seat=seat, deck=deck, card=card, name=CARDS[card]["name"])
    follow(tx, seat, effect, rng, arrive)


def follow(tx: Tx, seat: int, effect: dict, rng: Rng, arrive: Callable) -> None:
    """One card's instruction."""
    kind, p = effect["kind"], player(tx.state, seat)
    narc = tx.state["narc"]
    if kind == "narc_time_warp":   # 4h: "a directive on a Sour Grapes card which allows the Narc to enter ..."
        tx.add("Moved", seat=narc, to=board.ROXY, path=[board.ROXY], how="card")
        dice = rng.roll(4)
        tx.add("TimeWarpRolled", seat=narc, dice=dice)
        path = board.advance(board.ROXY, sum(dice))
        arrive(tx, narc, path[-1], path, "time_warp", sum(dice), rng)
    elif kind == "narc_to_you":
        arrive(tx, narc, p["square"], [p["square"]], "card", None, rng)
    elif kind in ("lose_lids", "lose_half_lids"):
        lids = min(p["lids"], effect["lids"]) if kind == "lose_lids" else p["lids"] // 2
        if lids:
            tx.add("LidsLost", seat=seat, lids=lids, why="card")
    elif kind == "pay":
        offenses.pay(tx, seat, effect["amount"], "card")
    elif kind == "collect":
        tx.add("CashCollected", seat=seat, amount=effect["amount"], why="card")
    elif kind == "gain_lids":
        tx.add("LidsGained", seat=seat, lids=effect["lids"], why="card")
    elif kind == "miss_turn":
        tx.add("MissTurnMarked", seat=seat, why="card")
    elif kind == "roll_again":
        tx.add("RollAgainMarked", seat=seat, why="card")
    elif kind == "offense":
        offenses.charge(tx, seat, "a Sour Grapes card")
    elif kind == "go_to_cop_shop":
        to = board.en_route_cop_shop(p["square"])
        arrive(tx, seat, to, [to], "card", None, rng)
    elif kind == "go_to":
        arrive(tx, seat, effect["square"], [effect["square"]], "card", None, rng)
    elif kind == "advance":
        path = board.advance(p["square"], effect["squares"])
        arrive(tx, seat, path[-1], path, "card", None, rng)
    elif kind == "sell":   # version 2: "Sell up to 3 Lids": CardDrawn opened the choice (SellLids{count})
        lids = min(p["lids"], effect["lids"])
        if lids and rules_version(tx.state) < 2:
            tx.add("LidsSold", seat=seat, lids=lids, each=effect["price"], to="card")
    elif kind == "transit_pass":
        transit_pass(tx, seat, p)


def transit_pass(tx: Tx, seat: int, p: dict) -> None:
    """FO13 "Collect a THC Transit Pass (if the bank has none left, collect $50)".  Version 1 paid the $50
    to a Dealer who held a pass already; from version 2 only an empty bank pays it, and a Dealer who holds
    one (a Dealer holds at most one, 10a) collects nothing more."""
    if tx.state["passes"] > 0 and not p["pass"]:
        tx.add("PassBought", seat=seat, paid=0, why="card")
    elif tx.state["passes"] <= 0 or rules_version(tx.state) < 2:
        tx.add("CashCollected", seat=seat, amount=50, why="card")
