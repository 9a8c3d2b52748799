"""What a search bot needs of Narcos (rules/search): determinize and evaluate.

Hidden from a seat (view.py): the Narcos deck's order (its contents are public: the pool when
shuffled less the cards seen), the Cartel deck's order, the other seats' Cartel hands (sizes
public), the Cartel cards they spent face down (count public) and the card a Snitch showed another
seat.  The deck is reshuffled, except its top card when the seat itself knows it: it is looking at
it, or it looked at it and left it there (DeclineCard: the card stays on top until turned).  The
Cartel cards the seat has not seen (the game's Cartel deck, without the Rob cards in basic mode,
less its own hand, its own face-down cards and the cards played face up) are dealt to the Cartel
deck, the others' hands and the others' face-down cards; a card another seat is looking at, or
left on the deck, is whatever is now on top.
"""
from __future__ import annotations

from rules.base import Rng
from rules.narcos.data import CARDS, CARTEL_DECK
from rules.search.hidden import deal, others, shares

# ISMCTS here is guided by the greedy bot (rules/search/ismcts.py `guided`): its move is played out
# against the best few others, every seat following the greedy bot for ROLLOUT_MOVES commands before
# `evaluate` scores the state.
POLICY = "greedy"
ROLLOUT_MOVES = 12


def cartel_cards(mode: str) -> list[str]:
    """The Cartel deck a game of `mode` is dealt from: no Rob the Police Warehouse in basic mode (ruling S2)."""
    return [c["id"] for c in CARTEL_DECK if mode == "advanced" or not c["advanced_only"]]


def knows_top(state: dict, seat: int | None) -> bool:
    """Whether `seat` knows the Narcos deck's top card: it is looking at it, or left it there."""
    turn, declined = state["turn"], state.get("declined")  # a snapshot older than "declined" lacks it
    return seat is not None and bool(state["deck"]) and (
        (turn["peeked"] is not None and seat == turn["seat"]) or (declined is not None and declined["seat"] == seat))


def own_cartel(player: dict) -> list[str]:
    """The Cartel cards a seat holds or has spent face down (it knows both)."""
    return list(player["hand"]) + list(player.get("spent", []))


def determinize(state: dict, seat: int | None, rng: Rng) -> dict:
    hidden = others(state["seats"], seat)
    turn, declined = state["turn"], state.get("declined")
    if knows_top(state, seat):
        deck = state["deck"][:1] + rng.shuffled(sorted(state["deck"][1:]))
    else:
        deck = rng.shuffled(sorted(state["deck"]))
    if turn["peeked"] is not None and seat != turn["seat"]:
        turn = {**turn, "peeked": deck[0]}
    if declined is not None and declined["seat"] != seat:
        declined = {**declined, "card": deck[0]} if deck else None
    players = [dict(p) for p in state["players"]]
    unseen = cartel_cards(state["mode"])
    for card in list(state["cartel_discard"]) + (own_cartel(players[seat]) if seat is not None else []):
        unseen.remove(card)
    sizes = [len(state["cartel_deck"])] + [len(players[s]["hand"]) for s in hidden] + \
        [players[s]["backs"] for s in hidden]
    cartel_deck, *dealt = deal(unseen, sizes, rng)
    for s, hand, spent in zip(hidden, dealt, dealt[len(hidden):]):
        players[s]["hand"], players[s]["spent"] = hand, spent
    return {**state, "deck": deck, "turn": turn, "players": players, "cartel_deck": cartel_deck,
            "declined": declined}


# A truncated playout is scored by what each seat will have at the end: money (the richest seat
# wins), merchandise already made (a unit in Storage sells for 1 million, one in the Laboratory
# is a Ship action further off), and what its network will still earn in the turns left: units a
# turn through its slowest link (Laboratory output for its crops, Transport and Storage
# capacities), so an improvement is worth what it adds to that flow.  Money alone made the search
# pass on every purchase (Buy, AddCrop) the greedy bot makes (bench.arena: 0 of 8 heads-up).
STORED_UNIT = 0.9       # a unit in Storage: a sale away (a Dealer on the rack, an action)
LAB_UNIT = 0.6          # a unit in the Laboratory: a Ship and a sale away
ACTIONS_PER_TURN = 4.0  # actions a turn's rack earns, roughly (a fled turn earns 1, a full rack 7)
CARDS_PER_TURN = 4.5    # a rack's length, as bots.py counts turns left


def turns_left(state: dict) -> float:
    """Each seat's turns left, roughly, from the cards still to be turned."""
    cards = len(state["deck"]) + (len(state["reserve"]) + len(state["discard"]) if state["round"] == 1 else 0)
    return cards / CARDS_PER_TURN / state["seats"]


def flow(player: dict) -> float:
    """Units a turn the network sells: ACTIONS_PER_TURN spread over Produce, Ship and Deliver so that
    each unit is made, carried and sold once."""
    made = CARDS[player["laboratory"]]["table"][player["crops"] - 1]
    carried = CARDS[player["transport"]]["capacity"]
    sold = CARDS[player["storage"]]["capacity"]
    return ACTIONS_PER_TURN / (1 / made + 1 / carried + 1 / sold)


def worth(state: dict, seat: int) -> float:
    p = state["players"][seat]
    return (p["money"] + p["uncollected"] + STORED_UNIT * p["stored"] + LAB_UNIT * p["lab"]
            + turns_left(state) * flow(p))


def evaluate(state: dict) -> list[float]:
    """Shares of the win by each seat's `worth`."""
    return shares([worth(state, s) for s in range(state["seats"])])
