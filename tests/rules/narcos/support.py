"""Given/when/then helpers for Narcos rule tests.

States are built by folding real events: GameStarted, the Round 1 deck shuffled into an order the
test chooses (`front` cards on top, the rest after), the Cartel deck and hands, then the first turn
starting by itself.  Money, merchandise and meeples are then put in place with `with_player` (a
given, as a rulebook example sets the table).
"""
from __future__ import annotations

from rules.base import Event, Rng, fold
from rules.narcos import RULESET as N
from rules.narcos.data import CARTEL_DECK, CITIES, CITY_TOKENS, DECK, SICARIOS
from rules.narcos.flow import kinds
from tests.rules.support import assert_refused, ev, first, types  # noqa: F401 (re-exported)

ANY_RNG = Rng("narcos-tests", 1)
ROUND_ONE = [c["id"] for c in DECK if c["round"] == 1]
ROUND_TWO = [c["id"] for c in DECK if c["round"] == 2]
PERMANENT = "dealer-miami-1"


def table(front: list[str] = (), seats: int = 2, mode: str = "basic", hands: list[list[str]] | None = None,
          cartel: list[str] = (), tokens: dict | None = None, deck_size: int | None = None) -> dict:
    """Seat 0's turn 1 in the Actions phase, the Round 1 deck starting with `front`."""
    permanent = PERMANENT if mode == "basic" else None
    rest = [c for c in ROUND_ONE if c not in front and c != permanent]
    order = list(front) + rest
    if deck_size is not None:
        order = order[:deck_size]
    hands = hands if hands is not None else [[] for _ in range(seats)]
    dealt = [c for h in hands for c in h]
    game_cartel = [c["id"] for c in CARTEL_DECK if mode == "advanced" or not c["advanced_only"]]  # ruling S2
    cartel_order = dealt + list(cartel) + [c for c in game_cartel if c not in dealt and c not in cartel]
    events = [ev("GameStarted", seats=seats, mode=mode, first=0, permanent=permanent,
                 tokens=(tokens or dict(zip(CITIES, CITY_TOKENS))) if mode == "advanced" else None,
                 reserve=ROUND_TWO, supply=SICARIOS - 2 * seats),
              ev("DeckShuffled", round=1, count=len(order), kinds=kinds(order), secret={"order": order}),
              ev("CartelShuffled", count=len(cartel_order), secret={"order": cartel_order})]
    events += [ev("CartelDealt", seat=s, count=len(h), secret={"cards": list(h)}) for s, h in enumerate(hands)]
    state = fold(N, events)
    return N.settle(state, ANY_RNG)[1]


def with_player(state: dict, seat: int, **values) -> dict:
    players = list(state["players"])
    players[seat] = {**players[seat], **values}
    return {**state, "players": players}


def with_turn(state: dict, **values) -> dict:
    return {**state, "turn": {**state["turn"], **values}}


def play(state: dict, seat: int, command: dict, rng: Rng = ANY_RNG) -> tuple[list[Event], dict]:
    """When `seat` sends `command`: (events, the state after)."""
    events = N.decide(state, seat, command, rng)
    return events, fold(N, events, state)


def plays(state: dict, seat: int, *commands: dict) -> tuple[list[Event], dict]:
    out = []
    for command in commands:
        events, state = play(state, seat, command)
        out += events
    return out, state


def draws(state: dict, count: int, seat: int = 0) -> tuple[list[Event], dict]:
    return plays(state, seat, *([{"type": "Draw"}] * count))


def refused(state: dict, seat: int, command: dict, rule: str | None = None, match: str | None = None):
    return assert_refused(lambda: N.decide(state, seat, command, ANY_RNG), rule=rule, match=match)


def legal(state: dict, seat: int) -> list[dict]:
    return N.legal_moves(state, seat)


def managing(actions: int, seats: int = 2, mode: str = "basic", front: list[str] = (), **player) -> dict:
    """Seat 0 in Management with `actions` actions, the rack holding `front` (drawn by seat 0, then stood)."""
    state = table(front or ["storage-8-1"], seats=seats, mode=mode)
    _, state = draws(state, len(front or ["storage-8-1"]))
    if state["turn"]["phase"] == "draw":
        _, state = play(state, 0, {"type": "Stop"})
    state = with_turn(state, actions=actions)
    return with_player(state, 0, **player) if player else state
