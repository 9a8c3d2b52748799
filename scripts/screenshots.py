"""Regenerate the web frontend's screenshots in docs/screenshots/ (the README shows one of them):

    python3 -m scripts.screenshots            # from the checkout, with the development virtualenv

It starts a throwaway service (redis-server, an RQ worker and gunicorn on free loopback ports, as the
tests do), opens the distribution's Chromium through Playwright, plays a few turns of each game by
clicking, as tests/e2e/test_web_play_every_game.py does, and writes <game>-desktop.png and
<game>-phone.png for each ruleset, plus lobby-*.png and replay-*.png.  Viewport-sized shots (not the
whole scrolling page), so each stays small: one that would pass 250 KB as a PNG is written as
<name>.jpg instead."""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import requests
from playwright.sync_api import sync_playwright

from tests.e2e.test_web_frontend import CHROMIUM_ARGS, create_game, find_chromium
from tests.e2e.test_web_play_every_game import GAMES, Player, game_over
from tests.support.processes import RedisServer, running_service

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
LIMIT = 250_000


def shoot(page, path: Path) -> None:
    page.wait_for_timeout(2500)  # the bots' events played into the log at their pace, the board settled
    page.evaluate("window.scrollTo(0, 0)")  # a click on the board scrolled it: shoot the page as it opens
    page.screenshot(path=str(path))
    if path.stat().st_size > LIMIT:  # a busy map: the same view as a JPEG keeps the docs light
        path.unlink()
        path = path.with_suffix(".jpg")
        page.screenshot(path=str(path), type="jpeg", quality=85)
    size = path.stat().st_size
    shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path  # --out may be anywhere
    print(f"{shown}: {size // 1000} KB" + ("  (over 250 KB)" if size > LIMIT else ""))


def play_a_few_turns(page, moves: int, seed: int) -> None:
    """Your moves by clicking, as a person makes them, until `moves` are made or the game ends."""
    me, deadline = Player(page, seed), time.monotonic() + 120
    while len(me.clicks) < moves and not game_over(page) and time.monotonic() < deadline:
        me.play_once()
    # stop on your move (the moves panel full, the others' moves told), not in the middle of the bots' turn
    yours = page.locator(".moves-section .moves > .move, .moves-section .sway-panel")
    while not yours.count() and not game_over(page) and time.monotonic() < deadline:
        page.wait_for_timeout(150)


def finished_game(base: str) -> str:
    created = requests.post(f"{base}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "seed": "screenshots",
        "seats": [{"kind": "bot", "level": "greedy", "name": "Greedy Gus"}, {"kind": "bot", "level": "greedy"}]},
        timeout=10).json()
    deadline = time.monotonic() + 120
    while requests.get(f"{base}/v1/games/{created['id']}", timeout=10).json()["status"] != "finished":
        if time.monotonic() > deadline:
            raise TimeoutError("the bots' game did not end")
        time.sleep(0.3)
    return created["id"]


def take_all(base: str, browser, out: Path, moves: int) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for kind, (width, height) in SIZES.items():
        context = browser.new_context(viewport={"width": width, "height": height})
        page = context.new_page()
        page.set_default_timeout(20_000)
        # the others' moves told fast: the shots are of your move, the narration caught up
        page.add_init_script("localStorage.setItem('tabletop-cartel:prefs', JSON.stringify({pace: 'fast'}))")
        page.goto(f"{base}/")
        page.wait_for_selector("#create-game")
        for ruleset, seats, options, _ in GAMES:
            page.goto(f"{base}/")
            create_game(page, ruleset, seats, options)
            play_a_few_turns(page, moves, seed=len(ruleset))
            shoot(page, out / f"{ruleset}-{kind}.png")
        page.goto(f"{base}/")
        page.wait_for_selector("table.games")
        shoot(page, out / f"lobby-{kind}.png")
        page.goto(f"{base}/#/mine")  # the games this browser's player made above, yours to move first
        page.wait_for_selector("li.mine-game")
        shoot(page, out / f"mine-{kind}.png")
        page.goto(f"{base}/#/replay/{finished_game(base)}")
        page.wait_for_selector("#replay-turn")
        page.select_option("#replay-turn", index=6)
        shoot(page, out / f"replay-{kind}.png")
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the PNGs go (default: docs/screenshots)")
    parser.add_argument("--moves", type=int, default=6, help="your moves in each game before its shot")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="cartel-screenshots-") as scratch:
        redis_server = RedisServer(Path(scratch))
        redis_server.start()
        try:
            with running_service(redis_server.url, Path(scratch)) as web, sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=find_chromium(), headless=True, args=CHROMIUM_ARGS)
                try:
                    take_all(web.url, browser, args.out, args.moves)
                finally:
                    browser.close()
        finally:
            redis_server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
