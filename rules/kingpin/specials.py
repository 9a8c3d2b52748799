"""On Your Turn step 4: Special Cards (Cop, Hit Man, Regulator) and the response windows they open
(Cop bribe, Hit Man doubling, Regulator bribe, Immunity)."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.kingpin.guards import (
    card,
    describe,
    money,
    require_active_player,
    require_funds,
    require_no_pending,
    require_own_in_play,
    require_phase,
)
from rules.kingpin.state import immunity_for, kind_of, owned, regulators_on, usable_against_others

RULE_SPECIAL = "Special Cards"
RULE_COP = "Special Cards: Cop"
RULE_HIT = "Special Cards: Hit Man"
RULE_REG = "Special Cards: Regulator"
RULE_IMM = "Special Cards: Immunity"
RULE_LAST = "Initial Setup"  # "A player can never be without a Supply Truck or a Dealer."


# ----------------------------------------------------------------------------
# Targets
# ----------------------------------------------------------------------------

def _protected_last(state: dict, card_id: str) -> bool:
    """A player's last Dealer in play is immune (a Supply Truck can never be targeted anyway)."""
    c = state["cards"][card_id]
    return c["type"] == "dealer" and len(owned(state, c["owner"], "dealer")) <= 1


def targets_of(state: dict, victim: int) -> list[str]:
    """`victim`'s cards a Cop or Hit Man may target: Junkies, Dealers, Special Cards in play; not a last Dealer."""
    return [cid for cid, c in state["cards"].items()
            if c["owner"] == victim and c["where"] == "play" and c["type"] != "truck"
            and not _protected_last(state, cid)]


def opponent_targets(state: dict, seat: int) -> list[str]:
    """Every opponent card a Cop or Hit Man of `seat` may target."""
    return [cid for other in range(state["seats"]) if other != seat for cid in targets_of(state, other)]


def _check_target(state: dict, seat: int, target_id: str, rule: str, victim: int | None = None) -> dict:
    """The target must be another player's Junkie, Dealer or Special Card in play (not their last Dealer)."""
    t = card(state, target_id, rule)
    label = describe(state, target_id)
    if t["owner"] is None or t["owner"] == seat or t["where"] != "play":
        raise IllegalMove(f"{label} is not another player's card in play", rule=rule)
    if victim is not None and t["owner"] != victim:
        raise IllegalMove(f"{label} is not seat {victim}'s; the bounty can only be redirected to a card of the "
                          f"player who targeted you", rule=rule)
    if t["type"] == "truck":
        raise IllegalMove(f"{label} is a Supply Truck; {rule.split(': ')[1]}s cannot be used on Supply Trucks",
                          rule=rule)
    if _protected_last(state, target_id):
        raise IllegalMove(f"{label} is seat {t['owner']}'s last Dealer; a player can never be without a Dealer",
                          rule=RULE_LAST)
    return t


def _ready_special(state: dict, seat: int, card_id: str, special: str, rule: str) -> dict:
    """Your own active Special Card of this type, in play, that has waited a turn since you got it."""
    require_active_player(state, seat, rule)
    require_phase(state, ("dice", "specials"), "using a Special Card", rule)
    require_no_pending(state)
    c = require_own_in_play(state, seat, card_id, (special,), rule)
    label = describe(state, card_id)
    if c["exhausted"]:
        raise IllegalMove(f"{label} is Exhausted; Activate it with a double first", rule=rule)
    if not usable_against_others(state, card_id):
        raise IllegalMove(f"{label} arrived this turn; Special Cards must wait a turn before they can be used "
                          f"against another player", rule=RULE_SPECIAL)
    return c


# ----------------------------------------------------------------------------
# Cop
# ----------------------------------------------------------------------------

def _cop_choices(state: dict, responder: int, bribe: int) -> bool:
    """Whether the Cop's target has anything to decide (afford the bribe, or hold an Immunity)."""
    return state["bankrolls"][responder] >= bribe or bool(immunity_for(state, responder))


def decide_use_cop(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """UseCop{cop, target}: pay $200; the target's owner bribes the Cop's owner or the card goes to Jail."""
    _ready_special(state, seat, cmd["cop"], "cop", RULE_COP)
    target = _check_target(state, seat, cmd["target"], RULE_COP)
    cost = state["catalog"]["costs"]["cop_use"]
    require_funds(state, seat, cost, "using a Cop", RULE_COP)
    bribe = kind_of(state, cmd["cop"])["bribe"]
    events = [Event("CopUsed", {"seat": seat, "cop": cmd["cop"], "target": cmd["target"], "owner": target["owner"],
                                "cost": cost, "bribe": bribe})]
    if not _cop_choices(state, target["owner"], bribe):
        events.append(jail_event(state, cmd["target"]))
    return events


def jail_event(state: dict, card_id: str) -> Event:
    """CardJailed; a jailed Junkie's money returns to the bank."""
    c = state["cards"][card_id]
    return Event("CardJailed", {"card": card_id, "owner": c["owner"], "cash": c.get("cash", 0)})


def _window(state: dict, seat: int, kind: str, rule: str) -> dict:
    """The open response window of this kind, which `seat` must be the one to answer."""
    window = state["window"]
    if state["phase"] == "over":
        raise IllegalMove("the game is over", rule="Winning the Game")
    if window is None or window["kind"] != kind:
        raise IllegalMove(f"nobody is answering a {rule.split(': ')[1]} now", rule=rule)
    if window["responder"] != seat:
        raise IllegalMove(f"seat {window['responder']} answers this, not seat {seat}", rule=rule)
    return window


def decide_bribe_cop(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """BribeCop: pay the bribe to the Cop's owner instead of having the card placed in Jail."""
    window = _window(state, seat, "cop", RULE_COP)
    require_funds(state, seat, window["bribe"], "the Cop's bribe", RULE_COP)
    return [Event("CopBribed", {"seat": seat, "to": window["attacker"], "amount": window["bribe"],
                                "card": window["card"], "cop": window["cop"]})]


def decide_accept_jail(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """AcceptJail: do not bribe; the card goes to Jail."""
    window = _window(state, seat, "cop", RULE_COP)
    return [jail_event(state, window["card"])]


# ----------------------------------------------------------------------------
# Hit Man
# ----------------------------------------------------------------------------

def _can_double(state: dict, responder: int, window: dict) -> bool:
    """The target can double if they can afford twice the bounty and the attacker has a targetable card."""
    return (state["bankrolls"][responder] >= 2 * window["bounty"]
            and bool(targets_of(state, window["attacker"])))


def _hit_choices(state: dict, responder: int, window: dict) -> bool:
    return _can_double(state, responder, window) or bool(immunity_for(state, responder))


def elimination_event(state: dict, window: dict) -> Event:
    """CardEliminated: the final bounty is paid to the bank by whoever targeted last; the card leaves the game."""
    c = state["cards"][window["card"]]
    return Event("CardEliminated", {"card": window["card"], "owner": c["owner"], "paid_by": window["attacker"],
                                    "bounty": window["bounty"], "cash": c.get("cash", 0), "hits": c.get("hits", 0)})


def decide_use_hit_man(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """UseHitMan{hitman, target}: target another player's card (never a Supply Truck) for the bounty."""
    _ready_special(state, seat, cmd["hitman"], "hitman", RULE_HIT)
    target = _check_target(state, seat, cmd["target"], RULE_HIT)
    bounty = kind_of(state, cmd["hitman"])["bounty"]
    require_funds(state, seat, bounty, "the Hit Man's bounty", RULE_HIT)
    events = [Event("HitManUsed", {"seat": seat, "hitman": cmd["hitman"], "target": cmd["target"],
                                   "owner": target["owner"], "bounty": bounty})]
    window = {"attacker": seat, "responder": target["owner"], "card": cmd["target"], "bounty": bounty}
    if not _hit_choices(state, target["owner"], window):
        events.append(elimination_event(state, window))
    return events


def decide_accept_hit(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """AcceptHit: do not double; the targeted card is removed and the last attacker pays the bounty."""
    window = _window(state, seat, "hitman", RULE_HIT)
    return [elimination_event(state, window)]


def decide_double_bounty(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """DoubleBounty{target}: double the bounty to target one of the attacker's cards instead."""
    window = _window(state, seat, "hitman", RULE_HIT)
    bounty = 2 * window["bounty"]
    require_funds(state, seat, bounty, "doubling the bounty", RULE_HIT)
    target = _check_target(state, seat, cmd["target"], RULE_HIT, victim=window["attacker"])
    events = [Event("BountyDoubled", {"seat": seat, "target": cmd["target"], "owner": target["owner"],
                                      "bounty": bounty})]
    new_window = {"attacker": seat, "responder": target["owner"], "card": cmd["target"], "bounty": bounty}
    if not _hit_choices(state, target["owner"], new_window):
        events.append(elimination_event(state, new_window))
    return events


# ----------------------------------------------------------------------------
# Regulator
# ----------------------------------------------------------------------------

def _reg_choices(state: dict, responder: int, bribe: int) -> bool:
    return state["bankrolls"][responder] >= bribe or bool(immunity_for(state, responder))


def decide_place_regulator(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PlaceRegulator{regulator, target}: target another player; blocks one Shipment per turn of theirs."""
    _ready_special(state, seat, cmd["regulator"], "regulator", RULE_REG)
    reg = state["cards"][cmd["regulator"]]
    if reg["target"] is not None:
        raise IllegalMove(f"{describe(state, cmd['regulator'])} is already targeting seat {reg['target']}",
                          rule=RULE_REG)
    target = cmd["target"]
    if target not in range(state["seats"]) or target == seat:
        raise IllegalMove(f"target another player (0-{state['seats'] - 1}, not yourself), not {target}",
                          rule=RULE_REG)
    bribe = kind_of(state, cmd["regulator"])["bribe"]
    events = [Event("RegulatorPlaced", {"seat": seat, "regulator": cmd["regulator"], "target": target,
                                        "bribe": bribe})]
    if not _reg_choices(state, target, bribe):
        events.append(Event("RegulatorAccepted", {"seat": target, "regulator": cmd["regulator"]}))
    return events


def decide_accept_regulator(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """AcceptRegulator: let the Regulator target you (you may still bribe it on your turn)."""
    window = _window(state, seat, "regulator", RULE_REG)
    return [Event("RegulatorAccepted", {"seat": seat, "regulator": window["regulator"]})]


def decide_bribe_regulator(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """BribeRegulator{regulator}: pay its owner; the Regulator is Exhausted and stops targeting you."""
    window = state["window"]
    if window is not None and window["kind"] == "regulator" and window["responder"] == seat:
        if cmd["regulator"] != window["regulator"]:
            raise IllegalMove(f"answer for {window['regulator']}, the Regulator just placed on you", rule=RULE_REG)
    else:
        require_active_player(state, seat, RULE_REG)
        require_phase(state, ("buy", "dice", "specials"), "bribing a Regulator", RULE_REG)
        require_no_pending(state)
    reg = card(state, cmd["regulator"], RULE_REG)
    if reg.get("special") != "regulator" or reg["where"] != "play" or reg["target"] != seat:
        raise IllegalMove(f"{cmd['regulator']} is not a Regulator targeting you", rule=RULE_REG)
    bribe = kind_of(state, cmd["regulator"])["bribe"]
    require_funds(state, seat, bribe, "the Regulator's bribe", RULE_REG)
    return [Event("RegulatorBribed", {"seat": seat, "regulator": cmd["regulator"], "to": reg["owner"],
                                      "amount": bribe})]


# ----------------------------------------------------------------------------
# Immunity
# ----------------------------------------------------------------------------

def decide_use_immunity(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """UseImmunity{card}: prevent the effect of the Special Card action aimed at you (not Chloroform)."""
    window = state["window"]
    if state["phase"] == "over":
        raise IllegalMove("the game is over", rule="Winning the Game")
    if window is None or window["responder"] != seat:
        raise IllegalMove("Immunity blocks a Special Card's action aimed at you; none is waiting for your answer",
                          rule=RULE_IMM)
    c = require_own_in_play(state, seat, cmd["card"], ("immunity",), RULE_IMM)
    if c["exhausted"]:
        raise IllegalMove(f"{describe(state, cmd['card'])} is Exhausted", rule=RULE_IMM)
    against = {"cop": window.get("cop"), "hitman": window.get("hitman"),
               "regulator": window.get("regulator")}[window["kind"]]
    return [Event("ImmunityUsed", {"seat": seat, "card": cmd["card"], "blocked": window["kind"],
                                   "against": against, "attacker": window["attacker"],
                                   "target": window.get("card")})]


# ----------------------------------------------------------------------------
# Legal moves
# ----------------------------------------------------------------------------

def window_moves(state: dict, seat: int) -> list[dict]:
    """What the responder of the open window may answer."""
    window = state["window"]
    if window is None or window["responder"] != seat:
        return []
    out: list[dict] = []
    rich = state["bankrolls"][seat]
    if window["kind"] == "cop":
        if rich >= window["bribe"]:
            out.append({"type": "BribeCop"})
        out.append({"type": "AcceptJail"})
    elif window["kind"] == "hitman":
        out.append({"type": "AcceptHit"})
        if rich >= 2 * window["bounty"]:
            out += [{"type": "DoubleBounty", "target": t} for t in targets_of(state, window["attacker"])]
    else:
        out.append({"type": "AcceptRegulator"})
        if rich >= window["bribe"]:
            out.append({"type": "BribeRegulator", "regulator": window["regulator"]})
    out += [{"type": "UseImmunity", "card": c} for c in immunity_for(state, seat)]
    return out


def moves(state: dict, seat: int) -> list[dict]:
    """Special Card uses and Regulator bribes open to the active seat (no window, nothing pending)."""
    if state["pending"] is not None:
        return []
    out: list[dict] = []
    rich = state["bankrolls"][seat]
    if state["phase"] in ("buy", "dice", "specials"):
        out += [{"type": "BribeRegulator", "regulator": r} for r in regulators_on(state, seat)
                if kind_of(state, r)["bribe"] <= rich]
    if state["phase"] not in ("dice", "specials"):
        return out
    ready = [c for c in owned(state, seat, "special")
             if not state["cards"][c]["exhausted"] and usable_against_others(state, c)]
    targets = None
    for c in ready:
        special = state["cards"][c]["special"]
        if special == "cop" and rich >= state["catalog"]["costs"]["cop_use"]:
            targets = opponent_targets(state, seat) if targets is None else targets
            out += [{"type": "UseCop", "cop": c, "target": t} for t in targets]
        elif special == "hitman" and rich >= kind_of(state, c)["bounty"]:
            targets = opponent_targets(state, seat) if targets is None else targets
            out += [{"type": "UseHitMan", "hitman": c, "target": t} for t in targets]
        elif special == "regulator" and state["cards"][c]["target"] is None:
            out += [{"type": "PlaceRegulator", "regulator": c, "target": s}
                    for s in range(state["seats"]) if s != seat]
    return out


HANDLERS = {
    "UseCop": decide_use_cop,
    "BribeCop": decide_bribe_cop,
    "AcceptJail": decide_accept_jail,
    "UseHitMan": decide_use_hit_man,
    "AcceptHit": decide_accept_hit,
    "DoubleBounty": decide_double_bounty,
    "PlaceRegulator": decide_place_regulator,
    "AcceptRegulator": decide_accept_regulator,
    "BribeRegulator": decide_bribe_regulator,
    "UseImmunity": decide_use_immunity,
}

__all__ = ["HANDLERS", "moves", "window_moves", "money"]
