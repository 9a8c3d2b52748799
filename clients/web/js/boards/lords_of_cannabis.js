// Lords of Cannabis as SVG, drawn from GET /v1/rulesets/lords_of_cannabis/data (the bricks, intersections,
// paths and loading docks with their drawing positions) and the seat's view (each brick's chip, the
// buildings, Tunnels and the Sheriff).  Intersections, paths and bricks share their numbers, so each is
// picked under the argument that names it ("at=12", "path=30", "brick=4"); a resource a move names
// (discard it, trade it, Strong-Arm it) is picked on the stash table.
import { h, words } from "../dom.js";
import { named, pickable, seatFill, who } from "./pick.js";
import { zoomable } from "./zoom.js";

// the ways two dice make each number: how often a chip produces
const WAYS = { 2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1 };
const U = 100; // one brick's width in SVG units; the data's positions are in brick widths
const MARGIN = 1; // room for the loading docks outside the coast
const RESOURCE_FILL = { FUEL: "#f2c48d", CEMENT: "#cfd0d4", WATER: "#a9d1f0", SEEDS: "#e8df93", SOIL: "#c9a27c" };
// a pointy-top brick's sides, as the two corners they join (corner angles in degrees, y downward)
const SIDE_ANGLES = { NE: [-90, -30], E: [-30, 30], SE: [30, 90], SW: [90, 150], W: [150, 210], NW: [210, 270] };

export function drawLordsOfCannabis(args) {
  const { view, data } = args;
  if (!data?.board) return h("p", { class: "error" }, "The board's data could not be loaded.");
  const board = data.board;
  const nodes = Object.fromEntries(board.intersections.map((n) => [n.id, n]));
  const brickById = Object.fromEntries(board.bricks.map((b) => [b.id, b]));
  const chips = Object.fromEntries((view.board?.bricks || []).map((b) => [b.id, b.chip]));
  const xs = board.intersections.map((n) => n.x), ys = board.intersections.map((n) => n.y);
  const west = Math.min(...xs) - MARGIN, north = Math.min(...ys) - MARGIN;
  const W = (Math.max(...xs) + MARGIN - west) * U, H = (Math.max(...ys) + MARGIN - north) * U;
  const X = (x) => (x - west) * U, Y = (y) => (y - north) * U; // the data's y grows downward, as SVG's
  const svg = h("svg:svg", { class: "map loc", viewBox: `0 0 ${W.toFixed(0)} ${H.toFixed(0)}`, role: "group",
    "aria-label": "The Lords of Cannabis board: bricks, intersections, paths and loading docks" });
  svg.append(h("svg:title", {}, "The board"));

  const bricks = h("svg:g", { class: "bricks" });
  for (const brick of board.bricks) bricks.append(drawBrick(brick, nodes, chips[brick.id], view.sheriff === brick.id, X, Y, args));
  // a corner and a path are named by the bricks around them, as the players see them ("FUEL 8")
  const brickName = (b) => `${b.resource}${chips[b.id] ? ` ${chips[b.id]}` : ""}`;
  const around = (id) => board.bricks.filter((b) => b.corners.includes(id)).map(brickName);
  args.places = { around, brickName, brickById };
  const docks = h("svg:g", { class: "docks" }, board.docks.map((dock) => drawDock(dock, brickById[dock.brick], nodes, X, Y)));
  const paths = h("svg:g", { class: "paths" }, board.paths.map((path) => drawPath(path, nodes, view.tunnels?.[path.id], X, Y, args)));
  // a corner's tap target is as large as the spacing allows, unless paths are picked at the same time
  args.bigCorners = !board.paths.some((p) => named(args.moves, `path=${p.id}`));
  const corners = h("svg:g", { class: "intersections" }, board.intersections.map((node) => drawIntersection(node, view, X, Y, args)));
  svg.append(bricks, docks, paths, corners);

  return h("div", { class: "lords-of-cannabis" },
    h("div", { class: "row" },
      h("span", { class: "badge" }, words(view.phase)),
      h("span", {}, h("b", { class: `seat${view.current % 6}` }, `${who(args.doc, view.current)}`), view.current === view.you ? " (you)" : "", " to play"),
      view.dice ? h("span", { class: "dice", "aria-label": `Dice ${view.dice.join(" and ")}` }, `dice ${view.dice[0]} + ${view.dice[1]} = ${view.dice[0] + view.dice[1]}`) : null,
      view.free_tunnels ? h("span", { class: "badge" }, `${view.free_tunnels} free Tunnel(s)`) : null),
    // a phone opens on what the seat may pick now (corners and paths are small), the whole board otherwise
    zoomable(svg, "lords_of_cannabis", { fit: () => {
      const spots = [];
      for (const n of board.intersections) if (named(args.moves, `at=${n.id}`)) spots.push([X(n.x), Y(n.y)]);
      for (const b of board.bricks) if (named(args.moves, `brick=${b.id}`)) spots.push([X(b.x), Y(b.y)]);
      for (const p of board.paths) {
        if (named(args.moves, `path=${p.id}`)) for (const e of p.ends) spots.push([X(nodes[e].x), Y(nodes[e].y)]);
      }
      if (!spots.length) return null;
      const xs = spots.map((q) => q[0]), ys = spots.map((q) => q[1]);
      return { box: [Math.min(...xs) - 40, Math.min(...ys) - 40, Math.max(...xs) + 40, Math.max(...ys) + 40], key: spots.map(String).sort().join(";") };
    } }),
    h("div", { class: "legend" },
      Object.entries(RESOURCE_FILL).map(([r, fill]) => h("span", {}, h("svg:svg", { class: "swatch", viewBox: "0 0 10 10", "aria-hidden": "true" },
        h("svg:rect", { width: 10, height: 10, fill, stroke: "#55565a" })), ` ${r}`)),
      h("span", {}, "■ Greenhouse, ⌂ Plantation, thick line: Tunnel, ★ Sheriff, chip 6 and 8 in red")),
    players(view, data, args),
    offers(view, args.doc));
}

function polygon(brick, nodes, X, Y) {
  const corners = brick.corners.map((c) => nodes[c])
    .sort((a, b) => Math.atan2(a.y - brick.y, a.x - brick.x) - Math.atan2(b.y - brick.y, b.x - brick.x));
  return corners.map((n) => `${X(n.x).toFixed(1)},${Y(n.y).toFixed(1)}`).join(" ");
}

function drawBrick(brick, nodes, chip, sheriff, X, Y, args) {
  const cx = X(brick.x), cy = Y(brick.y);
  const g = h("svg:g", { class: "brick", dataset: { brick: brick.id, resource: brick.resource, chip: chip ?? "",
    tip: `${brick.resource}${chip ? ` ${chip}: produces when ${chip} is rolled (${WAYS[chip]} of 36 rolls)` : ": no number"}` +
      `${sheriff ? "\nThe Sheriff is here: it produces nothing." : ""}\nA Greenhouse on a corner takes 1 card, a Plantation 2.` } },
    h("svg:polygon", { points: polygon(brick, nodes, X, Y), fill: RESOURCE_FILL[brick.resource] || "#eee" }),
    h("svg:text", { class: "resource", x: cx, y: cy - 0.24 * U, "text-anchor": "middle" }, brick.resource));
  if (chip) {
    g.append(h("svg:circle", { class: "chip", cx, cy, r: 0.17 * U }),
      h("svg:text", { class: `chip-number${chip === 6 || chip === 8 ? " hot" : ""}`, x: cx, y: cy + 0.07 * U, "text-anchor": "middle" }, String(chip)));
  }
  if (sheriff) {
    g.append(h("svg:text", { class: "sheriff", x: cx, y: cy + 0.36 * U, "text-anchor": "middle" }, "★"));
  }
  return pickable(g, `brick=${brick.id}`, args,
    `The ${brick.resource}${chip ? ` ${chip}` : ""} brick${sheriff ? ", the Sheriff on it" : ""}`);
}

function drawDock(dock, brick, nodes, X, Y) {
  const [a, b] = SIDE_ANGLES[dock.side] || [0, 0];
  const mid = ((a + b) / 2) * (Math.PI / 180);
  // the side's two ends: the brick's corners nearest those directions
  const corner = (deg) => {
    const want = deg * Math.PI / 180, off = (n) => Math.atan2(n.y - brick.y, n.x - brick.x) - want;
    const n = brick.corners.map((c) => nodes[c]).sort((p, q) => Math.abs(Math.sin(off(p) / 2)) - Math.abs(Math.sin(off(q) / 2)))[0];
    return [n.x, n.y];
  };
  const [ax, ay] = corner(a), [bx, by] = corner(b);
  const dx = brick.x + 0.9 * Math.cos(mid), dy = brick.y + 0.9 * Math.sin(mid);
  const rate = dock.kind === "?" ? "3:1 ?" : `2:1 ${dock.kind}`;
  const trade = dock.kind === "?" ? "3 of a kind for 1 with the bank" : `2 ${dock.kind} for 1 with the bank`;
  return h("svg:g", { class: "dock", role: "img", "aria-label": `Loading dock ${rate} on the ${brick.resource} brick`,
    "data-tip": `Loading dock ${rate}: built on one of its corners, you trade ${trade}.` },
    h("svg:line", { x1: X(ax), y1: Y(ay), x2: X(dx), y2: Y(dy) }),
    h("svg:line", { x1: X(bx), y1: Y(by), x2: X(dx), y2: Y(dy) }),
    h("svg:rect", { x: X(dx) - 0.26 * U, y: Y(dy) - 0.1 * U, width: 0.52 * U, height: 0.2 * U, rx: 4,
      fill: dock.kind === "?" ? "#ffffff" : RESOURCE_FILL[dock.kind] }),
    h("svg:text", { x: X(dx), y: Y(dy) + 0.05 * U, "text-anchor": "middle" }, rate));
}

function drawPath(path, nodes, owner, X, Y, args) {
  const [a, b] = path.ends.map((n) => nodes[n]);
  const line = { x1: X(a.x), y1: Y(a.y), x2: X(b.x), y2: Y(b.y) };
  const built = owner !== undefined && owner !== null;
  const g = h("svg:g", { class: `path${built ? " tunnel" : ""}`, dataset: { path: path.id, owner: built ? owner : "" } },
    h("svg:line", { ...line, class: "hit" }),
    h("svg:line", { ...line, class: "road", stroke: built ? seatFill(owner) : undefined }));
  const between = [...new Set(path.ends.flatMap((e) => args.places.around(e)))];
  const along = path.ends.map((e) => args.places.around(e)).reduce((a, b) => a.filter((x) => b.includes(x)));
  return pickable(g, `path=${path.id}`, args,
    `The path ${along.length > 1 ? `between ${along.join(" and ")}` : along.length ? `on the coast of ${along[0]}` : `by ${between.join(", ")}`}` +
    `${built ? `, ${who(args.doc, owner)}'s Tunnel` : ""}`);
}

function drawIntersection(node, view, X, Y, args) {
  const x = X(node.x), y = Y(node.y), key = String(node.id);
  const plantation = view.plantations?.[key], greenhouse = view.greenhouses?.[key];
  const owner = plantation ?? greenhouse;
  // the hit circle is as large as the corners' spacing allows (a brick's side is 0.577 wide): 24 px and
  // more on a phone's whole board; the ring a player sees is the smaller mark inside it
  const g = h("svg:g", { class: "intersection", dataset: { intersection: node.id, owner: owner ?? "", building: plantation !== undefined ? "plantation" : greenhouse !== undefined ? "greenhouse" : "" } },
    h("svg:circle", { class: "hit", cx: x, cy: y, r: (args.bigCorners ? 0.285 : 0.16) * U }), h("svg:circle", { class: "mark", cx: x, cy: y, r: 0.16 * U }));
  if (plantation !== undefined) {
    const s = 0.13 * U;
    g.append(h("svg:path", { class: "building", fill: seatFill(plantation),
      d: `M${x - s} ${y + s}V${y - s * 0.2}L${x} ${y - s * 1.3}L${x + s} ${y - s * 0.2}V${y + s}Z` }));
  } else if (greenhouse !== undefined) {
    const s = 0.09 * U;
    g.append(h("svg:rect", { class: "building", x: x - s, y: y - s, width: 2 * s, height: 2 * s, fill: seatFill(greenhouse) }));
  } else {
    g.append(h("svg:circle", { class: "vacant", cx: x, cy: y, r: 0.045 * U }));
  }
  const what = plantation !== undefined ? `${who(args.doc, plantation)}'s Plantation` : greenhouse !== undefined ? `${who(args.doc, greenhouse)}'s Greenhouse` : "vacant";
  const bricks = args.places.around(node.id);
  return pickable(g, `at=${node.id}`, args, `The corner of ${bricks.join(", ") || "the sea"}, ${what}${node.dock ? `, at a ${node.dock === "?" ? "3:1 ?" : `2:1 ${node.dock}`} dock` : ""}`);
}

function players(view, data, args) {
  const resources = data.resources || [];
  const head = ["Player", "Points", "Stash", "Crops", "Gangstas", "Tunnel", "Tunnels / tiles left"];
  const bank = h("p", { class: "muted" }, `Bank: ${resources.map((r) => `${r} ${view.bank?.[r] ?? "?"}`).join(", ")} · Crop deck ${view.crop_deck_count}` +
    `${view.longest_tunnel !== null && view.longest_tunnel !== undefined ? ` · Longest Tunnel: ${who(args.doc, view.longest_tunnel)}` : ""}` +
    `${view.mob_boss !== null && view.mob_boss !== undefined ? ` · Mob Boss: ${who(args.doc, view.mob_boss)}` : ""}`);
  return [bank, h("div", { class: "scroll" }, h("table", { class: "loc-players players-table" },
    h("thead", {}, h("tr", {}, head.map((t) => h("th", { scope: "col" }, t)))),
    h("tbody", {}, view.players.map((p) => h("tr", { dataset: { seat: p.seat }, class: p.seat === view.current ? "current" : "" },
      h("th", { scope: "row", class: `seat${p.seat % 6}` }, pickable(h("span", {}, `${who(args.doc, p.seat)}${p.seat === view.you ? " (you)" : ""}`), `victim=${p.seat}`, args)),
      h("td", { class: "points" }, p.total_points !== undefined && p.total_points !== p.points ? `${p.points} (${p.total_points})` : p.points),
      h("td", { class: "stash" }, p.stash ? h("span", { class: "cards" }, resources.map((r) =>
        stashCard(r, p.stash[r], p.seat === view.you, args))) : `${p.stash_count} card(s)`), h("td", { class: "crops" }, p.crops ? (p.crops.length ? h("span", { class: "cards" }, p.crops.map((id) => cropCard(id, data))) : "0") : p.crop_count), h("td", {}, p.gangstas),
      h("td", {}, p.tunnel_length), h("td", { class: "muted" }, `${p.tunnels_left} / ${p.tiles_left}`))))))];
}

// a Crop card in the seat's hand, by its name, its text in a tooltip
function cropCard(id, data) {
  const card = data.crops?.cards?.find((c) => c.id === id);
  return h("span", { class: "card crop", tabindex: 0, dataset: { tip: card ? `${card.name}: ${card.text}` : "" } }, card?.name || "a Crop card");
}

// a resource the seat holds: picked when a move names it (discard it, trade it, ask it of the others)
function stashCard(resource, count, yours, args) {
  const card = h("span", { class: "card", dataset: { resource } }, `${resource} ${count}`);
  return yours ? pickable(card, resource, args) : card;
}

function offers(view, doc) {
  if (!view.offers?.length) return null;
  const side = (o) => Object.entries(o || {}).filter(([, n]) => n).map(([r, n]) => `${n} ${r}`).join(" + ");
  const name = (seat) => (seat === view.you ? "you" : who(doc, seat));
  return h("div", { class: "offers" }, h("h2", {}, "Open offers"), h("ul", {}, view.offers.map((o) =>
    h("li", { dataset: { offer: o.id } }, h("b", { class: `seat${o.from % 6}` }, name(o.from).replace(/^./, (c) => c.toUpperCase())),
      ` offer${o.from === view.you ? "" : "s"} ${name(o.to)} ${side(o.terms.give)} for ${side(o.terms.get)}.`))));
}
