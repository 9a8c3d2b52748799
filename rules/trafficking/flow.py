"""Who acts now, the moves they have, what a clock does for them, and the automatic steps between
decisions (turns passing counter-clockwise, Miss a Turn, Roll Again, the Customs reveal, the win)."""
from __future__ import annotations

from rules.base import Event, Rng
from rules.blocks import offers
from rules.trafficking import board, customs, deals, lending, setup
from rules.trafficking.dealing import bank_square, card_sale_counts, sell_counts
from rules.trafficking.movement import cab_fare
from rules.trafficking.state import KILO, active_dealers, next_seat, player

GAMBLE_TEMPLATES = ({"parity": {"pick": "even", "stake": 10}}, {"exact": {"number": 6, "stake": 10}})


def landed_moves(state: dict, seat: int) -> list[dict]:
    """What a Dealer may do on the square he landed on; EndTurn ("Pass") always."""
    p, turn = player(state, seat), state["turn"]
    square = p["square"]
    kind = board.kind(square)
    out: list[dict] = []
    where = bank_square(state, seat)
    if where and not turn["transaction"]:
        if where == "dealing":
            out.append({"type": "Buy"})
        if p["lids"] > 0:
            out.append({"type": "Sell"})
    if kind == "eleven_seven":
        if not turn["picked"]:
            out.append({"type": "PickUpLid"})
        if not p["pass"] and state["passes"] > 0 and p["cash"] >= 50 and not turn["bought"]:
            out.append({"type": "BuyPass"})
    if kind == "subway" and p["pass"] and turn["how"] != "subway":
        out += [{"type": "RideSubway", "to": s} for s in board.SUBWAY_STATIONS if s != square]
    if kind == "cab_stand" and turn["how"] != "cab":
        out += [{"type": "TakeCab", "to": s} for s in board.SQUARE_IDS
                if (fare := cab_fare(state, seat, s)) is not None and fare <= p["cash"]]
    if kind == "gambling" and p["bet"] is None and not turn["gambled"] and p["cash"] >= 10:
        out += [{"type": "Gamble", "bets": dict(t)} for t in GAMBLE_TEMPLATES]
    out += [{"type": "SellLids", "count": n} for n in card_sale_counts(state, seat)]   # version 2 (18)
    out += deals.offer_moves(state, seat)
    out.append({"type": "EndTurn"})
    return out


def legal_moves(state: dict, seat: int) -> list[dict]:
    """Every command `seat` may send now, each postable as-is."""
    phase = state["phase"]
    if phase in ("characters", "place_narc"):
        return setup.moves(state, seat)
    if phase != "play":
        return []
    if state["offers"]["open"]:
        return deals.answer_moves(state, seat)
    if state["customs"] is not None:
        return customs.moves(state, seat)
    turn = state["turn"]
    if turn is None or turn["seat"] != seat:
        return []
    stage = turn["stage"]
    if stage == "roll":
        return [{"type": "Roll"}] + lending.moves(state, seat)
    if stage == "move":
        return [{"type": "Move", "to": to} for to in turn["choices"]]
    if stage == "sell":
        return [{"type": "SellLids", "count": n} for n in sell_counts(state, seat)]
    if stage == "landed":
        moves = landed_moves(state, seat)
        return moves[:-1] + lending.moves(state, seat) + moves[-1:]   # EndTurn stays last
    return []


def awaiting(state: dict) -> dict[int, str]:
    """One seat, or the two at Airport Customs, or the addressee of an offer; {} once over."""
    phase = state["phase"]
    if phase == "characters":
        return {setup.chooser(state): "move"}
    if phase == "place_narc":
        return {state["narc"]: "move"}
    if phase != "play":
        return {}
    if state["offers"]["open"]:
        return offers.awaiting(state["offers"])
    if state["customs"] is not None:
        return customs.waiting(state)
    turn = state["turn"]
    return {turn["seat"]: "move"} if turn and legal_moves(state, turn["seat"]) else {}


def timeout_default(state: dict, seat: int) -> dict:
    """Decline an offer; otherwise the first listed move, except: sell all you may, and "Pass"."""
    if state["phase"] == "play" and state["offers"]["open"]:
        return offers.timeout_answer(state["offers"], seat)
    if state["phase"] == "play" and card_sale_counts(state, seat):   # a card's sale: all you may, as version 1
        return {"type": "SellLids", "count": max(card_sale_counts(state, seat))}
    moves = legal_moves(state, seat)
    if moves[0]["type"] == "SellLids":
        return moves[-1]
    if state["phase"] == "play" and state["turn"]["stage"] == "landed":
        return {"type": "EndTurn"}
    return moves[0]


def winner(state: dict) -> Event | None:
    """1a: the first Dealer to sell 36 Lids; 1b: the Narc, once no Dealer is left."""
    for seat, p in enumerate(state["players"]):
        if p["role"] == "dealer" and p["sold"] >= KILO:
            return Event("GameWon", {"winners": [seat], "reason": f"seat {seat} sold a Kilo (36 Lids): Traffic King"})
    if not active_dealers(state):
        return Event("GameWon", {"winners": [state["narc"]], "reason": "the Narc put every Dealer out of the game"})
    return None


def step(state: dict, rng: Rng) -> list[Event]:
    """The next automatic events, or [] when somebody must decide (Ruleset.settle runs them)."""
    if state["phase"] != "play":
        return []
    won = winner(state)
    if won:
        return [won]
    if state["offers"]["open"]:
        return []
    turn = state["turn"]
    if turn is None:
        last = state["last"]
        seat = next_seat(state, last) if last is not None else next(
            s for s in state["order"] if player(state, s)["out"] is None)
        return [Event("TurnStarted", {"seat": seat})]
    seat, stage = turn["seat"], turn["stage"]
    if player(state, seat)["out"] is not None:
        return [Event("TurnEnded", {"seat": seat})]
    if stage == "roll" and player(state, seat)["miss"]:
        return [Event("TurnMissed", {"seat": seat})]
    if stage == "customs":
        return customs.reveal(state)
    if stage == "done":
        if turn["again"]:   # Roll Again, Buddy Jim's: the same Dealer rolls once more
            return [Event("TurnEnded", {"seat": seat}), Event("TurnStarted", {"seat": seat, "again": True})]
        return [Event("TurnEnded", {"seat": seat})]
    if stage == "landed" and landed_moves(state, seat) == [{"type": "EndTurn"}]:
        return [Event("Passed", {"seat": seat, "automatic": True})]
    return []
