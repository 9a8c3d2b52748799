// This browser's player (docs/api.md "Players"): a name and a key, made without asking the first time the
// player creates a game or takes a seat, and kept in this browser's storage.  The seats the page creates or
// takes with the key are bound to the player on the server: they are listed in My games (mine.js) and their
// turns come on the player's stream (notices.js).  Anonymous seats stay possible: a second seat on this
// device (hot seat) is taken without the key, under the name typed for it.
import { api, ApiError, seats } from "./api.js";
import { h } from "./dom.js";

const KEY = "tabletop-cartel:player";
const listeners = new Set();

export const player = {
  // {id, name, key} or null
  get() {
    try { return JSON.parse(localStorage.getItem(KEY)) || null; } catch { return null; }
  },
  set(me) { localStorage.setItem(KEY, JSON.stringify(me)); listeners.forEach((f) => f(me)); },
  forget() { localStorage.removeItem(KEY); listeners.forEach((f) => f(null)); },
  onChange(f) { listeners.add(f); return () => listeners.delete(f); },
};

// A player's name: 2 to 24 ASCII letters, digits, '_' or '-', starting with a letter or a digit, unique
// whatever its case (events/players.py).  What was typed, made to fit: accents dropped, spaces as '_'.
export function fitName(typed) {
  const ascii = String(typed || "").normalize("NFD").replace(/[\u0300-\u036f]/g, "").trim()
    .replace(/\s+/g, "_").replace(/[^A-Za-z0-9_-]/g, "").replace(/^[_-]+/, "").slice(0, 24);
  return ascii.length >= 2 ? ascii : "";
}

// A name for a player who gave none: two words and three letters, no digits (a digit in a name reads like an
// id on the page).  The letters make about seven million names: two words alone are 400, which a server's
// players soon take, and the page then had nothing left to offer (a test session's server met a taken name in
// most runs: its 409 is in the console whatever the page does next).
const FIRST = ["Quiet", "Lucky", "Sly", "Brave", "Swift", "Calm", "Bold", "Sharp", "Merry", "Grand", "Dusty", "Silver",
  "Cosmic", "Velvet", "Rusty", "Sunny", "Stormy", "Clever", "Nimble", "Jolly"];
const SECOND = ["Otter", "Falcon", "Badger", "Lynx", "Heron", "Fox", "Raven", "Marten", "Viper", "Moose", "Gecko",
  "Bison", "Panda", "Tiger", "Walrus", "Coyote", "Magpie", "Jackal", "Puma", "Ibex"];
const pick = (list) => list[crypto.getRandomValues(new Uint32Array(1))[0] % list.length];
const LETTERS = "abcdefghijklmnopqrstuvwxyz".split("");
export const madeUpName = () => `${pick(FIRST)}-${pick(SECOND)}-${pick(LETTERS)}${pick(LETTERS)}${pick(LETTERS)}`;

// The player, made now if this browser has none: under the typed name if it fits and is free, else that name
// with a word after it, else a made-up one.  The player's stream (notices.js) reads a new feed from its
// start, so nothing said between now and its first connection is missed.
export async function ensurePlayer(typed = "") {
  const held = player.get();
  if (held) return held;
  const wanted = fitName(typed);
  const tries = wanted ? [wanted, `${wanted.slice(0, 17)}-${pick(SECOND)}`, madeUpName()] : [madeUpName(), madeUpName(), madeUpName()];
  let last;
  for (const name of tries) {
    try {
      const made = await api("/v1/players", { method: "POST", body: { name } });
      const me = { id: made.id, name: made.name, key: made.key };
      player.set(me);
      return me;
    } catch (error) {
      last = error;
      if (error.status !== 409) throw error; // the name is another player's: the next one
    }
  }
  throw last;
}

// A request as the player; a key the service no longer knows (its data was reset) is forgotten, and the
// request made once more with a new player.
export async function asPlayer(path, options = {}, typed = "") {
  const me = await ensurePlayer(typed);
  try {
    return await api(path, { ...options, token: me.key });
  } catch (error) {
    if (!(error instanceof ApiError) || error.problem?.code !== "player-key-invalid") throw error;
    player.forget();
    return api(path, { ...options, token: (await ensurePlayer(typed)).key });
  }
}

// Take an open seat: bound to the player when it is this browser's first seat at the table (the seat then
// carries the player's name), anonymous under the typed name when it is another (played here too: hot seat).
export function claimAs(gameId, seat, typed, body) {
  const path = `/v1/games/${encodeURIComponent(gameId)}/seats/${seat}/claim`;
  if (Object.keys(seats.get(gameId)).length) return api(path, { method: "POST", body: { ...body, ...(typed ? { name: typed } : {}) } });
  return asPlayer(path, { method: "POST", body }, typed);
}

// Create a game: the first seat this browser plays is the player's (`as_player`), under the player's name.
export function createAs(spec) {
  const first = spec.seats.findIndex((s) => s.kind === "human");
  if (first < 0) return api("/v1/games", { method: "POST", body: spec });
  const typed = spec.seats[first].name || "";
  const seatsSpec = spec.seats.map((s, i) => (i === first ? { kind: "human", as_player: true } : s));
  return asPlayer("/v1/games", { method: "POST", body: { ...spec, seats: seatsSpec } }, typed);
}

// A seat of the player's that this browser holds no token for (a rematch made while the page was elsewhere,
// or a challenge's game): the rematch keeps the old game's tokens, else a fresh one with the key (the
// service records it, SeatTokenRenewed, and the seat's earlier token stops working).
export async function holdSeat(game) {
  const held = seats.get(game.id);
  if (held[game.seat] || !(game.status === "open" || game.status === "active")) return;
  const before = game.rematch_of && seats.get(game.rematch_of)[game.seat];
  if (before) { seats.add(game.id, game.seat, before); return; }
  const me = player.get();
  if (!me) return;
  const fresh = await api(`/v1/games/${encodeURIComponent(game.id)}/seats/${game.seat}/token`, { method: "POST", token: me.key });
  seats.add(game.id, game.seat, fresh.token);
}

// A link to one of the player's games that first makes sure this browser holds the seat there (holdSeat).
export function seatLink(before, text, game, seat, attrs = {}) {
  const href = `#/games/${encodeURIComponent(game.id)}`;
  return h("a", { class: "notice-link", ...attrs, href, onclick: async (event) => {
    event.preventDefault();
    before?.();
    await holdSeat({ id: game.id, seat, status: game.status, rematch_of: game.rematch_of }).catch(() => {});
    location.hash = href;
  } }, text);
}
