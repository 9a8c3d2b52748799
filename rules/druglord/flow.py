"""Who acts now, what a clock does for them, and the automatic steps between decisions.

After every command the game runs on by itself (reveals, draft steps, rolls
nobody sways, phase ends) until a seat must decide: `step` is one such step, and
Ruleset.settle runs them.
"""
from __future__ import annotations

from rules.base import Event, Rng
from rules.blocks import choices, windows
from rules.blocks.families import Family, each
from rules.druglord import actions, baller, load, regions, rolls, storage, trade, trial, violence
from rules.druglord.evolve import EVOLVERS
from rules.druglord.state import actor
from rules.folding import evolve_all, rules_version

RESOLVERS = {"trade": trade.resolve, "trial": trial.resolve, "war": violence.resolve,
             "bonus": baller.resolve_bonus}
# Version 3: what a roll-off settles, from the contenders' final ranking (`rolloff_step`)
ROLLOFF_ENDS = {
    "action": lambda state, order, rounds: actions.action_order(state, order[0], rounds),
    "draft": lambda state, order, rounds: [regions.draft_opened(state, order, rounds)],
    "endgame": lambda state, order, rounds: [actions.winner_named(state, order[0], rounds)],
}


def rolling_off(state: dict) -> bool:
    """Version 3: a swayable roll-off is pending (between turns, after loading, or at the game's end)."""
    roll = state["roll"]
    return roll is not None and roll["kind"] == rolls.ROLLOFF


def rolloff_step(state: dict, rng: Rng) -> list[Event]:
    """A roll-off round as any roll (declare, answer, cast); then another round among the tied, or what
    the roll-off decides."""
    roll = state["roll"]
    if roll["stage"] == "declare":
        if rules_version(state) >= 4:  # no declarer: every seat with weight answers at once (rolls.py)
            holders = rolls.weight_holders(state)
            if holders:
                return [rolls.sway_opened(None, holders)]
        else:
            return [] if rolls.has_business(state, roll["roller"]) else [rolls.close_declaration(state)]
    elif roll["waiting"]:
        return []
    cast, _, totals = rolls.cast(state, rng)
    slots, rounds = rolls.rolloff_ranked(roll, totals)
    context = roll["context"]
    if any(len(slot) > 1 for slot in slots):
        return [cast, rolls.rolloff_started(context["for"], slots, context["first_only"], rounds)]
    return [cast] + ROLLOFF_ENDS[context["for"]](state, [slot[0] for slot in slots], rounds)


def step(state: dict, rng: Rng) -> list[Event]:
    """The next automatic events (nobody decides them), or [] when a seat must act."""
    if rolling_off(state):
        return rolloff_step(state, rng)
    phase = state["phase"]
    if phase == "empire":
        if choices.all_chosen([p["kept"] for p in state["players"]]):  # the secret empire choice is complete
            return regions.reveal_events(state, rng)
        return []
    if phase == "between":
        return actions.start_turn(state, rng)
    if phase == "draft":
        events = regions.draft_step(state, rng)
        if events and events[0].type == "DraftClosed":
            after = evolve_all(EVOLVERS, "Druglord", state, events)
            return events + [load.loading_started(after)]
        return events
    if phase == "load":
        events = load.load_step(state)
        if events:
            return events
        if all(entry is None for entry in state["loading"]) and not storage.awaited(state):
            return actions.start_actions(state, rng)
        return []
    if phase == "action":
        return actions.action_step(state, rng, RESOLVERS)
    return []


def listing(state: dict, seat: int) -> list[Family]:
    """Every command `seat` may send now, as move families (rules/blocks/families.py): a Trade,
    LoadWeight or Sway family stands for one move per unit count."""
    if rolling_off(state):
        return rolls.families(state, seat)
    phase = state["phase"]
    if phase == "empire":
        return each(regions.keep_moves(state, seat))
    if phase == "draft":
        return each(regions.draft_moves(state, seat))
    if phase == "load":
        return load.families(state, seat) + each(storage.moves(state, seat))
    if phase != "action":
        return []
    if state["roll"] is not None:
        return rolls.families(state, seat)
    action = state["action"]
    if action is not None and action["kind"] == "violence" and action["offer"] == "counter":
        return each(violence.offer_moves(state, seat))
    if storage.asking(state):  # version 4: the phase's end, storing chosen
        return each(storage.moves(state, seat))
    if seat != actor(state):
        return []
    return actions.actor_families(state, seat)


def awaiting(state: dict) -> dict[int, str]:
    """Who must act: one seat, several (secret empire choice, loading, storing), or a Sway window; {} once
    over."""
    phase = state["phase"]
    if rolling_off(state):
        roll = state["roll"]
        return {roll["roller"]: "move"} if roll["stage"] == "declare" else windows.awaiting(roll["waiting"])
    if phase == "empire":
        return choices.awaiting([p["kept"] for p in state["players"]])
    if phase == "draft":
        who, _ = regions.decider(state)
        return {} if who is None else {who: "move"}
    if phase == "load":
        storing = storage.awaited(state)
        return {s: "move" for s, entry in enumerate(state["loading"]) if entry is not None or s in storing}
    if phase != "action":
        return {}
    roll = state["roll"]
    if roll is not None:
        if roll["stage"] == "declare":
            return {roll["roller"]: "move"}
        return windows.awaiting(roll["waiting"])  # the Sway window: every seat that may still sway
    action = state["action"]
    if action is not None and action["kind"] == "violence" and action["offer"] == "counter":
        return {action["defender"]: "response"}
    seat = actor(state)
    if seat is None:  # version 4: at the phase's end, the seats choosing what to store
        return {s: "move" for s in storage.awaited(state)}
    return {seat: "move"}


def timeout_default(state: dict, seat: int) -> dict:
    """Keep the first cards drawn, decline the draft, load by default, no Sway, pass / no more action, store
    what may be stored (as versions 1 and 2 did for the player)."""
    if rolling_off(state):
        return {"type": "EndSway"}
    phase = state["phase"]
    if phase == "empire":
        return regions.keep_moves(state, seat)[0]
    if phase == "draft":
        return {"type": "DeclineDraft"}
    if phase == "load":
        if state["loading"][seat] is None:
            return {"type": "StoreLocally", "regions": storage.offered_now(state, seat)}
        return {"type": "LoadDefault"}
    if state["roll"] is not None:
        return {"type": "EndSway"}
    action = state["action"]
    if action is None:
        if seat in storage.awaited(state):  # version 4, at the phase's end
            return {"type": "StoreLocally", "regions": storage.offered_now(state, seat)}
        return {"type": "Pass"}
    if action["kind"] == "violence":
        return {"type": "DeclineCounter"} if action["offer"] == "counter" else {"type": "EndAction"}
    if action["kind"] == "move" and action.get("reroll"):
        return {"type": "ReRoll"}
    return {"type": "EndAction"}
