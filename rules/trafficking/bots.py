"""Trafficking bots, per role.

"random": a kind of move uniformly (Roll, Sell, TakeCab, EndTurn, ...), then one of that kind uniformly
(so sixty cab destinations do not drown "Pass"); one bias toward progress, so random games end: a random
Narc that can land on a Dealer holding Lids does (see docs/rules/trafficking.md "Bots").
"greedy":
  * Narc: starts on the Cop Shop nearest the Dealers; each move lands where the expected busts are highest
    (Dealers with Lids there, not immune, weighted by their Lids), else as close as it can get to the
    nearest Dealer holding Lids (shortest path in any direction); guesses a hand at random.
  * Dealer: picks the branch and the cab or subway ride that keeps it out of the Narc's next roll and
    heads for buyers; sells whenever it can (all it may), buys cheap Lids when it holds few, buys a
    Transit Pass, picks up at the 11-7 when flush, never gambles; offers other Dealers its Lids at $100
    each and accepts deals that pay (buying at up to $100 a Lid, selling at $100 or more); hides at random.
"""
from __future__ import annotations

from rules.base import Rng
from rules.trafficking import board
from rules.trafficking.state import dealers_at, immune, narc_square, player

NARC_REACH = 6          # the Narc moves one die: a Dealer further than this is safe this round
SQUARE_VALUE = {"dealing": 10, "marcus": 15, "jack_pot": 8, "flip_out": 3, "eleven_seven": 3, "roll_again": 2,
                "buddy_jims": 2, "no_bust_zone": 4, "sour_grapes": -5, "pusher": -8, "customs": -6,
                "cop_shop": -3, "miss_turn": -3}


def choose(ruleset, state: dict, seat: int, level: str, rng: Rng) -> dict:
    moves = ruleset.listed_moves(state, seat)  # read-only: bot_move hands out a copy of the move chosen
    if level == "greedy":
        moves = [m for m in moves if not own_loan_move(m)]   # it never lends, borrows or repays (17b option)
        pick = narc_move(state, seat, moves, rng) if seat == state["narc"] else dealer_move(state, seat, moves, rng)
        if pick is not None:
            return pick
    if seat == state["narc"]:
        busting = [m for m in moves if m["type"] == "Move" and bust_value(state, m["to"]) > 0]
        if busting:
            return rng.choice(busting)
    kinds = sorted({m["type"] for m in moves})
    kind = rng.choice(kinds)
    return rng.choice([m for m in moves if m["type"] == kind])


# ------------------------------------------------------------------ the Narc
def bust_value(state: dict, square: str) -> int:
    """Lids the Narc would confiscate landing here (following the Expressway)."""
    squares = [square] + ([board.SQUARES[square]["expressway_to"]] if board.kind(square) == "expressway" else [])
    return sum(player(state, s)["lids"] for sq in squares for s in dealers_at(state, sq)
               if player(state, s)["lids"] > 0 and not immune(state, s, sq))


def targets(state: dict) -> list[int]:
    """Dealers still in the game who hold Lids."""
    return [s for s in range(state["seats"]) if player(state, s)["role"] == "dealer"
            and player(state, s)["out"] is None and player(state, s)["lids"] > 0]


def landing_odds(square: str, target: str) -> float:
    """The chance a Dealer on `square` lands on `target` with his next roll (either branch at a Cop Shop)."""
    hits = sum(target in board.dealer_destinations(square, die) for die in range(1, 7))
    return hits / 6 / len(board.arrows(square))


def narc_score(state: dict, square: str) -> float:
    """Expected busts: Lids seized now, the chance each Dealer lands on the Narc next, and how close the
    Narc stays to where the Dealers are heading (about 3 squares on)."""
    here = board.SQUARES[square].get("expressway_to", square) if board.kind(square) == "expressway" else square
    dist = board.walk_distances(here)
    score = bust_value(state, square) * 100.0
    chase = []
    for s in targets(state):
        at = player(state, s)["square"]
        if not immune(state, s, here):
            score += 40 * landing_odds(at, here)
        chase.append(dist[board.advance(at, 3)[-1]])
    return score - min(chase, default=0)


def narc_move(state: dict, seat: int, moves: list[dict], rng: Rng) -> dict | None:
    kinds = {m["type"] for m in moves}
    if kinds == {"Move"} or kinds == {"PlaceNarc"}:
        key = "to" if "Move" in kinds else "square"
        return max(moves, key=lambda m: (narc_score(state, m[key]), rng.randbelow(1000)))
    return None


# ------------------------------------------------------------------ the Dealers
def danger(state: dict, seat: int, square: str) -> bool:
    """Within the Narc's next roll while holding Lids, and not immune there."""
    if player(state, seat)["lids"] <= 0 or immune(state, seat, square):
        return False
    return board.walk_distances(narc_square(state)).get(square, 99) <= NARC_REACH


def square_score(state: dict, seat: int, square: str) -> float:
    p = player(state, seat)
    value = SQUARE_VALUE.get(board.kind(square), 0)
    if board.kind(square) in ("dealing", "marcus") and p["lids"] == 0:
        value = 4
    if board.kind(square) == "pusher" and p["cash"] < 700:
        value = -40
    if danger(state, seat, square):
        value -= 90 if square == narc_square(state) else 30
    return value


def dealer_move(state: dict, seat: int, moves: list[dict], rng: Rng) -> dict | None:
    p = player(state, seat)
    by_type: dict[str, list[dict]] = {}
    for m in moves:
        by_type.setdefault(m["type"], []).append(m)
    if "Move" in by_type:
        return max(by_type["Move"], key=lambda m: square_score(state, seat, m["to"]))
    if "SellLids" in by_type:
        return by_type["SellLids"][-1]
    if "AcceptOffer" in by_type:
        return answer(state, seat, by_type)
    if "Sell" in by_type and (p["lids"] >= 3 or "Buy" not in by_type or p["cash"] < 300):
        return by_type["Sell"][0]
    if "Buy" in by_type and p["cash"] >= 300:
        return by_type["Buy"][0]
    if "BuyPass" in by_type and p["cash"] >= 200:
        return by_type["BuyPass"][0]
    if "PickUpLid" in by_type and p["cash"] >= 400:
        return by_type["PickUpLid"][0]
    if "MakeOffer" in by_type and p["lids"] >= 2:
        offer = make_offer(state, seat, by_type["MakeOffer"])
        if offer:
            return offer
    if "RideSubway" in by_type and danger(state, seat, p["square"]):
        return max(by_type["RideSubway"], key=lambda m: square_score(state, seat, m["to"]))
    if "TakeCab" in by_type and p["lids"] >= 3 and p["cash"] >= 400:
        rides = [m for m in by_type["TakeCab"] if board.kind(m["to"]) in ("dealing", "marcus")
                 and not danger(state, seat, m["to"]) and board.arrow_distances(p["square"])[m["to"]] <= 15]
        if rides:
            return min(rides, key=lambda m: board.arrow_distances(p["square"])[m["to"]])
    if "EndTurn" in by_type:
        return by_type["EndTurn"][0]
    return None   # the Customs hand and the character: at random


def make_offer(state: dict, seat: int, offers: list[dict]) -> dict | None:
    """Sell what the partner can pay for at $100 a Lid (every Lid sold counts toward the Kilo)."""
    lids = player(state, seat)["lids"]
    best = None
    for m in offers:
        n = min(lids, 6, player(state, m["to"])["cash"] // 100)
        if n >= 1 and (best is None or n > best["terms"]["lids"]):
            best = {**m, "terms": {"direction": "sell", "lids": n, "price": n * 100}}
    return best


def own_loan_move(move: dict) -> bool:
    return move["type"] == "RepayLoan" or (move["type"] == "MakeOffer" and "loan" in move["terms"])


def answer(state: dict, seat: int, by_type: dict) -> dict:
    """Accept a deal that pays, and a loan offered (never lend); decline the rest."""
    accept = by_type["AcceptOffer"][0]
    found = state["offers"]["open"][str(accept["offer"])]
    terms = found["terms"]
    if "loan" in terms:
        return accept if terms["loan"] == "lend" else {"type": "DeclineOffer", "offer": accept["offer"]}
    each = terms["price"] / terms["lids"]
    i_buy = terms["direction"] == "sell"
    cash_after = player(state, seat)["cash"] - terms["price"]
    if (i_buy and each <= 100 and cash_after >= 200) or (not i_buy and each >= 100):
        return accept
    return {"type": "DeclineOffer", "offer": accept["offer"]}
