"""Kingpin's events in the rulebook's words (rules/narration.py): "Ana sold 2 Hits to the $200 Junkie
for $400."  Nothing in Kingpin is secret (docs/rules/kingpin.md "View"), so every reader reads the
same sentence.  Cards are named as printed (cards.json: "Supply Truck (3)", "Dealer (12)", a Junkie
by its Cash on Hand), each with a ref to its card id for a frontend to highlight.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from rules.kingpin.cards import CATALOG
from rules.kingpin.guards import FACE_NAMES, money
from rules.narration import Names, Narration, dice, plural, ref, said

GROUPS = {2: "a double", 3: "a triple", 4: "a quadruple"}
BLOCKED = {"cop": "Cop", "hitman": "Hit Man", "regulator": "Regulator"}


def _kind(kind: str) -> dict:
    return CATALOG["kinds"].get(kind) or {"name": "card", "type": "card"}


def kind_name(kind: str) -> str:
    """A kind as printed; a Junkie by its Cash on Hand: "$200 Junkie"."""
    entry = _kind(kind)
    if entry["type"] == "junkie":
        return f"{money(entry['cash_on_hand'])} Junkie"
    return entry["name"]


def card_name(card_id: str) -> str:
    """A card id ("junkie200-3") as the table calls it ("$200 Junkie")."""
    return kind_name(str(card_id).rsplit("-", 1)[0])


def card(card_id: str, owner: Any = None, names: Names | None = None) -> tuple[str, dict]:
    """A card in a sentence, "the Dealer (6)" or "Bo's Dealer (6)", and its ref."""
    name = card_name(card_id)
    text = f"{names(owner)}'s {name}" if names is not None and isinstance(owner, int) else f"the {name}"
    return text, ref("card", card_id, name)


def _cap(text: str) -> str:
    """A sentence's first letter up ("the Dealer" -> "The Dealer"), the rest as it is."""
    return text[:1].upper() + text[1:]


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}"


def _seat(names: Names, seat: int) -> tuple[str, dict]:
    return names(seat), names.ref(seat)


# ------------------------------------------------------------------ the set-up and the turn
def game_started(d: Mapping[str, Any], names: Names) -> Narration:
    start = d["starting"][0] if d.get("starting") else {}
    cards = [f"a {card_name(start['truck'])} holding {plural(d['truck_hits'], 'Hit')}",
             f"a {card_name(start['dealer'])}", f"a {card_name(start['junkie'])}"] if start else []
    return said(f"Each of the {d['seats']} Kingpins starts with {money(d['bankroll'])}"
                + (f", {_and(cards)}" if cards else "")
                + f"; the first to bankroll {money(d['options'].get('target', 5000))} wins.")


def first_player_rolled(d: Mapping[str, Any], names: Names) -> Narration:
    """The last round of the roll for who starts, as dice: "Ana rolled 6, Bo 4"."""
    rounds = d.get("rounds") or []
    last = rounds[-1] if rounds else {"seats": [], "dice": []}
    rolls = [f"{names(s)} {face}" for s, face in zip(last["seats"], last["dice"])]
    tie = " after a tie" if len(rounds) > 1 else ""
    rolled = f"For who starts{tie}, {_and(rolls)}: " if rolls else ""
    return said(f"{rolled}{names(d['seat'])} goes first.", names.ref(d["seat"]))


def turn_started(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"Turn {d['turn']}: {names(d['seat'])}'s turn begins.", names.ref(d["seat"]))


def turn_ended(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} ended the turn.", names.ref(d["seat"]))


def card_purchased(d: Mapping[str, Any], names: Names) -> Narration:
    who, seat_ref = _seat(names, d["seat"])
    name = kind_name(d["kind"])
    return said(f"{who} bought a {name} for {money(d['price'])}.", seat_ref, ref("card", d["card"], name))


def dice_rolled(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} rolled {dice(*d['dice'])}.", names.ref(d["seat"]))


def roll_given_up(d: Mapping[str, Any], names: Names) -> Narration:
    face = d["face"]
    return said(f"{names(d['seat'])} gave up the roll for a {face} ({FACE_NAMES.get(face, 'a face')}).",
                names.ref(d["seat"]))


def dice_used(d: Mapping[str, Any], names: Names) -> Narration:
    """"Ana used a 1 for Shipment" / "Ana used a double of 3s (Double: $200)"."""
    who, face, count = names(d["seat"]), d["face"], d["count"]
    if count == 1:
        return said(f"{who} used a {face} for {d['action']}.", names.ref(d["seat"]))
    return said(f"{who} used {GROUPS.get(count, plural(count, 'die', 'dice'))} of {face}s ({d['action']}).",
                names.ref(d["seat"]))


# ------------------------------------------------------------------ Hits: ship, distribute, sell
def shipment_made(d: Mapping[str, Any], names: Names) -> Narration:
    truck, truck_ref = card(d["truck"])
    return said(f"{names(d['seat'])} filled {truck} with {plural(d['hits'], 'Hit')}.", names.ref(d["seat"]),
                truck_ref)


def shipment_blocked(d: Mapping[str, Any], names: Names) -> Narration:
    regulator, regulator_ref = card(d["regulator"], d.get("owner"), names)
    truck, truck_ref = card(d["truck"])
    return said(f"{_cap(regulator)} blocked {names(d['seat'])}'s Shipment to {truck}.", regulator_ref,
                names.ref(d["seat"]), truck_ref)


def distribution_started(d: Mapping[str, Any], names: Names) -> Narration:
    truck, truck_ref = card(d["truck"])
    return said(f"{names(d['seat'])} distributes the {plural(d['hits'], 'Hit')} of {truck}.", names.ref(d["seat"]),
                truck_ref)


def hits_placed(d: Mapping[str, Any], names: Names) -> Narration:
    dealer, dealer_ref = card(d["dealer"])
    return said(f"{names(d['seat'])} placed {plural(d['hits'], 'Hit')} on {dealer}.", names.ref(d["seat"]),
                dealer_ref)


def distribution_finished(d: Mapping[str, Any], names: Names) -> Narration:
    left = d.get("discarded") or 0
    return said(f"{names(d['seat'])} finished distributing"
                + (f", discarding {plural(left, 'Hit')}." if left else "."), names.ref(d["seat"]))


def sale_started(d: Mapping[str, Any], names: Names) -> Narration:
    junkie, junkie_ref = card(d["junkie"])
    dealer, dealer_ref = card(d["dealer"])
    how = "Steal a Deal: another player's" if d.get("face") == 5 else "Purchase Hits:"
    return said(f"{how} {junkie.removeprefix('the ')} buys from {names(d['seat'])}'s "
                f"{dealer.removeprefix('the ')}.", junkie_ref, names.ref(d["seat"]), dealer_ref)


def hits_sold(d: Mapping[str, Any], names: Names) -> Narration:
    junkie, junkie_ref = card(d["junkie"])
    return said(f"{names(d['seat'])} sold {plural(d['hits'], 'Hit')} to {junkie} for {money(d['cash'])}.",
                names.ref(d["seat"]), junkie_ref)


def sale_abandoned(d: Mapping[str, Any], names: Names) -> Narration:
    junkie, junkie_ref = card(d["junkie"])
    return said(f"{names(d['seat'])} dropped the sale to {junkie}.", names.ref(d["seat"]), junkie_ref)


def od_rolled(d: Mapping[str, Any], names: Names) -> Narration:
    """OD: over by 1 to 3 rolls 3 to 1 dice and survives on any die of 3 or less; over by 4 dies."""
    junkie, junkie_ref = card(d["junkie"])
    over = plural(d["over"], "Hit")
    if not d["dice"]:
        return said(f"{_cap(junkie)} took {over} over its OD: an instant overdose.", junkie_ref)
    fate = "survived" if d["survived"] else "overdosed"
    return said(f"{_cap(junkie)}, {over} over its OD, rolled {dice(*d['dice'])} against 3 or less: "
                f"it {fate}.", junkie_ref)


def junkie_died(d: Mapping[str, Any], names: Names) -> Narration:
    junkie, junkie_ref = card(d["junkie"], d.get("owner"), names)
    cash = d.get("cash") or 0
    return said(f"{_cap(junkie)} died of an overdose" + (f"; its {money(cash)} went to the bank." if cash else "."),
                junkie_ref)


def payday_collected(d: Mapping[str, Any], names: Names) -> Narration:
    """"Payday: Ana's 2 Junkies collected $800" (a Payday roll) or every Junkie in play (a triple)."""
    payouts, seats = d.get("payouts") or [], d.get("seats") or []
    total = sum(amount for _, amount in payouts)
    kinds: dict[str, int] = {}
    for junkie, _ in payouts:
        kinds[card_name(junkie)] = kinds.get(card_name(junkie), 0) + 1
    junkies = _and([plural(count, name) if count > 1 else name for name, count in kinds.items()]) \
        if kinds else "no Junkie"
    whose = f"{names(seats[0])}'s {junkies}" if len(seats) == 1 else junkies
    refs = [names.ref(seats[0])] if len(seats) == 1 else []
    refs += [ref("card", junkie, card_name(junkie)) for junkie, _ in payouts]
    return said(f"Payday: {whose} collected {money(total)}.", *refs)


# ------------------------------------------------------------------ doubles, triples, quadruples
def card_chloroformed(d: Mapping[str, Any], names: Names) -> Narration:
    target, target_ref = card(d["card"], d.get("owner"), names)
    return said(f"{names(d['seat'])} paid {money(d['cost'])} to chloroform {target}.", names.ref(d["seat"]),
                target_ref)


def card_activated(d: Mapping[str, Any], names: Names) -> Narration:
    special, special_ref = card(d["card"])
    return said(f"{names(d['seat'])} used a double to make {special} Active again.", names.ref(d["seat"]),
                special_ref)


def double_cashed(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} cashed a double for {money(d['amount'])}.", names.ref(d["seat"]))


def free_card_taken(d: Mapping[str, Any], names: Names) -> Narration:
    name = kind_name(d["kind"])
    return said(f"{names(d['seat'])} took a free {name}.", names.ref(d["seat"]), ref("card", d["card"], name))


# ------------------------------------------------------------------ Special Cards
def cop_used(d: Mapping[str, Any], names: Names) -> Narration:
    target, target_ref = card(d["target"], d.get("owner"), names)
    return said(f"{names(d['seat'])} paid {money(d['cost'])} to send the Cop after {target} "
                f"(a {money(d['bribe'])} bribe keeps it out of Jail).", names.ref(d["seat"]),
                ref("card", d["cop"], "Cop"), target_ref)


def cop_bribed(d: Mapping[str, Any], names: Names) -> Narration:
    target, target_ref = card(d["card"])
    return said(f"{names(d['seat'])} bribed {names(d['to'])}'s Cop with {money(d['amount'])}: {target} stays "
                "out of Jail.", names.ref(d["seat"]), names.ref(d["to"]), target_ref)


def card_jailed(d: Mapping[str, Any], names: Names) -> Narration:
    jailed, jailed_ref = card(d["card"], d.get("owner"), names)
    cash = d.get("cash") or 0
    return said(f"{_cap(jailed)} went to Jail" + (f"; its {money(cash)} went to the bank." if cash else "."),
                jailed_ref)


def hit_man_used(d: Mapping[str, Any], names: Names) -> Narration:
    target, target_ref = card(d["target"], d.get("owner"), names)
    return said(f"{names(d['seat'])} sent the Hit Man after {target} (a {money(d['bounty'])} bounty).",
                names.ref(d["seat"]), ref("card", d["hitman"], "Hit Man"), target_ref)


def bounty_doubled(d: Mapping[str, Any], names: Names) -> Narration:
    target, target_ref = card(d["target"], d.get("owner"), names)
    return said(f"{names(d['seat'])} doubled the bounty to {money(d['bounty'])} and turned the Hit Man on "
                f"{target}.", names.ref(d["seat"]), target_ref)


def card_eliminated(d: Mapping[str, Any], names: Names) -> Narration:
    target, target_ref = card(d["card"], d.get("owner"), names)
    return said(f"{_cap(target)} was eliminated; {names(d['paid_by'])} paid the {money(d['bounty'])} bounty.",
                target_ref, names.ref(d["paid_by"]))


def regulator_placed(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} placed a Regulator on {names(d['target'])}, blocking their Shipments "
                f"(a {money(d['bribe'])} bribe removes it).", names.ref(d["seat"]),
                ref("card", d["regulator"], "Regulator"), names.ref(d["target"]))


def regulator_accepted(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} accepted the Regulator.", names.ref(d["seat"]),
                ref("card", d["regulator"], "Regulator"))


def regulator_bribed(d: Mapping[str, Any], names: Names) -> Narration:
    return said(f"{names(d['seat'])} bribed {names(d['to'])}'s Regulator away with {money(d['amount'])}.",
                names.ref(d["seat"]), names.ref(d["to"]), ref("card", d["regulator"], "Regulator"))


def immunity_used(d: Mapping[str, Any], names: Names) -> Narration:
    attacker = d.get("attacker")
    blocked = BLOCKED.get(d.get("blocked"), "attack")
    whose = f"{names(attacker)}'s {blocked}" if isinstance(attacker, int) else f"the {blocked}"
    refs = [names.ref(d["seat"]), ref("card", d["card"], "Immunity")]
    refs += [names.ref(attacker)] if isinstance(attacker, int) else []
    return said(f"{names(d['seat'])} played Immunity: {whose} has no effect.", *refs)


def card_bailed(d: Mapping[str, Any], names: Names) -> Narration:
    bailed, bailed_ref = card(d["card"])
    return said(f"{names(d['seat'])} bailed {bailed} out of Jail for {money(d['price'])}.", names.ref(d["seat"]),
                bailed_ref)


def game_ended(d: Mapping[str, Any], names: Names) -> Narration:
    winners = list(d.get("winners") or [])
    who = _and([names(s) for s in winners]) if winners else "Nobody"
    verb = "wins" if len(winners) <= 1 else "win"
    return said(f"{who} {verb}: {d.get('reason', 'the game is over')}.", *(names.ref(s) for s in winners))


NARRATIONS: dict[str, Callable[[Mapping[str, Any], Names], Narration]] = {
    "GameStarted": game_started, "FirstPlayerRolled": first_player_rolled, "TurnStarted": turn_started,
    "TurnEnded": turn_ended, "CardPurchased": card_purchased, "DiceRolled": dice_rolled,
    "RollGivenUp": roll_given_up, "DiceUsed": dice_used, "ShipmentMade": shipment_made,
    "ShipmentBlocked": shipment_blocked, "DistributionStarted": distribution_started, "HitsPlaced": hits_placed,
    "DistributionFinished": distribution_finished, "SaleStarted": sale_started, "HitsSold": hits_sold,
    "SaleAbandoned": sale_abandoned, "ODRolled": od_rolled, "JunkieDied": junkie_died,
    "PaydayCollected": payday_collected, "CardChloroformed": card_chloroformed, "CardActivated": card_activated,
    "DoubleCashed": double_cashed, "FreeCardTaken": free_card_taken, "CopUsed": cop_used,
    "CopBribed": cop_bribed, "CardJailed": card_jailed, "HitManUsed": hit_man_used,
    "BountyDoubled": bounty_doubled, "CardEliminated": card_eliminated, "RegulatorPlaced": regulator_placed,
    "RegulatorAccepted": regulator_accepted, "RegulatorBribed": regulator_bribed,
    "ImmunityUsed": immunity_used, "CardBailed": card_bailed, "GameEnded": game_ended,
}
