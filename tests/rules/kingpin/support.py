"""Given/when/then helpers for Kingpin rule tests.

States are built by folding real events: the setup events, then domain events
as "given" (a DiceRolled with chosen dice, a FreeCardTaken, ...).  Random
results the test needs (OD dice, first-player rolls) are obtained by searching
for a seed whose Rng yields them, never by patching the rules.
"""
from __future__ import annotations

import itertools

from rules.base import Event, IllegalMove, Rng, fold
from rules.kingpin import RULESET as K
from tests.rules.support import assert_refused, ev, first, rng_where, types  # noqa: F401 (re-exported)

ANY_RNG = Rng("kingpin-tests", 1)


def new_game(seats: int = 2, seed: str = "kingpin", options: dict | None = None, version: int | None = None) -> dict:
    """A freshly set-up game (whoever the first-player roll picked is current), under the latest
    rules version or the one given (`version=1`: as first released)."""
    ruleset = K if version is None else K.at(version)
    return fold(K, ruleset.setup(options or {}, seats, Rng(seed, 0)))


def game_with_first(seat: int, seats: int = 2, options: dict | None = None, version: int | None = None) -> dict:
    """A fresh game in which `seat` won the first-player roll."""
    for i in itertools.count():
        state = new_game(seats, f"first-{seat}-{i}", options, version)
        if state["current"] == seat:
            return state


def given(state: dict, *events: Event) -> dict:
    """Fold given events onto a state."""
    return fold(K, events, state)




def take(state: dict, seat: int, kind: str) -> tuple[dict, str]:
    """Given seat received a card of `kind` from its stack (a FreeCardTaken); returns (state, card id)."""
    card = state["stacks"][kind][0]
    return given(state, ev("FreeCardTaken", seat=seat, kind=kind, card=card)), card


def cash(state: dict, seat: int, amount: int) -> dict:
    """Given seat collected `amount` from the bank in $200 doubles (DoubleCashed events)."""
    return given(state, *[ev("DoubleCashed", seat=seat, amount=200)] * (amount // 200))


def rolled(state: dict, dice: list[int]) -> dict:
    """Given the current player rolled exactly these dice."""
    return given(state, ev("DiceRolled", seat=state["current"], dice=list(dice)))


def next_turn(state: dict, seat: int | None = None) -> dict:
    """Given the turn passed (to `seat`, default the player on the left)."""
    seat = (state["current"] + 1) % state["seats"] if seat is None else seat
    return given(state, ev("TurnEnded", seat=state["current"], turn=state["turn"]),
                 ev("TurnStarted", seat=seat, turn=state["turn"] + 1))


def act(state: dict, seat: int, command: dict, rng: Rng | None = None) -> list[Event]:
    """When `seat` sends `command`: the events decided."""
    return K.decide(state, seat, command, rng or ANY_RNG)


def play(state: dict, seat: int, command: dict, rng: Rng | None = None) -> tuple[list[Event], dict]:
    """When `seat` sends `command`: (events, state after them)."""
    events = act(state, seat, command, rng)
    return events, fold(K, events, state)


def refused(state: dict, seat: int, command: dict, rule: str | None = None, match: str | None = None) -> IllegalMove:
    """Then the command is an IllegalMove (optionally citing `rule` / matching text)."""
    return assert_refused(lambda: act(state, seat, command), rule, match)








def card_of(state: dict, seat: int, kind: str) -> str:
    """Seat's first card of `kind` in play."""
    return next(cid for cid, c in state["cards"].items() if c["owner"] == seat and c["kind"] == kind
                and c["where"] == "play")


def legal(state: dict, seat: int) -> list[dict]:
    return K.legal_moves(state, seat)
