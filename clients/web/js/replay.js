// The replay page: a finished game of this server (time travel with GET /v1/games/{id}/state?version=N)
// or an uploaded history (POST /v1/replays?version=N); step and scrub through every version, and
// verify the whole history with one click (POST /v1/replays).  Beside the server's verdict, this browser
// re-derives every recorded draw itself (fairness.js, from docs/fairness.md): no need to trust the server.
import { api, ruleset, describeError } from "./api.js";
import { rederiveDraws } from "./fairness.js";
import { h, replace, brief } from "./dom.js";
import { boardFor } from "./boards/index.js";
import { outcomeText } from "./game.js";

export async function showReplay(main, gameId) {
  const el = { source: h("div"), body: h("div") };
  replace(main, h("h1", {}, "Replay"), h("section", {}, el.source), el.body);
  const file = h("input", { type: "file", id: "history-file", accept: ".jsonl,.ndjson,.json,application/x-ndjson" });
  const idInput = h("input", { id: "replay-game", value: gameId || "", placeholder: "a finished game's id", size: 20 });
  replace(el.source,
    h("div", { class: "row" }, h("label", {}, "Game id", idInput),
      h("button", { onclick: () => { location.hash = `#/replay/${encodeURIComponent(idInput.value.trim())}`; } }, "Open")),
    h("div", { class: "row" }, h("label", {}, "…or upload an exported history", file)));
  file.addEventListener("change", async () => {
    if (!file.files.length) return;
    const text = await file.files[0].text();
    start(el.body, { text, gameId: null }).catch((error) => replace(el.body, h("p", { class: "notice bad" }, error.message)));
  });
  if (gameId) {
    try {
      const text = await api(`/v1/games/${encodeURIComponent(gameId)}/history`, { text: true, headers: { Accept: "application/x-ndjson" } });
      await start(el.body, { text, gameId });
    } catch (error) {
      replace(el.body, h("p", { class: "notice bad" }, `Game ${gameId}: ${describeError(error)}`));
    }
  }
  return () => {};
}

function parse(text) {
  const lines = text.split("\n").filter((line) => line.trim());
  let records;
  try { records = lines.map((line) => JSON.parse(line)); } catch (error) {
    throw new Error(`This is not a history (JSON Lines, as GET /v1/games/{id}/history exports): ${error.message}`);
  }
  if (!records.length || !records[0].ruleset) throw new Error("This is not a history: its first line is not a header with a ruleset.");
  return { header: records[0], events: records.slice(1) };
}

// The verdict in words, both of them: valid (every event re-derives from the seed) and complete (the
// events reach the game's end the header records): the first lines of a history are valid, not the game.
function verdictText(result, show) {
  const unvouched = result.unvouched?.length
    ? ` Its header (${result.format}) cannot vouch for: ${result.unvouched.map((f) => f.replace("_", " ")).join(", ")}.` : "";
  if (result.valid && result.complete) {
    return h("p", { class: "notice ok", id: "verdict" }, "This history is ", h("b", {}, "valid"), " and ", h("b", {}, "complete"),
      `: all ${result.events} events re-derive from the revealed seed and reach the game's end. ${outcomeText(result.outcome)}${unvouched}`);
  }
  if (result.valid) {
    return h("p", { class: "notice", id: "verdict" }, "This history is ", h("b", {}, "valid"), " but ", h("b", {}, "not complete"),
      `: its ${result.events} events re-derive from the revealed seed, but ${result.reason}.${unvouched}`);
  }
  return h("p", { class: "notice bad", id: "verdict" }, "This history is ", h("b", {}, "not valid"), ", so ", h("b", {}, "not complete"),
    result.diverged_at ? [`: it diverges at version ${result.diverged_at}: `, result.reason, ". ",
      h("button", { class: "secondary", onclick: () => show(result.diverged_at - 1) }, "show the last good version")] : [": ", result.reason, "."]);
}

// What this browser found re-deriving the history's draws: all of them, or the first that differs.
async function checkDraws(into, header, events) {
  if (!globalThis.crypto?.subtle) {
    replace(into, h("p", { class: "notice", id: "browser-draws" },
      "This browser cannot re-derive the draws here: Web Crypto needs a secure context (https or localhost)."));
    return;
  }
  const found = await rederiveDraws(header, events);
  if (!found.total) {
    replace(into, h("p", { class: "muted", id: "browser-draws" },
      `This history (${header.format}) records no draws, so none are re-derived in this browser.`));
  } else if (!found.commitment) {
    replace(into, h("p", { class: "notice bad", id: "browser-draws" },
      `0 of ${found.total} draws re-derived in this browser: the revealed seed does not match its commitment.`));
  } else if (found.bad) {
    const b = found.bad;
    replace(into, h("p", { class: "notice bad", id: "browser-draws", "data-version": b.version },
      `${found.rederived} of ${found.total} draws re-derived in this browser; draw ${b.draw} of the command at version ${b.version} does not: `
      + `it is recorded as randbelow(${b.bound}) = ${b.recorded}, the seed's stream gives ${b.derived ?? "nothing"}.`));
  } else {
    replace(into, h("p", { class: "notice ok", id: "browser-draws" },
      `${found.rederived} of ${found.total} draws re-derived in this browser (Web Crypto, from docs/fairness.md), `
      + `the ${found.commands} commands that drew, from the revealed seed`
      + (found.contributions ? ` mixed with the players' entropy (${found.contributions} `
        + `contribution${found.contributions === 1 ? "" : "s"}).` : ".")));
  }
}

async function start(body, source) {
  const { header, events } = parse(source.text);
  const last = events.length ? events[events.length - 1].version : 0;
  const [rs, data] = await Promise.all([ruleset(header.ruleset).catch(() => ({ title: header.ruleset })),
    ruleset(header.ruleset, `data?version=${header.ruleset_version || 1}`).then((d) => d.data).catch(() => null)]);
  const el = {
    verdict: h("div", { role: "status" }), draws: h("div", { role: "status" }),
    version: h("output", { id: "replay-version" }), board: h("div"),
    events: h("ol", { class: "log", id: "replay-events" }), error: h("div", { role: "alert" }),
  };
  const slider = h("input", { type: "range", class: "slider", id: "replay-slider", min: 0, max: last, value: last, "aria-label": "Version" });
  let current = -1, pending = null, verified = last;
  const show = async (version) => {
    version = Math.max(0, Math.min(source.gameId ? last : verified, version));
    slider.value = version;
    el.version.textContent = `version ${version} of ${last}`;
    current = version;
    pending = version;
    replace(el.events, events.filter((e) => e.version <= version).slice(-12).reverse().map((e) =>
      h("li", { class: e.version === version ? "current" : "" }, h("span", { class: "v" }, `v${e.version} `), `${e.actor ?? ""} `,
        h("b", {}, e.type), " ", h("span", { class: "muted" }, brief(e.data)))));
    try {
      const at = source.gameId
        ? await api(`/v1/games/${source.gameId}/state?version=${version}`)
        : await api(`/v1/replays?version=${version}`, { method: "POST", raw: source.text });
      if (pending !== version) return; // scrubbing went on: show only the latest
      replace(el.error);
      replace(el.board, at.view ? boardFor(header.ruleset)({ view: at.view, data, doc: {}, seat: null, moves: [], picked: null, pick: () => {} })
        : h("p", { class: "muted" }, "Before the game's first event."),
      at.state ? h("details", {}, h("summary", {}, "The full state at this version"), h("pre", { class: "json" }, JSON.stringify(at.state, null, 1))) : null);
    } catch (error) {
      if (pending === version) replace(el.error, h("p", { class: "notice bad" }, describeError(error)));
    }
  };
  let timer;
  slider.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => show(Number(slider.value)), 120); });
  const step = (d) => show(current + d);
  const verify = async () => {
    replace(el.verdict, h("p", {}, "Verifying…"));
    try {
      const result = await api("/v1/replays", { method: "POST", raw: source.text });
      verified = result.valid ? last : result.events;
      replace(el.verdict, verdictText(result, show));
    } catch (error) {
      replace(el.verdict, h("p", { class: "notice bad", id: "verdict" }, describeError(error)));
    }
  };
  replace(body,
    h("section", {},
      h("h2", {}, `${rs.title} — ${source.gameId ? `game ${source.gameId}` : "uploaded history"}`),
      h("p", { class: "muted" }, `${header.seats?.length ?? "?"} seats · ${events.length} events · seed commitment ${String(header.seed_commitment).slice(0, 16)}…`),
      h("div", { class: "row" },
        h("button", { class: "secondary", onclick: () => show(0), "aria-label": "First version" }, "⏮"),
        h("button", { class: "secondary", onclick: () => step(-1), "aria-label": "Previous version" }, "◀"),
        h("button", { class: "secondary", onclick: () => step(1), "aria-label": "Next version" }, "▶"),
        h("button", { class: "secondary", onclick: () => show(last), "aria-label": "Last version" }, "⏭"),
        el.version, h("button", { id: "verify", onclick: verify }, "Verify")),
      slider, el.verdict, el.draws, el.error),
    h("div", { class: "layout" }, h("section", { "aria-label": "Board at this version" }, el.board),
      h("section", {}, h("h2", {}, "Events up to here"), el.events)));
  slider.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") { e.preventDefault(); step(e.key === "ArrowLeft" ? -1 : 1); }
  });
  checkDraws(el.draws, header, events).catch((error) =>
    replace(el.draws, h("p", { class: "notice bad", id: "browser-draws" }, `Re-deriving the draws failed: ${error.message}`)));
  // An upload is verified at once: time travel folds only the part that verifies.
  if (!source.gameId) await verify();
  await show(verified);
}
