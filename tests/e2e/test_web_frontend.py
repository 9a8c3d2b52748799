"""The reference web frontend (clients/web/, served at /) in a real browser: headless Chromium from
the distribution's `chromium` package, driven by Playwright for Python launched with that executable
(no browser download), against gunicorn + an RQ worker + redis-server.  Screenshots of every step
go to the git-ignored tests/screenshots/ for people to look at."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

SCREENSHOTS = Path(__file__).resolve().parents[1] / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
# as root in a sandboxed machine with no network: no sandbox, and none of Chromium's own calls home
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage"]


def find_chromium() -> str:
    """The distribution's Chromium; installed with apt-get on a fresh Debian machine when we are root
    (as the tests' redis-server is), so the README's test command needs nothing else."""
    if not Path(CHROMIUM).exists() and shutil.which("apt-get") and os.geteuid() == 0:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=False, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env)
    assert Path(CHROMIUM).exists(), (f"{CHROMIUM} not found: install the distribution's chromium package "
                                     "(Debian/Ubuntu: sudo apt-get install -y chromium), or set CHROMIUM to its path")
    return CHROMIUM


@pytest.fixture
def browser(chromium):
    """The process's Chromium (tests/e2e/conftest.py), with whatever a test left open closed after it (each test opens its own
    contexts: nothing one test did is seen by the next)."""
    yield chromium
    for context in chromium.contexts:
        context.close()


class Tab:
    """A page that records console errors and uncaught exceptions: none may happen."""

    def __init__(self, browser, base: str, width: int = 1280, height: int = 900):
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page: Page = self.context.new_page()
        # the others' moves told at once unless a test chooses a pace (test_web_table.py tells them at the
        # page's own pace); the board is still folded through each burst of them
        self.page.add_init_script("if (!localStorage.getItem('tabletop-cartel:prefs')) "
                                  "localStorage.setItem('tabletop-cartel:prefs', JSON.stringify({pace: 'instant'}))")
        self.page.set_default_timeout(60_000)  # a loaded machine is slow, never wrong: waits end early when they can
        self.errors: list[str] = []
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        # a move a bot's simultaneous answer beat to the server: the page refreshes and says so (click_a_move)
        self.conflicts = 0
        self.page.on("response", self._count_conflict)
        self.base = base

    def _count_conflict(self, response) -> None:
        if response.status == 409 and response.url.endswith("/commands"):
            self.conflicts += 1

    def open(self, fragment: str = "") -> Page:
        self.page.goto(f"{self.base}/{fragment}")
        return self.page

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)

    def close(self, expected: tuple[str, ...] = ()) -> None:
        """Close it: no console error but the `expected` ones (the browser logs every 4xx it meets)."""
        self.context.close()
        if self.conflicts:  # the browser logs each such 409; the page handled it (click_a_move checks how)
            expected = (*expected, "status of 409")
        unexpected = [e for e in self.errors if not any(x in e for x in expected)]
        assert not unexpected, unexpected


def version_of(page: Page) -> int:
    return int(page.locator("h1 .muted").inner_text().lstrip("v"))


# The game version the page shows (its heading's "v12"), as a JavaScript expression for wait_for_function
SHOWN_VERSION = "Number(document.querySelector('h1 .muted').textContent.trim().slice(1))"


def create_game(page: Page, ruleset: str, seats: list[tuple[str, str | None]], options: dict | None = None) -> str:
    """Fill in the lobby's New game form and submit it; the game's id from the page it opens."""
    page.wait_for_selector("#create-game")
    page.select_option("#create-ruleset", ruleset)
    page.select_option("#seat-count", str(len(seats)))
    for i, (kind, level) in enumerate(seats):
        page.select_option(f"select[name=kind-{i}]", kind)
        if level:
            page.select_option(f"select[name=level-{i}]", level)
    for name, value in (options or {}).items():
        page.select_option(f"#option-{name}", json.dumps(value))
    page.click("#create-game button[type=submit]")
    page.wait_for_url("**/#/games/*")
    return page.url.rsplit("/", 1)[1]


MOVED_ON = "The game moved on before your move arrived"


def complete_a_picker(page: Page) -> None:
    """A set chosen in parts with nothing to confirm yet (Druglord's "keep 3 of 5"): toggle its first listed
    option on, so its confirming button is there to click."""
    picker = page.locator(".moves-section .move.picker").first
    if not picker.count() or picker.locator("button.play-move[data-move]").count():
        return
    first = json.loads(picker.get_attribute("data-options"))[0]
    for value in next(v for v in first.values() if isinstance(v, list)):
        picker.locator(f".pick-toggle[data-value='{value}']:not(.on), .counter[data-value='{value}'] button.step-up").first.click()


def click_a_move(page: Page, move: dict | None = None) -> bool:
    """Click the first legal move (or `move`), if there is one, and wait until the game moves on; whether
    the move landed (False: none to click, or a bot's simultaneous answer reached the server first: the
    command met a 409 and the page refreshed, saying so, for the player to choose again)."""
    if move is None:
        complete_a_picker(page)
    moves = page.locator(".moves-section button.play-move:enabled" + (f"[data-move='{json.dumps(move, separators=(',', ':'))}']"
                                                                      if move else "[data-move]"))
    if not moves.count():
        page.wait_for_timeout(100)
        return False
    before = version_of(page)
    with page.expect_response(lambda r: r.url.endswith("/commands") and r.request.method == "POST") as sent:
        moves.first.click()
        yes = page.locator(".confirm-end button.confirm-yes")  # ending a turn early asks first
        if yes.count():
            yes.first.click()
    if sent.value.status == 409:
        expect(page.locator(".notice")).to_contain_text(MOVED_ON)
        return False
    page.wait_for_function(f"() => {SHOWN_VERSION} > {before} || document.querySelector('.notice.bad')")
    assert not page.locator(".notice.bad").count(), page.locator(".notice.bad").inner_text()
    return True


def test_kingpin_against_bots_by_clicking_to_the_end_followed_live_by_a_spectator_then_replayed_and_verified(
        live_server, browser):
    me = Tab(browser, live_server.url)
    page = me.open()
    expect(page.locator("h1")).to_have_text("Lobby")
    me.shot("lobby")
    game_id = create_game(page, "kingpin", [("human", None), ("bot", "greedy"), ("bot", "random")], {"target": 3000})
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    # the seat's token stays in the browser's storage, never in the address
    stored = page.evaluate(f"localStorage.getItem('tabletop-cartel:seats:{game_id}')")
    assert "0" in json.loads(stored) and json.loads(stored)["0"] not in page.url

    watcher = Tab(browser, live_server.url)
    spectator = watcher.open(f"#/games/{game_id}")
    expect(spectator.locator("text=You are watching")).to_be_visible()
    expect(spectator.locator("#log-h")).to_contain_text("live")

    clicks, bot_events_seen_live, deadline = 0, 0, time.monotonic() + 300
    while not page.locator(".notice.ok:has-text('Game over')").count():
        assert time.monotonic() < deadline, f"the game did not end; {clicks} clicks"
        clicks += click_a_move(page)  # the click's command lands: the version moves on
        bot_events_seen_live = max(bot_events_seen_live, page.locator(".log li[data-actor^='bot:']").count())
        if clicks == 3:
            me.shot("kingpin-playing")
    me.shot("kingpin-over")
    assert clicks >= 3
    assert bot_events_seen_live > 0  # the bots' moves arrived over the live feed, without a reload
    final = requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()
    assert final["status"] == "finished" and final["outcome"]["winners"]
    # the spectator's tab followed the same game to its end, live
    expect(spectator.locator(".notice.ok:has-text('Game over')")).to_be_visible()
    expect(spectator.locator(f".log li[data-version='{final['version']}']")).to_have_count(1)
    watcher.shot("kingpin-spectator")
    watcher.close()

    page.click("text=Replay and verify")
    expect(page.locator("#replay-version")).to_have_text(f"version {final['version']} of {final['version']}")
    page.click("button[aria-label='Previous version']")
    expect(page.locator("#replay-version")).to_have_text(f"version {final['version'] - 1} of {final['version']}")
    page.locator("#replay-slider").fill("5")
    expect(page.locator("#replay-version")).to_have_text(f"version 5 of {final['version']}")
    page.click("#verify")
    expect(page.locator("#verdict")).to_contain_text("This history is valid and complete: all")
    assert "not valid" not in page.locator("#verdict").inner_text()
    me.shot("kingpin-replay")
    me.close()


def test_a_stream_that_stalls_open_is_replaced_once_the_game_moves_on_without_it(live_server, browser):
    # Pushpin, under load after a kill, once held streams open without serving them (not even the
    # heartbeat, which an EventSource cannot see anyway): the page asks the game's version after a
    # silence and follows again from the last version it saw
    created = requests.post(f"{live_server.url}/v1/games", timeout=10, json={
        "ruleset": "kingpin", "seats": [{"kind": "human"}] * 2, "contribution_seconds": 0}).json()
    game_id, tokens = created["id"], {s["seat"]: s["token"] for s in created["seats"]}
    tab = Tab(browser, live_server.url)
    page = tab.page
    page.add_init_script("window.cartelStallSeconds = 2")
    held = []  # the page's first stream: answered never, its connection left open

    def stall_the_first(route):
        if held:
            route.continue_()
        else:
            held.append(route)
    page.route(re.compile(r"/v1/games/[^/]+/events\?"), stall_the_first)
    tab.open(f"#/games/{game_id}")
    expect(page.locator("text=You are watching")).to_be_visible()
    before = version_of(page)
    game = game_as(live_server, game_id, tokens[0])
    mover = tokens[0] if game["legal_moves"] else tokens[1]
    move = game_as(live_server, game_id, mover)["legal_moves"][0]
    answer = requests.post(f"{live_server.url}/v1/games/{game_id}/commands", json=move, timeout=10,
                           headers={"Authorization": f"Bearer {mover}"})
    assert answer.status_code == 200, answer.text
    now = requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()["version"]
    assert now > before and len(held) == 1
    page.wait_for_function(f"() => {SHOWN_VERSION} >= {now}", timeout=15_000)
    tab.close()


def test_an_uploaded_tampered_history_shows_where_it_diverges(live_server, browser, tmp_path):
    created = requests.post(f"{live_server.url}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "seed": "web-tamper",
        "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]}, timeout=10).json()
    deadline = time.monotonic() + 120
    while requests.get(f"{live_server.url}/v1/games/{created['id']}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    lines = requests.get(f"{live_server.url}/v1/games/{created['id']}/history", timeout=10).text.splitlines()
    rolled = next(i for i, line in enumerate(lines) if '"DiceRolled"' in line)
    original, record = lines[rolled], json.loads(lines[rolled])
    record["data"]["dice"] = [6 if d != 6 else 5 for d in record["data"]["dice"]]  # better dice than the seed gave
    lines[rolled] = json.dumps(record)
    path = tmp_path / "tampered.jsonl"
    path.write_text("\n".join(lines) + "\n")

    tab = Tab(browser, live_server.url)
    page = tab.open("#/replay")
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#replay-version")).to_contain_text("of")
    page.click("#verify")
    expect(page.locator("#verdict")).to_contain_text(f"not valid, so not complete: it diverges at version {record['version']}")
    page.click("text=show the last good version")
    expect(page.locator("#replay-version")).to_have_text(f"version {record['version'] - 1} of {len(lines) - 1}")
    tab.shot("replay-tampered")

    # The first lines of the untampered history, its header's outcome nulled (the case): every
    # event re-derives, but the page says in words that this is not the whole game.
    lines[rolled] = original
    header = json.loads(lines[0])
    cut = next(n for n, line in enumerate(lines) if n > 20 and '"command"' in line) - 1  # a whole command
    path = tmp_path / "prefix.jsonl"
    path.write_text("\n".join([json.dumps(dict(header, outcome=None))] + lines[1:cut + 1]) + "\n")
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#verdict")).to_contain_text(
        f"This history is valid but not complete: its {cut} events re-derive from the revealed seed, but the "
        f"events stop at version {cut}; the header records the game to version {len(lines) - 1}")
    expect(page.locator("#replay-version")).to_have_text(f"version {cut} of {cut}")
    tab.shot("replay-prefix")
    tab.close()


def test_druglord_map_shows_every_region_and_the_seats_holdings(live_server, browser):
    regions = requests.get(f"{live_server.url}/v1/rulesets/druglord/data", timeout=10).json()["data"]["regions"]
    tab = Tab(browser, live_server.url)
    page = tab.open()
    game_id = create_game(page, "druglord", [("human", None), ("bot", "random"), ("bot", "random")])
    expect(page.locator("svg.map g.region")).to_have_count(len(regions))
    token = json.loads(page.evaluate(f"localStorage.getItem('tabletop-cartel:seats:{game_id}')"))["0"]
    # play the setup by clicking until seat 0 holds Regions (Druglord 1: each player draws Region Cards)
    deadline = time.monotonic() + 120
    while True:
        view = requests.get(f"{live_server.url}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"},
                            timeout=10).json()["view"]
        if view and view["players"][0]["regions"]:
            break
        assert time.monotonic() < deadline, "seat 0 never held a Region"
        click_a_move(page)
    held = view["players"][0]["regions"]
    page.reload()
    for region in held:
        expect(page.locator(f"svg.map g.region[data-region='{region}'][data-owner='0'] rect.marker")).to_have_count(1)
    # the racetrack names the Regions (never their ids)
    expect(page.locator(".racetrack tr[data-seat='0'] .holdings")).to_contain_text(next(r["name"] for r in regions if r["id"] == held[0]))
    expect(page.locator(".racetrack tr[data-seat='0'] .holdings")).not_to_contain_text(held[0])
    tab.shot("druglord-map")
    tab.close()


def abbreviates(short: str, word: str) -> bool:
    """'Mtns' abbreviates 'Mountains': the same first letter, then its letters in the word's order."""
    short, word = short.rstrip(".").lower(), iter(word.lower())
    return bool(short) and short[0] == next(word, None) and all(c in word for c in short[1:])


def view_box(page: Page, selector: str) -> list[float]:
    return [float(n) for n in page.locator(selector).get_attribute("viewBox").split()]


def test_druglord_map_names_every_region_legibly_and_zooms_pans_and_still_picks_on_a_phone(live_server, browser):
    regions = requests.get(f"{live_server.url}/v1/rulesets/druglord/data", timeout=10).json()["data"]["regions"]
    tab = Tab(browser, live_server.url)
    page = tab.open()
    game_id = create_game(page, "druglord", [("human", None), ("bot", "random"), ("bot", "random")])
    token = seat_token(page, game_id)
    # a tap picks the Region and shows its moves (by default a Region naming one move, a draft, plays it)
    page.click("details.settings > summary")
    page.select_option("#tap-plays", "show")
    page.click("details.settings > summary")
    board = "svg.druglord-map"
    expect(page.locator(f"{board} g.region text.name")).to_have_count(len(regions))
    # every Region's name is written on the map (not only in a tooltip): whole, or shortened word by word
    shown = page.evaluate(f"""() => Object.fromEntries([...document.querySelectorAll('{board} g.region')]
        .map((g) => [g.dataset.region, g.querySelector('text.name').textContent]))""")
    for region in regions:
        name, text = region["name"], shown[region["id"]]
        if len(name) <= 13:
            assert text == name, (region["id"], text)
        else:  # "Southern California" -> "S. California", "Rocky Mtns": each word an abbreviation of the name's
            assert len(text) <= 13 and len(text.split()) == len(name.split()), (name, text)
            assert all(abbreviates(t, n) for t, n in zip(text.split(), name.split())), (name, text)
    # at desktop width the names are a readable size and no two of them overlap
    boxes = page.evaluate(f"""() => [...document.querySelectorAll('{board} text.name')].map((t) => {{
        const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; }})""")
    assert min(b[4] - b[2] for b in boxes) >= 11, "region names under 11 px tall at 1280 px"
    overlapping = [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                   if min(a[3], b[3]) - max(a[1], b[1]) > 1 and min(a[4], b[4]) - max(a[2], b[2]) > 1]
    assert not overlapping, overlapping
    expect(page.locator(f"{board} .zone-name")).to_have_count(len({r["zone"] for r in regions}))
    # keep three Regions (the toggles, then "Keep these"): the moves that follow name Regions one by one
    wait_for_my_move(page)
    click_a_move(page)

    # a phone: the buttons zoom the viewBox in and out, the whole board comes back, the page never scrolls sideways
    page.set_viewport_size({"width": 390, "height": 844})
    full = [float(n) for n in page.locator(".zoom-box").get_attribute("data-full").split()]
    # the page may open a phone's map on what can be picked; once the player zooms, the view is theirs
    page.click(".zoom-in")
    page.click(".zoom-fit")
    assert view_box(page, board) == full
    page.click(".zoom-in")
    page.click(".zoom-in")
    closer = view_box(page, board)
    assert abs(closer[2] - full[2] / 2.25) < 1 and abs(closer[3] - full[3] / 2.25) < 1, (full, closer)
    assert page.evaluate("document.documentElement.scrollWidth") == 390
    page.click(".zoom-out")
    assert abs(view_box(page, board)[2] - full[2] / 1.5) < 1
    # a drag pans (and picks nothing): on the board, scrolled into the screen (the zoom buttons above it
    # can be at the screen's foot, the board just below)
    page.locator(board).scroll_into_view_if_needed()
    box = page.locator(board).bounding_box()
    before = view_box(page, board)
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] / 2 - 80, box["y"] + box["height"] / 2 - 30, steps=8)
    page.mouse.up()
    after = view_box(page, board)
    assert after[0] > before[0] and after[2] == before[2], (before, after)
    expect(page.locator(".picked-what")).to_have_count(0)
    page.click(".zoom-fit")
    assert view_box(page, board) == full

    # the wheel zooms about the pointer: a Region a move names stays under it, and tapping it still picks it
    wait_for_my_move(page)
    region = page.locator(f"{board} g.region.pickable").first
    rid = region.get_attribute("data-region")
    spot = region.locator("circle.spot").bounding_box()
    page.mouse.move(spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2)
    for _ in range(4):
        page.mouse.wheel(0, -200)
    page.wait_for_timeout(100)
    assert view_box(page, board)[2] < full[2] / 2
    moved = region.locator("circle.spot").bounding_box()
    px, py = spot["x"] + spot["width"] / 2, spot["y"] + spot["height"] / 2  # still under the pointer
    assert moved["x"] < px < moved["x"] + moved["width"] and moved["y"] < py < moved["y"] + moved["height"], (spot, moved)
    page.mouse.click(moved["x"] + moved["width"] / 2, moved["y"] + moved["height"] / 2)
    expect(page.locator(".picked-what")).to_contain_text(next(r["name"] for r in regions if r["id"] == rid))
    expect(page.locator(f"{board} g.region[data-region='{rid}']")).to_have_attribute("aria-pressed", "true")
    legal = [m for m in game_as(live_server, game_id, token)["legal_moves"] if names(m, rid)]
    assert sorted_moves(shown_moves(page)) == sorted_moves(legal) and legal
    expect(page.locator(".popover .move")).to_have_count(page.locator(".moves-section .moves > .move").count())
    # the zoom survives the redraw the pick caused
    assert view_box(page, board)[2] < full[2] / 2
    tab.shot("druglord-map-phone-zoomed")
    tab.close()


def test_phone_width_keyboard_and_a_conflicting_move(live_server, browser):
    tab = Tab(browser, live_server.url, width=390, height=844)
    page = tab.open()
    # this tab's live feed stays silent (an event stream that only says "retry in 10 min"), so the page
    # still shows the old version when another client moves
    page.route("**/events?*", lambda route: route.fulfill(status=200, content_type="text/event-stream",
                                                          body="retry: 600000\n\n"))
    game_id = create_game(page, "kingpin", [("human", None), ("human", None)])
    # play as the seat that moves first (both seats are this browser's: hot seat)
    seats = json.loads(page.evaluate(f"localStorage.getItem('tabletop-cartel:seats:{game_id}')"))
    game = requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()
    mover = next(s for s, what in game["awaiting"].items() if what == "move")
    page.select_option("#play-as", mover)
    expect(page.locator("button.play-move").first).to_be_visible()
    # nothing wider than a phone: no sideways scrolling of the page
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    # keyboard reachable: Tab from the top reaches a move button
    page.keyboard.press("Tab")
    for _ in range(60):
        if page.evaluate("document.activeElement.classList.contains('play-move')"):
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('play-move')")
    # another client (the same seat, elsewhere) moves first: the page's click meets a 409, refreshes, says so
    move = json.loads(page.locator("button.play-move").first.get_attribute("data-move"))
    sent = requests.post(f"{live_server.url}/v1/games/{game_id}/commands", json=move, timeout=10,
                         headers={"Authorization": f"Bearer {seats[mover]}", "If-Match": f'"{game["version"]}"'})
    assert sent.status_code == 200, sent.text
    page.locator("button.play-move").first.click()
    expect(page.locator(".notice")).to_contain_text("refreshed")
    assert version_of(page) > game["version"]  # the page shows the game as it is now
    tab.shot("phone-conflict")
    tab.close(expected=("status of 409",))


# ---- the boards of the other three games: drawn from the served data and the seat's view alone ------------

def seat_token(page: Page, game_id: str, seat: int = 0) -> str:
    return json.loads(page.evaluate(f"localStorage.getItem('tabletop-cartel:seats:{game_id}')"))[str(seat)]


def game_as(server, game_id: str, token: str) -> dict:
    return requests.get(f"{server.url}/v1/games/{game_id}", headers={"Authorization": f"Bearer {token}"}, timeout=10).json()


def names(move: dict, value: str) -> bool:
    """moves.js mentions(): "arg=value" names one argument; a bare value any argument."""
    arg, _, wanted = value.partition("=") if "=" in value else (None, None, value)
    args = {k: v for k, v in move.items() if k != "type" and (arg is None or k == arg)}
    return any(str(x) == wanted for v in args.values() for x in (v if isinstance(v, list) else [v]))


def shown_moves(page: Page) -> list[dict]:
    """Every move the moves panel offers: a button's, or all of a stepper's or a picker's (data-options)."""
    return page.evaluate("""() => [...document.querySelectorAll('.moves-section .moves > .move')].flatMap((item) =>
        item.dataset.options ? JSON.parse(item.dataset.options)
            : [...item.querySelectorAll(':scope > button.play-move[data-move]')].map((b) => JSON.parse(b.dataset.move)))""")


def sorted_moves(moves: list[dict]) -> list[str]:
    return sorted(json.dumps(m, sort_keys=True) for m in moves)


def pick_and_check(page: Page, server, game_id: str, token: str, element, keyboard: bool = False) -> tuple[str, list[dict]]:
    """Pick a board element by clicking it (or focusing it and pressing Enter): the moves panel then lists
    exactly the legal moves naming it."""
    value, label = element.get_attribute("data-pick"), element.get_attribute("aria-label")
    expect(element).to_have_attribute("aria-pressed", "false")
    if keyboard:
        element.focus()
        page.keyboard.press("Enter")
    else:
        element.click()
    if label:
        expect(page.locator(".picked-what")).to_have_text(f"Moves for {label}")
    else:  # the thing's name, never its id (issue 38: "Moves for storage-8-4" read as an id)
        expect(page.locator(".picked-what")).to_contain_text("Moves for ")
        expect(page.locator(".picked-what")).not_to_contain_text(value)
    legal = [m for m in game_as(server, game_id, token)["legal_moves"] if names(m, value)]
    assert legal, f"{value} is pickable but no legal move names it"
    assert sorted_moves(shown_moves(page)) == sorted_moves(legal)
    expect(page.locator(f"[data-pick='{value}']").first).to_have_attribute("aria-pressed", "true")
    return value, legal


def wait_for_my_move(page: Page, timeout: float = 30) -> None:
    """Until the page offers a move (a button, a stepper's, a set to choose: its confirming button may wait)."""
    page.wait_for_selector(".moves-section .moves > .move, .moves-section .sway-panel", timeout=timeout * 1000)


def only_mine_awaited(page: Page, server, game_id: str, token: str, seconds: float = 15) -> None:
    """Wait (a while) until the bots' simultaneous setup moves are in and the page shows the game's
    version: a pick made then is not overtaken by a bot's move (the page sends If-Match, and a move
    that lands first makes ours a 409)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        game = game_as(server, game_id, token)
        if game["awaiting_seats"] == [game["you"]] and version_of(page) >= game["version"]:
            return
        time.sleep(0.2)


def spectator_sees(browser, server, game_id: str, selector: str, count: int) -> None:
    """The same board drawn from the spectator's view (no secrets in it, no seat, nothing pickable)."""
    watcher = Tab(browser, server.url)
    page = watcher.open(f"#/games/{game_id}")
    expect(page.locator("text=You are watching")).to_be_visible()
    expect(page.locator(selector)).to_have_count(count)
    expect(page.locator(".board [data-pick]")).to_have_count(0)
    watcher.close()


def new_game_with_bots(live_server, browser, ruleset: str, bots: int = 2) -> tuple[dict, Tab, Page, str, str]:
    """The ruleset's served data, and a game created through the lobby form: seat 0 this tab's, the rest
    random bots; the tab, its page, the game id and seat 0's token."""
    data = requests.get(f"{live_server.url}/v1/rulesets/{ruleset}/data", timeout=10).json()["data"]
    tab = Tab(browser, live_server.url)
    page = tab.open()
    game_id = create_game(page, ruleset, [("human", None)] + [("bot", "random")] * bots)
    return data, tab, page, game_id, seat_token(page, game_id)


def at_phone_width(tab: Tab, name: str) -> None:
    """The board fits a phone: nothing wider than the screen (tables scroll inside their own box)."""
    tab.page.set_viewport_size({"width": 390, "height": 844})
    tab.page.wait_for_timeout(100)
    assert tab.page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    assert tab.page.evaluate("document.querySelector('.board').getBoundingClientRect().width <= window.innerWidth")
    tab.shot(name)


def test_lords_of_cannabis_board_draws_the_data_and_picks_intersections_and_paths(live_server, browser):
    data, tab, page, game_id, token = new_game_with_bots(live_server, browser, "lords_of_cannabis")
    data = data["board"]
    board = page.locator("svg.loc")
    expect(board.locator("g.brick")).to_have_count(len(data["bricks"]))
    expect(board.locator("g.intersection")).to_have_count(len(data["intersections"]))
    expect(board.locator("g.path")).to_have_count(len(data["paths"]))
    expect(board.locator("g.dock")).to_have_count(len(data["docks"]))
    # every brick shows the chip the view gives it
    view = game_as(live_server, game_id, token)["view"]
    chips = {str(b["id"]): str(b["chip"]) for b in view["board"]["bricks"]}
    assert {b.get_attribute("data-brick"): b.get_attribute("data-chip") for b in board.locator("g.brick").all()} == chips

    # Lords of Cannabis, Placement: a Greenhouse on a vacant intersection -- the intersections are picked
    wait_for_my_move(page)
    game = game_as(live_server, game_id, token)
    places = {m["at"] for m in game["legal_moves"] if m["type"] == "PlaceGreenhouse"}
    expect(board.locator("g.intersection.pickable")).to_have_count(len(places))
    at, legal = pick_and_check(page, live_server, game_id, token, board.locator("g.intersection.pickable").first)
    assert [m["type"] for m in legal] == ["PlaceGreenhouse"]  # intersection 4, not brick 4 nor path 4
    assert click_a_move(page)
    expect(board.locator(f"g.intersection[data-intersection='{at[3:]}'][data-owner='0']")).to_have_count(1)
    # then the Tunnel touching it: the paths are picked
    paths = [m["path"] for m in game_as(live_server, game_id, token)["legal_moves"] if m["type"] == "PlaceTunnel"]
    expect(board.locator("g.path.pickable")).to_have_count(len(paths))
    pick_and_check(page, live_server, game_id, token, board.locator("g.path.pickable").last, keyboard=True)
    assert click_a_move(page)
    expect(board.locator("g.path.tunnel[data-owner='0']")).to_have_count(1)
    for _ in range(3):  # a few more moves as they come (the second placement round, bots in between)
        wait_for_my_move(page)
        click_a_move(page)
    expect(page.locator(".loc-players tbody tr")).to_have_count(3)
    tab.shot("lords-of-cannabis-board")
    at_phone_width(tab, "lords-of-cannabis-phone")
    tab.close()
    spectator_sees(browser, live_server, game_id, "svg.loc g.brick", len(data["bricks"]))


def test_trafficking_board_draws_every_square_and_line_and_picks_what_the_moves_name(live_server, browser):
    data, tab, page, game_id, token = new_game_with_bots(live_server, browser, "trafficking")
    data = data["board"]
    board = page.locator("svg.trafficking-board")
    expect(board.locator("g.square")).to_have_count(len(data["squares"]))
    expect(board.locator(".lines line")).to_have_count(len(data["lines"]))
    expect(board.locator("g.square.kind-cop_shop")).to_have_count(len(data["cop_shops"]))
    wait_for_my_move(page)
    game = game_as(live_server, game_id, token)
    # setup moves are simultaneous with the bots': a pick whose move a bot's beat to the server is picked again
    if game["view"]["narc"] == 0:
        # Trafficking 3f: the Narc places his piece on one of the four Cop Shops -- the squares are picked
        expect(board.locator("g.square.pickable")).to_have_count(len(data["cop_shops"]))
        for _ in range(5):
            only_mine_awaited(page, live_server, game_id, token)
            square, moves = pick_and_check(page, live_server, game_id, token, board.locator("g.square.pickable").first)
            assert square in data["cop_shops"] and len(moves) == 1
            # the move the pick lists, by what it is: a redraw between the pick and the click may list them all
            if placed := click_a_move(page, moves[0]):
                break
        assert placed, "five picks of a Cop Shop each met a 409"
        narc = next(p for p in game_as(live_server, game_id, token)["view"]["players"] if p["role"] == "narc")
        assert narc["square"] == square, narc  # the server has the Narc where the page placed him
        expect(board.locator(f"g.square[data-square='{square}'] g.pawn.narc[data-seat='0']")).to_have_count(1, timeout=15_000)
    else:
        # Trafficking 3d: a Dealer chooses a character -- the free Dealers are picked
        for _ in range(5):
            only_mine_awaited(page, live_server, game_id, token)
            free = {m["dealer"] for m in game_as(live_server, game_id, token)["legal_moves"] if m["type"] == "ChooseDealer"}
            expect(page.locator(".trafficking .card.pickable")).to_have_count(len(free))
            dealer, _ = pick_and_check(page, live_server, game_id, token, page.locator(".trafficking .card.pickable").first)
            if chosen := click_a_move(page):
                break
        assert chosen, "five picks of a Dealer each met a 409"
        expect(page.locator(".trafficking-players tr[data-seat='0']")).to_contain_text(
            next(d["name"] for d in data["dealers"] if d["id"] == dealer))
        # no square is pickable while no move names one
        wait_for_my_move(page)
        assert not any("to" in m or "square" in m for m in game_as(live_server, game_id, token)["legal_moves"])
        expect(board.locator("g.square.pickable")).to_have_count(0)
    for _ in range(3):
        wait_for_my_move(page)
        click_a_move(page)
    # every seat's pawn on its square, as the view has it once the bots have moved and the game waits on us
    # (read while a bot is still moving, the view is a position the page has already drawn past)
    for _ in range(150):
        game = game_as(live_server, game_id, token)
        if game["you"] in game["awaiting_seats"] or game["status"] != "active":
            break
        time.sleep(0.2)
    for p in game["view"]["players"]:
        if p["square"]:
            expect(board.locator(f"g.square[data-square='{p['square']}'] g.pawn[data-seat='{p['seat']}']")).to_have_count(1)
    tab.shot("trafficking-board")
    at_phone_width(tab, "trafficking-phone")
    tab.close()
    spectator_sees(browser, live_server, game_id, "svg.trafficking-board g.square", len(data["squares"]))


def test_narcos_table_shows_the_networks_rack_and_cities_and_picks_cards(live_server, browser):
    data, tab, page, game_id, token = new_game_with_bots(live_server, browser, "narcos", bots=1)
    expect(page.locator(".narcos .city")).to_have_count(len(data["cities"]))
    expect(page.locator(".narcos-players .player")).to_have_count(2)
    # Narcos 6.1: turning cards fills the rack; a card a move names (a Dealer to deliver to, a card to buy, a
    # Cartel card to play or spend) is picked on the table
    deadline, clicks = time.monotonic() + 25, 0
    while not page.locator(".narcos [data-pick]").count():
        assert time.monotonic() < deadline, f"no card became pickable in {clicks} clicks"
        wait_for_my_move(page)
        if not page.locator(".narcos [data-pick]").count():
            clicks += click_a_move(page)
    game = game_as(live_server, game_id, token)
    view = game["view"]
    expect(page.locator(".rack .narcos-card")).to_have_count(len(view["turn"]["table"]))
    expect(page.locator(".rack .sirens")).to_have_attribute("data-sirens", str(view["turn"]["sirens"]))
    me = page.locator(".narcos-players .player[data-seat='0']")
    expect(me.locator(".goods").first).to_have_attribute("data-goods", str(view["players"][0]["lab"]))
    pick_and_check(page, live_server, game_id, token, page.locator(".narcos [data-pick]").first)
    assert click_a_move(page)
    for _ in range(3):
        wait_for_my_move(page)
        click_a_move(page)
    tab.shot("narcos-table")
    at_phone_width(tab, "narcos-phone")
    tab.close()
    spectator_sees(browser, live_server, game_id, ".narcos .city", len(data["cities"]))


def test_a_forced_move_is_one_click_and_ending_a_turn_early_asks_first(live_server, browser):
    """Issue 27: a single legal move is proposed as one prominent button; an End move while other moves
    are still listed asks inline before it sends anything (and "Keep playing" sends nothing)."""
    tab = Tab(browser, live_server.url)
    page = tab.open()
    game_id = create_game(page, "kingpin", [("human", None), ("human", None)])
    # play as the seat that moves first (both seats are this browser's: hot seat)
    game = requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()
    mover = next(s for s, what in game["awaiting"].items() if what == "move")
    page.select_option("#play-as", mover)
    token = seat_token(page, game_id, int(mover))
    # Kingpin: buy until the money runs out, then the roll is the only move
    for _ in range(20):
        wait_for_my_move(page)
        legal = game_as(live_server, game_id, token)["legal_moves"]
        if len(legal) == 1:
            break
        expect(page.locator("button.play-move.forced")).to_have_count(0)
        click_a_move(page)
    else:
        pytest.fail("never a single legal move")
    forced = page.locator("button.play-move.forced")
    expect(forced).to_have_count(1)
    expect(forced).to_have_text("Do it: Roll the dice")
    tab.shot("forced-move")
    before = version_of(page)
    forced.click()
    page.wait_for_function(f"() => {SHOWN_VERSION} > {before}")
    # play until an End move is listed among others
    for _ in range(30):
        wait_for_my_move(page)
        moves = [json.loads(b.get_attribute("data-move")) for b in page.locator("button.play-move").all()]
        ends = [m for m in moves if m["type"].startswith("End")]
        if ends and len(moves) > len(ends):
            break
        click_a_move(page)
    else:
        pytest.fail("no End move was ever listed beside another move")
    expect(page.locator("button.play-move.forced")).to_have_count(0)
    open_moves = len(moves) - len(ends)
    end = page.locator(f"button.play-move[data-move='{json.dumps(ends[0], separators=(',', ':'))}']")
    version = version_of(page)
    end.click()
    ask = page.locator(".confirm-end")
    expect(ask).to_contain_text(f"End your turn with {open_moves} move{'' if open_moves == 1 else 's'} still open?")
    tab.shot("confirm-end")
    ask.locator("button.confirm-no").click()
    expect(ask).to_have_count(0)
    page.wait_for_timeout(300)
    assert version_of(page) == version == game_as(live_server, game_id, token)["version"]  # nothing sent
    end.click()
    page.locator(".confirm-end button.confirm-yes").click()
    page.wait_for_function(f"() => {SHOWN_VERSION} > {version}")
    assert game_as(live_server, game_id, token)["view"]["current"] != int(mover)  # the turn did end
    tab.close()


def test_kingpin_table_shows_your_cards_first_with_the_counts_and_the_cards_printed_names(live_server, browser):
    data, tab, page, game_id, token = new_game_with_bots(live_server, browser, "kingpin", bots=2)
    wait_for_my_move(page)
    view = game_as(live_server, game_id, token)["view"]
    me = view["players"][0]
    first = page.locator(".kingpin .player").first
    expect(first).to_have_attribute("data-seat", "0")  # your cards come first, apart from the opponents'
    # (a seat whose cards just changed is also outlined for a moment: "touched")
    expect(first).to_have_class(re.compile(r"^panel player mine current( touched)?$"))
    expect(first.locator("h2")).to_contain_text("Your cards")
    expect(first.locator(".bankroll")).to_have_text(f"${me['bankroll']:,}")
    trucks = [c for c in me["cards"] if c["type"] == "truck"]
    expect(first.locator(".tally")).to_contain_text(f"{sum(c['hits'] for c in trucks)}/{sum(c['size'] for c in trucks)} Hits on "
                                                    f"{len(trucks)} Truck")
    expect(first.locator(".card b")).to_have_text([c["name"] for c in me["cards"]])
    expect(page.locator(".kingpin .player:not(.mine)")).to_have_count(2)
    at_phone_width(tab, "kingpin-table-phone")
    tab.close()
