"""What a search bot needs of Trafficking (rules/search): determinize and evaluate.

Hidden from a seat (view.py): the order of both stacks, the cards other Dealers keep (which stack
each came from is public: CardDrawn names it) and, at Airport Customs, the other side's secret
hand until the reveal.  Each stack's unseen cards (the stack + the others' kept cards from it) are
dealt anew, every kept card replaced by a keep-type card of its own stack; an unrevealed Customs hand is drawn
anew.

Not used: the public history of the stacks' bottoms (a card read aloud goes back face down to the
bottom, so its place is known until it comes round again); a determinization reshuffles the whole
stack.  The search is weaker for it, and never reads a hidden card.
"""
from __future__ import annotations

from rules.base import Rng
from rules.search import value
from rules.search.hidden import deal, others, shares
from rules.trafficking import data
from rules.trafficking.data import CARDS
from rules.trafficking.state import HANDS, KILO

# ISMCTS here is guided by the greedy bot (rules/search/ismcts.py `guided`): its move is played out
# against the best few others, every seat following the greedy bot for ROLLOUT_MOVES commands before
# `evaluate` scores the state.
POLICY = "greedy"
ROLLOUT_MOVES = 12


def stack_of(card: str) -> str:
    return "sour_grapes" if card.startswith("SG") else "flip_out"


def is_keep(card: str) -> bool:
    """A card held in secret ("Keep this card in secret"): only these are ever drawn with kept: true."""
    return CARDS[card]["effect"]["kind"] == "keep"


def deal_stack(stack: list, kept: list, rng: Rng) -> tuple[list, list]:
    """The stack and the others' kept cards from it, dealt anew: a kept card is one of the keep-type
    cards among them (CardDrawn{kept: true} told everyone so), the rest is the stack in a new order."""
    pool = list(stack) + list(kept)
    if not kept:
        return deal(pool, [len(stack), 0], rng)
    (dealt,) = deal([c for c in pool if is_keep(c)], [len(kept)], rng)
    rest = list(pool)
    for card in dealt:
        rest.remove(card)
    return rng.shuffled(sorted(rest)), dealt


def determinize(state: dict, seat: int | None, rng: Rng) -> dict:
    hidden = others(state["seats"], seat)
    players = [dict(p) for p in state["players"]]
    decks = {}
    for name, stack in sorted(state["decks"].items()):
        kept = [(s, i) for s in hidden for i, card in enumerate(players[s]["kept"]) if stack_of(card) == name]
        fresh, dealt = deal_stack(stack, [players[s]["kept"][i] for s, i in kept], rng)
        decks[name] = fresh
        for (s, i), card in zip(kept, dealt):
            players[s]["kept"] = [card if j == i else c for j, c in enumerate(players[s]["kept"])]
    customs = state["customs"]
    if customs is not None:
        customs = dict(customs)
        if customs["hidden"] is not None and seat != customs["dealer"]:
            customs["hidden"] = rng.choice(HANDS)
        if customs["guess"] is not None and seat != customs["narc"]:
            customs["guess"] = rng.choice(HANDS)
    return {**state, "decks": decks, "players": players, "customs": customs}


# A truncated playout is scored per role, by how near each seat is to its way of winning.  A Dealer:
# the Lids sold (36 win), Lids in hand at HELD_LID of a sale (a selling square away, and seized if
# busted), cash at CASH_LID of a sale per $50 (what a Lid costs to buy), all discounted by
# OFFENSE_RISK per offense (the third puts him out).  The Narc: each Dealer's offenses as thirds
# of his way out (out counts whole), plus NARC_START so a Narc who has charged nobody yet still
# holds a share.  Lids sold and Dealers out alone scored nearly every 12-command playout the same.
HELD_LID = 0.6
CASH_LID = 0.3
LID_PRICE = 50         # 6c: "that many Lids at $50 each"
OFFENSE_RISK = 0.25
NARC_START = 0.15


def dealer_worth(p: dict) -> float:
    if p["out"] is not None:
        return 0.0
    lids = p["sold"] + HELD_LID * p["lids"] + CASH_LID * p["cash"] / LID_PRICE
    return min(1.0, lids / KILO) * (1 - OFFENSE_RISK * p["offenses"])


def narc_worth(players: list[dict]) -> float:
    dealers = [p for p in players if p["role"] == "dealer"]
    charged = sum(1.0 if p["out"] is not None else min(p["offenses"], 3) / 3 for p in dealers)
    return NARC_START + charged / max(1, len(dealers))


def evaluate_by_worth(state: dict) -> list[float]:
    """Shares of the win by each seat's worth in its role: bots revision 1's value (rules/bot_seat.py), kept
    to re-run it."""
    players = state["players"]
    return shares([narc_worth(players) if p["role"] == "narc" else dealer_worth(p) for p in players])


def evaluate(state: dict) -> list[float]:
    """Each seat's chance to win in its role, fitted (see below); none for a Dealer out of the game."""
    out = [p["out"] is not None for p in state["players"]]
    return value.win_shares(features(state), progress(state), WEIGHTS, out)


# ------------------------------------------------------------------ fitted (rules/search/value.py)
FEATURES = ("the Narc", "Narc: Dealers out", "Narc: offenses charged", "Dealer: Lids sold", "Dealer: Lids held",
            "Dealer: cash", "Dealer: offenses", "Dealer: out", "Dealer: a Transit Pass")
# 1, 5c: a Dealer wins by a Kilo sold and is out on his third offense; the Narc wins when every Dealer is out
SIGNS = (0, 1, 1, 1, 1, 1, -1, -1, 1)


def features(state: dict) -> list[list[float]]:
    """Each seat's numbers in its role (zero for the other role's): the Narc's share of Dealers out and
    of the offenses that put the others out (3 each); a Dealer's Lids sold and held (1 is a Kilo), cash
    (1 is a Kilo's worth at $50 a Lid), offenses, whether he is out, whether he holds a Transit Pass."""
    players = state["players"]
    dealers = [p for p in players if p["role"] == "dealer"]
    out = sum(1 for p in dealers if p["out"] is not None) / max(1, len(dealers))
    charged = sum(min(p["offenses"], 3) for p in dealers if p["out"] is None) / (3 * max(1, len(dealers)))
    rows = []
    for p in players:
        if p["role"] == "narc":
            rows.append([1.0, out, charged, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
        else:
            rows.append([0.0, 0.0, 0.0, p["sold"] / KILO, p["lids"] / KILO, p["cash"] / (KILO * LID_PRICE),
                         float(p["offenses"]), float(p["out"] is not None), float(bool(p["pass"]))])
    return rows


def progress(state: dict) -> float:
    """How far the race to a Kilo has gone: the best Dealer's share of it."""
    return min(1.0, max(p["sold"] for p in state["players"]) / KILO)


WEIGHTS = value.weights(data.SEARCH_WEIGHTS, FEATURES, data.SEARCH_WEIGHTS_FILE.name)
