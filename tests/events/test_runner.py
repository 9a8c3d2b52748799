"""The runner against a real Redis, with the engine test game (tests/support/race.py)."""
from __future__ import annotations

import json

import pytest

from events.clocks import NotInControl
from events.runner import GameRunner, IdempotencyMismatch, NotAwaited
from events.store import ConcurrencyConflict, EventStore
from rules.base import WORLD, BadCommand, IllegalMove, KeyedRng, fold, seed_commitment
from tests.support.race import RACE


@pytest.fixture
def runner(redis_client):
    return GameRunner(EventStore(redis_client), {"race": RACE}, snapshot_every=5)


def human_seats(n: int) -> list[dict]:
    return [{"kind": "human"}] * n


def test_creation_records_the_game_then_its_setup(runner):
    game = runner.create_game("race", human_seats(2), seed="s33d")
    events = runner.store.read(game.id)
    assert [e.type for e in events] == ["GameCreated", "RaceStarted", "SecretDealt", "SecretDealt"]
    assert events[0].data["seed_commitment"] == seed_commitment("s33d")
    assert "s33d" not in str([e.data for e in events])
    # setup is rolled on the world's streams (draw keys: rules/base.py KeyedRng), whatever its version
    assert events[0].data["draw_keys"] == "seat-counter" and events[0].data["seed_source"] == "fixed"
    assert [e.event for e in events[1:]] == RACE.setup({"goal": 10}, 2, KeyedRng("s33d", {}, WORLD))
    assert game.status == "active" and game.awaiting() == {0: "move"}


def test_a_game_with_an_open_seat_starts_when_it_is_claimed(runner):
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "open"}])
    assert game.status == "open" and game.state is None
    with pytest.raises(NotAwaited):
        runner.execute(game.id, 0, {"type": "Roll"})
    game = runner.claim_seat(game.id, 1, "hash")
    assert game.status == "active" and game.seats[1]["kind"] == "human"
    with pytest.raises(IllegalMove):
        runner.claim_seat(game.id, 1, "hash")


def test_seat_count_and_options_are_checked(runner):
    with pytest.raises(IllegalMove):
        runner.create_game("race", human_seats(5))
    # a well-formed option value the ruleset does not offer is refused like a seat count (HTTP 422), not as malformed
    with pytest.raises(IllegalMove) as refused:
        runner.create_game("race", human_seats(2), options={"goal": 7})
    assert not isinstance(refused.value, BadCommand) and refused.value.rule == "options"
    with pytest.raises(IllegalMove, match="clock.bot_level 'godlike'"):
        runner.create_game("race", human_seats(2), clock={"move_seconds": 5, "bot_level": "godlike"})


@pytest.mark.parametrize("seats, sender", [(human_seats(2), "bot"), ([{"kind": "bot"}, {"kind": "human"}], "clock")])
def test_a_move_its_sender_does_not_control_is_refused_live_as_the_verifier_refuses_it(runner, seats, sender):
    # A bot's move for a human's seat, a clock's for a bot's: a history with one does not verify
    # (events/history.py), and the runner now asks the same rule (events/clocks.py check_may_act).
    game = runner.create_game("race", seats)
    with pytest.raises(NotInControl, match="seat 0 is controlled by"):
        runner.execute(game.id, 0, {"type": "Roll"}, actor_kind=sender)
    assert runner.store.version(game.id) == game.version


def test_out_of_turn_command_appends_nothing(runner):
    game = runner.create_game("race", human_seats(2))
    with pytest.raises(NotAwaited, match="waiting for seat 0"):
        runner.execute(game.id, 1, {"type": "Roll"})
    assert runner.store.version(game.id) == game.version


def test_stale_expected_version_conflicts(runner):
    game = runner.create_game("race", human_seats(2))
    runner.execute(game.id, 0, {"type": "Pass"}, expected_version=game.version)
    with pytest.raises(ConcurrencyConflict) as conflict:
        runner.execute(game.id, 1, {"type": "Pass"}, expected_version=game.version)
    assert conflict.value.current_version == game.version + 1


def test_idempotency_key_replays_the_original_answer(runner):
    game = runner.create_game("race", human_seats(2))
    first = runner.execute(game.id, 0, {"type": "Roll"}, idempotency_key="k")
    again = runner.execute(game.id, 0, {"type": "Roll"}, idempotency_key="k")
    assert again.duplicate and [e.version for e in again.events] == [e.version for e in first.events]
    assert runner.store.version(game.id) == game.version + 1
    with pytest.raises(IdempotencyMismatch):
        runner.execute(game.id, 0, {"type": "Pass"}, idempotency_key="k")


def test_loading_from_snapshot_cache_or_scratch_gives_the_same_state(runner, redis_client):
    game = runner.create_game("race", human_seats(2), options={"goal": 1000}, seed="x")
    for _ in range(23):
        game = runner.load(game.id)
        seat = min(game.awaiting())
        runner.execute(game.id, seat, RACE.legal_moves(game.state, seat)[0])
    cached = runner.load(game.id)
    fresh = GameRunner(EventStore(redis_client), {"race": RACE}).load(game.id)
    from_scratch = fold(RACE, (e.event for e in runner.store.read(game.id) if not e.is_engine))
    assert cached.state == fresh.state == from_scratch
    assert runner.store.snapshot(game.id)[0] > 20


def test_time_travel_folds_up_to_the_version(runner):
    game = runner.create_game("race", human_seats(2), options={"goal": 1000})
    runner.execute(game.id, 0, {"type": "Roll"})
    past = runner.load(game.id, version=game.version)
    assert past.state == game.state and past.version == game.version


def test_redaction_hides_other_seats_secrets(runner):
    game = runner.create_game("race", human_seats(3))
    for seat in (0, 1, 2, None):
        dealt = [e for e in runner.events_for(game, seat) if e["type"] == "SecretDealt"]
        assert len(dealt) == 3
        assert [("secret" in e["data"]) for e in dealt] == [e["data"]["seat"] == seat for e in dealt]


def test_a_fresh_runner_loads_from_a_snapshot_past_the_first_page(redis_client):
    # Snapshot at 1,000+ and a tail after it: nothing before the snapshot is re-read or lost.
    runner = GameRunner(EventStore(redis_client), {"race": RACE}, snapshot_every=400)
    game = runner.create_game("race", human_seats(2), options={"goal": 1000}, seed="long")
    while game.version < 1100:
        seat = min(game.awaiting())
        game = runner.execute(game.id, seat, {"type": "Pass"} if seat == game.state["turn"] and
                              not game.state["pending_ack"] else RACE.legal_moves(game.state, seat)[0]).game
    fresh = GameRunner(EventStore(redis_client), {"race": RACE}).load(game.id)
    assert runner.store.snapshot(game.id)[0] >= 800
    assert fresh.version == game.version and fresh.state == game.state


def lose_events_after(redis_client, game_id: str, version: int) -> None:
    """What a failover to a replica that had not yet received them does (asynchronous
    replication), or a restore from backup: the stream ends at `version` again."""
    stream = f"g:{{{game_id}}}:events"
    for entry_id, _ in redis_client.xrange(stream, f"({version}-0", "+"):
        redis_client.xdel(stream, entry_id)
    redis_client.execute_command("XSETID", stream, f"{version}-0")  # as if they had never been added
    redis_client.hset(f"g:{{{game_id}}}:meta", "version", version)


def test_a_store_that_lost_its_last_writes_is_believed_over_the_cache(runner, redis_client):
    game = runner.create_game("race", human_seats(2), options={"goal": 1000})
    before = runner.execute(game.id, 0, {"type": "Pass"}).game
    runner.execute(game.id, 1, {"type": "Pass"})  # acknowledged, cached here, then lost
    lose_events_after(redis_client, game.id, before.version)
    reloaded = runner.load(game.id)
    assert (reloaded.version, reloaded.state) == (before.version, before.state)
    assert runner.execute(game.id, 1, {"type": "Pass"}, expected_version=before.version).game.version == \
        before.version + 1


def test_a_lost_version_written_again_by_another_process_replaces_the_cached_one(runner, redis_client):
    game = runner.create_game("race", human_seats(2), options={"goal": 1000})
    before = runner.execute(game.id, 0, {"type": "Pass"}).game
    lost = runner.execute(game.id, 1, {"type": "Pass"}).game
    lose_events_after(redis_client, game.id, before.version)
    other = GameRunner(EventStore(redis_client), {"race": RACE})  # another web node or worker
    rewritten = other.execute(game.id, 1, {"type": "Roll"}, expected_version=before.version).game
    assert rewritten.version == lost.version and rewritten.state != lost.state
    assert runner.load(game.id).state == rewritten.state  # the same version, but not the cached state


def test_a_stale_cached_copy_never_decides_a_command(redis_client):
    # Two web processes: each caches the games it served.  Whatever one of them cached,
    # the other's writes win and every command is decided against the stored game.
    first = GameRunner(EventStore(redis_client), {"race": RACE})
    second = GameRunner(EventStore(redis_client), {"race": RACE})
    game = first.create_game("race", human_seats(2), options={"goal": 1000})
    assert first.peek(game.id).version == game.version and second.load(game.id).version == game.version
    second.execute(game.id, 0, {"type": "Pass"})  # now it is seat 1's turn; `first` still thinks seat 0's
    assert first.peek(game.id).awaiting() == {0: "move"}
    result = first.execute(game.id, 1, {"type": "Pass"})  # refused by the stale copy, accepted by the stored game
    assert result.game.version == game.version + 2 and result.game.fresh
    with pytest.raises(NotAwaited):  # and a move the stored game refuses is refused
        second.execute(game.id, 1, {"type": "Pass"})
    assert second.peek(game.id).version == game.version + 2  # the refusal read the game afresh
    with pytest.raises(ConcurrencyConflict) as conflict:  # If-Match against a version both copies have left
        first.execute(game.id, 0, {"type": "Pass"}, expected_version=game.version + 1)
    assert conflict.value.current_version == game.version + 2
    assert [e.type for e in first.store.read(game.id, game.version)] == ["TurnPassed", "TurnPassed"]


def test_a_cached_state_is_the_state_another_process_folds_dict_order_included(redis_client):
    # Rules iterate dicts (Kingpin's card kinds), so bots and legal_moves order depend on it:
    # a warm worker and a cold one must hold byte-for-byte the same state.
    from rules import RULESETS
    warm = GameRunner(EventStore(redis_client), RULESETS)
    game = warm.create_game("kingpin", human_seats(3), seed="order")
    for _ in range(40):
        seat = min(game.awaiting())
        game = warm.execute(game.id, seat, game.ruleset.legal_moves(game.state, seat)[-1]).game
    cold = GameRunner(EventStore(redis_client), RULESETS).load(game.id)
    assert json.dumps(cold.state) == json.dumps(warm.peek(game.id).state)
    seat = min(cold.awaiting())
    assert cold.ruleset.legal_moves(cold.state, seat) == game.ruleset.legal_moves(game.state, seat)


def test_two_clocks_expiring_at_once_are_both_counted(redis_server, redis_client):
    # Druglord's empire choice awaits every seat at once, so every human's clock runs out together.
    # Two workers (two runners, two connections) expire two seats' clocks in the same instant:
    # each expiry is an append checked against the version, so neither count overwrites the other.
    import threading

    from rules import RULESETS

    clock = {"move_seconds": 30, "response_seconds": 30, "timeouts_before_bot": 3}
    first = GameRunner(EventStore(redis_client), RULESETS)
    game = first.create_game("druglord", human_seats(3), clock=clock)
    assert set(game.awaiting()) == {0, 1, 2}
    workers = [GameRunner(EventStore(redis_server.client()), RULESETS) for _ in range(2)]
    for worker in workers:
        worker.load(game.id)  # both hold the same version, as two workers woken by the same deadline do
    start = threading.Barrier(2)

    def expire(worker: GameRunner, seat: int) -> None:
        start.wait()
        worker.expire_clock(game.id, seat, 1000 + seat)

    threads = [threading.Thread(target=expire, args=(worker, seat)) for seat, worker in enumerate(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    after = first.load(game.id)
    assert after.timeouts == {0: 1, 1: 1}
    assert [e.type for e in first.store.read(game.id, game.version)] == ["ClockExpired", "ClockExpired"]
    assert json.loads(first.store.meta(game.id)["timeouts"]) == {"0": 1, "1": 1}  # the projection agrees


def test_every_step_after_the_append_is_best_effort_the_cache_included(redis_client):
    # The append is the one step that can fail a command; the cache, snapshot, lobby and scheduling
    # steps after it run through one guard (events/committer.py Committer._best_effort): each failure is reported by
    # its step's name, and the command answers with the events it stored.
    failed = []

    class Reporting(GameRunner):
        def after_append_failed(self, step, game_id, error):
            failed.append((step, type(error).__name__))

    def broken(*args, **kwargs):
        raise RuntimeError("after the append")

    runner = Reporting(EventStore(redis_client), {"race": RACE}, after_append=broken, snapshot_every=1)
    game = runner.create_game("race", human_seats(2), seed="steps")
    runner.repository.remember = runner.store.save_snapshot = broken
    failed.clear()
    result = runner.execute(game.id, 0, {"type": "Roll"})
    assert result.events and [e.version for e in result.events] == list(range(game.version + 1, result.game.version + 1))
    assert [e.type for e in runner.store.read(game.id, game.version)] == [e.type for e in result.events]
    assert failed == [("cache", "RuntimeError"), ("snapshot", "RuntimeError"), ("schedule", "RuntimeError")]
    del runner.repository.remember  # the cache works again: the game it did not keep is read from the store
    assert runner.load(game.id).version == result.game.version
