"""Rule 11 Baller Moves: draw (the action), hold in secret, play now, later or as an interrupt.

Cards and timings are in baller_cards.json (reconstructed except Armed Locals and Ideal Rainfall).
Drawn cards go under data["secret"] (only the drawer reads them); a played card is public.
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.druglord import rolls
from rules.druglord.data import CARDS, HAND_LIMIT, WEIGHT_TYPES, card_name
from rules.druglord.guards import region_name, require_actor, require_no_action
from rules.druglord.state import actor, case_total, produces

RULE = "11"


# ----------------------------------------------------------------------------
# Drawing (the action)
# ----------------------------------------------------------------------------

def can_draw(state: dict, seat: int) -> bool:
    return len(state["players"][seat]["hand"]) < HAND_LIMIT and bool(state["baller_deck"] or state["baller_discard"])


def decide_draw(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """DrawBaller: draw 1 card in secret; you may then play a turn card before EndAction."""
    require_no_action(state, seat, "a Baller Move", RULE)
    hand = state["players"][seat]["hand"]
    if len(hand) >= HAND_LIMIT:
        raise IllegalMove(f"your hand is full ({HAND_LIMIT} Baller cards): play one first", rule=RULE)
    events = []
    deck = state["baller_deck"]
    if not deck:
        if not state["baller_discard"]:
            raise IllegalMove("every Baller card is in somebody's hand", rule=RULE)
        deck = rng.shuffled(state["baller_discard"])
        events.append(Event("BallerDeckShuffled", {"count": len(deck), "secret": {"deck": deck}}))
    events.append(Event("BallerDrawn", {"seat": seat, "keep_open": True, "secret": {"card": deck[0]}}))
    return events


# ----------------------------------------------------------------------------
# Playing on your own turn ("turn" timing)
# ----------------------------------------------------------------------------

def can_play_now(state: dict, seat: int) -> bool:
    """Your action turn with nothing pending (before or between your trade rolls, or right after a draw)."""
    if state["phase"] != "action" or state["roll"] is not None:
        return False
    if actor(state) != seat:
        return False
    action = state["action"]
    if action is None or action["kind"] == "draw_card":
        return True
    return action["kind"] == "move" and not action.get("reroll")


def turn_moves(state: dict, seat: int) -> list[dict]:
    if not state["players"][seat]["hand"] or not can_play_now(state, seat):
        return []
    out = []
    mine = sorted(r for r, s in state["owner"].items() if s == seat)
    for card in sorted(set(state["players"][seat]["hand"])):
        entry = CARDS[card]
        if entry["timing"] != "turn":
            continue
        effect = entry["effect"]
        if effect["kind"] == "bonus_weight":
            out += [{"type": "PlayCard", "card": card, "region": r} for r in mine if effect["weight"] in produces(r)]
        elif effect["kind"] == "clear_cases" and case_total(state, seat) > 0:
            out.append({"type": "PlayCard", "card": card, "region": None})
    return out


def decide_play(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PlayCard{card, region}: a card from your hand whose timing fits now."""
    card, region = cmd["card"], cmd["region"]
    if card not in CARDS:
        raise IllegalMove(f"there is no Baller card {card!r}; cards: {', '.join(sorted(CARDS))}", rule=RULE)
    if card not in state["players"][seat]["hand"]:
        raise IllegalMove(f"you hold no {card_name(card)}", rule=RULE)
    entry = CARDS[card]
    effect = entry["effect"]
    if entry["timing"] == "turn":
        return _play_turn_card(state, seat, card, region)
    roll = state["roll"] if state["phase"] == "action" else None
    if roll is None:
        raise IllegalMove(f"{card_name(card)} is played on a die roll ({entry['timing']}): "
                          f"{TIMING_WORDS[entry['timing']]}", rule=RULE)
    rolls.require_roll_turn(state, seat)
    if card not in rolls.playable_cards(state, seat):
        raise IllegalMove(f"{card_name(card)} does not fit this {roll['kind']} roll: "
                          f"{TIMING_WORDS[entry['timing']]}", rule=RULE)
    if region is not None:
        raise IllegalMove(f"{card_name(card)} takes no region (region: null)", rule=RULE)
    played = {"seat": seat, "card": card, "region": None, "die": None, "amount": 0}
    if effect["kind"] == "modify":
        die = effect["die"]
        return [Event("CardPlayed", {**played, "die": die, "amount": effect["amount"]})]
    if effect["kind"] == "walk":
        return [Event("CardPlayed", played),
                Event("TrialResolved", {"seat": seat, "total": None, "result": 7, "name": "Nothing",
                                        "walked": True}),
                Event("CasesReset", {"seat": seat})]
    # call_off
    return [Event("CardPlayed", played), Event("WarCalledOff", {"seat": seat, "card": card})]


def _play_turn_card(state: dict, seat: int, card: str, region: str | None) -> list[Event]:
    if not can_play_now(state, seat):
        require_actor(state, seat, RULE)
        raise IllegalMove(f"{card_name(card)} is played on your turn while nothing else is pending", rule=RULE)
    effect = CARDS[card]["effect"]
    if effect["kind"] == "clear_cases":
        if region is not None:
            raise IllegalMove(f"{card_name(card)} takes no region (region: null)", rule=RULE)
        if case_total(state, seat) == 0:
            raise IllegalMove("you have no Cases to remove", rule=RULE)
        removed = clear_cases(state["players"][seat]["cases"], effect["amount"])
        return [Event("CardPlayed", {"seat": seat, "card": card, "region": None, "die": None, "amount": 0}),
                Event("CasesCleared", {"seat": seat, "removed": removed})]
    wtype = effect["weight"]
    if region is None or state["owner"].get(region) != seat:
        raise IllegalMove(f"{card_name(card)} needs one of your regions that grows {wtype}", rule=RULE)
    if wtype not in produces(region):
        raise IllegalMove(f"{region_name(region)} does not grow {wtype}", rule=RULE)
    return [Event("CardPlayed", {"seat": seat, "card": card, "region": region, "die": None, "amount": 0}),
            rolls.start("bonus", seat, ["bonus"], {"bonus": seat}, {"card": card, "region": region,
                                                                    "weight": wtype})]


def clear_cases(cases: dict, amount: int) -> dict:
    """Up to `amount` Cases removed, from the most numerous type first (ties: action-phase order)."""
    left = dict(cases)
    removed = {t: 0 for t in WEIGHT_TYPES}
    for _ in range(amount):
        most = max(WEIGHT_TYPES, key=lambda t: (left[t], -WEIGHT_TYPES.index(t)))
        if left[most] == 0:
            break
        left[most] -= 1
        removed[most] += 1
    return {t: n for t, n in removed.items() if n}


def bonus_units(card: str, total: int, natural: int) -> int:
    """The printed table: 1=0 2=1 3=2 4-8=3 9+=4 (a natural 1 is 0)."""
    if natural == 1:
        return 0
    units = 0
    for threshold, amount in CARDS[card]["effect"]["table"]:
        if total >= threshold:
            units = amount
    return units


def resolve_bonus(state: dict, roll: dict, naturals: dict, totals: dict, rng: Rng) -> list[Event]:
    """Bonus weight from the supply onto the region (as far as the supply lasts)."""
    ctx = roll["context"]
    rolled = bonus_units(ctx["card"], totals["bonus"], naturals["bonus"])
    units = min(rolled, state["supply"][ctx["weight"]])
    if state["owner"].get(ctx["region"]) != roll["roller"]:
        units = 0
    return [Event("BonusWeight", {"seat": roll["roller"], "card": ctx["card"], "region": ctx["region"],
                                  "weight": ctx["weight"], "rolled": rolled, "units": units})]


TIMING_WORDS = {
    "turn": "on your own turn when nothing is pending",
    "trade": "while you declare Sway on your own Trade roll",
    "attack": "while you declare Sway as the attacker",
    "defence": "when one of your Regions is attacked, before the dice are cast",
    "interrupt": "when another player's Trade roll is being swayed, before the die is cast",
    "trial": "while you declare Sway on your own Trial roll",
}
