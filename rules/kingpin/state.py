"""Kingpin state: its shape, small read-only queries, and `evolve`.

State (JSON-able; see docs/rules/kingpin.md "State"):
    catalog     card kinds, prices and costs, copied from GameStarted
    options     {"target": 5000, "turn_limit": 0}
    seats       number of players
    bankrolls   [int] per seat; bank_net = money the bank has paid out minus taken in
    cards       {card_id: card}; a card is {id, kind, type, owner, where, ...}
                where: "stack" | "play" | "jail" | "removed"
                trucks/dealers carry "hits"; junkies "cash"; specials
                "exhausted", "target" (Regulator: seat or None) and "acquired" (turn)
    stacks      {kind: [card ids still for sale, next first]}
    removed     [card ids removed from the game, in order]
    turn        turn counter (1 = first turn); current = seat whose turn it is
    phase       "setup" | "buy" | "dice" | "specials" | "bail" | "over"
    bought      kinds bought this turn;  dice / used: this turn's roll
    given_up    the face chosen instead of the roll ("use a roll you did not get")
    pending     None | {"kind": "distribute", "truck", "hits"} | {"kind": "sale", "face", "junkie", "dealer"}
    window      None | {"kind": "cop"|"hitman"|"regulator", "attacker", "responder", ...}
    blocked     Regulators that already blocked a Shipment this turn
    bailed      a card was bailed this turn
    result      None | outcome dict

`evolve` (evolve.py) builds and updates it.
"""
from __future__ import annotations

from rules.folding import rules_version

# ----------------------------------------------------------------------------
# Queries
# ----------------------------------------------------------------------------


def kind_of(state: dict, card_id: str) -> dict:
    """The catalogue entry of a card."""
    return state["catalog"]["kinds"][state["cards"][card_id]["kind"]]


def ids_of(state: dict, type_: str) -> tuple[str, ...]:
    """All card ids of a type ("truck", "dealer", "junkie", "special") or special ("cop", ...)."""
    by_type = _ids_by_type(state["catalog"])
    ids = by_type.get(type_)
    if ids is None:
        ids = by_type[type_] = tuple(cid for entry in state["catalog"]["kinds"].values()
                                     if entry["type"] == type_ or entry.get("special") == type_
                                     for cid in entry["ids"])
    return ids


# The legal moves ask ids_of for every card type many times a command; a game's catalogue (from its
# GameStarted) never changes, so its ids by type are kept, for the last few catalogue objects seen
# (the entry keeps its catalogue, so an id is never taken for another catalogue's).
_IDS_BY_CATALOG: dict[int, tuple[dict, dict[str, tuple[str, ...]]]] = {}
_CATALOGS_KEPT = 64


def _ids_by_type(catalog: dict) -> dict[str, tuple[str, ...]]:
    entry = _IDS_BY_CATALOG.get(id(catalog))
    if entry is None or entry[0] is not catalog:
        if len(_IDS_BY_CATALOG) >= _CATALOGS_KEPT:
            _IDS_BY_CATALOG.clear()
        entry = _IDS_BY_CATALOG[id(catalog)] = (catalog, {})
    return entry[1]


def owned(state: dict, seat: int, type_: str | None = None, where: str = "play") -> list[str]:
    """Card ids a seat owns in a place ("play" or "jail"), optionally of one type
    ("truck", "dealer", "junkie", "special") or special ("cop", ...)."""
    cards = state["cards"]
    if type_ is None:
        return [cid for cid, c in cards.items() if c["owner"] == seat and c["where"] == where]
    return [cid for cid in ids_of(state, type_) if cards[cid]["owner"] == seat and cards[cid]["where"] == where]


def unused_faces(state: dict) -> dict[int, int]:
    """{face: number of unused dice showing it} for this turn's roll."""
    counts: dict[int, int] = {}
    for face, used in zip(state["dice"], state["used"]):
        if not used:
            counts[face] = counts.get(face, 0) + 1
    return counts


def any_die_used(state: dict) -> bool:
    """Whether a die of this turn's roll has been allocated yet."""
    return any(state["used"])


def dice_pool(state: dict, seat: int) -> int:
    """Basic Cards plus active Special Cards in play ("Roll Outcomes"): jailed cards add none."""
    total = 0
    for card in state["cards"].values():
        if card["owner"] == seat and card["where"] == "play":
            if card["type"] != "special" or not card["exhausted"]:
                total += 1
    return total


def regulators_on(state: dict, seat: int) -> list[str]:
    """Regulators in play currently targeting `seat`."""
    cards = state["cards"]
    return [cid for cid in ids_of(state, "regulator") if cards[cid]["where"] == "play" and cards[cid]["target"] == seat]


def usable_against_others(state: dict, card_id: str) -> bool:
    """Special Cards "must wait a turn after purchase before they can be used against another player"."""
    card = state["cards"][card_id]
    return card["acquired"] < state["turn"]


def immunity_for(state: dict, seat: int) -> list[str]:
    """Active Immunity cards in play that `seat` may use to block a Special Card's effect."""
    return [cid for cid in owned(state, seat, "immunity") if not state["cards"][cid]["exhausted"]]


def must_place_hits(state: dict) -> bool:
    """Version 2: "If your Dealers cannot hold all the Hit Chips ... discard the extra" -- only the
    extra: while a Distribute is pending, the Dealers still have room (it ends by itself when they are
    full or the Hits are all placed), so the Hits must be placed.  Version 1 let them be discarded."""
    pending = state["pending"]
    return rules_version(state) >= 2 and pending is not None and pending["kind"] == "distribute"
