// "Your turn" elsewhere: while any page of the site is open, the player's stream (GET /v1/players/me/stream,
// docs/api.md "My stream") is followed, and what it says about a game other than the one on screen (or about
// any, while the tab is hidden) shows as a notice with a link: "Your turn in Kingpin against Bo".  The tab's
// title says it too; the browser's notifications only once the player switches them on (Settings), which is
// when the page asks the browser's permission, never on load.  Challenges and rematch offers come alike.
//
// One tab follows the stream for all of this browser's tabs (a Web Lock elects it; a browser holds only six
// connections to a site, and each tab holds its game's stream already) and hands each note to the others
// (BroadcastChannel).  The last note's id is kept in this browser's storage: a reload, a reconnect or the
// next tab to follow resumes after it (Last-Event-ID), so nothing is told twice.
import { api, prefs, ruleset, seats } from "./api.js";
import { andList, h, timeAgo } from "./dom.js";
import { who, seatWords } from "./boards/pick.js";
import { player, asPlayer, seatLink } from "./player.js";
import { followStream } from "./stream.js";

const LAST = (playerId) => `tabletop-cartel:stream-last:${playerId}`;
const GAME_NOTES = new Set(["your_turn", "game_started", "game_finished", "rematch_offer", "challenge_accepted"]);
const SHOWN_AT_MOST = 3;

const notices = new Map(); // key (game:<id> | challenge:<id>) -> {text, el}
const listeners = new Set();
const handled = new Set(); // note ids this tab has handled (its own follow's and the others')
const accepting = new Set(); // challenges accepted on this page: their game opens here, no notice for it
let channel = null, follow = null, release = null, waiting = null, box = null, base = document.title, prefix = "";

export const onNote = (f) => { listeners.add(f); return () => listeners.delete(f); };

// The game on screen: #/games/<id>
export const gameOnScreen = () => {
  const [, page, rest = ""] = (location.hash || "#/").slice(1).split("/");
  return page === "games" && rest ? decodeURIComponent(rest.split("?")[0]) : null;
};

// Who the player plays against, by name: "Bo and Cy", "Bo and a bot", "two bots".
export function opponents(doc, mine) {
  const people = [], bots = [];
  (doc.seats || []).forEach((s, i) => {
    if (i === mine) return;
    if (s.kind === "bot" && !s.name) bots.push(i);
    else people.push(s.kind === "open" ? `an open seat` : who(doc, i));
  });
  if (bots.length) people.push(bots.length === 1 ? "a bot" : `${["", "", "two", "three", "four", "five"][bots.length] || "several"} bots`);
  return andList(people) || "nobody";
}

// ---- browser notifications, when switched on -------------------------------------------------

export const notifyOn = () => "Notification" in window && Notification.permission === "granted" &&
  prefs.value("notify", true) !== false;

// The switch, for a Settings menu: asking the browser's permission when the player turns it on.
export function notifySetting() {
  if (!("Notification" in window)) return null;
  const said = h("span", { class: "muted notify-said", role: "status" });
  const box = h("input", { type: "checkbox", class: "notify-switch", checked: notifyOn(), onchange: async () => {
    if (!box.checked) { prefs.set("notify", false); return; }
    const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    box.checked = answer === "granted";
    prefs.set("notify", box.checked);
    said.textContent = box.checked ? "" : "Your browser blocks this site's notifications: allow them in its site settings.";
  } });
  return h("div", { class: "notify-setting" }, h("label", {}, box, "Browser notifications when it is my turn in another game, I am challenged or offered a rematch"), said);
}

function notifyBrowser(key, text, href) {
  if (!document.hidden || !notifyOn()) return;
  try {
    const shown = new Notification(text, { body: "Tabletop Cartel", tag: key });
    shown.onclick = () => { window.focus(); if (href) location.hash = href; shown.close(); };
  } catch { /* a browser that only notifies from a service worker: the notice and the title still say it */ }
}

// ---- the tab's title ---------------------------------------------------------------------------

// The page's own title (a game's "● Your move — Kingpin") stays; the notices go before it.
function retitle() {
  const others = [...notices.entries()].filter(([key]) => key !== `game:${gameOnScreen()}`).map(([, n]) => n.text);
  prefix = others.length ? `(${others.length}) ${others.at(-1)}${others.length > 1 ? " and more" : ""} · ` : ""; // the newest
  if (document.title !== prefix + base) document.title = prefix + base;
}

function watchTitle() {
  const title = document.querySelector("title");
  if (!title) return;
  new MutationObserver(() => {
    if (document.title === prefix + base) return;
    base = prefix && document.title.startsWith(prefix) ? document.title.slice(prefix.length) : document.title;
    retitle();
  }).observe(title, { childList: true, characterData: true, subtree: true });
}

// ---- the notices ---------------------------------------------------------------------------

function drop(key) {
  const notice = notices.get(key);
  if (!notice) return;
  notice.el.remove();
  notices.delete(key);
  retitle();
}

// A notice: its sentence (a link to the game when `game` is given) and, for a challenge, its answers.
function show(key, kind, text, { game, seat, actions } = {}) {
  drop(key);
  // the game may have opened while its note was read (a game just created: its first turn's note comes as
  // the page goes to it); on screen, it says itself
  if (game && game.id === gameOnScreen() && !document.hidden) return retitle();
  const close = h("button", { type: "button", class: "secondary notice-close", "aria-label": `Dismiss: ${text}`, onclick: () => drop(key) }, "×");
  const said = game ? seatLink(() => drop(key), text, game, seat) : text;
  const el = h("div", { class: `note-card ${kind}`, dataset: { key, kind } }, h("p", {}, said), actions ? h("div", { class: "row" }, actions) : null, close);
  notices.set(key, { text, el });
  box.prepend(el);
  while (box.children.length > SHOWN_AT_MOST) drop(box.lastElementChild.dataset.key);
  retitle();
}

async function gameNote(kind, data) {
  const me = player.get();
  if (!me || !data.game_id) return;
  const doc = await api(`/v1/games/${encodeURIComponent(data.game_id)}`, { token: me.key });
  doc.id ??= data.game_id;
  const title = (await ruleset(doc.ruleset).catch(() => null))?.title || doc.ruleset;
  const seat = data.your_seat ?? data.seat;
  const against = opponents(doc, seat);
  const awaited = String(seat) in (doc.awaiting || {});
  const key = `game:${doc.id}`;
  if (kind === "your_turn") {
    if (!awaited || doc.status !== "active") return; // played since (another tab, another device): nothing to say
    let text = `Your turn in ${title} against ${against}`;
    // two games against the same people read alike: the newer says when it started
    if ([...notices].some(([k, n]) => k !== key && n.text === text)) text += ` (started ${timeAgo(doc.created_at)})`;
    show(key, "turn", text, { game: doc, seat });
    return notifyBrowser(key, text, `#/games/${doc.id}`);
  }
  if (kind === "game_started" || kind === "challenge_accepted") {
    if (awaited || doc.status === "finished" || doc.status === "abandoned") return; // "your turn" says it
    const text = kind === "game_started" ? `${title} against ${against} has started` : `Your challenge was accepted: ${title} against ${against}`;
    return show(key, "started", text, { game: doc, seat });
  }
  if (kind === "game_finished") {
    const said = data.outcome ? `: ${seatWords(data.outcome, doc).replace(/[.]$/, "")}` : "";
    const text = `${title} against ${against} is over${said}.`;
    show(key, "finished", text, { game: doc, seat });
    return notifyBrowser(key, text, `#/games/${doc.id}`);
  }
  if (kind === "rematch_offer") {
    if (doc.rematch?.game_id) return; // made already
    const text = `${who(doc, data.seat)} wants a rematch of ${title}`;
    show(key, "rematch", text, { game: doc, seat });
    return notifyBrowser(key, text, `#/games/${doc.id}`);
  }
}

async function challengeNote(kind, data) {
  const key = `challenge:${data.challenge}`;
  if (kind === "challenge_declined") return show(key, "declined", `${data.by} declined your challenge.`);
  if (data.expires_at && data.expires_at < Date.now()) return;
  const title = (await ruleset(data.ruleset).catch(() => null))?.title || data.ruleset;
  const text = `${data.from} challenges you to ${title}${data.seats > 2 ? ` (${data.seats} players)` : ""}`;
  const answer = (verb) => async (event) => {
    event.target.disabled = true;
    try {
      if (verb === "accept") accepting.add(data.challenge);
      const answered = await asPlayer(`/v1/challenges/${encodeURIComponent(data.challenge)}/${verb}`, { method: "POST" });
      drop(key);
      if (verb === "accept") {
        seats.add(answered.game_id, answered.seat, answered.token);
        location.hash = `#/games/${encodeURIComponent(answered.game_id)}`;
      }
    } catch (error) {
      show(key, "declined", `${text}: ${error.status === 409 ? "no longer open" : error.message}`);
    }
  };
  show(key, "challenge", text, { actions: [h("button", { type: "button", class: "accept-challenge", onclick: answer("accept") }, "Accept"),
    h("button", { type: "button", class: "secondary decline-challenge", onclick: answer("decline") }, "Decline")] });
  notifyBrowser(key, text, null);
}

// A note, from this tab's follow or another tab's: told unless it is about the game on screen while the
// player looks at it (that page says it already).
async function noted(note) {
  if (handled.has(note.id)) return;
  handled.add(note.id);
  let data;
  try { data = JSON.parse(note.data); } catch { return; }
  listeners.forEach((f) => f(note.event, data));
  if (GAME_NOTES.has(note.event)) {
    if (data.game_id === gameOnScreen() && !document.hidden) return;
    if (note.event === "challenge_accepted" && accepting.has(data.challenge)) return;
    await gameNote(note.event, data).catch(() => {});
  } else if (note.event.startsWith("challenge")) {
    await challengeNote(note.event, data).catch(() => {});
  }
}

// ---- following: one tab of this browser, for all ------------------------------------------------

function lead(me) {
  const url = "/v1/players/me/stream";
  const start = () => {
    follow = followStream(url, {
      headers: () => ({ Authorization: `Bearer ${player.get()?.key || me.key}` }),
      // a new player's feed is read from its start: its first notes may come before the first connection
      lastId: () => localStorage.getItem(LAST(me.id)) || "0-0",
      onMessage: (note) => {
        if (note.id) localStorage.setItem(LAST(me.id), note.id);
        channel?.postMessage({ player: me.id, note });
        noted(note);
      },
      onState: (state, status) => {
        document.body.dataset.myStream = state;
        if (status === 401) player.forget(); // a key the service does not know (its data was reset): a new player next time
      },
    });
  };
  if (!navigator.locks) { start(); return; }
  waiting = new AbortController(); // a tab waiting for the lock stops waiting when its player changes
  navigator.locks.request(`tabletop-cartel:my-stream:${me.id}`, { signal: waiting.signal }, () => {
    waiting = null;
    start();
    return new Promise((resolve) => { release = resolve; }); // held until this tab stops following
  }).catch(() => {});
}

function stop() {
  waiting?.abort();
  waiting = null;
  follow?.stop();
  follow = null;
  release?.();
  release = null;
}

function restart(me) {
  stop();
  if (me) lead(me);
}

export function startNotices() {
  box = document.getElementById("notices");
  if (!box) return;
  watchTitle();
  if ("BroadcastChannel" in window) {
    channel = new BroadcastChannel("tabletop-cartel:my-stream");
    channel.onmessage = (message) => { if (message.data?.player === player.get()?.id) noted(message.data.note); };
  }
  // opening a game answers what was said about it
  window.addEventListener("hashchange", () => { const id = gameOnScreen(); if (id) drop(`game:${id}`); retitle(); });
  // a player made on this page (or another tab of this browser) starts the follow
  player.onChange((me) => restart(me));
  window.addEventListener("storage", (event) => { if (event.key === "tabletop-cartel:player") restart(player.get()); });
  restart(player.get());
}
