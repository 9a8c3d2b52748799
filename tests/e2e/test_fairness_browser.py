"""A second implementation of the random stream, in the browser (issue 26, item 5): clients/web/js/fairness.js,
written from docs/fairness.md with Web Crypto, passes the test vectors in Chromium, and the replay page
re-derives every recorded draw of a history itself.  A die forged with its draw is caught at the same
version by the service, by `cartel verify --offline` and by the browser."""
from __future__ import annotations

import json
import time
from pathlib import Path

import requests
from playwright.sync_api import expect

from clients.cli import verify_offline
from tests.e2e.test_web_frontend import Tab, browser  # noqa: F401  (the module's Chromium fixture)

VECTORS = json.loads((Path(__file__).resolve().parents[1] / "data" / "rng-vectors.json").read_text())

# Every vector computed by the page's module, 64-bit numbers as decimal strings like the file's.
RUN_VECTORS = """async (vectors) => {
  const { Stream, streamKey, hex } = await import("/web/js/fairness.js");
  const out = [];
  for (const v of vectors) {
    const ints = await Stream.of(v.seed, v.label);
    const u64 = [];
    for (let i = 0; i < v.u64.length; i++) u64.push(String(await ints.u64()));
    const randbelow = {};
    for (const n of Object.keys(v.randbelow)) {
      const s = await Stream.of(v.seed, v.label);
      randbelow[n] = [];
      for (let i = 0; i < v.randbelow[n].length; i++) randbelow[n].push(String(await s.randbelow(BigInt(n))));
    }
    const range = (k) => Array.from({ length: k }, (_, i) => i);
    out.push({ seed: v.seed, label: v.label, key: hex(await streamKey(v.seed, v.label)), u64, randbelow,
      shuffle_10: await (await Stream.of(v.seed, v.label)).shuffled(range(10)),
      shuffle_52: await (await Stream.of(v.seed, v.label)).shuffled(range(52)) });
  }
  return out;
}"""


def test_the_browsers_stream_passes_the_test_vectors(live_server, browser):  # noqa: F811
    tab = Tab(browser, live_server.url)
    page = tab.open()
    assert page.evaluate("() => isSecureContext && !!crypto.subtle")
    assert page.evaluate(RUN_VECTORS, VECTORS["vectors"]) == VECTORS["vectors"]
    tab.close()


# The effective seed of each `mixes` vector (docs/fairness.md, section 1), and randbelow(6) from its stream.
RUN_MIXES = """async (mixes) => {
  const { Stream, effectiveSeed } = await import("/web/js/fairness.js");
  const out = [];
  for (const m of mixes) {
    const effective = await effectiveSeed(m.seed, m.entropy);
    const stream = await Stream.of(effective, m.label);
    const draws = [];
    for (let i = 0; i < m.randbelow_6.length; i++) draws.push(Number(await stream.randbelow(6n)));
    out.push({ ...m, effective_seed: effective, randbelow_6: draws });
  }
  return out;
}"""


def test_the_browser_mixes_the_players_entropy_as_the_vectors_say(live_server, browser):  # noqa: F811
    tab = Tab(browser, live_server.url)
    page = tab.open()
    assert len(VECTORS["mixes"]) >= 3 and page.evaluate(RUN_MIXES, VECTORS["mixes"]) == VECTORS["mixes"]
    tab.close()


def finished_history(base: str, **extra) -> str:
    created = requests.post(f"{base}/v1/games", json={
        "ruleset": "kingpin", "options": {"target": 3000}, "seed": "web-fairness",
        "seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}], **extra}, timeout=10).json()
    deadline = time.monotonic() + 120
    while requests.get(f"{base}/v1/games/{created['id']}", timeout=10).json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.3)
    return requests.get(f"{base}/v1/games/{created['id']}/history", timeout=10).text


def test_the_replay_page_re_derives_every_draw_and_finds_a_forged_die_where_the_verifiers_do(
        live_server, browser, tmp_path):  # noqa: F811
    text = finished_history(live_server.url)
    lines = text.splitlines()
    total = sum(len(json.loads(line).get("draws", ())) for line in lines[1:])
    assert total and json.loads(lines[0])["format"] == "tabletop-cartel-history/4"

    tab = Tab(browser, live_server.url)
    page = tab.open("#/replay")
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_contain_text(f"{total} of {total} draws re-derived in this browser")
    expect(page.locator("#verdict")).to_contain_text("valid and complete")

    # a die raised, and its recorded draw with it: the browser re-derives the draw from the seed
    n, record = next((n, json.loads(line)) for n, line in enumerate(lines)
                     if '"DiceRolled"' in line and '"draws"' in line)
    record["data"]["dice"][0] = 6 if record["data"]["dice"][0] != 6 else 5
    record["draws"][0][1] = record["data"]["dice"][0] - 1
    lines[n] = json.dumps(record)
    forged = "\n".join(lines) + "\n"
    version = record["version"]
    service = requests.post(f"{live_server.url}/v1/replays", data=forged.encode(), timeout=30,
                            headers={"Content-Type": "application/x-ndjson"}).json()
    assert service["diverged_at"] == version and verify_offline(forged.encode()).raw == service
    before = sum(len(json.loads(line).get("draws", ())) for line in lines[1:n])

    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_contain_text(
        f"{before} of {total} draws re-derived in this browser; draw 1 of the command at version {version} does not")
    expect(page.locator("#browser-draws")).to_have_attribute("data-version", str(version))
    expect(page.locator("#verdict")).to_contain_text(f"it diverges at version {version}")
    tab.shot("replay-forged-draw")
    tab.close()


def test_the_replay_page_re_derives_the_draws_of_a_game_with_the_creators_entropy(live_server, browser, tmp_path):  # noqa: F811,E501
    text = finished_history(live_server.url, entropy="the creator's own dice: 2 6 4")
    lines = text.splitlines()
    assert json.loads(lines[1])["data"]["entropy"] == "the creator's own dice: 2 6 4"
    total = sum(len(json.loads(line).get("draws", ())) for line in lines[1:])
    tab = Tab(browser, live_server.url)
    page = tab.open("#/replay")
    path = tmp_path / "game.jsonl"
    path.write_text(text)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_contain_text(
        f"{total} of {total} draws re-derived in this browser")
    expect(page.locator("#browser-draws")).to_contain_text("mixed with the players' entropy (1 contribution)")
    expect(page.locator("#verdict")).to_contain_text("valid and complete")

    # the creator's entropy changed: the set-up's draws (version 2) no longer re-derive, here or at the service
    record = json.loads(lines[1])
    record["data"]["entropy"] += "!"
    lines[1] = json.dumps(record)
    forged = "\n".join(lines) + "\n"
    service = requests.post(f"{live_server.url}/v1/replays", data=forged.encode(), timeout=30,
                            headers={"Content-Type": "application/x-ndjson"}).json()
    assert not service["valid"] and service["diverged_at"] == 2, service
    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_have_attribute("data-version", "2")
    expect(page.locator("#verdict")).to_contain_text("it diverges at version 2")
    tab.close()
