"""Who acts now, what a clock does for them, and the automatic steps between decisions.

After every command the game runs on by itself (reveals, draft steps, rolls
nobody sways, phase ends) until a seat must decide: `step` is one such step, and
RulesetBase.settle runs them.
"""
from __future__ import annotations

from rules.base import Event, Rng
from rules.blocks import choices, windows
from rules.blocks.families import Family, each
from rules.druglord import actions, baller, load, regions, rolls, trade, trial, violence
from rules.druglord.evolve import EVOLVERS
from rules.druglord.state import actor
from rules.ruleset import evolve_all

RESOLVERS = {"trade": trade.resolve, "trial": trial.resolve, "war": violence.resolve,
             "bonus": baller.resolve_bonus}

def step(state: dict, rng: Rng) -> list[Event]:
    """The next automatic events (nobody decides them), or [] when a seat must act."""
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
        if all(entry is None for entry in state["loading"]):
            return actions.start_actions(state, rng)
        return []
    if phase == "action":
        return actions.action_step(state, rng, RESOLVERS)
    return []


def listing(state: dict, seat: int) -> list[Family]:
    """Every command `seat` may send now, as move families (rules/blocks/families.py): a Trade,
    LoadWeight or Sway family stands for one move per unit count."""
    phase = state["phase"]
    if phase == "empire":
        return each(regions.keep_moves(state, seat))
    if phase == "draft":
        return each(regions.draft_moves(state, seat))
    if phase == "load":
        return load.families(state, seat)
    if phase != "action":
        return []
    if state["roll"] is not None:
        return rolls.families(state, seat)
    action = state["action"]
    if action is not None and action["kind"] == "violence" and action["offer"] == "counter":
        return each(violence.offer_moves(state, seat))
    if seat != actor(state):
        return []
    return actions.actor_families(state, seat)


def awaiting(state: dict) -> dict[int, str]:
    """Who must act: one seat, several (secret empire choice, loading), or a Sway window; {} once over."""
    phase = state["phase"]
    if phase == "empire":
        return choices.awaiting([p["kept"] for p in state["players"]])
    if phase == "draft":
        who, _ = regions.decider(state)
        return {} if who is None else {who: "move"}
    if phase == "load":
        return {s: "move" for s, entry in enumerate(state["loading"]) if entry is not None}
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
    return {} if seat is None else {seat: "move"}


def timeout_default(state: dict, seat: int) -> dict:
    """Keep the first cards drawn, decline the draft, load by default, no Sway, pass / no more action."""
    phase = state["phase"]
    if phase == "empire":
        return regions.keep_moves(state, seat)[0]
    if phase == "draft":
        return {"type": "DeclineDraft"}
    if phase == "load":
        return {"type": "LoadDefault"}
    if state["roll"] is not None:
        return {"type": "EndSway"}
    action = state["action"]
    if action is None:
        return {"type": "Pass"}
    if action["kind"] == "violence":
        return {"type": "DeclineCounter"} if action["offer"] == "counter" else {"type": "EndAction"}
    if action["kind"] == "move" and action.get("reroll"):
        return {"type": "ReRoll"}
    return {"type": "EndAction"}
