"""Trade: with the other players (offers to one or all, counter-offers, accept or decline; the offers
block, the clock declines), with the bank 4:1, at loading docks 3:1 and 2:1, and Longest Tunnel's
four-any-for-one."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.blocks import offers
from rules.folding import rules_version
from rules.lords_of_cannabis import guards
from rules.lords_of_cannabis.board import RESOURCE_INDEX, RESOURCES
from rules.lords_of_cannabis.guards import TRADE, TUNNELS
from rules.lords_of_cannabis.state import bank_rates, can_pay

TERMS_SHAPE = 'terms are {"give": {RESOURCE: count, ...}, "get": {RESOURCE: count, ...}}'


def counts_of(cards) -> list[int]:
    """A {"FUEL": 2} side of the terms as a count per resource (IllegalMove if malformed)."""
    if not isinstance(cards, dict) or not cards:
        raise IllegalMove(TERMS_SHAPE + ", each side naming at least one card", rule=TRADE)
    out = [0] * 5
    for name, n in cards.items():
        if name not in RESOURCE_INDEX or not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 25:
            raise IllegalMove(f"{name!r}: {n!r} is not a resource and a count of 1-25 ({TERMS_SHAPE})", rule=TRADE)
        out[RESOURCE_INDEX[name]] = n
    return out


def check_terms(terms, hand: list[int]) -> dict:
    """Well-formed terms whose `give` side the proposer holds; the terms in one spelling."""
    if not isinstance(terms, dict) or set(terms) != {"give", "get"}:
        raise IllegalMove(TERMS_SHAPE, rule=TRADE)
    give, get = counts_of(terms["give"]), counts_of(terms["get"])
    if any(g and t for g, t in zip(give, get)):
        raise IllegalMove("a resource cannot be on both sides of a trade", rule=TRADE)
    if not can_pay(hand, give):
        raise IllegalMove("you do not hold the cards you offer", rule=TRADE)
    return {"give": {RESOURCES[r]: n for r, n in enumerate(give) if n},
            "get": {RESOURCES[r]: n for r, n in enumerate(get) if n}}


# Ruling 20: version 2 only.  An announcement is an offer (to one player or to all) or a counter-offer; a
# version-2 turn has at most this many.  The rulebook sets no number ("On your turn you may trade any of your
# Stash Cards with the other players"): the cap was added against a search bot's stall, which the bot's own
# fix cures, so version 3 drops it (versions 1 and 3: any number of offers a turn).
OFFERS_PER_TURN = 3
OFFER_CAP_RULE = "ruling 20 (version 2)"  # not a rulebook heading: the Trade heading has no such limit


def offers_left(state: dict) -> int | None:
    """Offers and counter-offers the turn still allows (None: no limit, versions 1 and 3 on)."""
    if rules_version(state) != 2:
        return None
    return max(0, OFFERS_PER_TURN - state.get("offers_announced", 0))


def _may_announce(state: dict, what: str) -> None:
    if offers_left(state) == 0:
        raise IllegalMove(f"{what}: a version-2 game allows at most {OFFERS_PER_TURN} offers and counter-offers a "
                          "turn (ruling 20, not in the rulebook), and this turn has had them (accept or decline the "
                          "open ones, or get on with the turn)", rule=OFFER_CAP_RULE)


def _offering(state: dict, seat: int) -> None:
    """ "making offers to trade cards with other players can only be initiated by the person whose turn it is" """
    guards.my_action(state, seat, "trading", TRADE, after_roll=False)
    _may_announce(state, "no more offers this turn")


def decide_make_offer(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    _offering(state, seat)
    to = command["to"]
    if to == seat or to not in range(state["seats"]):
        raise IllegalMove("an offer goes to another player at the table", rule=TRADE)
    terms = check_terms(command["terms"], state["hands"][seat])
    return offers.make(state["offers"], seat, to, terms)


def decide_offer_to_all(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """An offer to all: the same terms to every other player, each answering on their own."""
    _offering(state, seat)
    terms = check_terms(command["terms"], state["hands"][seat])
    return offers.make_each(state["offers"], seat, [s for s in range(state["seats"]) if s != seat], terms)


def decide_accept(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """The addressee accepts and the cards change hands; the proposer's other open offers close."""
    found = offers.offer(state["offers"], command["offer"])
    accepted = offers.accept(state["offers"], seat, found["id"])
    if not can_pay(state["hands"][seat], counts_of(found["terms"]["get"])):
        raise IllegalMove("you do not hold the cards asked for", rule=TRADE)
    if not can_pay(state["hands"][found["from"]], counts_of(found["terms"]["give"])):
        raise IllegalMove(f"seat {found['from']} no longer holds the cards offered", rule=TRADE)
    others = [o for o in sorted(state["offers"]["open"].values(), key=lambda o: o["id"]) if o["id"] != found["id"]]
    return accepted + [Event("StashTraded", {"from": found["from"], "to": seat, "terms": found["terms"]})] + [
        Event("OfferWithdrawn", {"offer": o["id"], "by": o["from"]}) for o in others]


def decide_decline(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    return offers.decline(state["offers"], seat, command["offer"])


def decide_counter(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "You are free to accept offers from any of the players and make counter-offers as well." """
    offers.offer(state["offers"], command["offer"])
    _may_announce(state, "no more counter-offers this turn")
    terms = check_terms(command["terms"], state["hands"][seat])
    return offers.counter(state["offers"], seat, command["offer"], terms)


def decide_bank_trade(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """ "Any four matching Resource Cards may be traded in for one Stash Card of your choice", three with a
    "?" dock, two of a dock's resource."""
    guards.my_action(state, seat, "trading with the bank", TRADE, after_roll=False)
    give, get = guards.resource(command["give"], TRADE), guards.resource(command["get"], TRADE)
    rate = bank_rates(state, seat)[give]
    if give == get:
        raise IllegalMove("trade a resource for another one", rule=TRADE)
    if state["hands"][seat][give] < rate:
        raise IllegalMove(f"you need {rate} {RESOURCES[give]} to trade with the bank", rule=TRADE)
    if not state["bank"][get]:
        raise IllegalMove(f"the bank has no {RESOURCES[get]} left", rule=TRADE)
    return [Event("BankTraded", {"seat": seat, "give": {RESOURCES[give]: rate}, "get": RESOURCES[get]})]


def decide_any_four(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Longest Tunnel "allows the recipient to exchange a combination of any four Resource Cards into the
    bank for one resource of his choice" """
    guards.my_action(state, seat, "trading with the bank", TRADE, after_roll=False)
    if state["longest"] != seat:
        raise IllegalMove("only the holder of the Longest Tunnel card trades any four cards", rule=TUNNELS)
    get = guards.resource(command["get"], TRADE)
    names = command["give"]
    if len(names) != 4 or any(n not in RESOURCE_INDEX for n in names):
        raise IllegalMove("give exactly four Stash cards, by resource name", rule=TUNNELS)
    give = {n: names.count(n) for n in sorted(set(names))}
    if not can_pay(state["hands"][seat], counts_of(give)):
        raise IllegalMove("you do not hold those four cards", rule=TUNNELS)
    if not state["bank"][get]:
        raise IllegalMove(f"the bank has no {RESOURCES[get]} left", rule=TRADE)
    return [Event("BankTraded", {"seat": seat, "give": give, "get": RESOURCES[get]})]


def example_terms(hand: list[int]) -> dict | None:
    """A well-formed offer this hand can make (legal moves list it; any other terms may be sent)."""
    held = next((r for r in range(5) if hand[r]), None)
    if held is None:
        return None
    return {"give": {RESOURCES[held]: 1}, "get": {RESOURCES[(held + 1) % 5]: 1}}


def any_four_example(hand: list[int]) -> list[str]:
    cards = [RESOURCES[r] for r in range(5) for _ in range(hand[r])]
    return cards[:4]


def moves(state: dict, seat: int) -> list[dict]:
    """Trades the active player may start now (no offer is waiting)."""
    hand, bank, out = state["hands"][seat], state["bank"], []
    rates = bank_rates(state, seat) if max(hand) >= 2 else (4,) * 5
    for give in range(5):
        if hand[give] >= rates[give]:
            out += [{"type": "TradeWithBank", "give": RESOURCES[give], "get": RESOURCES[get]}
                    for get in range(5) if get != give and bank[get]]
    if state["longest"] == seat and sum(hand) >= 4:
        four = any_four_example(hand)
        out += [{"type": "TradeAnyFour", "give": four, "get": RESOURCES[get]} for get in range(5) if bank[get]]
    terms = example_terms(hand)
    if terms is not None and offers_left(state) != 0:
        out += [{"type": "MakeOffer", "to": s, "terms": terms} for s in range(state["seats"]) if s != seat]
        out.append({"type": "OfferToAll", "terms": terms})
    return out


def answer_moves(state: dict, seat: int) -> list[dict]:
    """Answers to the open offers addressed to the seat: accept (if it holds what is asked), decline, counter."""
    hand, out = state["hands"][seat], []
    counter = example_terms(hand) if offers_left(state) != 0 else None
    for found in sorted(state["offers"]["open"].values(), key=lambda o: o["id"]):
        if found["to"] != seat:
            continue
        if can_pay(hand, counts_of(found["terms"]["get"])):
            out.append({"type": "AcceptOffer", "offer": found["id"]})
        out.append({"type": "DeclineOffer", "offer": found["id"]})
        if counter is not None:
            out.append({"type": "CounterOffer", "offer": found["id"], "terms": counter})
    return out
