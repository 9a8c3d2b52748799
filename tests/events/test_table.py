"""The table as a decider (events/table.py): pure, no Redis.  Given the engine's events, when a
table command arrives, then these events (or a refusal)."""
from __future__ import annotations

import pytest

from events import table as tables
from events.forks import forked_from
from rules.base import Event, IllegalMove


def table_of(seats: list[dict], clock: dict | None = None, *events: Event) -> dict:
    created = tables.created("race", {"goal": 10}, seats, "c0ffee", clock or {})
    table = tables.evolve(None, created[0])
    for event in events:
        table = tables.evolve(table, event)
    return table


def decide(table: dict, command: dict, status: str = "active", awaiting: dict | None = None) -> list[Event]:
    return tables.decide(table, status, awaiting if awaiting is not None else {0: "move", 1: "response"}, command,
                         ("random", "slow"))


def apply(table: dict, events: list[Event]) -> dict:
    for event in events:
        table = tables.evolve(table, event)
    return table


HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_an_open_seat_is_claimed_once():
    table = table_of([{"kind": "open"}, {"kind": "human"}])
    claimed = decide(table, {"type": "ClaimSeat", "seat": 0, "name": "Ana"}, status="open")
    assert [(e.type, e.data) for e in claimed] == [("SeatClaimed", {"seat": 0, "name": "Ana"})]
    table = apply(table, claimed)
    assert table["seats"][0] == {"kind": "human", "name": "Ana"}
    with pytest.raises(tables.SeatNotOpen):
        decide(table, {"type": "ClaimSeat", "seat": 0}, status="open")
    with pytest.raises(tables.NoSuchSeat):
        decide(table, {"type": "ClaimSeat", "seat": 2}, status="open")


def test_each_deadline_counts_once_and_the_limit_hands_the_seat_to_the_clock_bot_level():
    table = table_of(HUMANS, {"move_seconds": 30, "timeouts_before_bot": 2, "bot_level": "slow"})
    first = decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 1000})
    assert [(e.type, e.data) for e in first] == [("ClockExpired", {"seat": 0, "deadline": 1000, "timeouts": 1})]
    table = apply(table, first)
    # the same deadline again (a clock job run twice): nothing more is counted
    assert decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 1000}) == []
    second = decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 2000})
    assert [e.type for e in second] == ["ClockExpired", "SeatHandedToBot"]
    assert second[1].data == {"seat": 0, "level": "slow", "reason": "2 clock timeouts"}
    table = apply(table, second)
    assert table["seats"][0] == {"kind": "bot", "level": "slow"} and table["timeouts"] == {"0": 2}


def test_without_a_clock_bot_level_the_rulesets_first_level_takes_over():
    table = table_of(HUMANS, {"move_seconds": 30, "timeouts_before_bot": 1})
    events = decide(table, {"type": "ExpireClock", "seat": 1, "deadline": 5})
    assert events[1].data["level"] == "random"


def test_two_seats_clocks_are_counted_apart():
    table = table_of(HUMANS, {"move_seconds": 30, "timeouts_before_bot": 3})
    table = apply(table, decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 7}))
    table = apply(table, decide(table, {"type": "ExpireClock", "seat": 1, "deadline": 7}))
    assert table["timeouts"] == {"0": 1, "1": 1}


def test_a_clock_expires_only_for_an_awaited_human_seat_of_an_active_game():
    table = table_of([{"kind": "human"}, {"kind": "bot", "level": "random"}], {"move_seconds": 30})
    with pytest.raises(IllegalMove):
        decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 1}, awaiting={1: "move"})
    with pytest.raises(IllegalMove):
        decide(table, {"type": "ExpireClock", "seat": 1, "deadline": 1})
    with pytest.raises(IllegalMove):
        decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 1}, status="finished")


def test_a_reclaimed_seat_is_human_again_with_a_clean_count():
    table = table_of(HUMANS, {"move_seconds": 30, "timeouts_before_bot": 1})
    table = apply(table, decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 1}))
    assert table["seats"][0]["kind"] == "bot"
    reclaimed = decide(table, {"type": "ReclaimSeat", "seat": 0})
    assert [(e.type, e.data) for e in reclaimed] == [("SeatReclaimed", {"seat": 0})]
    table = apply(table, reclaimed)
    assert table["seats"][0] == {"kind": "human"} and table["timeouts"] == {}
    with pytest.raises(tables.NothingToReclaim):
        decide(table, {"type": "ReclaimSeat", "seat": 0})


def test_the_projection_is_what_the_lobby_reads():
    table = table_of([{"kind": "open", "name": "x"}, {"kind": "bot", "level": "random"}])
    projected = tables.projection(table)
    assert projected["ruleset"] == "race" and projected["seed_commitment"] == "c0ffee"
    assert projected["seats"] == '[{"kind": "open", "name": "x"}, {"kind": "bot", "level": "random"}]'


def test_evolve_never_changes_the_table_it_is_given():
    table = table_of(HUMANS, {"timeouts_before_bot": 1})
    before = repr(table)
    apply(table, decide(table, {"type": "ExpireClock", "seat": 0, "deadline": 1}))
    assert repr(table) == before


def test_an_idle_game_is_abandoned_once_and_then_takes_no_command():
    # Retention (events/retention.py): AbandonGame ends an open or active game without a winner.
    table = table_of(HUMANS, {"move_seconds": 30})
    abandoned = decide(table, {"type": "AbandonGame", "idle_since": 1000, "idle_seconds": 60})
    assert [(e.type, e.data) for e in abandoned] == [("GameAbandoned", {"idle_since": 1000, "idle_seconds": 60})]
    table = apply(table, abandoned)
    assert tables.game_status(table, {"any": "state"}, None) == "abandoned"
    assert tables.game_outcome(table, None, None) == {"winners": [], "reason": "abandoned", "idle_seconds": 60}
    for command in ({"type": "AbandonGame", "idle_since": 1000, "idle_seconds": 60},
                    {"type": "ExpireClock", "seat": 0, "deadline": 5}, {"type": "ReclaimSeat", "seat": 0},
                    {"type": "ClaimSeat", "seat": 1}):
        with pytest.raises(tables.GameClosed, match="abandoned"):
            decide(table, command, status="abandoned")


def test_an_open_game_may_be_abandoned_a_finished_one_may_not():
    table = table_of([{"kind": "open"}, {"kind": "human"}])
    assert decide(table, {"type": "AbandonGame", "idle_since": 0, "idle_seconds": 1}, status="open")[0].type \
        == "GameAbandoned"
    with pytest.raises(IllegalMove, match="a finished game cannot be abandoned"):
        decide(table, {"type": "AbandonGame", "idle_since": 0, "idle_seconds": 1}, status="finished")
    with pytest.raises(IllegalMove, match="idle_seconds"):
        decide(table, {"type": "AbandonGame", "idle_since": 0, "idle_seconds": "a week"}, status="active")


def test_every_table_event_matches_its_declared_data_schema():
    """Issue 25 (event data per type): the table's events as its decider writes them (a creation with a
    contribution window, a contribution, a claim, the window closing, a clock run out until a bot takes over, a
    reclaim, an abandonment) validate against ENGINE_EVENT_DATA (the spec's TableEvent), one schema per
    ENGINE_EVENTS type."""
    from jsonschema import Draft202012Validator

    assert set(tables.ENGINE_EVENT_DATA) == tables.ENGINE_EVENTS
    validators = {etype: Draft202012Validator(schema) for etype, schema in tables.ENGINE_EVENT_DATA.items()}
    events = tables.created("race", {"goal": 10}, [{"kind": "open"}, {"kind": "human", "name": "Bo"},
                                                   {"kind": "human"}, {"kind": "bot", "level": "random"}], "c0ffee",
                            {"timeouts_before_bot": 2}, ruleset_version=2, seed_source="fixed",
                            contribution_seconds=30)
    table = apply(None, events)
    for command in ({"type": "ContributeEntropy", "seat": 1, "entropy": "e" * 32},
                    {"type": "ClaimSeat", "seat": 0, "name": "Ana", "entropy": "f"},
                    {"type": "CloseContributions", "deadline": 30_000}):
        produced = decide(table, command, status="open")
        table = apply(table, produced)
        events += produced
    assert events[-1].data == {"deadline": 30_000, "missing": [2]}
    for deadline in (1000, 2000):
        expired = decide(table, {"type": "ExpireClock", "seat": 0, "deadline": deadline})
        table = apply(table, expired)
        events += expired
    reclaimed = decide(table, {"type": "ReclaimSeat", "seat": 0})
    table = apply(table, reclaimed)
    events += reclaimed
    events += decide(table, {"type": "AbandonGame", "idle_since": 5, "idle_seconds": 86400})
    # a table's life (issue 36 item 1): a resignation to a bot, then the last, a rematch asked and created;
    # a leave and an abort at a table not started
    for command in ({"type": "Resign", "seat": 0}, {"type": "Resign", "seat": 1}, {"type": "Resign", "seat": 2}):
        produced = decide(table, command)
        table = apply(table, produced)
        events += produced
    for command in ({"type": "Rematch", "seat": n} for n in tables.players(table)):
        produced = decide(table, command, status="finished")
        table = apply(table, produced)
        events += produced
    events += decide(table, {"type": "LinkRematch", "game_id": "0123456789abcdef"}, status="finished")
    unstarted = apply(None, tables.created("race", {}, HUMANS, "c0ffee", {}))
    events += decide(unstarted, {"type": "Leave", "seat": 1}, status="open")
    # players (issue 37): a private table with a bound seat, a claim by a player, a fresh token
    bound = tables.created("race", {}, [{"kind": "human", "name": "Ada", "player": "p1"}, {"kind": "open"}], "c0ffee",
                           {}, visibility="private")
    events += bound
    claimed = decide(apply(None, bound), {"type": "ClaimSeat", "seat": 1, "name": "Bo", "player": "p2"}, status="open")
    events += claimed
    events += decide(apply(apply(None, bound), claimed), {"type": "RenewSeatToken", "seat": 1, "player": "p2"})
    events += decide(unstarted, {"type": "Abort", "seat": 0}, status="open")
    # a fork of a finished game (issue 39 item 5): its creation's second event
    events.append(forked_from("0123456789abcdef", 12, 1, [{"version": n, "type": "X", "data": {}} for n in range(1, 20)],
                              {"seats": 2}))
    assert {e.type for e in events} == tables.ENGINE_EVENTS
    for event in events:
        problems = [e.message for e in validators[event.type].iter_errors(event.data)]
        assert not problems, f"{event.type} {event.data}: {problems}"


# ------------------------------------------------------------------ players and visibility (issue 37)
def test_a_seat_bound_at_creation_or_claim_carries_its_player_and_name_through_a_bot_and_back():
    """Given a table whose seat 0 was created bound to player p1 and whose seat 1 a player claims: both seats
    carry `player` and the player's name, through a hand-over to a bot and the reclaim; a leave unbinds."""
    table = apply(None, tables.created("race", {}, [{"kind": "human", "name": "Ada", "player": "p1"},
                                                    {"kind": "open"}], "c0ffee", {}))
    claimed = decide(table, {"type": "ClaimSeat", "seat": 1, "name": "Bo", "player": "p2"}, status="open")
    assert [(e.type, e.data) for e in claimed] == [("SeatClaimed", {"seat": 1, "name": "Bo", "player": "p2"})]
    assert tables.bound_seats(claimed[0]) == [(1, "p2")]
    table = apply(table, claimed)
    assert table["seats"] == [{"kind": "human", "name": "Ada", "player": "p1"},
                              {"kind": "human", "name": "Bo", "player": "p2"}]
    table = apply(table, decide(table, {"type": "HandSeatToBot", "seat": 0, "level": "random", "reason": "x"}))
    table = apply(table, decide(table, {"type": "ReclaimSeat", "seat": 0}))
    assert table["seats"][0] == {"kind": "human", "name": "Ada", "player": "p1"}
    left = apply(table, decide(table, {"type": "Leave", "seat": 1}, status="open"))
    assert left["seats"][1] == {"kind": "open"}


def test_only_the_seats_own_player_gets_a_fresh_token():
    """Given seat 0 bound to p1 and seat 1 anonymous: p1 renews seat 0's token (SeatTokenRenewed, the table
    otherwise unchanged); p2 for seat 0, or anyone for the anonymous seat, is refused."""
    table = apply(None, tables.created("race", {}, [{"kind": "human", "name": "Ada", "player": "p1"},
                                                    {"kind": "human"}], "c0ffee", {}))
    renewed = decide(table, {"type": "RenewSeatToken", "seat": 0, "player": "p1"})
    assert [(e.type, e.data) for e in renewed] == [("SeatTokenRenewed", {"seat": 0, "player": "p1"})]
    assert apply(table, renewed) == table
    for seat, player in ((0, "p2"), (1, "p1")):
        with pytest.raises(tables.NotYourSeat):
            decide(table, {"type": "RenewSeatToken", "seat": seat, "player": player})


def test_visibility_is_recorded_only_for_a_table_that_is_not_public():
    """A public table's GameCreated is as it always was (no `visibility`); an unlisted or private one records
    it, and the table's projection carries it to the meta."""
    public = tables.created("race", {}, HUMANS, "c0ffee", {})
    assert "visibility" not in public[0].data and "visibility" not in tables.projection(apply(None, public))
    private = tables.created("race", {}, HUMANS, "c0ffee", {}, visibility="private")
    assert private[0].data["visibility"] == "private"
    assert tables.projection(apply(None, private))["visibility"] == "private"
    with pytest.raises(ValueError):
        tables.created("race", {}, HUMANS, "c0ffee", {}, visibility="secret")
