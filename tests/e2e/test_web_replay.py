"""The replay page for people (issue 27): a game you played in this browser, replayed by turn, by
round, by your own moves and from a narrated line of its log; an uploaded history stays in the
page (verified once, each version folded once, not re-posted at every step)."""
from __future__ import annotations

import json
import re
import time

import requests
from playwright.sync_api import expect

from tests.e2e.test_web_frontend import Tab, browser, create_game  # noqa: F401  (browser: the fixture)
from tests.e2e.test_web_play_every_game import Player, game_over


def shown_version(page) -> int:
    return int(page.locator("#replay-version").inner_text().split()[1])


def test_a_game_you_played_replays_by_turn_round_your_moves_and_log_line(live_server, browser):  # noqa: F811
    tab = Tab(browser, live_server.url)
    page = tab.open()
    game_id = create_game(page, "kingpin", [("human", None), ("bot", "greedy"), ("bot", "greedy")], {"target": 3000})
    me, deadline = Player(page, seed=27), time.monotonic() + 300
    while not game_over(page):
        assert time.monotonic() < deadline
        me.play_once()
    lines = requests.get(f"{live_server.url}/v1/games/{game_id}/history", timeout=10).text.splitlines()
    events = [json.loads(line) for line in lines[1:]]
    turns = [e["version"] for e in events if e["type"] == "TurnStarted"]
    # a round begins where the turn comes back to the first turn's seat (not again at once, as after doubles)
    seats = [e["data"]["seat"] for e in events if e["type"] == "TurnStarted"]
    rounds = [v for i, v in enumerate(turns) if i == 0 or (seats[i] == seats[0] and seats[i - 1] != seats[0])]
    mine = [e["version"] for e in events if e["actor"] == "seat:0"]
    last = events[-1]["version"]

    page.click("text=Replay and verify")
    expect(page.locator("#replay-version")).to_have_text(f"version {last} of {last}")
    expect(page.locator("#replay-now")).to_contain_text(f"Turn {len(turns)} of {len(turns)}")
    # a turn from the list, then the next and previous turns
    page.select_option("#replay-turn", str(turns[2]))
    expect(page.locator("#replay-version")).to_have_text(f"version {turns[2]} of {last}")
    expect(page.locator("#replay-now")).to_contain_text(f"Turn 3 of {len(turns)}")
    page.click("#next-turn")
    expect(page.locator("#replay-version")).to_have_text(f"version {turns[3]} of {last}")
    page.click("#prev-turn")
    page.click("#prev-turn")
    expect(page.locator("#replay-version")).to_have_text(f"version {turns[1]} of {last}")
    # rounds: where the turn comes back round to the first seat
    page.click("#next-round")
    expect(page.locator("#replay-version")).to_have_text(f"version {next(r for r in rounds if r > turns[1])} of {last}")
    # your own moves: this browser holds seat 0
    at = shown_version(page)
    page.click("#next-mine")
    expect(page.locator("#replay-version")).to_have_text(f"version {next(v for v in mine if v > at)} of {last}")
    page.check("#replay-mine")
    actors = page.locator("#replay-events li").evaluate_all("lis => lis.map((li) => li.dataset.actor)")
    assert actors and set(actors) == {"seat:0"}
    page.uncheck("#replay-mine")
    # a narrated line of the log goes to its version; it reads as a sentence, not as the event's type
    target = page.locator("#replay-events li").nth(3)
    version = int(target.get_attribute("data-version"))
    sentence = next(e for e in events if e["version"] == version)["narration"]["text"]
    # the page names the nameless human seat by its colour (Blue, the first), as everywhere it shows
    # seats; the bots keep the server's words
    expect(target).to_contain_text(re.sub(r"\bSeat 0\b", "Blue", sentence))
    target.locator("button").click()
    expect(page.locator("#replay-version")).to_have_text(f"version {version} of {last}")
    expect(page.locator("#replay-events li.current")).to_have_attribute("data-version", str(version))
    tab.shot("replay-by-turn")
    tab.close()


def test_an_uploaded_history_is_verified_once_and_each_version_folded_once(live_server, browser, tmp_path):  # noqa: F811
    created = requests.post(f"{live_server.url}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "seed": "web-upload-kept",
        "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]}, timeout=10).json()
    deadline = time.monotonic() + 120
    while requests.get(f"{live_server.url}/v1/games/{created['id']}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    text = requests.get(f"{live_server.url}/v1/games/{created['id']}/history", timeout=10).text
    last = len(text.splitlines()) - 1
    path = tmp_path / "kept.jsonl"
    path.write_text(text)

    tab = Tab(browser, live_server.url)
    page = tab.open("#/replay")
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and "/v1/replays" in r.url else None)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#verdict")).to_contain_text("valid and complete")
    expect(page.locator("#replay-version")).to_have_text(f"version {last} of {last}")
    page.wait_for_timeout(300)
    assert len(posts) == 2, posts  # the verdict, then the last version's board
    page.click("button[aria-label='Previous version']")
    expect(page.locator("#replay-version")).to_have_text(f"version {last - 1} of {last}")
    page.click("button[aria-label='Next version']")
    page.click("button[aria-label='Previous version']")
    page.click("button[aria-label='Next version']")
    expect(page.locator("#replay-version")).to_have_text(f"version {last} of {last}")
    page.wait_for_timeout(300)
    assert len(posts) == 3, posts  # one more version folded; going back and forth asks for nothing again
    tab.close()


def test_the_replay_shows_what_the_bot_would_play_for_the_seat_on_move(live_server, browser):  # noqa: F811
    """Issue 39 item 4: at a step of a finished game's replay, the seat on move asks the search bot; the page lists
    that seat's moves as the service analysed them, the bot's pick first and marked, at desktop and phone size."""
    created = requests.post(f"{live_server.url}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "seed": "web-analysis",
        "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]}, timeout=10).json()
    game_id, deadline = created["id"], time.monotonic() + 120
    while requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    lines = requests.get(f"{live_server.url}/v1/games/{game_id}/history", timeout=10).text.splitlines()
    events = [json.loads(line) for line in lines[1:]]
    last = events[-1]["version"]
    # a bot's purchase: a position where its seat chose among several moves
    bought = next(e for before, e in zip(events, events[1:])
                  if e["type"] == "CardPurchased" and e["actor"].startswith("bot:") and before["actor"] != e["actor"])
    version, seat = bought["version"] - 1, int(bought["actor"].split(":")[1])
    served = requests.post(f"{live_server.url}/v1/analysis", json={"game": game_id, "version": version, "seat": seat},
                           timeout=120).json()
    assert served["status"] == "done" and len(served["moves"]) > 1, served
    for width, height, name in ((1280, 900, "replay-analysis"), (390, 844, "replay-analysis-phone")):
        tab = Tab(browser, live_server.url, width, height)
        page = tab.open(f"#/replay/{game_id}")
        expect(page.locator("#replay-version")).to_have_text(f"version {last} of {last}")
        expect(page.locator("#analysis")).to_contain_text("Nobody chooses a move here")  # the game has ended
        page.select_option("#replay-turn", str(max(t for t in (int(o) for o in page.locator(
            "#replay-turn option").evaluate_all("os => os.map((o) => o.value).filter(Boolean)")) if t <= version)))
        while shown_version(page) < version:
            page.click("button[aria-label='Next version']")
        expect(page.locator("#replay-version")).to_have_text(f"version {version} of {last}")
        page.click("#analyse")
        rows = page.locator("#analysis-moves tbody tr")
        expect(rows).to_have_count(len(served["moves"]))
        expect(rows.first).to_have_class("bot-move")
        expect(rows.first).to_contain_text("bot's pick")
        labels = rows.evaluate_all("rs => rs.map((r) => r.cells[0].firstChild.textContent)")
        assert labels == [m["label"] for m in served["moves"]]
        assert page.locator("#analysis-moves tr.bot-move").count() == 1
        page.locator("#analysis").scroll_into_view_if_needed()
        tab.shot(name)
        tab.close()


def test_at_a_table_that_allows_it_a_player_asks_the_bot_about_their_own_move(live_server, browser):  # noqa: F811
    """Issue 39 item 4, live: the lobby creates a table with analysis allowed; on the game page the player on move
    asks the search bot about their own choice (their seat's token), at desktop and phone size."""
    for width, height, name in ((1280, 900, "game-analysis"), (390, 844, "game-analysis-phone")):
        tab = Tab(browser, live_server.url, width, height)
        page = tab.open()
        page.wait_for_selector("#create-game")
        page.check("#create-analysis")
        game_id = create_game(page, "kingpin", [("human", None), ("bot", "greedy")], {"target": 3000})
        assert requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()["analysis"] is True
        page.click("#analyse")
        # the moves are drawn again while the bot thinks (here a stack picked on the board, then all moves shown
        # again; in play, any event that arrives): the answer shows in the panel drawn again (it was lost, and a
        # CI run waited for it in vain)
        page.locator("#main button[aria-label^='Junkie ($200) for']").first.click()
        page.click("button:has-text('Show all')")
        rows = page.locator("#analysis-moves tbody tr")
        expect(rows.first).to_have_class("bot-move")
        expect(page.locator("#analysis-moves caption")).to_contain_text("from what you can see")
        assert rows.count() >= 2 and page.locator("#analysis-moves tr.bot-move").count() == 1
        page.locator("#analysis").scroll_into_view_if_needed()
        tab.shot(name)
        tab.close()
