"""The people at the table (issue 38 item 9), in Debian's Chromium against the real stack: a friend opens the
invitation link and takes the open seat with a name; the two chat, live; each sees the other here; resign
and abort ask first; after the end the rematch is asked, accepted, and both pages follow it to the new game.
Every label names people by name or colour, never by seat number (READ_THE_PAGE, ID_PATTERNS)."""
from __future__ import annotations

import re

import requests
from playwright.sync_api import Page, expect

from tests.e2e.test_web_frontend import Tab, browser, create_game  # noqa: F401  (browser: the fixture)
from tests.e2e.test_web_play_every_game import ID_PATTERNS, READ_THE_PAGE
from tests.e2e.test_web_table import PHONE, set_pace


def game(server, game_id: str) -> dict:
    return requests.get(f"{server.url}/v1/games/{game_id}", timeout=10).json()


def seat_numbers_read(page: Page) -> list[str]:
    """What a player reads on the page that names a seat by its number."""
    return [f"{where}: {text}" for where, text in page.evaluate(READ_THE_PAGE)
            if re.search(ID_PATTERNS["seat number"], text)]


def open_menu(page: Page) -> None:
    if not page.locator("details.game-menu").evaluate("d => d.open"):
        page.click("details.game-menu > summary")


def test_a_friend_takes_the_open_seat_by_the_invitation_link_with_a_name_chats_resigns_and_rematches(live_server, browser):  # noqa: F811
    """The invitation link is the game's address, copied; the friend (on a phone) takes the open seat with a
    name; a message each way arrives live; each page shows the other here.  Resign asks first ("No" sends
    nothing); after the end one asks for a rematch, the other accepts, and both pages go to the new game,
    holding their seats there."""
    host = Tab(browser, live_server.url)
    host.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = host.open()
    set_pace(page, "instant")
    game_id = create_game(page, "kingpin", [("human", None), ("open", None)], {"target": 3000})
    open_menu(page)
    link = page.locator("input.invite-link")
    expect(link).to_have_value(f"{live_server.url}/#/games/{game_id}")
    page.click("button.copy-invite")
    expect(page.locator(".game-menu .copied")).to_have_text("Copied.")
    invitation = page.evaluate("navigator.clipboard.readText()")
    assert invitation == f"{live_server.url}/#/games/{game_id}"
    expect(page.locator(".game-menu")).to_contain_text("take the open Red seat")
    host.shot("people-invite-desktop")
    page.click("details.game-menu > summary")

    friend = Tab(browser, live_server.url, *PHONE)
    other = friend.page
    other.goto(invitation)
    set_pace(other, "instant")
    expect(other.locator("text=You are watching")).to_be_visible()
    other.fill("input[name=claim-name]", "Ana")
    other.click("form.claim-form button.take-seat")
    expect(other.locator(".you[data-seat='1']")).to_contain_text("You play as Ana")
    assert game(live_server, game_id)["seats"][1]["name"] == "Ana"
    # the host's seat carries the name the page made for its player (player.js: none was typed)
    host_name = game(live_server, game_id)["seats"][0]["name"]
    assert re.fullmatch(r"[A-Z][a-z]+-[A-Z][a-z]+-[a-z]{3}", host_name), host_name
    friend.shot("people-seat-taken-phone")

    # chat, live both ways; each sees the other here (a live follower: the turn states, or the page's look)
    other.fill("input[name=chat-text]", "hello from Ana")
    other.click("button.chat-send")
    expect(page.locator(".chat-log li", has_text="hello from Ana")).to_contain_text("Ana: hello from Ana")
    page.fill("input[name=chat-text]", "welcome")
    page.press("input[name=chat-text]", "Enter")
    expect(other.locator(".chat-log li", has_text="welcome")).to_contain_text(f"{host_name}: welcome")
    expect(page.locator(".presence .person.here[data-seat='1']")).to_contain_text("Ana")
    expect(other.locator(".presence .person.here[data-seat='0']")).to_contain_text(host_name)
    expect(page.locator(".presence input[name=chat-name], .chat-form input[name=chat-name]")).to_be_hidden()
    host.shot("people-chat-desktop")
    friend.shot("people-chat-phone")
    assert not seat_numbers_read(page) and not seat_numbers_read(other), seat_numbers_read(page) + seat_numbers_read(other)

    # resign asks first: "No" sends nothing
    expect(page.locator(".badge.active")).to_be_visible()
    open_menu(page)
    page.click("button.table-resign")
    expect(page.locator(".confirm-table")).to_contain_text("Resign this game?")
    page.locator(".confirm-table button", has_text="No").click()
    expect(page.locator("button.table-resign")).to_be_visible()
    assert game(live_server, game_id)["status"] == "active"
    page.click("button.table-resign")
    page.click("button.confirm-resign")
    # two seats: resigning ends it, and the other player wins
    expect(page.locator(".result")).to_contain_text("Ana")
    done = game(live_server, game_id)
    assert done["status"] == "finished" and done["outcome"]["winners"] == [1], done["outcome"]

    # the rematch: asked by one, accepted by the other, followed by both
    page.click("button.ask-rematch")
    expect(page.locator(".rematch-waiting")).to_contain_text("waiting for Ana to accept")
    expect(other.locator(".rematch")).to_contain_text(f"{host_name} wants a rematch.")
    host.shot("people-rematch-asked-desktop")
    friend.shot("people-rematch-offered-phone")
    other.click("button.ask-rematch")
    other.wait_for_url(re.compile(r"#/games/(?!" + re.escape(game_id) + r"$)"))
    page.wait_for_url(re.compile(r"#/games/(?!" + re.escape(game_id) + r"$)"))
    new_id = page.url.rsplit("/", 1)[1]
    assert other.url.rsplit("/", 1)[1] == new_id
    rematch = game(live_server, new_id)
    assert rematch["rematch_of"] == game_id and rematch["seats"][1]["name"] == "Ana"
    # each page holds its seat in the new game (the same tokens)
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    expect(other.locator(".you[data-seat='1']")).to_contain_text("Ana")
    friend.close()
    host.close()


def test_abort_asks_first_and_ends_a_table_not_started_and_leave_opens_the_seat_again(live_server, browser):  # noqa: F811
    """Before the start: "Leave my seat" gives the seat back (its token forgotten by the page); "Abort the
    table" asks, then ends the table with no result and no rematch offered."""
    host = Tab(browser, live_server.url, *PHONE)
    page = host.open()
    set_pace(page, "instant")
    game_id = create_game(page, "kingpin", [("human", None), ("open", None), ("open", None)], {"target": 3000})
    # a friend takes a seat, then leaves it
    friend = Tab(browser, live_server.url)
    other = friend.open(f"#/games/{game_id}")
    other.locator("form.claim-form button.take-seat", has_text="Green").click()
    expect(other.locator(".you[data-seat='2']")).to_be_visible()
    assert 2 not in game(live_server, game_id)["open_seats"]
    open_menu(other)
    other.click("button.table-leave")
    other.click("button.confirm-leave")
    expect(other.locator("text=You are watching")).to_be_visible()
    expect(other.locator(".notice")).to_contain_text("You left your seat")
    assert 2 in game(live_server, game_id)["open_seats"]
    assert other.evaluate(f"localStorage.getItem('tabletop-cartel:seats:{game_id}')") == "{}"
    friend.close()

    open_menu(page)
    host.shot("people-menu-before-start-phone")
    assert not seat_numbers_read(page), seat_numbers_read(page)
    page.click("button.table-abort")
    expect(page.locator(".confirm-table")).to_contain_text("End this table before it starts?")
    assert game(live_server, game_id)["status"] == "open"
    page.click("button.confirm-abort")
    expect(page.locator(".result")).to_be_visible()
    done = game(live_server, game_id)
    assert done["status"] == "finished" and done["outcome"]["reason"] == "aborted", done["outcome"]
    expect(page.locator("button.ask-rematch")).to_have_count(0)
    host.close()



def test_a_private_tables_seat_link_opens_the_table_for_its_friend_alone_and_takes_the_seat_once(live_server, browser):  # noqa: F811
    """Issue 37 item 3 on the page: a table created private keeps out of the lobby; the game menu shows the
    open seat's invitation link (the creation's); a new link replaces it and the old one stops working; the
    friend who opens the new link reads the table (the address bar loses the token), takes the seat with a
    name, and the link is then used up: a stranger opening it, or the bare address, finds no game."""
    host = Tab(browser, live_server.url)
    page = host.open()
    set_pace(page, "instant")
    page.wait_for_selector("#create-game")
    page.select_option("#create-visibility", "private")
    game_id = create_game(page, "kingpin", [("human", None), ("open", None)], {"target": 3000})
    assert requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).status_code == 404  # private
    open_menu(page)
    expect(page.locator(".game-menu")).to_contain_text("This table is private")
    first = page.locator(".seat-invite[data-seat='1'] input.invite-link").input_value()
    assert first.startswith(f"{live_server.url}/#/games/{game_id}?invitation="), first
    page.click(".seat-invite[data-seat='1'] button.make-invite")
    expect(page.locator(".seat-invite[data-seat='1'] input.invite-link")).not_to_have_value(first)
    link = page.locator(".seat-invite[data-seat='1'] input.invite-link").input_value()
    host.shot("people-private-invite-desktop")
    assert not seat_numbers_read(page), seat_numbers_read(page)

    stranger = Tab(browser, live_server.url, *PHONE)
    stranger.page.goto(first)  # the replaced link admits nobody
    expect(stranger.page.locator("h1")).to_have_text("Something went wrong")
    expect(stranger.page.locator(".error")).to_contain_text("no such game")

    friend = Tab(browser, live_server.url, *PHONE)
    other = friend.page
    other.goto(link)
    set_pace(other, "instant")
    expect(other.locator("text=You are watching")).to_be_visible()
    assert "invitation" not in other.url, other.url  # the token left the address bar
    other.fill("input[name=claim-name]", "Noor")
    other.click("form.claim-form button.take-seat")
    expect(other.locator(".you[data-seat='1']")).to_contain_text("You play as Noor")
    other.reload()  # the seat's token admits from now on
    expect(other.locator(".you[data-seat='1']")).to_contain_text("You play as Noor")
    friend.shot("people-private-seat-taken-phone")

    stranger.page.goto(link)  # used up by the claim
    expect(stranger.page.locator("h1")).to_have_text("Something went wrong")
    stranger.page.goto(f"{live_server.url}/#/games/{game_id}")
    stranger.page.reload()
    expect(stranger.page.locator("h1")).to_have_text("Something went wrong")
    lobby = requests.get(f"{live_server.url}/v1/games", timeout=10).json()["games"]
    assert game_id not in [g["id"] for g in lobby]
    stranger.close(expected=("404",))
    friend.close()
    host.close()
