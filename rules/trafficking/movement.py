"""Section 4 Movement and what happens on landing: the roll, the Cop Shop branch, the Narc's free
movement, busts on landing (5a), the Expressway (13), the Time Warp at the Roxy (4h), the THC Subway (10),
Blitz Cabs (12), Jack Pot (14), The Pusher (8), Roll Again, Buddy Jim's, Miss a Turn, Airport Customs (16)
opening, and the draw squares (18, draws.py)."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.folding import rules_version
from rules.trafficking import board, draws, offenses
from rules.trafficking.data import SQUARES
from rules.trafficking.evolve import evolve
from rules.trafficking.state import Tx, immune, is_dealer, narc_square, player

RULE = "4"
PUSHER_PRICE = 100   # 8a: "@ $100 X the roll of one die"


def require_stage(state: dict, seat: int, stage: str, what: str, rule: str = RULE) -> dict:
    turn = state["turn"]
    if state["phase"] != "play" or turn is None or turn["seat"] != seat:
        raise IllegalMove(f"it is not your turn to {what}", rule=rule)
    if turn["stage"] != stage:
        raise IllegalMove(f"you cannot {what} now", rule=rule)
    return turn


def destinations(state: dict, seat: int, die: int) -> dict:
    """Where this roll can take the mover: destination -> path."""
    square = player(state, seat)["square"]
    if is_dealer(state, seat):  # 4b/4c: along the red arrows; two ways out of a Cop Shop
        return board.dealer_destinations(square, die)
    return {k: list(v) for k, v in board.narc_destinations(square, die).items()}  # 4d: any direction


def decide_roll(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Roll: one die for the move; it also settles a pending gamble (15c)."""
    require_stage(state, seat, "roll", "roll")
    die = rng.randint(1, 6)
    tx = Tx(state, evolve)
    choices = destinations(state, seat, die)
    tx.add("MoveRolled", seat=seat, die=die, destinations=choices)
    bet = player(state, seat)["bet"]
    if bet:
        tx.add("BetSettled", seat=seat, die=die, bets=bet, payout=payout(bet, die))
    if len(choices) == 1:
        to, path = next(iter(choices.items()))
        arrive(tx, seat, to, path, "roll", die, rng)
    return tx.events


def payout(bets: dict, die: int) -> int:
    """15: EXACT NUMBER pays 5-1, EVENS OR ODDS even money; the stake comes back with a win."""
    out = 0
    exact, parity = bets.get("exact"), bets.get("parity")
    if exact and exact["number"] == die:
        out += exact["stake"] * 6
    if parity and ("even" if die % 2 == 0 else "odd") == parity["pick"]:
        out += parity["stake"] * 2
    return out


def decide_move(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Move{to}: the Dealer's branch out of a Cop Shop, or the Narc's way."""
    turn = require_stage(state, seat, "move", "choose where to move")
    if cmd["to"] not in turn["choices"]:
        raise IllegalMove(f"a roll of {turn['die']} cannot take you to {cmd['to']!r}; "
                          f"choose one of {', '.join(turn['choices'])}", rule="4c" if is_dealer(state, seat) else "4d")
    tx = Tx(state, evolve)
    arrive(tx, seat, cmd["to"], turn["choices"][cmd["to"]], "roll", turn["die"], rng)
    return tx.events


def arrive(tx: Tx, seat: int, to: str, path: list, how: str, die: int | None, rng: Rng) -> None:
    """Move a piece and resolve the landing."""
    tx.add("Moved", seat=seat, to=to, path=list(path), how=how)
    if is_dealer(tx.state, seat):
        land_dealer(tx, seat, to, how, die, rng)
    else:
        land_narc(tx, to, how)


def land_narc(tx: Tx, square: str, how: str) -> None:
    """5a: the Narc busts Dealers where he lands; 4f: he must take the Expressway."""
    offenses.busts_on(tx, square, "the Narc landed on the Dealer")
    # version 2: a Narc who busted here is escorting his Dealer to a Cop Shop, off the Expressway square
    if board.kind(square) == "expressway" and how != "expressway" and narc_square(tx.state) == square:
        other = SQUARES[square]["expressway_to"]
        tx.add("Moved", seat=tx.state["narc"], to=other, path=[other], how="expressway")
        offenses.busts_on(tx, other, "the Narc landed on the Dealer")


def land_dealer(tx: Tx, seat: int, square: str, how: str, die: int | None, rng: Rng) -> None:
    """Everything a landing does by itself; choices left to the Dealer are flow's (legal moves)."""
    p = player(tx.state, seat)
    if p["out"] is not None:
        return
    if narc_square(tx.state) == square and p["lids"] > 0 and not immune(tx.state, seat, square):
        before = p["offenses"]
        offenses.charge(tx, seat, "the Dealer landed on the Narc")  # 9b: then no Graft Tax
        if player(tx.state, seat)["offenses"] != before or player(tx.state, seat)["out"]:
            return
    kind = board.kind(square)
    if kind == "expressway" and how != "expressway":   # 13: "MUST immediately take the expressway"
        other = SQUARES[square]["expressway_to"]
        arrive(tx, seat, other, [other], "expressway", None, rng)
    elif kind == "cop_shop" and not (rules_version(tx.state) >= 2 and narc_square(tx.state) == square):
        offenses.graft_tax(tx, seat)   # 9b: "if the Narc is occupying the square ... no Graft Tax is paid"
    elif kind == "pusher":
        pusher(tx, seat, rng)
    elif kind == "jack_pot" and how in ("roll", "time_warp") and die:
        tx.add("LidsGained", seat=seat, lids=die, why="Jack Pot")   # 14a: the number rolled to land
    elif kind == "roxy" and how != "time_warp":
        time_warp(tx, seat, square, rng)
    elif kind in ("roll_again", "buddy_jims"):
        tx.add("RollAgainMarked", seat=seat, why=SQUARES[square]["name"])
    elif kind == "miss_turn":
        tx.add("MissTurnMarked", seat=seat, why=SQUARES[square]["name"])
    elif kind in ("sour_grapes", "flip_out"):
        draws.draw(tx, seat, kind, rng, arrive)
    elif kind == "customs" and p["lids"] > 0:   # 16c: no Lids, no interrogation
        tx.add("CustomsOpened", dealer=seat, narc=tx.state["narc"])


def pusher(tx: Tx, seat: int, rng: Rng) -> None:
    """8: must buy $100 x one die of Lids; unable to pay: out of the game."""
    die = rng.randint(1, 6)
    cost = die * PUSHER_PRICE
    if player(tx.state, seat)["cash"] < cost:
        tx.add("Bankrupt", seat=seat, why="could not pay The Pusher", owed=cost, die=die)
        return
    tx.add("LidsBought", seat=seat, die=die, lids=die, paid=cost, where="pusher")


def time_warp(tx: Tx, seat: int, square: str, rng: Rng) -> None:
    """4h: roll both dice twice and advance (one move of the four dice's sum; only its end counts)."""
    dice = rng.roll(4)
    tx.add("TimeWarpRolled", seat=seat, dice=dice)
    path = board.advance(square, sum(dice))
    arrive(tx, seat, path[-1], path, "time_warp", sum(dice), rng)


def decide_subway(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """RideSubway{to}: 10d, with a THC Transit Pass, to any other station."""
    require_stage(state, seat, "landed", "ride the THC Subway", "10")
    here = player(state, seat)["square"]
    if board.kind(here) != "subway":
        raise IllegalMove("you are not on a THC Subway station", rule="10")
    if not player(state, seat)["pass"]:
        raise IllegalMove("you need a THC Transit Pass (11-7 Inconvenience Stores sell them for $50)", rule="10e")
    if state["turn"]["how"] == "subway":
        raise IllegalMove("you have just ridden the subway: play continues on your next roll", rule="10d")
    if cmd["to"] not in board.SUBWAY_STATIONS or cmd["to"] == here:
        raise IllegalMove(f"{cmd['to']!r} is not another THC Subway station", rule="10d")
    tx = Tx(state, evolve)
    arrive(tx, seat, cmd["to"], [cmd["to"]], "subway", None, rng)
    return tx.events


def cab_fare(state: dict, seat: int, to: str) -> int | None:
    """12a: $10 a square along the arrows (None: not a cab ride from here)."""
    distance = board.arrow_distances(player(state, seat)["square"]).get(to)
    return None if not distance else distance * 10


def decide_cab(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """TakeCab{to}: 12a, to any square, paying the fare to the bank."""
    require_stage(state, seat, "landed", "take a cab", "12")
    if board.kind(player(state, seat)["square"]) != "cab_stand" or state["turn"]["how"] == "cab":
        raise IllegalMove("cabs are taken from a Cab Stand you landed on", rule="12a")
    fare = cab_fare(state, seat, cmd["to"]) if cmd["to"] in SQUARES else None
    if fare is None:
        raise IllegalMove(f"{cmd['to']!r} is not a square a cab can take you to", rule="12a")
    if fare > player(state, seat)["cash"]:
        raise IllegalMove(f"the fare to {cmd['to']} is ${fare}; you have ${player(state, seat)['cash']}", rule="12a")
    tx = Tx(state, evolve)
    tx.add("CabTaken", seat=seat, to=cmd["to"], fare=fare)
    arrive(tx, seat, cmd["to"], [cmd["to"]], "cab", None, rng)
    return tx.events
