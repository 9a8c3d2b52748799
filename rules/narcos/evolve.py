"""Evolve: one small pure function per event; each copies what it changes and never rolls."""
from __future__ import annotations

from functools import partial

from rules.blocks import windows
from rules.narcos.data import CARDS, CITIES, START_MONEY, START_SICARIOS, START_WORKERS, STARTING, cartel_kind, kind
from rules.narcos.state import rack_count
from rules.ruleset import evolve_all, rules_version


def _players(state: dict, seat: int, **delta: int) -> list[dict]:
    """The players list with numeric fields of one player moved by `delta`."""
    players = list(state["players"])
    p = dict(players[seat])
    for key, change in delta.items():
        p[key] += change
    players[seat] = p
    return players


def _set_player(state: dict, seat: int, **values) -> list[dict]:
    players = list(state["players"])
    players[seat] = {**players[seat], **values}
    return players


def _turn(state: dict, **values) -> dict:
    return {**state["turn"], **values}


def _status(state: dict, card: str, status: str) -> list[dict]:
    return [{**e, "status": status} if e["card"] == card else e for e in state["turn"]["table"]]


def new_turn(seat: int, phase: str, agents: list) -> dict:
    return {"seat": seat, "phase": phase, "table": [], "dea": len(agents), "agents": list(agents),
            "activated": False, "owed": [], "fresh": False, "press_owed": False, "peeked": None, "snitch_ready": False,
            "bust": False, "actions": 0, "performed": 0, "used_dealers": [], "fallback_used": False,
            "free_used": False, "queue": [], "bought": [], "confiscated": {"goods": 0, "money": 0}}


# -- setting up -------------------------------------------------------------------
def started(state: None, d: dict) -> dict:
    seats = d["seats"]
    player = {"money": START_MONEY, "uncollected": 0, "workers": START_WORKERS, "sicarios": START_SICARIOS,
              "crops": 1, "laboratory": STARTING["laboratory"], "lab": 1, "transport": STARTING["transport"],
              "storage": STARTING["storage"], "stored": 0, "hand": [], "backs": 0, "spent": []}
    return {"seats": seats, "mode": d["mode"], "round": 1, "first": d["first"], "current": d["first"],
            "deck": [], "pool": {}, "seen": [], "reserve": list(d["reserve"]), "discard": [],
            "cartel_deck": [], "cartel_discard": [], "permanent": d["permanent"], "tokens": d["tokens"],
            "warehouse": {"goods": 0, "money": 0}, "cities": {c: [0] * seats for c in CITIES},
            "supply": d["supply"], "players": [dict(player) for _ in range(seats)],
            "dea": {"actions": None, "money": None}, "turn": new_turn(d["first"], "setup", []), "window": None,
            "declined": None, "ended": None}


def shuffled(state: dict, d: dict) -> dict:
    return {**state, "deck": list(d["secret"]["order"]), "pool": dict(d["kinds"]), "seen": [], "declined": None}


def cartel_shuffled(state: dict, d: dict) -> dict:
    return {**state, "cartel_deck": list(d["secret"]["order"])}


def cartel_dealt(state: dict, d: dict) -> dict:
    cards = d["secret"]["cards"]
    return {**state, "cartel_deck": state["cartel_deck"][len(cards):],
            "players": _set_player(state, d["seat"], hand=state["players"][d["seat"]]["hand"] + list(cards))}


# -- the turn and the rounds ---------------------------------------------------------
def turn_started(state: dict, d: dict) -> dict:
    phase = "start" if state["round"] == 1 and len(state["deck"]) < 7 else "draw"
    return {**state, "current": d["seat"], "turn": new_turn(d["seat"], phase, d["agents"])}


def played_on(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, phase="draw")}


def round_two_started(state: dict, d: dict) -> dict:
    t = state["turn"]
    turn = {**t, "phase": "draw"} if t["phase"] == "start" else t  # called at the start of a turn: draw from it
    return {**state, "round": 2, "deck": [], "discard": [], "reserve": [], "seen": [], "turn": turn}


NOTHING_CONFISCATED = {"goods": 0, "money": 0}


def _confiscations_leave(state: dict) -> dict:
    """The Police cards' merchandise and money leave them: to the Police Warehouse in advanced mode, off the
    table in basic mode (its white cubes back to the supply, ruling K1)."""
    warehouse = dict(state["warehouse"])
    if state["mode"] == "advanced":  # "cuando termine la fase de juego, envíalo al almacén policial (avanzado)"
        warehouse = {k: warehouse[k] + state["turn"]["confiscated"][k] for k in warehouse}
    return {**state, "warehouse": warehouse, "turn": _turn(state, confiscated=dict(NOTHING_CONFISCATED))}


def turn_ended(state: dict, d: dict) -> dict:
    t = state["turn"]
    state = _confiscations_leave(state)  # version 1 (ruling A5); from version 2 nothing is left by now
    dea = dict(state["dea"])
    if "actions" in t["agents"] and dea["actions"] == t["seat"]:
        dea["actions"] = "watching"  # "El agente se irá tras dicho turno"
    return {**state, "discard": state["discard"] + list(d["discarded"]), "dea": dea,
            "turn": _turn(state, phase="over")}


def game_ended(state: dict, d: dict) -> dict:
    return {**state, "ended": {"winners": list(d["winners"]), "money": list(d["money"]), "reason": d["reason"]}}


# -- Phase 1: turning cards ------------------------------------------------------------
def card_drawn(state: dict, d: dict) -> dict:
    t, card = state["turn"], d["card"]
    before = rack_count(state)
    status = "removed" if before >= 7 and CARDS[card]["side"] == "gun" else "on"  # the eighth card after a Press
    sirens_after = t["dea"] + sum(CARDS[e["card"]]["side"] == "siren" for e in t["table"]
                                  if e["status"] in ("on", "unpaid")) + (CARDS[card]["side"] == "siren")
    fresh = kind(card) in ("police", "military", "press") and sirens_after < 3
    dea = dict(state["dea"])
    if kind(card) == "dea":
        dea[CARDS[card]["agent"]] = "table"
    return {**state, "deck": state["deck"][1:], "seen": state["seen"] + [card], "dea": dea, "declined": None,
            "turn": _turn(state, table=t["table"] + [{"card": card, "status": status}], fresh=fresh,
                          press_owed=kind(card) == "press" and before < 7, peeked=None,
                          snitch_ready=kind(card) == "snitch")}


def eliminated(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], sicarios=-d["sicarios"]),
            "supply": state["supply"] + d["sicarios"],
            "turn": _turn(state, table=_status(state, d["card"], "eliminated"), fresh=False,
                          press_owed=False if kind(d["card"]) == "press" else state["turn"]["press_owed"])}


def activated(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, activated=True, fresh=False, owed=list(d["owed"]))}


PAID_FROM = {"laboratory": "lab", "storage": "stored", "money": "money"}


def danger_paid(state: dict, d: dict) -> dict:
    t, card = state["turn"], d["card"]
    owed = [c for c in t["owed"] if c != card]
    if d["paid"] is None:  # "Si no les puedes pagar, NO contarás esas carta para tus acciones"
        return {**state, "turn": _turn(state, owed=owed, table=_status(state, card, "unpaid"))}
    conf = dict(t["confiscated"])
    if kind(card) == "police":  # left on the Police card, to the Police Warehouse when the turn ends
        conf["money" if d["paid"] == "money" else "goods"] += 1
    return {**state, "players": _players(state, d["seat"], **{PAID_FROM[d["paid"]]: -1}),
            "turn": _turn(state, owed=owed, confiscated=conf)}


def peeked(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, peeked=d["secret"]["card"], snitch_ready=False, fresh=False)}


def peek_declined(state: dict, d: dict) -> dict:
    # the card stays on top of the deck, known to the seat that looked until someone turns it (search.py)
    declined = {"seat": d["seat"], "card": state["turn"]["peeked"]}
    return {**state, "declined": declined, "turn": _turn(state, peeked=None)}


def draw_ended(state: dict, d: dict) -> dict:
    phase = "bonus" if d["bonus"] == "choice" else "manage"
    if rules_version(state) >= 2:  # "cuando termine la fase de juego": the Actions phase (ruling A5)
        state = _confiscations_leave(state)
    return {**state, "turn": _turn(state, phase=phase, bust=d["bust"], actions=d["actions"], fresh=False,
                                   press_owed=False, snitch_ready=False, peeked=None)}


def dea_moved(state: dict, d: dict) -> dict:
    return {**state, "dea": {**state["dea"], d["agent"]: d["seat"] if d["seat"] is not None else "watching"}}


def bonus_chosen(state: dict, d: dict) -> dict:
    gained = 1 if d["sicario"] else 0
    return {**state, "players": _players(state, d["seat"], sicarios=gained), "supply": state["supply"] - gained,
            "turn": _turn(state, phase="manage")}


# -- Phase 2: management -------------------------------------------------------------
def _spend(state: dict, cost: int) -> dict:
    t = state["turn"]
    return _turn(state, actions=t["actions"] - cost, performed=t["performed"] + cost)


def produced(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], lab=d["units"]), "turn": _spend(state, d["cost"])}


def shipped(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], lab=-d["units"], stored=d["units"]),
            "turn": _spend(state, d["cost"])}


def delivered(state: dict, d: dict) -> dict:
    seat = d["seat"]
    players = _players(state, seat, stored=-d["units"], uncollected=d["paid"] + d["bonus"], workers=-d["workers"])
    for given in d["tribute"]:
        players[given["seat"]] = {**players[given["seat"]], "stored": players[given["seat"]]["stored"] + given["kept"]}
    cities = state["cities"]
    if d["workers"]:
        cities = {**cities, d["city"]: [n + d["workers"] if s == seat else n for s, n in enumerate(cities[d["city"]])]}
    t = _spend(state, d["cost"])
    if d["dealer"] is None:
        t["fallback_used"] = True
    else:
        t["used_dealers"] = t["used_dealers"] + [d["dealer"]]
    if seat == t["seat"] and t["phase"] == "close":
        t["free_used"] = True
    return {**state, "players": players, "cities": cities, "turn": t}


def worker_spent(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], workers=-1),
            "turn": _turn(state, actions=state["turn"]["actions"] + 1)}


def back_spent(state: dict, d: dict) -> dict:
    p = state["players"][d["seat"]]
    hand = list(p["hand"])
    hand.remove(d["secret"]["card"])
    # which card lies face down is known to its owner only (search.py); a snapshot older than the list lacks it
    spent = p.get("spent", []) + [d["secret"]["card"]]
    players = _set_player(state, d["seat"], hand=hand, backs=p["backs"] + 1, spent=spent)
    return {**state, "players": players, "turn": _turn(state, actions=state["turn"]["actions"] + 1)}


def worker_converted(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], workers=-1, money=-2, sicarios=1),
            "supply": state["supply"] - 1}


def cartel_played(state: dict, d: dict) -> dict:
    seat, card = d["seat"], d["card"]
    hand = [c for c in state["players"][seat]["hand"] if c != card]
    state = {**state, "players": _set_player(state, seat, hand=hand),
             "cartel_discard": state["cartel_discard"] + [card]}
    design = cartel_kind(card)
    if design == "rob-warehouse":
        w = state["warehouse"]
        return {**state, "players": _players(state, seat, sicarios=-2, lab=w["goods"], money=w["money"]),
                "supply": state["supply"] + 2, "warehouse": {"goods": 0, "money": 0}}
    if design == "burn-crops":  # the sicario goes; the crop burns unless its owner answers (CropBurned)
        return {**state, "players": _players(state, seat, sicarios=-1), "supply": state["supply"] + 1}
    if design == "crop-guards":  # the answer to Burn the crops: the crop is saved, the window closes
        return {**state, "window": None}
    if design == "recruit":
        return {**state, "players": _players(state, seat, money=-1, sicarios=1), "supply": state["supply"] - 1}
    if design == "laundering":  # the money an owed card needed: the "unpaid" window is answered (version 3)
        w = state["window"]
        window = None if w is not None and w["kind"] == "unpaid" else w
        return {**state, "players": _players(state, seat, workers=-1, money=2), "window": window}
    return state  # lawyer, tip-off, bumper crop, secret route: their effect is the event that follows


def reaction_asked(state: dict, d: dict) -> dict:
    return {**state, "window": windows.open_window(d["kind"], [d["seat"]], attacker=d["attacker"], card=d["card"])}


def reaction_passed(state: dict, d: dict) -> dict:
    window = windows.answered(state["window"], d["seat"], "pass")
    state = {**state, "window": None if windows.is_closed(window) else window}
    if d["kind"] == "dea-money":  # asked once a turn's end (version 3)
        return {**state, "turn": _turn(state, dea_asked=True)}
    return state


def crop_burned(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], crops=-1)}


def actions_ended(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, phase="close", actions=0)}


def collected(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], money=d["amount"], uncollected=-d["amount"])}


def management_ended(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, phase="sales", queue=list(d["queue"]))}


def sale_passed(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, queue=[s for s in state["turn"]["queue"] if s != d["seat"]])}


def sales_closed(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, phase="improve", queue=[])}


# -- Phase 3: improvements -------------------------------------------------------------
def _buys_queue(state: dict) -> list[int]:
    seat, n = state["turn"]["seat"], state["seats"]
    return [(seat + i) % n for i in range(1, n)]


def bought(state: dict, d: dict) -> dict:
    seat, card = d["seat"], d["card"]
    slot = kind(card)
    players = _players(state, seat, money=-d["price"])
    players[seat] = {**players[seat], slot: card}
    discard = state["discard"] + ([d["replaced"]] if d["replaced"] in CARDS and "side" in CARDS[d["replaced"]] else [])
    t = _turn(state, bought=state["turn"]["bought"] + [card])
    if t["phase"] == "improve":
        t.update(phase="buys", queue=_buys_queue(state))
    else:
        t["queue"] = [s for s in t["queue"] if s != seat]
    return {**state, "players": players, "discard": discard, "turn": t}


def crop_added(state: dict, d: dict) -> dict:
    return {**state, "players": _players(state, d["seat"], money=-d["price"], crops=1),
            "turn": _turn(state, phase="buys", queue=_buys_queue(state))}


def improvement_passed(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, phase="buys", queue=_buys_queue(state))}


def buy_passed(state: dict, d: dict) -> dict:
    return {**state, "turn": _turn(state, queue=[s for s in state["turn"]["queue"] if s != d["seat"]])}


EVOLVERS = {
    "GameStarted": started, "DeckShuffled": shuffled, "CartelShuffled": cartel_shuffled, "CartelDealt": cartel_dealt,
    "TurnStarted": turn_started, "PlayedOn": played_on, "RoundTwoStarted": round_two_started,
    "TurnEnded": turn_ended, "GameEnded": game_ended,
    "CardDrawn": card_drawn, "DangerEliminated": eliminated, "DangersActivated": activated, "DangerPaid": danger_paid,
    "CardPeeked": peeked,
    "PeekDeclined": peek_declined, "DrawEnded": draw_ended, "DeaAgentMoved": dea_moved, "BonusChosen": bonus_chosen,
    "Produced": produced, "Shipped": shipped, "Delivered": delivered, "WorkerSpent": worker_spent,
    "CartelBackSpent": back_spent, "WorkerConverted": worker_converted, "CartelPlayed": cartel_played,
    "ReactionAsked": reaction_asked, "ReactionPassed": reaction_passed, "CropBurned": crop_burned,
    "ActionsEnded": actions_ended, "SalesCollected": collected, "ManagementEnded": management_ended,
    "SalePassed": sale_passed, "SalesClosed": sales_closed,
    "CardBought": bought, "CropAdded": crop_added, "ImprovementPassed": improvement_passed, "BuyPassed": buy_passed,
}


# The state after some events, for handlers that read it part-way through their own (the shared fold).
fold = partial(evolve_all, EVOLVERS, "Narcos")
