"""Evolve: one small function per event, (state, data, own) -> state.  Each changes the state it is
given and returns it, the players, the turn and the cities inside it through `own` (rules/folding.py);
it never rolls."""
from __future__ import annotations

from functools import partial

from rules.blocks import windows
from rules.folding import Evolver, Own, evolve_all, rules_version
from rules.narcos.data import CARDS, CITIES, START_MONEY, START_SICARIOS, START_WORKERS, STARTING, cartel_kind, kind
from rules.narcos.state import rack_count


def _player(state: dict, own: Own, seat: int) -> dict:
    """One player of the state, the evolver's to change."""
    return own(own(state, "players"), seat)


def _add(state: dict, own: Own, seat: int, **delta: int) -> None:
    """Numeric fields of one player moved by `delta`."""
    player = _player(state, own, seat)
    for key, change in delta.items():
        player[key] += change


def _turn(state: dict, own: Own, **values) -> None:
    own(state, "turn").update(values)


def _status(state: dict, card: str, status: str) -> list[dict]:
    return [{**e, "status": status} if e["card"] == card else e for e in state["turn"]["table"]]


def new_turn(seat: int, phase: str, agents: list) -> dict:
    return {"seat": seat, "phase": phase, "table": [], "dea": len(agents), "agents": list(agents),
            "activated": False, "owed": [], "fresh": False, "press_owed": False, "peeked": None, "snitch_ready": False,
            "bust": False, "actions": 0, "performed": 0, "used_dealers": [], "fallback_used": False,
            "free_used": False, "queue": [], "bought": [], "confiscated": {"goods": 0, "money": 0}}


# -- setting up -------------------------------------------------------------------
# -- setting up -------------------------------------------------------------------
def started(state: None, d: dict, own: Own) -> dict:
    seats = d["seats"]
    player = {"money": START_MONEY, "uncollected": 0, "workers": START_WORKERS, "sicarios": START_SICARIOS,
              "crops": 1, "laboratory": STARTING["laboratory"], "lab": 1, "transport": STARTING["transport"],
              "storage": STARTING["storage"], "stored": 0, "hand": [], "backs": 0, "spent": []}
    return {"seats": seats, "mode": d["mode"], "round": 1, "first": d["first"], "current": d["first"],
            "deck": [], "pool": {}, "seen": [], "reserve": list(d["reserve"]), "discard": [],
            "cartel_deck": [], "cartel_discard": [], "permanent": d["permanent"], "tokens": d["tokens"],
            "warehouse": {"goods": 0, "money": 0}, "cities": {c: [0] * seats for c in CITIES},
            "supply": d["supply"], "players": [{**player, "hand": [], "spent": []} for _ in range(seats)],
            "dea": {"actions": None, "money": None}, "turn": new_turn(d["first"], "setup", []), "window": None,
            "declined": None, "ended": None}


def shuffled(state: dict, d: dict, own: Own) -> dict:
    state["deck"], state["pool"] = list(d["secret"]["order"]), dict(d["kinds"])
    state["seen"], state["declined"] = [], None
    return state


def cartel_shuffled(state: dict, d: dict, own: Own) -> dict:
    state["cartel_deck"] = list(d["secret"]["order"])
    return state


def cartel_dealt(state: dict, d: dict, own: Own) -> dict:
    cards = d["secret"]["cards"]
    state["cartel_deck"] = state["cartel_deck"][len(cards):]
    player = _player(state, own, d["seat"])
    player["hand"] = player["hand"] + list(cards)
    return state


# -- the turn and the rounds ---------------------------------------------------------
def turn_started(state: dict, d: dict, own: Own) -> dict:
    phase = "start" if state["round"] == 1 and len(state["deck"]) < 7 else "draw"
    state["current"], state["turn"] = d["seat"], new_turn(d["seat"], phase, d["agents"])
    return state


def played_on(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, phase="draw")
    return state


def round_two_started(state: dict, d: dict, own: Own) -> dict:
    state.update(round=2, deck=[], discard=[], reserve=[], seen=[])
    if state["turn"]["phase"] == "start":  # called at the start of a turn: draw from it
        _turn(state, own, phase="draw")
    return state


NOTHING_CONFISCATED = {"goods": 0, "money": 0}


def _confiscations_leave(state: dict, own: Own) -> None:
    """The Police cards' merchandise and money leave them: to the Police Warehouse in advanced mode, off the
    table in basic mode (its white cubes back to the supply, ruling K1)."""
    warehouse = dict(state["warehouse"])
    if state["mode"] == "advanced":  # "cuando termine la fase de juego, envíalo al almacén policial (avanzado)"
        warehouse = {k: warehouse[k] + state["turn"]["confiscated"][k] for k in warehouse}
    state["warehouse"] = warehouse
    _turn(state, own, confiscated=dict(NOTHING_CONFISCATED))


def turn_ended(state: dict, d: dict, own: Own) -> dict:
    seat, agents = state["turn"]["seat"], state["turn"]["agents"]
    _confiscations_leave(state, own)  # version 1 (ruling A5); from version 2 nothing is left by now
    dea = dict(state["dea"])
    if "actions" in agents and dea["actions"] == seat:
        dea["actions"] = "watching"  # "El agente se irá tras dicho turno"
    state["discard"], state["dea"] = state["discard"] + list(d["discarded"]), dea
    _turn(state, own, phase="over")
    return state


def game_ended(state: dict, d: dict, own: Own) -> dict:
    state["ended"] = {"winners": list(d["winners"]), "money": list(d["money"]), "reason": d["reason"]}
    return state


# -- Phase 1: turning cards ------------------------------------------------------------
def card_drawn(state: dict, d: dict, own: Own) -> dict:
    t, card = state["turn"], d["card"]
    before = rack_count(state)
    status = "removed" if before >= 7 and CARDS[card]["side"] == "gun" else "on"  # the eighth card after a Press
    sirens_after = t["dea"] + sum(CARDS[e["card"]]["side"] == "siren" for e in t["table"]
                                  if e["status"] in ("on", "unpaid")) + (CARDS[card]["side"] == "siren")
    fresh = kind(card) in ("police", "military", "press") and sirens_after < 3
    dea = dict(state["dea"])
    if kind(card) == "dea":
        dea[CARDS[card]["agent"]] = "table"
    state["deck"], state["seen"], state["dea"], state["declined"] = state["deck"][1:], state["seen"] + [card], dea, None
    _turn(state, own, table=t["table"] + [{"card": card, "status": status}], fresh=fresh,
          press_owed=kind(card) == "press" and before < 7, peeked=None, snitch_ready=kind(card) == "snitch")
    return state


def eliminated(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], sicarios=-d["sicarios"])
    state["supply"] += d["sicarios"]
    _turn(state, own, table=_status(state, d["card"], "eliminated"), fresh=False,
          press_owed=False if kind(d["card"]) == "press" else state["turn"]["press_owed"])
    return state


def activated(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, activated=True, fresh=False, owed=list(d["owed"]))
    return state


PAID_FROM = {"laboratory": "lab", "storage": "stored", "money": "money"}


def danger_paid(state: dict, d: dict, own: Own) -> dict:
    t, card = state["turn"], d["card"]
    owed = [c for c in t["owed"] if c != card]
    if d["paid"] is None:  # "Si no les puedes pagar, NO contarás esas carta para tus acciones"
        _turn(state, own, owed=owed, table=_status(state, card, "unpaid"))
        return state
    conf = dict(t["confiscated"])
    if kind(card) == "police":  # left on the Police card, to the Police Warehouse when the turn ends
        conf["money" if d["paid"] == "money" else "goods"] += 1
    _add(state, own, d["seat"], **{PAID_FROM[d["paid"]]: -1})
    _turn(state, own, owed=owed, confiscated=conf)
    return state


def peeked(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, peeked=d["secret"]["card"], snitch_ready=False, fresh=False)
    return state


def peek_declined(state: dict, d: dict, own: Own) -> dict:
    # the card stays on top of the deck, known to the seat that looked until someone turns it (search.py)
    state["declined"] = {"seat": d["seat"], "card": state["turn"]["peeked"]}
    _turn(state, own, peeked=None)
    return state


def draw_ended(state: dict, d: dict, own: Own) -> dict:
    phase = "bonus" if d["bonus"] == "choice" else "manage"
    if rules_version(state) >= 2:  # "cuando termine la fase de juego": the Actions phase (ruling A5)
        _confiscations_leave(state, own)
    _turn(state, own, phase=phase, bust=d["bust"], actions=d["actions"], fresh=False, press_owed=False,
          snitch_ready=False, peeked=None)
    return state


def dea_moved(state: dict, d: dict, own: Own) -> dict:
    state["dea"] = {**state["dea"], d["agent"]: d["seat"] if d["seat"] is not None else "watching"}
    return state


def bonus_chosen(state: dict, d: dict, own: Own) -> dict:
    gained = 1 if d["sicario"] else 0
    _add(state, own, d["seat"], sicarios=gained)
    state["supply"] -= gained
    _turn(state, own, phase="manage")
    return state


# -- Phase 2: management -------------------------------------------------------------
def _spend(state: dict, own: Own, cost: int) -> dict:
    """The turn, its actions spent and counted as performed."""
    turn = own(state, "turn")
    turn["actions"] -= cost
    turn["performed"] += cost
    return turn


def produced(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], lab=d["units"])
    _spend(state, own, d["cost"])
    return state


def shipped(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], lab=-d["units"], stored=d["units"])
    _spend(state, own, d["cost"])
    return state


def delivered(state: dict, d: dict, own: Own) -> dict:
    seat = d["seat"]
    _add(state, own, seat, stored=-d["units"], uncollected=d["paid"] + d["bonus"], workers=-d["workers"])
    for given in d["tribute"]:
        _add(state, own, given["seat"], stored=given["kept"])
    if d["workers"]:
        cities = own(state, "cities")
        cities[d["city"]] = [n + d["workers"] if s == seat else n for s, n in enumerate(cities[d["city"]])]
    t = _spend(state, own, d["cost"])
    if d["dealer"] is None:
        t["fallback_used"] = True
    else:
        t["used_dealers"] = t["used_dealers"] + [d["dealer"]]
    if seat == t["seat"] and t["phase"] == "close":
        t["free_used"] = True
    return state


def worker_spent(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], workers=-1)
    own(state, "turn")["actions"] += 1
    return state


def back_spent(state: dict, d: dict, own: Own) -> dict:
    player = _player(state, own, d["seat"])
    hand = list(player["hand"])
    hand.remove(d["secret"]["card"])
    # which card lies face down is known to its owner only (search.py); a snapshot older than the list lacks it
    player.update(hand=hand, backs=player["backs"] + 1, spent=player.get("spent", []) + [d["secret"]["card"]])
    own(state, "turn")["actions"] += 1
    return state


def worker_converted(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], workers=-1, money=-2, sicarios=1)
    state["supply"] -= 1
    return state


def cartel_played(state: dict, d: dict, own: Own) -> dict:
    seat, card = d["seat"], d["card"]
    player = _player(state, own, seat)
    player["hand"] = [c for c in player["hand"] if c != card]
    state["cartel_discard"] = state["cartel_discard"] + [card]
    design = cartel_kind(card)
    if design == "rob-warehouse":
        w = state["warehouse"]
        _add(state, own, seat, sicarios=-2, lab=w["goods"], money=w["money"])
        state["supply"] += 2
        state["warehouse"] = {"goods": 0, "money": 0}
    elif design == "burn-crops":  # the sicario goes; the crop burns unless its owner answers (CropBurned)
        _add(state, own, seat, sicarios=-1)
        state["supply"] += 1
    elif design == "crop-guards":  # the answer to Burn the crops: the crop is saved, the window closes
        state["window"] = None
    elif design == "recruit":
        _add(state, own, seat, money=-1, sicarios=1)
        state["supply"] -= 1
    elif design == "laundering":  # the money an owed card needed: the "unpaid" window is answered (version 3)
        w = state["window"]
        _add(state, own, seat, workers=-1, money=2)
        state["window"] = None if w is not None and w["kind"] == "unpaid" else w
    return state  # lawyer, tip-off, bumper crop, secret route: their effect is the event that follows


def reaction_asked(state: dict, d: dict, own: Own) -> dict:
    state["window"] = windows.open_window(d["kind"], [d["seat"]], attacker=d["attacker"], card=d["card"])
    return state


def reaction_passed(state: dict, d: dict, own: Own) -> dict:
    window = windows.answered(state["window"], d["seat"], "pass")
    state["window"] = None if windows.is_closed(window) else window
    if d["kind"] == "dea-money":  # asked once a turn's end (version 3)
        _turn(state, own, dea_asked=True)
    return state


def crop_burned(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], crops=-1)
    return state


def actions_ended(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, phase="close", actions=0)
    return state


def collected(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], money=d["amount"], uncollected=-d["amount"])
    return state


def management_ended(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, phase="sales", queue=list(d["queue"]))
    return state


def sale_passed(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, queue=[s for s in state["turn"]["queue"] if s != d["seat"]])
    return state


def sales_closed(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, phase="improve", queue=[])
    return state


# -- Phase 3: improvements -------------------------------------------------------------
def _buys_queue(state: dict) -> list[int]:
    seat, n = state["turn"]["seat"], state["seats"]
    return [(seat + i) % n for i in range(1, n)]


def bought(state: dict, d: dict, own: Own) -> dict:
    seat, card = d["seat"], d["card"]
    player = _player(state, own, seat)
    player["money"] -= d["price"]
    player[kind(card)] = card
    replaced = [d["replaced"]] if d["replaced"] in CARDS and "side" in CARDS[d["replaced"]] else []
    state["discard"] = state["discard"] + replaced
    t = own(state, "turn")
    t["bought"] = t["bought"] + [card]
    if t["phase"] == "improve":
        t.update(phase="buys", queue=_buys_queue(state))
    else:
        t["queue"] = [s for s in t["queue"] if s != seat]
    return state


def crop_added(state: dict, d: dict, own: Own) -> dict:
    _add(state, own, d["seat"], money=-d["price"], crops=1)
    _turn(state, own, phase="buys", queue=_buys_queue(state))
    return state


def improvement_passed(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, phase="buys", queue=_buys_queue(state))
    return state


def buy_passed(state: dict, d: dict, own: Own) -> dict:
    _turn(state, own, queue=[s for s in state["turn"]["queue"] if s != d["seat"]])
    return state


EVOLVERS: dict[str, Evolver] = {
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
