"""Section 3 Preparation: the roll for the Narc (lowest of two dice; ties for lowest roll again), the
Dealers' characters (high roller first), $1,000 and Lids equal to the roll, the Narc on a Cop Shop,
and the order of play (4a: from the Narc's right, counter-clockwise); the card stacks shuffled."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.trafficking import board
from rules.trafficking.data import BOARD_DIGEST, CARDS_DIGEST, DEALER_IDS, DEALERS, TRANSIT_PASSES, deck

RULE = "3"


def roll_off(seats: int, rng: Rng) -> tuple[list[dict], int, list[int]]:
    """Rounds of rolls ({seat: [d, d]}), the Narc, and each seat's last total."""
    rounds, rolling, last = [], list(range(seats)), [0] * seats
    while True:
        dice = {str(s): rng.roll(2) for s in rolling}
        rounds.append(dice)
        for s in rolling:
            last[s] = sum(dice[str(s)])
        low = min(last[s] for s in rolling)
        rolling = [s for s in rolling if last[s] == low]
        if len(rolling) == 1:
            return rounds, rolling[0], last


def turn_order(seats: int, narc: int) -> list[int]:
    """4a: the player on the Narc's right first, then counter-clockwise (seat - 1 each time)."""
    return [(narc - step) % seats for step in range(1, seats + 1)]


def opening(options: dict, seats: int, rng: Rng) -> list[Event]:
    rounds, narc, totals = roll_off(seats, rng)
    order = turn_order(seats, narc)
    dealers = [s for s in order if s != narc]
    choosers = sorted(dealers, key=lambda s: (-totals[s], order.index(s)))   # 3d: high roller chooses first
    lids = [0 if s == narc else totals[s] for s in range(seats)]              # 3g ii
    # the order is the secret, not the cards (cards.json is public): written as positions in the catalogue
    decks = {name: rng.shuffled(range(len(deck(name)))) for name in ("sour_grapes", "flip_out")}
    return [Event("GameStarted", {"seats": seats, "rolls": rounds, "narc": narc, "lids": lids, "order": order,
                                  "choosers": choosers, "passes": TRANSIT_PASSES, "board": BOARD_DIGEST,
                                  "cards": CARDS_DIGEST, "secret": {"decks": decks},
                                  **({"lending": True} if options.get("lending") else {})})]   # 17b option


def taken(state: dict) -> set:
    return {p["dealer"] for p in state["players"] if p["dealer"]}


def chooser(state: dict) -> int | None:
    if state["phase"] != "characters":
        return None
    return state["choosers"][state["chooser"]]


def decide_choose(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """ChooseDealer{dealer}: 3d/3e, the character, whose Hang Out is the starting square."""
    if chooser(state) != seat:
        raise IllegalMove("it is not your turn to choose a Dealer", rule="3d")
    if cmd["dealer"] not in DEALERS or cmd["dealer"] in taken(state):
        raise IllegalMove(f"choose one of {', '.join(d for d in DEALER_IDS if d not in taken(state))}", rule="3d")
    home = DEALERS[cmd["dealer"]]["hang_out"]
    return [Event("DealerChosen", {"seat": seat, "dealer": cmd["dealer"], "square": home})]


def decide_place(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PlaceNarc{square}: 3f, on any one of the four Cop Shops."""
    if state["phase"] != "place_narc" or seat != state["narc"]:
        raise IllegalMove("the Narc places his piece once the Dealers are on their Hang Outs", rule="3f")
    if cmd["square"] not in board.COP_SHOPS:
        raise IllegalMove(f"the Narc starts on a Cop Shop: {', '.join(board.COP_SHOPS)}", rule="3f")
    return [Event("NarcPlaced", {"square": cmd["square"]})]


def moves(state: dict, seat: int) -> list[dict]:
    if chooser(state) == seat:
        return [{"type": "ChooseDealer", "dealer": d} for d in DEALER_IDS if d not in taken(state)]
    if state["phase"] == "place_narc" and seat == state["narc"]:
        return [{"type": "PlaceNarc", "square": s} for s in board.COP_SHOPS]
    return []
