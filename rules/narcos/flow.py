"""The flow: setting up (4), starting and ending turns, the Round 2 trigger and the end (5, 2),
the automatic steps between decisions, who acts and what a clock answers."""
from __future__ import annotations

from collections import Counter

from rules.base import Event, Rng
from rules.folding import rules_version
from rules.narcos import draw, improve, manage
from rules.narcos.cartel import DEA_MONEY, NO_TARGET, cartel_moves, reaction_moves
from rules.narcos.data import CARDS, CARTEL_DECK, CITIES, CITY_TOKENS, DECK, SICARIOS, START_SICARIOS, kind
from rules.narcos.state import improvements_free, player, require_turn, richest

RULE = "5"


# -- setting up ---------------------------------------------------------------------
def kinds(cards: list[str]) -> dict:
    """A deck's public composition: how many cards of each kind."""
    return dict(sorted(Counter(kind(c) for c in cards).items()))


def opening(options: dict, seats: int, rng: Rng) -> list[Event]:
    """Set-up: the permanent Dealer (basic) or city tokens (advanced), the Round 2 reserve, the shuffled
    Round 1 deck, the Cartel deck and one Cartel card a seat; the first player is drawn."""
    mode = options["mode"]
    reserve = [c["id"] for c in DECK if c["round"] == 2]
    permanent, tokens = None, None
    if mode == "basic":  # "Separa 1 traficante de cada ciudad, mézclalos y deja uno al azar junto al mazo"
        permanent = rng.choice([next(c["id"] for c in DECK if c["kind"] == "dealer" and c["city"] == city)
                                for city in CITIES])
    else:  # "4 tokens que se colocarán de forma aleatoria en las ciudades"
        tokens = dict(zip(CITIES, rng.shuffled(list(CITY_TOKENS))))
    round_one = [c["id"] for c in DECK if c["round"] == 1 and c["id"] != permanent]
    order = rng.shuffled(round_one)
    cartel = rng.shuffled([c["id"] for c in CARTEL_DECK if mode == "advanced" or not c["advanced_only"]])
    events = [Event("GameStarted", {"seats": seats, "mode": mode, "first": rng.randbelow(seats),
                                    "permanent": permanent, "tokens": tokens, "reserve": reserve,
                                    "supply": SICARIOS - START_SICARIOS * seats}),
              Event("DeckShuffled", {"round": 1, "count": len(order), "kinds": kinds(order),
                                     "secret": {"order": order}}),
              Event("CartelShuffled", {"count": len(cartel), "secret": {"order": cartel}})]
    for seat in range(seats):
        events.append(Event("CartelDealt", {"seat": seat, "count": 1, "secret": {"cards": cartel[seat:seat + 1]}}))
    return events


# -- turns and rounds --------------------------------------------------------------------
def agents_on(state: dict, seat: int) -> list[str]:
    """DEA agents pursuing the seat: each is a siren (and an action) before it turns a card."""
    return [agent for agent in ("actions", "money") if state["dea"][agent] == seat]


def turn_start(state: dict, seat: int) -> Event:
    return Event("TurnStarted", {"seat": seat, "agents": agents_on(state, seat)})


def round_two(state: dict, rng: Rng, seat: int | None) -> list[Event]:
    """Shuffle the discards, the reserved cards and whatever is left of the deck into the Round 2 deck."""
    order = rng.shuffled(state["deck"] + state["discard"] + state["reserve"])
    return [Event("RoundTwoStarted", {"called_by": seat, "left_in_deck": len(state["deck"])}),
            Event("DeckShuffled", {"round": 2, "count": len(order), "kinds": kinds(order),
                                   "secret": {"order": order}})]


def decide_play_on(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """With fewer than 7 cards left in Round 1: play them."""
    require_turn(state, seat, ("start",), RULE)
    return [Event("PlayedOn", {"seat": seat, "left_in_deck": len(state["deck"])})]


def decide_round_two(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """With fewer than 7 cards left in Round 1: prepare the Round 2 deck now."""
    require_turn(state, seat, ("start",), RULE)
    return round_two(state, rng, seat)


def end_turn(state: dict) -> list[Event]:
    """The rack goes to the discard pile (bought cards and DEA agents excepted)."""
    t = state["turn"]
    gone = [e["card"] for e in t["table"] if kind(e["card"]) != "dea" and e["card"] not in t["bought"]]
    return [Event("TurnEnded", {"seat": t["seat"], "discarded": gone})]


def final_money(state: dict) -> list[int]:
    return [p["money"] + p["uncollected"] for p in state["players"]]


def game_end(state: dict) -> Event:
    """Most money wins; a tie goes to the most merchandise in the network, then is shared."""
    money = final_money(state)
    top = max(money)
    tied = [s for s, m in enumerate(money) if m == top]
    goods = {s: player(state, s)["lab"] + player(state, s)["stored"] for s in tied}
    most = max(goods.values())
    winners = [s for s in tied if goods[s] == most]
    reason = "the Round 2 deck ran out: the most money wins" + (" (tie broken by merchandise)" if len(tied) > 1 else "")
    return Event("GameEnded", {"winners": winners, "money": money, "reason": reason})


def spends_within_reach(state: dict, seat: int) -> set[int]:
    """Every amount the seat could spend now on sicarios, from public facts: workers converted at 2 million
    each and, for each Cartel card it holds (any may be Recruitment), 1 million; each takes a sicario from the
    supply (ruling S3), and all of it is paid from the seat's money."""
    p = player(state, seat)
    spends = set()
    for converted in range(min(p["workers"], state["supply"]) + 1):
        for recruited in range(min(len(p["hand"]), state["supply"] - converted) + 1):
            if 2 * converted + recruited <= p["money"]:
                spends.add(2 * converted + recruited)
    return spends


def could_shed_agent(state: dict, seat: int) -> bool:
    """Whether spending money now could leave the DEA agent of money with another seat at this turn's end."""
    holder, start = state["dea"]["money"], state["turn"]["seat"]
    for spent in spends_within_reach(state, seat) - {0}:
        poorer = {**state, "players": [{**p, "money": p["money"] - spent} if s == seat else p
                                       for s, p in enumerate(state["players"])]}
        if richest(poorer, holder, start) != seat:
            return True
    return False


def agent_window(state: dict) -> list[Event]:
    """From version 3, before the DEA agent of money follows the richest at a turn's end: the seat whose turn
    comes next, if it would carry the agent into that turn («1 sirena de peligro en todos sus turnos
    siguientes») and could spend its way out of it, may first convert workers or play Recruitment (ruling C1)."""
    holder, t = state["dea"]["money"], state["turn"]
    if rules_version(state) < 3 or not isinstance(holder, int) or t.get("dea_asked"):
        return []
    if not state["deck"] and state["round"] == 2:
        return []  # the game ends: no next turn to carry the agent into
    nxt = (t["seat"] + 1) % state["seats"]
    if richest(state, holder, t["seat"]) != nxt or not could_shed_agent(state, nxt):
        return []
    return [Event("ReactionAsked", {"kind": DEA_MONEY, "seat": nxt, "attacker": NO_TARGET, "card": "dea-money"})]


def between_turns(state: dict, rng: Rng) -> list[Event]:
    """After a turn: the money agent follows the richest (from version 3 the next seat may first spend its
    way out of it); then Round 2, the end, or the next seat."""
    asked = agent_window(state)
    if asked:
        return asked
    holder = state["dea"]["money"]
    if isinstance(holder, int) and richest(state, holder, state["turn"]["seat"]) != holder:
        return [Event("DeaAgentMoved", {"agent": "money", "seat": richest(state, holder, state["turn"]["seat"])})]
    if not state["deck"] and state["round"] == 1:
        return round_two(state, rng, None)
    if not state["deck"]:
        return [game_end(state)]
    return [turn_start(state, (state["turn"]["seat"] + 1) % state["seats"])]


def step(state: dict, rng: Rng) -> list[Event]:
    """The next automatic events, or [] when a seat must decide (Ruleset.settle runs them)."""
    if state["ended"] is not None or state["window"] is not None:
        return []  # a window waits for its seat's answer (before version 3 none is open at an automatic step)
    phase = state["turn"]["phase"]
    if phase == "setup":
        return [turn_start(state, state["first"])]
    if phase == "draw":
        return draw.automatic(state)
    if phase == "sales":
        return manage.sales_automatic(state)
    if phase == "buys":
        skipped = improve.buys_automatic(state)
        if skipped:
            return skipped
        if improve.buys_head(state) is None or not improvements_free(state):
            return end_turn(state)
        return []
    if phase == "over":
        return between_turns(state, rng)
    return []


# -- who acts ------------------------------------------------------------------------
def actor(state: dict) -> int | None:
    """The one seat that must decide now."""
    if state["ended"] is not None:
        return None
    if state["window"] is not None:  # a reaction asked of another seat (Burn the crops' target)
        return state["window"]["waiting"][0]
    t = state["turn"]
    if t["phase"] == "sales":
        return manage.sales_head(state)
    if t["phase"] == "buys":
        return improve.buys_head(state)
    if t["phase"] in ("start", "draw", "bonus", "manage", "close", "improve"):
        return t["seat"]
    return None


def any_moment(state: dict) -> bool:
    """Whether the seat that must decide may also play an "any" Cartel card or convert a worker: from
    version 2 whenever it is awaited; version 1 not while a peeked card or a Police payment awaits it."""
    t = state["turn"]
    return rules_version(state) >= 2 or (t["peeked"] is None and not t["owed"])


def legal_moves(state: dict, seat: int) -> list[dict]:
    if actor(state) != seat:
        return []
    t = state["turn"]
    phase = t["phase"]
    if state["window"] is not None:
        moves = reaction_moves(state, seat)
    elif phase == "start":
        moves = [{"type": "PlayOn"}, {"type": "StartRoundTwo"}]
    elif phase == "draw":
        moves = draw.draw_moves(state, seat) + cartel_moves(state, seat, ("draw",))
    elif phase == "bonus":
        moves = [{"type": "ChooseBonus", "choice": "cartel"}]
        if state["supply"] > 0:
            moves.append({"type": "ChooseBonus", "choice": "sicario"})
    elif phase == "manage":
        moves = manage.manage_moves(state, seat) + cartel_moves(state, seat, ("manage",))
    elif phase == "close":
        moves = manage.close_moves(state, seat)
    elif phase == "sales":
        moves = manage.sale_moves(state, seat) + [{"type": "PassSale"}]
    elif phase == "improve":
        moves = improve.improve_moves(state, seat)
    else:  # buys
        moves = improve.buy_moves(state, seat) + [{"type": "PassBuy"}]
    if any_moment(state):  # "en cualquier momento": whenever the seat is awaited (ruling C1)
        moves += cartel_moves(state, seat, ("any",))
        if manage.can_convert(state, seat):
            moves.append({"type": "ConvertWorker"})
    return moves


def awaiting(state: dict) -> dict[int, str]:
    seat = actor(state)
    if seat is None:
        return {}
    return {seat: "move" if seat == state["turn"]["seat"] else "response"}


TIMEOUTS = {"start": {"type": "PlayOn"}, "bonus": {"type": "ChooseBonus", "choice": "cartel"},
            "manage": {"type": "EndActions"}, "close": {"type": "CollectSales"}, "sales": {"type": "PassSale"},
            "improve": {"type": "PassImprovement"}, "buys": {"type": "PassBuy"}}


def timeout_default(state: dict, seat: int) -> dict:
    """A clock stands (or turns the card a Press forces, or declines a peeked card), pays a Police from the
    Laboratory when it could choose (else the Storage), lets an attack happen and passes everything else."""
    if state["window"] is not None:
        return {"type": "PassReaction"}
    phase = state["turn"]["phase"]
    if phase != "draw":
        return TIMEOUTS[phase]
    moves = legal_moves(state, seat)
    for preferred in ({"type": "PayPolice", "source": draw.DEFAULT_SOURCE}, {"type": "DeclineCard"},
                      {"type": "Stop"}, {"type": "Draw"}):
        if preferred in moves:
            return preferred
    return moves[0]


__all__ = ["CARDS", "legal_moves", "step"]
