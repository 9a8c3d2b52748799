// Trafficking as SVG, drawn from GET /v1/rulesets/trafficking/data: every square at its x, y on the grid,
// the red arrows and the Expressway between them, the Cop Shops and the Dealers' Hang Outs; from the
// seat's view, every seat's pawn (a token in the seat's colour with its Dealer's initials; the Narc's a
// black badge) and the money, Lids and cards of each.  A square a legal move names (where the roll, the
// subway or a cab takes you; the Narc's Cop Shop) is pickable, and so is a Dealer character while they
// are being chosen.
//
// Legible at both sizes: the ring of squares is 17 wide, so a square is under 50 px on a desktop; each
// square along a side reaches into the board's empty centre as far as the spurs allow (room for its name
// on more lines), the names are the players' short ones (the full name is in the square's tooltip), at
// 15 units (11 px and more at 1280 px), and a phone opens zoomed around your pawn.  The last roll and the
// path it took are drawn on the board.
import { h, words } from "../dom.js";
import { pickable, seatFill, who } from "./pick.js";
import { zoomable } from "./zoom.js";

const CELL = 66, SIZE = 62, PAD = 8; // grid pitch, square size, margin (SVG units)
const NAME = 15, LINE = 16; // a name's font size and line pitch (style.css draws names at NAME)
const CHAR = NAME * 0.6; // about the width of one letter of the page's sans-serif
const REACH = 2; // how many cells a side's square may reach into the centre
const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const KIND_FILL = {
  street: "#ecebe6", hang_out: "#d9ead3", dealing: "#f4e3b5", flip_out: "#dfd7ee", sour_grapes: "#f3d6c9",
  eleven_seven: "#d2e4ef", subway: "#cfd8f6", roll_again: "#e8e8c8", cop_shop: "#c9d3e6", cab_stand: "#f6eaa6",
  miss_turn: "#efd0d0", expressway: "#d6ece8", customs: "#c9d3e6",
};
// what a square does (the rulebook's sections), for its tooltip
const KIND_TIP = {
  street: "A street: nothing happens here.",
  hang_out: "A Dealer's Hang Out: its Dealer is safe from the Narc here; another Dealer may deal with him here.",
  dealing: "Dealing square (6): Buy (roll: that many Lids at $50), Sell (roll: up to that many at $100) or pass.",
  flip_out: "Flip Out: draw a card and do what it says.",
  sour_grapes: "Sour Grapes: draw a card and do what it says.",
  eleven_seven: "11-7 Store (11): pick up a Lid (roll both dice: 11 or 7 free, else $10 × the dice); buy a THC Transit Pass, $50.",
  subway: "THC Subway (10): with a Transit Pass, ride to any other station.",
  roll_again: "Roll Again: roll once more.",
  cop_shop: "Cop Shop (9): with Lids, pay the Graft Tax ($50, $100 with your name in the book, $200 on probation). Next roll: choose between two arrows.",
  cab_stand: "Blitz Cab stand (12): ride to any square for $10 a square.",
  miss_turn: "Miss a Turn.",
  expressway: "St. Semillia Expressway (13): everyone landing here must take it to the other end.",
  customs: "Airport Customs (16): hide your Lids in one hand; the Narc picks a hand.",
  marcus: "Marcus M. Mark (7): sell him Lids at $150 each, up to your roll.",
  pusher: "The Pusher (8): you must buy Lids at $100 each, as many as your roll.",
  jack_pot: "Jack Pot (14): free Lids, as many as the roll that brought you here.",
  gambling: "The Lucky Seven Club (15): bet on your next roll: exact number 5 to 1, evens or odds 1 to 1.",
  buddy_jims: "Buddy Jim's: Dealers roll again here (not the Narc).",
  roxy: "The Roxy: a Dealer enters the Time Warp: both dice, twice, and advance.",
  no_bust_zone: "Yakk Bluff & Stalum Legal Office: a NO BUST ZONE, no Dealer is busted here.",
};
// the Dealers' tokens: their initials ("Honey Oil" for Stephie Slick, as Sonny Sgurd is SS)
const TOKEN = { reefer: "RJ", janet: "JP", zerox: "ZR", sonny: "SS", biff: "BS", stephie: "HO", dj: "DJ", eddie: "FE" };
const money = (n) => `$${Number(n).toLocaleString("en-US")}`;
// where a turn stands, in words (the view's turn.stage)
const STAGE = { roll: "to roll", move: "chooses where to move", landed: "has landed", sell: "sells", customs: "at Customs", done: "is done" };

// A square's short name, as players say it ("11-7 Inconvenience Store (Uptown)" -> "11-7 Uptown").
export function shortName(name) {
  const note = /\(([^)]*)\)\s*$/.exec(name)?.[1];
  let main = name.replace(/\s*\([^)]*\)\s*$/, "").replace(/^The /, "");
  main = main.replace(/^11-7 Inconvenience Store$/, "11-7").replace(/^Blitz Cab Stand$/, "Cab").replace(/^THC Subway: (\w+) Station$/, "Subway $1")
    .replace(/^St\. Semillia Expressway$/, "Expressway").replace(/ (Clothing|Record|Guitar|Health Food|Flower|Smoke) (Store|Shop|Shoppe)$/, "")
    .replace(/ Hamburgers$/, "").replace(/ Video Arcade$/, "").replace(/ Radio Station$/, "").replace(/ Pizza Parlour$/, "'s").replace(/'s's$/, "'s")
    .replace(/ All Night Donuts$/, "").replace(/^Yakk Bluff & Stalum Legal Office: NO BUST ZONE$/, "No Bust Zone").replace(/ Hotel$/, "")
    .replace(/ Cop Shop$/, "").replace(/^Marcus M\. Mark$/, "Marcus").replace(/ Tavern$/, "").replace(/^Lucky Seven Club$/, "Lucky 7");
  if (/^(North|South|East|West) End$/.test(main)) main = `Cops ${main.split(" ")[0]}`;
  if (note && !/^(The Rich Kid|Time Warp|gambling)$/.test(note)) main += ` ${note.replace(/ Ramp$/, "").replace(/^West End$/, "West").replace(/^East End$/, "East")}`;
  return main;
}

// A name in lines of at most `chars` letters, word by word; a word longer than a line is broken with a hyphen.
export function nameLines(name, chars, most) {
  const lines = [];
  for (let word of name.split(/\s+/)) {
    while (word.length > chars + 1) { lines.push(`${word.slice(0, chars - 1)}-`); word = word.slice(chars - 1); }
    const last = lines.length - 1;
    if (last >= 0 && !lines[last].endsWith("-") && (lines[last] + " " + word).length <= chars) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.length <= most ? lines : [...lines.slice(0, most - 1), lines.slice(most - 1).join(" ")];
}

export function drawTrafficking(args) {
  const { view, data, moves, pick, picked, recent = [] } = args;
  const board = data?.board;
  if (!board) return h("p", { class: "error" }, "The board's data could not be loaded.");
  const byId = Object.fromEntries(board.squares.map((s) => [s.id, s]));
  const dealers = Object.fromEntries(board.dealers.map((d) => [d.id, d]));
  const { width: GW, height: GH } = board.grid;
  const W = GW * CELL + 2 * PAD, H = GH * CELL + 2 * PAD;
  const cx = (s) => PAD + s.x * CELL + CELL / 2, cy = (s) => PAD + s.y * CELL + CELL / 2;
  const taken = new Set(board.squares.map((s) => `${s.x},${s.y}`));
  const shape = (s) => tileOf(s, GW, GH, taken, cx, cy);
  const svg = h("svg:svg", { class: "map trafficking-board", viewBox: `0 0 ${W} ${H}`, role: "group",
    "aria-label": "The Trafficking board: every square, the red arrows, the pawns" });
  svg.append(h("svg:title", {}, "The Trafficking board"),
    h("svg:defs", {}, h("svg:marker", { id: "tr-arrowhead", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" },
      h("svg:path", { d: "M0 0L10 5L0 10z", class: "arrowhead" }))));

  // the lines first, under the squares: each from one square's edge to the next one's
  const lines = h("svg:g", { class: "lines" });
  for (const line of board.lines) {
    const a = byId[line.from], b = byId[line.to];
    if (!a || !b) continue;
    const dx = cx(b) - cx(a), dy = cy(b) - cy(a), len = Math.hypot(dx, dy) || 1;
    const inset = (SIZE / 2) * len / Math.max(Math.abs(dx), Math.abs(dy), 1) + 1; // where the ray leaves the square
    lines.append(h("svg:line", { class: line.kind, dataset: { from: line.from, to: line.to },
      x1: cx(a) + dx / len * inset, y1: cy(a) + dy / len * inset, x2: cx(b) - dx / len * inset, y2: cy(b) - dy / len * inset,
      "marker-end": line.kind === "arrow" ? "url(#tr-arrowhead)" : undefined }));
  }
  svg.append(lines);

  const here = {}; // square -> the seats on it
  for (const p of view.players) if (p.square) (here[p.square] ||= []).push(p);
  const squares = h("svg:g", { class: "squares" });
  for (const square of board.squares) squares.append(drawSquare(square, shape(square), here[square.id] || [], dealers, view, args));
  const moved = [...recent].reverse().find((e) => e.type === "Moved" && Array.isArray(e.data?.path));
  svg.append(squares, moved ? drawPath(moved, byId, cx, cy, view) : null, middle(view, data, W, H, args.doc, moved));

  const mine = view.players.find((p) => p.seat === (view.you ?? view.turn?.seat));
  return h("div", { class: "trafficking" },
    h("div", { class: "row" },
      h("span", { class: "badge" }, words(view.phase)),
      view.turn ? h("span", {}, h("b", { class: `seat${view.turn.seat % 6}` }, `${who(args.doc, view.turn.seat)}`),
        view.turn.seat === view.you ? " (you)" : "", ` ${STAGE[view.turn.stage] || `— ${words(view.turn.stage)}`}`,
        view.turn.die ? h("span", { class: "rolled", "aria-label": `after rolling ${view.turn.die}` }, " after rolling ", h("span", { class: "die-face", "aria-hidden": "true" }, FACES[view.turn.die - 1]), ` ${view.turn.die}`) : null,
        view.turn.sell_die ? `, selling up to ${view.turn.sell_die}` : "") : null,
      view.customs ? h("span", { class: "notice" }, `Airport Customs: ${who(args.doc, view.customs.dealer)} hides the Lids, the Narc (${who(args.doc, view.customs.narc)}) guesses`) : null),
    // a phone opens zoomed around your own pawn (a spectator's: the seat to play), where the names are legible
    zoomable(svg, "trafficking", {
      focus: () => { const square = byId[mine?.square]; return square ? [cx(square), cy(square)] : null; },
      fit: () => {
        const square = byId[mine?.square];
        if (!square) return null;
        const w = W / 2.8, hh = w * H / W; // 15 units at 2.8 times a phone's 0.3 px a unit: 12 px
        return { box: [cx(square) - w / 2, cy(square) - hh / 2, cx(square) + w / 2, cy(square) + hh / 2], key: square.id };
      },
    }),
    view.phase === "characters" ? h("div", {}, h("h2", {}, "The Dealers"), h("div", { class: "cards" }, board.dealers.map((d) => {
      const takenBy = view.players.find((p) => p.dealer === d.id);
      return pickable(h("div", { class: "card", dataset: { dealer: d.id } }, h("b", {}, d.name),
        `Hang Out: ${byId[d.hang_out]?.name || "—"}${takenBy ? ` — ${who(args.doc, takenBy.seat)}` : ""}`), d.id, { moves, pick, picked }, `${d.name}, Hang Out ${byId[d.hang_out]?.name || ""}`);
    }))) : null,
    players(view, dealers, data, args.doc),
    view.offers?.length ? h("div", { class: "offers" }, h("h2", {}, "Open offers"), h("ul", {}, view.offers.map((o) =>
      h("li", { dataset: { offer: o.id } }, offerText(o, view, args.doc))))) : null);
}

// Where a square is drawn: its box, grown into the centre as far as the spurs leave room (a side's square).
function tileOf(s, GW, GH, taken, cx, cy) {
  const free = (dx, dy) => {
    let n = 0;
    while (n < REACH && !taken.has(`${s.x + dx * (n + 1)},${s.y + dy * (n + 1)}`) && s.x + dx * (n + 1) > 0 && s.x + dx * (n + 1) < GW - 1 &&
      s.y + dy * (n + 1) > 0 && s.y + dy * (n + 1) < GH - 1 && !taken.has(`${s.x + dx * (n + 2)},${s.y + dy * (n + 2)}`)) n++;
    return n;
  };
  // only the middle of a side reaches in: in the corners a row's square and a column's would meet
  const middleX = s.x > REACH + 1 && s.x < GW - REACH - 2, middleY = s.y > REACH + 1 && s.y < GH - REACH - 2;
  const [dx, dy] = s.y === 0 && middleX ? [0, 1] : s.y === GH - 1 && middleX ? [0, -1] : s.x === 0 && middleY ? [1, 0]
    : s.x === GW - 1 && middleY ? [-1, 0] : [0, 0];
  const grow = dx || dy ? free(dx, dy) * CELL * 0.85 : 0;
  let x = cx(s) - SIZE / 2, y = cy(s) - SIZE / 2, w = SIZE, hh = SIZE;
  if (dx > 0) w += grow; else if (dx < 0) { x -= grow; w += grow; }
  if (dy > 0) hh += grow; else if (dy < 0) { y -= grow; hh += grow; }
  return { x, y, w, h: hh };
}

function drawSquare(square, tile, pawns, dealers, view, args) {
  const dealer = square.dealer ? dealers[square.dealer] : null;
  const tip = `${square.name}\n${KIND_TIP[square.kind] || ""}${dealer ? `\nHang Out of ${dealer.name}.` : ""}` +
    `${pawns.length ? `\nHere: ${pawns.map((p) => (p.role === "narc" ? "the Narc" : who(args.doc, p.seat))).join(", ")}` : ""}`;
  const g = h("svg:g", { class: `square kind-${square.kind}`, dataset: { square: square.id, kind: square.kind, tip } },
    h("svg:rect", { class: "tile", x: tile.x, y: tile.y, width: tile.w, height: tile.h, rx: 5, fill: KIND_FILL[square.kind] || "#f0efe9" }));
  const pawnRows = Math.ceil(pawns.length / Math.max(1, Math.floor((tile.w - 4) / 24)));
  const room = tile.h - 6 - pawnRows * 24;
  const chars = Math.max(4, Math.floor((tile.w - 6) / CHAR));
  const icon = square.kind === "cop_shop" ? "COPS" : dealer ? `⌂ ${TOKEN[dealer.id] || ""}` : null;
  const lines = nameLines(shortName(square.name), chars, Math.max(1, Math.floor((room - (icon ? LINE : 0)) / LINE)));
  const x = tile.x + tile.w / 2;
  lines.forEach((line, i) => {
    const fits = line.length * CHAR <= tile.w - 4;
    g.append(h("svg:text", { class: "name", x, y: tile.y + NAME + 1 + i * LINE, "text-anchor": "middle",
      textLength: fits ? undefined : tile.w - 6, lengthAdjust: fits ? undefined : "spacingAndGlyphs" }, line));
  });
  if (icon) g.append(h("svg:text", { class: "icon", x, y: tile.y + NAME + 1 + lines.length * LINE, "text-anchor": "middle" }, icon));
  const perRow = Math.max(1, Math.floor((tile.w - 4) / 24));
  pawns.forEach((p, i) => {
    const px = tile.x + 14 + (i % perRow) * 24, py = tile.y + tile.h - 13 - Math.floor(i / perRow) * 24;
    const name = p.role === "narc" ? "the Narc" : who(args.doc, p.seat);
    g.append(p.role === "narc"
      ? h("svg:g", { class: "pawn narc", dataset: { seat: p.seat }, "aria-label": name },
        h("svg:rect", { x: px - 11, y: py - 11, width: 22, height: 22, rx: 4, fill: "#1d1d1f" }),
        h("svg:text", { class: "pawn-label", x: px, y: py + 4, "text-anchor": "middle" }, "N"))
      : h("svg:g", { class: "pawn", dataset: { seat: p.seat }, "aria-label": name },
        h("svg:circle", { cx: px, cy: py, r: 11, fill: seatFill(p.seat) }),
        h("svg:text", { class: "pawn-label", x: px, y: py + 4, "text-anchor": "middle" }, TOKEN[p.dealer] || who(args.doc, p.seat).slice(0, 2))));
  });
  const here = pawns.map((p) => (p.role === "narc" ? "the Narc" : `${who(args.doc, p.seat)}`)).join(", ");
  return pickable(g, square.id, args, `${square.name}${square.kind === "cop_shop" ? " (Cop Shop)" : ""}${here ? `: ${here}` : ""}`);
}

// The last move: the squares it crossed, numbered, in the mover's colour.
function drawPath(event, byId, cx, cy, view) {
  const mover = view.players.find((p) => p.seat === event.data.seat);
  const colour = mover?.role === "narc" ? "#1d1d1f" : seatFill(event.data.seat ?? 0);
  const points = event.data.path.map((id) => byId[id]).filter(Boolean);
  if (!points.length) return null;
  return h("svg:g", { class: "last-path", "aria-hidden": "true" },
    points.length > 1 ? h("svg:polyline", { points: points.map((s) => `${cx(s)},${cy(s)}`).join(" "), stroke: colour }) : null,
    // each step's number in the square's lower right corner (its name is at the top, the pawns at the left)
    event.data.path.map((id, i) => byId[id] ? h("svg:g", { class: "step" },
      h("svg:circle", { cx: cx(byId[id]) + SIZE / 2 - 10, cy: cy(byId[id]) + SIZE / 2 - 10, r: 8, fill: colour }),
      h("svg:text", { x: cx(byId[id]) + SIZE / 2 - 10, y: cy(byId[id]) + SIZE / 2 - 6, "text-anchor": "middle" }, String(i + 1))) : null));
}

function middle(view, data, W, H, doc, moved) {
  const narc = view.players.find((p) => p.role === "narc");
  const lines = [
    `The Narc: ${data.board.narc}${narc ? ` (${who(doc, narc.seat)})` : ""}`,
    `Sour Grapes ${view.stacks?.sour_grapes ?? "?"} · Flip Out ${view.stacks?.flip_out ?? "?"}`,
    `Transit Passes in the bank: ${view.transit_passes_in_bank ?? "?"}`,
    `A Kilo is ${view.kilo ?? data.prices?.kilo} Lids`,
  ];
  if (moved) {
    const to = data.board.squares.find((q) => q.id === moved.data.to);
    const steps = moved.data.path.length;
    lines.unshift(`Last move: ${who(doc, moved.data.seat)}, ${moved.data.how === "roll" ? `${steps} square${steps === 1 ? "" : "s"}` : "by " + (moved.data.how || "").replace(/_/g, " ")} to ${to ? shortName(to.name) : "?"}`);
  }
  if (view.result) lines.push(`Over: ${view.result.reason}`);
  return h("svg:g", { class: "middle" }, lines.map((line, i) =>
    h("svg:text", { x: W / 2, y: H * 0.4 + i * 24, "text-anchor": "middle" }, line)));
}

function offerText(o, view, doc) {
  const name = (seat) => (seat === view.you ? "you" : who(doc, seat));
  const t = o.terms || {};
  const what = t.loan ? `${t.loan === "lend" ? "a loan of" : "to borrow"} ${money(t.amount)}`
    : `${t.direction === "sell" ? "to sell" : "to buy"} ${t.lids} Lid${t.lids === 1 ? "" : "s"} for ${money(t.price)}`;
  return `${name(o.from).replace(/^./, (c) => c.toUpperCase())} offer${o.from === view.you ? "" : "s"} ${name(o.to)} ${what}.`;
}

function players(view, dealers, data, doc) {
  const cards = Object.fromEntries((data.cards?.cards || []).map((c) => [c.id, c]));
  const squares = Object.fromEntries(data.board.squares.map((s) => [s.id, s]));
  return h("div", { class: "scroll" }, h("table", { class: "trafficking-players players-table" },
    h("thead", {}, h("tr", {}, ["Player", "Role", "Square", "Cash", "Lids", "Sold / to sell", "Offenses", "Cards", "Notes"].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, view.players.map((p) => h("tr", { dataset: { seat: p.seat }, class: view.turn?.seat === p.seat ? "current" : "" },
      h("th", { scope: "row", class: `seat${p.seat % 6}` }, h("span", { class: `token${p.role === "narc" ? " narc" : ""}`, dataset: { seat: p.seat }, "aria-hidden": "true" },
        p.role === "narc" ? "N" : TOKEN[p.dealer] || "·"), ` ${who(doc, p.seat)}${p.seat === view.you ? " (you)" : ""}`),
      h("td", {}, p.role === "narc" ? `Narc (${data.board.narc})` : dealers[p.dealer]?.name || "—"),
      h("td", {}, squares[p.square]?.name || "—"),
      h("td", { class: "cash" }, p.role === "narc" ? "—" : money(p.cash)),
      h("td", {}, p.role === "narc" ? "—" : p.lids),
      h("td", {}, p.role === "narc" ? "—" : `${p.sold} / ${p.to_sell}`),
      h("td", {}, p.role === "narc" ? "—" : `${p.offenses} of 3`),
      h("td", {}, p.kept ? p.kept.map((k) => h("span", { class: "card", tabindex: 0, dataset: { tip: cards[k.card]?.text || k.text || "" } }, k.name)) : p.kept_count || "0"),
      h("td", { class: "muted" }, [p.pass ? "Transit Pass" : "", p.miss ? "misses a turn" : "", p.out || "",
        p.bet ? betText(p.bet) : ""].filter(Boolean).join(", ")))))));
}

function betText(bet) {
  const parts = [];
  if (bet.exact) parts.push(`${money(bet.exact.stake)} on a ${bet.exact.number}`);
  if (bet.parity) parts.push(`${money(bet.parity.stake)} on ${bet.parity.pick === "even" ? "evens" : "odds"}`);
  return parts.length ? `bets ${parts.join(" and ")}` : "a bet";
}
