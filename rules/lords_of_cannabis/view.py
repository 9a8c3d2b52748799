"""What a seat (or a spectator) sees, the outcome, and the invariants the state keeps."""
from __future__ import annotations

from rules.lords_of_cannabis.board import RESOURCES, public_board
from rules.lords_of_cannabis.cards import STASH_PER_RESOURCE
from rules.lords_of_cannabis.state import hidden_points, public_points, total_points


def _named(hand: list[int]) -> dict:
    return {RESOURCES[r]: n for r, n in enumerate(hand)}


def view(state: dict, seat: int | None) -> dict:
    """Public: the board, buildings, counts of every hand, the open offers, the reward cards; the seat's
    own Stash and Crop cards; never another seat's cards or the deck's order (until the game is over)."""
    over = state["phase"] == "over"
    players = []
    for s in range(state["seats"]):
        player = {"seat": s, "stash_count": sum(state["hands"][s]), "crop_count": len(state["crops"][s]),
                  "gangstas": state["gangstas"][s], "points": public_points(state, s),
                  "tunnels_left": state["stock"][s][0], "tiles_left": state["stock"][s][1],
                  "tunnel_length": state["tunnel_length"][s]}
        if s == seat or over:
            player.update({"stash": _named(state["hands"][s]), "crops": list(state["crops"][s]),
                           "total_points": total_points(state, s), "hidden_points": hidden_points(state, s)})
        players.append(player)
    return {
        "phase": state["phase"], "current": state["current"], "first": state["first"], "you": seat,
        "board": public_board(state["chips"]), "sheriff": state["sheriff"], "dice": state["dice"],
        "greenhouses": {str(n): s[0] for n, s in enumerate(state["sites"]) if s is not None and s[1] == 1},
        "plantations": {str(n): s[0] for n, s in enumerate(state["sites"]) if s is not None and s[1] == 2},
        "tunnels": {str(p): s for p, s in enumerate(state["tunnels"]) if s is not None},
        "players": players, "bank": _named(state["bank"]), "crop_deck_count": len(state["deck"]),
        "longest_tunnel": state["longest"], "mob_boss": state["mob_boss"],
        "rolled": state["rolled"], "crop_played": state["crop_played"],
        "offers": sorted(state["offers"]["open"].values(), key=lambda o: o["id"]),
        "discarding": state["discarding"], "free_tunnels": state["free_tunnels"],
        "placement": state["setup"], "stash_pending": state["stash_pending"], "winner": state["winner"],
    }


def hidden_from(state: dict, seat: int) -> list:
    """The Crop deck's order is nobody's to read before the end."""
    return [state["deck"]] if state["phase"] != "over" and len(state["deck"]) > 1 else []


def outcome(state: dict) -> dict | None:
    if state["winner"] is None:
        return None
    return {"winners": [state["winner"]], "reason": "reached 10 Victory Points on their own turn",
            "points": [total_points(state, s) for s in range(state["seats"])]}


def invariants(state: dict) -> list[str]:
    """Stash cards are conserved (hands + bank = 25 each), no count negative, stock within the box."""
    broken = []
    for r in range(5):
        held = sum(h[r] for h in state["hands"])
        if held + state["bank"][r] != STASH_PER_RESOURCE:
            broken.append(f"{RESOURCES[r]}: {held} held + {state['bank'][r]} in the bank != 25")
    if any(n < 0 for h in state["hands"] for n in h) or any(n < 0 for n in state["bank"]):
        broken.append("a negative card count")
    if any(t < 0 or g < 0 for t, g in state["stock"]):
        broken.append("stock below zero")
    if len(state["deck"]) + sum(len(c) for c in state["crops"]) + sum(state["gangstas"]) != 38:
        broken.append("Crop cards are not all in the deck, hands or in play")
    return broken
