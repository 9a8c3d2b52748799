"""Who may act and when (events/clocks.py): pure, no Redis, `now` a parameter.  Given the table and
whom the game awaits, when a seat sends a command, a clock job wakes or an append changes the wait
at time t, then this refusal, these deadlines, these events."""
from __future__ import annotations

import pytest

from events import clocks
from events import table as tables
from rules.base import Event, IllegalMove

CLOCK = {"move_seconds": 30, "response_seconds": 10, "timeouts_before_bot": 2}


def table_of(seats: list[dict], clock: dict | None = None, *events: Event) -> dict:
    table = tables.evolve(None, tables.created("race", {}, seats, "c0ffee", clock or {})[0])
    for event in events:
        table = tables.evolve(table, event)
    return table


HUMAN, BOT, OPEN = {"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "open"}


class Awaits:
    """A ruleset that awaits what its state says (keys as JSON gives them: strings)."""

    @staticmethod
    def awaiting(state: dict) -> dict:
        return {str(seat): kind for seat, kind in state.items()}


# ------------------------------------------------------------ who may act
def test_an_active_game_awaits_what_its_rules_say_and_any_other_nobody():
    assert clocks.awaited("active", Awaits, {0: "move", 2: "response"}) == {0: "move", 2: "response"}
    for status in ("open", "finished", "abandoned"):
        assert clocks.awaited(status, Awaits, {0: "move"}) == {}


def test_the_awaited_human_seat_may_act_and_its_clock_may_act_for_it():
    table = table_of([HUMAN, BOT])
    clocks.check_may_act(table, "active", {0: "move"}, 0, "seat")
    clocks.check_may_act(table, "active", {0: "move"}, 0, "clock")


def test_a_seat_not_awaited_is_told_whom_the_game_waits_for():
    table = table_of([HUMAN, HUMAN])
    with pytest.raises(clocks.NotAwaited, match=r"seat 1 may not act now; waiting for seat 0 \(move\)") as refused:
        clocks.check_may_act(table, "active", {0: "move"}, 1, "seat")
    assert refused.value.rule == "turn order"


def test_the_awaited_seat_is_shown_its_moves_and_a_spectator_never():
    # the game document lists legal moves by the turn order check_may_act applies (service/presenters.py)
    assert clocks.is_awaited({0: "move", 2: "response"}, 2)
    assert not clocks.is_awaited({0: "move"}, 1) and not clocks.is_awaited({0: "move"}, None)


def test_a_clock_acts_for_its_humans_seat_and_no_more_once_the_seat_is_handed_to_a_bot():
    handed = table_of([HUMAN, HUMAN], CLOCK, clocks.hand_over(0, "random", "2 clock timeouts"))
    assert clocks.controls(handed["seats"], 1, "clock") and clocks.controls(handed["seats"], 1, "seat")
    assert not clocks.controls(handed["seats"], 0, "clock") and clocks.controls(handed["seats"], 0, "bot")
    assert not clocks.controls(handed["seats"], 5, "clock")  # no such seat: nobody controls it
    with pytest.raises(clocks.NotInControl):  # the rule the clock job asks is check_may_act's
        clocks.check_may_act(handed, "active", {0: "move"}, 0, "clock")


@pytest.mark.parametrize("status, reason", [("open", "the game has not started: seats are still open"),
                                            ("finished", "the game is over")])
def test_before_the_start_and_after_the_end_nobody_may_act(status, reason):
    with pytest.raises(clocks.NotAwaited, match=reason) as refused:
        clocks.check_may_act(table_of([HUMAN, HUMAN]), status, {}, 0, "seat")
    assert refused.value.rule == "game status"


def test_a_seat_handed_to_a_bot_refuses_its_human_even_out_of_turn_and_names_the_reclaim():
    table = table_of([HUMAN, HUMAN], CLOCK, clocks.hand_over(1, "random", "2 clock timeouts"))
    for awaiting in ({1: "move"}, {0: "move"}):
        with pytest.raises(clocks.SeatPlayedByBot, match="POST /v1/games/g1/seats/1/reclaim"):
            clocks.check_may_act(table, "active", awaiting, 1, "seat", "g1")
    clocks.check_may_act(table, "active", {1: "move"}, 1, "bot")  # the bot plays it now


def test_a_finished_game_says_it_is_over_before_any_word_on_seat_control():
    """Issue 36 item 7: its seat went to a bot, but "reclaim it to play again" would be wrong: nothing is
    left to play."""
    table = table_of([HUMAN, HUMAN], CLOCK, clocks.hand_over(1, "random", "2 clock timeouts"))
    with pytest.raises(clocks.NotAwaited, match="the game is over") as refused:
        clocks.check_may_act(table, "finished", {}, 1, "seat", "g1")
    assert refused.value.rule == "game status"


@pytest.mark.parametrize("seats, sender", [([HUMAN, BOT], "bot"), ([BOT, HUMAN], "clock")])
def test_a_bot_may_not_move_for_a_human_nor_a_clock_for_a_bot(seats, sender):
    with pytest.raises(clocks.NotInControl, match="seat 0 is controlled by") as refused:
        clocks.check_may_act(table_of(seats), "active", {0: "move"}, 0, sender)
    assert refused.value.rule == "seat control"


def test_an_abandoned_game_refuses_everyone():
    table = table_of([HUMAN, BOT], None, Event("GameAbandoned", {"idle_since": 0, "idle_seconds": 60}))
    for sender in ("seat", "bot", "clock"):
        with pytest.raises(clocks.GameClosed, match="no human command for 60 s"):
            clocks.check_may_act(table, "abandoned", {}, 0, sender)


# ------------------------------------------------------ when a game starts
def test_the_game_starts_once_no_seat_is_open_and_only_once():
    assert not clocks.ready_to_start(table_of([HUMAN, OPEN]), None)
    seated = table_of([HUMAN, OPEN], None, Event("SeatClaimed", {"seat": 1}))
    assert clocks.ready_to_start(seated, None)
    assert not clocks.ready_to_start(seated, {"started": True})
    abandoned = tables.evolve(seated, Event("GameAbandoned", {"idle_since": 0, "idle_seconds": 60}))
    assert not clocks.ready_to_start(abandoned, None)


# -------------------------------------------------------------- deadlines
def test_a_human_seats_clock_starts_when_it_becomes_awaited():
    table = table_of([HUMAN, BOT, HUMAN], CLOCK)
    running = clocks.deadlines(table, {0: "move", 1: "move", 2: "response"}, before={}, running={}, now=1_000)
    assert running == {0: 31_000, 2: 11_000}  # a bot's seat has no clock


def test_the_clock_keeps_its_deadline_while_the_wait_is_the_same_and_restarts_when_it_changes():
    table = table_of([HUMAN, HUMAN], CLOCK)
    before, running = {0: "move", 1: "response"}, {0: 31_000, 1: 11_000}
    after = clocks.deadlines(table, {0: "move", 1: "move"}, before, running, now=5_000)
    assert after == {0: 31_000, 1: 35_000}


def test_the_clock_stops_when_the_seat_is_no_longer_awaited_or_the_game_has_no_clock():
    table = table_of([HUMAN, HUMAN], CLOCK)
    assert clocks.deadlines(table, {1: "move"}, {0: "move"}, {0: 31_000}, now=5_000) == {1: 35_000}
    assert clocks.deadlines(table, {}, {0: "move"}, {0: 31_000}, now=5_000) == {}
    assert clocks.deadlines(table_of([HUMAN, HUMAN]), {0: "move"}, {}, {}, now=5_000) == {}
    moves_only = table_of([HUMAN, HUMAN], {"move_seconds": 30})
    assert clocks.deadlines(moves_only, {0: "response"}, {}, {}, now=5_000) == {}  # no response clock set


def test_the_clocks_an_append_started_and_the_first_to_fall():
    assert clocks.started({0: 31_000, 1: 11_000}, {0: 31_000, 1: 35_000, 2: 40_000}) == {1: 35_000, 2: 40_000}
    assert clocks.earliest({0: 31_000, 1: 11_000}) == 11_000
    assert clocks.earliest({}) is None


# ------------------------------------------------- the clock job and sweeper
@pytest.mark.parametrize("now, wake", [
    (31_000 - 5_000, ("early", 5_000)),  # woken well before its deadline: run again nearer it
    (31_000 - 1_000, ("due", 1_000)),    # within the early wait: wait out the rest
    (31_000 + 2_000, ("due", 0)),        # late (a lost job the sweeper re-enqueued): at once
])
def test_a_clock_job_waking_at_now(now, wake):
    assert clocks.clock_wake({0: 31_000}, 0, 31_000, now, early_wait_ms=1_500) == wake


def test_a_clock_job_whose_deadline_is_no_longer_the_seats_is_stale():
    assert clocks.clock_wake({0: 45_000}, 0, 31_000, 31_000, early_wait_ms=1_500) == ("stale", 0)
    assert clocks.clock_wake({}, 0, 31_000, 31_000, early_wait_ms=1_500) == ("stale", 0)


def test_the_default_moves_go_on_while_the_same_clock_holds_the_awaited_seat():
    assert clocks.clock_running({0: 31_000}, {0: "move"}, 0, 31_000)
    assert not clocks.clock_running({0: 31_000}, {1: "move"}, 0, 31_000)
    assert not clocks.clock_running({0: 61_000}, {0: "move"}, 0, 31_000)


def test_the_sweeper_re_enqueues_overdue_clocks_and_awaited_bots_bar_those_given_up():
    assert clocks.overdue_clocks({0: 10_000, 1: 20_000, 2: 9_000}, before=15_000, stuck={2}) == {0: 10_000}
    seats = [HUMAN, BOT, BOT, BOT]
    assert clocks.bots_to_move(seats, {3: "move", 0: "move", 1: "response", 2: "move"}, stuck={2}) == [1, 3]


# ----------------------------------------------------------- what it counts
def test_an_expired_clock_counts_once_per_deadline_and_hands_the_seat_over_at_the_limit():
    table = table_of([HUMAN, HUMAN], CLOCK)
    first = clocks.expire_clock(table, {0: "move"}, 0, 31_000)
    assert [(e.type, e.data) for e in first] == [("ClockExpired", {"seat": 0, "deadline": 31_000, "timeouts": 1})]
    table = tables.evolve(table, first[0])
    assert clocks.expire_clock(table, {0: "move"}, 0, 31_000) == []  # the same deadline again
    second = clocks.expire_clock(table, {0: "move"}, 0, 70_000, ("slow",))
    assert [(e.type, e.data) for e in second][1] == ("SeatHandedToBot", {"seat": 0, "level": "slow",
                                                                         "reason": "2 clock timeouts"})
    with pytest.raises(IllegalMove, match="not awaited"):
        clocks.expire_clock(table, {1: "move"}, 0, 90_000)
