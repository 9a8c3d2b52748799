// The game page: whose turn it is and what is awaited, clocks, the seat's legal moves (with their
// labels; picked on the board where the board can show them), the live event log, and the board.
//
// What the others do is told and shown: each event from the live feed is narrated one at a time at the
// player's chosen speed, and the board is drawn as it stood after that event (GET .../state?version=N,
// the view the seat had then); the player's own moves, the turn's announcement and the result wait until
// the narration has caught up with the game, or until the player presses Skip.
import { api, ruleset, seats, prefs, gamePrefs, idempotencyKey, describeError, ApiError, commitments, contributeOwed,
  randomEntropy, invitations, sentInvitations } from "./api.js";
import { h, replace, countdown, brief, words, focusableScrolls, labelCells } from "./dom.js";
import { boardFor } from "./boards/index.js";
import { who, seatWords, namedSeats } from "./boards/pick.js";
import { moveForm, mentions } from "./moves.js";
import { arrange, amountControl, setControl, toggleIn } from "./choices.js";
import { isSwayWindow, shouldAsk, swayPanel, swayPreference, SWAY_ASK, SWAY_HELP, rollsYours, spareWeight, yourDie,
  ownSwayControl, declaredAnswer, declaredFor } from "./sway.js";
import { storeAnswer, STORE_ASK, STORE_DEFAULT, STORE_HELP } from "./storing.js";
import { tradeBuilder, isOffer, declines, turnKey } from "./trade.js";
import { namer } from "./names.js";
import { claimForm, gameMenu, rematchPart, followRematch, chatOf, chatMessage, readChat, wireChat, renderPresence } from "./people.js";
import { toast } from "./app.js";
import { analysisPanel } from "./analysis.js";
import { claimAs } from "./player.js";
import { notifySetting, notifyOn } from "./notices.js";

const LOG_LIMIT = 300;
const TITLE = document.title;
// a game that has ended: by its rules (finished), or left idle by its humans (abandoned)
const ended = (doc) => doc.status === "finished" || doc.status === "abandoned";

// The narration's speeds: the pause after each of the others' events, and the most a burst of them may
// take in all (a bot turn of 40 events is told faster per event, not for longer).
export const PACES = {
  slow: { label: "Slow", ms: 1400, budget: 25000 },
  normal: { label: "Normal", ms: 700, budget: 10000 },
  fast: { label: "Fast", ms: 250, budget: 3000 },
  instant: { label: "Instant", ms: 0, budget: 0 },
};
const pace = () => PACES[prefs.value("pace", "normal")] || PACES.normal;
// the narration waits this long for a board it asked for before telling the line without it
const VIEW_WAIT_MS = 1500;
// the game's document is ahead of the events the feed has brought: after this, the page shows it anyway
const BEHIND_MS = 3000;

export async function showGame(main, gameId) {
  const page = {
    gameId, held: seats.get(gameId), seat: null, doc: null, rs: null, data: null, schema: null,
    picked: null, feed: null, lastVersion: 0, stopped: false, refreshing: null,
    pending: [], telling: 0, instantUpTo: 0, shown: null, views: new Map(), recent: [],
    touched: new Map(), wasMyTurn: false, openedAt: 0, choices: {}, sway: {}, trade: {}, auto: null, ownSway: { amount: 0 }, declared: null,
    prefs: gamePrefs(gameId),
  };
  page.seat = Object.keys(page.held).map(Number).sort((a, b) => a - b)[0] ?? null;
  const el = {
    title: h("h1"), notice: h("div", { role: "alert" }), status: h("div"), board: h("div", { class: "board" }),
    moves: h("div"), log: h("ol", { class: "log", "aria-live": "off", tabindex: 0, "aria-label": "What happened, oldest first" }),
    seatPanel: h("div"), feed: h("span", { class: "muted" }), settings: h("div"), menu: h("div"),
  };
  page.chat = chatOf(gameId);
  page.el = el;
  // A tap on the board is a press and a release on the same element: an event redrawing the board
  // between the two would make the release land on a new element and the browser drop the click (the
  // player taps again).  So the board waits for the release to redraw (renderBoard).
  el.board.addEventListener("pointerdown", () => { page.pressedAt = Date.now(); });
  const released = () => {
    if (!page.pressedAt) return;
    page.pressedAt = 0;
    // after the click the release is part of, which may itself redraw (a pick)
    if (page.boardStale) setTimeout(() => { if (page.boardStale && !page.stopped) { renderBoard(page); markTouched(page); } }, 0);
  };
  el.board.addEventListener("pointerup", released);
  el.board.addEventListener("pointercancel", released);
  // every move button (the list, a stepper's, a picker's, the trade builder's, the popover's) sends its data-move
  for (const box of [el.moves, el.board]) box.addEventListener("click", (event) => onMoveClick(page, event));
  replace(main, el.title, el.notice,
    h("div", { class: "layout game" },
      h("div", {}, h("section", { class: "status", "aria-labelledby": "status-h" },
        h("div", { class: "status-head" }, h("h2", { id: "status-h" }, "Table"), h("div", { class: "menus" }, el.menu, el.settings)), el.status, el.seatPanel),
      h("section", { class: "board-section", "aria-label": "Board" }, el.board)),
      h("div", {},
        h("section", { class: "moves-section", "aria-labelledby": "moves-h" }, h("h2", { id: "moves-h" }, "Your moves"), el.moves),
        h("section", { class: "log-section", "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, "What happened ", el.feed), el.log),
        page.chat.ui.section)));

  await refresh(page);
  page.openedAt = page.doc.version;
  page.shown = { version: page.doc.version, view: page.doc.view };
  page.rs = await ruleset(page.doc.ruleset);
  [page.data, page.schema] = await Promise.all([
    // the board of the game's own rules version (a version-1 Druglord game keeps its version-1 map)
    ruleset(page.doc.ruleset, `data?version=${page.doc.ruleset_version || 1}`).then((d) => d.data).catch(() => null),
    ruleset(page.doc.ruleset, "schema").catch(() => null),
  ]);
  render(page);
  wireChat(page.chat, { token: () => token(page), spectator: page.seat === null });
  readChat(page.chat, token(page), ended(page.doc)).catch(() => {});
  follow(page);
  const ticking = setInterval(() => tick(page), 1000);
  const looking = setInterval(() => lookAround(page), LOOK_MS);
  return () => {
    page.stopped = true;
    clearInterval(ticking);
    clearInterval(looking);
    if (page.feed) page.feed.close();
    document.title = TITLE;
    setFavicon(null);
  };
}

// ---- loading ----------------------------------------------------------------------------

async function refresh(page, note) {
  // coalesce: several events arriving together need one GET
  if (page.refreshing) { page.again = true; return page.refreshing; }
  page.refreshing = (async () => {
    do {
      page.again = false;
      if (page.claiming) await page.claiming;
      const used = token(page);
      try {
        page.doc = await api(`/v1/games/${page.gameId}`, { token: used });
      } catch (error) {
        // asked with a seat the page has since given up (left): asked again as the page is now
        if ((error.status === 401 || error.status === 403) && used !== token(page)) { page.again = true; continue; }
        if (error.status === 401 && page.seat !== null) { // a token this game does not know: watch instead
          replace(page.el.notice, h("p", { class: "notice bad" }, `Your seat's token was refused (${describeError(error)}); watching as a spectator.`));
          page.held = {};
          page.seat = null;
          page.again = true;
          continue;
        }
        throw error;
      }
    } while (page.again);
  })();
  try {
    await page.refreshing;
  } finally {
    page.refreshing = null;
  }
  commitments.keep(page.gameId, page.doc.seed_commitment); // first seen here, if not at creation or claim
  if (page.doc.contributions && (await contributeOwed(page.gameId, page.doc, page.held)).length) {
    return refresh(page, note); // the game may have started with this seat's entropy
  }
  if (page.doc.version > (page.shown?.version ?? 0) && !page.pending.length) waitForFeed(page);
  if (page.rs) render(page);
  if (note) replace(page.el.notice, h("p", { class: "notice" }, note));
}

const token = (page) => (page.seat === null ? undefined : page.held[page.seat]);

// ---- the live feed: SSE with a stream ticket (an EventSource cannot send Authorization) -----

async function follow(page) {
  if (page.stopped) return;
  const seat = page.seat;
  let url = `/v1/games/${page.gameId}/events?after=${page.lastVersion || Math.max(0, page.doc.version - 40)}`;
  // an invited spectator of a private table (an EventSource sends no header: the invitation goes in the query)
  const invitation = invitations.get(page.gameId);
  if (seat === null && invitation) url += `&invitation=${encodeURIComponent(invitation)}`;
  if (seat !== null) {
    try {
      const ticket = await api(`/v1/games/${page.gameId}/tickets`, { method: "POST", token: token(page) });
      url += `&ticket=${encodeURIComponent(ticket.ticket)}`;
    } catch (error) {
      replace(page.el.feed, `(no ticket: ${describeError(error)}; following as a spectator)`);
    }
  }
  // the page switched seats (or closed) while the ticket was on its way: that seat's feed is not wanted now
  if (page.stopped || page.seat !== seat) return;
  const feed = new EventSource(url);
  page.feed = feed;
  page.heardAt = Date.now();
  feed.onopen = () => {
    page.heardAt = Date.now();
    replace(page.el.feed, "(live)");
    // what was said while the stream was away (a chat message has no id: it is not replayed on reconnecting)
    if (page.chat.seen.length) readChat(page.chat, token(page), false).catch(() => {});
  };
  feed.addEventListener("chat", (message) => {
    page.heardAt = Date.now();
    const said = JSON.parse(message.data);
    // the chat is a screen below on a phone: what another says shows for a moment where the player is
    if (said.seat !== page.seat && !page.chat.byId.has(said.id)) toast(`${said.seat === null ? said.name : who(page.doc, said.seat)}: ${said.text}`);
    chatMessage(page.chat, said);
  });
  // the turn state after each batch says who is here now
  feed.addEventListener("turn", (message) => {
    const turn = JSON.parse(message.data);
    if (page.doc && turn.version === page.doc.version) { page.doc.present = turn.present; renderPresence(page.chat, page.doc, page.seat); }
  });
  feed.onmessage = (message) => {
    page.heardAt = Date.now();
    const event = JSON.parse(message.data);
    if (event.version <= page.lastVersion) return; // a resumed stream repeats nothing the page told
    page.lastVersion = event.version;
    arrived(page, event);
    if (event.version > (page.doc?.version ?? 0)) refresh(page).catch(() => {});
  };
  feed.addEventListener("end", () => {
    feed.close();
    replace(page.el.feed, "(ended)");
    refresh(page).catch(() => {});
  });
  feed.onerror = () => {
    // The browser retries by itself (resuming with Last-Event-ID) unless the server refused the
    // stream (an expired ticket after SSE_MAX_SECONDS): then a new ticket, from the last version seen.
    if (feed.readyState === EventSource.CLOSED && !page.stopped && !(page.doc && ended(page.doc))) {
      replace(page.el.feed, "(reconnecting…)");
      setTimeout(() => follow(page), 1000);
    } else if (feed.readyState === EventSource.CONNECTING) {
      replace(page.el.feed, "(reconnecting…)");
    }
  };
}

// ---- the narration: the others' events one at a time, the board as it stood after each -----

// Caught up: nothing left to tell, the board at the game's version, and the log's last line told (what
// happened before the page opened is history: the page need not wait for its lines).
const caughtUp = (page) => !page.pending.length && (page.shown?.version ?? 0) >= (page.doc?.version ?? 0) &&
  (page.lastVersion >= (page.doc?.version ?? 0) || (page.doc?.version ?? 0) <= page.openedAt || page.feedBehind);

function arrived(page, event) {
  page.recent = [...page.recent.slice(-30), event];
  // what had happened before the page opened is history, and the page's own moves are already on the
  // board: told at once
  page.feedBehind = false;
  if (!page.pending.length && (event.version <= page.openedAt || event.version <= page.instantUpTo)) {
    logLine(page, event);
    if (event.narration) touch(page, event.narration.refs || []);
    // the last line of what the page shows is told: its moves (or the result) may show
    if (page.rs && event.version >= (page.doc?.version ?? 0) && caughtUp(page)) render(page);
    return;
  }
  page.pending.push(event);
  if (!page.telling) tell(page);
}

// The board of a version as this seat saw it then (asked once per version; the latest is the document's).
function viewAt(page, version) {
  if (page.doc && version === page.doc.version) return Promise.resolve(page.doc.view);
  if (!page.views.has(version)) {
    const asked = (page.claiming || Promise.resolve())
      .then(() => api(`/v1/games/${page.gameId}/state?version=${version}`, { token: token(page) }))
      .then((at) => at.view).catch(() => undefined);
    page.views.set(version, asked);
    if (page.views.size > 60) page.views.delete(page.views.keys().next().value);
  }
  return page.views.get(version);
}

const within = (promise, ms) => Promise.race([promise, new Promise((resolve) => setTimeout(() => resolve(undefined), ms))]);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function tell(page) {
  const run = page.telling = (page.run || 0) + 1;
  page.run = run;
  renderProgress(page);
  while (page.pending.length && page.run === run && !page.stopped) {
    const event = page.pending[0];
    const mine = page.seat !== null && event.actor === `seat:${page.seat}`;
    const { ms, budget } = pace();
    const quiet = !event.narration?.text; // an event with nothing to tell passes at once
    const delay = mine || quiet || !ms ? 0 : Math.min(ms, budget / page.pending.length);
    if (page.pending[1]) viewAt(page, page.pending[1].version); // the next board on its way meanwhile
    const view = delay || !page.pending[1] ? await within(viewAt(page, event.version), VIEW_WAIT_MS) : undefined;
    if (page.run !== run || page.stopped) return;
    page.pending.shift();
    logLine(page, event, true);
    if (view !== undefined) show(page, event.version, view);
    else page.shown = { version: event.version, view: page.shown?.view };
    if (event.narration) touch(page, event.narration.refs || []);
    renderProgress(page);
    if (delay) await sleep(delay);
  }
  if (page.run !== run) return;
  page.telling = 0;
  if (caughtUp(page)) render(page);
  else if (!page.stopped) waitForFeed(page);
}

// The board moves to `version`; what changed between the two boards is marked for a moment.
function show(page, version, view) {
  const before = page.shown?.view;
  page.shown = { version, view };
  if (before && view) {
    (view.players || []).forEach((p, i) => {
      if (JSON.stringify(p) !== JSON.stringify(before.players?.[i])) page.touched.set(`seat=${p.seat ?? i}`, Date.now() + 2000);
    });
  }
  renderBoard(page);
  markTouched(page);
}

// Skip: every line still to tell at once, and the board as the game is now.
function skip(page) {
  page.run = (page.run || 0) + 1;
  page.telling = 0;
  while (page.pending.length) logLine(page, page.pending.shift());
  page.shown = { version: page.doc.version, view: page.doc.view };
  render(page);
}

// The document is ahead of the feed (its events are on their way): shown as it is if they do not come.
function waitForFeed(page) {
  clearTimeout(page.behind);
  page.behind = setTimeout(() => {
    if (page.stopped || page.pending.length || page.telling || caughtUp(page)) return;
    page.shown = { version: page.doc.version, view: page.doc.view };
    page.feedBehind = page.lastVersion < page.doc.version; // shown without its lines: the feed lags
    render(page);
  }, BEHIND_MS);
}

function logLine(page, event, told = false) {
  const log = page.el.log;
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const secret = event.data && event.data.secret !== undefined;
  const [kind, seatOf] = String(event.actor).split(":");
  const narration = event.narration;
  const text = narration ? sentence(page, narration) : [h("b", {}, words(event.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase()))];
  log.querySelector("li.now")?.classList.remove("now");
  log.append(h("li", { dataset: { version: event.version, actor: event.actor, ...(secret ? { secret: "1" } : {}) },
    class: `${seatOf !== undefined && kind !== "clock" ? `by-seat${Number(seatOf) % 6}` : ""}${told ? " now" : ""}` },
  text, secret ? h("span", { class: "secret", title: "Only your seat reads this" }, " secret") : "",
  h("span", { class: "dev-only muted" }, ` v${event.version} ${event.actor} ${event.type} ${brief(event.data)}`)));
  while (log.children.length > LOG_LIMIT) log.firstChild.remove();
  if (atBottom) log.scrollTop = log.scrollHeight;
}

// The sentence with the seats it names in their colours, by the names the page uses ("Seat 2", the
// server's word for a seat without a name, is the seat's colour here, as everywhere on the page).
function sentence(page, narration) {
  const rename = (text) => namedSeats(text, page.doc);
  let parts = [rename(narration.text)];
  for (const ref of narration.refs || []) {
    if (ref.kind !== "seat" || !ref.text) continue;
    const name = rename(ref.text);
    parts = parts.flatMap((part) => typeof part !== "string" ? [part] : part.split(name).flatMap((piece, i) =>
      i ? [h("b", { class: `seat${Number(ref.id) % 6}` }, name), piece] : [piece]));
  }
  return h("span", {}, parts);
}

// What an event touched is outlined on the board for a moment (places, cards and pieces by their id).
function touch(page, refs) {
  const until = Date.now() + 2000;
  for (const ref of refs) if (ref.kind !== "seat") page.touched.set(String(ref.id), until);
  markTouched(page);
}

// the data attributes the boards name their places, cards and pieces by (pick.js's `pick` for the rest)
const THING_KEYS = ["pick", "region", "card", "square", "brick", "intersection", "path", "city", "dealer"];
const THINGS = THING_KEYS.map((key) => `[data-${key}]`).join(",");

function markTouched(page) {
  const now = Date.now();
  for (const [id, until] of page.touched) if (until < now) page.touched.delete(id);
  for (const el of page.el.board.querySelectorAll(`${THINGS},[data-seat]`)) {
    const ids = THING_KEYS.map((key) => el.dataset[key]).filter((v) => v !== undefined)
      .map((thing) => (thing.includes("=") ? thing.split("=")[1] : thing));
    const seat = el.dataset.seat !== undefined && !el.matches("g.pawn") ? page.touched.has(`seat=${el.dataset.seat}`) : false;
    el.classList.toggle("touched", seat || ids.some((id) => page.touched.has(id)));
  }
}

// boards/pick.js's `who`, as the status says it: "You" for the reader, a nameless bot with its level
export function seatName(doc, seat, you = null) {
  if (you !== null && Number(seat) === you) return "You";
  const info = (doc.seats || [])[seat] || {};
  return info.kind === "bot" && !info.name ? `${who(doc, seat)} (${info.level})` : who(doc, seat);
}

// ---- rendering --------------------------------------------------------------------------

function render(page) {
  const { doc, rs, el } = page;
  const up = caughtUp(page);
  replace(el.title, `${rs.title} `, h("span", { class: `badge ${up ? doc.status : "active"}` }, up ? doc.status : "active"), " ",
    h("span", { class: "muted dev-only" }, `v${page.shown?.version ?? doc.version}`), " ",
    rs.rules_doc ? h("a", { class: "rules-link", href: `#/rules/${doc.ruleset}`, target: "_blank", rel: "noopener" }, "Rules") : null);
  if (up) {
    announceTurn(page);
    for (const panel of [el.status, el.moves]) panel.style.minHeight = "";
  }
  replace(el.settings, settingsMenu(page));
  // the game menu too: a question it asks (resign?) stays open while the others' moves arrive
  const menuKey = JSON.stringify([page.seat, doc.status, doc.open_seats, doc.seats.map((s) => [s.kind, s.name])]);
  if (page.menuKey !== menuKey) {
    page.menuKey = menuKey;
    replace(el.menu, gameMenu({ doc, seat: page.seat, gameId: page.gameId, act: (kind) => seatAction(page, kind),
      invite: (seat) => invite(page, seat), open: el.menu.querySelector("details")?.open }));
  }
  renderPresence(page.chat, doc, page.seat);
  replace(el.status, statusLines(page));
  // redrawn only when it changes: a name being typed to take a seat keeps its text and focus as events arrive
  const seatKey = JSON.stringify([page.seat, Object.keys(page.held), doc.open_seats, doc.status, doc.seats[page.seat]?.kind]);
  if (page.seatKey !== seatKey) { page.seatKey = seatKey; replace(el.seatPanel, seatControls(page)); }
  renderBoard(page);
  renderMoves(page);
  markTouched(page);
}

// While the narration is behind: the status and the moves say so, with Skip.
function renderProgress(page) {
  if (caughtUp(page)) return;
  if (!page.pending.length && !page.telling) waitForFeed(page); // nothing left to tell: the feed is behind
  const title = page.el.title.querySelector(".dev-only");
  if (title) title.textContent = `v${page.shown?.version ?? ""}`;
  const left = page.pending.length;
  const skipButton = () => h("button", { class: "secondary skip-narration", onclick: () => skip(page) }, "Skip");
  // the panels keep their height while the others' moves are told: on a phone the board is below them,
  // and a panel shrinking to one line and growing back would make the board jump under the player's finger
  for (const panel of [page.el.status, page.el.moves]) panel.style.minHeight = `${Math.max(panel.offsetHeight, parseFloat(panel.style.minHeight) || 0)}px`;
  replace(page.el.status, statusLines(page));
  replace(page.el.moves, h("div", { class: "catching-up" },
    h("p", {}, page.seat === null ? "Showing what happened" : "Your moves come back once the others' moves are shown",
      left ? ` (${left} more to show).` : "."), skipButton()));
}

// ---- whose turn: the tab's title and icon, a sound and a notification when it becomes yours -----

function announceTurn(page) {
  const { doc, rs } = page;
  const mine = page.seat !== null && String(page.seat) in (doc.awaiting || {});
  const what = mine && doc.awaiting[page.seat] === "response" ? "Answer now" : "Your move";
  document.title = ended(doc) ? `Game over — ${rs.title}` : mine ? `● ${what} — ${rs.title}` : `${rs.title} — Tabletop Cartel`;
  setFavicon(mine ? "#f0a202" : null);
  if (mine && !page.wasMyTurn) {
    if (prefs.get("sound")) beep();
    if (document.hidden && notifyOn()) {
      new Notification(`${what} — ${rs.title}`, { body: "It is your turn at the table.", tag: page.gameId });
    }
  }
  page.wasMyTurn = mine;
}

function setFavicon(colour) {
  const link = document.querySelector("link[rel=icon]");
  if (!link) return;
  link.href = colour ? `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="${colour}"/></svg>`)}` : "data:,";
}

function beep() {
  try {
    const audio = new AudioContext(), tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch { /* no audio: the title and icon still say it */ }
}

// The table's settings, behind one small menu so the first screen is the turn and the moves.  A menu
// open when the page redraws stays open.
function settingsMenu(page) {
  const open = page.el.settings.querySelector("details")?.open;
  const speed = h("select", { id: "pace", onchange: (e) => prefs.set("pace", e.target.value) },
    Object.entries(PACES).map(([key, p]) => h("option", { value: key, selected: key === prefs.value("pace", "normal") }, p.label)));
  const items = [h("label", {}, "Others' moves shown", speed)];
  if (page.seat !== null && !ended(page.doc)) {
    items.push(h("label", {}, h("input", { type: "checkbox", checked: prefs.get("sound"), onchange: (e) => prefs.set("sound", e.target.checked) }), "Sound on my turn"),
      h("label", { title: "A roll or a draw that is your only move is played for you after a moment" },
        h("input", { type: "checkbox", class: "autoplay", checked: prefs.get("autoplay"), onchange: (e) => prefs.set("autoplay", e.target.checked) }),
        "Play my only move for me"));
    if (page.doc.ruleset === "druglord") {
      items.push(h("label", {}, "Ask me to Sway", h("select", { id: "sway-ask", onchange: (e) => { page.prefs.set("sway", e.target.value); render(page); } },
        Object.entries(SWAY_ASK).map(([key, text]) => h("option", { value: key, selected: key === swayPreference(page.prefs.value("sway")) }, text)))),
      h("p", { class: "muted setting-help" }, SWAY_HELP));
    }
    if (page.doc.ruleset === "druglord") {
      items.push(h("label", {}, "A tap on a Region with one move", h("select", { id: "tap-plays", onchange: (e) => { page.prefs.set("tap", e.target.value); render(page); } },
        Object.entries(TAP_PLAYS).map(([key, text]) => h("option", { value: key, selected: key === (page.prefs.value("tap") || "one") }, text)))),
      h("p", { class: "muted setting-help" }, TAP_HELP));
    }
    if (page.doc.ruleset === "druglord") {
      items.push(h("label", {}, "Store a lone unit locally", h("select", { id: "store-ask", onchange: (e) => { page.prefs.set("store", e.target.value); render(page); } },
        Object.entries(STORE_ASK).map(([key, text]) => h("option", { value: key, selected: key === (page.prefs.value("store") || STORE_DEFAULT) }, text)))),
      h("p", { class: "muted setting-help" }, STORE_HELP));
    }
    items.push(notifySetting()); // notices.js: asks the browser's permission when switched on
  }
  return h("details", { class: "settings", open }, h("summary", { "aria-label": "Settings" }, "⚙ Settings"), h("div", { class: "settings-body" }, items));
}

function statusLines(page) {
  const { doc } = page;
  const you = page.seat === null ? h("p", { class: "you" }, "You are watching (spectator view).")
    : h("p", { class: "you", dataset: { seat: page.seat } }, "You play as ", h("b", { class: `seat${page.seat % 6}` }, who(doc, page.seat)), ".");
  const lines = [you];
  if (doc.status === "open") {
    lines.push(h("p", {}, `Waiting for players: ${doc.open_seats.map((s) => who(doc, s)).join(", ")} ${doc.open_seats.length > 1 ? "are" : "is"} open.`));
  }
  if (!caughtUp(page)) {
    // a player's Skip is in the moves panel (where the moves come back); a spectator's is here
    lines.push(h("p", { class: "catching-up-status" }, h("b", {}, "Showing what happened"),
      page.pending.length ? ` — ${page.pending.length} more` : "", " ",
      page.seat === null ? h("button", { class: "secondary skip-narration", onclick: () => skip(page) }, "Skip") : null));
    return lines;
  }
  const awaiting = Object.entries(doc.awaiting || {});
  if (awaiting.length) {
    lines.push(h("ul", { class: "awaiting" }, awaiting.map(([seat, what]) => {
      const deadline = (doc.clocks || {})[seat];
      const mine = Number(seat) === page.seat;
      return h("li", {}, h("b", { class: `seat${seat % 6}` }, seatName(doc, Number(seat), page.seat)),
        what === "response" ? (mine ? " must answer: choose below" : " must answer") : (mine ? " to move: choose below" : " to move"),
        deadline ? [" — ", h("span", { class: "clock", dataset: { deadline } }, countdown(deadline)), " left"] : "");
    })));
  }
  if (ended(doc)) {
    lines.push(resultPanel(page));
    if (doc.seed) lines.push(h("p", { class: "muted dev-only" }, `Seed (revealed): ${doc.seed}`));
  } else {
    lines.push(h("p", { class: "muted dev-only" }, `Seed commitment: ${doc.seed_commitment.slice(0, 16)}…`));
  }
  return lines;
}

// The result: who won, by how much, and every score the outcome reports per seat.
function resultPanel(page) {
  const { doc } = page;
  const outcome = doc.outcome || {};
  const winners = [].concat(outcome.winners ?? outcome.winner ?? []);
  const perSeat = Object.entries(outcome).filter(([, v]) => Array.isArray(v) && v.length === doc.seats.length &&
    v.every((x) => typeof x === "number"));
  const headline = doc.status === "abandoned" ? "Abandoned: no player moved for a long time, so nobody won."
    : winners.length ? `${winners.map((s) => seatName(doc, s, page.seat)).join(" and ")} ${winners.length === 1 && winners[0] === page.seat ? "win" : winners.length > 1 ? "win" : "wins"}!` : "Nobody won.";
  return h("div", { class: "notice ok result" }, h("h3", {}, "Game over"), h("p", {}, h("b", {}, headline), " ", outcomeText(outcome, doc)),
    perSeat.length ? h("div", { class: "scroll" }, h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), perSeat.map(([key]) => h("th", { scope: "col" }, words(key))))),
      h("tbody", {}, doc.seats.map((_, seat) => h("tr", { class: winners.includes(seat) ? "winner" : "" },
        h("th", { scope: "row", class: `seat${seat % 6}` }, seatName(doc, seat, page.seat)), perSeat.map(([, values]) => h("td", {}, String(values[seat])))))))) : null,
    rematchPart({ doc, seat: page.seat, act: (kind) => seatAction(page, kind) }),
    h("div", { class: "row" }, h("a", { href: `#/replay/${doc.id}` }, "Replay and verify"),
      h("a", { href: `/v1/games/${doc.id}/history`, download: `${doc.id}.jsonl` }, "Download the history")));
}

// The outcome's reason with seat numbers in it ("seat 2 reached 10 points") in the players' names.
export function outcomeText(outcome, doc = null) {
  if (!outcome) return "";
  if (!doc && outcome.text) return outcome.text;  // a verdict's outcome: the server's own sentence
  let reason = outcome.reason ? String(outcome.reason) : "";
  if (doc) reason = seatWords(reason, doc);
  if (!doc) {
    const winners = outcome.winners ?? outcome.winner;
    if (winners !== undefined) reason = `Winner${[].concat(winners).length > 1 ? "s" : ""}: seat ${[].concat(winners).join(", ")}. ${reason}`;
  }
  return reason ? reason.replace(/^./, (c) => c.toUpperCase()) + (/[.!]$/.test(reason) ? "" : ".") : "";
}

function seatControls(page) {
  const { doc } = page;
  const held = Object.keys(page.held).map(Number).sort((a, b) => a - b);
  const controls = [];
  if (held.length > 1) {
    controls.push(h("label", {}, "Play as", h("select", { id: "play-as", onchange: (e) => switchSeat(page, Number(e.target.value)) },
      held.map((s) => h("option", { value: s, selected: s === page.seat }, who(doc, s))))));
  }
  if ((doc.open_seats || []).length) {
    const form = claimForm(doc, doc.open_seats, (seat, name) => claimSeat(page, seat, name));
    // a player already seated here takes another seat only to play both on this device (hot seat): folded
    controls.push(page.seat === null ? form : h("details", { class: "hot-seat" }, h("summary", {}, "Play another seat on this device"), form));
  }
  // a seat its player resigned stays the bot's (the document's `reclaim` link does not say so: this browser remembers)
  const resigned = (page.prefs.value("resigned", [])).includes(page.seat);
  if (page.seat !== null && doc.seats[page.seat]?.kind === "bot" && doc.status === "active" && !resigned) {
    controls.push(h("button", { onclick: () => reclaim(page) }, "Take your seat back from the bot"));
  }
  return controls.length ? h("div", { class: "row" }, controls) : null;
}

async function switchSeat(page, seat) {
  const watched = page.seat === null;
  page.seat = seat;
  page.picked = null;
  page.choices = {};
  page.sway = {};
  page.trade = {};
  if (page.feed) page.feed.close();
  // the log holds the other seat's feed, its secrets included: the new seat reads its own from the start
  replace(page.el.log);
  page.lastVersion = 0;
  page.pending = [];
  page.run = (page.run || 0) + 1;
  page.telling = 0;
  page.views = new Map();
  await refresh(page);
  page.openedAt = page.doc.version;
  page.shown = { version: page.doc.version, view: page.doc.view };
  if (watched !== (seat === null)) { // the spectators' chat was this page's: now the seats'
    page.chat.seen = [];
    page.chat.byId.clear();
    replace(page.chat.ui.list);
    wireChat(page.chat, { token: () => token(page), spectator: seat === null });
    readChat(page.chat, token(page), ended(page.doc)).catch(() => {});
  }
  render(page);
  follow(page);
}

async function claimSeat(page, seat, name = "") {
  // A claim uses an invitation up, and its own event reaches the page before its answer: what the page asks
  // meanwhile waits for the seat's token (page.claiming) rather than going with a spent invitation (a 404).
  let release;
  page.claiming = new Promise((resolve) => { release = resolve; });
  try {
    const claimed = await claimAs(page.gameId, seat, name, { entropy: randomEntropy() }); // the player's seat (player.js)
    seats.add(page.gameId, claimed.seat, claimed.token);
    commitments.keep(page.gameId, claimed.seed_commitment);
    page.held = seats.get(page.gameId);
    invitations.drop(page.gameId); // the seat's token admits from now on
    const switching = switchSeat(page, claimed.seat); // the seat is the page's before its first wait
    release();
    await switching;
  } catch (error) {
    replace(page.el.notice, h("p", { class: "notice bad" }, describeError(error)));
  } finally {
    release();
    page.claiming = null;
  }
}

// Resign, abort, leave or rematch, with this seat's token (service/api/table_life.py).
// A fresh invitation to an open seat of an unlisted or private table (the seat's earlier one stops working)
async function invite(page, seat) {
  try {
    const made = await api(`/v1/games/${page.gameId}/seats/${seat}/invitation`, { method: "POST", token: token(page) });
    sentInvitations.add(page.gameId, seat, made.invitation);
    page.menuKey = null; // redraw the menu with the link, open
    render(page);
  } catch (error) {
    replace(page.el.notice, h("p", { class: "notice bad" }, `No invitation: ${describeError(error)}`));
  }
}

async function seatAction(page, kind) {
  const seat = page.seat;
  // leaving: the token stops working, so nothing goes on reading with it (the stream's next event would)
  const leaving = kind === "leave";
  if (leaving) { page.leaving = true; page.feed?.close(); }
  const menu = page.el.menu.querySelector("details");
  if (menu) menu.open = false; // done with the menu: the answer shows on the table
  try {
    const answer = await api(`/v1/games/${page.gameId}/seats/${seat}/${kind}`, { method: "POST", token: token(page) });
    if (leaving) {
      page.leaving = false;
      seats.drop(page.gameId, seat);
      page.held = seats.get(page.gameId);
      await switchSeat(page, Object.keys(page.held).map(Number).sort((a, b) => a - b)[0] ?? null);
      replace(page.el.notice, h("p", { class: "notice" }, "You left your seat: it is open for anyone to take."));
      return;
    }
    if (kind === "rematch" && answer.rematch) { followRematch(page.gameId, answer.rematch); return; }
    if (kind === "rematch") page.rematchWaiting = true;
    if (kind === "resign") page.prefs.set("resigned", [...page.prefs.value("resigned", []), seat]);
    const said = { resign: answer.status === "active" ? "You resigned: a bot plays your seat." : "You resigned; the game is over.",
      abort: "The table is aborted." }[kind];
    await refresh(page, said);
  } catch (error) {
    replace(page.el.notice, h("p", { class: "notice bad" }, describeError(error)));
    await refresh(page).catch(() => {});
    if (leaving) { page.leaving = false; follow(page); }
  }
}

// Every LOOK_MS: who is here now (presence changes send no event), and after the end, when the stream
// has closed, what is said and whether the rematch is ready (followed once this page asked for it).
const LOOK_MS = 5000;

async function lookAround(page) {
  if (page.stopped || page.looking || page.leaving || document.hidden) return;
  page.looking = true;
  try {
    // not revalidated: a 304 would leave the cached copy's `present` (the ETag does not cover it)
    const doc = await api(`/v1/games/${page.gameId}`, { token: token(page), cache: "no-store" });
    if (page.stopped) return;
    if (doc.version === page.doc.version) {
      page.doc.present = doc.present;
      renderPresence(page.chat, page.doc, page.seat);
      const before = JSON.stringify(page.doc.rematch);
      page.doc.rematch = doc.rematch;
      if (JSON.stringify(doc.rematch) !== before && caughtUp(page)) render(page);
    } else if (doc.version > page.lastVersion && page.feed?.readyState === EventSource.CLOSED) {
      // the stream closes at the end; what the table does after it (a rematch asked) is read here
      const { events } = await api(`/v1/games/${page.gameId}/events?after=${page.lastVersion}`, { token: token(page) });
      for (const event of events) if (event.version > page.lastVersion) { page.lastVersion = event.version; arrived(page, event); }
      await refresh(page);
    }
    if (ended(doc)) await readChat(page.chat, token(page), true);
    const mine = page.seat !== null && (doc.rematch?.asked || []).includes(page.seat);
    if (mine && !doc.rematch.game_id) page.rematchWaiting = true;
    if (doc.rematch?.game_id && page.rematchWaiting) { page.rematchWaiting = false; followRematch(page.gameId, doc.rematch.game_id); }
  } catch { /* the next look */ } finally {
    page.looking = false;
  }
}

async function reclaim(page) {
  try {
    await api(`/v1/games/${page.gameId}/seats/${page.seat}/reclaim`, { method: "POST", token: token(page) });
    await refresh(page, "Your seat is yours again.");
  } catch (error) {
    replace(page.el.notice, h("p", { class: "notice bad" }, describeError(error)));
  }
}

function tick(page) {
  for (const clock of page.el.status.querySelectorAll(".clock")) clock.textContent = countdown(Number(clock.dataset.deadline));
  watchFeed(page);
}

// A stream can stall with its connection open (a proxy that stopped serving it: seen with Pushpin under
// load after a kill), and an EventSource cannot see the server's heartbeat comments to notice.  After
// STALL_SECONDS with no event the page asks the game's version: a stream behind it is replaced, from
// the last version seen.  A quiet game costs one GET per STALL_SECONDS.
const STALL_SECONDS = 45;

function watchFeed(page) {
  const stall = (window.cartelStallSeconds || STALL_SECONDS) * 1000;  // tests shorten it
  if (!page.feed || page.feed.readyState === EventSource.CLOSED || page.checkingFeed || Date.now() - page.heardAt < stall) return;
  page.checkingFeed = true;
  page.heardAt = Date.now();
  const feed = page.feed;
  api(`/v1/games/${page.gameId}`, { token: token(page) }).then((doc) => {
    if (page.stopped || page.feed !== feed || doc.version <= page.lastVersion) return;
    feed.close();
    replace(page.el.feed, "(reconnecting…)");
    follow(page);
  }).catch(() => {}).finally(() => { page.checkingFeed = false; });
}

// ---- the board and the moves --------------------------------------------------------------

// the server's labels name a seat whose player gave no name "Seat N" (rules/narration.py Names): the page's name
function movesWithLabels(doc) {
  return (doc.legal_moves || []).map((move, i) => ({ move, label: namedSeats((doc.move_labels || [])[i] || move.type, doc) }));
}

// the moves the page offers now: none while the narration is behind
const offered = (page) => (caughtUp(page) && page.seat !== null ? movesWithLabels(page.doc) : []);

// A press held longer than this is a drag or a lost release: the board no longer waits for it.
const PRESS_MS = 4000;

function renderBoard(page) {
  const { doc } = page;
  if (page.pressedAt && Date.now() - page.pressedAt < PRESS_MS) { page.boardStale = true; return; }
  page.boardStale = false;
  const view = page.shown?.view ?? doc.view;
  page.el.board.dataset.version = String(page.shown?.version ?? doc.version);
  if (!view) {
    replace(page.el.board, h("p", { class: "muted" }, "The board appears once every seat is taken."));
    return;
  }
  const draw = boardFor(doc.ruleset);
  const upTo = page.shown?.version ?? doc.version;
  replace(page.el.board, draw({
    view, data: page.data, doc, seat: page.seat, moves: offered(page), picked: page.picked,
    recent: page.recent.filter((e) => e.version <= upTo),
    // a pick is the click a press ended in: the board redraws now, whatever became of the release
    pick: (value) => pickOnBoard(page, value),
  }));
  focusableScrolls(labelCells(page.el.board));
  if (page.picked !== null && caughtUp(page)) page.el.board.append(popover(page));
}

// A tap on a board thing: a toggle of the set being chosen when that is all the moves make of it,
// else the moves naming it, beside it.
function pickOnBoard(page, value) {
  page.pressedAt = 0;
  const naming = offered(page).filter(({ move }) => mentions(move, value));
  const items = arrange(naming);
  if (items.length && items.every((i) => i.kind === "set") && toggleIn(arrange(offered(page)), page.choices, value)) {
    page.picked = null;
  } else if (oneTap(page, items) && !page.sending) {
    page.picked = null;
    send(page, items[0].move);
    return;
  } else {
    page.picked = page.picked === value ? null : value;
  }
  render(page);
}

// Druglord: a tap on a Region that names one move, and a move that rolls no die of yours (a draft, a claim, a
// card played on it), plays it: the popover would hold that one button.  A move that rolls your die opens the
// popover, where its Sway is chosen beside it (sway.js); Settings can bring the popover back for every tap.
export const TAP_PLAYS = { one: "Plays it", show: "Shows it first" };
export const TAP_HELP = "A tap on a Region that names only one move (a draft, a claim) plays it. Trades and attacks, " +
  "which roll your die, open beside the Region with their Sway; so does a Region with several moves. " +
  "Hover or long-press a Region to read it without playing.";
const oneTap = (page, items) => page.doc.ruleset === "druglord" && page.prefs.value("tap") !== "show" &&
  items.length === 1 && items[0].kind === "move" && !rollsYours(items[0].move) && !endsTurn(items[0].move);

function thingName(page, value) {
  return namer(page.doc.ruleset, page.data, page.shown?.view ?? page.doc.view, page.doc)(value);
}

function targetOf(page, value) {
  return [...page.el.board.querySelectorAll(THINGS)].find((e) => THING_KEYS.some((key) => e.dataset[key] === String(value)));
}

// The moves naming what was picked, next to it on the board (a phone's moves panel is a screen away).
function popover(page) {
  const moves = offered(page).filter(({ move }) => mentions(move, page.picked));
  const target = targetOf(page, page.picked);
  const what = target?.getAttribute("aria-label") || thingName(page, page.picked);
  const box = page.el.board.getBoundingClientRect(), at = target ? target.getBoundingClientRect() : box;
  const left = Math.max(0, Math.min(at.left - box.left, box.width - 260)), top = at.bottom - box.top + 6;
  const shown = h("div", { class: "popover", role: "dialog", "aria-label": `Moves for ${what}` },
    h("p", { class: "popover-what" }, what),
    target?.dataset.tip ? h("p", { class: "popover-tip muted" }, target.dataset.tip) : null,
    ownSway(page, moves), choiceItems(page, moves, { popover: true }),
    h("button", { class: "secondary popover-close", onclick: () => { page.picked = null; render(page); } }, "Close"));
  // through the CSSOM: the page's Content-Security-Policy refuses inline style attributes
  Object.assign(shown.style, { left: `${left}px`, top: `${top}px` });
  return shown;
}

// Druglord: beside the moves that roll your own die, how much to Sway it (sway.js), when you have weight to Sway with.
function ownSway(page, moves) {
  if (page.doc.ruleset !== "druglord" || !moves.some(({ move }) => rollsYours(move))) return null;
  const spare = spareWeight(page.doc.view, page.seat);
  return spare ? ownSwayControl({ state: page.ownSway, spare, redraw: () => render(page) }) : null;
}

// A move's button: its data-move is what a click sends (onMoveClick); `text` and `detail` for the
// buttons that say it differently ("Keep these" and the move's label under it).
function moveButton(entry, { forced = false, popover = false, text = null, detail = "" } = {}) {
  return h("button", { class: `${popover ? "popover-move" : "play-move"}${forced ? " forced" : ""}`, dataset: { move: JSON.stringify(entry.move) } },
    text ?? (forced ? `Do it: ${entry.label}` : entry.label), detail ? h("span", { class: "move-detail" }, detail) : null);
}

// The moves as a player chooses them (choices.js): buttons, steppers and pickers; the trade builder in
// place of offers' templates.
function choiceItems(page, entries, { popover = false } = {}) {
  const redraw = () => render(page);
  const trading = tradeBuilder({ ruleset: page.doc.ruleset, view: page.doc.view, doc: page.doc, data: page.data,
    moves: entries, state: page.trade, redraw });
  let items = arrange(entries.filter(({ move }) => !(trading && isOffer(move))));
  // a default the rules define ("Load the rest by default") first, the moves in parts behind "Place it yourself…"
  const [first, rest] = popover ? [items, []] : defaultFirst(items);
  items = first;
  const forced = !popover && items.length === 1 && items[0].kind === "move" && !trading && page.picked === null && !rest.length;
  const control = (item) => {
    item.redraw = redraw;
    const button = (entry, extra = {}) => moveButton(entry, { popover, ...extra });
    if (item.kind === "amount") return amountControl(item, page.choices, button);
    if (item.kind === "set") return setControl(item, page.choices, button, (v) => thingName(page, v));
    return h("div", { class: "move", role: "listitem" }, moveButton(item, { forced, popover }),
      popover ? null : h("button", { class: "secondary dev-only edit-move", title: "Edit before sending", "aria-label": `Edit: ${item.label}`,
        dataset: { edit: JSON.stringify(item.move) } }, "Edit"));
  };
  const out = items.map(control);
  if (rest.length) {
    const key = `${page.doc.view?.turn}:${page.doc.view?.phase}`;
    out.push(h("details", { class: "move more-moves", role: "listitem", open: page.moreOpen === key || undefined,
      ontoggle: (e) => { page.moreOpen = e.target.open ? key : null; } },
    h("summary", {}, DEFAULT_FIRST[first[0].move.type]), h("div", { class: "more-list", role: "list" }, rest.map(control))));
  }
  if (trading) out.push(trading);
  const list = h("div", { class: `moves${forced ? " only" : ""}`, role: "list" }, out);
  if (forced) playForced(page, items[0].move);
  return list;
}

// Moves the rules give a default for: that move first, the choices in parts folded under a summary (the
// board still opens them from a tap).  A player who loads the default way clicks once a turn.
const DEFAULT_FIRST = { LoadDefault: "Place it yourself…" };

function defaultFirst(items) {
  const index = items.findIndex((item) => item.kind === "move" && DEFAULT_FIRST[item.move.type]);
  if (index < 0 || items.length < 2) return [items, []];
  return [[items[index]], items.filter((_, i) => i !== index)];
}

function renderMoves(page) {
  const { doc } = page;
  if (page.seat === null) {
    replace(page.el.moves, h("p", { class: "muted" }, ended(doc) ? "The game is over." : "Spectators have no moves. Take an open seat to play."));
    return;
  }
  if (!caughtUp(page)) { renderProgress(page); return; }
  let moves = offered(page);
  const out = [];
  if (!moves.length) {
    replace(page.el.moves, h("p", { class: "muted" }, ended(doc) ? "The game is over." : "Nothing to do now: waiting for the others."));
    return;
  }
  // Druglord's Sway windows: asked as the player chose, and then as a question with its stakes
  if (doc.ruleset === "druglord" && isSwayWindow(moves)) {
    const roll = doc.view?.roll;
    // your own roll, its Sway chosen beside the move that made it: declared with that amount, not asked again
    const declared = declaredAnswer(page.prefs.value("sway"), roll, moves, page.seat, page.declared, doc.version);
    if (declared) {
      autoSend(page, declared, "declared");
      const n = page.declared.amount;
      replace(page.el.moves, h("p", { class: "muted not-asked declared", dataset: { amount: n } },
        n ? `Your Sway of +${n} on your roll, as chosen with your move.` : "No Sway on your roll, as chosen with your move."));
      return;
    }
    if (!shouldAsk(page.prefs.value("sway"), roll, moves, page.seat, doc.view)) {
      autoSend(page, [{ type: "EndSway" }], "sway");
      replace(page.el.moves, h("p", { class: "muted not-asked" }, "Not asked to Sway on this roll (Settings: Ask me to Sway)."));
      return;
    }
    const key = `${doc.version}`;
    // asked about your own roll all the same (a Baller card fits it; "always"): set at the amount chosen with the move
    const chosen = declaredFor(roll, page.seat, page.declared, doc.version) && page.declared.amount;
    if (page.sway.key !== key) page.sway = { key, amounts: chosen ? { [yourDie(roll, page.seat)]: chosen } : {} };
    page.sway.redraw = () => render(page);
    replace(page.el.moves, swayPanel({ roll, view: doc.view, doc, data: page.data, you: page.seat, moves, state: page.sway,
      send: (commands) => sendAll(page, commands), label: (move, label) => moveButton({ move, label }) }));
    return;
  }
  // Druglord's storing question at a phase's end (Rule 5.A), answered as the player chose for this game
  if (doc.ruleset === "druglord" && moves.every(({ move }) => move.type === "StoreLocally")) {
    const answer = storeAnswer(page.prefs.value("store"), moves);
    if (answer) {
      autoSend(page, [answer.move], "store");
      replace(page.el.moves, h("p", { class: "muted not-asked" }, `${answer.label} (Settings: Store a lone unit locally).`));
      return;
    }
  }
  // "decline all offers this turn": the offers that come after are declined as they come
  const declining = declines(moves);
  if (declining.length && page.declineAll === `${page.seat}:${turnKey(doc.view)}`) {
    autoSend(page, [declining[0].move], "decline");
    replace(page.el.moves, h("p", { class: "muted" }, "Declining the offers of this turn, as you asked."));
    return;
  }
  if (page.picked !== null) {
    moves = moves.filter(({ move }) => mentions(move, page.picked));
    const shown = targetOf(page, page.picked);
    out.push(h("div", { class: "row" }, h("span", { class: "picked-what" }, `Moves for ${shown?.getAttribute("aria-label") || thingName(page, page.picked)}`),
      h("button", { class: "secondary", onclick: () => { page.picked = null; render(page); } }, "Show all")));
  }
  if (!moves.length) out.push(h("p", { class: "muted" }, "No move involves this."));
  else out.push(ownSway(page, moves), choiceItems(page, moves));
  // a table created to allow it: the search bot's view of this very choice, from what this seat can see
  if (doc.analysis && doc.status === "active") {
    out.push(analysisPanel(page.gameId, doc.version, page.seat, "you", { token: token(page), own: true }));
  }
  if (declining.length) {
    out.push(h("button", { class: "secondary decline-all", onclick: () => { page.declineAll = `${page.seat}:${turnKey(doc.view)}`; render(page); } },
      "Decline all offers this turn"));
  }
  // offers, bets and trades with terms a list cannot enumerate, typed as a command: for developers
  if (page.schema && moves.length) {
    page.form = moveForm(page.schema.commands, (command) => send(page, command));
    page.form.element.classList.add("dev-only");
    out.push(page.form.element);
  }
  const asking = page.el.moves.querySelector(".confirm-end .confirm-yes")?.dataset.move;
  replace(page.el.moves, out);
  if (page.sending) for (const button of page.el.moves.querySelectorAll("button")) button.disabled = true;
  // a confirmation still open when an event redraws the moves stays open while its move is still legal
  const again = asking && [...page.el.moves.querySelectorAll("button.play-move")].find((b) => b.dataset.move === asking);
  if (again) confirmEnd(page, again, JSON.parse(asking));
}

// A click on any move button of the panel or the popover: its data-move (a Sway's Done: its commands).
function onMoveClick(page, event) {
  const button = event.target.closest("button[data-move], button[data-edit]");
  if (!button || button.disabled || !(page.el.moves.contains(button) || button.closest(".popover"))) return;
  if (button.dataset.edit) {
    const move = JSON.parse(button.dataset.edit);
    page.form.load(move);
    page.form.element.open = true;
    page.form.element.scrollIntoView({ block: "nearest" });
    return;
  }
  if (button.dataset.commands) return; // the Sway panel's Done sends its own list
  const move = JSON.parse(button.dataset.move);
  if (button.classList.contains("confirm-yes")) { send(page, move); return; }
  if (endsTurn(move) && openChoices(page) && !button.classList.contains("popover-move")) confirmEnd(page, button, move);
  else send(page, move);
}

// the choices still open beside ending the turn, as the panel shows them (a stepper's moves are one choice)
const openChoices = (page) => arrange(offered(page)).filter((item) => !(item.kind === "move" && endsTurn(item.move))).length;

// "Play my only move for me" (a preference, off unless chosen): a move that is the only one the seat
// has and takes no choice at all (a roll, a draw: nothing but its type) is played after a moment to
// read the table, as Board Game Arena's automatic moves are.  A move with arguments is still clicked.
const FORCED_DELAY_MS = 800;

function playForced(page, move) {
  if (!prefs.get("autoplay") || Object.keys(move).length !== 1 || page.autoAt === page.doc.version) return;
  const version = page.autoAt = page.doc.version;
  let tries = 0;
  const attempt = () => {
    if (page.stopped || page.doc.version !== version) return;
    const button = page.el.moves.querySelector("button.play-move.forced");
    // It is armed once a version, and the player who asked for it waits for it: while another of the page's
    // sends is on its way (one at a time: sendAll), or the moves are redrawn without it for a moment (the
    // narration catching up), it is tried again a little later, not dropped (a Narcos game once waited for
    // its "Turn a card" for good).
    if (page.sending || button?.dataset.move !== JSON.stringify(move)) {
      if (++tries < FORCED_TRIES) setTimeout(attempt, FORCED_RETRY_MS);
      return;
    }
    send(page, move);
  };
  setTimeout(attempt, window.cartelForcedDelayMs ?? FORCED_DELAY_MS);  // tests shorten it
}
const FORCED_RETRY_MS = 200, FORCED_TRIES = 150;  // 30 s of looking again, within one version

// Commands the page sends for the player by a choice the player made (not to be asked to Sway, to
// decline this turn's offers): once per version.
function autoSend(page, commands, why) {
  const at = `${why}@${page.doc.version}`;
  if (page.auto === at) return;
  page.auto = at;
  setTimeout(() => {
    if (page.stopped || page.doc.version !== Number(at.split("@")[1])) return;
    if (page.sending) { page.auto = null; return; } // another send is on its way: the redraw after it asks again
    sendAll(page, commands);
  }, 0);
}

// Ending a turn cannot be taken back: with other moves still listed, the click asks first, inline (a
// window.confirm would block the page and hide from keyboard and automation alike).
const endsTurn = (move) => move.type.startsWith("End");

function confirmEnd(page, button, move) {
  const open = openChoices(page);
  const item = button.closest(".move");
  if (!item || item.querySelector(".confirm-end") || !open) return;
  const label = button.textContent;
  const keep = h("button", { class: "secondary confirm-no", onclick: () => { ask.remove(); button.focus(); } }, "Keep playing");
  const ask = h("div", { class: "confirm-end", role: "alertdialog", "aria-label": `Confirm: ${label}` },
    h("p", {}, `End your turn with ${open} move${open === 1 ? "" : "s"} still open?`),
    h("div", { class: "row" },
      h("button", { class: "confirm-yes", dataset: { move: JSON.stringify(move) } }, `Yes: ${label}`),
      keep));
  item.append(ask);
  ask.querySelector(".confirm-yes").focus();
}

function send(page, command) {
  return sendAll(page, [command]);
}

// Send commands one after another, each decided against the version the last one left (a Sway and
// Done are two commands; another seat answering the same roll in between is no conflict for them).
async function sendAll(page, commands) {
  // One send at a time: an event arriving during a send redraws the moves, and a button of the redraw
  // clicked then (a double tap; a test's next click on a loaded machine) sent the same roll twice
  // ("you already rolled").  The redraw shows its buttons disabled too (renderMoves).
  // A move chosen while another is on its way waits for it, then goes with the version it was chosen at:
  // the server refuses it (409, "the game moved on") if the first changed the game, never applies it twice.
  let version = page.doc.version;
  while (page.sending) await page.sending;
  let sent;
  page.sending = new Promise((resolve) => { sent = resolve; });
  // the question is answered (or another move chosen): it must not come back with the next redraw
  page.el.moves.querySelector(".confirm-end")?.remove();
  for (const button of page.el.moves.querySelectorAll("button")) button.disabled = true;
  // a move rolling your die goes with the Sway chosen beside it (0 unless stepped): its declaration answers so
  const rolling = page.doc.ruleset === "druglord" && commands.length === 1 && rollsYours(commands[0]);
  const sway = rolling ? Math.min(page.ownSway.amount || 0, spareWeight(page.doc.view, page.seat)) : 0;
  // the roll's declaration can reach the page (the live feed) before the move's answer: it is the move's own
  // until the answer says at which version
  if (rolling) page.declared = { amount: sway, at: null };
  try {
    for (const [i, command] of commands.entries()) {
      const answer = await post(page, command, version, i > 0);
      version = answer.version;
      page.instantUpTo = Math.max(page.instantUpTo, version);
      // the answer's events are the page's own move told: logged now (the feed, bringing them again, skips them)
      for (const event of answer.events || []) {
        if (event.version > page.lastVersion && !page.pending.length) { page.lastVersion = event.version; arrived(page, event); }
      }
    }
    page.picked = null;
    page.choices = {};
    page.trade = {};
    if (rolling) { page.declared = { amount: sway, at: version }; page.ownSway = { amount: 0 }; }
    replace(page.el.notice);
    await refresh(page);
    // the page's own moves are on the board at once: the others' after them are told as they come
    const view = page.doc.version === version ? page.doc.view : await within(viewAt(page, version), VIEW_WAIT_MS);
    if (!page.pending.length && (page.shown?.version ?? 0) < version) page.shown = { version, view: view ?? page.doc.view };
    render(page);
  } catch (error) {
    if (rolling) page.declared = null;
    const command = error.command || commands[0];
    if (error instanceof ApiError && error.status === 409) {
      // the pick was for a move that did not land: the player chooses again from the board as it is now
      // (what happened meanwhile is logged as it arrives, at once)
      page.picked = null;
      await refresh(page);
      page.instantUpTo = Math.max(page.instantUpTo, page.doc.version);
      skip(page);
      replace(page.el.notice, h("p", { class: "notice" }, "The game moved on before your move arrived (someone else acted first): refreshed, choose again."));
      toast("Conflict: refreshed");
    } else {
      replace(page.el.notice, h("p", { class: "notice bad" }, h("b", {}, `${words(command.type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase())} refused: `), describeError(error)));
      await refresh(page).catch(() => {});
    }
  } finally {
    page.sending = null;
    sent();
    for (const button of page.el.moves.querySelectorAll("button")) if (!button.dataset.keepDisabled) button.disabled = false;
    if (caughtUp(page)) renderMoves(page);
  }
}

// One command with If-Match at `version`.  A later command of a sequence that meets a 409 while it is
// still legal at the new version (another seat answered the same Sway window meanwhile) is sent again
// once, there; a first command that meets one is the player's choice overtaken: the page says so.
async function post(page, command, version, retry = false) {
  try {
    return await api(`/v1/games/${page.gameId}/commands`, {
      method: "POST", token: token(page), body: command,
      headers: { "If-Match": `"${version}"`, "Idempotency-Key": idempotencyKey() },
    });
  } catch (error) {
    if (retry && error instanceof ApiError && error.status === 409 && error.problem?.still_legal) {
      return post(page, command, error.problem.version, false);
    }
    error.command = command;
    throw error;
  }
}
