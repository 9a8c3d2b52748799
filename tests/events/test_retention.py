"""Retention (events/retention.py) against a real Redis, without HTTP: an idle game is abandoned
(an event in its history, its clocks stopped), an ended game is archived (its Redis keys gone, a
small lobby row left) and read back from the archive, and two sweepers at once change nothing twice."""
from __future__ import annotations

import threading

import pytest

from events import retention
from events.archive import DirectoryArchive, open_archive
from events.history import history_header, history_lines, parse_history, verify_history
from events.keys import ARCHIVED_INDEX, CLOCK_INDEX, ENDED_INDEX, IDLE_INDEX, meta_key, snapshot_key, stream_key
from events.runner import GameNotFound, GameRunner
from events.store import EventStore
from events.table import GameClosed
from tests.support.corpus import bare
from tests.support.race import RACE

RULESETS = {"race": RACE}
HOUR = 3600
POLICY = retention.Policy(abandon_after=HOUR, archive_after=HOUR)


class Clock:
    """The runner's clock, moved by the test (Redis is real; only the time is the test's)."""

    def __init__(self, now: int = 1_700_000_000_000):
        self.now = now

    def __call__(self) -> int:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += int(seconds * 1000)


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def archive(tmp_path):
    return DirectoryArchive(tmp_path / "archive")


@pytest.fixture
def runner(redis_client, clock, archive):
    return GameRunner(EventStore(redis_client), RULESETS, clock=clock, archive=archive, snapshot_every=5)


def play_to_the_end(runner: GameRunner, game):
    while game.status == "active":
        seat, kind = next(iter(game.awaiting().items()))
        game = runner.execute(game.id, seat, {"type": "Roll"} if kind == "move" else {"type": "Acknowledge"}).game
    return game


def exported(runner: GameRunner, game) -> str:
    return "".join(history_lines(history_header(game), runner.store.read_all(game.id), game.ruleset))  # as served


def test_a_game_no_human_plays_for_the_idle_time_is_abandoned_and_takes_no_more_commands(runner, clock, redis_client):
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "human"}], {"goal": 1000}, "idle",
                              {"move_seconds": 60})
    clock.advance(HOUR - 10)
    game = runner.execute(game.id, 0, {"type": "Pass"}).game  # a human's move: the hour starts again
    clock.advance(HOUR - 10)
    assert retention.sweep(runner, POLICY) == {"abandoned": 0, "archived": 0}
    # the clock's default move is no human's: it does not keep the game alive
    runner.execute(game.id, 1, {"type": "Pass"}, actor_kind="clock")
    clock.advance(20)
    assert retention.sweep(runner, POLICY) == {"abandoned": 1, "archived": 0}

    game = runner.load(game.id)
    last = list(runner.store.read_all(game.id))[-1]
    assert (last.type, last.actor, last.data) == ("GameAbandoned", "system",
                                                 {"idle_since": clock.now - (HOUR + 10) * 1000, "idle_seconds": HOUR})
    assert last.command == {"type": "AbandonGame", "idle_since": clock.now - (HOUR + 10) * 1000, "idle_seconds": HOUR}
    assert game.status == "abandoned" and game.awaiting() == {} and game.deadlines == {}
    assert game.outcome() == {"winners": [], "reason": "abandoned", "idle_seconds": HOUR}
    assert runner.store.list_games("abandoned", None, 0, 10) == ([game.id], 1)
    assert runner.store.list_games("active", None, 0, 10) == ([], 0)
    assert redis_client.zscore(IDLE_INDEX, game.id) is None and redis_client.zscore(ENDED_INDEX, game.id) == clock.now
    with pytest.raises(GameClosed, match="abandoned") as refused:
        runner.execute(game.id, 0, {"type": "Roll"})
    assert refused.value.kind == "game-abandoned"
    with pytest.raises(GameClosed):
        runner.expire_clock(game.id, 0, 123)
    assert retention.sweep(runner, POLICY) == {"abandoned": 0, "archived": 0}  # once, and not archived yet


def test_an_open_game_nobody_joins_is_abandoned_too(runner, clock):
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "open"}], {"goal": 10}, "lobby")
    clock.advance(HOUR)
    assert retention.sweep(runner, POLICY)["abandoned"] == 1
    assert runner.load(game.id).status == "abandoned"
    with pytest.raises(GameClosed):
        runner.claim_seat(game.id, 1, "token-hash")


def test_a_human_command_after_the_idle_check_wins_over_the_abandonment(runner, clock):
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "human"}], {"goal": 1000}, "race")
    clock.advance(HOUR)
    idle = runner.load(game.id)  # found idle ...
    runner.execute(game.id, 0, {"type": "Pass"})  # ... but the human moves before the sweeper appends
    from events.store import ConcurrencyConflict
    with pytest.raises(ConcurrencyConflict):
        runner.abandon(idle, idle.last_human_at(), HOUR)
    assert retention.sweep(runner, POLICY)["abandoned"] == 0 and runner.load(game.id).status == "active"


def test_an_ended_game_is_archived_and_served_from_the_archive(runner, clock, redis_client, archive):
    game = play_to_the_end(runner, runner.create_game("race", [{"kind": "human"}, {"kind": "human"}], {"goal": 30},
                                                      "archive me"))
    assert game.status == "finished" and redis_client.exists(snapshot_key(game.id))
    before_text, before_bytes = exported(runner, game), runner.store.game_keys_bytes(game.id)
    states = {v: runner.load(game.id, version=v).state for v in (0, 3, game.version // 2, game.version)}
    clock.advance(HOUR - 1)
    assert retention.sweep(runner, POLICY)["archived"] == 0  # not an hour yet
    clock.advance(1)
    assert retention.sweep(runner, POLICY) == {"abandoned": 0, "archived": 1}

    # Redis keeps the lobby row only; the archive holds the history byte for byte
    assert not redis_client.exists(stream_key(game.id), meta_key(game.id), snapshot_key(game.id))
    assert archive.get(game.id) == before_text and archive.exists(game.id)
    for index in (IDLE_INDEX, ENDED_INDEX, CLOCK_INDEX):
        assert redis_client.zscore(index, game.id) is None
    row_bytes = int(redis_client.memory_usage(ARCHIVED_INDEX, samples=0))
    print(f"\ngame keys before archiving: {before_bytes} B ({game.version} events); archived row index: {row_bytes} B")
    assert row_bytes < 1024 < before_bytes

    # the lobby still lists it, from the row
    ids, total = runner.store.list_games("finished", None, 0, 10)
    [row] = runner.store.metas(ids)
    assert ids == [game.id] and row["status"] == "finished" and int(row["version"]) == game.version

    # reads: the archived game folds to the same state, at every version
    fresh = GameRunner(EventStore(redis_client), RULESETS, archive=archive)  # a process that never saw it
    loaded = fresh.load(game.id)
    assert loaded.archived and loaded.status == "finished" and loaded.version == game.version
    assert loaded.state == game.state and loaded.outcome() == game.outcome() and loaded.seed == "archive me"
    for version, state in states.items():
        assert fresh.load(game.id, version=version).state == state
    assert [e.version for e in fresh.envelopes(loaded, after=3, limit=2)] == [4, 5]
    assert verify_history(parse_history(loaded.archived_text), RULESETS)["valid"]
    with pytest.raises(GameClosed, match="archived") as refused:
        fresh.execute(game.id, 0, {"type": "Roll"})
    assert refused.value.kind == "game-archived"
    # the runner that archived it forgot its cached copy too
    assert runner.load(game.id).archived
    with pytest.raises(GameNotFound):
        fresh.load("0123456789abcdef")


def test_an_abandoned_game_is_archived_and_its_history_verifies_with_the_abandonment(runner, clock):
    game = runner.create_game("race", [{"kind": "human"}, {"kind": "bot"}], {"goal": 1000}, "walked away",
                              {"move_seconds": 30})
    game = runner.execute(game.id, 0, {"type": "Roll"}).game
    clock.advance(HOUR)
    assert retention.sweep(runner, POLICY)["abandoned"] == 1
    clock.advance(HOUR)
    assert retention.sweep(runner, POLICY)["archived"] == 1
    records = parse_history(runner.archive.get(game.id))
    assert records[-1]["type"] == "GameAbandoned"
    assert records[0]["outcome"] == {"winners": [], "reason": "abandoned", "idle_seconds": HOUR}
    verdict = verify_history(records, RULESETS)
    assert verdict["valid"], verdict
    assert bare(verdict["outcome"]) == records[0]["outcome"]

    # a move smuggled in after the abandonment does not verify
    forged = [dict(r) for r in records] + [{"game_id": game.id, "version": len(records), "type": "TurnPassed",
                                            "data": {"seat": 0}, "actor": "seat:0", "at": 0,
                                            "command": {"type": "Pass"}}]
    verdict = verify_history(forged, RULESETS)
    assert not verdict["valid"] and verdict["diverged_at"] == len(records) and "abandoned" in verdict["reason"]
    # nor does an abandonment of a game that had finished: the table refuses it
    finished = play_to_the_end(runner, runner.create_game("race", [{"kind": "human"}] * 2, {"goal": 5}, "done"))
    records = parse_history(exported(runner, finished))
    records.append({"game_id": finished.id, "version": len(records), "type": "GameAbandoned",
                    "data": {"idle_since": 0, "idle_seconds": 1}, "actor": "system", "at": 0, "command": {"type": "AbandonGame", "idle_since": 0, "idle_seconds": 1}})
    verdict = verify_history(records, RULESETS)
    assert not verdict["valid"] and "cannot be abandoned" in verdict["reason"]


def test_two_sweepers_at_once_abandon_and_archive_every_game_exactly_once(redis_server, redis_client, clock, archive):
    runners = [GameRunner(EventStore(redis_server.client()), RULESETS, clock=clock, archive=archive)
               for _ in range(2)]
    ids = [runners[0].create_game("race", [{"kind": "human"}] * 2, {"goal": 1000}, f"g{n}").id for n in range(12)]
    clock.advance(HOUR)
    barrier, outcomes = threading.Barrier(2), [[], []]

    def sweeper(n: int, step: str) -> None:
        barrier.wait()
        for game_id in ids:
            do = retention.abandon_if_idle if step == "abandon" else retention.archive_game
            outcomes[n].append(do(runners[n], game_id, HOUR) if step == "abandon" else do(runners[n], game_id))

    for step in ("abandon", "archive"):
        outcomes = [[], []]
        threads = [threading.Thread(target=sweeper, args=(n, step)) for n in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        done = [o for pair in zip(*outcomes) for o in pair]
        assert done.count("abandoned" if step == "abandon" else "archived") == len(ids), done
    for game_id in ids:
        records = parse_history(archive.get(game_id))
        assert [r["type"] for r in records[1:]].count("GameAbandoned") == 1
        assert verify_history(records, RULESETS)["valid"]
        assert not redis_client.exists(stream_key(game_id), meta_key(game_id))
    assert redis_client.hlen(ARCHIVED_INDEX) == len(ids)


def test_games_from_before_retention_join_its_indexes_once_and_their_last_human_move_counts(runner, clock,
                                                                                           redis_client):
    old = runner.create_game("race", [{"kind": "human"}, {"kind": "human"}], {"goal": 1000}, "old")
    clock.advance(HOUR / 2)
    runner.execute(old.id, 0, {"type": "Pass"})
    runner.execute(old.id, 1, {"type": "Pass"}, actor_kind="clock")
    # as recorded before this release: no human_at, no retention index
    redis_client.hdel(meta_key(old.id), "human_at")
    redis_client.delete(IDLE_INDEX, ENDED_INDEX)
    assert runner.store.work.backfill_retention() and not runner.store.work.backfill_retention()
    assert redis_client.zscore(IDLE_INDEX, old.id) is not None
    clock.advance(HOUR / 2 + 1)  # an hour since its creation, not since the human's move
    assert retention.sweep(runner, POLICY)["abandoned"] == 0
    assert redis_client.hget(meta_key(old.id), "human_at") == str(clock.now - HOUR // 2 * 1000 - 1000)
    clock.advance(HOUR / 2)
    assert retention.sweep(runner, POLICY)["abandoned"] == 1


def test_the_directory_archive_keeps_what_it_is_given_and_refuses_paths(tmp_path):
    store = open_archive(None, tmp_path / "a")
    assert store.get("abc") is None and not store.exists("abc")
    store.put("abc", "line\n")
    store.put("abc", "line\n")  # a second writer: the same bytes
    assert store.get("abc") == "line\n" and store.exists("abc")
    assert [p.name for p in (tmp_path / "a").rglob("*")] == ["ab", "abc.jsonl"]  # no temporary file left
    for bad in ("../etc", "a/b", ""):
        assert store.get(bad) is None and not store.exists(bad)
        with pytest.raises(ValueError):
            store.put(bad, "x")
    assert open_archive(f"file://{tmp_path}/b", None).root == tmp_path / "b"
    with pytest.raises(ValueError, match="ARCHIVE_URL"):
        open_archive("ftp://somewhere", None)
