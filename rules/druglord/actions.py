"""Rule 4 Take Action (order, one action per phase), Rule 10 Draw 2 Weight, passing, ending an action,
and the turn's flow: phases, the end-of-phase sweep to the Traphouse, the Endgame (Rule 12)."""
from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

from rules.base import Event, IllegalMove, Rng
from rules.blocks import turns
from rules.blocks.families import Family, each, one
from rules.druglord import baller, load, regions, rolls, storage, trade, violence
from rules.druglord.data import WEIGHT_TYPES
from rules.druglord.guards import ACTION_WORDS, require_actor, require_no_action
from rules.druglord.state import actor, demand, produces
from rules.folding import rules_version

RULE = "4"


# ----------------------------------------------------------------------------
# The acting seat's moves
# ----------------------------------------------------------------------------

def draw_weight_moves(state: dict) -> list[dict]:
    """Rule 10: any 2 units from the supply (1 if only 1 is left)."""
    return [{"type": "DrawWeight", "weights": list(weights)} for weights in _draws(_stock(state["supply"]))]


def _stock(supply: dict) -> tuple[int, ...]:
    """What a draw of 2 depends on: per weight type none, 1, or 2 and more left; then the same of the
    whole supply (a last unit is drawn alone)."""
    return tuple(min(supply[t], 2) for t in WEIGHT_TYPES) + (min(sum(supply.values()), 2),)


@cache
def _draws(stock: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    left = [t for t, n in zip(WEIGHT_TYPES, stock) if n > 0]
    if stock[-1] == 1:
        return (tuple(left),)
    return tuple((a, b) for a, b in combinations_with_replacement(left, 2)
                 if a != b or stock[WEIGHT_TYPES.index(a)] >= 2)


@cache
def _draw_families(stock: tuple[int, ...]) -> tuple[Family, ...]:
    """draw_weight_moves as single-move families, one set per stock (listings are read-only)."""
    return tuple(one({"type": "DrawWeight", "weights": list(weights)}) for weights in _draws(stock))


PASS, END_ACTION, DRAW_BALLER = one({"type": "Pass"}), one({"type": "EndAction"}), one({"type": "DrawBaller"})


def actor_families(state: dict, seat: int) -> list[Family]:
    """Everything the acting seat may do (no roll pending)."""
    action = state["action"]
    if action is None:
        out = trade.families(state, seat) + each(violence.moves(state, seat))
        out += _draw_families(_stock(state["supply"]))
        if baller.can_draw(state, seat):
            out.append(DRAW_BALLER)
        return out + each(baller.turn_moves(state, seat)) + [PASS]
    if action["kind"] == "move":
        if action.get("reroll"):
            return each(trade.offer_moves(state, seat))
        return trade.families(state, seat) + each(baller.turn_moves(state, seat)) + [END_ACTION]
    if action["kind"] == "violence":
        return each(violence.offer_moves(state, seat))
    return each(baller.turn_moves(state, seat)) + [END_ACTION]


def normalize_draw(cmd: dict) -> dict:
    weights = cmd["weights"]
    if all(w in WEIGHT_TYPES for w in weights):
        weights = sorted(weights, key=WEIGHT_TYPES.index)
    return dict(cmd, weights=weights)


def decide_draw_weight(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """DrawWeight{weights}: 2 units to your Traphouse, usable from the next phase of their type."""
    require_no_action(state, seat, "Draw 2", "10")
    weights = cmd["weights"]
    bad = [w for w in weights if w not in WEIGHT_TYPES]
    if bad:
        raise IllegalMove(f"{bad[0]!r} is not a weight type ({', '.join(WEIGHT_TYPES)})", rule="10")
    if len(weights) != min(2, sum(state["supply"].values())):
        raise IllegalMove("draw exactly 2 units of weight (any types)", rule="10")
    for w in set(weights):
        if weights.count(w) > state["supply"][w]:
            raise IllegalMove(f"only {state['supply'][w]} {w} left in the supply", rule="10")
    return [Event("WeightDrawn", {"seat": seat, "weights": list(weights)}), Event("ActionEnded", {"seat": seat})]


def decide_pass(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Pass: take no action this phase."""
    require_no_action(state, seat, "passing", RULE)
    return [Event("Passed", {"seat": seat}), Event("ActionEnded", {"seat": seat})]


def decide_end_action(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """EndAction: stop trading into this destination / keep the drawn card / do not press the attack."""
    require_actor(state, seat, RULE)
    action = state["action"]
    if action is None:
        raise IllegalMove("you have not started an action (use Pass to take none)", rule=RULE)
    if action["kind"] == "move" and action.get("reroll"):
        raise IllegalMove("first decide on the failed Sea Trade: ReRoll or AcceptBust", rule="5.C")
    if action["kind"] == "violence" and action["offer"] != "press":
        raise IllegalMove("the Violence is not finished", rule="9")
    return [Event("ActionEnded", {"seat": seat, "action": ACTION_WORDS[action["kind"]]})]


# ----------------------------------------------------------------------------
# Flow: what happens by itself after a command
# ----------------------------------------------------------------------------

def start_turn(state: dict, rng: Rng) -> list[Event]:
    """TurnStarted, then the Region Phase: the draft from turn 2, then loading."""
    turn = state["turn"] + 1
    events = [Event("TurnStarted", {"turn": turn})]
    if turn >= 2:
        return events + regions.draft_events(state, rng)
    return events + [load.loading_started(state)]


def start_actions(state: dict, rng: Rng) -> list[Event]:
    """"Players roll for Action order, highest rolling player acting first" -- then clockwise.  Version 3:
    the roll is swayable (rolls.rolloff_started; `action_order` follows it)."""
    if rules_version(state) >= 3:
        return [rolls.rolloff_started("action", [list(range(state["seats"]))], True, [])]
    rounds, first = rolls.first_by_rolloff(list(range(state["seats"])), rng)
    return action_order(state, first, rounds)


def action_order(state: dict, first: int, rounds: list) -> list[Event]:
    """The order, clockwise from the high roller, and the first action phase."""
    order = turns.order_from(first, state["seats"])
    return [Event("ActionOrderRolled", {"rounds": rounds, "order": order}),
            Event("PhaseStarted", {"wtype": WEIGHT_TYPES[0]})]


def stores_locally(state: dict, region: str, total: int, seat: int) -> int:
    """Units of this phase's type a region keeps for a later Domestic Trade (Rule 5.A).  Version 3: as its
    owner chose (storage.py: "may be stored locally", a Region with Weight Value 1).  Version 2: "If a
    Region only produces 1 of a type of Weight for which there is local demand, the weight may be stored
    locally" -- a single unit, of a type it produces and demands.  Version 1: one unit on any region with
    Demand for the type, whatever it held or produced."""
    wtype = state["wtype"]
    if rules_version(state) >= 3:  # version 4: chosen at this phase's end (storage.py)
        return storage.stores(state, seat, region)
    if rules_version(state) >= 2:
        return 1 if total == 1 and wtype in produces(region) and demand(region, wtype) > 0 else 0
    return 1 if demand(region, wtype) > 0 else 0


def sweep(state: dict) -> list[list]:
    """End of a phase: untraded weight of its type goes to the Traphouse, except what a region stores
    locally for a later Domestic Trade (Rule 5.A, `stores_locally`)."""
    wtype = state["wtype"]
    out = []
    for region, seat in sorted(state["owner"].items()):
        total = state["weight"][region][wtype] + state["stored"][region][wtype]
        if total == 0:
            continue
        store = stores_locally(state, region, total, seat)
        out.append([seat, region, total - store, store])
    return out


def end_phase(state: dict, rng: Rng) -> list[Event]:
    wtype = state["wtype"]
    events = [Event("PhaseEnded", {"wtype": wtype, "sweep": sweep(state)})]
    index = WEIGHT_TYPES.index(wtype)
    if index + 1 < len(WEIGHT_TYPES):
        return events + [Event("PhaseStarted", {"wtype": WEIGHT_TYPES[index + 1]})]
    events.append(Event("TurnEnded", {"turn": state["turn"]}))
    if state["endgame"] is not None:
        events.append(game_ended(state, rng))
    return events


def game_ended(state: dict, rng: Rng) -> Event:
    """"The highest scoring Player after all Phases complete"; ties by roll-off (version 3: a swayable one,
    whose end is `winner_named`)."""
    tied = top_scorers(state)
    if rules_version(state) >= 3 and len(tied) > 1:
        return rolls.rolloff_started("endgame", [tied], True, [])
    rounds, winner = rolls.first_by_rolloff(tied, rng)
    return winner_named(state, winner, rounds)


def top_scorers(state: dict) -> list[int]:
    scores = [p["score"] for p in state["players"]]
    return [s for s in range(state["seats"]) if scores[s] == max(scores)]


def winner_named(state: dict, winner: int, rounds: list) -> Event:
    """GameEnded: the winner, and the roll-off that broke a tie."""
    scores = [p["score"] for p in state["players"]]
    best = max(scores)
    tied = top_scorers(state)
    reason = f"highest score after the last turn ({best} stacks)"
    if len(tied) > 1:
        reason += f", won a roll-off among seats {', '.join(map(str, tied))}"
    return Event("GameEnded", {"winners": [winner], "scores": scores, "reason": reason, "rolloff": rounds})


def action_step(state: dict, rng: Rng, resolvers: dict) -> list[Event]:
    """Automatic steps in an action phase: the Endgame trigger, closing empty declarations, casting dice,
    ending finished actions, ending the phase."""
    if state["endgame"] is None:
        goal = state["options"]["game_to"]
        for who, player in enumerate(state["players"]):  # the first seat to reach it
            if player["score"] >= goal:
                return [Event("EndgameTriggered", {"seat": who, "score": player["score"]})]
    roll = state["roll"]
    if roll is not None:
        if roll["stage"] == "declare":
            if not rolls.has_business(state, roll["roller"]):
                return [rolls.close_declaration(state)]
            return []
        if roll["waiting"]:
            return []
        cast, naturals, totals = rolls.cast(state, rng)
        return [cast] + resolvers[roll["kind"]](state, roll, naturals, totals, rng)
    action = state["action"]
    seat = actor(state)
    if action is not None:
        # holding cards, the player ends it (a Baller card might still be played: no tell either way)
        if action["kind"] == "move" and not action.get("reroll") and not state["players"][seat]["hand"] \
                and not trade.can_trade(state, seat):
            return [Event("ActionEnded", {"seat": seat, "action": "Move Weight"})]
        if action["kind"] == "violence" and action["offer"] is None:
            return [Event("ActionEnded", {"seat": seat, "action": "Violence"})]
        return []
    if seat is None:
        if storage.awaited(state):  # version 4: what the untraded weight stores is chosen first
            return []
        return end_phase(state, rng)
    return []
