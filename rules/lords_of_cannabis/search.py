"""What a search bot needs of Lords of Cannabis (rules/search): determinize and evaluate.

Hidden from a seat (view.py): the Crop deck's order, the other seats' Crop cards (counts public)
and the other seats' Stash cards (counts public).  The unseen Crop cards (deck + others' hands)
are dealt anew with the same sizes; the others' Stash cards are dealt anew from what they hold
together, which the seat can count (25 of each resource less the bank and its own hand), except
the cards an open offer shows its maker holds (he keeps those: an offer is accepted only while
its maker holds what it gives).  Version 2 deals only what lies face down: the played Progress
cards at the bottom of the deck and the cards a hand drew face up stay where they are, and each
hand keeps its public number of Victory Point cards (`deal_crops`).

Not used: what the public history tells about the others' Stash (the production each roll paid
them, their trades and builds); a determinization only keeps the counts.  The search is weaker for
it, and never reads a hidden card.
"""
from __future__ import annotations

from rules.base import Rng
from rules.folding import rules_version
from rules.lords_of_cannabis import bots
from rules.lords_of_cannabis.board import RESOURCE_INDEX
from rules.lords_of_cannabis.cards import SEARCH_WEIGHTS, SEARCH_WEIGHTS_FILE, VICTORY_CARDS
from rules.lords_of_cannabis.state import face_up, hidden_points, shown_crops, total_points
from rules.search import value
from rules.search.hidden import deal, others, shares

# ISMCTS here is guided by the greedy bot (rules/search/ismcts.py `guided`): its move is played out
# against the best few others, every seat following the greedy bot until ROLLOUT_ROUNDS rounds of turns
# have ended (counted from the position searched: the searching seat's next turn, when it searches its
# own) before `evaluate` scores the state.  The horizon was 12 commands; an offer and its refusal burned
# two of them, which scored exactly as cutting the policy's own line two commands short, and the search
# offered the same card 750 times in a row instead of rolling (issue 22).  A turn ends only by EndTurn,
# so ROLLOUT_MOVES_PER_SEAT only caps a playout (a greedy round is 4 to 10 commands a seat).
POLICY = "greedy"
ROLLOUT_ROUNDS = 1
ROLLOUT_MOVES_PER_SEAT = 30


def turn_holder(state: dict) -> int:
    """Whose turn it is: it changes only when a turn ends (or a placement passes on)."""
    return state["current"]


def search_moves(state: dict, seat: int, moves: list[dict]) -> list[dict]:
    """The moves worth searching: once the turn has had an offer, no other (legal moves list one set
    of example terms, so another is the declined offer again, as the greedy and random bots know)."""
    if not state["offers_made"]:
        return moves
    return [m for m in moves if m["type"] not in bots.OFFERS]

RESOURCE_KINDS = 5


def offered(state: dict, seat: int) -> list[int]:
    """The Stash cards an open offer shows the seat holds (the most of each resource it offers):
    an offer can only be made, and accepted, while its maker holds what it gives."""
    out = [0] * RESOURCE_KINDS
    for found in state["offers"]["open"].values():
        if found["from"] == seat:
            for name, n in found["terms"]["give"].items():
                out[RESOURCE_INDEX[name]] = max(out[RESOURCE_INDEX[name]], n)
    return out


def _unseen(hand: list[str], shown: list[str]) -> list[str]:
    """A hand less the cards everyone saw it draw face up."""
    rest = list(hand)
    for card in shown:
        rest.remove(card)
    return rest


def deal_crops(state: dict, hidden: list[int], rng: Rng) -> tuple[list[str], list[list[str]]]:
    """Version 2: the unseen Crop cards (the face-down part of the deck, the others' hands less the cards
    they drew face up) dealt anew, each hand keeping its shown cards and its public number of Victory
    Point cards (kept face down in front of it), the deck keeping its face-up bottom."""
    deck, crops = state["deck"], list(state["crops"])
    bottom = len(deck) - face_up(state)
    unseen = list(deck[:bottom]) + [c for s in hidden for c in _unseen(crops[s], shown_crops(state, s))]
    victory = [hidden_points(state, s) for s in hidden]
    other = [len(crops[s]) - len(shown_crops(state, s)) - v for s, v in zip(hidden, victory)]
    vp_pool = [c for c in unseen if c in VICTORY_CARDS]
    *vps, vp_left = deal(vp_pool, victory + [len(vp_pool) - sum(victory)], rng)
    rest_pool = [c for c in unseen if c not in VICTORY_CARDS]
    *rests, rest_left = deal(rest_pool, other + [len(rest_pool) - sum(other)], rng)
    for s, vp, rest in zip(hidden, vps, rests):
        crops[s] = list(shown_crops(state, s)) + vp + rest
    face_down = deal(vp_left + rest_left, [bottom], rng)[0]
    return face_down + list(deck[bottom:]), crops


def determinize(state: dict, seat: int | None, rng: Rng) -> dict:
    hidden = others(state["seats"], seat)
    crops = list(state["crops"])
    if rules_version(state) >= 2:
        deck, crops = deal_crops(state, hidden, rng)
    else:
        deck, *hands = deal(list(state["deck"]) + [c for s in hidden for c in crops[s]],
                            [len(state["deck"])] + [len(crops[s]) for s in hidden], rng)
        for s, hand in zip(hidden, hands):
            crops[s] = hand
    stash = list(state["hands"])
    shown = {s: offered(state, s) for s in hidden}
    # the pool from public counts only (what the hidden seats hold together, less what offers show),
    # so the determinization cannot depend on which of them truly holds what
    pool = [max(0, sum(stash[s][r] - shown[s][r] for s in hidden)) for r in range(RESOURCE_KINDS)]
    cards = [r for r in range(RESOURCE_KINDS) for _ in range(pool[r])]
    for s, hand in zip(hidden, deal(cards, [max(0, sum(stash[s]) - sum(shown[s])) for s in hidden], rng)):
        stash[s] = [hand.count(r) + shown[s][r] for r in range(RESOURCE_KINDS)]
    return {**state, "deck": deck, "crops": crops, "hands": stash}


# A truncated playout is scored by each seat's Victory Points (10 wins) plus its position as the greedy
# bot values it (bots.value less its 1000 a point: production weighted by pips, the kinds produced,
# free spots for a Greenhouse and one Tunnel away, Tunnel length, docks, how near the hand is to a
# build), POSITION_PER_POINT of it worth one point: along greedy games a point comes with about that
# much more position.  Points alone scored nearly every 12-command playout the same (a build that
# scores is seldom reached), so the search could not tell its candidates apart (bench.arena: 4 of 8
# heads-up, even).
POSITION_PER_POINT = 100.0


def worth(state: dict, seat: int) -> float:
    points = total_points(state, seat)
    return points + (bots.value(state, seat) - 1000 * points) / POSITION_PER_POINT


def evaluate_by_worth(state: dict) -> list[float]:
    """Shares of the win by each seat's `worth` (hidden Victory Point cards included: a determinization's are
    sampled): bots revision 1's value (rules/bot_seat.py), kept to re-run it."""
    return shares([worth(state, s) for s in range(state["seats"])])


def evaluate(state: dict) -> list[float]:
    """Each seat's chance to win, fitted (see below; hidden Victory Point cards included: a
    determinization's are sampled)."""
    return value.win_shares(features(state), progress(state), WEIGHTS)


# ------------------------------------------------------------------ fitted (rules/search/value.py)
FEATURES = ("Victory Points", "position", "Crop cards")
SIGNS = (1, 1, 1)  # Victory Points win; the position and the cards are the holder's to use
WINNING_POINTS = 10  # "The first player to accumulate at least TEN Victory Points during his turn ... wins"


# The position is the greedy bot's own value of it (bots.value less its 1000 a point, in hundreds: production
# weighted by pips, kinds produced, free spots for a Greenhouse and one Tunnel away, Tunnel length, docks, the
# hand's distance to a build).  Taken apart into separate numbers, each fitted on its own, the search found
# what the fit got wrong: a hand one card short of a build goes with winning, so with its nearness to a build
# a number of its own, the search ended its turn rather than build (14 Plantations left unbuilt in one game);
# without it, a trade with the bank only cost cards, and it refused every one.  The greedy bot's value already
# weighs a build against the hand it uses up as the greedy bot does, and the fit only says how much it counts.
def features(state: dict) -> list[list[float]]:
    """Each seat's Victory Points (hidden ones included), its position (see above), its Crop cards."""
    rows = []
    for seat in range(state["seats"]):
        points = total_points(state, seat)
        rows.append([points, (bots.value(state, seat) - 1000 * points) / POSITION_PER_POINT,
                     len(state["crops"][seat])])
    return rows


def progress(state: dict) -> float:
    """How far the race to 10 Victory Points has gone: the leader's share of it."""
    return min(1.0, max(total_points(state, s) for s in range(state["seats"])) / WINNING_POINTS)


WEIGHTS = value.weights(SEARCH_WEIGHTS, FEATURES, SEARCH_WEIGHTS_FILE.name)
