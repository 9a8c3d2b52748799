"""Liar's Dice: the smallest game here with hidden information, written the way every game here is.

Every player rolls their dice under a cup and looks at their own.  In turn, each either raises the
bid, a claim about every die on the table ("at least four 5s"), or challenges the last bid: the
cups are lifted, and if fewer dice show the bid's face than it claimed the bidder loses a die, else
the challenger does.  Then everyone still holding dice rolls again, the loser bidding first.  The
last player with dice wins.  A raise names more dice, or as many of a higher face.  Ones are not
wild here (a common variant makes them so).  docs/adding-a-game.md walks through this file after Pig.
"""
from __future__ import annotations

from math import comb

from rules.base import Event, IllegalMove, Option, Rng
from rules.blocks import turns
from rules.describe import INT, arr, nullable, obj
from rules.folding import Own
from rules.narration import Names, Narration, said
from rules.ruleset import Ruleset
from rules.search.ismcts import SearchSettings

RULE = "Liar's Dice"
FACES = (1, 2, 3, 4, 5, 6)
WORDS = dict(enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                       "fifteen sixteen seventeen eighteen nineteen twenty".split()))


def said_bid(count: int, face: int) -> str:
    """"four 5s", "one 6": a bid as players say it."""
    return f"{WORDS.get(count, count)} {face}{'s' if count != 1 else ''}"


def on_table(state: dict) -> int:
    return sum(state["dice"])


def raises(state: dict) -> list[tuple[int, int]]:
    """Every bid above the last one (count, face): more dice, or as many of a higher face."""
    last = state["bid"]
    return [(count, face) for count in range(1, on_table(state) + 1) for face in FACES
            if last is None or (count, face) > (last["count"], last["face"])]


# -- decide: one handler per command ----------------------------------------------------------
def decide_bid(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Bid: only a raise (the base asks this handler why a bid that is not listed was refused)."""
    if (command["count"], command["face"]) not in raises(state):
        raise IllegalMove("a bid must name more dice than the last, or as many of a higher face, "
                          "and no more dice than the table holds", rule=RULE)
    return [Event("BidMade", {"seat": seat, "count": command["count"], "face": command["face"]})]


def decide_challenge(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Challenge: the cups are lifted, and the event shows every die (from now on, public)."""
    bid = state["bid"]
    if bid is None:
        raise IllegalMove("there is no bid to challenge: bid first", rule=RULE)
    showing = sum(cup.count(bid["face"]) for cup in state["cups"])
    loser = state["bidder"] if showing < bid["count"] else seat
    return [Event("BidChallenged", {"seat": seat, "bidder": state["bidder"], "count": bid["count"],
                                    "face": bid["face"], "cups": [list(cup) for cup in state["cups"]],
                                    "showing": showing, "loser": loser})]


def step(state: dict, rng: Rng) -> list[Event]:
    """What happens by itself: when the cups are empty, every player still in rolls under theirs."""
    if state["rolled"] or winners(state):
        return []
    return [Event("DiceRolled", {"seat": s, "count": n, "secret": {"dice": sorted(rng.roll(n))}})
            for s, n in enumerate(state["dice"]) if n]


# -- evolve: one small function per event, (state, data, own) -> state -----------------------
def started(state: None, d: dict, own: Own) -> dict:
    return {"seats": d["seats"], "dice": [d["dice"]] * d["seats"], "cups": [[] for _ in range(d["seats"])],
            "current": d["first"], "bid": None, "bidder": None, "rolled": False, "lifted": None}


def rolled(state: dict, d: dict, own: Own) -> dict:
    own(state, "cups")[d["seat"]] = list(d["secret"]["dice"])
    state["rolled"] = True
    return state


def bid(state: dict, d: dict, own: Own) -> dict:
    state["bid"], state["bidder"] = {"count": d["count"], "face": d["face"]}, d["seat"]
    state["current"] = turns.next_seat(state["seats"], d["seat"], out(state["dice"]))
    return state


def challenged(state: dict, d: dict, own: Own) -> dict:
    dice = own(state, "dice")
    dice[d["loser"]] -= 1
    state["lifted"] = {"cups": [list(cup) for cup in d["cups"]], "face": d["face"], "showing": d["showing"]}
    state["cups"], state["bid"], state["bidder"], state["rolled"] = [[] for _ in dice], None, None, False
    state["current"] = d["loser"] if dice[d["loser"]] else turns.next_seat(state["seats"], d["loser"], out(dice))
    return state


def out(dice: list[int]) -> set[int]:
    """The seats with no dice left: out of the game."""
    return {s for s, n in enumerate(dice) if not n}


def winners(state: dict) -> list[int]:
    """The last player holding dice, once only one is."""
    holding = [s for s, n in enumerate(state["dice"]) if n]
    return holding if len(holding) == 1 else []


# -- bots: what a seat's own cup says about a bid -----------------------------------------------
def chance(state: dict, seat: int, count: int, face: int) -> float:
    """The chance that at least `count` dice on the table show `face`, for a seat that sees only its cup."""
    need = count - state["cups"][seat].count(face)
    unseen = on_table(state) - len(state["cups"][seat])
    return sum(comb(unseen, k) * 5 ** (unseen - k) for k in range(max(need, 0), unseen + 1)) / 6 ** unseen


def greedy(state: dict, seat: int, moves: list[dict]) -> dict:
    """Challenge a bid more likely false than true; else make the raise most likely true (the lowest first)."""
    last = state["bid"]
    if last is not None and chance(state, seat, last["count"], last["face"]) < 0.5:
        return {"type": "Challenge"}
    bids = [m for m in moves if m["type"] == "Bid"]
    if not bids:
        return {"type": "Challenge"}
    return max(bids, key=lambda m: chance(state, seat, m["count"], m["face"]))


# -- narrate: one sentence per event, from the data as its reader may read it -------------------
def narrate_started(d: dict, names: Names) -> Narration:
    return said(f"Everyone has {d['dice']} dice; {names(d['first'])} bids first.", names.ref(d["first"]))


def narrate_rolled(d: dict, names: Names) -> Narration:
    """The owner reads its dice; everyone else that a cup was shaken."""
    dice = d.get("secret", {}).get("dice")
    seen = f": {', '.join(map(str, dice))}" if dice else ""
    return said(f"{names(d['seat'])} rolled {d['count']} {'die' if d['count'] == 1 else 'dice'} under the cup{seen}.",
                names.ref(d["seat"]))


def narrate_bid(d: dict, names: Names) -> Narration:
    return said(f"{names(d['seat'])} bid {said_bid(d['count'], d['face'])}.", names.ref(d["seat"]))


def narrate_challenged(d: dict, names: Names) -> Narration:
    return said(f"{names(d['seat'])} challenged {names(d['bidder'])}'s {said_bid(d['count'], d['face'])}: "
                f"the cups show {d['showing']}, and {names(d['loser'])} loses a die.",
                names.ref(d["seat"]), names.ref(d["bidder"]), names.ref(d["loser"]))


class LiarsDice(Ruleset):
    """Declarations; the rules are the functions above."""

    name, title, noun = "liars_dice", "Liar's Dice (example game)", "Liar's Dice"
    min_seats, max_seats = 2, 4
    bot_levels = ("random", "greedy", "ismcts")
    hidden_information = True  # the dice under the cups: `determinize` resamples them
    # the search improves on the greedy bot, its playouts greedy too, for a few bids
    search_settings = SearchSettings(policy="greedy", rollout_level="greedy", rollout_moves=8)

    options = {"dice": Option(5, (3, 5), "Dice each player starts with")}
    commands = {"Bid": {"count": "int", "face": "int"}, "Challenge": {}}
    handlers = {"Bid": decide_bid, "Challenge": decide_challenge}
    evolvers = {"GameStarted": started, "DiceRolled": rolled, "BidMade": bid, "BidChallenged": challenged}
    secret_to_seat = frozenset({"DiceRolled"})  # a roll's dice: its own seat reads them
    narrations = {"GameStarted": narrate_started, "DiceRolled": narrate_rolled, "BidMade": narrate_bid,
                  "BidChallenged": narrate_challenged}
    turn_rule = RULE
    argument_values = {"Bid.face": FACES}
    command_docs = {"Bid": ("Bid: at least this many dice on the table show this face",
                            {"count": "how many dice", "face": "which face"}),
                    "Challenge": ("Challenge the last bid: the cups are lifted", {})}
    event_docs = {"GameStarted": "The table is set: seat count, dice each, and who bids first",
                  "DiceRolled": "A player rolled under the cup (the dice are that player's secret)",
                  "BidMade": "A player raised the bid",
                  "BidChallenged": "A bid was challenged: every cup, the dice showing its face, who lost a die"}
    view_schema = obj({"you": nullable(INT), "cup": nullable(arr(INT)), "dice": arr(INT), "current": INT,
                       "bid": nullable(obj({"count": INT, "face": INT})), "bidder": nullable(INT),
                       "lifted": nullable(obj({"cups": arr(arr(INT)), "face": INT, "showing": INT}))})
    event_schemas = {"GameStarted": obj({"seats": INT, "dice": INT, "first": INT}),
                     "DiceRolled": obj({"seat": INT, "count": INT, "secret": obj({"dice": arr(INT)})},
                                       optional=("secret",)),
                     "BidMade": obj({"seat": INT, "count": INT, "face": INT}),
                     "BidChallenged": obj({"seat": INT, "bidder": INT, "count": INT, "face": INT,
                                           "cups": arr(arr(INT)), "showing": INT, "loser": INT})}
    step = staticmethod(step)

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """Who bids first is rolled for; the cups are rolled by `step`."""
        return [Event("GameStarted", {"seats": seats, "dice": options["dice"], "first": rng.randbelow(seats)})]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if winners(state) or seat != state["current"]:
            return []
        moves = [{"type": "Bid", "count": count, "face": face} for count, face in raises(state)]
        return moves + ([{"type": "Challenge"}] if state["bid"] is not None else [])

    def awaiting(self, state: dict) -> dict[int, str]:
        return {} if winners(state) else {state["current"]: "move"}

    def timeout_default(self, state: dict, seat: int) -> dict:
        """A player whose clock runs out challenges (or, first to bid, bids one die of the face they hold most)."""
        if state["bid"] is not None:
            return {"type": "Challenge"}
        cup = state["cups"][seat]
        return {"type": "Bid", "count": 1, "face": max(FACES, key=cup.count)}

    def view(self, state: dict, seat: int | None) -> dict:
        """Your own cup; of the others only how many dice they hold (and every cup the last challenge lifted)."""
        return {"you": seat, "cup": list(state["cups"][seat]) if seat is not None else None,
                "dice": list(state["dice"]), "current": state["current"], "bid": state["bid"],
                "bidder": state["bidder"], "lifted": state["lifted"]}

    def label(self, view: dict, seat: int, move: dict, names: Names = Names()) -> str:
        if move["type"] == "Challenge":
            return f"Challenge {names(view['bidder'])}'s {said_bid(view['bid']['count'], view['bid']['face'])}"
        return f"Bid {said_bid(move['count'], move['face'])}"

    def outcome(self, state: dict) -> dict | None:
        last = winners(state)
        return {"winners": last, "reason": "the last with dice"} if last else None

    def determinize(self, state: dict, seat: int | None, rng: Rng) -> dict:
        """Every cup but the seat's own rolled anew, as many dice as it holds: nothing the seat sees tells
        them apart, and the true dice are never read."""
        cups = [list(cup) if s == seat else sorted(rng.roll(len(cup))) for s, cup in enumerate(state["cups"])]
        return {**state, "cups": cups}

    def evaluate(self, state: dict) -> list[float]:
        """For a search's truncated playout: shares of the win by dice held."""
        return [n / on_table(state) for n in state["dice"]]

    def choose_bot_move(self, state: dict, seat: int, level: str, rng: Rng) -> dict:
        """random: any legal move; greedy: by the chances its own cup gives (`greedy`)."""
        moves = self.legal_moves(state, seat)
        return greedy(state, seat, moves) if level == "greedy" else rng.choice(moves)


RULESET = LiarsDice()
