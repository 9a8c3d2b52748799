"""Every event of every ruleset narrates itself (rules/narration.py, events/narration.py): issue 25 (1).

Given: every ruleset in rules.EVERY_RULESET (the five games and Pig), played by seeded bots.
Then: every event type it evolves has its own narrator (no generic fallback); every event of the
playouts, redacted for every reader (each seat and a spectator), reads as one sentence with the
names the players chose, no raw id, JSON, epoch time or hash in it, and refs of a known kind that
the sentence names; a seat outside an event's audience reads the spectator's sentence, never the
one its audience reads.  The table's own events (events/table.py) are held to the same.
"""
from __future__ import annotations

import re

import pytest

from events.narration import TABLE_NARRATIONS, narrate
from events.table import ENGINE_EVENTS
from rules import EVERY_RULESET
from rules.base import PUBLIC, Event, Rng, fold, redact
from rules.narration import REF_KINDS, Names
from tests.rules.lords_of_cannabis.support import crops, greenhouse, new_game, play, table

NAMES = Names(("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo"))
MAX_COMMANDS = 1500
# what a sentence never holds: a card or place id ("junkie200-1", "dealer6_2"), JSON, an epoch time in
# ms or s, a hash or a hex token, a Python literal, an unnamed seat
RAW = [(re.compile(r"\b[a-z]+\d+-\d+\b"), "a card id"), (re.compile(r"_"), "an identifier"),
       (re.compile(r"[{}\[\]]"), "JSON"), (re.compile(r"\d{9,}"), "an epoch time"),
       (re.compile(r"\b[0-9a-f]{12,}\b"), "a hash"), (re.compile(r"\b(None|True|False|null)\b"), "a literal"),
       (re.compile(r"\bSeat \d"), "a seat without its name")]


def check_sentence(narration: dict, seats: int, where: str) -> None:
    """One sentence, no raw ids, refs of a known kind that the sentence names."""
    assert set(narration) == {"text", "refs"}, where
    text = narration["text"]
    assert isinstance(text, str) and text.strip() == text and len(text) > 3, (where, text)
    assert text[0].isupper() or text[0].isdigit() or text[0] == "$", (where, text)
    assert text[-1] in ".!?", (where, text)
    for pattern, what in RAW:
        assert not pattern.search(text), f"{where}: {what} in {text!r}"
    for one in narration["refs"]:
        assert set(one) == {"kind", "id", "text"}, (where, one)
        assert one["kind"] in REF_KINDS and one["id"] is not None and one["text"], (where, one)
        assert one["text"] in text, f"{where}: the ref {one} is not named in {text!r}"
        if one["kind"] == "seat":
            assert isinstance(one["id"], int) and 0 <= one["id"] < seats, (where, one)
            assert one["text"] == NAMES(one["id"]), (where, one)


def playout(ruleset, seats: int, seed: str) -> list[Event]:
    """A seeded game of random bots, up to MAX_COMMANDS commands: its events."""
    events = ruleset.setup({}, seats, Rng(seed, 0))
    history, state = list(events), fold(ruleset, events)
    for version in range(1, MAX_COMMANDS):
        awaiting = ruleset.awaiting(state)
        if ruleset.outcome(state) is not None or not awaiting:
            break
        picker = Rng(seed + "/bots", version)
        seat = picker.choice(sorted(awaiting))
        events = ruleset.decide(state, seat, ruleset.bot_move(state, seat, "random", picker), Rng(seed, version))
        state = fold(ruleset, events, state)
        history += events
    return history


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_every_event_type_has_its_own_narrator(name: str) -> None:
    ruleset = EVERY_RULESET[name]
    missing = sorted(set(ruleset.evolvers) - set(ruleset.narrations))
    assert not missing, f"{name} has no sentence for {missing}"


CASES = [(name, seats, seed) for name, ruleset in sorted(EVERY_RULESET.items())
         for seats, seed in ((ruleset.min_seats, 0), (ruleset.max_seats, 1), (min(3, ruleset.max_seats), 2))]


@pytest.mark.parametrize("name,seats,seed", CASES)
def test_every_event_of_a_playout_narrates_for_every_reader(name: str, seats: int, seed: int) -> None:
    ruleset = EVERY_RULESET[name]
    history = playout(ruleset, seats, f"narration/{name}/{seats}/{seed}")
    seen = set()
    for version, event in enumerate(history, start=1):
        spectator = ruleset.narrate(redact(ruleset, event, None), NAMES)
        audience = ruleset.visible_to(event) if "secret" in event.data else PUBLIC
        for reader in (None, *range(seats)):
            narration = ruleset.narrate(redact(ruleset, event, reader), NAMES)
            check_sentence(narration, seats, f"{name} v{version} {event.type} for {reader}")
            if audience != PUBLIC and reader not in audience:
                # the outsider reads what a spectator reads, not the audience's sentence
                assert narration == spectator, (event.type, reader)
        seen.add(event.type)
    assert len(seen) >= min(3, len(ruleset.evolvers))


@pytest.mark.parametrize("name", sorted(EVERY_RULESET))
def test_a_secret_reads_differently_to_its_audience_only(name: str) -> None:
    """Where an event's secret changes its sentence, only its audience reads that sentence."""
    ruleset = EVERY_RULESET[name]
    seats = min(3, ruleset.max_seats)
    for event in playout(ruleset, seats, f"narration-secrets/{name}"):
        if "secret" not in event.data or ruleset.visible_to(event) == PUBLIC:
            continue
        audience = ruleset.visible_to(event)
        told = {ruleset.narrate(redact(ruleset, event, s), NAMES)["text"] for s in audience}
        for outsider in set(range(seats)) - set(audience):
            heard = ruleset.narrate(redact(ruleset, event, outsider), NAMES)["text"]
            assert heard not in told or heard == ruleset.narrate(Event(event.type, {
                k: v for k, v in event.data.items() if k != "secret"}), NAMES)["text"], (event.type, heard)


def test_the_tables_events_narrate_without_times_hashes_or_entropy() -> None:
    assert set(TABLE_NARRATIONS) == ENGINE_EVENTS
    pig = EVERY_RULESET["pig"]
    samples = [
        Event("GameCreated", {"ruleset": "pig", "ruleset_version": 1, "options": {"target": 50},
                              "seats": [{"kind": "human", "name": "Ana"}, {"kind": "open"},
                                        {"kind": "bot", "level": "ismcts:16"}],
                              "seed_commitment": "ab" * 32, "clock": {"move_seconds": 60, "response_seconds": 30},
                              "entropy": "c0ffee" * 6}),
        Event("SeatClaimed", {"seat": 1, "name": "Bo", "entropy": "deadbeef" * 4}),
        Event("ClockExpired", {"seat": 0, "deadline": 1_767_225_600_000, "timeouts": 2}),
        Event("SeatHandedToBot", {"seat": 0, "level": "random", "reason": "2 clock timeouts"}),
        Event("SeatReclaimed", {"seat": 0}),
        Event("GameAbandoned", {"idle_since": 1_767_225_600_000, "idle_seconds": 86_400}),
    ]
    texts = []
    for event in samples:
        narration = narrate(pig, event, NAMES)
        check_sentence(narration, 3, event.type)
        assert "c0ffee" not in narration["text"] and "deadbeef" not in narration["text"]
        texts.append(narration["text"])
    assert texts[0] == ("A game of Pig (example game) was set up for 3 seats: Ana, a searching bot and 1 open seat "
                        "with 60 s a move and 30 s to respond.")
    assert texts[1] == "Bo took an open seat." and texts[2] == "Ana's clock ran out for the 2nd time."
    assert texts[5] == "The game was abandoned after 1 day without a move: nobody wins."


def test_rolls_read_as_dice() -> None:
    pig, kingpin = EVERY_RULESET["pig"], EVERY_RULESET["kingpin"]
    assert pig.narrate(Event("DieRolled", {"seat": 1, "face": 4}), NAMES)["text"] == "Bo rolled a 4."
    assert kingpin.narrate(Event("DiceRolled", {"seat": 0, "dice": [3, 4, 6]}), NAMES)["text"] == \
        "Ana rolled 3, 4 and 6."
    sold = kingpin.narrate(Event("HitsSold", {"seat": 0, "junkie": "junkie200-1", "dealer": "dealer3-1", "hits": 2,
                                              "cash": 400, "face": 3}), NAMES)
    assert sold == {"text": "Ana sold 2 Hits to the $200 Junkie for $400.",
                    "refs": [{"kind": "seat", "id": 0, "text": "Ana"},
                             {"kind": "card", "id": "junkie200-1", "text": "$200 Junkie"}]}


def test_a_narrator_that_fails_reads_as_the_generic_sentence_not_an_error() -> None:
    """A read path never turns a narrator's bug (or an event it no longer knows) into a 500."""
    kingpin = EVERY_RULESET["kingpin"]
    narration = narrate(kingpin, Event("HitsSold", {"seat": 0}), NAMES)
    assert narration == {"text": "Ana: hits sold.", "refs": [{"kind": "seat", "id": 0, "text": "Ana"}]}


def test_the_lords_of_cannabis_events_no_playout_reaches_narrate_too() -> None:
    # A random playout never defers (Placement: "he may defer his turn to the next player") nor ends a Tunnel
    # Building early (Progress Cards: "Build up to 2 Tunnels free of cost"): drive the rules to both here
    ruleset = EVERY_RULESET["lords_of_cannabis"]
    state = new_game(3)
    deferred, _ = play(state, state["current"], {"type": "Defer"})
    state = crops(greenhouse(table(3, phase="main"), 0, 29), 0, "tunnel_building")
    _, state = play(state, 0, {"type": "PlayTunnelBuilding"})
    ended, _ = play(state, 0, {"type": "EndTunnelBuilding"})
    events = [e for e in deferred + ended if e.type in ("Deferred", "TunnelBuildingEnded")]
    assert [e.type for e in events] == ["Deferred", "TunnelBuildingEnded"]
    for event in events:
        for reader in (None, 0, 1, 2):
            check_sentence(ruleset.narrate(redact(ruleset, event, reader), NAMES), 3, f"{event.type} for {reader}")
    assert "2 free Tunnels unused" in ruleset.narrate(events[1], NAMES)["text"]
