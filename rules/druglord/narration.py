"""Druglord narrates its events: one sentence per event in the rulebook's words (rules/narration.py).

Each narrator reads the event's data as its reader may read it: a Region Card draw, a starting
empire or a Baller draw carries its cards under `secret`, which only the seat itself receives, so the
others read "Ana drew 5 Region Cards." and Ana reads which.  Regions are named as the map names them
(board.json), Baller Moves cards as printed (baller_cards.json), weight by its phase (Reefer, Pills,
Coca, Opiates), rolls as dice ("rolled 3 against 9").
"""
from __future__ import annotations

from typing import Any, Mapping

from rules.druglord.data import BOARD, CARDS, PHASE_NAMES
from rules.druglord.geo import route_kind, route_ocean
from rules.narration import Names, Narration, Narrator, dice, plural, ref, said, seats_named

Data = Mapping[str, Any]


# ------------------------------------------------------------------ words
def region(rid: Any) -> dict:
    """The ref of a Region, named as the map names it ("a Region" for an id the map lacks)."""
    known = BOARD.regions.get(rid) if isinstance(rid, str) else None
    return ref("place", rid, known.name if known else "a Region")


def card(cid: Any) -> dict:
    """The ref of a Baller Moves card, named as printed."""
    entry = CARDS.get(cid) if isinstance(cid, str) else None
    return ref("card", cid, entry["name"] if entry else "a Baller Moves card")


def weight(wtype: Any) -> str:
    """Weight in the rulebook's words: Reefer, Pills, Coca, Opiates."""
    return PHASE_NAMES.get(wtype, "weight")


def units(n: int, wtype: Any) -> str:
    return f"{plural(n, 'unit')} of {weight(wtype)}"


def listing(words: list[str]) -> str:
    """"A", "A and B", "A, B and C"."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + f" and {words[-1]}" if words else "nothing"


ROUTES = {"domestic": "Domestic Trade", "land": "Land Trade", "extended": "Extended Land Trade",
          "sea": "Sea Trade", "hybrid": "Hybrid Trade", "air": "Air Trade", "export": "a Traphouse export"}
OCEAN_NAMES = {"atlantic": "Atlantic", "pacific": "Pacific", "indian": "Indian Ocean", "caspian": "Caspian"}
DIE_NAMES = {"trade": "Trade Roll", "attack": "Attack Roll", "defence": "Defence Roll", "trial": "Trial Roll",
             "bonus": "bonus roll"}
ROLL_KINDS = {"trade": "for the trade", "trial": "at Trial", "war": "for Violence", "bonus": "for bonus weight"}


def route(route_id: Any) -> str:
    """"by Sea Trade over the Atlantic"."""
    kind = ROUTES.get(route_kind(str(route_id)), "trade")
    ocean = route_ocean(str(route_id))
    return f"by {kind}" + (f" over the {OCEAN_NAMES.get(ocean, 'sea')}" if ocean else "")


def source(seat_name: str, place: Any, refs: list) -> str:
    """Where weight comes from: a Region (ref added) or the seat's Traphouse."""
    if place == "traphouse":
        return f"{seat_name}'s Traphouse"
    refs.append(region(place))
    return refs[-1]["text"]


# ------------------------------------------------------------------ setup and the draft
def game_started(d: Data, names: Names) -> Narration:
    game_to = (d.get("options") or {}).get("game_to", 20)
    return said(f"The table is set for {d['seats']} players: the game is to {game_to}.")


def region_cards_drawn(d: Data, names: Names) -> Narration:
    who = names(d["seat"])
    drawn = (d.get("secret") or {}).get("regions")
    if drawn is None:
        return said(f"{who} drew {plural(d['count'], 'Region Card')}.", names.ref(d["seat"]))
    refs = [region(r) for r in drawn]
    return said(f"{who} drew {listing([r['text'] for r in refs])}.", names.ref(d["seat"]), *refs)


def empire_chosen(d: Data, names: Names) -> Narration:
    who = names(d["seat"])
    kept = (d.get("secret") or {}).get("regions")
    if kept is None:
        return said(f"{who} chose a secret starting empire.", names.ref(d["seat"]))
    refs = [region(r) for r in kept]
    return said(f"{who} kept {listing([r['text'] for r in refs])} as a starting empire.", names.ref(d["seat"]), *refs)


def empires_revealed(d: Data, names: Names) -> Narration:
    parts, refs = [], []
    for seat, empire in enumerate(d["empires"]):
        regions = [region(r) for r in empire]
        refs += [names.ref(seat), *regions]
        parts.append(f"{names(seat)} {listing([r['text'] for r in regions])}")
    return said("The starting empires are revealed: " + "; ".join(parts) + ".", *refs)


def deck_shuffled(d: Data, names: Names) -> Narration:
    return said(f"The Region deck was shuffled ({plural(d['count'], 'card')}).")


def turn_started(d: Data, names: Names) -> Narration:
    return said(f"Turn {d['turn']} begins.")


def draft_opened(d: Data, names: Names) -> Narration:
    new = [region(r) for r in d["new"]]
    refs: list = [names.ref(d["drawer"])] if d.get("drawer") is not None and new else []
    parts = [f"{names(d['drawer'])} turned up {listing([r['text'] for r in new])}"] if refs else []
    for lost in d.get("lost", []):
        r = region(lost["region"])
        refs.append(r)
        claim = lost.get("priority")
        if isinstance(claim, int):
            refs.append(names.ref(claim))
        parts.append(f"{r['text']} is back" + (f", {names(claim)} may claim it" if isinstance(claim, int) else ""))
    order = ", ".join(names(s) for s in d["order"])
    text = "The draft opens" + (": " + "; ".join(parts) if parts else "") + f"; the picks go {order}"
    rolled = [f"{listing([names(s) for s in r['who']])} rolled {dice(*r['dice'])}" for r in d.get("rolloffs", [])]
    if rolled:
        text += " (roll-off: " + "; ".join(rolled) + ")"
    return said(text + ".", *refs)


def region_claimed(d: Data, names: Names) -> Narration:
    r = region(d["region"])
    return said(f"{names(d['seat'])} claimed {r['text']}, won through Violence.", names.ref(d["seat"]), r)


def claim_declined(d: Data, names: Names) -> Narration:
    r = region(d["region"])
    why = " (already drafted)" if d.get("reason") == "already drafted" else ""
    return said(f"{names(d['seat'])} did not claim {r['text']}{why}.", names.ref(d["seat"]), r)


def region_drafted(d: Data, names: Names) -> Narration:
    r = region(d["region"])
    return said(f"{names(d['seat'])} drafted {r['text']}.", names.ref(d["seat"]), r)


def draft_declined(d: Data, names: Names) -> Narration:
    why = " (already claimed a Region)" if d.get("reason") == "claimed" else ""
    return said(f"{names(d['seat'])} declined the pick{why}.", names.ref(d["seat"]))


def draft_closed(d: Data, names: Names) -> Narration:
    back = [region(r) for r in d["returned"]]
    if not back:
        return said("The draft is over.")
    return said(f"The draft is over: {listing([r['text'] for r in back])} went unpicked.", *back)


# ------------------------------------------------------------------ loading (Rule 3)
def loading_started(d: Data, names: Names) -> Narration:
    total = sum(sum(load["production"].values()) for load in d["loads"] if load)
    return said(f"Loading begins: the Regions produce {plural(total, 'unit')} of weight.")


def weight_loaded(d: Data, names: Names) -> Narration:
    who = names(d["seat"])
    refs: list = [names.ref(d["seat"])]
    parts = []
    for src, dest, wtype, n in d["placements"]:
        text = f"{units(n, wtype)} from {source(who, src, refs)}"
        if dest != src:
            text += f" onto {source(who, dest, refs)}"
        parts.append(text)
    return said(f"{who} loaded {listing(parts)}.", *refs)


def loading_finished(d: Data, names: Names) -> Narration:
    lost = d.get("forfeited", 0)
    tail = f", forfeiting {plural(lost, 'unit')}" if lost else ""
    return said(f"{names(d['seat'])} finished loading{tail}.", names.ref(d["seat"]))


# ------------------------------------------------------------------ actions (Rules 4, 10, 12)
def action_order_rolled(d: Data, names: Names) -> Narration:
    rounds = [", ".join(f"{names(s)} {v}" for s, v in zip(r["who"], r["dice"])) for r in d["rounds"]]
    order = ", ".join(names(s) for s in d["order"])
    return said(f"The action order was rolled ({'; then '.join(rounds)}): {order}.",
                *[names.ref(s) for s in d["order"]])


def phase_started(d: Data, names: Names) -> Narration:
    return said(f"The {weight(d['wtype'])} phase begins.")


def passed(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])} passed.", names.ref(d["seat"]))


def action_ended(d: Data, names: Names) -> Narration:
    what = d.get("action")
    return said(f"{names(d['seat'])} ended the action" + (f" ({what})." if what else "."), names.ref(d["seat"]))


def storage_chosen(d: Data, names: Names) -> Narration:
    """Rule 5.A (version 3): the Regions whose lone unit stays stored locally; the rest goes to the Traphouse."""
    kept = [region(r) for r in d.get("stored") or []]
    what = weight(d.get("weight"))
    if not kept:
        return said(f"{names(d['seat'])} stored no {what} locally.", names.ref(d["seat"]))
    return said(f"{names(d['seat'])} stored {what} locally on {listing([r['text'] for r in kept])}.",
                names.ref(d["seat"]), *kept)


def phase_ended(d: Data, names: Names) -> Narration:
    to_trap = sum(entry[2] for entry in d["sweep"])
    tail = f"; {plural(to_trap, 'unit')} swept into Traphouses" if to_trap else ""
    return said(f"The {weight(d['wtype'])} phase ended{tail}.")


def turn_ended(d: Data, names: Names) -> Narration:
    return said(f"Turn {d['turn']} is over.")


def game_ended(d: Data, names: Names) -> Narration:
    winners = d["winners"]
    scores = d.get("scores") or []
    standings = ", ".join(f"{names(s)} {score}" for s, score in enumerate(scores))
    reason = seats_named(d.get("reason", ""), names)
    text = f"{listing([names(s) for s in winners])} won" + (f" with the {reason}" if reason else "") + \
        (f". Scores: {standings}." if standings else ".")
    return said(text, *[names.ref(s) for s in winners])


def weight_drawn(d: Data, names: Names) -> Narration:
    ws = d["weights"]
    drawn = units(len(ws), ws[0]) if len(set(ws)) == 1 else listing([weight(w) for w in ws])
    return said(f"{names(d['seat'])} drew {drawn} into the Traphouse.", names.ref(d["seat"]))


def endgame_triggered(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])} reached {d['score']}: the Endgame begins.", names.ref(d["seat"]))


# ------------------------------------------------------------------ rolls and sways (Rule 7)
def roll_started(d: Data, names: Names) -> Narration:
    ctx = d.get("context") or {}
    who = names(d["roller"])
    refs = [names.ref(d["roller"])]
    if d["kind"] == "war":
        target, frm = region(ctx.get("target")), region(ctx.get("from"))
        refs += [target, frm]
        text = f"{who} is about to roll for Violence on {target['text']} from {frm['text']}"
    elif d["kind"] == "bonus" and ctx.get("card"):
        c = card(ctx["card"])
        refs.append(c)
        text = f"{who} is about to roll for {c['text']}"
        if ctx.get("region"):
            refs.append(region(ctx["region"]))
            text += f" on {refs[-1]['text']}"
    else:
        text = f"{who} is about to roll {ROLL_KINDS.get(d['kind'], '')}".rstrip()
    return said(text + "; the dice may be swayed.", *refs)


def sway_declared(d: Data, names: Names) -> Narration:
    n = d["units"]
    way = "up" if n >= 0 else "down"
    return said(f"{names(d['seat'])} swayed the {DIE_NAMES.get(d['die'], 'roll')} {way} by {abs(n)} "
                f"with {weight(d['weight'])}.", names.ref(d["seat"]))


def declaration_closed(d: Data, names: Names) -> Narration:
    responders = d.get("responders") or []
    tail = f"; {listing([names(s) for s in responders])} may sway" if responders else ""
    return said(f"{names(d['seat'])} is done swaying{tail}.", names.ref(d["seat"]),
                *[names.ref(s) for s in responders])


def sway_opened(d: Data, names: Names) -> Narration:
    asked = d.get("responders") or []
    who = listing([names(s) for s in asked]) if asked else "nobody"
    after = d.get("seat")
    if after is None:
        return said(f"{who} may sway the roll-off.", *[names.ref(s) for s in asked])
    return said(f"{who} may answer {names(after)}'s Sway.", names.ref(after), *[names.ref(s) for s in asked])


def sway_ended(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])} is done swaying.", names.ref(d["seat"]))


def roll_cast(d: Data, names: Names) -> Narration:
    who = names(d["roller"])
    nat, tot = d.get("naturals") or {}, d.get("totals") or {}
    if d["kind"] == "war" and "attack" in nat:
        text = f"{who} rolled {nat['attack']} against {nat.get('defence', 0)} for Violence"
        if (tot.get("attack"), tot.get("defence")) != (nat["attack"], nat.get("defence")):
            text += f" ({tot.get('attack')} against {tot.get('defence')} with modifiers)"
    else:
        rolled = dice(*nat.values()) if nat else "nothing"
        text = f"{who} rolled {rolled} {ROLL_KINDS.get(d['kind'], '')}".rstrip()
        if tot != nat and tot:
            text += f" ({dice(*tot.values())} with modifiers)"
    played = [card(c) for _, c in d.get("cards") or []]
    if played:
        text += f", with {listing([c['text'] for c in played])}"
    return said(text + ".", names.ref(d["roller"]), *played)


# ------------------------------------------------------------------ trades (Rules 5, 6)
def _trade(d: Data, names: Names) -> tuple[str, list]:
    who = names(d["seat"])
    refs: list = [names.ref(d["seat"])]
    src = source(who, d["from"], refs)
    dest = region(d["to"])
    refs.append(dest)
    where = f"at {dest['text']}" if d["to"] == d["from"] else f"from {src} to {dest['text']}"
    return f"{who} trades {units(d['units'], d['weight'])} {where} {route(d['route'])}", refs


def trade_declared(d: Data, names: Names) -> Narration:
    text, refs = _trade(d, names)
    target = f", needing {d['target']} or more" if d.get("target") is not None else ""
    return said(text.replace(" trades ", " declared a trade of ", 1) + target + ".", *refs)


def trade_succeeded(d: Data, names: Names) -> Narration:
    text, refs = _trade(d, names)
    return said(text.replace(" trades ", " traded ", 1) + f": {plural(d.get('stacks', 0), 'stack')} scored, "
                f"score {d.get('score', 0)}.", *refs)


def trade_failed(d: Data, names: Names) -> Narration:
    text, refs = _trade(d, names)
    text = text.replace(" trades ", " failed to trade ", 1)
    if d.get("reroll_offered"):
        text += "; a re-roll is offered"
    if d.get("cases_added"):
        text += f"; {plural(d['cases_added'], 'Case')} added"
    return said(text + ".", *refs)


def reroll_taken(d: Data, names: Names) -> Narration:
    frm, to = region(d["from"]), region(d["to"])
    ocean = OCEAN_NAMES.get(d.get("ocean"), "sea")
    return said(f"{names(d['seat'])} re-rolls the failed trade of {plural(d['units'], 'unit')} from {frm['text']} "
                f"to {to['text']} over the {ocean}.", names.ref(d["seat"]), frm, to)


def bust_accepted(d: Data, names: Names) -> Narration:
    text, refs = _trade(d, names)
    text = text.replace(" trades ", " accepted the bust of ", 1)
    if d.get("cases_added"):
        text += f": {plural(d['cases_added'], 'Case')} added"
    return said(text + ".", *refs)


# ------------------------------------------------------------------ Trial (Rule 8)
def trial_resolved(d: Data, names: Names) -> Narration:
    who = names(d["seat"])
    if d.get("walked"):
        return said(f"{who} walked free at Trial.", names.ref(d["seat"]))
    return said(f"{who} stood Trial and rolled {d['total']}: {d['name']}.", names.ref(d["seat"]))


CAUSES = {"violence": "to Violence", "counterattack": "to a counterattack", "trial": "at Trial"}


def region_lost(d: Data, names: Names) -> Narration:
    r = region(d["region"])
    text = f"{names(d['seat'])} lost {r['text']} {CAUSES.get(d.get('cause'), '')}".rstrip()
    refs = [names.ref(d["seat"]), r]
    if isinstance(d.get("priority"), int):
        text += f"; {names(d['priority'])} may claim it at the next draft"
        refs.append(names.ref(d["priority"]))
    return said(text + ".", *refs)


def _tie_rolls(rounds: Any) -> str:
    """The roll-off between tied weight types, as dice."""
    if not rounds:
        return ""
    return " (tie rolled off: " + "; ".join(
        ", ".join(f"{weight(t)} {v}" for t, v in zip(r.get("who", []), r.get("dice", [])))
        for r in rounds if isinstance(r, Mapping)) + ")"


def crackdown_imposed(d: Data, names: Names) -> Narration:
    return said(f"A Crackdown on {names(d['seat'])}'s {weight(d['weight'])}: -1 to its Trade Rolls for the rest "
                f"of the game{_tie_rolls(d.get('tie_rolls'))}.", names.ref(d["seat"]))


def score_set_back(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])}'s score was set back from {d['from']} to {d['to']}.", names.ref(d["seat"]))


REMOVALS = {"violence": "lost in Violence", "mass_raids": "seized in Mass Raids",
            "asset_seizure": "seized from the Traphouse (Asset Seizure)", "local_busts": "seized in Local Busts"}


def weight_removed(d: Data, names: Names) -> Narration:
    who = names(d["seat"])
    refs: list = [names.ref(d["seat"])]
    parts = [f"{units(n, wtype)} from {source(who, place, refs)}" for place, _, wtype, n in d["removed"]]
    how = REMOVALS.get(d.get("cause"), "removed")
    if not parts:
        return said(f"{who} had no weight to be {how}.", *refs)
    return said(f"{who} had {listing(parts)} {how}{_tie_rolls(d.get('tie_rolls'))}.", *refs)


def cases_reset(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])}'s Cases were reset.", names.ref(d["seat"]))


def cases_cleared(d: Data, names: Names) -> Narration:
    removed = listing([plural(n, f"{weight(t)} Case") for t, n in d["removed"].items() if n])
    return said(f"{names(d['seat'])} cleared {removed}.", names.ref(d["seat"]))


# ------------------------------------------------------------------ Violence (Rule 9)
def attack_declared(d: Data, names: Names) -> Narration:
    target, frm = region(d["target"]), region(d["from"])
    return said(f"{names(d['seat'])} attacked {names(d['defender'])}'s {target['text']} from {frm['text']}.",
                names.ref(d["seat"]), names.ref(d["defender"]), target, frm)


ROUND_WORDS = {"attack": "attack", "press": "pressed attack", "counter": "counterattack"}


def war_resolved(d: Data, names: Names) -> Narration:
    attacker, defender = names(d["attacker"]), names(d["defender"])
    target, frm = region(d["target"]), region(d["from"])
    winner = attacker if d["winner"] == "attacker" else defender
    text = (f"{attacker}'s {ROUND_WORDS.get(d['round'], 'attack')} on {defender}'s {target['text']} from "
            f"{frm['text']}: {d['attack']} against {d['defence']}, {winner} won")
    if d.get("offer") == "press":
        text += f"; {attacker} may press the attack"
    elif d.get("offer") == "counter":
        text += f" by 5 or more; {defender} may counterattack"
    return said(text + ".", names.ref(d["attacker"]), names.ref(d["defender"]), target, frm)


def attack_pressed(d: Data, names: Names) -> Narration:
    verb = "counterattacked" if d.get("round") == "counter" else "pressed the attack"
    return said(f"{names(d['seat'])} {verb}.", names.ref(d["seat"]))


def war_called_off(d: Data, names: Names) -> Narration:
    c = card(d["card"])
    return said(f"{names(d['seat'])} called off the war with {c['text']}.", names.ref(d["seat"]), c)


def counter_declined(d: Data, names: Names) -> Narration:
    return said(f"{names(d['seat'])} did not counterattack.", names.ref(d["seat"]))


# ------------------------------------------------------------------ Baller Moves (Rule 11)
def baller_drawn(d: Data, names: Names) -> Narration:
    drawn = (d.get("secret") or {}).get("card")
    if drawn is None:
        return said(f"{names(d['seat'])} drew a Baller Moves card.", names.ref(d["seat"]))
    c = card(drawn)
    return said(f"{names(d['seat'])} drew {c['text']}.", names.ref(d["seat"]), c)


def baller_deck_shuffled(d: Data, names: Names) -> Narration:
    return said(f"The Baller Moves deck was shuffled ({plural(d['count'], 'card')}).")


def card_played(d: Data, names: Names) -> Narration:
    c = card(d["card"])
    refs = [names.ref(d["seat"]), c]
    text = f"{names(d['seat'])} played {c['text']}"
    if d.get("region"):
        refs.append(region(d["region"]))
        text += f" on {refs[-1]['text']}"
    if d.get("die") and d.get("amount"):
        text += f": {d['amount']:+d} on the {DIE_NAMES.get(d['die'], 'roll')}"
    return said(text + ".", *refs)


def bonus_weight(d: Data, names: Names) -> Narration:
    c, r = card(d["card"]), region(d["region"])
    return said(f"{c['text']} on {r['text']}: {names(d['seat'])} rolled {d['rolled']} for "
                f"{units(d['units'], d['weight'])}.", c, r, names.ref(d["seat"]))


NARRATIONS: dict[str, Narrator] = {
    "GameStarted": game_started,
    "RegionCardsDrawn": region_cards_drawn,
    "EmpireChosen": empire_chosen,
    "EmpiresRevealed": empires_revealed,
    "DeckShuffled": deck_shuffled,
    "TurnStarted": turn_started,
    "DraftOpened": draft_opened,
    "RegionClaimed": region_claimed,
    "ClaimDeclined": claim_declined,
    "RegionDrafted": region_drafted,
    "DraftDeclined": draft_declined,
    "DraftClosed": draft_closed,
    "LoadingStarted": loading_started,
    "WeightLoaded": weight_loaded,
    "LoadingFinished": loading_finished,
    "ActionOrderRolled": action_order_rolled,
    "PhaseStarted": phase_started,
    "Passed": passed,
    "ActionEnded": action_ended,
    "StorageChosen": storage_chosen,
    "PhaseEnded": phase_ended,
    "TurnEnded": turn_ended,
    "GameEnded": game_ended,
    "WeightDrawn": weight_drawn,
    "RollStarted": roll_started,
    "SwayDeclared": sway_declared,
    "DeclarationClosed": declaration_closed,
    "SwayOpened": sway_opened,
    "SwayEnded": sway_ended,
    "RollCast": roll_cast,
    "TradeDeclared": trade_declared,
    "TradeSucceeded": trade_succeeded,
    "TradeFailed": trade_failed,
    "RerollTaken": reroll_taken,
    "BustAccepted": bust_accepted,
    "EndgameTriggered": endgame_triggered,
    "TrialResolved": trial_resolved,
    "RegionLost": region_lost,
    "CrackdownImposed": crackdown_imposed,
    "ScoreSetBack": score_set_back,
    "WeightRemoved": weight_removed,
    "CasesReset": cases_reset,
    "CasesCleared": cases_cleared,
    "AttackDeclared": attack_declared,
    "WarResolved": war_resolved,
    "AttackPressed": attack_pressed,
    "WarCalledOff": war_called_off,
    "CounterDeclined": counter_declined,
    "BallerDrawn": baller_drawn,
    "BallerDeckShuffled": baller_deck_shuffled,
    "CardPlayed": card_played,
    "BonusWeight": bonus_weight,
}
