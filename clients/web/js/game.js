// The game page: whose turn it is and what is awaited, clocks, the seat's legal moves (with their
// labels; picked on the board where the board can show them), the live event log, and the board.
import { api, ruleset, seats, prefs, idempotencyKey, describeError, ApiError, commitments, contributeOwed, randomEntropy } from "./api.js";
import { h, replace, countdown, brief, words, focusableScrolls } from "./dom.js";
import { boardFor } from "./boards/index.js";
import { who } from "./boards/pick.js";
import { moveForm, mentions } from "./moves.js";
import { toast } from "./app.js";

const LOG_LIMIT = 300;
const TITLE = document.title;
// a game that has ended: by its rules (finished), or left idle by its humans (abandoned)
const ended = (doc) => doc.status === "finished" || doc.status === "abandoned";

export async function showGame(main, gameId) {
  const page = {
    gameId, held: seats.get(gameId), seat: null, doc: null, rs: null, data: null, schema: null,
    picked: null, feed: null, lastVersion: 0, stopped: false, refreshing: null,
    pending: [], pacing: null, touched: new Map(), wasMyTurn: false, openedAt: 0,
  };
  page.seat = Object.keys(page.held).map(Number).sort((a, b) => a - b)[0] ?? null;
  const el = {
    title: h("h1"), notice: h("div", { role: "alert" }), status: h("div"), board: h("div", { class: "board" }),
    moves: h("div"), log: h("ol", { class: "log", "aria-live": "off", tabindex: 0, "aria-label": "What happened, oldest first" }), seatPanel: h("div"), feed: h("span", { class: "muted" }),
    skip: h("span"), alerts: h("div", { class: "row alerts" }),
  };
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
  replace(main, el.title, el.notice,
    h("div", { class: "layout game" },
      h("div", {}, h("section", { class: "status", "aria-labelledby": "status-h" }, h("h2", { id: "status-h" }, "Table"), el.status, el.seatPanel),
        h("section", { class: "board-section", "aria-label": "Board" }, el.board)),
      h("div", {},
        h("section", { class: "moves-section", "aria-labelledby": "moves-h" }, h("h2", { id: "moves-h" }, "Your moves"), el.moves),
        h("section", { class: "log-section", "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, "What happened ", el.feed), el.skip, el.log))));

  await refresh(page);
  page.openedAt = page.doc.version;
  page.rs = await ruleset(page.doc.ruleset);
  [page.data, page.schema] = await Promise.all([
    // the board of the game's own rules version (a version-1 Druglord game keeps its version-1 map)
    ruleset(page.doc.ruleset, `data?version=${page.doc.ruleset_version || 1}`).then((d) => d.data).catch(() => null),
    ruleset(page.doc.ruleset, "schema").catch(() => null),
  ]);
  render(page);
  follow(page);
  const ticking = setInterval(() => tick(page), 1000);
  return () => {
    page.stopped = true;
    clearInterval(ticking);
    clearTimeout(page.pacing);
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
      try {
        page.doc = await api(`/v1/games/${page.gameId}`, { token: token(page) });
      } catch (error) {
        if (error.status === 401 && page.seat !== null) { // a token this game does not know: watch instead
          replace(page.el.notice, h("p", { class: "notice bad" }, `Seat ${page.seat}'s token was refused (${describeError(error)}); watching as a spectator.`));
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
  if (page.rs) render(page);
  if (note) replace(page.el.notice, h("p", { class: "notice" }, note));
}

const token = (page) => (page.seat === null ? undefined : page.held[page.seat]);

// ---- the live feed: SSE with a stream ticket (an EventSource cannot send Authorization) -----

async function follow(page) {
  if (page.stopped) return;
  const seat = page.seat;
  let url = `/v1/games/${page.gameId}/events?after=${page.lastVersion || Math.max(0, page.doc.version - 40)}`;
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
  feed.onopen = () => { page.heardAt = Date.now(); replace(page.el.feed, "(live)"); };
  feed.onmessage = (message) => {
    page.heardAt = Date.now();
    const event = JSON.parse(message.data);
    page.lastVersion = Math.max(page.lastVersion, event.version);
    logEvent(page, event);
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

// Other seats' events play one at a time at a readable pace (the player's own land at once): a bot
// turn of 30 events is a short story, not a jump.  "Skip" shows the rest at once.
const PACE_MS = 350, PACE_BUDGET_MS = 2000;

const PACE_AT_MOST = 12; // further behind than this, the older events are shown at once

function logEvent(page, event) {
  // what had happened before the page opened is history: shown at once, not played
  if (event.version <= page.openedAt && !page.pending.length) { showEvent(page, event); return; }
  page.pending.push(event);
  while (page.pending.length > PACE_AT_MOST) showEvent(page, page.pending.shift());
  if (!page.pacing) pace(page);
}

function pace(page) {
  const event = page.pending.shift();
  if (!event) { page.pacing = null; replace(page.el.skip); return; }
  showEvent(page, event);
  const mine = page.seat !== null && event.actor === `seat:${page.seat}`;
  const delay = mine || !page.pending.length ? 0 : Math.min(PACE_MS, PACE_BUDGET_MS / page.pending.length);
  if (page.pending.length > 1) replace(page.el.skip, h("button", { class: "secondary", onclick: () => skip(page) }, `Skip (${page.pending.length})`));
  page.pacing = setTimeout(() => pace(page), delay);
}

function skip(page) {
  clearTimeout(page.pacing);
  while (page.pending.length) showEvent(page, page.pending.shift());
  page.pacing = null;
  replace(page.el.skip);
}

function showEvent(page, event) {
  const log = page.el.log;
  const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const secret = event.data && event.data.secret !== undefined;
  const [kind, seatOf] = String(event.actor).split(":");
  const narration = event.narration;
  const text = narration ? sentence(page, narration) : [h("b", {}, event.type), " ", h("span", { class: "muted" }, brief(event.data))];
  log.append(h("li", { dataset: { version: event.version, actor: event.actor, ...(secret ? { secret: "1" } : {}) },
    class: seatOf !== undefined && kind !== "clock" ? `by-seat${Number(seatOf) % 6}` : "" },
    text, secret ? h("span", { class: "secret", title: "Only your seat reads this" }, " secret") : "",
    h("span", { class: "dev-only muted" }, ` v${event.version} ${event.actor} ${event.type} ${brief(event.data)}`)));
  while (log.children.length > LOG_LIMIT) log.firstChild.remove();
  if (atBottom) log.scrollTop = log.scrollHeight;
  if (narration) touch(page, narration.refs || []);
}

// The sentence with the seats it names in their colours.
function sentence(page, narration) {
  let parts = [narration.text];
  for (const ref of narration.refs || []) {
    if (ref.kind !== "seat" || !ref.text) continue;
    parts = parts.flatMap((part) => typeof part !== "string" ? [part] : part.split(ref.text).flatMap((piece, i) =>
      i ? [h("b", { class: `seat${Number(ref.id) % 6}` }, ref.text), piece] : [piece]));
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
  for (const el of page.el.board.querySelectorAll(THINGS)) {
    const ids = THING_KEYS.map((key) => el.dataset[key]).filter((v) => v !== undefined)
      .map((thing) => (thing.includes("=") ? thing.split("=")[1] : thing));
    el.classList.toggle("touched", ids.some((id) => page.touched.has(id)));
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
  replace(el.title, `${rs.title} `, h("span", { class: `badge ${doc.status}` }, doc.status), " ",
    h("span", { class: "muted dev-only" }, `v${doc.version}`), " ",
    h("a", { class: "rules-link", href: `#/rules/${doc.ruleset}`, target: "_blank", rel: "noopener" }, "Rules"));
  announceTurn(page);
  replace(el.status, statusLines(page));
  replace(el.seatPanel, seatControls(page));
  renderBoard(page);
  renderMoves(page);
  markTouched(page);
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
    if (document.hidden && "Notification" in window && Notification.permission === "granted") {
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

function alertControls() {
  const sound = h("input", { type: "checkbox", checked: prefs.get("sound"), onchange: (e) => prefs.set("sound", e.target.checked) });
  const autoplay = h("input", { type: "checkbox", class: "autoplay", checked: prefs.get("autoplay"), onchange: (e) => prefs.set("autoplay", e.target.checked) });
  const controls = [h("label", {}, sound, "Sound on my turn"),
    h("label", { title: "A roll or a draw that is your only move is played for you after a moment" }, autoplay, "Play my only move for me")];
  if ("Notification" in window && Notification.permission === "default") {
    controls.push(h("button", { class: "secondary", onclick: async (e) => { await Notification.requestPermission(); e.target.remove(); } },
      "Notify me when it is my turn"));
  }
  return controls;
}

function statusLines(page) {
  const { doc } = page;
  const lines = [h("p", {}, page.seat === null ? "You are watching (spectator view)." : `You play seat ${page.seat}.`,
    page.seat !== null && doc.seats[page.seat]?.name ? ` (${doc.seats[page.seat].name})` : "")];
  if (doc.status === "open") lines.push(h("p", {}, `Waiting for players: seat${doc.open_seats.length > 1 ? "s" : ""} ${doc.open_seats.join(", ")} open.`));
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
    if (page.seat !== null) lines.push(h("div", { class: "row" }, alertControls()));
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
    perSeat.length ? h("table", { class: "scores" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Player"), perSeat.map(([key]) => h("th", { scope: "col" }, words(key))))),
      h("tbody", {}, doc.seats.map((_, seat) => h("tr", { class: winners.includes(seat) ? "winner" : "" },
        h("th", { scope: "row", class: `seat${seat % 6}` }, seatName(doc, seat, page.seat)), perSeat.map(([, values]) => h("td", {}, String(values[seat]))))))) : null,
    h("div", { class: "row" }, h("a", { href: `#/replay/${doc.id}` }, "Replay and verify"),
      h("a", { href: `/v1/games/${doc.id}/history`, download: `${doc.id}.jsonl` }, "Download the history")));
}

// The outcome's reason with seat numbers in it ("seat 2 reached 10 points") in the players' names.
export function outcomeText(outcome, doc = null) {
  if (!outcome) return "";
  let reason = outcome.reason ? String(outcome.reason) : "";
  if (doc) reason = reason.replace(/\bseats? (\d+)/gi, (_, n) => seatName(doc, Number(n)));
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
      held.map((s) => h("option", { value: s, selected: s === page.seat }, `seat ${s}${doc.seats[s]?.name ? ` (${doc.seats[s].name})` : ""}`)))));
  }
  for (const seat of doc.open_seats || []) {
    controls.push(h("button", { onclick: () => claimSeat(page, seat) }, `Take seat ${seat}`));
  }
  if (page.seat !== null && doc.seats[page.seat]?.kind === "bot" && doc.status === "active") {
    controls.push(h("button", { onclick: () => reclaim(page) }, "Take your seat back from the bot"));
  }
  return controls.length ? h("div", { class: "row" }, controls) : null;
}

async function switchSeat(page, seat) {
  page.seat = seat;
  page.picked = null;
  if (page.feed) page.feed.close();
  // the log holds the other seat's feed, its secrets included: the new seat reads its own from the start
  replace(page.el.log);
  page.lastVersion = 0;
  await refresh(page);
  follow(page);
}

async function claimSeat(page, seat) {
  try {
    const claimed = await api(`/v1/games/${page.gameId}/seats/${seat}/claim`,
      { method: "POST", body: { entropy: randomEntropy() } });
    seats.add(page.gameId, claimed.seat, claimed.token);
    commitments.keep(page.gameId, claimed.seed_commitment);
    page.held = seats.get(page.gameId);
    await switchSeat(page, claimed.seat);
  } catch (error) {
    replace(page.el.notice, h("p", { class: "notice bad" }, describeError(error)));
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

function movesWithLabels(doc) {
  return (doc.legal_moves || []).map((move, i) => ({ move, label: (doc.move_labels || [])[i] || move.type }));
}

// A press held longer than this is a drag or a lost release: the board no longer waits for it.
const PRESS_MS = 4000;

function renderBoard(page) {
  const { doc } = page;
  if (page.pressedAt && Date.now() - page.pressedAt < PRESS_MS) { page.boardStale = true; return; }
  page.boardStale = false;
  if (!doc.view) {
    replace(page.el.board, h("p", { class: "muted" }, "The board appears once every seat is taken."));
    return;
  }
  const draw = boardFor(doc.ruleset);
  replace(page.el.board, draw({
    view: doc.view, data: page.data, doc, seat: page.seat, moves: movesWithLabels(doc), picked: page.picked,
    // a pick is the click a press ended in: the board redraws now, whatever became of the release
    pick: (value) => { page.pressedAt = 0; page.picked = page.picked === value ? null : value; render(page); },
  }));
  focusableScrolls(page.el.board);
  if (page.picked !== null) page.el.board.append(popover(page));
}

// The moves naming what was picked, next to it on the board (a phone's moves panel is a screen away).
function popover(page) {
  const moves = movesWithLabels(page.doc).filter(({ move }) => mentions(move, page.picked));
  const target = [...page.el.board.querySelectorAll(THINGS)].find((e) => THING_KEYS.some((key) => e.dataset[key] === String(page.picked)));
  const box = page.el.board.getBoundingClientRect(), at = target ? target.getBoundingClientRect() : box;
  const left = Math.max(0, Math.min(at.left - box.left, box.width - 260)), top = at.bottom - box.top + 6;
  const shown = h("div", { class: "popover", role: "dialog", "aria-label": `Moves for ${target?.getAttribute("aria-label") || page.picked}` },
    h("p", { class: "popover-what" }, target?.getAttribute("aria-label") || String(page.picked)),
    moves.map(({ move, label }) => h("button", { class: "popover-move", dataset: { move: JSON.stringify(move) }, onclick: () => send(page, move) }, label)),
    h("button", { class: "secondary", onclick: () => { page.picked = null; render(page); } }, "Close"));
  // through the CSSOM: the page's Content-Security-Policy refuses inline style attributes
  Object.assign(shown.style, { left: `${left}px`, top: `${top}px` });
  return shown;
}

function renderMoves(page) {
  const { doc } = page;
  let moves = movesWithLabels(doc);
  const out = [];
  if (page.seat === null) {
    replace(page.el.moves, h("p", { class: "muted" }, ended(doc) ? "The game is over." : "Spectators have no moves. Take an open seat to play."));
    return;
  }
  if (page.picked !== null) {
    moves = moves.filter(({ move }) => mentions(move, page.picked));
    // the board's own name for what was picked ("Intersection 4, vacant"), else the value itself
    const shown = [...page.el.board.querySelectorAll("[data-pick]")].find((e) => e.dataset.pick === String(page.picked));
    out.push(h("div", { class: "row" }, h("span", { class: "picked-what" }, `Moves for ${shown?.getAttribute("aria-label") || page.picked}`),
      h("button", { class: "secondary", onclick: () => { page.picked = null; render(page); } }, "Show all")));
  }
  const open = moves.filter(({ move }) => !endsTurn(move)).length; // moves other than ending the turn
  if (!moves.length) {
    out.push(h("p", { class: "muted" }, ended(doc) ? "The game is over." :
      page.picked !== null ? "No move involves this." : "Nothing to do now: waiting for the others."));
  } else {
    // a forced move is proposed with one click: the whole panel is that one button
    const forced = moves.length === 1 && page.picked === null;
    out.push(h("div", { class: `moves${forced ? " only" : ""}`, role: "list" }, moves.map(({ move, label }) =>
      h("div", { class: "move", role: "listitem" },
        h("button", { class: `play-move${forced ? " forced" : ""}`, dataset: { move: JSON.stringify(move) },
          onclick: (event) => endsTurn(move) && open ? confirmEnd(page, event.currentTarget, move, label, open) : send(page, move) },
        forced ? `Do it: ${label}` : label),
        h("button", { class: "secondary dev-only", title: "Edit before sending", "aria-label": `Edit: ${label}`,
          onclick: () => { page.form.load(move); page.form.element.open = true; page.form.element.scrollIntoView({ block: "nearest" }); } }, "Edit")))));
    if (forced) playForced(page, moves[0].move);
  }
  // offers, bets and trades with terms a list cannot enumerate are composed from the command schemas
  if (page.schema && moves.length) {
    page.form = moveForm(page.schema.commands, (command) => send(page, command));
    out.push(page.form.element);
  }
  const asking = page.el.moves.querySelector(".confirm-end .confirm-yes")?.dataset.move;
  replace(page.el.moves, out);
  // a confirmation still open when an event redraws the moves stays open while its move is still legal
  const again = asking && [...page.el.moves.querySelectorAll("button.play-move")].find((b) => b.dataset.move === asking);
  const which = again && moves.find(({ move }) => JSON.stringify(move) === asking);
  if (which && open) confirmEnd(page, again, which.move, which.label, open);
}

// "Play my only move for me" (a preference, off unless chosen): a move that is the only one the seat
// has and takes no choice at all (a roll, a draw: nothing but its type) is played after a moment to
// read the table, as Board Game Arena's automatic moves are.  A move with arguments is still clicked.
const FORCED_DELAY_MS = 800;

function playForced(page, move) {
  if (!prefs.get("autoplay") || Object.keys(move).length !== 1 || page.autoAt === page.doc.version) return;
  const version = page.autoAt = page.doc.version;
  setTimeout(() => {
    const button = page.el.moves.querySelector("button.play-move.forced");
    if (!page.stopped && page.doc.version === version && button?.dataset.move === JSON.stringify(move)) send(page, move);
  }, window.cartelForcedDelayMs ?? FORCED_DELAY_MS);  // tests shorten it
}

// Ending a turn cannot be taken back: with other moves still listed, the click asks first, inline (a
// window.confirm would block the page and hide from keyboard and automation alike).
const endsTurn = (move) => move.type.startsWith("End");

function confirmEnd(page, button, move, label, open) {
  const item = button.closest(".move");
  if (item.querySelector(".confirm-end")) return;
  const keep = h("button", { class: "secondary confirm-no", onclick: () => { ask.remove(); button.focus(); } }, "Keep playing");
  const ask = h("div", { class: "confirm-end", role: "alertdialog", "aria-label": `Confirm: ${label}` },
    h("p", {}, `End your turn with ${open} move${open === 1 ? "" : "s"} still open?`),
    h("div", { class: "row" },
      h("button", { class: "confirm-yes", dataset: { move: JSON.stringify(move) }, onclick: () => send(page, move) }, `Yes: ${label}`),
      keep));
  item.append(ask);
  ask.querySelector(".confirm-yes").focus();
}

async function send(page, command) {
  // the question is answered (or another move chosen): it must not come back with the next redraw
  page.el.moves.querySelector(".confirm-end")?.remove();
  for (const button of page.el.moves.querySelectorAll("button")) button.disabled = true;
  try {
    await api(`/v1/games/${page.gameId}/commands`, {
      method: "POST", token: token(page), body: command,
      headers: { "If-Match": `"${page.doc.version}"`, "Idempotency-Key": idempotencyKey() },
    });
    page.picked = null;
    replace(page.el.notice);
    await refresh(page);
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      // the pick was for a move that did not land: the player chooses again from the board as it is now
      page.picked = null;
      await refresh(page, "The game moved on before your move arrived (someone else acted first): refreshed, choose again.");
      toast("Conflict: refreshed");
    } else {
      replace(page.el.notice, h("p", { class: "notice bad" }, h("b", {}, `${command.type} refused: `), describeError(error)));
      await refresh(page).catch(() => {});
    }
  } finally {
    for (const button of page.el.moves.querySelectorAll("button")) button.disabled = false;
  }
}
