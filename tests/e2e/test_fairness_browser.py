"""A second implementation of the random stream, in the browser (issue 26, item 5): clients/web/js/fairness.js,
written from docs/fairness.md with Web Crypto, passes the test vectors in Chromium (the streams of commands,
draw calls, bots and their worlds, the effective seed, the commitment, the bot key, every draw of section 2
with its edge cases), and the replay page re-derives every recorded draw of the reference export
(tests/data/reference-kingpin.jsonl, format 5) itself.  A die forged with its draw is caught at the same
version by the service, by `cartel verify --offline` and by the browser."""
from __future__ import annotations

import json
from pathlib import Path

import requests
from playwright.sync_api import expect

from clients.cli import verify_offline
from tests.e2e.test_web_frontend import Tab, browser  # noqa: F401  (the module's Chromium fixture)

DATA = Path(__file__).resolve().parents[1] / "data"
VECTORS = json.loads((DATA / "rng-vectors.json").read_text())
REFERENCE = (DATA / "reference-kingpin.jsonl").read_text()

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


# The commitment (SHA-256 of the seed) and the bot key (HMAC-SHA256(effective seed, "bot")) with the page's module,
# and each `draw_calls` vector: section 2's draws written here from the spec over the module's Stream.randbelow.
RUN_KEYS_AND_CALLS = """async (vectors) => {
  const { Stream, streamKey, sha256Hex, hex } = await import("/web/js/fairness.js");
  const commitments = [];
  for (const c of vectors.commitments) commitments.push({ seed: c.seed, seed_commitment: await sha256Hex(c.seed) });
  const botKeys = [];
  for (const b of vectors.bot_keys) {
    botKeys.push({ effective_seed: b.effective_seed, bot_key: hex(await streamKey(b.effective_seed, "bot")) });
  }
  const calls = [];
  for (const c of vectors.draw_calls) {
    const stream = await Stream.of(c.seed, c.label);
    const draws = [];
    const randbelow = async (n) => {
      const value = Number(await stream.randbelow(BigInt(n)));
      draws.push([n, value]);
      return value;
    };
    const draw = {
      randbelow,
      randint: async (a, b) => a + await randbelow(b - a + 1),
      choice: async (items) => items[await randbelow(items.length)],
      roll: async (count, faces = [1, 2, 3, 4, 5, 6]) => {
        const out = [];
        for (let i = 0; i < count; i++) out.push(faces[await randbelow(faces.length)]);
        return out;
      },
      shuffled: async (items) => {
        const out = [...items];
        for (let i = out.length - 1; i > 0; i--) {
          const j = await randbelow(i + 1);
          [out[i], out[j]] = [out[j], out[i]];
        }
        return out;
      },
    };
    const ops = [];
    for (const op of c.ops) ops.push({ ...op, result: await draw[op.call](...op.args) });
    calls.push({ ...c, ops, draws });
  }
  return { commitments, bot_keys: botKeys, draw_calls: calls };
}"""


def test_the_browser_gives_the_commitments_bot_keys_and_draw_calls_of_the_vectors(live_server, browser):  # noqa: F811
    tab = Tab(browser, live_server.url)
    page = tab.open()
    wanted = {key: VECTORS[key] for key in ("commitments", "bot_keys", "draw_calls")}
    assert all(wanted.values()) and page.evaluate(RUN_KEYS_AND_CALLS, VECTORS) == wanted
    # the fourth shuffle of the world, randbelow(1), a shuffle of one and of two, the Classy Dice: all there
    labels = {c["label"] for c in wanted["draw_calls"]}
    assert {"world/shuffle/3", "2/pick/0", "world/shuffle/0", "world/shuffle/1", "world/dice/7"} <= labels
    tab.close()


def pairs(lines: list[str]) -> int:
    """How many [bound, value] draws the lines record (format 5: each call's pairs)."""
    return sum(len(call[1]) for line in lines for call in json.loads(line).get("draws", ()))


def test_the_replay_page_re_derives_every_draw_and_finds_a_forged_die_where_the_verifiers_do(
        live_server, browser, tmp_path):  # noqa: F811
    lines = REFERENCE.splitlines()
    total = pairs(lines[1:])
    assert total and json.loads(lines[0])["format"] == "tabletop-cartel-history/5"

    tab = Tab(browser, live_server.url)
    page = tab.open("#/replay")
    path = tmp_path / "game.jsonl"
    path.write_text(REFERENCE)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_contain_text(f"{total} of {total} draws re-derived in this browser")
    expect(page.locator("#verdict")).to_contain_text("valid and complete")

    # a die raised, and its recorded draw with it: the browser re-derives the draw from the seed
    n, record = next((n, json.loads(line)) for n, line in enumerate(lines)
                     if '"DiceRolled"' in line and '"draws"' in line)
    record["data"]["dice"][0] = 6 if record["data"]["dice"][0] != 6 else 5
    record["draws"][0][1][0][1] = record["data"]["dice"][0] - 1
    lines[n] = json.dumps(record)
    forged = "\n".join(lines) + "\n"
    version = record["version"]
    service = requests.post(f"{live_server.url}/v1/replays", data=forged.encode(), timeout=30,
                            headers={"Content-Type": "application/x-ndjson"}).json()
    assert service["diverged_at"] == version and verify_offline(forged.encode()).raw == service
    before = pairs(lines[1:n])

    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_contain_text(
        f"{before} of {total} draws re-derived in this browser; draw 1 of the command at version {version} does not")
    expect(page.locator("#browser-draws")).to_have_attribute("data-version", str(version))
    expect(page.locator("#verdict")).to_contain_text(f"it diverges at version {version}")
    tab.shot("replay-forged-draw")
    tab.close()


def test_the_replay_page_re_derives_the_draws_of_a_game_with_a_players_entropy(live_server, browser, tmp_path):  # noqa: F811,E501
    lines = REFERENCE.splitlines()
    contributed = json.loads(lines[2])
    assert contributed["type"] == "EntropyContributed" and json.loads(lines[3])["type"] == "GameStarted"
    total = pairs(lines[1:])
    tab = Tab(browser, live_server.url)
    page = tab.open("#/replay")
    path = tmp_path / "game.jsonl"
    path.write_text(REFERENCE)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_contain_text(
        f"{total} of {total} draws re-derived in this browser")
    expect(page.locator("#browser-draws")).to_contain_text("mixed with the players' entropy (1 contribution)")

    # the seat's entropy changed, as sent and as recorded: the set-up's draws (version 3) no longer re-derive,
    # here or at the service
    contributed["data"]["entropy"] += "!"
    contributed["command"]["entropy"] += "!"
    lines[2] = json.dumps(contributed)
    forged = "\n".join(lines) + "\n"
    service = requests.post(f"{live_server.url}/v1/replays", data=forged.encode(), timeout=30,
                            headers={"Content-Type": "application/x-ndjson"}).json()
    assert not service["valid"] and service["diverged_at"] == 3, service
    path = tmp_path / "forged.jsonl"
    path.write_text(forged)
    page.set_input_files("#history-file", str(path))
    expect(page.locator("#browser-draws")).to_have_attribute("data-version", "3")
    expect(page.locator("#verdict")).to_contain_text("it diverges at version 3")
    tab.close()
