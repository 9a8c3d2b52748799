"""Rule 7 Sway and the life of every die roll: declare, answer, cast.

A roll (state["roll"]) has named dice ("trade", "attack"/"defence", "trial",
"bonus"), each owned by one seat.  Its roller first declares Sway and may play
a Baller card whose timing fits ("declare" stage); then every other seat that
has usable Traphouse weight or a fitting card answers at once ("respond"
stage, several seats awaited): each may Sway any number of times and play
cards, then sends EndSway.  When nobody is left to answer the dice are cast.
A natural 1 always fails and counts as 1, whatever the Sway.
"""
from __future__ import annotations

from functools import cache

from rules.base import Event, IllegalMove, Rng
from rules.blocks.families import Family, each, one
from rules.druglord.data import CARDS, CLASSY_DIE, WEIGHT_TYPES
from rules.druglord.state import usable
from rules.folding import rules_version

RULE = "7"
MAX_LISTED_UNITS = 10      # Sway amounts listed per command: 1..10 and "all"; repeat Sway for more
END_SWAY = one({"type": "EndSway"})  # listings are read-only: one family serves every listing


def start(kind: str, roller: int, dice: list, owners: dict, context: dict) -> Event:
    """RollStarted: the roller's declaration comes first."""
    return Event("RollStarted", {"kind": kind, "roller": roller, "dice": list(dice), "owners": dict(owners),
                                 "context": dict(context)})


# ----------------------------------------------------------------------------
# Which cards fit which roll
# ----------------------------------------------------------------------------

DECLARE_TIMING = {"trade": "trade", "war": "attack", "trial": "trial"}  # the roller's card timing per roll kind


def card_timing_for(roll: dict, seat: int) -> str | None:
    """The Baller card timing `seat` may use on this roll now, if any."""
    kind = roll["kind"]
    if roll["stage"] == "declare":
        if seat != roll["roller"]:
            return None
        return DECLARE_TIMING.get(kind)
    if kind == "trade":
        return "interrupt"
    if kind == "war" and roll["owners"]["defence"] == seat:
        return "defence"
    return None


def playable_cards(state: dict, seat: int) -> list[str]:
    """Distinct cards in seat's hand that may be played on the pending roll."""
    roll = state["roll"]
    timing = card_timing_for(roll, seat)
    if timing is None:
        return []
    return sorted({c for c in state["players"][seat]["hand"] if CARDS[c]["timing"] == timing})


# ----------------------------------------------------------------------------
# Sway
# ----------------------------------------------------------------------------

def direction(roll: dict, seat: int, die: str) -> int:
    """+1: only positive Sway (your own die, or after helping); -1: only negative; 0: either."""
    if roll["owners"][die] == seat:
        return 1
    for who, d, _, units in roll["sway"]:
        if who == seat and d == die:
            return 1 if units > 0 else -1
    return 0


@cache
def amounts(available: int, sign: int) -> tuple[int, ...]:
    """The Sway amounts listed for `available` usable units in a direction (+1 up, -1 down, 0 either:
    each amount up, then down): 1..10 and everything (a bigger Sway is several Sway commands)."""
    units = list(range(1, min(available, MAX_LISTED_UNITS) + 1))
    if available > MAX_LISTED_UNITS:
        units.append(available)
    if sign > 0:
        return tuple(units)
    if sign < 0:
        return tuple(-n for n in units)
    return tuple(amount for n in units for amount in (n, -n))


def sway_families(state: dict, seat: int) -> list[Family]:
    """A Sway family per die and weight type, its units the amounts listed in the die's direction."""
    roll = state["roll"]
    player = state["players"][seat]
    traphouse, locked = player["traphouse"], player["locked"]  # `usable`, for every type at once
    spare = [(wtype, traphouse[wtype] - locked[wtype]) for wtype in WEIGHT_TYPES if traphouse[wtype] > locked[wtype]]
    if not spare:
        return []
    out = []
    for die in roll["dice"]:
        sign = direction(roll, seat, die)
        out += [({"type": "Sway", "die": die, "weight": wtype}, "units", amounts(available, sign))
                for wtype, available in spare]
    return out


def has_business(state: dict, seat: int) -> bool:
    """Whether seat is asked to declare or answer: usable Traphouse weight, or any Baller card in hand.
    (Asking only holders of a fitting card would tell the table what they hold: hands are secret,
    their sizes are not.)"""
    player = state["players"][seat]
    if player["hand"]:
        return True
    traphouse, locked = player["traphouse"], player["locked"]  # usable_total, asked after every roll declared
    return sum([traphouse[t] - locked[t] for t in WEIGHT_TYPES]) > 0


def families(state: dict, seat: int) -> list[Family]:
    """The roller's declaration, or a responder's answer."""
    roll = state["roll"]
    if roll["stage"] == "declare" and seat != roll["roller"]:
        return []
    if roll["stage"] == "respond" and seat not in roll["waiting"]:
        return []
    cards = [{"type": "PlayCard", "card": c, "region": None} for c in playable_cards(state, seat)] \
        if state["players"][seat]["hand"] else []
    return sway_families(state, seat) + each(cards) + [END_SWAY]


def responders(state: dict) -> list[int]:
    """Seats asked to answer once the roller has declared: everyone else with weight or cards."""
    roller = state["roll"]["roller"]
    return [s for s in range(state["seats"]) if s != roller and has_business(state, s)]


def require_roll_turn(state: dict, seat: int) -> dict:
    """The pending roll, if seat is the one to declare or among those answering."""
    roll = state.get("roll")
    if roll is None or (state["phase"] != "action" and roll["kind"] != ROLLOFF):
        raise IllegalMove("there is no die roll waiting for Sway now", rule=RULE)
    if roll["stage"] == "declare" and seat != roll["roller"]:
        raise IllegalMove(f"seat {roll['roller']} declares Sway on their roll first; you may answer after",
                          rule=RULE)
    if roll["stage"] == "respond" and seat not in roll["waiting"]:
        raise IllegalMove("you are not asked to answer this roll (or you already sent EndSway)", rule=RULE)
    return roll


def decide_sway(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Sway{die, weight, units}: spend Traphouse weight, 1 unit per +1/-1, declared before the roll."""
    roll = require_roll_turn(state, seat)
    die, wtype, units = cmd["die"], cmd["weight"], cmd["units"]
    if die not in roll["dice"]:
        raise IllegalMove(f"this roll has the dice {', '.join(roll['dice'])}, not {die!r}", rule=RULE)
    if wtype not in WEIGHT_TYPES:
        raise IllegalMove(f"{wtype!r} is not a weight type ({', '.join(WEIGHT_TYPES)})", rule=RULE)
    if units == 0:
        raise IllegalMove("Sway is at least 1 unit", rule=RULE)
    sign = direction(roll, seat, die)
    if sign > 0 and units < 0:
        raise IllegalMove("you may only Sway this die upwards (it is yours, or you already helped it)", rule=RULE)
    if sign < 0 and units > 0:
        raise IllegalMove("you already counter-Swayed this die; Sway it further down or stop", rule=RULE)
    have = usable(state, seat, wtype)
    if abs(units) > have:
        raise IllegalMove(f"Sway costs 1 unit of weight per modifier; you have {have} usable {wtype} in your "
                          f"Traphouse", rule=RULE)
    declared = Event("SwayDeclared", {"seat": seat, "die": die, "weight": wtype, "units": units})
    if roll["kind"] == ROLLOFF and rules_version(state) >= 4:  # every other seat may answer this Sway
        again = [s for s in weight_holders(state) if s != seat and s not in roll["waiting"]]
        if again:
            return [declared, sway_opened(seat, again)]
    return [declared]


def decide_end_sway(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """EndSway: the roller closes the declaration (the window opens); a responder is done."""
    roll = require_roll_turn(state, seat)
    if roll["stage"] == "declare":
        return [close_declaration(state)]
    return [Event("SwayEnded", {"seat": seat})]


def close_declaration(state: dict) -> Event:
    return Event("DeclarationClosed", {"seat": state["roll"]["roller"], "responders": responders(state)})


# ----------------------------------------------------------------------------
# Casting
# ----------------------------------------------------------------------------

def modifiers(roll: dict) -> dict:
    """{die: summed Sway and card modifiers}."""
    out = {die: 0 for die in roll["dice"]}
    for _, die, _, units in roll["sway"]:
        out[die] += units
    for _, _, die, amount in roll["mods"]:
        out[die] += amount
    return out


def cast(state: dict, rng: Rng) -> tuple[Event, dict, dict]:
    """RollCast with each die's natural face, modifiers and total (a natural 1 counts as 1)."""
    roll = state["roll"]
    naturals = {die: rng.roll(1, CLASSY_DIE)[0] for die in roll["dice"]}
    mods = modifiers(roll)
    totals = {die: 1 if naturals[die] == 1 else naturals[die] + mods[die] for die in roll["dice"]}
    event = Event("RollCast", {"kind": roll["kind"], "roller": roll["roller"], "naturals": naturals,
                               "modifiers": mods, "totals": totals,
                               "cards": [[s, c] for s, c, _, _ in roll["mods"]]})
    return event, naturals, totals



# ----------------------------------------------------------------------------
# Roll-offs (ties in draft order, action order, endgame; random choices "roll randomly")
# ----------------------------------------------------------------------------

def rolloff(contenders: list, rng: Rng) -> tuple[list[dict], list]:
    """Everyone rolls a Classy Die, high roll first; tied contenders roll again among themselves.
    Returns (rounds [{"who", "dice"}], contenders ranked high to low).  Versions 1 and 2: no Sway on
    roll-offs (version 3: `rolloff_started`)."""
    rounds: list[dict] = []

    def rank(group: list) -> list:
        if len(group) <= 1:
            return list(group)
        dice = rng.roll(len(group), CLASSY_DIE)
        rounds.append({"who": list(group), "dice": dice})
        out = []
        for face in sorted(set(dice), reverse=True):
            out += rank([g for g, d in zip(group, dice) if d == face])
        return out

    return rounds, rank(list(contenders))


def first_by_rolloff(contenders: list, rng: Rng) -> tuple[list[dict], object]:
    """Only the winner matters: tied top rollers roll again until one is highest."""
    rounds: list[dict] = []
    group = list(contenders)
    while len(group) > 1:
        dice = rng.roll(len(group), CLASSY_DIE)
        rounds.append({"who": list(group), "dice": dice})
        best = max(dice)
        group = [g for g, d in zip(group, dice) if d == best]
    return rounds, group[0]


# ----------------------------------------------------------------------------
# Version 3: roll-offs with Sway.  "Sway is the act of modifying any die roll" and "Opposing players may
# contribute to or counter-Sway any die roll": a roll-off round is one roll with a die per contender
# ("seat2"), declared by its first contender and answered by everyone else, like the war roll.
# context: {"for": "action" | "draft" | "endgame", "slots": the contenders ranked so far, a list of
# groups high to low (draft: low score first) whose tied groups are still to roll, "first_only": only
# the winner matters (the rest of the ranking is dropped), "rounds": [{"who", "dice" (the totals, Sway
# included)}] rolled so far, as versions 1 and 2 record them}.
# ----------------------------------------------------------------------------

ROLLOFF = "rolloff"


def die_of(seat: int) -> str:
    """A contender's die in a roll-off."""
    return f"seat{seat}"


def rolloff_started(purpose: str, slots: list, first_only: bool, rounds: list) -> Event:
    """RollStarted for the first group of `slots` still tied: its first seat declares, everyone answers."""
    group = next(slot for slot in slots if len(slot) > 1)
    return start(ROLLOFF, group[0], [die_of(s) for s in group], {die_of(s): s for s in group},
                 {"for": purpose, "slots": [list(slot) for slot in slots], "first_only": first_only,
                  "rounds": list(rounds)})


# Version 4: a roll-off has no declarer.  Version 3 let the round's first contender in seat order declare and
# never answer, so the others always had the last word.  Every contender's die is rolled at once, and "Opposing
# players may contribute to or counter-Sway any die roll": every seat with usable Traphouse weight is asked at
# once (no Baller card fits a roll-off, so asking only holders of weight tells nothing of a hand), and each
# Sway asks again every other seat with weight that had finished; the dice are cast when every seat asked has
# sent EndSway since the last Sway.  Each Sway spends weight, so the asking ends.

def weight_holders(state: dict) -> list[int]:
    """Seats with usable Traphouse weight: those who can Sway a roll-off (version 4)."""
    out = []
    for seat, player in enumerate(state["players"]):
        traphouse, locked = player["traphouse"], player["locked"]
        if sum([traphouse[t] - locked[t] for t in WEIGHT_TYPES]) > 0:
            out.append(seat)
    return out


def sway_opened(after: int | None, seats: list[int]) -> Event:
    """SwayOpened: `seats` may Sway the roll-off (after: the seat whose Sway they may answer, None at the start)."""
    return Event("SwayOpened", {"seat": after, "responders": list(seats)})


def rolloff_ranked(roll: dict, totals: dict) -> tuple[list, list]:
    """(slots, rounds) after this round: the group rolled is split by its totals, high first (ties stay
    together to roll again); with `first_only` only the top group is kept."""
    ctx = roll["context"]
    slots = [list(slot) for slot in ctx["slots"]]
    at = next(i for i, slot in enumerate(slots) if len(slot) > 1)
    group = slots[at]
    faces = [totals[die_of(s)] for s in group]
    ranked = [[s for s, face in zip(group, faces) if face == best] for best in sorted(set(faces), reverse=True)]
    if ctx["first_only"]:
        ranked = ranked[:1]
    rounds = list(ctx["rounds"]) + [{"who": group, "dice": faces}]  # totals; the naturals are in RollCast
    return slots[:at] + ranked + slots[at + 1:], rounds
