// The public HTTP API, and nothing else: exactly what a third-party frontend would use.
// Errors arrive as application/problem+json (RFC 9457) and are thrown as ApiError.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

export async function api(path, { method = "GET", body, token, headers = {}, text = false, raw, cache } = {}) {
  const init = { method, headers: { Accept: "application/json", ...headers } };
  if (cache) init.cache = cache;
  if (token) init.headers.Authorization = `Bearer ${token}`;
  const invitation = invitations.get(gameOf(path));
  if (invitation) init.headers["X-Cartel-Invitation"] = invitation;
  if (raw !== undefined) {
    init.body = raw;
    init.headers["Content-Type"] = "application/x-ndjson";
  } else if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new ApiError(0, { title: "Network error", detail: `the service did not answer (${error.message})` });
  }
  if (!response.ok) {
    let problem;
    try { problem = await response.json(); } catch { problem = { title: response.statusText }; }
    throw new ApiError(response.status, problem);
  }
  if (response.status === 204) return null;
  return text ? response.text() : response.json();
}

// An invitation to an unlisted or private table (a link's `?invitation=`): held by this tab until its seat
// is taken, and sent with every request about that game (the service admits its holder to read the table
// and to claim the seat it names; a private table is otherwise answered as no game).
const INVITATION = (gameId) => `tabletop-cartel:invitation:${gameId}`;
export const invitations = {
  get(gameId) {
    if (!gameId) return null;
    try { return sessionStorage.getItem(INVITATION(gameId)); } catch { return null; }
  },
  hold(gameId, token) { sessionStorage.setItem(INVITATION(gameId), token); },
  drop(gameId) { sessionStorage.removeItem(INVITATION(gameId)); },
};
const gameOf = (path) => {
  const named = /^\/v1\/games\/([^/?]+)/.exec(path);
  return named ? decodeURIComponent(named[1]) : null;
};

// The invitations this browser made or was given at a table's creation, to share: {seat: token}.  Kept so
// the game menu can show each open seat's link again (an invitation is shown once by the service).
const SENT = (gameId) => `tabletop-cartel:sent-invitations:${gameId}`;
export const sentInvitations = {
  get(gameId) {
    try { return JSON.parse(localStorage.getItem(SENT(gameId))) || {}; } catch { return {}; }
  },
  add(gameId, seat, token) {
    const sent = sentInvitations.get(gameId);
    sent[seat] = token;
    localStorage.setItem(SENT(gameId), JSON.stringify(sent));
  },
};

// Rulesets never change while the page is open: fetch each description once.
const described = new Map();
export function ruleset(name, part = "") {
  const key = `${name}/${part}`;
  if (!described.has(key)) {
    described.set(key, api(`/v1/rulesets/${encodeURIComponent(name)}${part ? "/" + part : ""}`)
      .catch((error) => { described.delete(key); throw error; }));
  }
  return described.get(key);
}

// Seat tokens live in this browser's storage, per game, never in a URL: {seat: token, ...}.
const KEY = (gameId) => `tabletop-cartel:seats:${gameId}`;
export const seats = {
  get(gameId) {
    try { return JSON.parse(localStorage.getItem(KEY(gameId))) || {}; } catch { return {}; }
  },
  add(gameId, seat, token) {
    const held = seats.get(gameId);
    held[seat] = token;
    localStorage.setItem(KEY(gameId), JSON.stringify(held));
  },
  drop(gameId, seat) {
    const held = seats.get(gameId);
    delete held[seat];
    localStorage.setItem(KEY(gameId), JSON.stringify(held));
  },
  forget(gameId) { localStorage.removeItem(KEY(gameId)); },
};

// The seed commitment this browser was shown when it created, joined or first opened a game: the
// replay page holds the game's history to it (a forger can re-seed a whole game and recompute its draws).
const COMMITMENT = (gameId) => `tabletop-cartel:commitment:${gameId}`;
export const commitments = {
  get(gameId) { return localStorage.getItem(COMMITMENT(gameId)); },
  keep(gameId, commitment) {
    if (gameId && typeof commitment === "string" && !commitments.get(gameId)) localStorage.setItem(COMMITMENT(gameId), commitment);
  },
};

// This seat's own entropy for the game's seed, sent once the game committed to its seed and before it
// starts (docs/fairness.md): 16 random bytes from this browser, so nobody, the server included, chooses a roll.
export function randomEntropy() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function contributeOwed(gameId, doc, held) {
  const owed = doc?.contributions?.owed || [];
  const sent = [];
  for (const seat of owed) {
    if (!held[seat]) continue;
    try {
      const answer = await api(`/v1/games/${gameId}/seats/${seat}/entropy`,
        { method: "POST", token: held[seat], body: { entropy: randomEntropy() } });
      commitments.keep(gameId, answer.seed_commitment);
      sent.push(seat);
    } catch (error) {
      if (error.status !== 409) throw error; // 409: sent already, or the game started meanwhile
    }
  }
  return sent;
}

// This browser's preferences (sound on my turn, the developer view, the narration's speed), kept across
// pages and games; and a game's own (Druglord's "ask me to sway"), kept per game.
const PREFS = "tabletop-cartel:prefs";
function store(key) {
  const read = () => { try { return JSON.parse(localStorage.getItem(key)) || {}; } catch { return {}; } };
  return {
    all: read,
    get(name) { return Boolean(read()[name]); },
    value(name, fallback) { return read()[name] ?? fallback; },
    set(name, value) { localStorage.setItem(key, JSON.stringify({ ...read(), [name]: value })); },
  };
}
export const prefs = store(PREFS);
export const gamePrefs = (gameId) => store(`tabletop-cartel:game:${gameId}`);

// A fresh Idempotency-Key per click: a retried request is answered once, never applied twice.
export function idempotencyKey() {
  return crypto.randomUUID ? crypto.randomUUID()
    : Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export function describeError(error) {
  const p = error.problem || {};
  const parts = [p.detail || error.message];
  if (p.rule) parts.push(`(rule ${p.rule})`);
  return parts.join(" ");
}
