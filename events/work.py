"""The workers' indexes: which games have a bot to move or a clock to watch, which sit idle
and which ended (retention: events/retention.py).

Written after every append that changes them (service.scheduling.Scheduler)
and read by the sweeper, which re-enqueues what a killed worker dropped.  They
live beside the events (not on the queue Redis), so a queue outage loses
nothing the sweeper needs.  Keys: events/keys.py.
"""
from __future__ import annotations

import json
from typing import Any

from events.keys import (
    BOT_STUCK_INDEX,
    BOT_WAIT_INDEX,
    CLOCK_FAILURES_INDEX,
    CLOCK_INDEX,
    ENDED_INDEX,
    IDLE_INDEX,
    RETENTION_BACKFILLED,
    UNSETTLED_INDEX,
    lobby_index,
)

_SETTLE = """
if tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1])) == tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
"""


class WorkIndexes:
    def __init__(self, client: Any):
        self.redis = client

    def update(self, game_id: str, bots_waiting_since: int | None, earliest_deadline: int | None) -> None:
        """Record whether a bot is awaited (since when) and the game's earliest human deadline."""
        pipe = self.redis.pipeline(transaction=False)  # every key here shares the {lobby} slot
        if bots_waiting_since is not None:
            pipe.zadd(BOT_WAIT_INDEX, {game_id: bots_waiting_since})
        else:
            pipe.zrem(BOT_WAIT_INDEX, game_id)
            pipe.hdel(BOT_STUCK_INDEX, game_id)
        if earliest_deadline is not None:
            pipe.zadd(CLOCK_INDEX, {game_id: earliest_deadline})
        else:
            pipe.zrem(CLOCK_INDEX, game_id)
            pipe.hdel(CLOCK_FAILURES_INDEX, game_id)
        pipe.execute()

    # An append and the update of these indexes after it are two steps: a process killed between
    # them (or a Redis killed under them) left a game awaiting a bot that no index named, for good
    # (three games in the 60-minute soak).  So every append to a game with bots or a clock is preceded
    # by a mark here; the sweeper checks each game marked and quiet for a while against its indexes
    # (the Scheduler again), then drops the mark unless a newer append renewed it.
    def unsettled(self, game_id: str, at_ms: int) -> None:
        """An append to `game_id` is about to be made at `at_ms`."""
        self.redis.zadd(UNSETTLED_INDEX, {game_id: at_ms})

    def unsettled_before(self, before_ms: int, limit: int = 100) -> list[tuple[str, int]]:
        """Games marked before `before_ms` (with their mark), the oldest first."""
        marked = self.redis.zrangebyscore(UNSETTLED_INDEX, 0, before_ms, start=0, num=limit, withscores=True)
        return [(game_id, int(at)) for game_id, at in marked]

    def settled(self, game_id: str, at_ms: int) -> None:
        """The sweeper checked the game as of its mark `at_ms`: drop the mark, unless renewed since."""
        self.redis.eval(_SETTLE, 1, UNSETTLED_INDEX, game_id, at_ms)

    def stalled_bots(self, before_ms: int) -> list[str]:
        """Games whose bot has been awaited since before `before_ms`."""
        return list(self.redis.zrangebyscore(BOT_WAIT_INDEX, 0, before_ms))

    def stalled_clocks(self, before_ms: int) -> list[str]:
        """Games with a human deadline before `before_ms` still pending."""
        return list(self.redis.zrangebyscore(CLOCK_INDEX, 0, before_ms))

    def nudged(self, game_id: str, now_ms: int) -> None:
        """The sweeper re-enqueued this game's work now: look again only after another stall."""
        pipe = self.redis.pipeline(transaction=False)
        pipe.zadd(BOT_WAIT_INDEX, {game_id: now_ms}, xx=True)
        pipe.zadd(CLOCK_INDEX, {game_id: now_ms}, xx=True)
        pipe.execute()

    def mark_stuck(self, game_id: str, version: int, seats: set[int]) -> None:
        """Bot seats whose move failed for good at `version` (not re-enqueued until the game moves on)."""
        self.redis.hset(BOT_STUCK_INDEX, game_id, json.dumps({"version": version, "seats": sorted(seats)}))

    def stuck_seats(self, game_id: str, version: int) -> set[int]:
        """The seats marked stuck at this version; a record of an older version is dropped."""
        record = self.redis.hget(BOT_STUCK_INDEX, game_id)
        if not record:
            return set()
        record = json.loads(record)
        if record["version"] != version:
            self.redis.hdel(BOT_STUCK_INDEX, game_id)
            return set()
        return set(record["seats"])

    def clock_failed(self, game_id: str, seat: int, deadline: int) -> int:
        """One more failed attempt at `seat`'s clock for `deadline`: how many so far (a record of another
        deadline starts again).  Read, then written: two workers failing the same clock at the same
        moment may count once, which only allows one more attempt."""
        record = self._clock_failures(game_id)
        recorded_deadline, failures = record.get(str(seat), (None, 0))
        failures = failures + 1 if recorded_deadline == deadline else 1
        record[str(seat)] = [deadline, failures]
        self.redis.hset(CLOCK_FAILURES_INDEX, game_id, json.dumps(record))
        return failures

    def clock_failures(self, game_id: str, deadlines: dict[int, int]) -> dict[int, int]:
        """Failed attempts per seat at its current deadline (`deadlines`); records of past deadlines
        are dropped."""
        record = self._clock_failures(game_id)
        current = {seat: entry for seat, entry in record.items() if deadlines.get(int(seat)) == entry[0]}
        if current != record:
            if current:
                self.redis.hset(CLOCK_FAILURES_INDEX, game_id, json.dumps(current))
            else:
                self.redis.hdel(CLOCK_FAILURES_INDEX, game_id)
        return {int(seat): failures for seat, (_, failures) in current.items()}

    def _clock_failures(self, game_id: str) -> dict[str, list[int]]:
        record = self.redis.hget(CLOCK_FAILURES_INDEX, game_id)
        return json.loads(record) if record else {}

    # ---------------------------------------------------------------- retention
    def idle_games(self, before_ms: int, limit: int) -> list[str]:
        """Open or active games whose humans were last seen acting before `before_ms` (candidates:
        the sweeper checks each game's own record before abandoning it)."""
        return list(self.redis.zrangebyscore(IDLE_INDEX, 0, before_ms, start=0, num=limit))

    def seen_human(self, game_id: str, at_ms: int) -> None:
        """A human acted at `at_ms` (the sweeper found a newer time than the index had): look again later."""
        self.redis.zadd(IDLE_INDEX, {game_id: at_ms}, xx=True)

    def ended_games(self, before_ms: int, limit: int) -> list[str]:
        """Games that ended (finished or abandoned) before `before_ms` and are not archived yet."""
        return list(self.redis.zrangebyscore(ENDED_INDEX, 0, before_ms, start=0, num=limit))

    def forget(self, game_id: str) -> None:
        """The game left Redis (archived) or is not what an index said: no work to look for any more."""
        pipe = self.redis.pipeline(transaction=False)
        for index in (IDLE_INDEX, ENDED_INDEX, BOT_WAIT_INDEX, CLOCK_INDEX, UNSETTLED_INDEX):
            pipe.zrem(index, game_id)
        pipe.hdel(BOT_STUCK_INDEX, game_id)
        pipe.hdel(CLOCK_FAILURES_INDEX, game_id)
        pipe.execute()

    def forget_idle(self, game_id: str) -> None:
        """The game is no longer open or active: not a candidate for abandonment."""
        self.redis.zrem(IDLE_INDEX, game_id)

    def forget_ended(self, game_id: str) -> None:
        """The game has not ended (a stale entry): not a candidate for archiving."""
        self.redis.zrem(ENDED_INDEX, game_id)

    def backfill_retention(self) -> bool:
        """Once per deployment: put the games recorded before retention existed in its indexes (by their
        creation time, from the lobby's; the sweeper then reads when a human last acted).  True if it ran."""
        if not self.redis.set(RETENTION_BACKFILLED, "1", nx=True):
            return False
        self.redis.zunionstore(IDLE_INDEX, [IDLE_INDEX, lobby_index("open"), lobby_index("active")], aggregate="MAX")
        self.redis.zunionstore(ENDED_INDEX, [ENDED_INDEX, lobby_index("finished"), lobby_index("abandoned")],
                               aggregate="MAX")
        return True
