"""Druglord state: its shape and small read-only queries (`evolve` is in evolve.py).

State (JSON-able, string keys; docs/rules/druglord.md "View" shows it as clients see it):
    board, baller     digests of board.json / baller_cards.json the game started with
    seats, options    number of players; {"faster_play", "california_style", "game_to", "new_players"}
    turn              1, 2, ... (0 before the empires are revealed)
    phase             "empire" (secret choice) | "draft" | "load" | "action" | "over"
    wtype             the action phase's weight type ("reefer", "pills", "cocaine", "opiates") or None
    supply            weight markers not in play {type: n}; dime_bags: Crackdown markers left
    deck              Region deck, top first (secret order); lost: [{region, priority}] for the next draft
    owner             {region: seat} -- the Region Markers on the board
    weight / stored   {region: {type: n}} loaded this turn / stored locally for Domestic Trade (Rule 5.A)
    players           [{score, traphouse, locked, cases, crackdowns, hand, drawn, kept}]
                      locked: Traphouse weight from Draw 2 not usable before its next phase (Rule 10)
    draft             None | {offer, order, pos, claims: [{region, seat}]}
    loading           per seat None | {production, own, room} (Rule 3, see load.py)
    order, pos        this turn's action order and whose action it is (order[pos])
    delivered         {region: units} traded into each region this phase (Demand caps it)
    rerolls           per seat {ocean: re-rolls used this turn} (Rule 5.C)
    action            None | the action in progress (see trade.py / violence.py / baller.py)
    roll              None | the die roll being declared, swayed and cast (see rolls.py)
    baller_deck       Baller Moves deck, top first (secret order); baller_discard: played cards
    endgame           None | the seat whose score triggered the Endgame (Rule 12)
    scoop             the seat holding the Scoop Card (first to act this turn)
    result            None | outcome dict
"""
from __future__ import annotations

from rules.druglord.data import (
    BOARD,
    MARKERS_PER_PLAYER,
    TRIAL_CASES,
    TRIAL_CASES_CALIFORNIA,
    WEIGHT_TOTALS,
    WEIGHT_TYPES,
)


def zero() -> dict:
    """{type: 0} for every weight type."""
    return {t: 0 for t in WEIGHT_TYPES}


def regions_of(state: dict, seat: int) -> list[str]:
    """Seat's regions (Region Markers on the board), sorted."""
    return sorted(r for r, s in state["owner"].items() if s == seat)


def controlled(state: dict, seat: int) -> frozenset:
    return frozenset(r for r, s in state["owner"].items() if s == seat)


def blocked(state: dict, seat: int) -> frozenset:
    """Regions held by seat's opponents (they block same-zone Land Trade, Rule 5.B)."""
    return frozenset(r for r, s in state["owner"].items() if s != seat)


def occupied(state: dict) -> frozenset:
    return frozenset(state["owner"])


def actor(state: dict) -> int | None:
    """The seat whose action it is in an action phase."""
    if state["phase"] != "action" or state["pos"] >= len(state["order"]):
        return None
    return state["order"][state["pos"]]


def usable(state: dict, seat: int, wtype: str) -> int:
    """Traphouse weight of a type seat may spend now (Draw 2 weight waits for its next phase)."""
    player = state["players"][seat]
    return player["traphouse"][wtype] - player["locked"][wtype]


def usable_total(state: dict, seat: int) -> int:
    return sum(usable(state, seat, t) for t in WEIGHT_TYPES)


def case_total(state: dict, seat: int) -> int:
    return sum(state["players"][seat]["cases"].values())


def trial_at(state: dict) -> int:
    """Rule 8: 5 Cases bring a Trial (3 California Style)."""
    return TRIAL_CASES_CALIFORNIA if state["options"]["california_style"] else TRIAL_CASES


def score_markers(score: int) -> int:
    """Markers the racetrack uses: the Score Marker, plus one on the Loop space per 20 stacks exceeded."""
    return 1 + max(score - 1, 0) // 20


# The most stacks one seat can score in a turn: one action a phase, trading into one Region, each capped
# by that Region's Demand for the phase's type -- 3 + 3 + 4 + 3 = 13 on this board (a Domestic pair is one
# stack of two units, so never more).  Scores only rise in action phases, so no score can pass the Endgame's
# `game_to` by more than this before the game ends (see `track_reserve`).
MOST_STACKS_A_TURN = sum(max(region.demand.get(t, 0) for region in BOARD.regions.values()) for t in WEIGHT_TYPES)


def markers_in_use(state: dict, seat: int) -> int:
    """Region Markers on the board and on the racetrack."""
    return len(regions_of(state, seat)) + score_markers(state["players"][seat]["score"])


def track_reserve(game_to: int) -> int:
    """Version 3: the markers the racetrack may need in a game to `game_to` -- as many as the highest score
    the last turn can reach (`game_to` - 1 before it, plus MOST_STACKS_A_TURN) shows ("adding 20 for each
    Score Marker"): 2 in a game to 20, 6 in a game to 100."""
    return score_markers(game_to - 1 + MOST_STACKS_A_TURN)


def free_markers(state: dict, seat: int) -> int:
    """Region Markers a seat may still place on a Region (14 per player).  Version 3: the racetrack's
    markers for the whole game are set aside first (`track_reserve`), so the 14 bind for ever; versions
    1 and 2: what the board and the racetrack use now (a Loop marker due later could find none free)."""
    score = state["players"][seat]["score"]
    track = score_markers(score)
    if state.get("rules_version", 1) >= 3:
        track = max(track, track_reserve(state["options"]["game_to"]))
    return MARKERS_PER_PLAYER - len(regions_of(state, seat)) - track


def region_weight(state: dict, region: str) -> int:
    """All weight on a region, loaded and stored."""
    return sum(state["weight"][region].values()) + sum(state["stored"][region].values())


def demand(region: str, wtype: str) -> int:
    return BOARD.regions[region].demand.get(wtype, 0)


# {weight type: {region: its Demand for that type}}: `demand` of every region at once (trades ask it
# for each of the trader's regions)
DEMAND = {t: {r: region.demand.get(t, 0) for r, region in BOARD.regions.items()} for t in WEIGHT_TYPES}


def produces(region: str) -> tuple:
    return BOARD.regions[region].produces


def weight_in_play(state: dict) -> dict:
    """{type: units} outside the supply: on regions, stored, in Traphouses, riding on a pending roll."""
    out = zero()
    for table in (state["weight"], state["stored"]):
        for per in table.values():
            for t, n in per.items():
                out[t] += n
    for player in state["players"]:
        for t, n in player["traphouse"].items():
            out[t] += n
    for t, n in pending_weight(state).items():
        out[t] += n
    return out


def pending_weight(state: dict) -> dict:
    """Weight taken off a region or Traphouse for a trade roll not yet settled."""
    out = zero()
    roll = state["roll"]
    if roll is not None and roll["kind"] == "trade":
        out[roll["context"]["weight"]] += roll["context"]["held"]
    action = state["action"]
    if action is not None and action.get("reroll"):
        offer = action["reroll"]
        out[offer["weight"]] += offer["held"]
    return out


def totals_ok(state: dict) -> bool:
    in_play = weight_in_play(state)
    return all(state["supply"][t] + in_play[t] == WEIGHT_TOTALS[t] for t in WEIGHT_TYPES)
