"""Pig, the dice game: the smallest complete ruleset, written the way every game here is.

On your turn roll one die as often as you like, adding each roll to your turn's
pot; a 1 empties the pot and ends your turn; Hold banks the pot and ends it.
The first player whose bank reaches the target wins.  docs/adding-a-game.md
walks through this file.
"""
from __future__ import annotations

from rules.base import Event, IllegalMove, Option, Rng
from rules.blocks import turns
from rules.describe import INT, arr, obj
from rules.folding import Own
from rules.narration import Names, Narration, said
from rules.ruleset import Ruleset
from rules.search.ismcts import SearchSettings

RULE = "Pig"


# -- decide: one handler per command, (state, seat, command, rng) -> events ------
def decide_roll(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Roll: the die is cast here, once, and its face is written into the event."""
    return [Event("DieRolled", {"seat": seat, "face": rng.randint(1, 6)})]


def decide_hold(state: dict, seat: int, command: dict, rng: Rng) -> list[Event]:
    """Hold: bank the pot (only with something in it: the base asks this handler why not)."""
    if not state["pot"]:
        raise IllegalMove("there is nothing in the pot to hold: roll first", rule=RULE)
    return [Event("PotBanked", {"seat": seat, "pot": state["pot"]})]


# -- evolve: one small function per event, (state, data, own) -> state --------------------------
# It changes the state it is given (the base hands it one it may change: rules/folding.py) and returns
# it; a list or dict inside the state it changes through `own(parent, key)`.
def started(state: None, d: dict, own: Own) -> dict:
    return {"seats": d["seats"], "target": d["target"], "banks": [0] * d["seats"], "current": d["first"], "pot": 0}


def rolled(state: dict, d: dict, own: Own) -> dict:
    if d["face"] == 1:  # the pot is lost and the turn passes
        state["pot"], state["current"] = 0, turns.next_seat(state["seats"], d["seat"])
    else:
        state["pot"] += d["face"]
    return state


def banked(state: dict, d: dict, own: Own) -> dict:
    own(state, "banks")[d["seat"]] += d["pot"]
    state["pot"], state["current"] = 0, turns.next_seat(state["seats"], d["seat"])
    return state


# -- narrate: one sentence per event, (data as the reader may read it, names) -> Narration ------
def narrate_started(d: dict, names: Names) -> Narration:
    return said(f"The first to bank {d['target']} wins; {names(d['first'])} rolled to start.", names.ref(d["first"]))


def narrate_rolled(d: dict, names: Names) -> Narration:
    """A 1 is a bust: the pot is lost and the turn passes."""
    if d["face"] == 1:
        return said(f"{names(d['seat'])} rolled a 1 and lost the pot.", names.ref(d["seat"]))
    return said(f"{names(d['seat'])} rolled a {d['face']}.", names.ref(d["seat"]))


def narrate_banked(d: dict, names: Names) -> Narration:
    return said(f"{names(d['seat'])} held and banked {d['pot']}.", names.ref(d["seat"]))


class Pig(Ruleset):
    """Declarations; the rules are the functions above."""

    name, title, noun = "pig", "Pig (example game)", "Pig"
    min_seats, max_seats = 2, 6
    bot_levels = ("random", "cautious", "ismcts")
    # a search's playouts: a few rolls, then `evaluate` (random play to 50 is mostly noise)
    search_settings = SearchSettings(rollout_moves=6)

    options = {"target": Option(50, (20, 50, 100), "Bank that wins")}
    commands = {"Roll": {}, "Hold": {}}
    handlers = {"Roll": decide_roll, "Hold": decide_hold}
    evolvers = {"GameStarted": started, "DieRolled": rolled, "PotBanked": banked}
    narrations = {"GameStarted": narrate_started, "DieRolled": narrate_rolled, "PotBanked": narrate_banked}
    turn_rule = RULE
    # self-description (rules/describe.py): served as JSON Schemas by GET /v1/rulesets/pig/schema
    command_docs = {"Roll": ("Roll the die: add its face to your pot, or lose the pot on a 1", {}),
                    "Hold": ("Hold: bank your pot and end your turn", {})}
    event_docs = {"GameStarted": "The table is set: seat count, target, and the seat rolled to start",
                  "DieRolled": "A seat rolled the die (a 1 empties its pot and passes the turn)",
                  "PotBanked": "A seat banked its pot; the turn passes"}
    view_schema = obj({"banks": arr(INT), "pot": INT, "current": INT, "target": INT})
    event_schemas = {"GameStarted": obj({"seats": INT, "target": INT, "first": INT}),
                     "DieRolled": obj({"seat": INT, "face": INT}),
                     "PotBanked": obj({"seat": INT, "pot": INT})}

    def opening(self, options: dict, seats: int, rng: Rng) -> list[Event]:
        """Who starts is rolled for."""
        return [Event("GameStarted", {"seats": seats, "target": options["target"], "first": rng.randbelow(seats)})]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if self.outcome(state) or seat != state["current"]:
            return []
        return [{"type": "Roll"}] + ([{"type": "Hold"}] if state["pot"] else [])

    def awaiting(self, state: dict) -> dict[int, str]:
        return {} if self.outcome(state) else {state["current"]: "move"}

    def timeout_default(self, state: dict, seat: int) -> dict:
        """A player whose clock runs out banks what they have (or rolls, with an empty pot)."""
        return {"type": "Hold"} if state["pot"] else {"type": "Roll"}

    def view(self, state: dict, seat: int | None) -> dict:
        return {"banks": state["banks"], "pot": state["pot"], "current": state["current"], "target": state["target"]}

    def label(self, view: dict, seat: int, move: dict, names: Names = Names()) -> str:
        """"Roll (pot 7)" / "Hold: bank 7 (bank 20 -> 27)", from the seat's view."""
        if move["type"] == "Hold":
            return f"Hold: bank {view['pot']} ({view['banks'][seat]} -> {view['banks'][seat] + view['pot']})"
        return f"Roll (pot {view['pot']})"

    def outcome(self, state: dict) -> dict | None:
        best = max(state["banks"])
        if best < state["target"]:
            return None
        return {"winners": [s for s, bank in enumerate(state["banks"]) if bank == best], "reason": "reached the target"}

    def evaluate(self, state: dict) -> list[float]:
        """For a search's truncated playout: shares of the win by bank, the pot counted for its roller."""
        points = [bank + (state["pot"] if s == state["current"] else 0) + 1 for s, bank in enumerate(state["banks"])]
        return [p / sum(points) for p in points]

    def choose_bot_move(self, state: dict, seat: int, level: str, rng: Rng) -> dict:
        """random: any legal move; cautious: hold at 20 or when the pot wins the game."""
        moves = self.legal_moves(state, seat)
        if level == "cautious":
            enough = state["pot"] >= 20 or state["banks"][seat] + state["pot"] >= state["target"]
            return {"type": "Hold"} if enough and {"type": "Hold"} in moves else {"type": "Roll"}
        return rng.choice(moves)


RULESET = Pig()
