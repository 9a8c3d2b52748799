"""An automated accessibility check of the web frontend: axe-core (pinned by tests/e2e/axe/package-lock.json,
installed with `npm ci` into a directory under the machine's temporary directory, never into the
checkout) injected into the lobby, a game page of each ruleset (at desktop and phone size), the rules page of
each ruleset and the replay page, in the distribution's Chromium: no violation of impact "serious" or "critical".

node and npm must be on the machine (.ci/run installs them, as for tests/clients/test_typescript_client.py)."""
from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pytest
import requests
from playwright.sync_api import Page, expect

from rules import RULESETS
from tests.e2e.test_web_frontend import Tab, browser, create_game  # noqa: F401  (browser: the fixture)
from tests.support.machine import npm_tools

SOURCES = Path(__file__).with_name("axe")
CACHE = Path(tempfile.gettempdir()) / "tabletop-cartel-axe"
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="session")
def axe_script() -> Path:
    """axe.min.js of the pinned axe-core (npm ci from the committed lock), reused while the lock is unchanged."""
    return npm_tools(SOURCES, CACHE) / "axe-core" / "axe.min.js"


class AxeTab(Tab):
    """A Tab whose context lets the test inject axe-core: the page's Content-Security-Policy refuses
    any script but its own (as it should), so only this test's context bypasses it."""

    def __init__(self, browser, base: str, width: int = 1280, height: int = 900):  # noqa: F811
        super().__init__(browser, base, width, height)
        self.context.close()
        self.context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)  # a loaded machine is slow, never wrong: waits end early when they can
        self.page.on("console", lambda m: self.errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))


def violations(page: Page, axe: Path) -> list[str]:
    """axe-core's serious and critical violations on the page as it is now, one line per element."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(axe))
    found = page.evaluate("async () => (await axe.run(document)).violations.map((v) => ({id: v.id, impact: v.impact, "
                          "help: v.help, nodes: v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary)}))")
    return [f"{v['impact']} {v['id']} ({v['help']}): {node}" for v in found if v["impact"] in BLOCKING for node in v["nodes"]]


def finished_game(base: str) -> str:
    created = requests.post(f"{base}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "seed": "axe-replay",
        "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]}, timeout=10).json()
    deadline = time.monotonic() + 120
    while requests.get(f"{base}/v1/games/{created['id']}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    return created["id"]


def test_the_lobby_has_no_serious_accessibility_violation(live_server, browser, axe_script):  # noqa: F811
    for width, height in ((1280, 900), (390, 844)):
        tab = AxeTab(browser, live_server.url, width, height)
        page = tab.open()
        expect(page.locator("#create-game")).to_be_visible()
        assert violations(page, axe_script) == []
        tab.close()


# every served game at 3 seats where it may (Narcos at its shortest, 2), some at phone size
@pytest.mark.parametrize("ruleset,seats,size", [
    (name, 2 if name == "narcos" else max(r.min_seats, min(3, r.max_seats)),
     (390, 844) if name in ("druglord", "lords_of_cannabis") else (1280, 900)) for name, r in RULESETS.items()])
def test_a_game_page_has_no_serious_accessibility_violation(live_server, browser, axe_script, ruleset, seats, size):  # noqa: F811
    tab = AxeTab(browser, live_server.url, *size)
    page = tab.open()
    create_game(page, ruleset, [("human", None)] + [("bot", "greedy")] * (seats - 1))
    expect(page.locator("button.play-move").first).to_be_visible(timeout=30_000)
    page.wait_for_timeout(2500)  # the bots' opening events played into the log
    assert violations(page, axe_script) == []
    # the settings menu open
    page.click("details.settings > summary")
    assert violations(page, axe_script) == []
    page.click("details.settings > summary")
    resign_asked_and_said(page, "good luck")
    assert violations(page, axe_script) == []
    page.click("details.game-menu > summary")
    # the popover beside a picked board thing, where the board offers one (a tap on a Region Druglord's
    # "keep 3" toggles instead: then the toggle is checked)
    pickable = page.locator(".board .pickable")
    if pickable.count():
        pickable.first.click()
        page.wait_for_timeout(300)
        if page.locator(".popover").count():
            expect(page.locator(".popover")).to_be_visible()
        assert violations(page, axe_script) == []
    tab.close()


def resign_asked_and_said(page: Page, text: str) -> None:
    """The game menu open, its resignation asked (not yet answered); `text` said in the chat."""
    page.click("details.game-menu > summary")
    page.click("button.table-resign")
    expect(page.locator(".confirm-table")).to_be_visible()
    page.fill("input[name=chat-text]", text)
    page.click("button.chat-send")
    expect(page.locator(".chat-log li")).to_have_count(1)


def test_a_finished_table_with_its_rematch_to_ask_has_no_serious_accessibility_violation(live_server, browser, axe_script):  # noqa: F811
    """A player's page after the end: the result, the rematch to ask, who played, a line of chat."""
    created = requests.post(f"{live_server.url}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000},
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]}, timeout=10).json()
    token = created["seats"][0]["token"]
    tab = AxeTab(browser, live_server.url, 390, 844)
    page = tab.open()
    page.evaluate(f"localStorage.setItem('tabletop-cartel:seats:{created['id']}', JSON.stringify({{0: '{token}'}}))")
    page.goto(f"{live_server.url}/#/games/{created['id']}")
    expect(page.locator(".you[data-seat='0']")).to_be_visible()
    resign_asked_and_said(page, "good game")
    page.click("button.confirm-resign")
    expect(page.locator("button.ask-rematch")).to_be_visible()
    assert violations(page, axe_script) == []
    tab.close()


@pytest.mark.parametrize("ruleset", list(RULESETS))
def test_the_rules_page_has_no_serious_accessibility_violation(live_server, browser, axe_script, ruleset):  # noqa: F811
    """The rules page: its wide tables scroll inside boxes a keyboard reaches (axe once found them
    unreachable: scrollable-region-focusable), with every folded section open."""
    tab = AxeTab(browser, live_server.url, 390, 844)
    page = tab.open(f"#/rules/{ruleset}")
    expect(page.locator(".how-to-play")).to_be_visible()
    # every folded section open: the command reference's wide tables scroll sideways on a phone
    page.evaluate("document.querySelectorAll('details.rules-section').forEach((d) => { d.open = true; })")
    assert page.evaluate("[...document.querySelectorAll('.rules .scroll')].some((b) => b.scrollWidth > b.clientWidth)")
    assert violations(page, axe_script) == []
    tab.close()


def test_the_replay_page_has_no_serious_accessibility_violation(live_server, browser, axe_script):  # noqa: F811
    game_id = finished_game(live_server.url)
    for width, height in ((1280, 900), (390, 844)):
        tab = AxeTab(browser, live_server.url, width, height)
        page = tab.open(f"#/replay/{game_id}")
        expect(page.locator("#replay-version")).to_contain_text("of")
        page.click("#verify")
        expect(page.locator("#verdict")).to_contain_text("valid")
        assert violations(page, axe_script) == []
        tab.close()


# Every way the boards mark a card as spent (kingpin.js, narcos.js), with the muted detail line cardFace writes.
SPENT_CARDS = [("kingpin", "card kind-special exhausted"), ("narcos", "card narcos-card side-siren status-eliminated"),
               ("narcos", "card narcos-card side-gun status-removed"), ("narcos", "card narcos-card side-gun used")]


def test_a_spent_card_keeps_its_text_readable(live_server, browser, axe_script):  # noqa: F811
    """A spent card is marked by a dashed border and a grey ground: it once was faded with opacity, which
    took its muted text to 3.8:1, and axe found it only in the games where a Narcos Police card had been
    eliminated by then.  Here each marking is on the page, whatever a game's dice did."""
    tab = AxeTab(browser, live_server.url)
    page = tab.open()
    expect(page.locator("#main")).not_to_be_empty()
    page.evaluate("""cards => {
        const main = document.querySelector('#main');
        for (const [game, classes] of cards) {
            const board = document.createElement('div');
            board.className = `board ${game}`;
            board.innerHTML = `<div class="cards"><div class="${classes}"><b>Police</b>` +
                `<span class="muted">Police · eliminated</span></div></div>`;
            main.append(board);
        }
    }""", SPENT_CARDS)
    assert violations(page, axe_script) == []
    tab.close()
