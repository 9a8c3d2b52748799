"""A whole game of each served ruleset, played through the web page as a person plays it: the
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
import re
import time

import pytest
import requests
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from rules import RULESETS

# browser: the fixture
from tests.e2e.test_web_frontend import SCREENSHOTS, SHOWN_VERSION, Tab, browser, create_game, version_of  # noqa: F401

PHONE = (390, 844)
DESKTOP = (1280, 900)

# Every served game: you (seat 0) against its best bots but the search, at 3 seats where it may; the
# shortest game each offers, its seats and the size it is played at where they are not those defaults
SHORTEST = {"kingpin": {"target": 3000}, "druglord": {"game_to": 20}, "narcos": {"mode": "basic"}}
SEATS = {"narcos": 2}
AT_PHONE_SIZE = {"druglord", "lords_of_cannabis", "narcos"}


def opponent(ruleset) -> str:
    """The level the bots play: the search's policy (the greedy bot), else the last level but the search."""
    return ruleset.search_settings.policy or [level for level in ruleset.bot_levels if level != "ismcts"][-1]


# (ruleset, seats, options, viewport)
GAMES = [(name, [("human", None)] + [("bot", opponent(r))] * (SEATS.get(name, max(r.min_seats, min(3, r.max_seats))) - 1),
          SHORTEST.get(name, {}), PHONE if name in AT_PHONE_SIZE else DESKTOP) for name, r in RULESETS.items()]
if os.environ.get("WEB_PLAY_OTHER_SIZE") == "1":  # on demand: each game at the size CI does not play it at
    GAMES = [(*game[:3], PHONE if game[3] == DESKTOP else DESKTOP) for game in GAMES]
STALL_SECONDS = 120  # the game's version has not moved for this long: it is stuck
CLICK_LOG = os.environ.get("WEB_PLAY_CLICK_LOG") == "1"  # print each click, its move and what was offered
# games where you tick "Play my only move for me": the page plays a roll or a draw that is your only move
# (Druglord: ending an action after a Baller draw or a last trade, when nothing else is left)
AUTOPLAY = {"kingpin", "narcos", "druglord"}

# Druglord's moves that roll your own die: the page shows a Sway stepper beside them (sway.js rollsYours)
ROLLS_YOURS = {"Trade", "ReRoll", "Attack", "PressAttack", "Counterattack"}

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
    """You at the table: choose what to do among what the page offers (seeded, so a failure replays), do it
    the way a person would -- on the board when the board shows what a move names, with the stepper or the
    toggles where the page asks a choice in parts -- and count the clicks."""

    def __init__(self, page: Page, seed: int, autoplay: bool = False, scan: bool = False, avoid: tuple[str, ...] = ()):
        self.page, self.rng, self.autoplay, self.scan = page, random.Random(seed), autoplay, scan
        self.avoid = avoid  # move types chosen only when there is nothing else
        self.unfolded = 0  # clicks opening "Place it yourself…", counted with the move chosen next
        self.forced = 0  # clicks on a forced move that takes no choice (what "Play my only move" saves)
        self.clicks: list[tuple[int, int, str]] = []  # (the version the click was made at, clicks it took, move type)
        self.found: dict[str, set[str]] = {}  # ids and seat numbers read on the page: pattern -> "where: text"
        # moves a bot's simultaneous answer beat to the server: a 409 the page refreshes through
        self.conflicts = 0
        page.on("response", self.count_conflict)
        self.asked: dict[str, int] = {}  # the Sway questions asked, by whose roll and what kind
        self.sent: dict[str, int] = {}  # every command the page posted, by type (clicked or sent for you)
        # your own rolls' Sway windows answered with the amount chosen beside the move (Druglord)
        self.declared, self.rolling = 0, False
        page.on("request", self.count_sent)

    def count_sent(self, request) -> None:
        if request.method == "POST" and request.url.endswith("/commands"):
            kind = json.loads(request.post_data or "{}").get("type", "?")
            self.sent[kind] = self.sent.get(kind, 0) + 1
            if kind == "EndSway" and self.rolling:  # not asked: sway() clears `rolling` before its Done
                self.declared += 1
            if kind != "Sway":
                self.rolling = kind in ROLLS_YOURS

    def count_conflict(self, response) -> None:
        if response.status == 409 and response.url.endswith("/commands"):
            self.conflicts += 1

    def choose(self, options: list[tuple[str, dict]]) -> tuple[str, dict]:
        options = [o for o in options if o[1]["type"] not in self.avoid] or options
        # a person mostly takes the default the page puts first, and now and then places things themselves
        if any(o[0] == "more" for o in options) and self.rng.random() < 0.8:
            options = [o for o in options if o[0] != "more"] or options
        # an offer to the others now and then, not at every chance (a turn allows three)
        offers = ("MakeOffer", "OfferToAll", "CounterOffer")
        if any(o[1]["type"] in offers for o in options) and self.rng.random() < 0.85:
            options = [o for o in options if o[1]["type"] not in offers] or options
        # a person ends the turn when nothing else appeals: prefer doing something, but not forever
        doing = [o for o in options if not o[1]["type"].startswith(("End", "Pass", "Decline"))]
        return self.rng.choice(doing if doing and self.rng.random() < 0.7 else options)

    def pickables(self) -> list[tuple[str, str]]:
        """(value, selector) of each pickable thing on the board a person can see (a board re-renders
        as events arrive: the selector names the thing by its value, not by the element)."""
        # on a board zoomed in, what lies outside the visible part is not seen (nor tapped)
        found = self.page.evaluate("""keys => [...document.querySelectorAll('.board .pickable')].filter((el) => {
            const svg = el.closest('svg');
            if (!svg) return true;
            const r = el.getBoundingClientRect(), box = svg.getBoundingClientRect();
            const x = r.left + r.width / 2, y = r.top + r.height / 2;
            return x > box.left && x < box.right && y > box.top && y < box.bottom;
        }).map((el) => {
            const key = keys.find((k) => el.dataset[k] !== undefined);
            return key ? [el.dataset[key], `.board .pickable[data-${key}="${CSS.escape(el.dataset[key])}"]`] : null;
        }).filter(Boolean)""", THING_KEYS)
        return [(value, selector) for value, selector in found if self.page.locator(selector).first.is_visible()]

    def offered(self) -> list[tuple[str, dict]]:
        """What the moves panel offers: ("move", move) a button; ("family", move) a button with a stepper
        (any of its moves, by its data-family); ("picker", move) a set to toggle then confirm (any listed
        option); ("offer", command) the trade builder's; ("sway", {}) the Sway question; ("more", {type:
        its summary}) the moves in parts folded behind a default ("Place it yourself…")."""
        return self.page.evaluate("""() => {
            const panel = document.querySelector('.moves-section');
            if (panel.querySelector('.sway-panel')) return [['sway', {type: 'EndSway'}]];
            const out = [];
            const items = [];
            for (const item of panel.querySelectorAll('.moves > .move')) {
                if (!item.classList.contains('more-moves')) items.push(item);
                else if (!item.open) out.push(['more', {type: item.querySelector('summary').textContent}]);
                else items.push(...item.querySelectorAll(':scope > .more-list > .move'));
            }
            for (const item of items) {
                if (item.classList.contains('picker')) {
                    for (const move of JSON.parse(item.dataset.options)) out.push(['picker', move, item.dataset.family]);
                } else if (item.classList.contains('trade-builder')) {
                    for (const b of item.querySelectorAll('button.offer')) out.push(['offer', JSON.parse(b.dataset.move), b.dataset.move]);
                } else {
                    const b = item.querySelector(':scope > button.play-move:enabled');
                    if (b) out.push([item.classList.contains('family') ? 'family' : 'move', JSON.parse(b.dataset.move), item.dataset.family || '']);
                }
            }
            return out;
        }""")

    def play_once(self) -> bool:
        """Play one move if the page offers any; True when one was played."""
        page = self.page
        if not page.locator(".moves-section .moves > .move, .moves-section .sway-panel").count():
            page.wait_for_timeout(150)
            return False
        options = self.offered()
        if not options:  # gone between the count and the read: the page sent one (played for you) or redrew
            return False
        simple = len(options) == 1 and options[0][0] == "move" and list(options[0][1]) == ["type"] \
            and page.locator("button.play-move.forced").count() == 1
        if simple and self.autoplay:  # the page plays it: wait for it to
            page.wait_for_timeout(150)
            return False
        self.forced += simple
        before = version_of(page)
        if self.scan:
            self.read_the_page()
        self.prompt = ""
        kind, move, *extra = self.choose([(o[0], o[1], *o[2:]) for o in options])
        if kind == "more":  # unfolded: the click counts with the move chosen next
            page.locator(".moves-section details.more-moves > summary").click()
            self.unfolded += 1
            return False
        if kind == "sway":
            taken = self.sway()
        elif kind == "picker":
            taken = self.pick_set(extra[0], move)
        elif kind == "family":
            taken = self.step_family(extra[0], move)
        elif kind == "offer":
            taken = self.offer(move, extra[0])
        else:
            taken = self.click_move(move, before)
        if taken is None:
            return False
        page.wait_for_function(f"() => {SHOWN_VERSION} > {before} || document.querySelector('#main .notice.bad')")
        bad = page.locator("#main .notice.bad")
        # a bot answering first is a conflict the page refreshes through; anything else is a failure
        assert not bad.count() or "moved on" in bad.inner_text(), bad.inner_text()
        taken, self.unfolded = taken + self.unfolded, 0
        self.clicks.append((before, taken, move["type"]))
        if CLICK_LOG:  # on demand: each click's move and what the page offered beside it
            offered = {}
            for o in options:
                offered[f"{o[0]}:{o[1]['type']}"] = offered.get(f"{o[0]}:{o[1]['type']}", 0) + 1
            print(f"CLICK v{before} {kind}:{move['type']} {taken} click(s) {json.dumps(move)[:90]} | offered {offered} {self.prompt[:200]}")
        return True

    def click_move(self, move: dict, before: int) -> int | None:
        """A listed move: on the board when the board shows what it names (a tap, then the move in the
        popover beside it), else its button."""
        page = self.page
        on_board = [(value, sel) for value, sel in self.pickables() if mentions(move, value)]
        wanted = json.dumps(move, separators=(",", ":"))
        if not on_board:
            steps = self.own_sway(move, page.locator(".moves-section"))
            return steps + 1 + confirm_end(page) if click_listed(page, wanted) else None
        value, selector = self.rng.choice(on_board)
        self.sent_before = self.sent_total()
        if page.locator(selector).first.get_attribute("aria-pressed") != "true":  # else its popover is open
            page.locator(selector).first.click()
        popover = page.locator(f".popover button.popover-move[data-move='{wanted}']")
        # Druglord: a tap on a Region that names one move (not a roll of yours) plays it, no popover
        if self.played_by_tap(before):
            return 1
        # one tap opens it, even when a live event arrives between the press and the release (the
        # board waits for the release to redraw: the click once landed on a replaced element)
        if not popover_opened(page):
            # the game moved on under the tap (a bot's move, or one played for you, redrew the board
            # without it): a person looks again; a tap on a board that did not change is lost
            assert version_of(page) != before or not page.locator(selector).count() or \
                page.locator(".pick-toggle.on").count(), f"the tap on {value} opened nothing"
            return None
        if popover.count():
            steps = self.own_sway(move, page.locator(".popover"))
            popover.first.click()
            return steps + 2
        # the popover is the board's view of it: the same move from the list, without the pick
        close = page.locator(".popover button.popover-close")
        try:
            close.click(timeout=5000)
        except PlaywrightTimeout:  # a live event redrew the board and closed it first (CI saw it once)
            if close.count():  # still open but not clickable: a failure
                raise
        steps = self.own_sway(move, page.locator(".moves-section"))
        if not click_listed(page, wanted):
            return None
        return steps + 3 + confirm_end(page)

    def step_family(self, family: str, move: dict) -> int | None:
        """A move with a stepper: sometimes fewer than the largest amount (a click or two down), then its button."""
        page = self.page
        item = page.locator(f".moves-section .move.family[data-family='{family}']")
        steps = 0
        for _ in range(self.rng.choice([0] * 8 + [1, 2])):  # mostly the amount proposed, the largest
            down = item.locator("button.step-down:enabled").first
            if not down.count():
                break
            down.click()
            steps += 1
        button = item.locator(":scope > button.play-move")
        if not button.count():
            return None
        steps += self.own_sway(move, page.locator(".moves-section"))
        button.click()
        return steps + 1 + confirm_end(page)

    def played_by_tap(self, before: int) -> bool:
        """Whether the tap on the board sent a move by itself (Druglord's one-tap moves): the page posted a
        command, rather than opening the popover."""
        page = self.page
        try:
            page.wait_for_function(f"() => document.querySelector('.popover') || {SHOWN_VERSION} > {before}", timeout=3000)
        except PlaywrightTimeout:
            return False
        return not page.locator(".popover").count() and self.sent_total() > self.sent_before

    def sent_total(self) -> int:
        return sum(self.sent.values())

    def own_sway(self, move: dict, where) -> int:
        """Druglord: a move that rolls your die, its Sway chosen beside it (the stepper, none by default): as
        with the Sway question, a person mostly lets the roll be, sometimes a step or two up."""
        if move["type"] not in ROLLS_YOURS:
            return 0
        up = where.locator(".own-sway button.step-up")
        if not up.count():
            return 0
        steps = 0
        for _ in range(self.rng.choice([0] * 8 + [1, 2])):
            if not up.first.is_enabled():
                break
            up.first.click()
            steps += 1
        return steps

    def pick_set(self, family: str, move: dict) -> int | None:
        """A set chosen in parts: what the page proposes (half the time, when it proposes one), or a
        listed option: its things toggled on and the others off (counters up or down), then confirm."""
        page = self.page
        item = page.locator(f".moves-section .move.picker[data-family='{family}']")
        confirm = item.locator("button.play-move[data-move]")
        if confirm.count() and self.rng.random() < 0.7:
            confirm.click()
            return 1
        arg = next(k for k, v in move.items() if isinstance(v, list))
        want = [str(v) for v in move[arg]]
        clicks = 0
        # a tap on what is missing (a full set of counters gives up the value chosen first for it), else one
        # off what is too much (a toggle cannot go on while the set is full), reading the picker after each
        for _ in range(2 * len(want) + 10):
            # what is on now: toggles pressed, counters' values
            have = item.evaluate("""(el) => Object.fromEntries([
                ...[...el.querySelectorAll('.pick-toggle')].map((b) => [b.dataset.value, b.getAttribute('aria-pressed') === 'true' ? 1 : 0]),
                ...[...el.querySelectorAll('.counter')].map((c) => [c.dataset.value, Number(c.querySelector('output').textContent)])])""")
            if any(v not in have for v in want):
                return None
            missing = [v for v in have if want.count(v) > have[v]]
            surplus = [v for v in have if want.count(v) < have[v]]
            if not missing and not surplus:
                break
            ups = [item.locator(f".pick-toggle[data-value='{v}']:enabled, .counter[data-value='{v}'] button.step-up:enabled")
                   for v in missing]
            up = next((b for b in ups if b.count()), None)
            if up is not None:
                up.first.click()
            elif surplus:
                item.locator(f".pick-toggle[data-value='{surplus[0]}'], .counter[data-value='{surplus[0]}'] button.step-down").first.click()
            else:
                return None
            clicks += 1
        for name, value in move.items():
            if name not in ("type", arg) and item.locator("select").count():
                item.locator("select").first.select_option(json.dumps(value))
                clicks += 1
        confirm = item.locator("button.play-move[data-move]")
        if not confirm.count():
            return None
        confirm.click()
        return clicks + 1

    def offer(self, command: dict, shown: str) -> int | None:
        """The trade builder: give one of what you hold for one or two of another resource (Lords of
        Cannabis), or the deal as it stands (Trafficking); then one of its Offer buttons."""
        page = self.page
        builder = page.locator(".moves-section .trade-builder")
        clicks = 0
        if not builder.count():  # the moves were drawn again since they were read (a bot moved): read them again
            return None
        if builder.evaluate("b => b.tagName === 'DETAILS' && !b.open"):
            builder.locator("summary").click()  # "Offer a trade…" opens the builder
            clicks += 1
        gives = builder.locator("[data-key^='You give-'] button.step-up:enabled")
        if gives.count():
            give = self.rng.randrange(gives.count())
            resource = gives.nth(give).locator("xpath=..").get_attribute("data-key").split("-", 1)[1]
            gives.nth(give).click()
            clicks += 1
            wants = builder.locator("[data-key^='You want-']").filter(has_not=page.locator(f"[data-key='You want-{resource}']"))
            want = wants.nth(self.rng.randrange(wants.count()))
            for _ in range(self.rng.choice([1, 2])):
                want.locator("button.step-up").click()
                clicks += 1
        buttons = builder.locator("button.offer:enabled")
        if not buttons.count():
            return None
        buttons.nth(self.rng.randrange(buttons.count())).click()
        return clicks + 1

    def sway(self) -> int | None:
        """The Sway question: mostly no Sway, sometimes a step or two on a die, then Done."""
        page = self.page
        if not page.locator(".sway-panel").count():  # answered for you since the page was read: read it again
            return None
        # what the question was about: whose roll, and its kind (its first line: "Bot 1's Land Trade: ...")
        asked = re.sub(r"^(Your|[^']+'s) .*?(Trade|bonus roll|roll).*", r"\1 \2", page.locator(".sway-panel p").first.inner_text())
        self.asked[asked[:40]] = self.asked.get(asked[:40], 0) + 1
        self.prompt = " / ".join(page.locator(".sway-panel p").all_inner_texts()[:2])
        clicks = 0
        for _ in range(self.rng.choice([0] * 8 + [1, 2])):  # a person mostly lets a roll be
            steps = page.locator(".sway-panel .stepper button:enabled")
            if not steps.count():
                break
            steps.nth(self.rng.randrange(steps.count())).click()
            clicks += 1
        self.rolling = False  # the question was asked: its EndSway is no answer given with the move
        page.locator(".sway-panel button.sway-done").click()
        return clicks + 1

    def read_the_page(self) -> None:
        """Every text, label, title and tooltip a player reads now, searched for ids and seat numbers."""
        for where, text in self.page.evaluate(READ_THE_PAGE):
            for name, pattern in ID_PATTERNS.items():
                if re.search(pattern, text):
                    self.found.setdefault(name, set()).add(f"{where}: {text[:160]}")


# What a player reads: the page's text as shown (innerText leaves out what is hidden, the developer details
# included), the labels and tooltips of every element, the tooltip bubble; each with where it comes from:
# a move's label and a log line are the server's words, the rest the page's own.
READ_THE_PAGE = """() => {
    const main = document.querySelector('#main'), out = [];
    const labels = new Set([...main.querySelectorAll('button.play-move, button.popover-move')].map((b) => b.innerText.trim()));
    const log = new Set([...main.querySelectorAll('.log li')].map((li) => li.innerText.trim()));
    for (const line of main.innerText.split('\\n')) {
        const text = line.trim();
        if (!text) continue;
        out.push([labels.has(text) ? 'server move label' : log.has(text) ? 'server narration' : 'page text', text]);
    }
    for (const el of main.querySelectorAll('[aria-label], [title], [data-tip]')) {
        if (el.closest('.dev-only')) continue;
        for (const a of ['aria-label', 'title', 'data-tip']) {
            const value = el.getAttribute(a);
            if (value) out.push([el.matches('button.play-move, button.popover-move') && labels.has(value.replace(/^Edit: /, '')) ? 'server move label' : `page ${a}`, value]);
        }
    }
    return out;
}"""

# Ids and seat numbers, as the games' data and the API spell them (issue 38, item 8)
ID_PATTERNS = {
    "seat number": r"(?i)\bseats? \d",
    "numbered offer": r"#\d+",
    "card id": r"\b[a-z]+\d+(?:-\d+)?\b",                                   # junkie400, dealer3-2
    "hyphenated id": r"\b[a-z][a-z0-9]*(?:-[a-z0-9]+)*-\d+\b|\([a-z][a-z0-9]*(?:-[a-z0-9]+)+\)",  # burn-crops-3, (lab-kitchen)
    "underscored id": r"\b[a-z]+_[a-z_]+\b",                                  # crooked_cop
    # a Druglord Region's code is printed on its card beside its name ("Great Lakes (FS2)": the Zone and
    # number, docs/rules/druglord-board.md), so a name's code in brackets is the game's; a code alone is an id
    "region code": r"(?<!\()\b[A-Z]{2}\d\b(?!\))",                              # AG1
    "board number": r"(?i)\b(?:intersection|path|brick)s? \d+",              # intersection 12
}


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


def clicks_per_turn(clicks: list[tuple[int, int, str]], events: list[dict], seat: int = 0) -> float:
    """Your clicks over your turns (moves the page played for you are turns without a click)."""
    return sum(taken for _, taken, _ in clicks) / max(1, your_turns(events, seat))


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
    # the others' moves told at once (the board still folded through them): the narration's pace is
    # test_web_table.py's; here a whole game must fit in the suite's time
    page.evaluate("localStorage.setItem('tabletop-cartel:prefs', JSON.stringify({pace: 'instant'}))")
    game_id = create_game(page, ruleset, seats, options)
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    me = Player(page, seed=sum(map(ord, ruleset)), autoplay=ruleset in AUTOPLAY, scan=True)
    if me.autoplay:
        page.click("details.settings > summary")
        page.get_by_label("Play my only move for me").check()
        page.click("details.settings > summary")
        # the page waits 800 ms for a person to read the table before it plays the move; 100 here, or a
        # Narcos game waits a minute in all (what is checked: that the page, not the test, plays it)
        page.evaluate("window.cartelForcedDelayMs = 100")
    # a stall fails the game, not a total time: a loaded machine plays the same game slower (420 s for the
    # whole game once ran out at load 14 with the game moving all along); pytest's timeout bounds the rest
    started, shown = time.monotonic(), version_of(page)
    stalled_at = started + STALL_SECONDS
    while not game_over(page):
        if version_of(page) != shown:
            shown, stalled_at = version_of(page), time.monotonic() + STALL_SECONDS
        if time.monotonic() >= stalled_at:  # what the page offered, and what the server says it awaits
            doc = requests.get(f"{live_server.url}/v1/games/{game_id}", timeout=10).json()
            raise AssertionError(f"{ruleset}: no move for {STALL_SECONDS} s at v{shown}, {len(me.clicks)} moves in; "
                                 f"awaiting {doc.get('awaiting')}, the page offers {me.offered()}; its moves panel: "
                                 + page.locator(".moves-section").inner_html()[:3000])
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
    board = sum(1 for _, taken, _ in me.clicks if taken > 1)
    total = sum(taken for _, taken, _ in me.clicks)
    # your commands (each is one command id on your events; taking the seat is the lobby's, not a move)
    commands = len({e["command_id"] for e in events if e["actor"] == "seat:0" and e["type"] != "SeatClaimed"})
    if me.autoplay:  # the page played some of your moves, unclicked
        assert len(me.clicks) < commands, f"'Play my only move for me' played nothing: {len(me.clicks)} clicked of {commands}"
    saved = (f"{(total - me.forced) / max(1, turns):.2f} with 'Play my only move for me'"
             if not me.autoplay else "'Play my only move for me' on")
    # Druglord's turn is the whole table's (a round: the Region phase and four action phases)
    rounds = sum(1 for e in events if e["type"] == "TurnStarted") if ruleset == "druglord" else 0
    per_round = f"; {total / max(1, rounds):.1f} clicks per round over {rounds} rounds" if rounds else ""
    if ruleset == "druglord":  # the Sway windows: the page's question, or answered for you (the preference)
        asked = sum(1 for _, _, kind in me.clicks if kind == "EndSway")
        per_round += (f" (Sway windows {me.sent.get('EndSway', 0)}: asked {asked}, answered with your move {me.declared}, "
                      f"not asked {me.sent.get('EndSway', 0) - asked - me.declared}; "
                      f"asked about {dict(sorted(me.asked.items(), key=lambda kv: -kv[1]))})")
    by_type: dict[str, list[int]] = {}  # move type -> [clicks, moves]
    for _, taken, kind in me.clicks:
        by_type.setdefault(kind, [0, 0])
        by_type[kind][0] += taken
        by_type[kind][1] += 1
    print(f"\nCLICKS {ruleset} {viewport[0]}x{viewport[1]}: {len(me.clicks)} moves clicked, {board} on the board, "
          f"{total} clicks over {turns} turns: {per_turn:.2f} clicks per turn ({saved}; "
          f"{commands / max(1, turns):.2f} moves per turn){per_round}; {seconds:.0f} s, v{final['version']}; "
          f"by move (clicks/moves): {', '.join(f'{k} {c}/{n}' for k, (c, n) in sorted(by_type.items(), key=lambda kv: -kv[1][0]))}")
    # the browser logs the 409 of a move a bot beat to the server; the page said so and refreshed (above)
    tab.close(expected=("status of 409",) if me.conflicts else ())
    # no id and no seat number in anything a player read, all game long (issue 38, item 8): the page's own
    # words, and the server's move labels and narration (which say where they come from)
    found = {name: sorted(texts) for name, texts in me.found.items()}
    (SCREENSHOTS / f"{ruleset}-ids.txt").write_text("".join(f"{name}\t{text}\n" for name, texts in found.items() for text in texts))
    assert not found, "ids or seat numbers a player reads:\n" + "\n".join(
        f"  {name}: {len(texts)} strings, e.g. {texts[:6]}" for name, texts in found.items())
