"""A command's rate limits ride on its append (service/ratelimit.py, events/scripts/append_with_toll.lua):
one Redis round trip for a legal command on a game the process holds, the same limits, headers and 429s
as a request that takes its limits first, and every request counted once whatever it ends in."""
from __future__ import annotations

import os
import threading

import pytest

from events.limits import Limit, Toll
from events.store import EventStore, PendingEvent
from rules import RULESETS
from rules.base import Event, Rng
from service import create_app
from service.auth import hash_token
from tests.service.conftest import bearer
from tests.support.processes import RedisServer
from tests.support.race import RACE
from tests.support.settings import TEST_SETTINGS


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory):
    """A redis-server of this module's own (it overrides the session's): these tests count the commands
    Redis ran, and other tests' lingering background threads on the shared server would add to them."""
    server = RedisServer(tmp_path_factory.mktemp("appends-redis"))
    server.start()
    yield server
    server.stop()


# 6 a minute per seat token with 30 s of burst: 3 requests at once, then one every 10 s
PER_TOKEN = {"RATE_LIMIT_PER_ADDRESS": 0, "RATE_LIMIT_PER_TOKEN": 6, "RATE_LIMIT_BURST_SECONDS": 30}


def limited_app(redis_server, **limits):
    return create_app({**TEST_SETTINGS, "REDIS_URL": redis_server.url, "RULESETS": {**RULESETS, "race": RACE}, **limits})


def new_race(client) -> tuple[str, str, str]:
    """A two-seat race: (game id, the token of the seat to move, the other's)."""
    created = client.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 2, "seed": "x"}).json
    tokens = [seat["token"] for seat in created["seats"]]
    return created["id"], tokens[0], tokens[1]


def round_trips(redis_server, redis_client, action) -> list[str]:
    """The commands `action` sends Redis (not those its scripts run), as MONITOR sees them."""
    with redis_server.client().monitor() as monitor:
        action()
        redis_client.echo("end of action")
        seen = []
        for command in monitor.listen():
            if command["command"] == "ECHO end of action":
                return seen
            if command["client_type"] != "lua":
                seen.append(command["command"])


def test_a_command_costs_one_round_trip_with_both_limits_on(redis_server, redis_client):
    client = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=600, RATE_LIMIT_PER_TOKEN=600).test_client()
    game, first, second = new_race(client)
    url = f"/v1/games/{game}/commands"
    assert client.post(url, json={"type": "Pass"}, headers=bearer(first)).status_code == 200  # the game is cached now
    answers = []
    sent = round_trips(redis_server, redis_client,
                       lambda: answers.append(client.post(url, json={"type": "Pass"}, headers=bearer(second))))
    assert answers[0].status_code == 200 and len(sent) == 1
    _, _, n_keys, *rest = sent[0].split()
    assert sent[0].startswith("EVALSHA") and rest[:int(n_keys)] == [
        "rl:{ratelimit}:addr:127.0.0.1", f"rl:{{ratelimit}}:tok:{hash_token(second)[:32]}",
        f"g:{{{game}}}:events", f"g:{{{game}}}:meta", f"g:{{{game}}}:idem:-"]
    assert answers[0].headers["RateLimit-Limit"] == "100" and int(answers[0].headers["RateLimit-Remaining"]) >= 90


def test_over_its_limit_a_command_gets_429_and_appends_nothing(redis_server, redis_client):
    client = limited_app(redis_server, **PER_TOKEN).test_client()
    game, first, second = new_race(client)
    url = f"/v1/games/{game}/commands"
    for _ in range(3):  # the burst: three turns each
        assert client.post(url, json={"type": "Pass"}, headers=bearer(first)).status_code == 200
        assert client.post(url, json={"type": "Pass"}, headers=bearer(second)).status_code == 200
    version = client.get(f"/v1/games/{game}").json["version"]
    refused = client.post(url, json={"type": "Pass"}, headers=bearer(first))
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    assert "requests a minute from this token" in refused.json["detail"]
    assert 1 <= int(refused.headers["Retry-After"]) <= 10  # about one interval
    assert refused.headers["RateLimit-Limit"] == "3" and refused.headers["RateLimit-Remaining"] == "0"
    assert client.get(f"/v1/games/{game}").json["version"] == version
    assert len(redis_client.xrange(f"g:{{{game}}}:events")) == version


def test_a_command_that_appends_nothing_is_counted_and_limited_too(redis_server, redis_client):
    client = limited_app(redis_server, **PER_TOKEN).test_client()
    game, first, second = new_race(client)
    url = f"/v1/games/{game}/commands"
    # Race 1: only the seat whose turn it is may roll; the other's roll is illegal, and still counted
    illegal = client.post(url, json={"type": "Roll"}, headers=bearer(second))
    assert illegal.status_code == 422 and illegal.headers["RateLimit-Remaining"] == "2"
    malformed = client.post(url, json={"kind": "Roll"}, headers=bearer(second))  # no "type": refused by the schema
    assert malformed.status_code == 400 and malformed.headers["RateLimit-Remaining"] == "1"
    stale = client.post(url, json={"type": "Pass"}, headers={**bearer(second), "If-Match": '"1"'})
    assert stale.status_code == 409 and stale.headers["RateLimit-Remaining"] == "0"
    # over the limit, what the request would have got gives way to 429
    assert client.post(url, json={"type": "Roll"}, headers=bearer(second)).status_code == 429
    assert client.post(url, json={"kind": "Roll"}, headers=bearer(second)).status_code == 429
    assert client.post(url, json={"type": "Pass"}, headers=bearer(first)).status_code == 200  # another token's budget


def test_a_command_retried_after_a_conflict_is_counted_once(redis_server, redis_client):
    # Two processes.  The first holds a copy of a three-seat race in which seat 0 rolled a 6, so seats
    # 1 and 2 must acknowledge (race: "a roll of 6 opens a response window").  Seat 1 acknowledges
    # through the second process; seat 2's acknowledgement, decided on the first's stale copy, conflicts
    # in the append (which took its limits), is decided again and appended without taking them again.
    seed = next(f"six-{n}" for n in range(1000) if Rng(f"six-{n}", "0/pick/0").randint(1, 6) == 6)  # seat 0 rolls 6
    holder = limited_app(redis_server, **PER_TOKEN).test_client()
    other = limited_app(redis_server, RATE_LIMIT_PER_ADDRESS=0, RATE_LIMIT_PER_TOKEN=0).test_client()
    created = holder.post("/v1/games", json={"ruleset": "race", "seats": [{"kind": "human"}] * 3, "seed": seed}).json
    game, tokens = created["id"], [seat["token"] for seat in created["seats"]]
    url = f"/v1/games/{game}/commands"
    rolled = holder.post(url, json={"type": "Roll"}, headers=bearer(tokens[0]))
    assert rolled.json["events"][0]["data"]["die"] == 6 and rolled.json["version"] == 6
    assert other.post(url, json={"type": "Acknowledge"}, headers=bearer(tokens[1])).json["version"] == 7
    conflicts = redis_client.info("commandstats").get("cmdstat_evalsha", {}).get("calls", 0)
    answer = holder.post(url, json={"type": "Acknowledge"}, headers=bearer(tokens[2]))
    assert answer.status_code == 200 and answer.json["version"] == 8
    calls = redis_client.info("commandstats")["cmdstat_evalsha"]["calls"] - conflicts
    assert calls == 2  # the append that conflicted (with the limits) and the one that did not
    assert answer.headers["RateLimit-Remaining"] == "2"  # one request taken from seat 2's burst of 3


def test_an_idempotent_retry_is_a_request_like_any_other(redis_server, redis_client):
    client = limited_app(redis_server, **PER_TOKEN).test_client()
    game, first, _ = new_race(client)
    url, key = f"/v1/games/{game}/commands", {"Idempotency-Key": "once"}
    sent = client.post(url, json={"type": "Pass"}, headers={**bearer(first), **key})
    again = client.post(url, json={"type": "Pass"}, headers={**bearer(first), **key})
    assert sent.status_code == again.status_code == 200 and again.json["duplicate"] is True
    assert [sent.headers["RateLimit-Remaining"], again.headers["RateLimit-Remaining"]] == ["2", "1"]


def test_an_append_with_its_toll_stores_what_a_plain_append_stores(redis_server, redis_client):
    # the toll's script takes the append's arguments as one JSON array: every string must come
    # back byte for byte (quotes, backslashes, control characters, NUL, astral characters)
    store = EventStore(redis_client)
    odd = {"text": 'q"b\\s/\n\t\x00\x01 é 漢 🂡', "n": 10 ** 15, "x": [1.5, None, True]}
    command = {"type": "Note", "text": odd["text"]}
    events = [PendingEvent(Event("Noted", odd), "seat:0", command), PendingEvent(Event("Noted", {}), "seat:0")]
    meta = {"note": odd["text"], "deadlines": "{}"}
    store.append("plain", 0, events, at=1, command_id="c", meta=meta, idempotency=("0:k", {"first": 1}))
    toll = Toll([Limit("token", "t", 600, 10)])
    version = store.append_with_toll(toll, "tolled", 0, events, at=1, command_id="c", meta=meta,
                                     idempotency=("0:k", {"first": 1}))
    assert version == 2 and toll.taken and not toll.refused and toll.verdicts[0].remaining == 9
    assert [fields for _, fields in redis_client.xrange("g:{plain}:events")] == \
        [fields for _, fields in redis_client.xrange("g:{tolled}:events")]
    assert redis_client.hgetall("g:{plain}:meta") == redis_client.hgetall("g:{tolled}:meta")
    assert store.idempotency_record("tolled", "0:k") == {"first": 1}
    assert [e.data for e in store.read("tolled")] == [odd, {}]


def test_the_tolled_append_survives_a_forgotten_script_and_a_dropped_connection(redis_server, redis_client):
    # EventStore.append_with_toll runs on a connection of its thread's own (events/store.py
    # ThreadConnection): a restarted Redis forgets its scripts, and a killed connection is reopened.
    store = EventStore(redis_client)
    one = [PendingEvent(Event("Noted", {}), "seat:0", {"type": "Note"})]
    toll = Toll([Limit("token", "survivor", 600, 10)])
    assert store.append_with_toll(toll, "survivor", 0, one, at=1, command_id="a") == 1
    redis_client.script_flush()
    assert store.append_with_toll(toll, "survivor", 1, one, at=2, command_id="b") == 2
    own = next(c for c in redis_client.client_list() if c["cmd"] == "evalsha")
    redis_client.client_kill_filter(_id=own["id"])
    assert store.append_with_toll(toll, "survivor", 2, one, at=3, command_id="c") == 3
    assert toll.verdicts[0].remaining == 7 and [e.version for e in store.read("survivor")] == [1, 2, 3]


def test_each_thread_sends_its_tolled_appends_on_a_connection_of_its_own(redis_server, redis_client):
    store = EventStore(redis_client)
    one = [PendingEvent(Event("Noted", {}), "seat:0", {"type": "Note"})]
    appended, counted = threading.Barrier(5), threading.Barrier(5)

    def append(game: str) -> None:
        for version in range(3):
            store.append_with_toll(Toll([Limit("token", game, 600, 10)]), game, version, one, at=1, command_id="x")
        appended.wait()
        counted.wait()  # keep the thread (and its connection) until the main thread has counted

    def tolling_connections() -> set[str]:
        return {c["id"] for c in redis_client.client_list() if c["cmd"] == "evalsha"}

    before = tolling_connections()
    threads = [threading.Thread(target=append, args=(f"t{n}",)) for n in range(4)]
    for thread in threads:
        thread.start()
    appended.wait()
    during = tolling_connections()
    counted.wait()
    for thread in threads:
        thread.join()
    assert len(during - before) == 4
    assert [store.version(f"t{n}") for n in range(4)] == [3, 3, 3, 3]


def test_a_forked_process_sends_its_tolled_appends_on_a_connection_of_its_own(redis_server, redis_client):
    # a connection opened before a fork is the parent's: sharing its socket would mix the replies
    store = EventStore(redis_client)
    one = [PendingEvent(Event("Noted", {}), "seat:0", {"type": "Note"})]
    store.append_with_toll(Toll([Limit("token", "forked", 600, 10)]), "forked", 0, one, at=1, command_id="a")
    before = {c["id"] for c in redis_client.client_list() if c["cmd"] == "evalsha"}
    child = os.fork()
    if child == 0:  # the child appends, and says by its exit code whether a new connection sent it
        try:
            store.append_with_toll(Toll([Limit("token", "forked", 600, 10)]), "forked", 1, one, at=2, command_id="b")
            mine = {c["id"] for c in redis_client.client_list() if c["cmd"] == "evalsha"} - before
            os._exit(0 if mine else 3)
        finally:
            os._exit(4)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert store.append_with_toll(Toll([Limit("token", "forked", 600, 10)]), "forked", 2, one, at=3,
                                  command_id="c") == 3
