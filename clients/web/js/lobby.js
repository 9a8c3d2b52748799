// The lobby: my games (mine.js), list games, create one (seats, options and clock from the ruleset's own
// description), claim an open seat, resume a seat this browser holds.
import { api, seats, describeError, commitments, contributeOwed, sentInvitations } from "./api.js";
import { createAs, player } from "./player.js";
import { myGames } from "./mine.js";
import { h, replace, timeAgo, words } from "./dom.js";
import { who, SEAT_COLOUR } from "./boards/pick.js";

const PAGE = 20;

export async function showLobby(main) {
  const { rulesets } = await api("/v1/rulesets");
  // the player went elsewhere while the rulesets were on their way (a link to a game opened at once):
  // drawing the lobby now would replace that page
  if (!/^#?\/?$/.test(location.hash)) return () => {};
  const titles = Object.fromEntries(rulesets.map((r) => [r.name, r.title]));
  const described = Object.fromEntries(rulesets.map((r) => [r.name, r]));
  const filters = { status: "", ruleset: "", offset: 0 };
  const list = h("div", { class: "scroll" });
  const message = h("div", { role: "alert" });

  async function refresh() {
    const query = new URLSearchParams({ limit: PAGE, offset: filters.offset });
    if (filters.status) query.set("status", filters.status);
    if (filters.ruleset) query.set("ruleset", filters.ruleset);
    try {
      const lobby = await api(`/v1/games?${query}`);
      replace(list, gamesTable(lobby, titles, described), pager(lobby, filters, refresh));
    } catch (error) {
      replace(list, h("p", { class: "error" }, describeError(error)));
    }
  }

  const statusSelect = h("select", { id: "filter-status", onchange: (e) => { filters.status = e.target.value; filters.offset = 0; refresh(); } },
    ["", "open", "active", "finished", "abandoned"].map((s) => h("option", { value: s }, s || "any status")));
  const rulesetSelect = h("select", { id: "filter-ruleset", onchange: (e) => { filters.ruleset = e.target.value; filters.offset = 0; refresh(); } },
    h("option", { value: "" }, "every game"), rulesets.map((r) => h("option", { value: r.name }, r.title)));

  const mine = h("div", { class: "lobby-mine" });
  replace(main,
    h("h1", {}, "Lobby"),
    message,
    mine,
    h("div", { class: "layout" },
      h("section", { "aria-labelledby": "games-h" },
        h("h2", { id: "games-h" }, "Games"),
        h("div", { class: "row" },
          h("label", {}, "Status", statusSelect), h("label", {}, "Game", rulesetSelect),
          h("button", { class: "secondary", onclick: refresh }, "Refresh")),
        list),
      createForm(rulesets, message)));
  // the player's games first, once this browser has a player (a first seat makes one)
  let stopMine = player.get() ? myGames(mine) : null;
  const unhook = player.onChange((me) => { if (me && !stopMine) stopMine = myGames(mine); });
  await refresh();
  const timer = setInterval(refresh, 10000);
  return () => { clearInterval(timer); stopMine?.(); unhook(); };
}

function gamesTable(lobby, titles, described) {
  if (!lobby.games.length) return h("p", { class: "muted" }, "No games yet: create one.");
  return h("table", { class: "games" },
    h("thead", {}, h("tr", {}, ["Game", "Status", "Seats", "Created", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, lobby.games.map((game) => {
      const held = seats.get(game.id);
      const actions = [h("a", { href: `#/games/${game.id}` }, Object.keys(held).length ? "Resume" : "Watch")];
      // a seat is taken on the game's page, with a name (people.js claimForm)
      if ((game.open_seats || []).length) {
        actions.push(h("a", { class: "take-seat", href: `#/games/${game.id}` }, `Take the ${game.open_seats.map((s) => who(game, s)).join(" or ")} seat`));
      }
      if (game.status === "finished" || game.status === "abandoned") actions.push(h("a", { href: `#/replay/${game.id}` }, "Replay"));
      return h("tr", { dataset: { game: game.id } },
        h("td", {}, h("b", {}, titles[game.ruleset] || game.ruleset), h("br"),
          h("span", { class: "muted" }, tableTerms(game, described[game.ruleset])), h("span", { class: "muted dev-only" }, ` ${game.id}`)),
        h("td", {}, h("span", { class: `badge ${game.status}` }, game.status), h("span", { class: "muted dev-only" }, ` v${game.version}`)),
        h("td", {}, game.seats.map((s) => h("div", {},
          `${who(game, s.seat)}${s.kind === "open" ? " (open)" : s.level && s.name ? ` (bot, ${s.level})` : s.level ? ` (${s.level})` : ""}${held[s.seat] ? " — you" : ""}`))),
        h("td", {}, timeAgo(game.created_at)),
        h("td", { class: "row" }, actions));
    })));
}

// What a table is, in words: the options that differ from the ruleset's defaults, and the clock.
function tableTerms(game, rs) {
  const options = rs?.options || {};
  const changed = Object.entries(game.options || {}).filter(([name, value]) =>
    options[name] && JSON.stringify(options[name].default) !== JSON.stringify(value));
  const terms = changed.map(([name, value]) => `${words(name)}: ${typeof value === "boolean" ? (value ? "on" : "off") : [].concat(value).join(", ")}`);
  if (game.clock) terms.push(`${game.clock.move_seconds} s a turn`);
  return terms.length ? terms.join(" · ") : "standard rules, no clock";
}

function pager(lobby, filters, refresh) {
  const prev = h("button", { class: "secondary", disabled: filters.offset === 0,
    onclick: () => { filters.offset = Math.max(0, filters.offset - PAGE); refresh(); } }, "Newer");
  const next = h("button", { class: "secondary", disabled: filters.offset + PAGE >= lobby.total,
    onclick: () => { filters.offset += PAGE; refresh(); } }, "Older");
  return h("div", { class: "row" }, prev, next, h("span", { class: "muted" },
    `${lobby.total ? filters.offset + 1 : 0}–${Math.min(filters.offset + PAGE, lobby.total)} of ${lobby.total}`));
}

// ---- creating a game ---------------------------------------------------------------------

function createForm(rulesets, message) {
  const form = h("form", { class: "seats-form", id: "create-game" });
  const pick = h("select", { id: "create-ruleset", name: "ruleset" }, rulesets.map((r) => h("option", { value: r.name }, r.title)));
  const body = h("div");
  const render = () => replace(body, rulesetFields(rulesets.find((r) => r.name === pick.value)));
  pick.addEventListener("change", render);
  render();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const spec = readForm(form, rulesets.find((r) => r.name === pick.value));
    const submit = form.querySelector("button[type=submit]");
    submit.disabled = true;
    try {
      // the first seat this browser plays is its player's (made now if there is none): in My games, on its stream
      const created = await createAs(spec);
      for (const seat of created.seats) {
        if (seat.token) seats.add(created.id, seat.seat, seat.token);
        if (seat.invitation) sentInvitations.add(created.id, seat.seat, seat.invitation); // to share from the menu
      }
      commitments.keep(created.id, created.seed_commitment);
      await contributeOwed(created.id, created, seats.get(created.id)); // this browser's seats: its entropy now
      location.hash = `#/games/${created.id}`;
    } catch (error) {
      replace(message, h("p", { class: "notice bad" }, `Could not create the game: ${describeError(error)}`));
    } finally {
      submit.disabled = false;
    }
  });
  const rulesLink = h("a", { target: "_blank", rel: "noopener" }, "the rules");
  // a game without a rules document (a plugin's test game) has no link rather than a broken one
  const syncLink = () => {
    rulesLink.href = `#/rules/${pick.value}`;
    rulesLink.hidden = !rulesets.find((r) => r.name === pick.value)?.rules_doc;
  };
  pick.addEventListener("change", syncLink);
  syncLink();
  const visibility = h("select", { name: "visibility", id: "create-visibility" },
    h("option", { value: "public" }, "Public: in the lobby, anyone may join"),
    h("option", { value: "unlisted" }, "Unlisted: only people with the link"),
    h("option", { value: "private" }, "Private: only the people you invite"));
  // POST /v1/games `analysis`: each seat may ask the search bot about its own move while the game is on
  const analysis = h("input", { type: "checkbox", name: "analysis", id: "create-analysis" });
  // the first seat this browser plays carries its player's name (a first one names the player)
  const me = player.get();
  const playingAs = h("p", { class: "muted playing-as" }, me ? ["You play your seat as ", h("b", {}, me.name), "."]
    : "The name you give your seat is your name here: your games are kept under it.");
  form.append(h("div", { class: "row" }, h("label", {}, "Game", pick), rulesLink),
    body, playingAs, h("div", { class: "row" }, h("label", {}, "Who can find it", visibility)),
    h("div", { class: "row" }, h("label", {}, analysis, "Players may ask the bot what it would play (the game is not rated)")),
    h("button", { type: "submit" }, "Create game"));
  return h("section", { "aria-labelledby": "create-h" }, h("h2", { id: "create-h" }, "New game"), form);
}

function rulesetFields(rs) {
  const count = h("select", { name: "seat-count", id: "seat-count" },
    range(rs.min_seats, rs.max_seats).map((n) => h("option", { value: n, selected: n === Math.min(Math.max(rs.min_seats, 3), rs.max_seats) }, n)));
  const rows = h("div");
  const renderSeats = () => {
    replace(rows, range(0, Number(count.value) - 1).map((i) => seatRow(rs, i)));
    rateLevels(rs, rows);
  };
  count.addEventListener("change", renderSeats);
  renderSeats();
  return [
    h("div", { class: "row" }, h("label", {}, "Players", count)),
    h("fieldset", {}, h("legend", {}, "Seats"), rows),
    Object.keys(rs.options || {}).length ? h("fieldset", {}, h("legend", {}, "Options"),
      Object.entries(rs.options).map(([name, option]) => optionField(name, option))) : null,
    clockFields(rs),
  ];
}

function seatRow(rs, i) {
  // the seats by the colours the table shows them in, never by number
  const colour = SEAT_COLOUR[i % SEAT_COLOUR.length];
  const kind = h("select", { name: `kind-${i}`, "aria-label": `${colour} seat: who plays it` },
    h("option", { value: "human", selected: i === 0 }, "you (this browser)"),
    h("option", { value: "bot", selected: i !== 0 }, "bot"),
    h("option", { value: "open" }, "open (anyone may take it)"));
  const levels = rs.bot_levels.length ? rs.bot_levels : ["random"];
  const level = h("select", { name: `level-${i}`, "aria-label": `${colour} seat: bot level` },
    levels.map((l) => h("option", { value: l, selected: l === defaultLevel(levels) }, l)));
  const sync = () => { level.hidden = kind.value !== "bot"; };
  kind.addEventListener("change", sync);
  sync();
  return h("div", { class: "seat-row" }, h("span", { class: `seat${i % 6} seat-colour` }, colour), kind, level,
    h("input", { name: `name-${i}`, placeholder: "name (optional)", maxlength: 64, size: 14, "aria-label": `${colour} seat: name` }));
}

// A bot level's rating beside its name, so a player picks an opponent by strength: the arena's measure of the
// level, moved by its rated games against players (GET /v1/rulesets/{name}/leaderboard `bots`)
const boards = new Map();
function rateLevels(rs, rows) {
  if (!boards.has(rs.name)) boards.set(rs.name, api(`/v1/rulesets/${encodeURIComponent(rs.name)}/leaderboard?limit=1`).catch(() => null));
  boards.get(rs.name).then((board) => {
    const rated = Object.fromEntries((board?.bots || []).map((bot) => [bot.level, bot]));
    for (const option of rows.querySelectorAll("select[name^=level-] option")) {
      const bot = rated[option.value];
      if (bot && !bot.provisional) option.textContent = `${option.value} (rating ${bot.rating.toFixed(1)})`;
    }
  });
}

// greedy where a game has it: a quick opponent that plays to win (ismcts searches for about a second a move)
function defaultLevel(levels) {
  return levels.includes("greedy") ? "greedy" : levels[0];
}

function optionField(name, option) {
  const id = `option-${name}`;
  const hint = h("span", { class: "muted" }, option.description || "");
  if (typeof option.default === "boolean") {
    return h("div", { class: "row" }, h("label", {}, h("input", { type: "checkbox", id, name: id, checked: option.default }), words(name)), hint);
  }
  if ((option.choices || []).length) {
    return h("div", { class: "row" }, h("label", {}, words(name), h("select", { id, name: id },
      option.choices.map((c) => h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(option.default) }, String(c))))), hint);
  }
  const value = Array.isArray(option.default) ? option.default.join(",") : option.default ?? "";
  return h("div", { class: "row" }, h("label", {}, words(name), h("input", { id, name: id, value: String(value), size: 10,
    dataset: { list: Array.isArray(option.default) ? "1" : "" } })), hint);
}

function clockFields(rs) {
  const on = h("input", { type: "checkbox", id: "clock-on", name: "clock-on" });
  const inner = h("div", { hidden: true },
    h("div", { class: "row" }, h("label", {}, "Seconds per turn", h("input", { type: "number", name: "move_seconds", min: 1, value: 120, size: 5 }))),
    h("div", { class: "row" }, h("label", {}, "Seconds to answer out of turn", h("input", { type: "number", name: "response_seconds", min: 1, value: 30, size: 5 }))),
    h("div", { class: "row" }, h("label", {}, "Expired clocks before a bot takes over", h("input", { type: "number", name: "timeouts_before_bot", min: 1, value: 3, size: 3 }))),
    h("div", { class: "row" }, h("label", {}, "That bot's level", h("select", { name: "clock_bot_level" }, rs.bot_levels.map((l) => h("option", { value: l }, l))))));
  on.addEventListener("change", () => { inner.hidden = !on.checked; });
  return h("fieldset", {}, h("legend", {}, "Clock"), h("label", {}, on, "Turn clocks (a seat that runs out is played by default)"), inner);
}

function readForm(form, rs) {
  const get = (name) => form.elements.namedItem(name);
  const count = Number(get("seat-count").value);
  const spec = { ruleset: rs.name, seats: [], options: {}, visibility: get("visibility").value };
  if (get("analysis").checked) spec.analysis = true;
  for (let i = 0; i < count; i++) {
    const seat = { kind: get(`kind-${i}`).value };
    if (seat.kind === "bot") seat.level = get(`level-${i}`).value;
    const name = get(`name-${i}`).value.trim();
    if (name) seat.name = name;
    spec.seats.push(seat);
  }
  for (const [name, option] of Object.entries(rs.options || {})) {
    const input = get(`option-${name}`);
    if (input.type === "checkbox") spec.options[name] = input.checked;
    else if (input.tagName === "SELECT") spec.options[name] = JSON.parse(input.value);
    else if (input.dataset.list) spec.options[name] = input.value.split(",").map((v) => v.trim()).filter(Boolean).map(Number);
    else spec.options[name] = typeof option.default === "number" ? Number(input.value) : input.value;
  }
  if (get("clock-on").checked) {
    spec.clock = {
      move_seconds: Number(get("move_seconds").value), response_seconds: Number(get("response_seconds").value),
      timeouts_before_bot: Number(get("timeouts_before_bot").value), bot_level: get("clock_bot_level").value,
    };
  }
  return spec;
}

function range(a, b) {
  return Array.from({ length: b - a + 1 }, (_, i) => a + i);
}
