// Trafficking as SVG, drawn from GET /v1/rulesets/trafficking/data: every square at its x, y on the grid,
// the red arrows and the Expressway between them, the Cop Shops and the Dealers' Hang Outs; from the
// seat's view, every seat's pawn (the Narc's a badge) and the money, Lids and cards of each.  A square a
// legal move names (where the roll, the subway or a cab takes you; the Narc's Cop Shop) is pickable, and
// so is a Dealer character while they are being chosen.
import { h } from "../dom.js";
import { pickable, seatFill, who } from "./pick.js";
import { zoomable } from "./zoom.js";

const CELL = 66, SIZE = 62, PAD = 8; // grid pitch, square size, margin (SVG units)
const NAME_PX = 11.5, LINE = 12, CHARS = 10; // a name's font size and line pitch (style.css), and about how many letters fit a line
const KIND_FILL = {
  street: "#ecebe6", hang_out: "#d9ead3", dealing: "#f4e3b5", flip_out: "#dfd7ee", sour_grapes: "#f3d6c9",
  eleven_seven: "#d2e4ef", subway: "#cfd8f6", roll_again: "#e8e8c8", cop_shop: "#c9d3e6", cab_stand: "#f6eaa6",
  miss_turn: "#efd0d0", expressway: "#d6ece8", customs: "#c9d3e6",
};
const money = (n) => `$${Number(n).toLocaleString("en-US")}`;

export function drawTrafficking(args) {
  const { view, data, moves, pick, picked } = args;
  const board = data?.board;
  if (!board) return h("p", { class: "error" }, "The board's data could not be loaded.");
  const byId = Object.fromEntries(board.squares.map((s) => [s.id, s]));
  const dealers = Object.fromEntries(board.dealers.map((d) => [d.id, d]));
  const W = board.grid.width * CELL + 2 * PAD, H = board.grid.height * CELL + 2 * PAD;
  const cx = (s) => PAD + s.x * CELL + CELL / 2, cy = (s) => PAD + s.y * CELL + CELL / 2;
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
  for (const square of board.squares) squares.append(drawSquare(square, here[square.id] || [], dealers, view, cx, cy, args));
  svg.append(squares, middle(view, data, W, H));

  return h("div", { class: "trafficking" },
    h("div", { class: "row" },
      h("span", { class: "badge" }, `phase: ${view.phase}`),
      view.turn ? h("span", {}, h("b", { class: `seat${view.turn.seat % 6}` }, `${who(args.doc, view.turn.seat)}`),
        view.turn.seat === view.you ? " (you)" : "", ` — ${view.turn.stage}${view.turn.die ? `, die ${view.turn.die}` : ""}${view.turn.sell_die ? `, selling up to ${view.turn.sell_die}` : ""}`) : null,
      view.customs ? h("span", { class: "notice" }, `Airport Customs: seat ${view.customs.dealer} hides the Lids, the Narc (seat ${view.customs.narc}) guesses`) : null),
    // the + button closes in on your own pawn (a spectator's: the seat to play)
    zoomable(svg, "trafficking", { focus: () => {
      const square = byId[view.players.find((p) => p.seat === (view.you ?? view.turn?.seat))?.square];
      return square ? [cx(square), cy(square)] : null;
    } }),
    view.phase === "characters" ? h("div", {}, h("h2", {}, "The Dealers"), h("div", { class: "cards" }, board.dealers.map((d) => {
      const taken = view.players.find((p) => p.dealer === d.id);
      return pickable(h("div", { class: "card", dataset: { dealer: d.id } }, h("b", {}, d.name),
        `Hang Out: ${byId[d.hang_out]?.name || d.hang_out}${taken ? ` — seat ${taken.seat}` : ""}`), d.id, { moves, pick, picked });
    }))) : null,
    players(view, dealers, data, args.doc),
    view.offers?.length ? h("div", {}, h("h2", {}, "Open offers"), h("ul", {}, view.offers.map((o) =>
      h("li", {}, `#${o.id}: seat ${o.from} → seat ${o.to}: ${o.terms.direction} ${o.terms.lids} Lid(s) for ${money(o.terms.price)}`)))) : null);
}

// A square's name on up to `most` lines, word by word ("The" dropped, a "(Downtown)" on a line of its
// own); a line too long for the square is squeezed to fit it (textLength), never cut.
export function nameLines(name, most = 3) {
  const [, main, note] = name.replace(/^The /, "").match(/^(.*?)\s*(\([^)]*\))?$/);
  const lines = [];
  for (const word of main.split(/\s+/)) {
    const last = lines.length - 1;
    if (last >= 0 && (lines[last] + " " + word).length <= CHARS) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  if (note) lines.push(note);
  if (lines.length <= most) return lines;
  // too many: the surplus joins the last line kept, which is then squeezed
  return [...lines.slice(0, most - 1), lines.slice(most - 1).join(" ")];
}

function drawSquare(square, pawns, dealers, view, cx, cy, args) {
  const x = cx(square), y = cy(square);
  const dealer = square.dealer ? dealers[square.dealer] : null;
  const g = h("svg:g", { class: `square kind-${square.kind}`, dataset: { square: square.id, kind: square.kind } },
    h("svg:title", {}, `${square.name} (${square.id}, ${square.kind.replace(/_/g, " ")})${dealer ? `\nHang Out of ${dealer.name}` : ""}` +
      `${square.arrows?.length ? `\nArrows to: ${square.arrows.join(", ")}` : ""}${pawns.length ? `\nHere: ${pawns.map((p) => `seat ${p.seat}`).join(", ")}` : ""}`),
    h("svg:rect", { class: "tile", x: x - SIZE / 2, y: y - SIZE / 2, width: SIZE, height: SIZE, rx: 5, fill: KIND_FILL[square.kind] || "#f0efe9" }));
  const icon = square.kind === "cop_shop" ? (square.west_end ? "COPS (W)" : "COPS") : dealer ? `⌂ ${dealer.name.split(" ")[0]}` : null;
  nameLines(square.name, icon ? 2 : 3).forEach((line, i) => {
    const fits = line.length * NAME_PX * 0.56 <= SIZE - 4;
    g.append(h("svg:text", { class: "name", x, y: y - SIZE / 2 + 12 + i * LINE, "text-anchor": "middle",
      textLength: fits ? undefined : SIZE - 4, lengthAdjust: fits ? undefined : "spacingAndGlyphs" }, line));
  });
  if (icon) g.append(h("svg:text", { class: "icon", x, y: y + 14, "text-anchor": "middle" }, icon));
  pawns.forEach((p, i) => {
    const px = x - SIZE / 2 + 9 + (i % 4) * 14, py = y + SIZE / 2 - 8 - Math.floor(i / 4) * 13;
    g.append(p.role === "narc"
      ? h("svg:g", { class: "pawn narc", dataset: { seat: p.seat } }, h("svg:rect", { x: px - 6, y: py - 6, width: 12, height: 12, fill: "#1d1d1f" }),
        h("svg:text", { class: "pawn-label", x: px, y: py + 3, "text-anchor": "middle" }, "N"))
      : h("svg:g", { class: "pawn", dataset: { seat: p.seat } }, h("svg:circle", { cx: px, cy: py, r: 6, fill: seatFill(p.seat) }),
        h("svg:text", { class: "pawn-label", x: px, y: py + 3, "text-anchor": "middle" }, String(p.seat))));
  });
  const who = pawns.map((p) => `${p.role === "narc" ? "the Narc" : "Dealer"} seat ${p.seat}`).join(", ");
  return pickable(g, square.id, args, `${square.name}${square.kind === "cop_shop" ? " (Cop Shop)" : ""}${who ? `: ${who}` : ""}`);
}

function middle(view, data, W, H) {
  const lines = [
    `Narc: ${data.board.narc}`,
    `Sour Grapes ${view.stacks?.sour_grapes ?? "?"} · Flip Out ${view.stacks?.flip_out ?? "?"}`,
    `Transit Passes in the bank: ${view.transit_passes_in_bank ?? "?"}`,
    `A kilo is ${view.kilo ?? data.prices?.kilo} Lids`,
  ];
  if (view.result) lines.push(`Over: ${view.result.reason}`);
  return h("svg:g", { class: "middle" }, lines.map((line, i) =>
    h("svg:text", { x: W / 2, y: H * 0.3 + i * 24, "text-anchor": "middle" }, line)));
}

function players(view, dealers, data, doc) {
  const cards = Object.fromEntries((data.cards?.cards || []).map((c) => [c.id, c]));
  const squares = Object.fromEntries(data.board.squares.map((s) => [s.id, s]));
  return h("div", { class: "scroll" }, h("table", { class: "trafficking-players" },
    h("thead", {}, h("tr", {}, ["Seat", "Role", "Square", "Cash", "Lids", "Sold / to sell", "Offenses", "Cards", ""].map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, view.players.map((p) => h("tr", { dataset: { seat: p.seat }, class: view.turn?.seat === p.seat ? "current" : "" },
      h("th", { scope: "row", class: `seat${p.seat % 6}` }, `${who(doc, p.seat)}${p.seat === view.you ? " (you)" : ""}`),
      h("td", {}, p.role === "narc" ? `Narc (${data.board.narc})` : dealers[p.dealer]?.name || "—"),
      h("td", {}, squares[p.square]?.name || p.square || "—"),
      h("td", { class: "cash" }, p.role === "narc" ? "—" : money(p.cash)),
      h("td", {}, p.role === "narc" ? "—" : p.lids),
      h("td", {}, p.role === "narc" ? "—" : `${p.sold} / ${p.to_sell}`),
      h("td", {}, p.role === "narc" ? "—" : `${p.offenses} of 3`),
      h("td", {}, p.kept ? p.kept.map((k) => h("span", { class: "card", title: cards[k.card]?.text || k.text }, k.name)) : p.kept_count || "0"),
      h("td", { class: "muted" }, [p.pass ? "Transit Pass" : "", p.miss ? "misses a turn" : "", p.out || "",
        p.bet ? `bet ${JSON.stringify(p.bet)}` : ""].filter(Boolean).join(", ")))))));
}
