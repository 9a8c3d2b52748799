"""Redis killed with SIGKILL in the middle of a command load, then restarted from its AOF."""
from __future__ import annotations

import threading
import time
import uuid

import pytest
import requests

from tests.support.processes import Gunicorn, Worker, wait_until

PLUGIN = {"CARTEL_EXTRA_RULESETS": "tests.support.race:RACE"}


@pytest.mark.parametrize("crashable_redis", [
    "always",  # a 2xx is only sent after the AOF is fsynced: survives even a power cut
    # everysec: Redis still write()s the AOF before it replies, so a crash of the Redis *process*
    # loses nothing acknowledged either; only a crash of the machine can lose the last ~1-2 s,
    # which a test on one machine cannot stage (see docs/configuration.md: Durability).
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
                        acknowledged.append((game_id, response.json()["events"]))
                        seat = 1 - seat
                        break
                    assert response.status_code == 503, response.text  # never a 500
                    time.sleep(0.1)

        threads = [threading.Thread(target=player, args=game) for game in games]
        for t in threads:
            t.start()
        wait_until(lambda: len(acknowledged) > 100, timeout=30, what="some load")
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
        for game_id, _ in games:
            stored = client.xrange(f"g:{{{game_id}}}:events")
            versions = [int(entry_id.split("-")[0]) for entry_id, _ in stored]
            assert versions == list(range(1, len(versions) + 1))
            by_version = {int(entry_id.split("-")[0]): fields for entry_id, fields in stored}
            acked = [e for g, events in acknowledged if g == game_id for e in events]
            command_ids = [e["command_id"] for e in acked]
            assert len(command_ids) == len(set(command_ids)), "an acknowledged command was applied twice"
            for event in acked:
                assert by_version[event["version"]]["c"] == event["command_id"]  # there, at its version, once
            stored_commands = [fields["c"] for fields in by_version.values() if fields["t"] == "TurnPassed"]
            assert len(stored_commands) == len(set(stored_commands))
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
