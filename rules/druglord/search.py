"""What a search bot needs of Druglord (rules/search): determinize and evaluate.

Hidden from a seat (view.py): the Region deck's order, the Baller deck's order, the other seats'
Baller hands (their sizes are public) and, while empires are chosen, the other seats' drawn Region
Cards and which of them they keep.  The unseen Region Cards (deck + others' draws) and the unseen
Baller cards (deck + others' hands) are each dealt anew with the same sizes; everything public
(the board, the draft offer, the discard, played cards) stays.
"""
from __future__ import annotations

from rules.base import Rng
from rules.druglord import bots, data
from rules.druglord.state import case_total, region_weight, regions_of, trial_at
from rules.folding import rules_version
from rules.search import value
from rules.search.hidden import deal, others, shares

# ISMCTS here is guided by the greedy bot (rules/search/ismcts.py `guided`): its move is played out
# against the best few others, every seat following the greedy bot for ROLLOUT_MOVES_PER_SEAT
# commands a seat before `evaluate` scores the state.  Counted per seat: a fixed 12 commands were
# about one action of each seat at 4 seats, too short to see what a move sets up (bench.arena:
# 1 ISMCTS vs 3 greedy won 1 of 8).
POLICY = "greedy"
ROLLOUT_MOVES_PER_SEAT = 6


def determinize(state: dict, seat: int | None, rng: Rng) -> dict:
    players = [dict(p) for p in state["players"]]
    hidden = others(state["seats"], seat)
    deck, *draws = deal(list(state["deck"]) + [r for s in hidden for r in players[s]["drawn"]],
                        [len(state["deck"])] + [len(players[s]["drawn"]) for s in hidden], rng)
    for s, drawn in zip(hidden, draws):
        players[s]["drawn"] = drawn
        if players[s]["kept"] is not None:  # a secret choice made: some `keep` of the new draw, in drawn order
            picked = sorted(rng.shuffled(range(len(drawn)))[:len(players[s]["kept"])])
            players[s]["kept"] = [drawn[i] for i in picked]
    baller_deck, *hands = deal(list(state["baller_deck"]) + [c for s in hidden for c in players[s]["hand"]],
                               [len(state["baller_deck"])] + [len(players[s]["hand"]) for s in hidden], rng)
    for s, hand in zip(hidden, hands):
        players[s]["hand"] = hand
    return {**state, "players": players, "deck": deck, "baller_deck": baller_deck}


# A truncated playout is scored by each seat's score (Rule 12: the highest score wins) plus what its
# position will still score: weight on its regions and in its Traphouse (the greedy bot's
# WEIGHT_UNIT), its empire's stacks a turn (the greedy bot's _empire_value, counted for
# EMPIRE_TURNS more turns) and, against it, the Cases that bring a Trial nearer.
EMPIRE_TURNS = 2.0
# Traphouse weight Sways rolls and exports (the greedy bot stops drawing it at 12): worth less than weight
# on a region, which trades for stacks.  Counted whole, the search drew weight where the greedy bot trades.
TRAPHOUSE_SHARE = 0.5


def worth(state: dict, seat: int) -> float:
    player = state["players"][seat]
    mine = regions_of(state, seat)
    weight = sum(region_weight(state, r) for r in mine) + TRAPHOUSE_SHARE * sum(player["traphouse"].values())
    empire = bots._empire_value(frozenset(mine), rules_version(state))
    cases = bots.TRIAL_COST * case_total(state, seat) / trial_at(state)
    return player["score"] + bots.WEIGHT_UNIT * weight + EMPIRE_TURNS * empire - cases


def evaluate_by_worth(state: dict) -> list[float]:
    """Shares of the win by each seat's `worth`: bots revision 1's value (rules/bot_seat.py), kept to re-run it."""
    return shares([worth(state, s) + 1 for s in range(state["seats"])])


def evaluate(state: dict) -> list[float]:
    """Each seat's chance to win, fitted (see below)."""
    return value.win_shares(features(state), progress(state), WEIGHTS)


# ------------------------------------------------------------------ fitted (rules/search/value.py)
FEATURES = ("score", "weight on regions", "Traphouse weight", "empire value", "Cases toward a Trial",
            "Baller cards", "regions")
SIGNS = (1, 1, 1, 1, -1, 1, 1)  # Cases bring a Trial (Rule 8); everything else is its holder's to use


def features(state: dict) -> list[list[float]]:
    """Each seat's numbers: score (in games: 1 is `game_to`), weight loaded or stored on its regions,
    usable and locked Traphouse weight, its empire's value a turn (the greedy bot's), its Cases as a
    share of a Trial, its Baller cards, its regions."""
    goal, version, trial = state["options"]["game_to"], rules_version(state), trial_at(state)
    rows = []
    for seat, player in enumerate(state["players"]):
        mine = regions_of(state, seat)
        rows.append([player["score"] / goal, sum(region_weight(state, r) for r in mine),
                     sum(player["traphouse"].values()), bots._empire_value(frozenset(mine), version),
                     case_total(state, seat) / trial, len(player["hand"]), len(mine)])
    return rows


def progress(state: dict) -> float:
    """How far the race to `game_to` has gone: the leader's share of it (1 once the Endgame is triggered)."""
    if state["endgame"] is not None:
        return 1.0
    return min(1.0, max(p["score"] for p in state["players"]) / state["options"]["game_to"])


WEIGHTS = value.weights(data.SEARCH_WEIGHTS, FEATURES, data.SEARCH_WEIGHTS_FILE.name)
