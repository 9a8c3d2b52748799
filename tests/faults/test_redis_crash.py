"""Redis killed with SIGKILL in the middle of a command load, then restarted from its AOF."""
from __future__ import annotations

import threading
import time
import uuid

import pytest
import requests

from tests.support.processes import Gunicorn, Worker, wait_until

PLUGIN = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE"}


# What an acknowledged command may lose to a SIGKILL of Redis, by appendfsync (docs/configuration.md:
# Durability).  always: nothing, a reply waits for the fsync.  everysec: Redis write()s the AOF before it
# replies, except while the background fsync of the last second is still running: then it postpones
# the write for up to 2 s and replies anyway (flushAppendOnlyFile in Redis's aof.c), so a kill loses
# what it acknowledged in those seconds.  A full CI run on this 2-core machine once lost one that way.
LOSABLE_SECONDS = {"always": 0.0, "everysec": 3.0}  # 2 s of postponed writes, and 1 s for the kill to land


@pytest.mark.parametrize("crashable_redis", [
    "always",  # a 2xx is only sent after the AOF is fsynced: survives even a power cut
    pytest.param("everysec", marks=pytest.mark.slow),
], indirect=True)
def test_every_acknowledged_command_survives_a_redis_crash_exactly_once(crashable_redis, tmp_path):
    web = Gunicorn(crashable_redis.url, tmp_path / "gunicorn.log", extra_env=PLUGIN)
    web.start()
    try:
        games = []
        for _ in range(4):
            created = requests.post(web.url + "/v1/games", json={"ruleset": "race", "options": {"goal": 1000},
                                                                "seats": [{"kind": "human"}] * 2}).json()
            games.append((created["id"], [s["token"] for s in created["seats"]]))
        acknowledged, statuses, stop = [], [], threading.Event()

        def player(game_id: str, tokens: list[str]) -> None:
            session = requests.Session()
            seat = 0
            while not stop.is_set():
                key = uuid.uuid4().hex
                for _attempt in range(50):  # retry the same command with the same key until answered
                    try:
                        response = session.post(f"{web.url}/v1/games/{game_id}/commands", json={"type": "Pass"},
                                                headers={"Authorization": f"Bearer {tokens[seat]}",
                                                         "Idempotency-Key": key}, timeout=5)
                    except requests.RequestException:
                        time.sleep(0.1)
                        continue
                    statuses.append(response.status_code)
                    if response.status_code == 200:
                        acknowledged.append((game_id, response.json()["events"], time.monotonic()))
                        seat = 1 - seat
                        break
                    assert response.status_code == 503, response.text  # never a 500
                    time.sleep(0.1)

        threads = [threading.Thread(target=player, args=game) for game in games]
        for t in threads:
            t.start()
        wait_until(lambda: len(acknowledged) > 100, timeout=30, what="some load")
        losable = LOSABLE_SECONDS[crashable_redis.appendfsync]
        time.sleep(losable + 1)  # so that what must survive the kill is more than nothing
        killed_at = time.monotonic()
        crashable_redis.kill()
        time.sleep(1.0)
        crashable_redis.start()  # same port, same directory: it replays its AOF
        before = len(acknowledged)
        wait_until(lambda: len(acknowledged) > before + 100, timeout=30, what="load after the restart")
        stop.set()
        for t in threads:
            t.join()
        assert 503 in statuses, "the crash window should have refused some commands"
        client = crashable_redis.client()
        checked = 0
        for game_id, _ in games:
            stored = client.xrange(f"g:{{{game_id}}}:events")
            versions = [int(entry_id.split("-")[0]) for entry_id, _ in stored]
            assert versions == list(range(1, len(versions) + 1))
            by_version = {int(entry_id.split("-")[0]): fields for entry_id, fields in stored}
            acked = [(e, at) for g, events, at in acknowledged if g == game_id for e in events]
            command_ids = [e["command_id"] for e, _ in acked]
            assert len(command_ids) == len(set(command_ids)), "an acknowledged command was applied twice"
            for event, at in acked:
                if at < killed_at - losable:  # else appendfsync may have lost it
                    # there, at its version, once
                    assert by_version[event["version"]]["c"] == event["command_id"], (at - killed_at, event)
                    checked += 1
            stored_commands = [fields["c"] for fields in by_version.values() if fields["t"] == "TurnPassed"]
            assert len(stored_commands) == len(set(stored_commands))
        assert checked > 100, checked
    finally:
        web.stop()


def test_workers_survive_a_redis_restart_and_bots_finish_their_game(crashable_redis, tmp_path):
    worker = Worker(crashable_redis.url, tmp_path / "worker.log", extra_env={**PLUGIN, "SWEEP_SECONDS": "0.5", "RACE_SLOW_SECONDS": "0.2",
                                                                            "STALLED_AFTER_MS": "2000"})
    web = Gunicorn(crashable_redis.url, tmp_path / "gunicorn.log", extra_env=PLUGIN)
    web.start()
    worker.start()
    try:
        created = requests.post(web.url + "/v1/games", json={
            "ruleset": "race", "options": {"goal": 1000},
            "seats": [{"kind": "bot", "level": "slow"}, {"kind": "bot", "level": "slow"}]}).json()
        game_url = f"{web.url}/v1/games/{created['id']}"
        wait_until(lambda: requests.get(game_url).json()["version"] > created["version"] + 3, timeout=30,
                   what="bots to start")
        crashable_redis.kill()
        time.sleep(1.0)
        crashable_redis.start()  # the script cache is empty now: the next append must not see NOSCRIPT
        version = requests.get(game_url).json()["version"]
        wait_until(lambda: requests.get(game_url).json()["version"] > version + 3, timeout=60,
                   what="bots to go on after the restart")
        assert worker.process.poll() is None, "the worker died with Redis"
    finally:
        worker.stop()
        web.stop()
