"""Phase 1, Actions (6.1): turning cards one by one, stopping at will; sirens, Plata o Plomo,
the Snitch's peek, the Press, the 7-card time limit, fleeing at 3 sirens, the 3/4-gun bonuses."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.folding import rules_version
from rules.narcos.data import CARDS, HAND_LIMIT, kind
from rules.narcos.evolve import fold
from rules.narcos.state import (
    ELIMINATE_COST,
    can_draw,
    card_actions,
    eliminable,
    guns,
    last,
    on_rack,
    player,
    rack,
    rack_count,
    require,
    require_turn,
    richest,
    sirens,
)

RULE = "6.1"
PLATA = "6.1 Plata o plomo"


# -- what happens by itself ----------------------------------------------------------------
SOURCES = {"laboratory": "lab", "storage": "stored", "money": "money"}  # a payment's source -> the player's field
DEFAULT_SOURCE = "laboratory"  # what a clock pays a Police with when the seat could choose (ruling D5)


def owing(state: dict) -> list[str]:
    """The Police and Military on the rack when the danger activates, in rack order."""
    return [e["card"] for e in on_rack(state) if kind(e["card"]) in ("police", "military")]


def payment_options(state: dict, card: str) -> list[str]:
    """Where the seat may pay `card` from: a Police takes 1 merchandise from the Laboratory or the Storage
    ("de cualquier posición de su red"), 1 million only with no merchandise; a Military 1 million."""
    p = player(state, state["turn"]["seat"])
    goods = [source for source in ("laboratory", "storage") if p[SOURCES[source]] > 0]
    if kind(card) == "police" and goods:
        return goods
    return ["money"] if p["money"] > 0 else []


def settle(state: dict) -> list[Event]:
    """The danger activates once, the moment the level reaches 2 and the card that raised it stands."""
    t = state["turn"]
    if t["activated"] or sirens(state) < 2 or sirens(state) >= 3:
        return []
    return [Event("DangersActivated", {"seat": t["seat"], "owed": owing(state)})]


UNPAID = "unpaid"  # the window a card about to go unpaid opens from version 3 (ruling C1)
NO_TARGET = -1


def could_raise_money(state: dict) -> bool:
    """Whether the seat might raise the million an owed card needs before it goes unpaid: from version 3, when
    it holds a Cartel card (Money laundering takes a worker for 2 million) and a worker.  Only public facts are
    read (the hand's size, not which cards): asking only holders of Money laundering would tell the table."""
    p = player(state, state["turn"]["seat"])
    return rules_version(state) >= 3 and bool(p["hand"]) and p["workers"] > 0


def unpaid_asked(state: dict, card: str) -> Event:
    """The seat may raise money "en cualquier momento" before `card` goes unpaid (ruling C1)."""
    return Event("ReactionAsked", {"kind": UNPAID, "seat": state["turn"]["seat"], "attacker": NO_TARGET,
                                   "card": card})


def pay_automatic(state: dict) -> list[Event]:
    """Pay the owed cards in rack order while each has at most one way to be paid (none: it is unpaid);
    stop at a Police the seat must choose how to pay (`PayPolice`), and from version 3 before a card goes
    unpaid while the seat might still raise the money (the "unpaid" window, ruling C1)."""
    events: list[Event] = []
    while state["turn"]["owed"]:
        card = state["turn"]["owed"][0]
        options = payment_options(state, card)
        if len(options) > 1:
            break
        if not options and could_raise_money(state):
            events.append(unpaid_asked(state, card))
            break
        paid = Event("DangerPaid", {"seat": state["turn"]["seat"], "card": card,
                                    "paid": options[0] if options else None, "chosen": False})
        events.append(paid)
        state = fold(state, [paid])
    return events


def payment_pending(state: dict) -> bool:
    return bool(state["turn"]["owed"])


def require_paid(state: dict) -> None:
    require(not payment_pending(state), "say how you pay the Police first (PayPolice)", PLATA)


def bonus_of(state: dict, bust: bool) -> str | None:
    """"3 pistolas": 1 Cartel card; "4 pistolas": a choice of 1 sicario or 2 Cartel cards; none after fleeing."""
    if bust:
        return None
    count = guns(state)
    return "choice" if count >= 4 else "card" if count == 3 else None


def deal(state: dict, seat: int, count: int) -> list[Event]:
    """The top Cartel cards to a seat (secret to it); fewer when the deck runs short."""
    cards = state["cartel_deck"][:count]
    return [Event("CartelDealt", {"seat": seat, "count": len(cards), "secret": {"cards": cards}})] if cards else []


def end_draw(state: dict, reason: str) -> list[Event]:
    """DrawEnded, the 3-gun card, and the DEA agents turned this time leaving the rack."""
    t, bust = state["turn"], reason == "three sirens"
    seat = t["seat"]
    bonus = bonus_of(state, bust)
    events = [Event("DrawEnded", {"seat": seat, "reason": reason, "bust": bust, "guns": guns(state),
                                  "sirens": sirens(state), "actions": 1 if bust else card_actions(state),
                                  "bonus": bonus})]
    if bonus == "card":
        events += deal(state, seat, 1)
    for entry in rack(state):
        if kind(entry["card"]) == "dea":
            agent = CARDS[entry["card"]]["agent"]
            target = None if agent == "actions" else richest(state, None, seat)
            events.append(Event("DeaAgentMoved", {"agent": agent, "seat": target}))
    return events


def automatic(state: dict) -> list[Event]:
    """What Phase 1 does by itself: flee at 3 sirens, pay at 2, stop when unpaid, at 7 cards or an empty deck."""
    t = state["turn"]
    if t["peeked"] is not None:
        return []
    if t["owed"]:
        return pay_automatic(state)  # [] while the seat chooses how to pay a Police
    if sirens(state) >= 3:
        return end_draw(state, "three sirens")
    if t["fresh"]:
        return []  # the seat may still eliminate the card just turned
    activation = settle(state)
    if activation:
        return activation
    if any(e["status"] == "unpaid" for e in rack(state)):
        return end_draw(state, "unpaid")
    if rack_count(state) >= HAND_LIMIT and not (t["press_owed"] and rack_count(state) == HAND_LIMIT):
        return end_draw(state, "seven cards")
    if not state["deck"] and (rack(state) or t["press_owed"]):
        return end_draw(state, "deck empty")
    return []


def moving_on(state: dict) -> tuple[list[Event], bool, bool]:
    """Before the next step the card just turned stands: the danger activates and is paid as far as it
    pays itself; (events, drawing blocked by an unpaid card, a payment waiting for the seat's choice)."""
    events = settle(state)
    events += pay_automatic(fold(state, events))
    blocked = any(e.type == "DangerPaid" and e.data["paid"] is None for e in events)
    return events, blocked, payment_pending(fold(state, events))


def unpaid_end(state: dict, events: list[Event]) -> list[Event]:
    return events + end_draw(fold(state, events), "unpaid")


# -- commands ---------------------------------------------------------------------------
def can_stop(state: dict) -> bool:
    """Stand: after one card at least, unless a Press forces another card that can still be turned."""
    t = state["turn"]
    return bool(rack(state)) and t["peeked"] is None and not (t["press_owed"] and can_draw(state))


def decide_draw(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Turn the top card of the Narcos deck face up."""
    require_turn(state, seat, ("draw",), RULE)
    require_paid(state)
    require(state["turn"]["peeked"] is None, "place or decline the card you looked at first", "6.1 Snitch")
    require(can_draw(state), "no more cards may be turned now (7 cards, 3 sirens or an empty deck)", RULE)
    events, blocked, pending = moving_on(state)
    if pending:  # the danger activated: the seat says how it pays the Police first, then decides again
        return events
    if blocked:
        return unpaid_end(state, events)
    return events + [Event("CardDrawn", {"seat": seat, "card": state["deck"][0], "peeked": False})]


def decide_stop(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Stand: end the Actions phase with the cards on the rack."""
    require_turn(state, seat, ("draw",), RULE)
    require_paid(state)
    require(bool(rack(state)), "turn over at least one card first (DEA agents do not exempt you)", "6.1 DEA")
    require(not (state["turn"]["press_owed"] and can_draw(state)),
            "the Press forces you to turn another card (or eliminate it)", "6.1 Press")
    require(state["turn"]["peeked"] is None, "place or decline the card you looked at first", "6.1 Snitch")
    events, blocked, pending = moving_on(state)
    if pending:  # the danger activated: the seat says how it pays the Police first, then decides again
        return events
    return unpaid_end(state, events) if blocked else events + end_draw(fold(state, events), "stopped")


def decide_eliminate(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Send sicarios against the Police (1), Press (1) or Military (2) just turned."""
    require_turn(state, seat, ("draw",), PLATA)
    require_paid(state)
    entry = eliminable(state)
    require(entry is not None, "only a Police, Military or Press card can be eliminated, at the instant it appears",
            PLATA)
    cost = ELIMINATE_COST[kind(entry["card"])]
    require(player(state, seat)["sicarios"] >= cost, f"that takes {cost} sicario(s)", PLATA)
    return [Event("DangerEliminated", {"seat": seat, "card": entry["card"], "sicarios": cost, "by": "sicarios"})]


def can_peek(state: dict) -> bool:
    t = state["turn"]
    return t["snitch_ready"] and bool(state["deck"]) and rack_count(state) < HAND_LIMIT and t["peeked"] is None


def peek_event(state: dict, seat: int) -> Event:
    return Event("CardPeeked", {"seat": seat, "secret": {"card": state["deck"][0]}})


def decide_peek(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """The Snitch's tip: look privately at the next card."""
    require_turn(state, seat, ("draw",), "6.1 Snitch")
    require_paid(state)
    require(can_peek(state), "you may look at the next card right after a Snitch appears", "6.1 Snitch")
    return [peek_event(state, seat)]


def decide_place(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Put the card you looked at on the rack."""
    require_turn(state, seat, ("draw",), "6.1 Snitch")
    require_paid(state)
    require(state["turn"]["peeked"] is not None, "you have not looked at a card", "6.1 Snitch")
    return [Event("CardDrawn", {"seat": seat, "card": state["deck"][0], "peeked": True})]


def can_decline(state: dict) -> bool:
    """A peeked card may be left on the deck; from version 2 only once a card has been turned this turn
    (ruling D11: «no eximen al jugador de levantar al menos una carta en su fase de Acciones»)."""
    return state["turn"]["peeked"] is not None and (rules_version(state) < 2 or bool(rack(state)))


def decide_decline(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Leave the card you looked at on the deck: your turning of cards ends."""
    require_turn(state, seat, ("draw",), "6.1 Snitch")
    require_paid(state)
    require(state["turn"]["peeked"] is not None, "you have not looked at a card", "6.1 Snitch")
    require(can_decline(state), "turn over at least one card first: place the card you looked at "
            "(DEA agents do not exempt you)", "6.1 DEA")
    events = [Event("PeekDeclined", {"seat": seat})]
    after = fold(state, events)
    more, blocked, pending = moving_on(after)  # nothing is owed here: the card peeked after is settled first
    if pending:
        return events + more
    return events + more + end_draw(fold(after, more), "unpaid" if blocked else "declined")


def decide_bonus(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Four guns: 1 sicario or 2 Cartel cards."""
    require_turn(state, seat, ("bonus",), "6.1 advantages")
    choice = command["choice"]
    require(choice in ("sicario", "cartel"), "choose \"sicario\" or \"cartel\"", "6.1 advantages")
    if choice == "sicario":
        require(state["supply"] > 0, "no sicario is left in the supply", "6.1 advantages")
        return [Event("BonusChosen", {"seat": seat, "choice": choice, "sicario": True})]
    return [Event("BonusChosen", {"seat": seat, "choice": choice, "sicario": False})] + deal(state, seat, 2)


def decide_pay(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Say where the Police being paid takes its merchandise from: the Laboratory or the Storage."""
    require_turn(state, seat, ("draw",), PLATA)
    require(payment_pending(state), "no Police is waiting to be paid", PLATA)
    card, source = state["turn"]["owed"][0], command["source"]
    options = payment_options(state, card)
    require(source in options, f"{card} can be paid from: {', '.join(options)} (money only with no merchandise)",
            PLATA)
    paid = [Event("DangerPaid", {"seat": seat, "card": card, "paid": source, "chosen": True})]
    return paid + pay_automatic(fold(state, paid))


def payment_moves(state: dict) -> list[dict]:
    """A Police the seat must choose how to pay: one move per source it can pay from."""
    return [{"type": "PayPolice", "source": source} for source in payment_options(state, state["turn"]["owed"][0])]


def draw_moves(state: dict, seat: int) -> list[dict]:
    """The Actions phase's legal moves."""
    t = state["turn"]
    if t["owed"]:
        return payment_moves(state)
    if t["peeked"] is not None:
        return [{"type": "PlaceCard"}] + ([{"type": "DeclineCard"}] if can_decline(state) else [])
    moves = [{"type": "Draw"}] if can_draw(state) else []
    if can_stop(state):
        moves.append({"type": "Stop"})
    entry = eliminable(state)
    if entry and player(state, seat)["sicarios"] >= ELIMINATE_COST[kind(entry["card"])]:
        moves.append({"type": "Eliminate"})
    if can_peek(state):
        moves.append({"type": "Peek"})
    return moves


__all__ = ["automatic", "decide_draw", "last"]
