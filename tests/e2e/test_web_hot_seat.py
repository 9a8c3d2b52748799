"""Hot seat: one browser holds both seats' tokens of a Narcos game (each seat has a hidden Cartel hand) and
switches between them with "Play as".  The game's ETag once named only the version, so Chromium revalidated
seat 0's cached document when asking as seat 1, got a 304, and showed seat 0's hand and moves to seat 1 (whose
clicks were then refused).  Real Chromium, real gunicorn + RQ worker + redis-server."""
from __future__ import annotations

import json

import requests
from playwright.sync_api import Page, expect

from tests.e2e.test_web_frontend import Tab, browser, click_a_move, create_game, version_of  # noqa: F401 (fixture)


def as_seat(server, game_id: str, token: str, path: str = "", **headers: str) -> requests.Response:
    return requests.get(f"{server.url}/v1/games/{game_id}{path}", timeout=10,
                        headers={"Authorization": f"Bearer {token}", **headers})


def secrets_read_by(server, game_id: str, token: str, after: int) -> list[str]:
    """The versions of the events in the seat's feed whose secret that seat may read (the log marks them secret)."""
    events = as_seat(server, game_id, token, f"/events?after={after}&limit=200").json()["events"]
    return [str(e["version"]) for e in events if "secret" in (e.get("data") or {})]


def shows_only_its_own(page: Page, server, game_id: str, tokens: dict, seat: int) -> None:
    """The page, playing `seat`, shows that seat's legal moves, its Cartel hand and not the other's, and an
    event log with that seat's secrets only."""
    if page.locator("#play-as").input_value() != str(seat):
        page.select_option("#play-as", str(seat))
    expect(page.locator(f".you[data-seat='{seat}']")).to_be_visible()
    doc = as_seat(server, game_id, tokens[str(seat)]).json()
    assert version_of(page) == doc["version"]  # nobody moved meanwhile: the page's document is this one
    hand = doc["view"]["players"][seat]["hand"]
    assert hand, "each Narcos seat holds a Cartel card from the start"
    me, other = (page.locator(f".narcos-players .player[data-seat='{s}']") for s in (seat, 1 - seat))
    assert [c.get_attribute("data-card") for c in me.locator(".card.cartel").all()] == hand
    expect(other.locator(".card.cartel")).to_have_count(0)
    expect(other).to_contain_text("Cartel card(s) in hand")
    shown = [json.loads(b.get_attribute("data-move")) for b in page.locator("button.play-move").all()]
    assert shown == doc["legal_moves"]
    # the log: this seat's feed from the start (the other seat's secrets are not kept across the switch)
    after = max(0, doc["version"] - 40)
    expect(page.locator(".log li")).to_have_count(doc["version"] - after)
    marked = [li.get_attribute("data-version") for li in page.locator(".log li[data-secret]").all()]
    assert sorted(marked, key=int) == secrets_read_by(server, game_id, tokens[str(seat)], after)


def test_one_browser_switches_between_two_seats_and_each_sees_its_own_moves_and_hand(live_server, browser):  # noqa: F811
    tab = Tab(browser, live_server.url)
    page = tab.open()
    game_id = create_game(page, "narcos", [("human", None), ("human", None)])
    tokens = json.loads(page.evaluate(f"localStorage.getItem('tabletop-cartel:seats:{game_id}')"))
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    mover = int(next(iter(as_seat(live_server, game_id, tokens["0"]).json()["awaiting"])))
    for seat in (0, 1, 0, 1):
        shows_only_its_own(page, live_server, game_id, tokens, seat)
    # hot seat: the seat to move plays from this page, and its clicks are accepted
    page.select_option("#play-as", str(mover))
    expect(page.locator(f".you[data-seat='{mover}']")).to_be_visible()
    assert click_a_move(page)
    page.wait_for_function("() => !document.querySelector('button.play-move:disabled')")
    for seat in (mover, 1 - mover, mover):
        shows_only_its_own(page, live_server, game_id, tokens, seat)
    tab.shot("hot-seat-narcos")
    tab.close()


def test_a_seats_etag_sent_as_the_other_seat_gets_the_other_seats_view(live_server):
    created = requests.post(f"{live_server.url}/v1/games", timeout=10, json={
        "ruleset": "narcos", "seats": [{"kind": "human"}] * 2, "contribution_seconds": 0}).json()  # started at once
    game_id, tokens = created["id"], {str(s["seat"]): s["token"] for s in created["seats"]}
    seat0 = as_seat(live_server, game_id, tokens["0"])
    assert as_seat(live_server, game_id, tokens["0"], **{"If-None-Match": seat0.headers["ETag"]}).status_code == 304
    seat1 = as_seat(live_server, game_id, tokens["1"], **{"If-None-Match": seat0.headers["ETag"]})
    assert seat1.status_code == 200 and seat1.json()["you"] == 1
    assert seat1.headers["ETag"] != seat0.headers["ETag"] and seat1.headers["Vary"] == "Authorization"
    players = seat1.json()["view"]["players"]
    assert players[1]["hand"] and "hand" not in players[0]  # seat 1's own hand; seat 0's stays hidden
    mover = next(iter(seat1.json()["awaiting"]))
    assert bool(seat1.json()["legal_moves"]) == (mover == "1")
