"""What a seat (or a spectator) sees, the outcome, and the invariants the state keeps."""
from __future__ import annotations

from rules.folding import rules_version
from rules.lords_of_cannabis.board import RESOURCES, public_board
from rules.lords_of_cannabis.cards import STASH_PER_RESOURCE
from rules.lords_of_cannabis.state import face_up, hidden_points, public_points, shown_crops, total_points


def _named(hand: list[int]) -> dict:
    return {RESOURCES[r]: n for r, n in enumerate(hand)}


def view(state: dict, seat: int | None) -> dict:
    """Public: the board, buildings, counts of every hand, the open offers, the reward cards; the seat's
    own Stash and Crop cards; never another seat's cards or the deck's order (until the game is over).
    Version 2 also shows what lies face up or face down in the open: the played Progress cards at the
    bottom of the deck (ruling 21), the cards a hand drew face up, and how many Victory Point cards each
    player keeps face down in front of them (ruling 25)."""
    over, open_table = state["phase"] == "over", rules_version(state) >= 2
    players = []
    for s in range(state["seats"]):
        player = {"seat": s, "stash_count": sum(state["hands"][s]), "crop_count": len(state["crops"][s]),
                  "gangstas": state["gangstas"][s], "points": public_points(state, s),
                  "tunnels_left": state["stock"][s][0], "tiles_left": state["stock"][s][1],
                  "tunnel_length": state["tunnel_length"][s]}
        if open_table:
            player.update({"victory_cards": hidden_points(state, s), "crops_shown": list(shown_crops(state, s))})
        if s == seat or over:
            player.update({"stash": _named(state["hands"][s]), "crops": list(state["crops"][s]),
                           "total_points": total_points(state, s), "hidden_points": hidden_points(state, s)})
        players.append(player)
    seen = {
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
    if open_table:
        seen["crop_deck_face_up"] = state["deck"][len(state["deck"]) - face_up(state):]
    return seen


def hidden_from(state: dict, seat: int) -> list:
    """The Crop deck's order is nobody's to read before the end (while two or more of its cards lie face
    down: the face-up ones at the bottom are public in version 2)."""
    face_down = len(state["deck"]) - face_up(state)
    return [state["deck"]] if state["phase"] != "over" and face_down > 1 else []


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
    if not 0 <= face_up(state) <= len(state["deck"]):
        broken.append("more face-up cards at the bottom of the Crop deck than cards in it")
    for s in range(state["seats"]):
        if any(shown_crops(state, s).count(c) > state["crops"][s].count(c) for c in shown_crops(state, s)):
            broken.append(f"seat {s} shows a Crop card it does not hold")
    return broken
