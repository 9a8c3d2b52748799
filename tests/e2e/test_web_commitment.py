"""The web page keeps each game's seed commitment and sends its seats' entropy (issue 34, items 2 and 5):
a game created with the service's contribution window starts as soon as the page holding the seat opens
it (the page sent 16 random bytes of its own, after the commitment); the replay page holds a history to
the commitment this browser kept, and warns when an uploaded history commits to another seed."""
from __future__ import annotations

import json
import time

import requests
from playwright.sync_api import expect

from tests.e2e.test_web_frontend import Tab, browser  # noqa: F401  (browser: the fixture)


def finished_bot_game(base: str, seed: str) -> tuple[str, str]:
    created = requests.post(f"{base}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "seed": seed,
        "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]}, timeout=10).json()
    deadline = time.monotonic() + 120
    while requests.get(f"{base}/v1/games/{created['id']}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    return created["id"], requests.get(f"{base}/v1/games/{created['id']}/history", timeout=10).text


def test_the_page_holding_a_seat_sends_its_entropy_and_the_game_starts(live_server, browser):  # noqa: F811
    created = requests.post(f"{live_server.url}/v1/games", json={
        "ruleset": "kingpin", "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]}, timeout=10).json()
    assert created["status"] == "open" and created["contributions"]["owed"] == [0]  # the service's 30 s window
    tab = Tab(browser, live_server.url)
    page = tab.open()
    page.evaluate("([id, token]) => localStorage.setItem(`tabletop-cartel:seats:${id}`, JSON.stringify({0: token}))",
                  [created["id"], created["seats"][0]["token"]])
    page.goto(f"{live_server.url}/#/games/{created['id']}")
    deadline = time.monotonic() + 20  # well inside the 30 s window: the page's entropy started it
    while requests.get(f"{live_server.url}/v1/games/{created['id']}", timeout=10).json()["status"] == "open":
        assert time.monotonic() < deadline
        time.sleep(0.2)
    events = requests.get(f"{live_server.url}/v1/games/{created['id']}/events?after=0", timeout=10).json()["events"]
    sent = next(e for e in events if e["type"] == "EntropyContributed")
    assert sent["data"]["seat"] == 0 and len(sent["data"]["entropy"]) == 32
    kept = page.evaluate("(id) => localStorage.getItem(`tabletop-cartel:commitment:${id}`)", created["id"])
    assert kept == created["seed_commitment"]
    tab.close()


def test_the_replay_page_warns_when_a_history_commits_to_another_seed(live_server, browser, tmp_path):  # noqa: F811
    game_id, text = finished_bot_game(live_server.url, "web-kept-commitment")
    header = json.loads(text.splitlines()[0])
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    tab = Tab(browser, live_server.url)
    page = tab.open("#/replay")
    set_kept = "([id, c]) => localStorage.setItem(`tabletop-cartel:commitment:${id}`, c)"
    # the commitment this browser kept is the history's: said so, and the server's verdict agrees
    page.evaluate(set_kept, [game_id, header["seed_commitment"]])
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#commitment")).to_contain_text("is the one this browser kept")
    expect(page.locator("#verdict")).to_contain_text("valid and complete")
    # kept another (the game this browser saw was another seed's): the page warns, the verdict refuses
    page.evaluate("(id) => localStorage.removeItem(`tabletop-cartel:commitment:${id}`)", game_id)
    page.evaluate(set_kept, [game_id, "ab" * 32])
    page.goto(f"{live_server.url}/#/replay")
    page.reload()
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#commitment")).to_contain_text("Not the game you saw")
    expect(page.locator("#verdict")).to_contain_text("not valid")
    tab.close(expected=("status of 4",))
