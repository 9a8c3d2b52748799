"""Sections 6 Dealing (with the Underground Bank), 7 Marcus M. Mark, 11 the 11-7 Inconvenience Stores and
THC Transit Passes, 15 the gambling square; and ending a turn ("Pass")."""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.trafficking import board
from rules.trafficking.movement import require_stage
from rules.trafficking.state import deals_with_bank, player

BUY_PRICE, SELL_PRICE, MARCUS_PRICE = 50, 100, 150   # 6c, 6d, 7a
PASS_PRICE = 50                                      # 10a
STAKE_UNIT = 10                                      # the smallest Underground Buck


def bank_square(state: dict, seat: int) -> str | None:
    """"dealing" (6, or a vacant Hang Out), "marcus" (7), else None."""
    square = player(state, seat)["square"]
    if deals_with_bank(state, square):
        return "dealing"
    return "marcus" if board.kind(square) == "marcus" else None


def _require_transaction(state: dict, seat: int, what: str) -> str:
    require_stage(state, seat, "landed", what, "6")
    where = bank_square(state, seat)
    if where is None:
        raise IllegalMove("you are not on a Dealing square (or Marcus M. Mark's)", rule="6a")
    if state["turn"]["transaction"]:
        raise IllegalMove("you have made your one transaction on this square", rule="6i")
    return where


def decide_buy(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Buy: 6c, roll one die, that many Lids at $50 each, or no deal if you cannot afford them."""
    if _require_transaction(state, seat, "buy Lids") != "dealing":
        raise IllegalMove("Marcus M. Mark only buys", rule="7a")
    die = rng.randint(1, 6)
    cost = die * BUY_PRICE
    if player(state, seat)["cash"] < cost:
        return [Event("BuyFailed", {"seat": seat, "die": die, "cost": cost})]
    return [Event("LidsBought", {"seat": seat, "die": die, "lids": die, "paid": cost, "where": "dealing"})]


def decide_sell(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Sell: 6d, roll one die and sell up to that many at $100; 7a at Marcus, $150 x the roll (or all you have)."""
    where = _require_transaction(state, seat, "sell Lids")
    lids = player(state, seat)["lids"]
    if lids <= 0:
        raise IllegalMove("you have no Lids to sell", rule="6d")
    die = rng.randint(1, 6)
    if where == "marcus":
        n = min(die, lids)
        return [Event("LidsSold", {"seat": seat, "die": die, "lids": n, "each": MARCUS_PRICE, "to": "marcus"})]
    return [Event("SellRolled", {"seat": seat, "die": die})]


def sell_counts(state: dict, seat: int) -> list[int]:
    turn = state["turn"]
    return list(range(1, min(turn["sell_die"], player(state, seat)["lids"]) + 1))


def card_sale_counts(state: dict, seat: int) -> list[int]:
    """Version 2, Concert Crowd / House Party: "Sell up to 3 (2) Lids": 1 to the most; none is "Pass"."""
    turn = state["turn"]
    sale = turn.get("card_sale") if turn and turn["seat"] == seat and turn["stage"] == "landed" else None
    return list(range(1, min(sale["most"], player(state, seat)["lids"]) + 1)) if sale else []


def decide_sell_lids(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """SellLids{count}: 6d, "any amount up to the number showing on the die"; or a card's sale (18)."""
    counts = card_sale_counts(state, seat)
    if counts:
        if cmd["count"] not in counts:
            raise IllegalMove(f"the card lets you sell 1 to {max(counts)} Lids", rule="18")
        sale = state["turn"]["card_sale"]
        return [Event("LidsSold", {"seat": seat, "lids": cmd["count"], "each": sale["each"], "to": "card"})]
    require_stage(state, seat, "sell", "say how many Lids you sell", "6d")
    if cmd["count"] not in sell_counts(state, seat):
        raise IllegalMove(f"you may sell 1 to {max(sell_counts(state, seat))} Lids", rule="6d")
    return [Event("LidsSold", {"seat": seat, "die": state["turn"]["sell_die"], "lids": cmd["count"],
                               "each": SELL_PRICE, "to": "bank"})]


def _require_store(state: dict, seat: int, what: str) -> None:
    require_stage(state, seat, "landed", what, "11")
    if board.kind(player(state, seat)["square"]) != "eleven_seven":
        raise IllegalMove("you are not on an 11-7 Inconvenience Store", rule="11")


def decide_pick_up(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """PickUpLid: 11a, roll both dice: 11 or 7 is a free Lid, else pay $10 x the dice; 11b, or be out."""
    _require_store(state, seat, "pick up a Lid")
    if state["turn"]["picked"]:
        raise IllegalMove("one Lid per visit", rule="11")
    dice = rng.roll(2)
    total = sum(dice)
    paid = 0 if total in (7, 11) else total * 10
    if player(state, seat)["cash"] < paid:
        return [Event("Bankrupt", {"seat": seat, "why": "could not pay for a Lid at the 11-7", "owed": paid,
                                   "dice": dice})]
    return [Event("LidPickedUp", {"seat": seat, "dice": dice, "free": paid == 0, "paid": paid})]


def decide_buy_pass(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """BuyPass: 11d / 10a, a THC Transit Pass for $50 (8 in the box)."""
    _require_store(state, seat, "buy a THC Transit Pass")
    p = player(state, seat)
    if p["pass"]:
        raise IllegalMove("you hold a THC Transit Pass already", rule="10a")
    if state["passes"] <= 0:
        raise IllegalMove("all 8 THC Transit Passes are taken", rule="10a")
    if p["cash"] < PASS_PRICE or state["turn"]["bought"]:
        raise IllegalMove("a THC Transit Pass costs $50", rule="10a")
    return [Event("PassBought", {"seat": seat, "paid": PASS_PRICE, "why": "11-7"})]


def bets_problem(bets: dict, cash: int) -> str | None:
    """Why a gamble is malformed or unaffordable (None: fine)."""
    if not bets or set(bets) - {"exact", "parity"}:
        return 'bets are {"exact": {"number": 1-6, "stake": $}} and/or {"parity": {"pick": "even"|"odd", "stake": $}}'
    total = 0
    for kind, bet in bets.items():
        if not isinstance(bet, dict) or set(bet) != ({"number", "stake"} if kind == "exact" else {"pick", "stake"}):
            return f"the {kind} bet needs " + ("number and stake" if kind == "exact" else "pick and stake")
        stake = bet["stake"]
        if not isinstance(stake, int) or isinstance(stake, bool) or stake < STAKE_UNIT or stake % STAKE_UNIT:
            return "a stake is a positive multiple of $10"
        if kind == "exact" and (not isinstance(bet["number"], int) or isinstance(bet["number"], bool)
                                or bet["number"] not in range(1, 7)):
            return "the exact number is 1 to 6"
        if kind == "parity" and bet["pick"] not in ("even", "odd"):
            return 'the pick is "even" or "odd"'
        total += stake
    if total > cash:
        return f"you risk ${total} but have ${cash}"
    return None


def decide_gamble(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """Gamble{bets}: 15b, declared now, settled by your next roll of the die."""
    require_stage(state, seat, "landed", "gamble", "15")
    p = player(state, seat)
    if board.kind(p["square"]) != "gambling":
        raise IllegalMove("bets are placed on the gambling square", rule="15")
    if p["bet"] or state["turn"]["gambled"]:
        raise IllegalMove("you have a bet riding already", rule="15")
    problem = bets_problem(cmd["bets"], p["cash"])
    if problem:
        raise IllegalMove(problem, rule="15b")
    bets = {k: dict(v) for k, v in cmd["bets"].items()}
    return [Event("BetPlaced", {"seat": seat, "bets": bets, "stake": sum(b["stake"] for b in bets.values())})]


def decide_end_turn(state: dict, seat: int, cmd: dict, rng: Rng) -> list[Event]:
    """EndTurn: "Pass" (6l, 11c, 15a) or stay put (10d, 12a): play continues."""
    require_stage(state, seat, "landed", "end your turn")
    if state["offers"]["open"]:
        raise IllegalMove("an offer of yours awaits its answer", rule="6f")
    return [Event("Passed", {"seat": seat})]
