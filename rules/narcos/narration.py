"""Narcos narrates its events: one sentence per event in the English rulebook's words (narcos-en.md's
glossary: rack, Dealer, Storage, merchandise, sicario, siren) (rules/narration.py).

Cards are named as printed (cards.json, the Cartel cards' English names in cartel.json), money in
millions.  A Cartel hand, a Cartel card spent face down and a peeked card are secret to their seat: the
narrator reads the event as its reader may, so the others read "Ana looked at the next card." and Ana
reads which.
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.narcos.data import CARDS, CARTEL
from rules.narration import Names, Narration, Narrator, plural, ref, said, seats_named

Data = Mapping[str, Any]
# the danger (siren) cards by their kind, as the glossary names them
SIREN_NAMES = {"press": "Press", "snitch": "Snitch", "police": "Police", "military": "Military", "dea": "DEA agent"}
KIND_NAMES = {"laboratory": "Laboratory", "transport": "Transport", "storage": "Storage", "dealer": "Dealer"}


# ------------------------------------------------------------------ words
def card(cid: Any) -> tuple[str, dict]:
    """A Narcos card as a phrase ("a Police card", "a Speedboat", "the Jungle kitchen Laboratory") and its ref."""
    known = CARDS.get(cid) if isinstance(cid, str) else None
    if known is None:
        return "a card", ref("card", cid, "a card")
    kind = known["kind"]
    if kind in SIREN_NAMES:
        r = ref("card", cid, SIREN_NAMES[kind])
        return ("a DEA agent" if kind == "dea" else f"a {r['text']} card"), r
    r = ref("card", cid, known["name"])
    if kind == "laboratory":
        return f"the {r['text']} Laboratory", r
    return f"{'an' if r['text'][:1] in 'AEIOU' else 'a'} {r['text']}", r


def cartel(cid: Any) -> dict:
    """The ref of a Cartel card, by its English name."""
    known = CARTEL.get(cid) if isinstance(cid, str) else None
    return ref("card", cid, known["english"] if known else "a Cartel card")


def millions(n: int) -> str:
    return f"{n} million" if n else "nothing"


def merchandise(n: int) -> str:
    return plural(n, "unit") + " of merchandise"


def listing(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}" if words else "nothing"


def _seat(d: Data, names: Names, text: str, *refs: dict, key: str = "seat") -> Narration:
    """A sentence about one seat: "{name} " + text."""
    return said(f"{names(d[key])} {text}", names.ref(d[key]), *refs)


# ------------------------------------------------------------------ set-up and rounds
def game_started(d: Data, names: Names) -> Narration:
    mode = "advanced" if d.get("mode") == "advanced" else "basic"
    text = f"The table is set for {d['seats']} players (the {mode} game): {names(d['first'])} goes first"
    refs: list = [names.ref(d["first"])]
    if d.get("permanent"):
        phrase, r = card(d["permanent"])
        refs.append(r)
        text += f"; {phrase} is the permanent Dealer"
    return said(text + ".", *refs)


def deck_shuffled(d: Data, names: Names) -> Narration:
    return said(f"The Round {d.get('round', 1)} Narcos deck was shuffled ({plural(d['count'], 'card')}).")


def cartel_shuffled(d: Data, names: Names) -> Narration:
    return said(f"The Cartel deck was shuffled ({plural(d['count'], 'card')}).")


def cartel_dealt(d: Data, names: Names) -> Narration:
    dealt = (d.get("secret") or {}).get("cards")
    if dealt is None:
        return _seat(d, names, f"was dealt {plural(d['count'], 'Cartel card')}.")
    refs = [cartel(c) for c in dealt]
    return _seat(d, names, f"was dealt {listing([r['text'] for r in refs])}.", *refs)


AGENTS = {"actions": "actions", "money": "money"}


def turn_started(d: Data, names: Names) -> Narration:
    agents = [AGENTS.get(a, "") for a in d.get("agents") or []]
    tail = f"; the DEA pursues its {listing(agents)}" if agents else ""
    return said(f"{names(d['seat'])}'s turn begins{tail}.", names.ref(d["seat"]))


def played_on(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"plays the last Round 1 cards ({plural(d['left_in_deck'], 'card')} left in the deck).")


def round_two_started(d: Data, names: Names) -> Narration:
    caller = d.get("called_by")
    if isinstance(caller, int):
        return said(f"Round 2 begins, called by {names(caller)}.", names.ref(caller))
    return said("Round 2 begins: the Round 1 deck ran out.")


def turn_ended(d: Data, names: Names) -> Narration:
    gone = len(d.get("discarded") or [])
    tail = f": {plural(gone, 'card')} from the rack to the discard pile" if gone else ""
    return said(f"{names(d['seat'])}'s turn is over{tail}.", names.ref(d["seat"]))


def game_ended(d: Data, names: Names) -> Narration:
    winners = d["winners"]
    reason = seats_named(d.get("reason", ""), names)
    money = ", ".join(f"{names(s)} {m} million" for s, m in enumerate(d.get("money") or []))
    text = f"{listing([names(s) for s in winners])} won" + (f" ({reason})" if reason else "") + \
        (f". Money: {money}." if money else ".")
    return said(text, *[names.ref(s) for s in winners])


# ------------------------------------------------------------------ the Actions phase: the rack
def card_drawn(d: Data, names: Names) -> Narration:
    phrase, r = card(d["card"])
    return _seat(d, names, f"turned up {phrase}" + (", the card looked at" if d.get("peeked") else "") + ".", r)


def danger_eliminated(d: Data, names: Names) -> Narration:
    phrase, r = card(d["card"])
    if d.get("by") == "sicarios" or d.get("by") is None:
        return _seat(d, names, f"eliminated {phrase} with {plural(d.get('sicarios', 1), 'sicario')}.", r)
    lawyer = cartel(d["by"])
    return _seat(d, names, f"eliminated {phrase} with {lawyer['text']}.", r, lawyer)


def dangers_activated(d: Data, names: Names) -> Narration:
    owed = [card(c) for c in d.get("owed") or []]
    if not owed:
        return _seat(d, names, "reached 2 sirens; nothing on the rack is owed.")
    return _seat(d, names, f"reached 2 sirens and owes {listing([p for p, _ in owed])}.", *[r for _, r in owed])


PAID_FROM = {"laboratory": "from the Laboratory", "storage": "from the Storage", "money": "with money"}


def danger_paid(d: Data, names: Names) -> Narration:
    phrase, r = card(d["card"])
    source = d.get("paid")
    if source is None:
        return _seat(d, names, f"could not pay {phrase}.", r)
    return _seat(d, names, f"paid {phrase} {PAID_FROM.get(source, '')}".rstrip() + ".", r)


def card_peeked(d: Data, names: Names) -> Narration:
    seen = (d.get("secret") or {}).get("card")
    if seen is None:
        return _seat(d, names, "looked at the next card.")
    phrase, r = card(seen)
    return _seat(d, names, f"looked at the next card: {phrase}.", r)


def peek_declined(d: Data, names: Names) -> Narration:
    return said(f"The card {names(d['seat'])} looked at stays on the deck.", names.ref(d["seat"]))


DRAW_ENDS = {"stopped": "stopped", "declined": "stopped", "seven cards": "reached seven cards",
             "three sirens": "turned a third siren: bust", "deck empty": "found the deck empty",
             "unpaid": "could not pay a danger"}


def draw_ended(d: Data, names: Names) -> Narration:
    how = DRAW_ENDS.get(d.get("reason"), "ended the Actions phase")
    return _seat(d, names, f"{how}, with {plural(d.get('guns', 0), 'gun')}, {plural(d.get('sirens', 0), 'siren')} "
                           f"and {plural(d.get('actions', 0), 'action')}.")


def dea_agent_moved(d: Data, names: Names) -> Narration:
    agent = f"The DEA agent pursuing {AGENTS.get(d.get('agent'), 'players')}"
    if isinstance(d.get("seat"), int):
        return said(f"{agent} goes after {names(d['seat'])}.", names.ref(d["seat"]))
    return said(f"{agent} goes back to watching.")


def bonus_chosen(d: Data, names: Names) -> Narration:
    took = "a sicario" if d.get("choice") == "sicario" else "2 Cartel cards"
    return _seat(d, names, f"took {took} for four guns.")


# ------------------------------------------------------------------ Management
def produced(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])}'s Laboratory made {merchandise(d['units'])}.", names.ref(d["seat"]))


def shipped(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"shipped {merchandise(d['units'])} to the Storage.")


def delivered(d: Data, names: Names) -> Narration:
    refs: list = []
    if d.get("dealer"):
        phrase, r = card(d["dealer"])
        refs.append(r)
    else:
        phrase = f"the −2 Dealer in {d['city']}"
    text = f"sold {merchandise(d['units'])} to {phrase} for {millions(d.get('paid', 0))}"
    given = d.get("tribute") or []
    if given:
        text += "; tribute: " + listing([f"{plural(g['units'], 'unit')} to {names(g['seat'])}" for g in given])
        refs += [names.ref(g["seat"]) for g in given]
    if d.get("bonus"):
        text += f"; a bonus of {millions(d['bonus'])}"
    return _seat(d, names, text + ".", *refs)


def worker_spent(d: Data, names: Names) -> Narration:
    return _seat(d, names, "discarded a worker for one more action.")


def cartel_back_spent(d: Data, names: Names) -> Narration:
    spent = (d.get("secret") or {}).get("card")
    if spent is None:
        return _seat(d, names, "spent a Cartel card face down for one more action.")
    r = cartel(spent)
    return _seat(d, names, f"spent {r['text']} face down for one more action.", r)


def worker_converted(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"made a worker a sicario for {millions(2)}.")


def cartel_played(d: Data, names: Names) -> Narration:
    r = cartel(d["card"])
    target = d.get("target")
    if isinstance(target, int) and target >= 0:
        return _seat(d, names, f"played {r['text']} on {names(target)}.", r, names.ref(target))
    return _seat(d, names, f"played {r['text']}.", r)


def reaction_asked(d: Data, names: Names) -> Narration:
    if d.get("kind") == "unpaid":  # version 3: money may still be raised before the card goes unpaid
        phrase, r = card(d.get("card"))
        return _seat(d, names, f"may raise money before {phrase} goes unpaid.", r)
    if d.get("kind") == "dea-money":  # version 3: the next seat may spend before the agent follows the richest
        return _seat(d, names, "may spend money before the DEA agent of money follows the richest.")
    r = cartel(d.get("card"))
    return said(f"{names(d['seat'])} may answer {names(d['attacker'])}'s {r['text']}.",
                names.ref(d["seat"]), names.ref(d["attacker"]), r)


PASSED = {"unpaid": "raised no money.", "dea-money": "spent nothing more."}


def reaction_passed(d: Data, names: Names) -> Narration:
    return _seat(d, names, PASSED.get(d.get("kind"), "let the attack happen."))


def crop_burned(d: Data, names: Names) -> Narration:
    r = cartel(d.get("card"))
    return said(f"{names(d['by'])}'s sicario burned one of {names(d['seat'])}'s crops ({r['text']}).",
                names.ref(d["by"]), names.ref(d["seat"]), r)


def actions_ended(d: Data, names: Names) -> Narration:
    unused = d.get("unused", 0)
    return _seat(d, names, "finished the actions" + (f", {plural(unused, 'action')} unused." if unused else "."))


def sales_collected(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"collected {millions(d['amount'])} in sales.")


def management_ended(d: Data, names: Names) -> Narration:
    queue = [q for q in d.get("queue") or [] if isinstance(q, int)]
    tail = f"; {listing([names(q) for q in queue])} may use the leftover Dealers" if queue else ""
    return said(f"{names(d['seat'])}'s Management is over{tail}.", names.ref(d["seat"]),
                *[names.ref(q) for q in queue])


def sale_passed(d: Data, names: Names) -> Narration:
    return _seat(d, names, "left the leftover Dealers.")


def sales_closed(d: Data, names: Names) -> Narration:
    return said("No leftover Dealer is used any more.")


# ------------------------------------------------------------------ improvements and buys
def card_bought(d: Data, names: Names) -> Narration:
    phrase, r = card(d["card"])
    refs = [r]
    text = f"bought {phrase} for {millions(d.get('price', 0))}"
    if d.get("replaced"):
        old, old_ref = card(d["replaced"])
        refs.append(old_ref)
        text += f", replacing {old}"
    return _seat(d, names, text + ".", *refs)


def crop_added(d: Data, names: Names) -> Narration:
    return _seat(d, names, f"planted a crop for {millions(d.get('price', 0))}.")


def improvement_passed(d: Data, names: Names) -> Narration:
    return _seat(d, names, "made no investment.")


def buy_passed(d: Data, names: Names) -> Narration:
    return _seat(d, names, "bought none of the cards left.")


NARRATIONS: dict[str, Narrator] = {
    "GameStarted": game_started,
    "DeckShuffled": deck_shuffled,
    "CartelShuffled": cartel_shuffled,
    "CartelDealt": cartel_dealt,
    "TurnStarted": turn_started,
    "PlayedOn": played_on,
    "RoundTwoStarted": round_two_started,
    "TurnEnded": turn_ended,
    "GameEnded": game_ended,
    "CardDrawn": card_drawn,
    "DangerEliminated": danger_eliminated,
    "DangersActivated": dangers_activated,
    "DangerPaid": danger_paid,
    "CardPeeked": card_peeked,
    "PeekDeclined": peek_declined,
    "DrawEnded": draw_ended,
    "DeaAgentMoved": dea_agent_moved,
    "BonusChosen": bonus_chosen,
    "Produced": produced,
    "Shipped": shipped,
    "Delivered": delivered,
    "WorkerSpent": worker_spent,
    "CartelBackSpent": cartel_back_spent,
    "WorkerConverted": worker_converted,
    "CartelPlayed": cartel_played,
    "ReactionAsked": reaction_asked,
    "ReactionPassed": reaction_passed,
    "CropBurned": crop_burned,
    "ActionsEnded": actions_ended,
    "SalesCollected": sales_collected,
    "ManagementEnded": management_ended,
    "SalePassed": sale_passed,
    "SalesClosed": sales_closed,
    "CardBought": card_bought,
    "CropAdded": crop_added,
    "ImprovementPassed": improvement_passed,
    "BuyPassed": buy_passed,
}
