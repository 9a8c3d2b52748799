"""Hidden Dice: a small bluffing game with hidden dice (a Liar's Dice), written as a newcomer would from
docs/adding-a-game.md, to test the secrecy check on a game whose secrets are numbers.

Each player holds two dice under a cup: they see their own, nobody sees the others'.  In turn a player
raises the bid (a claim about the total of every die on the table) or calls the last bid: the cups are
lifted, and if the total falls short of the bid, the bidder loses a point, else the caller does; then
everyone rolls again.  After three calls the player who lost fewest points wins.

`HiddenDice` is honest.  `LeakyLabel`, `LeakyRoll` and `LeakyBid` are the leaks an outside audit found in
such a game (issue 34 item 7): move labels that tell the seat what the dice under every cup add up to, a
roll whose dice sit in the event's public part beside its secret, and a bid whose public part says what the
cups hold.  tests/service/test_secrecy_by_resampling.py must fail on each.
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Rng
from rules.narration import Names, Narration, said
from rules.ruleset import Ruleset

CALLS = 3
DICE = 2


def decide_bid(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    if command["total"] <= state["bid"]:
        raise IllegalMove("a bid must raise the last one", rule="bid")
    return [Event("BidRaised", {"seat": seat, "total": command["total"]})]


def decide_call(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    if state["bidder"] is None:
        raise IllegalMove("there is no bid to call", rule="call")
    total = sum(sum(cup) for cup in state["cups"])
    loser = state["bidder"] if total < state["bid"] else seat
    called = Event("BidCalled", {"seat": seat, "cups": [list(cup) for cup in state["cups"]], "total": total,
                                 "loser": loser})
    return [called] if state["calls"] + 1 == CALLS else [called, *roll_all(state["seats"], rng)]


def roll_all(seats: int, rng: Rng) -> list[Event]:
    """Every seat rolls its dice under its cup: the dice are that seat's secret."""
    return [Event("CupRolled", {"seat": s, "secret": {"dice": rng.roll(DICE)}}) for s in range(seats)]


def started(state: None, d: dict, own) -> dict:
    return {"seats": d["seats"], "cups": [[] for _ in range(d["seats"])], "bid": 0, "bidder": None, "current": 0,
            "losses": [0] * d["seats"], "calls": 0, "lifted": None}


def rolled(state: dict, d: dict, own) -> dict:
    own(state, "cups")[d["seat"]] = list(d["secret"]["dice"])
    return state


def raised(state: dict, d: dict, own) -> dict:
    state.update(bid=d["total"], bidder=d["seat"], current=(d["seat"] + 1) % state["seats"])
    return state


def called(state: dict, d: dict, own) -> dict:
    own(state, "losses")[d["loser"]] += 1
    state.update(calls=state["calls"] + 1, bid=0, bidder=None, current=d["loser"],
                 lifted=[list(cup) for cup in d["cups"]])
    return state


def narrate_rolled(d: dict, names: Names) -> Narration:
    dice = d.get("secret", {}).get("dice")
    told = f": {' and '.join(map(str, dice))}" if dice else ""
    return said(f"{names(d['seat'])} rolled under the cup{told}.", names.ref(d["seat"]))


def narrate_raised(d: dict, names: Names) -> Narration:
    return said(f"{names(d['seat'])} bid a total of {d['total']}.", names.ref(d["seat"]))


def narrate_called(d: dict, names: Names) -> Narration:
    return said(f"{names(d['seat'])} called: the dice total {d['total']}; {names(d['loser'])} loses a point.",
                names.ref(d["seat"]), names.ref(d["loser"]))


class HiddenDice(Ruleset):
    name, title, noun = "hidden_dice", "Hidden Dice (test game)", "Hidden Dice"
    min_seats, max_seats = 2, 4
    hidden_information = True
    commands = {"Bid": {"total": "int"}, "Call": {}}
    handlers = {"Bid": decide_bid, "Call": decide_call}
    evolvers = {"GameStarted": started, "CupRolled": rolled, "BidRaised": raised, "BidCalled": called}
    narrations = {"GameStarted": lambda d, names: said("The cups are on the table."), "CupRolled": narrate_rolled,
                  "BidRaised": narrate_raised, "BidCalled": narrate_called}
    secret_to_seat = frozenset({"CupRolled"})

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        return [Event("GameStarted", {"seats": seats}), *roll_all(seats, rng)]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if self.outcome(state) or seat != state["current"]:
            return []
        top = 6 * DICE * state["seats"]
        raises = [{"type": "Bid", "total": t} for t in range(state["bid"] + 1, min(top, state["bid"] + 4) + 1)]
        return raises + ([{"type": "Call"}] if state["bidder"] is not None else [])

    def awaiting(self, state: dict) -> dict[int, str]:
        return {} if self.outcome(state) else {state["current"]: "move"}

    def timeout_default(self, state: dict, seat: int) -> dict:
        return self.legal_moves(state, seat)[-1]

    def view(self, state: dict, seat: int | None) -> dict:
        return {"you": seat, "cup": list(state["cups"][seat]) if seat is not None else None, "bid": state["bid"],
                "bidder": state["bidder"], "current": state["current"], "losses": list(state["losses"]),
                "calls": state["calls"], "lifted": state["lifted"], "cups": [len(cup) for cup in state["cups"]]}

    def label(self, view: dict, seat: int, move: dict, names: Names = Names()) -> str:
        if move["type"] == "Call":
            return f"Call {names(view['bidder'])}'s bid of {view['bid']}"
        return f"Bid a total of {move['total']}"

    def outcome(self, state: dict) -> dict | None:
        if state["calls"] < CALLS:
            return None
        fewest = min(state["losses"])
        return {"winners": [s for s, lost in enumerate(state["losses"]) if lost == fewest],
                "reason": "lost the fewest calls"}

    def determinize(self, state: dict, seat: int | None, rng: Rng) -> dict:
        """Every other seat's dice rolled anew: nothing the seat sees tells them apart."""
        cups = [list(cup) if s == seat else rng.roll(len(cup)) for s, cup in enumerate(state["cups"])]
        return {**state, "cups": cups}

    def choose_bot_move(self, state: dict, seat: int, level: str, rng: Rng) -> dict:
        return rng.choice(self.legal_moves(state, seat))


class LeakyLabel(HiddenDice):
    """A label that reaches around the view it is given: it reads the table's true dice, which `legal_moves`
    (handed the true state) left behind, and tells the seat whether the bid is safe."""

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        self.__dict__["peeked"] = state
        return super().legal_moves(state, seat)

    def label(self, view: dict, seat: int, move: dict, names: Names = Names()) -> str:
        total = sum(sum(cup) for cup in self.__dict__["peeked"]["cups"])
        return super().label(view, seat, move, names) + (" (safe)" if move.get("total", 0) <= total else "")


class LeakyRoll(HiddenDice):
    """A roll whose dice are written in the event's public part as well as in its secret."""

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        return [Event("GameStarted", {"seats": seats}), *leaky_roll_all(seats, rng)]

    handlers = {"Bid": decide_bid, "Call": lambda state, seat, command, rng: [
        Event(e.type, {**e.data, "dice": e.data["secret"]["dice"]}) if e.type == "CupRolled" else e
        for e in decide_call(state, seat, command, rng)]}


class LeakyBid(HiddenDice):
    """A bid whose event tells everyone, in its public part, how far the bid is from what the cups hold."""

    handlers = {"Bid": lambda state, seat, command, rng: [
        Event(e.type, {**e.data, "short_by": command["total"] - sum(map(sum, state["cups"]))})
        for e in decide_bid(state, seat, command, rng)], "Call": decide_call}


def leaky_roll_all(seats: int, rng: Rng) -> list[Event]:
    return [Event(e.type, {**e.data, "dice": e.data["secret"]["dice"]}) for e in roll_all(seats, rng)]


HONEST, LEAKY_LABEL, LEAKY_ROLL, LEAKY_BID = HiddenDice(), LeakyLabel(), LeakyRoll(), LeakyBid()
