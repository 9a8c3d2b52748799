"""The web pages draw a game on the map of its own rules version (issue 39; Druglord's version 2 redrew
borders and coasts, and `GET /v1/rulesets/{name}/data?version=N` serves each version's map): the game page
and the replay page ask for `data?version=<the game's ruleset_version>`, not for the latest map.  A small
browser test: the pages are opened and their requests watched, no game is played."""
from __future__ import annotations

import gzip
from pathlib import Path

import requests
from playwright.sync_api import expect

from tests.e2e.test_web_frontend import Tab, browser  # noqa: F401  (browser: the fixture)

CORPUS = Path(__file__).resolve().parents[1] / "data" / "histories"
DATA = "/v1/rulesets/druglord/data"


def data_requests(page) -> list[str]:
    """The query strings of the Druglord static-data requests the page makes (filled as it makes them)."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url.partition("?")[2]) if DATA in r.url else None)
    return asked


def test_the_game_page_asks_for_the_map_of_its_games_rules_version(live_server, browser):  # noqa: F811
    created = requests.post(f"{live_server.url}/v1/games", timeout=10, json={
        "ruleset": "druglord", "seats": [{"kind": "human"}, {"kind": "human"}],
        "contribution_seconds": 0}).json()  # started at once: the page watches it as a spectator
    game = f"/v1/games/{created['id']}"
    latest = requests.get(f"{live_server.url}{game}", timeout=10).json()["ruleset_version"]
    assert latest == requests.get(f"{live_server.url}/v1/rulesets/druglord", timeout=10).json()["latest_version"] > 1

    tab = Tab(browser, live_server.url)
    asked = data_requests(tab.page)
    tab.open(f"#/games/{created['id']}")
    expect(tab.page.locator("svg.map")).to_be_visible()
    assert asked == [f"version={latest}"], asked

    # a game recorded under version 1 (the service creates games at the latest version only, so the document
    # the page reads says 1): the page asks for version 1's map
    old = Tab(browser, live_server.url)
    asked = data_requests(old.page)

    def as_version_1(route):
        response = route.fetch()
        route.fulfill(response=response, json={**response.json(), "ruleset_version": 1})

    old.page.route(f"**{game}", as_version_1)
    old.open(f"#/games/{created['id']}")
    expect(old.page.locator("svg.map")).to_be_visible()
    assert asked == ["version=1"], asked
    tab.close()
    old.close()


def test_the_replay_page_asks_for_the_map_of_the_historys_rules_version(live_server, browser, tmp_path):  # noqa: F811
    # a Druglord game of the recorded corpus, played under version 1 (its header has no ruleset_version)
    path = tmp_path / "druglord-v1.jsonl"
    path.write_bytes(gzip.decompress((CORPUS / "druglord-06.jsonl.gz").read_bytes()))
    tab = Tab(browser, live_server.url)
    asked = data_requests(tab.page)
    page = tab.open("#/replay")
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#verdict")).to_contain_text("valid and complete")
    assert asked == ["version=1"], asked
    tab.close()
