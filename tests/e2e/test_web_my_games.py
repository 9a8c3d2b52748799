"""My games and "your turn" notices (issue 38 item 9), in Debian's Chromium against the real stack.  The page
makes its player at the first seat it creates or takes (clients/web/js/player.js), lists the player's games
(mine.js) and follows the player's stream (GET /v1/players/me/stream) on every page (notices.js).  The other
side of each table is a player played over HTTP, as another client or a bot would."""
from __future__ import annotations

import re
import secrets
import time

import requests
from playwright.sync_api import Page, expect

from tests.e2e.test_web_accessibility import AxeTab, axe_script, violations  # noqa: F401  (axe_script: the fixture)
from tests.e2e.test_web_frontend import SCREENSHOTS, Tab, browser  # noqa: F401  (browser: the fixture)
from tests.e2e.test_web_people import seat_numbers_read

TIMEOUT = 10
PHONE = (390, 844)


def new_player(base: str, name: str) -> dict:
    """A player made over HTTP (another client): `name`, or it with letters after it if a test took it first."""
    for tried in (name, f"{name}-{''.join(secrets.choice('abcdefghjkmnpqrstuvwxyz') for _ in range(5))}"):
        made = requests.post(f"{base}/v1/players", json={"name": tried}, timeout=TIMEOUT)
        if made.status_code == 201:
            return made.json()
    raise AssertionError(made.text)


def create_as_player(page: Page, name: str | None = None, ruleset: str = "kingpin") -> str:
    """The lobby's New game form: this browser's seat first, an open seat second (Kingpin to 3000); the game's id."""
    if not re.search(r"#/?$", page.url):
        page.goto(page.url.split("#")[0] + "#/")
    page.wait_for_selector("#create-game")
    page.select_option("#create-ruleset", ruleset)
    page.select_option("#seat-count", "2")
    page.select_option("select[name=kind-0]", "human")
    page.select_option("select[name=kind-1]", "open")
    if ruleset == "kingpin":
        page.select_option("#option-target", "3000")
    if name:
        page.fill("input[name=name-0]", name)
    page.click("#create-game button[type=submit]")
    page.wait_for_url("**/#/games/*")
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def claim(base: str, game_id: str, seat: int, key: str) -> str:
    """Take the seat with the player's key (bound to them), sending its entropy: the game starts; its token."""
    taken = requests.post(f"{base}/v1/games/{game_id}/seats/{seat}/claim", headers={"Authorization": f"Bearer {key}"},
                          json={"entropy": secrets.token_hex(16)}, timeout=TIMEOUT)
    assert taken.status_code == 201, taken.text
    return taken.json()["token"]


def document(base: str, game_id: str, token: str | None = None) -> dict:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return requests.get(f"{base}/v1/games/{game_id}", headers=headers, timeout=TIMEOUT).json()


def wait_for(check, what: str, seconds: float = 60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def play_turn_away(base: str, game_id: str, seat: int, token: str) -> None:
    """Play `seat`'s legal moves (ending the turn when it may) until the seat is no longer awaited."""
    wait_for(lambda: document(base, game_id)["status"] == "active", "the game to start")
    for _ in range(60):
        doc = document(base, game_id, token)
        if str(seat) not in doc["awaiting"]:
            return
        moves = doc["legal_moves"]
        if not moves:
            wait_for(lambda: document(base, game_id, token)["legal_moves"] or str(seat) not in document(base, game_id)["awaiting"],
                     "a move")
            continue
        move = next((m for m in moves if m["type"] == "EndTurn"), moves[0])
        requests.post(f"{base}/v1/games/{game_id}/commands", headers={"Authorization": f"Bearer {token}"}, json=move,
                      timeout=TIMEOUT)
    raise AssertionError(f"seat {seat} still awaited in {game_id}")


def awaits(base: str, game_id: str, seat: int) -> bool:
    doc = document(base, game_id)
    return doc["status"] == "active" and str(seat) in doc["awaiting"]


def held_token(page: Page, game_id: str, seat: int) -> str:
    return page.evaluate(f"JSON.parse(localStorage.getItem('tabletop-cartel:seats:{game_id}'))[{seat}]")


def two_games(page: Page, base: str, me: str, other: dict) -> tuple[str, str, dict[str, str]]:
    """Two Kingpin games of this browser's player against `other`: the first with the player to move, the
    second with `other` to move (the player's turn played away over HTTP with the token the page holds); their
    ids and `other`'s tokens."""
    first = create_as_player(page, me)
    second = create_as_player(page)
    tokens = {g: claim(base, g, 1, other["key"]) for g in (first, second)}
    for game_id in (first, second):
        wait_for(lambda: document(base, game_id)["status"] == "active", "the game to start")
        # Kingpin's first player is the first seat; a game where the other starts is played round to the player
        if not awaits(base, game_id, 0):
            play_turn_away(base, game_id, 1, tokens[game_id])
    play_turn_away(base, second, 0, held_token(page, second, 0))
    wait_for(lambda: awaits(base, second, 1), "the other player's turn")
    return first, second, tokens


def test_my_games_lists_both_games_with_your_turn_on_the_right_one(live_server, browser):  # noqa: F811
    """The player made at the first creation (under the name typed for the seat) has two games against Bo: My
    games lists both, in play, with "Your turn" on the one where it is, "Bo's turn" on the other, and links that
    open each; after the end a game moves under Finished with its result.  On a phone as on a desktop."""
    bo = new_player(live_server.url, "Bo")
    host = Tab(browser, live_server.url)
    page = host.open()
    first, second, tokens = two_games(page, live_server.url, "Mara", bo)
    assert document(live_server.url, first)["seats"][0]["name"] == "Mara"  # the player's name, bound to the seat
    assert document(live_server.url, second)["seats"][0]["name"] == "Mara"

    page.goto(f"{live_server.url}/#/mine")
    mine = page.locator(".my-games")
    expect(mine.locator(".mine-who")).to_contain_text("You play as Mara")
    rows = mine.locator(".mine-list.playing .mine-game")
    expect(rows).to_have_count(2)
    yours = mine.locator(f".mine-game[data-game='{first}']")
    theirs = mine.locator(f".mine-game[data-game='{second}']")
    expect(yours).to_have_class(re.compile(r"\byour-turn\b"))
    expect(yours.locator(".mine-yours")).to_have_text("Your turn")
    expect(yours.locator(".mine-open")).to_have_text(f"Kingpin against {bo['name']}")
    expect(theirs).not_to_have_class(re.compile(r"\byour-turn\b"))
    expect(theirs.locator(".mine-turn")).to_have_text(f"{bo['name']}'s turn")
    assert rows.first.get_attribute("data-game") == first  # your turn first
    host.shot("my-games-desktop")
    assert not seat_numbers_read(page), seat_numbers_read(page)

    # the link opens the game, at the player's seat: a seat token this browser lost is renewed with the player's key
    page.evaluate(f"localStorage.removeItem('tabletop-cartel:seats:{first}')")
    yours.locator(".mine-open").click()
    page.wait_for_url(f"**/#/games/{first}")
    expect(page.locator(".you[data-seat='0']")).to_contain_text("You play as Mara")
    expect(page.locator(".moves-section button.play-move").first).to_be_visible()
    assert held_token(page, first, 0)
    # the game menu leads back
    page.click("details.game-menu > summary")
    page.click(".game-menu a.mine-link")
    page.wait_for_url("**/#/mine")

    # Bo resigns the second game: it is finished, below, with its result
    requests.post(f"{live_server.url}/v1/games/{second}/seats/1/resign",
                  headers={"Authorization": f"Bearer {tokens[second]}"}, timeout=TIMEOUT).raise_for_status()
    page.goto(f"{live_server.url}/#/")  # the lobby shows My games first
    done = page.locator(f".lobby-mine .mine-list.finished .mine-game[data-game='{second}']")
    expect(done.locator(".mine-result")).to_have_text("You won")
    expect(page.locator(f".lobby-mine .mine-list.playing .mine-game[data-game='{first}'] .mine-yours")).to_have_text("Your turn")
    host.shot("my-games-lobby-desktop")

    # the same browser's storage on a phone: the same list, one card a row
    phone = browser.new_context(viewport={"width": PHONE[0], "height": PHONE[1]}, storage_state=host.context.storage_state())
    small = phone.new_page()
    small.goto(f"{live_server.url}/#/mine")
    expect(small.locator(f".mine-game[data-game='{first}'] .mine-yours")).to_have_text("Your turn")
    assert small.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "sideways scroll on a phone"
    small.screenshot(path=str(SCREENSHOTS / "my-games-phone.png"), full_page=True)
    phone.close()
    host.close()


def test_a_notice_with_a_working_link_when_another_game_becomes_your_turn_told_once(live_server, browser):  # noqa: F811
    """On game A's page, Cy (another client) plays game B round to the player: a notice says "Your turn in
    Kingpin against Cy", the tab's title says it.  The stream resumes after a reload without telling it again
    (Last-Event-ID kept in this browser): the next note shown is the next one only, in both tabs of the browser
    (one follows the stream for both); its link opens that game at the player's seat."""
    bo = new_player(live_server.url, "Cy")
    host = Tab(browser, live_server.url)
    page = host.open()
    game_a, game_b, tokens = two_games(page, live_server.url, "Juno", bo)
    third = create_as_player(page)
    tokens[third] = claim(live_server.url, third, 1, bo["key"])
    play_turn_away(live_server.url, third, 0, held_token(page, third, 0))

    page.goto(f"{live_server.url}/#/games/{game_a}")
    page.reload()  # a fresh page: what the stream said before is not told again
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    expect(page.locator("body[data-my-stream=live]")).to_be_attached()
    notices = page.locator("#notices .note-card")
    # what the stream said before this page opened about games played since is not told (B and the third: Bo's turn)
    expect(notices.filter(has_text=f"Your turn in Kingpin against {bo['name']}")).to_have_count(0)

    play_turn_away(live_server.url, game_b, 1, tokens[game_b])
    notice = page.locator(f"#notices .note-card[data-key='game:{game_b}']")
    expect(notice).to_contain_text(f"Your turn in Kingpin against {bo['name']}")
    expect(page).to_have_title(re.compile(rf"Your turn in Kingpin against {re.escape(bo['name'])}"))
    expect(page.locator(f"#notices .note-card[data-key='game:{game_a}']")).to_have_count(0)  # the game on screen says it itself
    host.shot("notice-your-turn-desktop")

    # a reload: the stream resumes after the last note; B's notice is not told again, the next note is
    page.reload()
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    expect(page.locator("body[data-my-stream=live]")).to_be_attached()
    # a second tab of the same browser: one of the two follows the stream, and both tell what it says
    other_tab = host.context.new_page()
    other_tab.goto(f"{live_server.url}/#/mine")
    expect(other_tab.locator(".mine-who")).to_contain_text("You play as Juno")
    play_turn_away(live_server.url, third, 1, tokens[third])
    expect(page.locator(f"#notices .note-card[data-key='game:{third}']")).to_contain_text("Your turn in Kingpin")
    expect(other_tab.locator(f"#notices .note-card[data-key='game:{third}']")).to_contain_text("Your turn in Kingpin")
    expect(page.locator(f"#notices .note-card[data-key='game:{game_b}']")).to_have_count(0)
    expect(notices).to_have_count(1)
    following = [p.evaluate("document.body.dataset.myStream || ''") for p in (page, other_tab)]
    assert sorted(following) == ["", "live"], following  # one connection for the browser
    other_tab.close()

    # the link opens that game at the player's seat, and the notice goes
    page.locator(f"#notices .note-card[data-key='game:{third}'] a").click()
    page.wait_for_url(f"**/#/games/{third}")
    expect(page.locator(".you[data-seat='0']")).to_contain_text("You play as Juno")
    expect(page.locator(".moves-section button.play-move").first).to_be_visible()
    expect(notices).to_have_count(0)
    expect(page).not_to_have_title(re.compile("Your turn in"))
    host.close()


def test_a_notice_on_a_phone_and_the_my_games_view_pass_axe(live_server, browser, axe_script):  # noqa: F811
    """axe-core finds no serious or critical violation on My games (desktop and phone) with a notice showing."""
    bo = new_player(live_server.url, "Dee")
    tab = AxeTab(browser, live_server.url, *PHONE)
    page = tab.open()
    game_a, game_b, tokens = two_games(page, live_server.url, "Tess", bo)
    page.goto(f"{live_server.url}/#/mine")
    expect(page.locator(f".mine-game[data-game='{game_a}'] .mine-yours")).to_have_text("Your turn")
    expect(page.locator("body[data-my-stream=live]")).to_be_attached()
    play_turn_away(live_server.url, game_b, 1, tokens[game_b])
    expect(page.locator(f"#notices .note-card[data-key='game:{game_b}']")).to_contain_text("Your turn in Kingpin")
    expect(page.locator(f".mine-game[data-game='{game_b}'] .mine-yours")).to_have_text("Your turn")  # the list follows
    page.click(".mine-settings > summary")
    tab.shot("notice-your-turn-phone")
    assert not violations(page, axe_script), violations(page, axe_script)
    page.set_viewport_size({"width": 1280, "height": 900})
    assert not violations(page, axe_script), violations(page, axe_script)
    tab.close()
