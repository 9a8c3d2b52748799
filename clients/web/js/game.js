// The game page: whose turn it is and what is awaited, clocks, the seat's legal moves (with their
// labels; picked on the board where the board can show them), the live event log, and the board.
import { api, ruleset, seats, idempotencyKey, describeError, ApiError } from "./api.js";
import { h, replace, countdown, brief } from "./dom.js";
import { boardFor } from "./boards/index.js";
import { moveForm, mentions } from "./moves.js";
import { toast } from "./app.js";

const LOG_LIMIT = 300;
// a game that has ended: by its rules (finished), or left idle by its humans (abandoned)
const ended = (doc) => doc.status === "finished" || doc.status === "abandoned";

export async function showGame(main, gameId) {
  const page = {
    gameId, held: seats.get(gameId), seat: null, doc: null, rs: null, data: null, schema: null,
    picked: null, feed: null, lastVersion: 0, stopped: false, refreshing: null,
  };
  page.seat = Object.keys(page.held).map(Number).sort((a, b) => a - b)[0] ?? null;
  const el = {
    title: h("h1"), notice: h("div", { role: "alert" }), status: h("div"), board: h("div", { class: "board" }),
    moves: h("div"), log: h("ol", { class: "log", "aria-live": "off" }), seatPanel: h("div"), feed: h("span", { class: "muted" }),
  };
  page.el = el;
  replace(main, el.title, el.notice,
    h("div", { class: "layout" },
      h("div", {}, h("section", { "aria-labelledby": "status-h" }, h("h2", { id: "status-h" }, "Table"), el.status, el.seatPanel),
        h("section", { "aria-label": "Board" }, el.board)),
      h("div", {},
        h("section", { "aria-labelledby": "moves-h" }, h("h2", { id: "moves-h" }, "Your moves"), el.moves),
        h("section", { "aria-labelledby": "log-h" }, h("h2", { id: "log-h" }, "Events ", el.feed), el.log))));

  await refresh(page);
  page.rs = await ruleset(page.doc.ruleset);
  [page.data, page.schema] = await Promise.all([
    ruleset(page.doc.ruleset, "data").then((d) => d.data).catch(() => null),
    ruleset(page.doc.ruleset, "schema").catch(() => null),
  ]);
  render(page);
  follow(page);
  const ticking = setInterval(() => tick(page), 1000);
  return () => {
    page.stopped = true;
    clearInterval(ticking);
    if (page.feed) page.feed.close();
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
  feed.onopen = () => replace(page.el.feed, "(live)");
  feed.onmessage = (message) => {
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

function logEvent(page, event) {
  const secret = event.data && event.data.secret !== undefined;
  page.el.log.prepend(h("li", { dataset: { version: event.version } },
    h("span", { class: "v" }, `v${event.version} `), h("span", {}, actorName(page, event.actor)), " ",
    h("b", {}, event.type), " ", h("span", { class: "muted" }, brief(event.data)), secret ? " 🔒" : ""));
  while (page.el.log.children.length > LOG_LIMIT) page.el.log.lastChild.remove();
}

function actorName(page, actor) {
  const [kind, seat] = String(actor).split(":");
  if (seat === undefined) return actor;
  const you = Number(seat) === page.seat ? " (you)" : "";
  return { seat: `Seat ${seat}${you}`, bot: `Bot ${seat}`, clock: `Clock ${seat}` }[kind] || actor;
}

// ---- rendering --------------------------------------------------------------------------

function render(page) {
  const { doc, rs, el } = page;
  replace(el.title, `${rs.title} `, h("span", { class: `badge ${doc.status}` }, doc.status), " ",
    h("span", { class: "muted" }, `v${doc.version}`));
  replace(el.status, statusLines(page));
  replace(el.seatPanel, seatControls(page));
  renderBoard(page);
  renderMoves(page);
}

function statusLines(page) {
  const { doc } = page;
  const lines = [h("p", {}, page.seat === null ? "You are watching (spectator view)." : `You play seat ${page.seat}.`)];
  if (doc.status === "open") lines.push(h("p", {}, `Waiting for players: seat${doc.open_seats.length > 1 ? "s" : ""} ${doc.open_seats.join(", ")} open.`));
  const awaiting = Object.entries(doc.awaiting || {});
  if (awaiting.length) {
    lines.push(h("ul", { class: "awaiting" }, awaiting.map(([seat, what]) => {
      const info = doc.seats[seat] || {};
      const who = Number(seat) === page.seat ? "You" : `Seat ${seat}${info.kind === "bot" ? ` (bot, ${info.level})` : info.name ? ` (${info.name})` : ""}`;
      const deadline = (doc.clocks || {})[seat];
      return h("li", {}, h("b", { class: `seat${seat % 6}` }, who), what === "response" ? " must answer" : " to move",
        deadline ? [" — ", h("span", { class: "clock", dataset: { deadline } }, countdown(deadline)), " left"] : "");
    })));
  }
  if (ended(doc)) {
    lines.push(h("div", { class: "notice ok" }, h("b", {}, "Game over. "),
      doc.status === "abandoned" ? "Abandoned: no player moved for a long time, so nobody won. " : outcomeText(doc.outcome),
      h("div", { class: "row" }, h("a", { href: `#/replay/${doc.id}` }, "Replay and verify"),
        h("a", { href: `/v1/games/${doc.id}/history`, download: `${doc.id}.jsonl` }, "Download the history"))));
    if (doc.seed) lines.push(h("p", { class: "muted" }, `Seed (revealed): ${doc.seed}`));
  } else {
    lines.push(h("p", { class: "muted" }, `Seed commitment: ${doc.seed_commitment.slice(0, 16)}…`));
  }
  return lines;
}

export function outcomeText(outcome) {
  if (!outcome) return "";
  const winners = outcome.winners ?? outcome.winner ?? outcome.ranking?.[0];
  const parts = [];
  if (winners !== undefined) parts.push(`Winner${Array.isArray(winners) && winners.length > 1 ? "s" : ""}: seat ${[].concat(winners).join(", ")}. `);
  if (outcome.reason) parts.push(outcome.reason);
  return parts.length ? parts.join("") : JSON.stringify(outcome);
}

function seatControls(page) {
  const { doc } = page;
  const held = Object.keys(page.held).map(Number).sort((a, b) => a - b);
  const controls = [];
  if (held.length > 1) {
    controls.push(h("label", {}, "Play as", h("select", { id: "play-as", onchange: (e) => switchSeat(page, Number(e.target.value)) },
      held.map((s) => h("option", { value: s, selected: s === page.seat }, `seat ${s}`)))));
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
    const claimed = await api(`/v1/games/${page.gameId}/seats/${seat}/claim`, { method: "POST", body: {} });
    seats.add(page.gameId, claimed.seat, claimed.token);
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
}

// ---- the board and the moves --------------------------------------------------------------

function movesWithLabels(doc) {
  return (doc.legal_moves || []).map((move, i) => ({ move, label: (doc.move_labels || [])[i] || move.type }));
}

function renderBoard(page) {
  const { doc } = page;
  if (!doc.view) {
    replace(page.el.board, h("p", { class: "muted" }, "The board appears once every seat is taken."));
    return;
  }
  const draw = boardFor(doc.ruleset);
  replace(page.el.board, draw({
    view: doc.view, data: page.data, doc, seat: page.seat, moves: movesWithLabels(doc), picked: page.picked,
    pick: (value) => { page.picked = page.picked === value ? null : value; render(page); },
  }));
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
  if (!moves.length) {
    out.push(h("p", { class: "muted" }, ended(doc) ? "The game is over." :
      page.picked !== null ? "No move involves this." : "Nothing to do now: waiting for the others."));
  } else {
    out.push(h("div", { class: "moves", role: "list" }, moves.map(({ move, label }) =>
      h("div", { class: "move", role: "listitem" },
        h("button", { class: "play-move", dataset: { move: JSON.stringify(move) }, onclick: () => send(page, move) }, label),
        h("button", { class: "secondary", title: "Edit before sending", "aria-label": `Edit: ${label}`,
          onclick: () => { page.form.load(move); page.form.element.open = true; page.form.element.scrollIntoView({ block: "nearest" }); } }, "✎")))));
  }
  if (page.schema) {
    page.form = moveForm(page.schema.commands, (command) => send(page, command));
    out.push(page.form.element);
  }
  replace(page.el.moves, out);
}

async function send(page, command) {
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
