// "What would the bot play here?" on the replay page: the search bot's analysis of the seat on move at the version
// shown (POST /v1/analysis, followed while the server's workers search: docs/api.md "Analysis").  Every legal move
// of that seat, best first, with the search's estimate of the seat's share of a win after it and the share of the
// search spent on it; the move the bot plays is marked.  Computed from that seat's knowledge only, by the server.
import { api, describeError } from "./api.js";
import { h, replace } from "./dom.js";

const percent = (x) => `${Math.round(x * 100)}%`;
const FOLLOW_MS = 1000, WAIT_MS = 90000;

// The seat whose move follows `version` in the history (the actor of the next event: a seat, its bot or its clock);
// null when the game moves by itself there, or has ended.
export function seatOnMove(events, version) {
  const next = events.find((e) => e.version === version + 1);
  const [kind, seat] = String(next?.actor ?? "").split(":");
  return ["seat", "bot", "clock"].includes(kind) && seat !== undefined ? Number(seat) : null;
}

// The analysis when done (or failed), following it while it is queued or running on the workers.  `token`: the
// seat's own, for a game still on (only its own seat is analysed then, at a table that allows it).
export async function analyse(gameId, version, seat, token) {
  let doc = await api("/v1/analysis", { method: "POST", body: { game: gameId, version, seat }, token });
  const ends = Date.now() + WAIT_MS;
  while ((doc.status === "queued" || doc.status === "running") && Date.now() < ends) {
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_MS));
    doc = await api(`/v1/analysis/${encodeURIComponent(doc.id)}`, { token });
  }
  return doc;
}

function table(doc, seeing) {
  const playouts = doc.moves.reduce((sum, m) => sum + m.visits, 0);
  const pick = doc.moves.find((m) => m.bot_move);
  // the search keeps its own policy's move unless another one wins clearly more often over its playouts: say so
  // where a move scored higher, or the pick reads as a mistake
  const closer = pick?.value !== null && doc.moves.some((m) => m.value !== null && m.value > pick.value)
    ? h("p", { class: "muted", id: "analysis-margin" }, "The bot keeps its pick unless another move wins clearly more " +
      "often in its playouts: a higher win share here is within the search's margin of error.") : null;
  return [h("table", { class: "analysis-moves", id: "analysis-moves" },
    h("caption", { class: "muted" }, `${playouts} playouts of the search bot, from what ${seeing}: its pick first`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Move"),
      h("th", { scope: "col", title: "The seat's estimated share of a win after this move" }, "Win share"),
      h("th", { scope: "col", title: "How much of the search went into this move" }, "Searched"))),
    h("tbody", {}, doc.moves.map((m) => h("tr", { class: m.bot_move ? "bot-move" : "" },
      h("td", {}, m.label, m.bot_move ? h("span", { class: "badge" }, "bot's pick") : null),
      h("td", { class: "num" }, m.value === null ? h("span", { class: "muted", title: "not tried by the search" }, "—")
        : percent(m.value)),
      // a meter, not a styled width: the page's CSP allows no inline style
      h("td", { class: "num" }, h("meter", { class: "share-bar", min: 0, max: 1, value: m.share, "aria-hidden": "true" }),
        percent(m.share)))))), closer];
}

// The analyses asked in this page, by game, version and seat: the game page redraws its moves whenever an event
// arrives, and a panel drawn again shows the answer (or the wait) of the one it replaced, not a fresh button.
const asked = new Map();
const ASKED_KEPT = 50;

function ask(gameId, version, seat, token) {
  const entry = { settled: false };
  entry.promise = analyse(gameId, version, seat, token)
    .then((doc) => { entry.doc = doc; }, (error) => { entry.error = error; })
    .finally(() => { entry.settled = true; });
  const key = `${gameId}:${version}:${seat}`;
  asked.delete(key);
  asked.set(key, entry);
  if (asked.size > ASKED_KEPT) asked.delete(asked.keys().next().value);
  return entry;
}

// The panel for the version shown: the button for the seat on move, then its answer.  `own`: the game page's own
// seat, live (its token, and "you" in the words).
export function analysisPanel(gameId, version, seat, seatName, { token, own = false } = {}) {
  const out = h("div", { role: "status", "aria-live": "polite" });
  if (seat === null) {
    return h("div", { class: "analysis", id: "analysis" }, h("p", { class: "muted" }, "Nobody chooses a move here."));
  }
  const button = h("button", { id: "analyse", class: "secondary" }, "What would the bot play here?");
  const show = (entry) => {
    button.disabled = !entry.settled;
    if (!entry.settled) {
      replace(out, h("p", { class: "muted" }, `The bot is thinking about ${own ? "your" : `${seatName}'s`} move…`));
    } else if (entry.error) {
      replace(out, h("p", { class: "notice bad" }, describeError(entry.error)));
    } else {
      const doc = entry.doc;
      replace(out, doc.status === "done" ? table(doc, own ? "you can see" : `${seatName} could see`)
        : h("p", { class: "notice bad" }, doc.status === "failed" ? "The search failed: ask again." : "The bot is still thinking: ask again in a moment."));
    }
  };
  // shown here, and again when it settles if this panel is still the one on the page
  const follow = (entry) => {
    show(entry);
    if (!entry.settled) entry.promise.then(() => { if (out.isConnected) show(entry); });
  };
  const before = asked.get(`${gameId}:${version}:${seat}`);
  // an answer already given, or one on its way, shows in the panel drawn again; a failure is asked afresh
  if (before && (!before.settled || before.doc?.status === "done")) follow(before);
  button.addEventListener("click", () => follow(ask(gameId, version, seat, token)));
  return h("div", { class: "analysis", id: "analysis" },
    h("div", { class: "row" }, button, own ? null : h("span", { class: "muted" }, `${seatName} to move`)), out);
}
