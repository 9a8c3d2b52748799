"""Contract of the event store, against a real redis-server (tests/conftest.py)."""
from __future__ import annotations

import threading

import pytest

from events.store import ConcurrencyConflict, DuplicateCommand, EventStore, PendingEvent
from rules.base import Event


def batch(*types: str, command: dict | None = None) -> list[PendingEvent]:
    return [PendingEvent(Event(t, {"n": i}), "seat:0", command if i == 0 else None) for i, t in enumerate(types)]


@pytest.fixture
def store(redis_client):
    return EventStore(redis_client)


def test_versions_are_contiguous_from_one(store):
    assert store.append("g1", 0, batch("A", "B"), at=1) == 2
    assert store.append("g1", 2, batch("C"), at=2) == 3
    assert [e.version for e in store.read("g1")] == [1, 2, 3]
    assert [e.type for e in store.read("g1")] == ["A", "B", "C"]


def test_stale_expected_version_is_a_conflict_and_appends_nothing(store):
    store.append("g1", 0, batch("A"), at=1)
    with pytest.raises(ConcurrencyConflict) as conflict:
        store.append("g1", 0, batch("B"), at=2)
    assert conflict.value.current_version == 1
    assert [e.type for e in store.read("g1")] == ["A"]


def test_idempotency_key_returns_the_original_record_and_appends_nothing(store):
    store.append("g1", 0, batch("A"), at=1, idempotency=("0:k1", {"first": 1, "last": 1}))
    with pytest.raises(DuplicateCommand) as duplicate:
        store.append("g1", 1, batch("B"), at=2, idempotency=("0:k1", {"first": 2, "last": 2}))
    assert duplicate.value.record == {"first": 1, "last": 1}
    assert store.version("g1") == 1


def test_envelope_round_trips_with_command_on_first_event(store):
    store.append("g1", 0, batch("A", "B", command={"type": "Do", "x": 1}), at=1234, command_id="c-1")
    first, second = store.read("g1")
    assert (first.actor, first.at, first.command_id, first.command) == ("seat:0", 1234, "c-1", {"type": "Do", "x": 1})
    assert second.command is None and second.data == {"n": 1}


def test_meta_fields_are_written_with_the_events(store):
    store.append("g1", 0, batch("A"), at=1, meta={"status": "active"})
    assert store.meta("g1") == {"version": "1", "status": "active"}


def test_read_pages_by_version(store):
    store.append("g1", 0, batch(*"ABCDEFG"), at=1)
    assert [e.version for e in store.read("g1", after=2, limit=3)] == [3, 4, 5]
    assert [e.version for e in store.read("g1", after=5)] == [6, 7]
    assert [e.version for e in store.read("g1", after=2, until=4)] == [3, 4]
    assert [e.version for e in store.read_all("g1", after=1, batch=2)] == [2, 3, 4, 5, 6, 7]


def test_every_key_of_a_game_shares_one_hash_tag(store, redis_client):
    # Redis Cluster needs every key a script touches in one slot.
    store.append("abc", 0, batch("A"), at=1, idempotency=("0:k", {}))
    store.save_snapshot("abc", 1, {"x": 1})
    keys = list(redis_client.scan_iter("g:*"))  # every node of a cluster (KEYS asks one)
    assert len(keys) == 4 and all("{abc}" in key for key in keys)


def test_script_cache_flush_never_surfaces_noscript(store, redis_client):
    # A restarted Redis forgets loaded scripts; EVALSHA must reload transparently.
    store.append("g1", 0, batch("A"), at=1)
    redis_client.script_flush()
    assert store.append("g1", 1, batch("B"), at=2) == 2


def test_snapshot_keeps_the_newest(store):
    assert store.save_snapshot("g1", 5, {"v": 5})
    assert not store.save_snapshot("g1", 3, {"v": 3})
    assert store.snapshot("g1") == (5, {"v": 5})


def test_concurrent_writers_lose_and_duplicate_nothing(store, redis_server):
    # 20 writers race for the same game; each retries on conflict until its event lands.
    landed, conflicts = [], []

    def writer(n: int) -> None:
        own = EventStore(redis_server.client())
        while True:
            version = own.version("race")
            try:
                landed.append(own.append("race", version, batch(f"W{n}"), at=n))
                return
            except ConcurrencyConflict as conflict:
                conflicts.append(conflict.current_version)

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    events = store.read("race")
    assert sorted(landed) == list(range(1, 21))
    assert sorted(e.type for e in events) == sorted(f"W{n}" for n in range(20))
    assert [e.version for e in events] == list(range(1, 21))

