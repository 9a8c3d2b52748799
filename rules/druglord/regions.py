"""Rule 1 Draw Region Cards (the secret starting empires), Rule 1.2 Draft, Rule 2 / 2.2 Occupy and Expand."""
from __future__ import annotations

from itertools import combinations

from rules.base import BadCommand, Event, IllegalMove, Rng
from rules.blocks import choices
from rules.druglord import rolls
from rules.druglord.data import (
    BALLER_DIGEST,
    DIME_BAGS,
    REGION_IDS,
    WEIGHT_TOTALS,
    baller_deck,
    board_digest,
)
from rules.druglord.guards import region_name, require_phase
from rules.druglord.state import free_markers
from rules.folding import rules_version

RULE_DRAW = "1"
RULE_DRAFT = "1.2"


def hand_sizes(options: dict, seat: int) -> tuple[int, int]:
    """(cards drawn, cards kept): 5 keep 3, first-timers 6; Faster Play 6 keep 4, new players 7."""
    new = seat in options["new_players"]
    if options["faster_play"]:
        return (7 if new else 6), 4
    return (6 if new else 5), 3


def setup_events(options: dict, seats: int, rng: Rng, version: int = 1) -> list[Event]:
    """GameStarted (both decks shuffled, secret to all; the digest of the map of rules `version`),
    then each seat's secret draw."""
    deck = rng.shuffled(REGION_IDS)
    sizes = [hand_sizes(options, s) for s in range(seats)]
    events = [Event("GameStarted", {
        "seats": seats, "options": options, "board": board_digest(version), "baller": BALLER_DIGEST,
        "supply": dict(WEIGHT_TOTALS), "dime_bags": DIME_BAGS,
        "keep": [min(keep, draw) for draw, keep in sizes],
        "secret": {"deck": deck, "baller_deck": rng.shuffled(baller_deck())}})]
    top = 0
    for seat, (draw, _) in enumerate(sizes):
        cards = deck[top:top + draw]
        top += draw
        events.append(Event("RegionCardsDrawn", {"seat": seat, "count": len(cards), "secret": {"regions": cards}}))
    return events


def normalize_options(options: dict, seats: int) -> dict:
    """new_players: a list of seat numbers (first-time players draw one card more)."""
    new = options["new_players"]
    seat_numbers = isinstance(new, list) and all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < seats for s in new)
    if not seat_numbers or len(set(new)) != len(new):
        raise BadCommand(f"option 'new_players' must be a list of distinct seat numbers 0..{seats - 1}, "
                         f"not {new!r}")
    return dict(options, new_players=sorted(new))


# ----------------------------------------------------------------------------
# Rule 1: the secret choice
# ----------------------------------------------------------------------------

def keep_moves(state: dict, seat: int) -> list[dict]:
    player = state["players"][seat]
    if state["phase"] != "empire" or player["kept"] is not None:
        return []
    return [{"type": "KeepRegions", "regions": list(c)} for c in combinations(player["drawn"], player["keep"])]


def normalize_keep(state: dict, seat: int, cmd: dict) -> dict:
    """The regions in the order they were drawn (any order is accepted)."""
    drawn = state["players"][seat]["drawn"] if state["phase"] == "empire" else []
    regions = cmd["regions"]
    if all(r in drawn for r in regions):
        regions = sorted(regions, key=drawn.index)
    return dict(cmd, regions=regions)


def decide_keep(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """KeepRegions{regions}: the secret choice of the starting empire."""
    require_phase(state, "empire", "choosing a starting empire", RULE_DRAW)
    player = state["players"][seat]
    if player["kept"] is not None:
        raise IllegalMove("you already chose your starting empire; it is revealed when everyone has",
                          rule=RULE_DRAW)
    regions = cmd["regions"]
    unknown = [r for r in regions if r not in player["drawn"]]
    if unknown:
        raise IllegalMove(f"you did not draw {', '.join(map(repr, unknown))}", rule=RULE_DRAW)
    if len(set(regions)) != len(regions) or len(regions) != player["keep"]:
        raise IllegalMove(f"keep exactly {player['keep']} different Region Cards of the {len(player['drawn'])} "
                          f"you drew", rule=RULE_DRAW)
    return [choices.chosen_event("EmpireChosen", seat, regions=list(regions))]  # secret to its seat


def reveal_events(state: dict, rng: Rng) -> list[Event]:
    """"All starting player empires are revealed simultaneously"; the rest go back, shuffled."""
    players = state["players"]
    returned = [r for p in players for r in p["drawn"] if r not in p["kept"]]
    deck = rng.shuffled(state["deck"] + returned)
    return [Event("EmpiresRevealed", {"empires": [list(p["kept"]) for p in players]}),
            Event("DeckShuffled", {"count": len(deck), "secret": {"deck": deck}})]


# ----------------------------------------------------------------------------
# Rule 1.2: the draft
# ----------------------------------------------------------------------------

def draft_events(state: dict, rng: Rng) -> list[Event]:
    """DraftOpened: players+1 new cards from the deck plus the Regions lost since last turn;
    draft order lowest score first, ties rolled off (high roll first)."""
    scores = [p["score"] for p in state["players"]]
    if rules_version(state) >= 3:  # a swayable roll-off per tied score (rolls.rolloff_started)
        slots = [[s for s in range(state["seats"]) if scores[s] == score] for score in sorted(set(scores))]
        if any(len(slot) > 1 for slot in slots):
            return [rolls.rolloff_started("draft", slots, False, [])]
        return [draft_opened(state, [slot[0] for slot in slots], [])]
    order, rounds = [], []
    for score in sorted(set(scores)):
        tied = [s for s in range(state["seats"]) if scores[s] == score]
        r, ranked = rolls.rolloff(tied, rng)
        rounds += r
        order += ranked
    return [draft_opened(state, order, rounds)]


def draft_opened(state: dict, order: list, rounds: list) -> Event:
    """DraftOpened: the order of picks (lowest score first) and the cards on offer."""
    new = state["deck"][:state["seats"] + 1]
    return Event("DraftOpened", {"drawer": order[-1], "new": new, "lost": list(state["lost"]), "order": order,
                                 "rolloffs": rounds})


def decider(state: dict) -> tuple[int | None, str | None]:
    """(seat, "claim" | "pick") whose draft decision is due, or (None, None)."""
    draft = state["draft"]
    if state["phase"] != "draft" or draft is None:
        return None, None
    if draft["claim_pos"] < len(draft["claims"]):
        return draft["claims"][draft["claim_pos"]]["seat"], "claim"
    if draft["pos"] < len(draft["order"]):
        return draft["order"][draft["pos"]], "pick"
    return None, None


def draft_moves(state: dict, seat: int) -> list[dict]:
    who, stage = decider(state)
    if who != seat:
        return []
    draft = state["draft"]
    if stage == "claim":
        return [{"type": "ClaimRegion", "region": draft["claims"][draft["claim_pos"]]["region"]},
                {"type": "DeclineDraft"}]
    return [{"type": "DraftRegion", "region": r} for r in draft["offer"]] + [{"type": "DeclineDraft"}]


def _require_decider(state: dict, seat: int, stage: str | None) -> dict:
    require_phase(state, "draft", "drafting", RULE_DRAFT)
    who, now = decider(state)
    if who != seat:
        raise IllegalMove(f"it is seat {who}'s turn to draft", rule=RULE_DRAFT)
    if stage is not None and now != stage:
        if stage == "claim":
            raise IllegalMove("you have no priority claim on a Region now", rule=RULE_DRAFT)
        raise IllegalMove("first decide on the Region you won through Violence (ClaimRegion or DeclineDraft)",
                          rule=RULE_DRAFT)
    if free_markers(state, seat) <= 0:
        raise IllegalMove("you have no Region Marker left (14 per player, one is your Score Marker)",
                          rule="2.2")
    return state["draft"]


def decide_claim(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """ClaimRegion{region}: the Violence winner drafts that Region before anyone else."""
    draft = _require_decider(state, seat, "claim")
    region = draft["claims"][draft["claim_pos"]]["region"]
    if cmd["region"] != region:
        raise IllegalMove(f"your claim is on {region_name(region)}", rule=RULE_DRAFT)
    return [Event("RegionClaimed", {"seat": seat, "region": region})]


def decide_draft(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """DraftRegion{region}: take one of the Region Cards on offer and place a marker (Rule 2.2 Expand)."""
    draft = _require_decider(state, seat, "pick")
    if cmd["region"] not in draft["offer"]:
        raise IllegalMove(f"{region_name(cmd['region'])} is not in this draft; on offer: "
                          f"{', '.join(draft['offer']) or 'nothing'}", rule=RULE_DRAFT)
    return [Event("RegionDrafted", {"seat": seat, "region": cmd["region"]})]


def decide_decline(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """DeclineDraft: "A Player may choose not to draft a card" (or not to claim)."""
    require_phase(state, "draft", "declining a draft", RULE_DRAFT)
    who, stage = decider(state)
    if who != seat:
        raise IllegalMove(f"it is seat {who}'s turn to draft", rule=RULE_DRAFT)
    draft = state["draft"]
    if stage == "claim":
        return [Event("ClaimDeclined", {"seat": seat, "region": draft["claims"][draft["claim_pos"]]["region"],
                                        "reason": "declined"})]
    return [Event("DraftDeclined", {"seat": seat, "reason": "declined"})]


def claimed_this_draft(state: dict, seat: int) -> bool:
    """Whether seat has taken a Region it won through Violence in this draft (its claims decided so far)."""
    draft = state["draft"]
    return any(c["seat"] == seat and state["owner"].get(c["region"]) == seat
               for c in draft["claims"][:draft["claim_pos"]])


def draft_step(state: dict, rng: Rng) -> list[Event]:
    """Skip seats that cannot draft; close the draft when everyone has had their pick.  Version 2: "the
    winning belligerent has the option of drawing that specific Region before anyone else" -- drawing it
    is that player's draft pick, taken first, so a seat that claimed a Region has no other pick (and
    claims no second one); declining the claim keeps the normal pick.  Version 1: the claim came on top."""
    draft = state["draft"]
    who, stage = decider(state)
    picked_first = rules_version(state) >= 2 and who is not None and claimed_this_draft(state, who)
    if stage == "claim":
        claim = draft["claims"][draft["claim_pos"]]
        if picked_first:
            return [Event("ClaimDeclined", {"seat": who, "region": claim["region"], "reason": "already drafted"})]
        if claim["region"] not in draft["offer"] or free_markers(state, who) <= 0:
            return [Event("ClaimDeclined", {"seat": who, "region": claim["region"], "reason": "no marker"})]
        return []
    if stage == "pick":
        if picked_first:
            return [Event("DraftDeclined", {"seat": who, "reason": "claimed"})]
        if not draft["offer"]:
            return [Event("DraftDeclined", {"seat": who, "reason": "nothing left"})]
        if free_markers(state, who) <= 0:
            return [Event("DraftDeclined", {"seat": who, "reason": "no marker"})]
        return []
    returned = list(draft["offer"])
    events = [Event("DraftClosed", {"returned": returned})]
    if returned:
        deck = rng.shuffled(state["deck"] + returned)
        events.append(Event("DeckShuffled", {"count": len(deck), "secret": {"deck": deck}}))
    return events
