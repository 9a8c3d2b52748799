// The random stream of docs/fairness.md, a second implementation: written from the spec with the
// browser's own Web Crypto (HMAC-SHA256, SHA-256), sharing nothing with the server's Python.  The
// replay page re-derives every draw a history records with it, so a reader need not take the
// server's word that the dice were the seed's.  tests/e2e/test_fairness_browser.py runs the test
// vectors (tests/data/rng-vectors.json) through this module in Chromium.

const utf8 = new TextEncoder();
const TWO64 = 1n << 64n;

// The HMAC key of one seed, imported once: a history makes a stream per command from the same seed.
const imported = new Map();
function hmacKey(seed) {
  if (!imported.has(seed)) {
    imported.set(seed, crypto.subtle.importKey("raw", utf8.encode(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]));
  }
  return imported.get(seed);
}

// key = HMAC-SHA256(UTF-8(seed), UTF-8(label)); the label is a command's version ("17"); a bot's
// stream ("bot:2:17") is keyed by the bot key, HMAC-SHA256(effective seed, "bot"), never the seed (docs/fairness.md §2).
export async function streamKey(seed, label) {
  return new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(seed), utf8.encode(String(label))));
}

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

// block[i] = SHA-256(key || i as 8 bytes big-endian); each block is four big-endian 64-bit integers, in order.
export class Stream {
  constructor(key) {
    this.key = key;
    this.block = 0n;
    this.unread = []; // the current block's integers, the next one last
  }

  static async of(seed, label) {
    return new Stream(await streamKey(seed, label));
  }

  async u64() {
    if (!this.unread.length) {
      const input = new Uint8Array(this.key.length + 8);
      input.set(this.key);
      new DataView(input.buffer).setBigUint64(this.key.length, this.block, false);
      this.block += 1n;
      const block = new DataView(await crypto.subtle.digest("SHA-256", input));
      this.unread = [24, 16, 8, 0].map((offset) => block.getBigUint64(offset, false));
    }
    return this.unread.pop();
  }

  // A uniform integer in [0, n): values at or above the largest multiple of n not above 2**64 are thrown away.
  async randbelow(n) {
    n = BigInt(n);
    if (n <= 0n) throw new RangeError("randbelow needs n > 0");
    const limit = TWO64 - (TWO64 % n);
    for (;;) {
      const value = await this.u64();
      if (value < limit) return value % n;
    }
  }

  // Fisher-Yates from the end: for i = len-1 down to 1, swap items[i] with items[randbelow(i + 1)].
  async shuffled(items) {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Number(await this.randbelow(i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }
}

export async function sha256Hex(text) {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8.encode(text))));
}

// The players' entropy a history records, in order: GameCreated's (a creator's, before contribution windows),
// then each SeatClaimed's and EntropyContributed's.
const CONTRIBUTING = new Set(["GameCreated", "SeatClaimed", "EntropyContributed"]);
export function contributions(events) {
  return events.filter((e) => CONTRIBUTING.has(e.type) && typeof e.data?.entropy === "string").map((e) => e.data.entropy);
}

// A history's recorded draws as calls, each {label, pairs}: format 5 records each draw call on a stream of its
// own ([label, [[bound, value], ...]], the label "<roller>/<kind>/<n>"); format 4 one stream per command,
// labelled by the command's version.
// A fork's start is dealt on the one stream "fork" (docs/fairness.md, section 2), counted by nobody.
const FORK_STREAM = "fork";

function drawCalls(event) {
  const keyed = event.draws.every((d) => Array.isArray(d) && typeof d[0] === "string");
  const fork = (label) => label === FORK_STREAM && event.command?.type === "StartGame";
  return keyed ? event.draws.map(([label, pairs]) => ({ label, pairs: Array.isArray(pairs) ? pairs : [],
    whole: fork(label) }))
    : [{ label: String(event.version), pairs: event.draws, whole: true }];
}

// The effective seed (docs/fairness.md, section 1): the seed itself with no contribution; else
// hex(HMAC-SHA256(UTF-8(seed), each contribution's UTF-8 length as 8 bytes big-endian, then its bytes)).
export async function effectiveSeed(seed, entropy) {
  if (!entropy.length) return seed;
  const parts = entropy.map((c) => utf8.encode(c));
  const message = new Uint8Array(parts.reduce((n, p) => n + 8 + p.length, 0));
  let at = 0;
  for (const part of parts) {
    new DataView(message.buffer).setBigUint64(at, BigInt(part.length), false);
    message.set(part, at + 8);
    at += 8 + part.length;
  }
  return hex(new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(seed), message)));
}

// Re-derive every draw a history records (`draws` on a command's first event: format 5's draw calls, each on
// the stream of (effective seed, its label), the labels of each roller and kind counted from 0 without a gap;
// format 4's [bound, value] pairs on the stream of (effective seed, the event's version)).  Stops at the first
// draw that differs: {commitment, contributions, total, rederived, commands, bad: null | {version, draw,
// bound, recorded, derived, label, gap}}.
export async function rederiveDraws(header, events) {
  const result = { commitment: false, contributions: 0, total: 0, rederived: 0, commands: 0, bad: null };
  const recorded = events.filter((e) => Array.isArray(e.draws) && e.draws.length);
  result.total = recorded.reduce((n, e) => n + drawCalls(e).reduce((m, c) => m + c.pairs.length, 0), 0);
  if (typeof header.seed !== "string") return result;
  result.commitment = (await sha256Hex(header.seed)) === header.seed_commitment;
  const entropy = contributions(events);
  result.contributions = entropy.length;
  const seed = await effectiveSeed(header.seed, entropy);
  const counted = new Map(); // "<roller>/<kind>" -> the next n: no stream skipped, none used twice
  for (const event of recorded) {
    result.commands += 1;
    let k = 0;
    for (const call of drawCalls(event)) {
      if (!call.whole) {
        const [roller, kind, n] = String(call.label).split("/");
        const next = counted.get(`${roller}/${kind}`) ?? 0;
        if (Number(n) !== next) {
          result.bad = { version: event.version, draw: k + 1, label: call.label, gap: `${roller}/${kind}/${next}` };
          return result;
        }
        counted.set(`${roller}/${kind}`, next + 1);
      }
      const stream = await Stream.of(seed, call.label);
      for (const pair of call.pairs) {
        const [bound, value] = Array.isArray(pair) ? pair : [];
        let derived = null;
        try {
          derived = await stream.randbelow(BigInt(bound));
        } catch { /* not a positive integer bound: it cannot re-derive */ }
        k += 1;
        if (derived === null || !Number.isSafeInteger(value) || derived !== BigInt(value)) {
          result.bad = { version: event.version, draw: k, bound, recorded: value, label: call.label,
            derived: derived === null ? null : Number(derived) };
          return result;
        }
        result.rederived += 1;
      }
    }
  }
  return result;
}
