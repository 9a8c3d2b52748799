"""Given/when/then helpers for Trafficking rule tests.

States are built by folding real events: a GameStarted with chosen rolls, Lids, order and stacks in
catalogue order, each Dealer's character, the Narc on a Cop Shop, pieces moved where the test needs them,
cash adjusted with the bank's own events, and the turn of the seat under test.  Dice are obtained by
searching for an Rng whose next rolls are the faces wanted (`dice`), never by patching the rules.
"""
from __future__ import annotations

from rules.base import Event, Rng, fold
from rules.trafficking import RULESET as T
from rules.trafficking.data import BOARD_DIGEST, CARDS_DIGEST, DEALER_IDS, DEALERS
from rules.trafficking.setup import turn_order
from tests.rules.support import NAMES, assert_refused, ev, first, label_of, rng_where, types  # noqa: F401 (re-exported)

ANY_RNG = Rng("trafficking-tests", 1)


def game(seats: int = 4, narc: int = 0, narc_at: str = "cop-shop-north", at: dict | None = None,
         lids: dict | None = None, cash: dict | None = None, turn: int | None = None,
         dealers: dict | None = None, decks: dict | None = None, version: int = 1, lending: bool = False) -> dict:
    """A game in play: Dealers on their Hang Outs (or `at`), with `lids` and `cash` (default $1,000),
    the Narc on `narc_at`, and `turn`'s turn (default: the first in order) at the roll; under rules
    `version` (1: a GameStarted without rules_version, as version 1 wrote it), with 17b's `lending` option."""
    order = turn_order(seats, narc)
    dealer_seats = [s for s in order if s != narc]
    dealers = dealers or {s: DEALER_IDS[i] for i, s in enumerate(dealer_seats)}
    lids = lids or {}
    events = [ev("GameStarted", seats=seats, rolls=[], narc=narc, lids=[lids.get(s, 0) for s in range(seats)],
                 order=order, choosers=dealer_seats, passes=8, board=BOARD_DIGEST, cards=CARDS_DIGEST,
                 secret={"decks": decks or {"sour_grapes": list(range(16)), "flip_out": list(range(16))}},
                 **({"rules_version": version} if version > 1 else {}), **({"lending": True} if lending else {}))]
    events += [ev("DealerChosen", seat=s, dealer=dealers[s], square=DEALERS[dealers[s]]["hang_out"])
               for s in dealer_seats]
    events.append(ev("NarcPlaced", square=narc_at))
    events += [ev("Moved", seat=s, to=square, path=[square], how="card") for s, square in (at or {}).items()]
    for s, amount in (cash or {}).items():
        if amount < 1000:
            events.append(ev("CashPaid", seat=s, amount=1000 - amount, why="test"))
        elif amount > 1000:
            events.append(ev("CashCollected", seat=s, amount=amount - 1000, why="test"))
    events.append(ev("TurnStarted", seat=order[0] if turn is None else turn))
    return fold(T, events)


def given(state: dict, *events: Event) -> dict:
    return fold(T, events, state)


def play(state: dict, seat: int, command: dict, rng: Rng = ANY_RNG) -> tuple[list[Event], dict]:
    """When `seat` sends `command`: (events, state after)."""
    events = T.decide(state, seat, command, rng)
    return events, fold(T, events, state)


def refused(state: dict, seat: int, command: dict, rule: str | None = None, match: str | None = None):
    return assert_refused(lambda: T.decide(state, seat, command, ANY_RNG), rule, match)


def dice(*faces: int) -> Rng:
    """An Rng whose next die rolls show `faces`, in order."""
    return rng_where(lambda r: [r.randint(1, 6) for _ in faces] == list(faces), prefix=f"dice-{faces}")


def legal(state: dict, seat: int) -> list[dict]:
    return T.legal_moves(state, seat)


def kinds(state: dict, seat: int) -> set[str]:
    return {m["type"] for m in T.legal_moves(state, seat)}


def at(state: dict, seat: int) -> str:
    return state["players"][seat]["square"]


def p(state: dict, seat: int) -> dict:
    return state["players"][seat]


def roll_to(state: dict, seat: int, *faces: int) -> tuple[list[Event], dict]:
    """The seat rolls and the dice show `faces` (the move's die first)."""
    return play(state, seat, {"type": "Roll"}, dice(*faces))


def label(state: dict, seat: int, move: dict) -> str:
    """The label `seat` reads for `move` (from its view, players named as NAMES)."""
    return label_of(T, state, seat, move)
