// My games (GET /v1/players/me/games): the games with a seat bound to this browser's player, as a player of
// Board Game Arena or Lichess expects them: the ones in play first (those where it is your turn at the top,
// "Your turn" marked), each with its game, the others at the table by name and whose turn it is, and a link
// to it; the finished ones below with their result.  In the lobby, and on its own page (#/mine, the game
// menu's link).  Whose turn and the result are the game's document (GET /v1/games/{id}, read with the key).
import { api, ruleset } from "./api.js";
import { andList, h, replace, timeAgo } from "./dom.js";
import { who, seatWords } from "./boards/pick.js";
import { player, seatLink } from "./player.js";
import { onNote, opponents, notifySetting } from "./notices.js";

const LIMIT = 50;
const AT_ONCE = 4; // documents asked at a time
const LOOK_MS = 20000;
const ended = (status) => status === "finished" || status === "abandoned";

// A seat by name; a bot without one is "a bot" (its number is no name).
const named = (doc, seat) => (doc.seats[seat]?.kind === "bot" && !doc.seats[seat]?.name ? "a bot" : who(doc, seat));
const upper = (text) => text.replace(/^./, (c) => c.toUpperCase());

// Whose turn it is, for the player at `mine`: [text, is it theirs]
export function whoseTurn(doc, mine) {
  if (doc.status === "open") return [(doc.open_seats || []).length ? "Waiting for players" : "Starting", false];
  const awaited = doc.awaiting_seats || Object.keys(doc.awaiting || {}).map(Number);
  if (awaited.includes(mine)) return [doc.awaiting?.[mine] === "response" ? "Your answer" : "Your turn", true];
  if (!awaited.length) return ["Playing", false];
  const names = [...new Set(awaited.map((s) => named(doc, s)))];
  return [names.length === 1 ? `${upper(names[0])}'s turn` : `${upper(andList(names))} to play`, false];
}

// How it ended for the player: "You won", "You lost", with the game's own sentence (seats by name).
export function result(doc, mine) {
  const outcome = doc.outcome || {};
  const sentence = outcome.text ? seatWords(outcome.text, doc) : "";
  if (doc.status === "abandoned") return ["Abandoned", sentence];
  if (outcome.reason === "aborted") return ["Aborted", ""];
  const winners = [].concat(outcome.winners ?? outcome.winner ?? []).map(Number);
  const verdict = !winners.length ? "Over" : winners.includes(mine) ? (winners.length > 1 ? "You shared the win" : "You won") : "You lost";
  return [verdict, sentence];
}

function row(game, doc, title) {
  const at = doc || game;
  const link = seatLink(null, `${title} against ${opponents(at, game.seat)}`, at, game.seat, { class: "mine-open" });
  const li = h("li", { class: "mine-game", dataset: { game: game.id, status: at.status } }, h("p", { class: "mine-title" }, link));
  if (!doc) return li;
  if (ended(doc.status)) {
    const [verdict, sentence] = result(doc, game.seat);
    li.classList.add(verdict === "You won" || verdict === "You shared the win" ? "won" : "over");
    li.append(h("p", { class: "mine-status" }, h("span", { class: "mine-result" }, verdict), sentence ? ` — ${sentence}` : ""),
      h("p", { class: "muted" }, `Started ${timeAgo(game.created_at)}`));
  } else {
    const [turn, yours] = whoseTurn(doc, game.seat);
    li.classList.toggle("your-turn", yours);
    li.append(h("p", { class: "mine-status" }, h("span", { class: yours ? "mine-yours" : "mine-turn" }, turn),
      h("span", { class: "muted" }, ` · started ${timeAgo(game.created_at)}`)));
  }
  return li;
}

// The game documents, a few at a time (a player with many games asks for them in small batches).
async function documents(games, key) {
  const docs = new Map();
  let next = 0;
  const work = async () => {
    while (next < games.length) {
      const game = games[next++];
      docs.set(game.id, await api(`/v1/games/${encodeURIComponent(game.id)}`, { token: key, cache: "no-store" }).catch(() => null));
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, work));
  return docs;
}

// Playing now: your turn first, then the others' turns, then tables waiting for players; newest first within.
function order(games, docs, mine) {
  const rank = (g) => {
    const doc = docs.get(g.id) || g;
    if (doc.status === "open") return 2;
    return whoseTurn(doc, mine(g))[1] ? 0 : 1;
  };
  return [...games].sort((a, b) => rank(a) - rank(b) || b.created_at - a.created_at);
}

// The section: drawn into `box`; returns its stop function.
export function myGames(box, { full = false } = {}) {
  const list = h("div", { class: "mine-lists" });
  const whoAmI = h("p", { class: "muted mine-who" });
  const settings = h("details", { class: "settings mine-settings" }, h("summary", { "aria-label": "Notification settings" }, "⚙ Settings"),
    h("div", { class: "settings-body" }, notifySetting() || h("p", { class: "muted" }, "This browser has no notifications.")));
  replace(box, h("section", { class: "my-games", "aria-labelledby": "mine-h" },
    h("div", { class: "status-head" }, h(full ? "h1" : "h2", { id: "mine-h" }, "My games"), settings), whoAmI, list));
  let stopped = false, busy = false, again = false;

  async function refresh() {
    if (stopped) return;
    if (busy) { again = true; return; }
    busy = true;
    try {
      const me = player.get();
      if (!me) {
        replace(whoAmI, "Your games are listed here once you create a game or take a seat: this browser keeps them for you.");
        replace(list);
        return;
      }
      replace(whoAmI, "You play as ", h("b", {}, me.name), ".");
      const { games, total } = await api(`/v1/players/me/games?limit=${LIMIT}`, { token: me.key, cache: "no-store" });
      const docs = await documents(games, me.key);
      const titles = Object.fromEntries(await Promise.all([...new Set(games.map((g) => g.ruleset))]
        .map(async (name) => [name, (await ruleset(name).catch(() => null))?.title || name])));
      const seatOf = Object.fromEntries(games.map((g) => [g.id, g.seat]));
      const playing = order(games.filter((g) => !ended((docs.get(g.id) || g).status)), docs, (g) => seatOf[g.id]);
      const over = games.filter((g) => ended((docs.get(g.id) || g).status));
      if (stopped) return;
      replace(list,
        h("h3", { class: "mine-h" }, "Playing now"),
        playing.length ? h("ul", { class: "mine-list playing" }, playing.map((g) => row(g, docs.get(g.id), titles[g.ruleset])))
          : h("p", { class: "muted" }, "No game in play: create one, or take an open seat."),
        over.length ? [h("h3", { class: "mine-h" }, "Finished"),
          h("ul", { class: "mine-list finished" }, over.map((g) => row(g, docs.get(g.id), titles[g.ruleset])))] : null,
        total > games.length ? h("p", { class: "muted" }, `Your ${games.length} most recent games of ${total}.`) : null);
    } catch (error) {
      replace(list, h("p", { class: "error" }, `Your games could not be read: ${error.message}`));
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  // a note on the player's stream changes a row (a turn, a start, an end); the others' turns are looked at now and then
  let soon = null;
  const noted = () => { clearTimeout(soon); soon = setTimeout(refresh, 300); };
  const unhook = [onNote(noted), player.onChange(noted)];
  const timer = setInterval(() => { if (!document.hidden) refresh(); }, LOOK_MS);
  refresh();
  return () => { stopped = true; clearInterval(timer); clearTimeout(soon); unhook.forEach((off) => off()); };
}

export async function showMine(main) {
  return myGames(main, { full: true });
}
