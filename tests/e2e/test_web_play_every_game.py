"""A whole game of each of the five rulesets, played through the web page as a person plays it: the
lobby's form (with the options that keep a game short), then one click after another on the moves
(and, where a move names a board thing, a click on that thing and then on the move in the popover
beside it) until the result panel names the winner -- never a command posted by the test.  Some
games at desktop size, some at phone size (390x844); WEB_PLAY_OTHER_SIZE=1 plays each at the other
size (on demand, not in CI).  No console error.

It also counts the clicks of a typical turn per game (the clicks made in one of your turns, that is
between two of the bots' moves, averaged) and prints them: `pytest -s` shows the table."""
from __future__ import annotations

import json
import os
import random
import time

import pytest
import requests
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# browser: the fixture
from tests.e2e.test_web_frontend import SHOWN_VERSION, Tab, browser, create_game, version_of  # noqa: F401

PHONE = (390, 844)
DESKTOP = (1280, 900)

# (ruleset, seats, options, viewport): you (seat 0) against bots, the shortest game each offers
GAMES = [
    ("kingpin", [("human", None), ("bot", "greedy"), ("bot", "greedy")], {"target": 3000}, DESKTOP),
    ("druglord", [("human", None), ("bot", "greedy"), ("bot", "greedy")], {"game_to": 20}, PHONE),
    ("trafficking", [("human", None), ("bot", "greedy"), ("bot", "greedy")], {}, DESKTOP),
    ("lords_of_cannabis", [("human", None), ("bot", "greedy"), ("bot", "greedy")], {}, PHONE),
    ("narcos", [("human", None), ("bot", "greedy")], {"mode": "basic"}, PHONE),
]
if os.environ.get("WEB_PLAY_OTHER_SIZE") == "1":  # on demand: each game at the size CI does not play it at
    GAMES = [(*game[:3], PHONE if game[3] == DESKTOP else DESKTOP) for game in GAMES]
GAME_SECONDS = 420
# games where you tick "Play my only move for me": the page plays a roll or a draw that is your only move
AUTOPLAY = {"kingpin", "narcos"}

# What the page counts as the board's name for a thing (pick.js's data-pick, the boards' own keys).
THING_KEYS = ["pick", "region", "card", "square", "brick", "intersection", "path", "city", "dealer"]


def mentions(move: dict, value: str) -> bool:
    """moves.js's `mentions`: a legal move names this board thing (a "name=value" names one argument)."""
    if "=" in value and value.split("=", 1)[0].replace("_", "").isalpha():
        arg, wanted = value.split("=", 1)
        given = move.get(arg)
        return any(str(v) == wanted for v in (given if isinstance(given, list) else [given] if given is not None else []))
    return any(k != "type" and (v == value or (isinstance(v, list) and value in v)) for k, v in move.items())


def game_over(page: Page) -> bool:
    return page.locator(".result h3:has-text('Game over')").count() > 0


class Player:
    """You at the table: choose a legal move (seeded, so a failure replays), play it the way a person
    would -- on the board when the board shows what it names -- and count the clicks."""

    def __init__(self, page: Page, seed: int, autoplay: bool = False):
        self.page, self.rng, self.autoplay = page, random.Random(seed), autoplay
        self.forced = 0  # clicks on a forced move that takes no choice (what "Play my only move" saves)
        self.clicks: list[tuple[int, int]] = []  # (the version the click was made at, clicks it took)
        # moves a bot's simultaneous answer beat to the server: a 409 the page refreshes through
        self.conflicts = 0
        page.on("response", self.count_conflict)

    def count_conflict(self, response) -> None:
        if response.status == 409 and response.url.endswith("/commands"):
            self.conflicts += 1

    def choose(self, moves: list[dict]) -> dict:
        # a person ends the turn when nothing else appeals: prefer doing something, but not forever
        doing = [m for m in moves if not m["type"].startswith(("End", "Pass", "Decline"))]
        return self.rng.choice(doing if doing and self.rng.random() < 0.7 else moves)

    def pickables(self) -> list[tuple[str, str]]:
        """(value, selector) of each pickable thing on the board a person can see (a board re-renders
        as events arrive: the selector names the thing by its value, not by the element)."""
        found = self.page.evaluate("""keys => [...document.querySelectorAll('.board .pickable')].map((el) => {
            const key = keys.find((k) => el.dataset[k] !== undefined);
            return key ? [el.dataset[key], `.board .pickable[data-${key}="${CSS.escape(el.dataset[key])}"]`] : null;
        }).filter(Boolean)""", THING_KEYS)
        return [(value, selector) for value, selector in found if self.page.locator(selector).first.is_visible()]

    def play_once(self) -> bool:
        """Play one move if the page offers any; True when one was played."""
        page = self.page
        buttons = page.locator("button.play-move:enabled")
        if not buttons.count():
            page.wait_for_timeout(150)
            return False
        moves = [json.loads(b) for b in buttons.evaluate_all("bs => bs.map((b) => b.dataset.move)")]
        if not moves:  # gone between the count and the read: the page sent one (played for you) or redrew
            return False
        simple = len(moves) == 1 and list(moves[0]) == ["type"] and page.locator("button.play-move.forced").count() == 1
        if simple and self.autoplay:  # the page plays it: wait for it to
            page.wait_for_timeout(150)
            return False
        self.forced += simple
        move = self.choose(moves)
        before = version_of(page)
        on_board = [(value, sel) for value, sel in self.pickables() if mentions(move, value)]
        wanted = json.dumps(move, separators=(",", ":"))
        if on_board:
            value, selector = self.rng.choice(on_board)
            if page.locator(selector).first.get_attribute("aria-pressed") != "true":  # else its popover is open
                page.locator(selector).first.click()
            popover = page.locator(f".popover button.popover-move[data-move='{wanted}']")
            # one tap opens it, even when a live event arrives between the press and the release (the
            # board waits for the release to redraw: the click once landed on a replaced element)
            if not popover_opened(page):
                # the game moved on under the tap (a bot's move, or one played for you, redrew the board
                # without it): a person looks again; a tap on a board that did not change is lost
                assert version_of(page) != before or not page.locator(selector).count(), \
                    f"the tap on {value} opened nothing"
                return False
            if popover.count():
                popover.first.click()
                taken = 2
            else:  # the popover is the board's view of it: the same move from the list, without the pick
                close = page.locator(".popover button:has-text('Close')")
                try:
                    close.click(timeout=5000)
                except PlaywrightTimeout:  # a live event redrew the board and closed it first (CI saw it once)
                    if close.count():  # still open but not clickable: a failure
                        raise
                if not click_listed(page, wanted):
                    return False
                taken = 3 + confirm_end(page)
        else:
            if not click_listed(page, wanted):
                return False
            taken = 1 + confirm_end(page)
        page.wait_for_function(f"() => {SHOWN_VERSION} > {before} || document.querySelector('#main .notice.bad')")
        bad = page.locator("#main .notice.bad")
        # a bot answering first is a conflict the page refreshes through; anything else is a failure
        assert not bad.count() or "moved on" in bad.inner_text(), bad.inner_text()
        self.clicks.append((before, taken))
        return True


def click_listed(page: Page, wanted: str) -> bool:
    """Click the listed move `wanted` (its data-move); False when it left the list first.

    The list can change under a choice: the other seat acted, a move was played for you, or (in
    Druglord's loading, where everyone draws Weight from one supply at once) bots drew the last markers
    a chosen LoadWeight needed; CI once saw a LoadWeight leave the list between the popover's Close and
    the click.  A person then looks again; a button still there but not clickable is a failure."""
    button = page.locator(f"button.play-move[data-move='{wanted}']").first
    try:
        button.click(timeout=5000)
        return True
    except PlaywrightTimeout:
        if button.count():
            raise
        return False


def popover_opened(page: Page, seconds: float = 3) -> bool:
    """Whether the moves popover opened after a tap on the board."""
    try:
        page.locator(".popover").wait_for(state="visible", timeout=seconds * 1000)
        return True
    except PlaywrightTimeout:
        return False


def confirm_end(page) -> int:
    """Ending a turn with other moves still listed asks first, inline: say yes (the click it takes)."""
    yes = page.locator(".confirm-end button.confirm-yes")
    if not yes.count():
        return 0
    yes.first.click()
    return 1


def your_turns(events: list[dict], seat: int = 0) -> int:
    """Your turns: the runs of your events between other seats' events (the table's own are neither)."""
    turns, mine = 0, False
    for event in events:
        if event["actor"] == f"seat:{seat}":
            turns += not mine
            mine = True
        elif event["actor"] != "system":
            mine = False
    return turns


def clicks_per_turn(clicks: list[tuple[int, int]], events: list[dict], seat: int = 0) -> float:
    """Your clicks over your turns (moves the page played for you are turns without a click)."""
    return sum(taken for _, taken in clicks) / max(1, your_turns(events, seat))


def all_events(base: str, game_id: str) -> list[dict]:
    events, after = [], 0
    while True:
        page = requests.get(f"{base}/v1/games/{game_id}/events", params={"after": after}, timeout=10).json()
        batch = page["events"] if isinstance(page, dict) else page
        if not batch:
            return events
        events += batch
        after = batch[-1]["version"]


# each game its own xdist group (tests/conftest.py), so the five games, 15-50 s each, run on whichever test
# processes are free instead of one after another on one (each process starts its own browser)
@pytest.mark.parametrize("ruleset,seats,options,viewport",
                         [pytest.param(*g, marks=pytest.mark.xdist_group(f"web-play-{g[0]}")) for g in GAMES],
                         ids=[g[0] for g in GAMES])
def test_a_whole_game_played_by_clicking_to_the_result(live_server, browser, ruleset, seats, options, viewport):  # noqa: F811
    tab = Tab(browser, live_server.url, *viewport)
    page = tab.open()
    expect(page.locator("h1")).to_have_text("Lobby")
    game_id = create_game(page, ruleset, seats, options)
    expect(page.locator("text=You play seat 0.")).to_be_visible()
    me = Player(page, seed=sum(map(ord, ruleset)), autoplay=ruleset in AUTOPLAY)
    if me.autoplay:
        page.get_by_label("Play my only move for me").check()
        # the page waits 800 ms for a person to read the table before it plays the move; 100 here, or a
        # Narcos game waits a minute in all (what is checked: that the page, not the test, plays it)
        page.evaluate("window.cartelForcedDelayMs = 100")
    started, deadline = time.monotonic(), time.monotonic() + GAME_SECONDS
    while not game_over(page):
        assert time.monotonic() < deadline, f"{ruleset}: no end after {len(me.clicks)} moves"
        me.play_once()
    seconds = time.monotonic() - started
    tab.shot(f"{ruleset}-whole-game-over")

    final = requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()
    assert final["status"] == "finished"
    given = final["outcome"].get("winners", final["outcome"].get("winner"))
    winners = given if isinstance(given, list) else [given]
    assert winners and winners[0] is not None, final["outcome"]
    names = ["You" if s == 0 else f"Bot {s}" for s in winners]
    result = page.locator(".result")
    for name in names:
        expect(result).to_contain_text(name)
    expect(result.locator("b").first).to_contain_text("win")
    assert me.clicks, "the game ended before you moved"
    # the page never scrolls sideways, at either size
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), "the page overflows sideways"
    events = all_events(live_server.url, game_id)
    per_turn, turns = clicks_per_turn(me.clicks, events), your_turns(events)
    board = sum(1 for _, taken in me.clicks if taken > 1)
    # your commands (each is one command id on your events; taking the seat is the lobby's, not a move)
    commands = len({e["command_id"] for e in events if e["actor"] == "seat:0" and e["type"] != "SeatClaimed"})
    if me.autoplay:  # the page played some of your moves, unclicked
        assert len(me.clicks) < commands, f"'Play my only move for me' played nothing: {len(me.clicks)} clicked of {commands}"
    saved = (f"{(sum(t for _, t in me.clicks) - me.forced) / max(1, turns):.2f} with 'Play my only move for me'"
             if not me.autoplay else "'Play my only move for me' on")
    print(f"\nCLICKS {ruleset} {viewport[0]}x{viewport[1]}: {len(me.clicks)} moves clicked, {board} on the board, "
          f"{sum(t for _, t in me.clicks)} clicks over {turns} turns: {per_turn:.2f} clicks per turn ({saved}; "
          f"{commands / max(1, turns):.2f} moves per turn, one click each from a list); "
          f"{seconds:.0f} s, v{final['version']}")
    # the browser logs the 409 of a move a bot beat to the server; the page said so and refreshed (above)
    tab.close(expected=("status of 409",) if me.conflicts else ())
