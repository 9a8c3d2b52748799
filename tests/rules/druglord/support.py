"""Given/when/then helpers for Druglord rule tests.

States are built by folding real events: a GameStarted with a chosen Region deck and Baller deck, the
seats' draws and choices, the reveal, and the phase the test needs (`table`).  Weight, Cases, scores
and Baller hands are then put in place by small helpers that keep every component count conserved
(`put`, `stash`, `store`, `with_cases`, `with_score`, `with_hand`), so `invariants` holds throughout.
Dice the test needs are obtained by searching for an Rng whose next Classy Die rolls are the faces
wanted (`dice`), never by patching the rules.
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng, fold
from rules.druglord import RULESET as D
from rules.druglord.data import (
    BALLER_DIGEST,
    CLASSY_DIE,
    DIME_BAGS,
    REGION_IDS,
    WEIGHT_TOTALS,
    baller_deck,
    board_digest,
)
from rules.druglord.state import zero
from rules.ruleset import latest_version
from tests.rules.support import assert_refused, ev, first, rng_where, types  # noqa: F401 (re-exported)

ANY_RNG = Rng("druglord-tests", 1)
DEFAULTS = {"faster_play": False, "california_style": False, "game_to": 20, "new_players": []}




def given(state: dict, *events: Event) -> dict:
    """Fold given events onto a state."""
    return fold(D, events, state)


def new_game(seats: int = 2, seed: str = "druglord", options: dict | None = None, version: int | None = None) -> dict:
    """A freshly set-up game: every seat has drawn its Region Cards in secret (rules `version`, default the latest)."""
    ruleset = D if version is None else D.at(version)
    return fold(D, ruleset.setup(options or {}, seats, Rng(seed, 0)))


def table(empires: list[list[str]], wtype: str = "reefer", order: list[int] | None = None,
          options: dict | None = None, turn: int = 1, version: int | None = None) -> dict:
    """A game in the `wtype` action phase of turn 1 with these starting empires, nothing loaded,
    the action order `order` (default 0, 1, 2, ...), Baller deck in catalogue order, played under
    rules `version` (default the latest; 1 = as first released)."""
    seats = len(empires)
    version = latest_version(D) if version is None else version
    opts = dict(DEFAULTS, **(options or {}))
    chosen = [r for e in empires for r in e]
    deck = chosen + [r for r in REGION_IDS if r not in chosen]
    recorded = {"rules_version": version} if version > 1 else {}   # as Ruleset.setup records it
    events = [ev("GameStarted", seats=seats, options=opts, board=board_digest(version), baller=BALLER_DIGEST,
                 supply=dict(WEIGHT_TOTALS), dime_bags=DIME_BAGS, keep=[len(e) for e in empires],
                 secret={"deck": deck, "baller_deck": baller_deck()}, **recorded)]
    events += [ev("RegionCardsDrawn", seat=s, count=len(e), secret={"regions": list(e)}) for s, e in enumerate(empires)]
    events += [ev("EmpireChosen", seat=s, secret={"regions": list(e)}) for s, e in enumerate(empires)]
    events += [ev("EmpiresRevealed", empires=[list(e) for e in empires]),
               ev("TurnStarted", turn=turn),
               ev("LoadingStarted", loads=[None] * seats),
               ev("ActionOrderRolled", rounds=[], order=order or list(range(seats))),
               ev("PhaseStarted", wtype=wtype)]
    state = fold(D, events)
    assert D.invariants(state) == []
    return state


def put(state: dict, region: str, wtype: str, units: int) -> dict:
    """Given `units` of `wtype` loaded on `region` (from the supply)."""
    return given(state, ev("BonusWeight", seat=state["owner"][region], card="-", region=region, weight=wtype,
                           rolled=units, units=units))


def _players(state: dict, seat: int) -> tuple[dict, dict]:
    new = dict(state)
    new["players"] = list(state["players"])
    player = {k: (dict(v) if isinstance(v, dict) else list(v) if isinstance(v, list) else v)
              for k, v in state["players"][seat].items()}
    new["players"][seat] = player
    return new, player


def stash(state: dict, seat: int, wtype: str, units: int) -> dict:
    """Given `units` of `wtype` in seat's Traphouse, usable now (from the supply)."""
    new, player = _players(state, seat)
    new["supply"] = dict(state["supply"], **{wtype: state["supply"][wtype] - units})
    player["traphouse"][wtype] += units
    return new


def store(state: dict, region: str, wtype: str, units: int = 1) -> dict:
    """Given weight stored locally on a region for Domestic Trade (from the supply)."""
    new = dict(state)
    new["supply"] = dict(state["supply"], **{wtype: state["supply"][wtype] - units})
    new["stored"] = dict(state["stored"])
    new["stored"][region] = dict(state["stored"][region], **{wtype: state["stored"][region][wtype] + units})
    return new


def with_cases(state: dict, seat: int, wtype: str, n: int) -> dict:
    new, player = _players(state, seat)
    player["cases"][wtype] += n
    return new


def with_score(state: dict, seat: int, score: int) -> dict:
    new, player = _players(state, seat)
    player["score"] = score
    return new


def with_hand(state: dict, seat: int, *cards: str) -> dict:
    """Given seat holds these Baller cards (taken out of the deck)."""
    new, player = _players(state, seat)
    deck = list(state["baller_deck"])
    for card in cards:
        deck.remove(card)
        player["hand"].append(card)
    new["baller_deck"] = deck
    return new


def act(state: dict, seat: int, command: dict, rng: Rng | None = None) -> list[Event]:
    """When `seat` sends `command`: the events decided."""
    return D.decide(state, seat, command, rng or ANY_RNG)


def play(state: dict, seat: int, command: dict, rng: Rng | None = None) -> tuple[list[Event], dict]:
    """When `seat` sends `command`: (events, state after them); invariants must hold."""
    events = act(state, seat, command, rng)
    after = fold(D, events, state)
    assert D.invariants(after) == [], D.invariants(after)
    return events, after


def refused(state: dict, seat: int, command: dict, rule: str | None = None, match: str | None = None) -> IllegalMove:
    """Then the command is an IllegalMove (optionally citing `rule` / containing `match`)."""
    return assert_refused(lambda: act(state, seat, command), rule, match)




def dice(*faces: int) -> Rng:
    """An Rng whose next Classy Die rolls (one die at a time) show `faces`."""
    def rolls(rng: Rng) -> bool:
        return all(rng.roll(1, CLASSY_DIE)[0] == f for f in faces)
    return rng_where(rolls, "dice-" + "-".join(map(str, faces)))






def legal(state: dict, seat: int) -> list[dict]:
    return D.legal_moves(state, seat)


def trade(source: str, to: str, route: str, units: int = 1) -> dict:
    return {"type": "Trade", "from": source, "to": to, "route": route, "units": units}


__all__ = ["D", "zero"]
