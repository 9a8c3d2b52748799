// The replay page: a finished game of this server (time travel with GET /v1/games/{id}/state?version=N)
// or an uploaded history (POST /v1/replays?version=N); step and scrub through every version, and
// verify the whole history with one click (POST /v1/replays).  Jump by turn or round, to your own
// moves (when this browser holds a seat of the game) or to any narrated line of the log; an upload
// stays in the page: verified once, and each version it folds is asked for once.  Beside the server's verdict, this browser
// re-derives every recorded draw itself (fairness.js, from docs/fairness.md): no need to trust the server.
import { api, ruleset, seats, describeError, commitments } from "./api.js";
import { rederiveDraws } from "./fairness.js";
import { h, replace, brief, focusableScrolls, labelCells } from "./dom.js";
import { boardFor } from "./boards/index.js";
import { who, namedSeats } from "./boards/pick.js";
import { outcomeText } from "./game.js";
import { analysisPanel, seatOnMove } from "./analysis.js";

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
  } else if (found.bad?.gap) {
    const b = found.bad;
    replace(into, h("p", { class: "notice bad", id: "browser-draws", "data-version": b.version },
      `${found.rederived} of ${found.total} draws re-derived in this browser; the command at version ${b.version} `
      + `draws on the stream ${b.label} where ${b.gap} comes next: a stream was skipped or used twice.`));
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

// The history's seed commitment against the one this browser kept for the game (at creation, claim or first
// sight): a history that commits to another seed is not the game played here, however well it verifies.
function commitmentNotice(header, kept) {
  if (!kept) {
    return h("p", { class: "muted", id: "commitment" }, "This browser kept no seed commitment for this game "
      + "(it did not create, join or open it here): the history is checked against its own commitment only.");
  }
  if (String(header.seed_commitment).toLowerCase() !== kept.toLowerCase()) {
    return h("p", { class: "notice bad", id: "commitment" }, h("b", {}, "Not the game you saw: "),
      `this history commits to the seed ${String(header.seed_commitment).slice(0, 16)}…, but when this game was `
      + `created or joined here its commitment was ${kept.slice(0, 16)}…. Whatever else it verifies, it is another game.`);
  }
  return h("p", { class: "notice ok", id: "commitment" },
    `The seed commitment is the one this browser kept when it saw the game (${kept.slice(0, 16)}…).`);
}

// Where turns begin: a TurnStarted event, or (a game that only marks their end) the event after a
// TurnEnded.  A round begins where the turn comes back to the seat that played the first turn (a
// seat playing again at once, as after doubles, is the same round), or at every mark that names no
// seat (Druglord's turns are the whole table's).
export function turnMarks(events, header = {}) {
  const started = events.some((e) => e.type === "TurnStarted");
  const marks = [];
  events.forEach((e, i) => {
    if (started ? e.type === "TurnStarted" : i > 0 && events[i - 1].type === "TurnEnded") {
      const seat = started ? e.data?.seat : events[i - 1].data?.next;
      marks.push({ version: e.version, seat, text: (started ? e.narration?.text : null) || `${seatWord(seat, header)}'s turn begins.` });
    }
  });
  const first = marks[0]?.seat;
  marks.forEach((mark, i) => {
    mark.round = mark.seat === undefined || i === 0 || (mark.seat === first && marks[i - 1].seat !== first);
  });
  return marks;
}

// a seat by its player's name (boards/pick.js `who`), never its number
const seatWord = (seat, header) => (seat === undefined || seat === null ? "A" : who({ seats: header.seats || [] }, seat));

// A narrated line of the history: the rules' sentence (a nameless seat by the page's name), else the
// event's type and data.
function line(e, header = {}) {
  return e.narration?.text ? namedSeats(e.narration.text, { seats: header.seats || [] }) : `${e.type} ${brief(e.data)}`;
}

async function start(body, source) {
  const { header, events } = parse(source.text);
  const last = events.length ? events[events.length - 1].version : 0;
  const [rs, data] = await Promise.all([ruleset(header.ruleset).catch(() => ({ title: header.ruleset })),
    ruleset(header.ruleset, `data?version=${header.ruleset_version || 1}`).then((d) => d.data).catch(() => null)]);
  const gameId = source.gameId || header.game_id || null;
  const mine = gameId ? Object.keys(seats.get(gameId)).map((s) => `seat:${s}`) : [];
  const marks = turnMarks(events, header), rounds = marks.filter((m) => m.round);
  const el = {
    verdict: h("div", { role: "status" }), draws: h("div", { role: "status" }),
    version: h("output", { id: "replay-version" }), board: h("div"), analysis: h("div"), now: h("p", { id: "replay-now", class: "muted" }),
    events: h("ol", { class: "log replay-log", id: "replay-events" }), error: h("div", { role: "alert" }),
  };
  const slider = h("input", { type: "range", class: "slider", id: "replay-slider", min: 0, max: last, value: last, "aria-label": "Version" });
  const onlyMine = h("input", { type: "checkbox", id: "replay-mine" });
  const turnSelect = h("select", { id: "replay-turn", "aria-label": "Jump to a turn" },
    h("option", { value: "" }, `Jump to a turn (${marks.length})`),
    marks.map((m, i) => h("option", { value: m.version }, `${i + 1}. ${m.text}`)));
  // what the page already holds: an upload's views are folded by the server once per version, never again
  const folded = new Map();
  let current = -1, pending = null, verified = last;
  const show = async (version) => {
    version = Math.max(0, Math.min(source.gameId ? last : verified, version));
    slider.value = version;
    el.version.textContent = `version ${version} of ${last}`;
    const turn = [...marks].reverse().find((m) => m.version <= version);
    el.now.textContent = turn ? `Turn ${marks.indexOf(turn) + 1} of ${marks.length}${rounds.length ? `, round ${rounds.filter((r) => r.version <= version).length}` : ""}: ${turn.text}` : "Before the first turn.";
    turnSelect.value = turn ? String(turn.version) : "";
    current = version;
    pending = version;
    // a game of this server: the seat on move here may ask what the search bot would play (the server searches)
    const onMove = seatOnMove(events, version);
    if (source.gameId) replace(el.analysis, analysisPanel(source.gameId, version, onMove, seatWord(onMove, header)));
    const shown = events.filter((e) => e.version <= version && (!onlyMine.checked || mine.includes(e.actor))).slice(-20);
    replace(el.events, shown.map((e) => {
      const [kind, seat] = String(e.actor).split(":");
      return h("li", { class: `${e.version === version ? "current " : ""}${kind === "seat" || kind === "bot" ? `by-seat${Number(seat) % 6}` : ""}`,
        dataset: { version: e.version, actor: e.actor ?? "" } },
      h("button", { class: "linkish", onclick: () => show(e.version), "aria-label": `Go to version ${e.version}: ${line(e, header)}` }, line(e, header)),
      h("span", { class: "dev-only muted" }, ` v${e.version} ${e.actor ?? ""} ${e.type}`));
    }));
    try {
      let at = folded.get(version);
      if (!at) {
        at = source.gameId
          ? await api(`/v1/games/${source.gameId}/state?version=${version}`)
          : await api(`/v1/replays?version=${version}`, { method: "POST", raw: source.text });
        folded.set(version, at);
      }
      if (pending !== version) return; // scrubbing went on: show only the latest
      replace(el.error);
      replace(el.board, at.view ? boardFor(header.ruleset)({ view: at.view, data, doc: { seats: header.seats || [] }, seat: null, moves: [], picked: null, pick: () => {} })
        : h("p", { class: "muted" }, "Before the game's first event."),
      at.state ? h("details", { class: "dev-only" }, h("summary", {}, "The full state at this version"), h("pre", { class: "json" }, JSON.stringify(at.state, null, 1))) : null);
      focusableScrolls(labelCells(el.board));
    } catch (error) {
      if (pending === version) replace(el.error, h("p", { class: "notice bad" }, describeError(error)));
    }
  };
  let timer;
  slider.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => show(Number(slider.value)), 120); });
  const step = (d) => show(current + d);
  // the next (d = 1) or previous (d = -1) of these versions from the current one
  const jump = (versions, d) => {
    const found = d > 0 ? versions.find((v) => v > current) : [...versions].reverse().find((v) => v < current);
    if (found !== undefined) show(found);
  };
  const myVersions = events.filter((e) => mine.includes(e.actor)).map((e) => e.version);
  turnSelect.addEventListener("change", () => { if (turnSelect.value) show(Number(turnSelect.value)); });
  onlyMine.addEventListener("change", () => show(current));
  // Anchored to what this browser was shown: the commitment it kept when it created, joined or opened the game
  const kept = gameId ? commitments.get(gameId) : null;
  const verify = async () => {
    replace(el.verdict, h("p", {}, "Verifying…"));
    try {
      const query = kept ? `?expect_commitment=${kept}` : "";
      const result = await api(`/v1/replays${query}`, { method: "POST", raw: source.text });
      verified = result.valid ? last : result.events;
      replace(el.verdict, verdictText(result, show));
    } catch (error) {
      replace(el.verdict, h("p", { class: "notice bad", id: "verdict" }, describeError(error)));
    }
  };
  const button = (label, onclick, attrs = {}) => h("button", { class: "secondary", onclick, ...attrs }, label);
  replace(body,
    h("section", {},
      h("h2", {}, `${rs.title} — ${source.gameId ? `game ${source.gameId}` : "uploaded history"}`),
      h("p", { class: "muted" }, `${header.seats?.length ?? "?"} seats · ${marks.length} turns · ${events.length} events`,
        h("span", { class: "dev-only" }, ` · seed commitment ${String(header.seed_commitment).slice(0, 16)}…`)),
      h("div", { class: "row" },
        button("|◀", () => show(0), { "aria-label": "First version" }),
        button("◀", () => step(-1), { "aria-label": "Previous version" }),
        button("▶", () => step(1), { "aria-label": "Next version" }),
        button("▶|", () => show(last), { "aria-label": "Last version" }),
        el.version, h("button", { id: "verify", onclick: verify }, "Verify")),
      h("div", { class: "row" },
        button("◀ Turn", () => jump(marks.map((m) => m.version), -1), { id: "prev-turn", "aria-label": "Previous turn" }),
        button("Turn ▶", () => jump(marks.map((m) => m.version), 1), { id: "next-turn", "aria-label": "Next turn" }),
        rounds.length > 1 ? [button("◀ Round", () => jump(rounds.map((m) => m.version), -1), { id: "prev-round", "aria-label": "Previous round" }),
          button("Round ▶", () => jump(rounds.map((m) => m.version), 1), { id: "next-round", "aria-label": "Next round" })] : null,
        marks.length ? turnSelect : null),
      mine.length ? h("div", { class: "row" },
        button("◀ My move", () => jump(myVersions, -1), { id: "prev-mine", "aria-label": "Previous of my moves" }),
        button("My move ▶", () => jump(myVersions, 1), { id: "next-mine", "aria-label": "Next of my moves" }),
        h("label", {}, onlyMine, "Only my moves in the log")) : null,
      commitmentNotice(header, kept), el.now, slider, el.verdict, el.draws, el.error),
    h("div", { class: "layout" }, h("section", { "aria-label": "Board at this version" }, el.board, el.analysis),
      h("section", { "aria-labelledby": "replay-events-h" }, h("h2", { id: "replay-events-h" }, "What happened up to here"),
        h("p", { class: "muted" }, "Click a line to go to it."), el.events)));
  slider.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft" || e.key === "ArrowRight") { e.preventDefault(); step(e.key === "ArrowLeft" ? -1 : 1); }
  });
  checkDraws(el.draws, header, events).catch((error) =>
    replace(el.draws, h("p", { class: "notice bad", id: "browser-draws" }, `Re-deriving the draws failed: ${error.message}`)));
  // An upload is verified at once: time travel folds only the part that verifies.
  if (!source.gameId) await verify();
  await show(verified);
}
