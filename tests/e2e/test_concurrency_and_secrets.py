"""Through real gunicorn processes: concurrent writers, and secrets that never leak."""
from __future__ import annotations

import json
import threading

import requests


def create(base: str, seats: int = 2, seed: str | None = None, ruleset: str = "race", **extra) -> dict:
    # no contribution window: these games start at once (the window is tests/e2e/test_web_commitment.py's)
    body = {"ruleset": ruleset, "seats": [{"kind": "human"}] * seats, "contribution_seconds": 0, **extra}
    if seed:
        body["seed"] = seed
    response = requests.post(base + "/v1/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()


def test_fifty_concurrent_clients_lose_and_duplicate_nothing(live_server):
    base = live_server.url
    game = create(base, options={"goal": 1000})
    tokens = [s["token"] for s in game["seats"]]
    url = f"{base}/v1/games/{game['id']}"
    successes, conflicts, failures = [], [], []
    lock = threading.Lock()

    def client() -> None:
        session = requests.Session()
        while True:
            with lock:
                if len(successes) >= 150:
                    return
            current = session.get(url).json()
            seat = int(min(current["awaiting"]))
            moves = session.get(url, headers={"Authorization": f"Bearer {tokens[seat]}"}).json()["legal_moves"]
            if not moves:  # somebody moved between our two reads
                continue
            move = moves[0]
            response = session.post(url + "/commands", json=move, headers={
                "Authorization": f"Bearer {tokens[seat]}", "If-Match": f'"{current["version"]}"'})
            with lock:
                if response.status_code == 200:
                    successes.append((current["version"], [e["version"] for e in response.json()["events"]]))
                elif response.status_code == 409:
                    conflicts.append((current["version"], response.json()["version"]))
                elif response.status_code != 422:  # 422: the seat we saw was no longer awaited
                    failures.append((response.status_code, response.text))

    threads = [threading.Thread(target=client) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures, failures[:3]
    assert conflicts, "50 writers on one game should have collided"
    assert all(now > seen for seen, now in conflicts)  # a 409 always carries the newer current version
    appended = [v for _, versions in successes for v in versions]
    assert len(appended) == len(set(appended))  # no event written twice
    # every success appended right after the version it was decided against
    assert all(versions[0] == seen + 1 for seen, versions in successes)
    feed = requests.get(f"{url}/events?after=0&limit=500").json()
    versions = [e["version"] for e in feed["events"]]
    assert versions == list(range(1, len(versions) + 1))
    assert set(appended) <= set(versions) and feed["version"] == max(versions)
    setup = [v for v in versions if v not in set(appended)]
    assert setup == list(range(1, len(setup) + 1))  # only creation and setup were not client commands


def read_sse_until(url: str, headers: dict, version: int) -> str:
    """The live SSE stream's text up to the event with id `version`."""
    lines = []
    with requests.get(url, headers={**headers, "Accept": "text/event-stream"}, stream=True, timeout=10) as response:
        stream = response.iter_lines(decode_unicode=True)
        for line in stream:
            lines.append(line)
            if line == f"id: {version}":
                lines.append(next(stream))  # its data line
                break
    return "\n".join(lines)


def everything_seat_can_read(base: str, game_id: str, token: str | None) -> str:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    url = f"{base}/v1/games/{game_id}"
    game = requests.get(url, headers=headers).json()
    texts = [json.dumps(game),
             requests.get(url + "/events?after=0&limit=500", headers=headers).text,
             read_sse_until(url + "/events", headers, game["version"]),
             requests.get(url + "/history", headers=headers).text]
    for version in range(0, game["version"] + 1):
        texts.append(requests.get(url + f"/state?version={version}", headers=headers).text)
    for bad in ({"type": "Roll", "junk": "x" * 10}, {"type": "Nope"}, {"type": "Acknowledge"}):
        texts.append(requests.post(url + "/commands", json=bad, headers=headers).text)
    return "\n".join(texts)


def test_no_seat_ever_reads_another_seats_secret_or_the_seed(live_server):
    base = live_server.url
    game = create(base, seats=3, seed="the-secret-seed-0123456789")
    tokens = [s["token"] for s in game["seats"]]
    for seat in range(3):
        response = requests.post(f"{base}/v1/games/{game['id']}/commands", json={"type": "Pass"},
                                 headers={"Authorization": f"Bearer {tokens[seat]}"})
        assert response.status_code == 200, response.text
    secrets = {}
    for seat, token in enumerate(tokens):
        view = requests.get(f"{base}/v1/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}).json()
        secrets[seat] = view["view"]["my_secret"]
    assert len(set(secrets.values())) == 3 and all(s.startswith("card-") for s in secrets.values())
    for reader in (0, 1, 2, None):
        seen = everything_seat_can_read(base, game["id"], tokens[reader] if reader is not None else None)
        assert "the-secret-seed-0123456789" not in seen
        for owner, secret in secrets.items():
            assert (secret in seen) == (owner == reader), f"seat {reader} vs seat {owner}'s secret"
