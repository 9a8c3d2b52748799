"""The building blocks (rules/blocks) and the ruleset base's decide order, by the situations the
next games need: turn order, a window several seats answer, simultaneous secret choices, and offers
between players (decided through a ruleset built on Ruleset, open arguments and the clock)."""
from __future__ import annotations

import pytest

from rules.base import BadCommand, Event, IllegalMove, Rng
from rules.blocks import choices, families, offers, turns, windows
from rules.ruleset import Ruleset


def test_turn_order_skips_and_wraps():
    assert turns.next_seat(4, 3) == 0
    assert turns.next_seat(4, 1, skip={2, 3}) == 0
    assert turns.next_seat(2, 0, skip={0, 1}) is None
    assert turns.order_from(2, 4) == [2, 3, 0, 1]
    assert turns.next_phase(("buy", "roll", "end"), "roll") == "end"
    assert turns.next_phase(("buy", "roll", "end"), "end") is None


def test_a_window_waits_for_every_seat_then_closes():
    window = windows.open_window("sway", [2, 0, 1], roll=7)
    assert windows.awaiting(window["waiting"]) == {0: "response", 1: "response", 2: "response"}
    window = windows.answered(windows.answered(window, 1, "pass"), 0, {"units": 2})
    assert not windows.is_closed(window) and window["waiting"] == [2]
    with pytest.raises(IllegalMove, match="waiting for seat 2"):
        windows.require_waiting(window["waiting"], 0, "Sway", "7")
    window = windows.answered(window, 2)
    assert windows.is_closed(window) and window["answers"] == {"1": "pass", "0": {"units": 2}, "2": True}
    assert window["roll"] == 7


def test_secret_choices_are_awaited_together_and_made_once():
    slots = [None, None, None]
    assert choices.awaiting(slots) == {0: "move", 1: "move", 2: "move"}
    slots = choices.chosen_with(slots, 1, ["AS3"])
    event = choices.chosen_event("EmpireChosen", 1, regions=["AS3"])
    assert event.data == {"seat": 1, "secret": {"regions": ["AS3"]}}  # its content is secret to seat 1
    with pytest.raises(IllegalMove):
        choices.require_unchosen(slots, 1, "empire", "1")
    assert not choices.all_chosen(slots) and choices.awaiting(slots) == {0: "move", 2: "move"}
    assert choices.all_chosen(choices.chosen_with(choices.chosen_with(slots, 0, "x"), 2, "y"))


def terms_ok(state, giver, taker, terms):
    """Barter's own check of an offer's terms: goods the two seats hold."""
    if set(terms) != {"give", "get"} or not all(isinstance(terms[k], dict) for k in terms):
        raise IllegalMove('terms are {"give": {good: n}, "get": {good: n}}', rule="barter")
    for seat, side in ((giver, "give"), (taker, "get")):
        for good, n in terms[side].items():
            if not isinstance(n, int) or n < 0 or state["goods"][seat].get(good, 0) < n:
                raise IllegalMove(f"seat {seat} cannot part with {n!r} {good}", rule="barter")


def make_offer(state, seat, command, rng):
    terms_ok(state, seat, command["to"], command["terms"])
    return offers.make(state["offers"], seat, command["to"], command["terms"])


def accept_offer(state, seat, command, rng):
    accepted = offers.accept(state["offers"], seat, command["offer"])
    data = accepted[0].data
    terms_ok(state, data["from"], seat, data["terms"])  # still affordable now
    return accepted + [Event("GoodsTraded", {"from": data["from"], "to": seat, "terms": data["terms"]})]


def counter_offer(state, seat, command, rng):
    terms_ok(state, seat, offers.offer(state["offers"], command["offer"])["from"], command["terms"])
    return offers.counter(state["offers"], seat, command["offer"], command["terms"])


def started(state, d, own):
    return {"seats": d["seats"], "goods": [{"gold": 2, "salt": 3} for _ in range(d["seats"])],
            "offers": offers.empty(), "turn": 0}


def offer_event(kind):
    def evolver(state, d, own):
        state["offers"] = offers.evolve(state["offers"], Event(kind, d))
        return state
    return evolver


def passed(state, d, own):
    state["turn"] = (state["turn"] + 1) % state["seats"]
    return state


def traded(state, d, own):
    """The goods of an accepted offer change hands."""
    goods = own(state, "goods")
    for seat, give, get in ((d["from"], "give", "get"), (d["to"], "get", "give")):
        mine = own(goods, seat)
        for good, n in d["terms"][give].items():
            mine[good] -= n
        for good, n in d["terms"][get].items():
            mine[good] += n
    return state


class Barter(Ruleset):
    """Two merchants with goods; offers of goods for goods; the first to hold 5 gold wins."""

    name, title, noun = "barter", "Barter", "Barter"
    min_seats, max_seats = 2, 3
    commands = {**offers.COMMANDS, "Pass": {}}
    open_arguments = offers.OPEN_ARGUMENTS
    handlers = {
        "MakeOffer": make_offer, "AcceptOffer": accept_offer, "CounterOffer": counter_offer,
        "DeclineOffer": lambda s, seat, c, r: offers.decline(s["offers"], seat, c["offer"]),
        "WithdrawOffer": lambda s, seat, c, r: offers.withdraw(s["offers"], seat, c["offer"]),
        "Pass": lambda s, seat, c, r: [Event("Passed", {"seat": seat})],
    }

    def opening(self, options, seats, rng):
        return [Event("GameStarted", {"seats": seats})]

    evolvers = {"GameStarted": started, "GoodsTraded": traded, "Passed": passed,
                **{kind: offer_event(kind) for kind in offers.EVENTS}}

    def legal_moves(self, state, seat):
        template = {"give": {}, "get": {}}
        moves = offers.moves(state["offers"], seat, template)
        if seat == state["turn"] and not state["offers"]["open"]:
            moves += [{"type": "MakeOffer", "to": other, "terms": template}
                      for other in range(state["seats"]) if other != seat] + [{"type": "Pass"}]
        return moves

    def awaiting(self, state):
        return offers.awaiting(state["offers"]) or {state["turn"]: "move"}

    def timeout_default(self, state, seat):
        return offers.timeout_answer(state["offers"], seat) or {"type": "Pass"}

    def view(self, state, seat):
        return state

    def outcome(self, state):
        return None


BARTER = Barter()


def play(state, seat, command, n=0):
    events = BARTER.decide(state, seat, command, Rng("barter", n))
    return BARTER.fold(state, events), events


def started():
    return BARTER.fold(None, BARTER.setup({}, 2, Rng("barter", 0)))


def test_an_offer_is_made_with_open_terms_and_accepted_with_the_games_own_settlement():
    state = started()
    state, events = play(state, 0, {"type": "MakeOffer", "to": 1, "terms": {"give": {"salt": 2}, "get": {"gold": 1}}})
    assert events[0].type == "OfferMade" and BARTER.awaiting(state) == {1: "response"}
    assert {"type": "AcceptOffer", "offer": 1} in BARTER.legal_moves(state, 1)
    state, events = play(state, 1, {"type": "AcceptOffer", "offer": 1})
    assert [e.type for e in events] == ["OfferAccepted", "GoodsTraded"]
    assert state["goods"] == [{"gold": 3, "salt": 1}, {"gold": 1, "salt": 5}] and state["offers"]["open"] == {}


def test_a_counter_sends_new_terms_back_and_the_clock_declines_for_a_silent_addressee():
    state = started()
    state, _ = play(state, 0, {"type": "MakeOffer", "to": 1, "terms": {"give": {"salt": 1}, "get": {"gold": 2}}})
    state, events = play(state, 1, {"type": "CounterOffer", "offer": 1,
                                    "terms": {"give": {"gold": 1}, "get": {"salt": 1}}})
    assert events[0].data["counter"] == 2 and BARTER.awaiting(state) == {0: "response"}
    assert BARTER.on_timeout(state, 0) == {"type": "DeclineOffer", "offer": 2}
    state, events = play(state, 0, BARTER.on_timeout(state, 0))
    assert events[0].type == "OfferDeclined" and BARTER.awaiting(state) == {0: "move"}


def test_only_the_offerer_withdraws_and_only_the_addressee_answers():
    state = started()
    state, _ = play(state, 0, {"type": "MakeOffer", "to": 1, "terms": {"give": {"salt": 1}, "get": {}}})
    with pytest.raises(IllegalMove):  # not listed for seat 0: the base asks the handler why
        BARTER.decide(state, 0, {"type": "AcceptOffer", "offer": 1}, Rng("x", 1))
    with pytest.raises(IllegalMove, match="that offer is not open"):
        BARTER.decide(state, 1, {"type": "AcceptOffer", "offer": 9}, Rng("x", 1))
    state, events = play(state, 0, {"type": "WithdrawOffer", "offer": 1})
    assert events[0].type == "OfferWithdrawn" and state["offers"]["open"] == {}


def test_open_terms_are_checked_by_the_handler_and_the_shape_by_the_base():
    state = started()
    with pytest.raises(IllegalMove, match="cannot part with 9 gold"):
        BARTER.decide(state, 0, {"type": "MakeOffer", "to": 1, "terms": {"give": {"gold": 9}, "get": {}}}, Rng("x", 1))
    with pytest.raises(BadCommand, match="must be a JSON object"):
        BARTER.decide(state, 0, {"type": "MakeOffer", "to": 1, "terms": "all your salt"}, Rng("x", 1))
    with pytest.raises(IllegalMove):  # the fixed argument `to` must still match a listed move
        BARTER.decide(state, 0, {"type": "MakeOffer", "to": 0, "terms": {"give": {}, "get": {}}}, Rng("x", 1))


class Broken(Ruleset):
    name = title = noun = "broken"
    min_seats, max_seats = 2, 2
    commands = {"Go": {"n": "int"}}
    handlers = {"Go": lambda s, seat, c, r: [][c["n"]]}  # an IndexError: a bug, not a refusal

    def legal_moves(self, state, seat):
        return []


def test_a_handler_crash_on_a_refused_command_surfaces_instead_of_becoming_a_refusal():
    with pytest.raises(IndexError):
        Broken().decide({"seats": 2}, 0, {"type": "Go", "n": 3}, Rng("x", 1))


def test_a_ruleset_must_declare_one_handler_per_command():
    with pytest.raises(TypeError, match="exactly one handler"):
        type("Half", (Ruleset,), {"commands": {"A": {}, "B": {}}, "handlers": {"A": None}})


def test_an_offer_to_several_seats_is_one_offer_each_with_consecutive_ids():
    book = offers.evolve(offers.empty(), offers.make(offers.empty(), 0, 1, {"give": {}, "get": {}})[0])
    made = offers.make_each(book, 0, [1, 2, 3], {"give": {"salt": 1}, "get": {"gold": 1}})
    assert [(e.data["offer"], e.data["to"]) for e in made] == [(2, 1), (3, 2), (4, 3)]
    for event in made:
        book = offers.evolve(book, event)
    assert offers.awaiting(book) == {1: "response", 2: "response", 3: "response"} and book["next"] == 5
    assert offers.timeout_answer(book, 3) == {"type": "DeclineOffer", "offer": 4}
    with pytest.raises(IllegalMove, match="other players"):
        offers.make_each(book, 0, [0, 1], {})
    with pytest.raises(IllegalMove):
        offers.make_each(book, 0, [], {})


# -- move families (rules/blocks/families.py) ---------------------------------
LISTING = [({"type": "Trade", "from": "a", "route": "land"}, "units", range(1, 4)),
           families.one({"type": "Keep", "regions": ["x", "y"]}),
           ({"type": "Sway", "die": "trade"}, "units", (1, -1, 2, -2)),
           ({"type": "Trade", "from": "b", "route": "sea"}, "units", range(1, 2)),
           families.one({"type": "Pass"})]


def test_a_listing_expands_in_order_and_answers_without_expanding():
    moves = families.expand(LISTING)
    assert moves[:4] == [{"type": "Trade", "from": "a", "route": "land", "units": 1},
                         {"type": "Trade", "from": "a", "route": "land", "units": 2},
                         {"type": "Trade", "from": "a", "route": "land", "units": 3},
                         {"type": "Keep", "regions": ["x", "y"]}]
    assert [m.get("units") for m in moves[4:]] == [1, -1, 2, -2, 1, None]
    assert families.count(LISTING) == len(moves) == 10
    assert [families.nth(LISTING, i) for i in range(len(moves))] == moves
    with pytest.raises(IndexError):
        families.nth(LISTING, len(moves))
    for n in range(40):  # the same draw as a choice from the whole list
        assert families.pick(LISTING, Rng("pick", n)) == Rng("pick", n).choice(moves)


def test_a_listing_contains_exactly_its_moves():
    moves = families.expand(LISTING)
    near = [{"type": "Trade", "from": "a", "route": "land", "units": 4},
            {"type": "Trade", "from": "a", "route": "land", "units": 0},
            {"type": "Trade", "from": "b", "route": "sea", "units": 2},
            {"type": "Trade", "from": "a", "route": "sea", "units": 1},
            {"type": "Trade", "from": "a", "route": "land"},
            {"type": "Trade", "from": "a", "route": "land", "units": 1, "to": "c"},
            {"type": "Trade", "from": "a", "units": 1, "to": "c"},
            {"type": "Sway", "die": "trade", "units": -3}, {"type": "Sway", "die": "trade", "units": "1"},
            {"type": "Keep", "regions": ["y", "x"]}, {"type": "Pass", "units": 1}, {"type": "Keep"}, {}]
    assert all(families.contains(LISTING, m) for m in moves)
    assert not any(families.contains(LISTING, m) for m in near)
    assert not any(m in moves for m in near)


def test_expanded_moves_are_the_callers_to_change():
    moves = families.expand(LISTING)
    moves[3]["regions"].append("z")
    families.nth(LISTING, 0)["units"] = 99
    assert families.expand(LISTING)[3] == {"type": "Keep", "regions": ["x", "y"]}
    assert families.nth(LISTING, 0)["units"] == 1
