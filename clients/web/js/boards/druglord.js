// Druglord's Drugboard as SVG, drawn from GET /v1/rulesets/druglord/data alone: every Region at its
// (reconstructed) map coordinates, coloured by zone, borders as lines, the owner's marker and the
// Weight on it; the players' Traphouses and the racetrack (score) below.  A Region a legal move names
// is clickable: the moves panel then shows only the moves for it.
import { who } from "./pick.js";
import { h } from "../dom.js";
import { mentions } from "../moves.js";

const W = 720, MARGIN = 6; // equirectangular over the Regions' own extent (degrees), so the map fills the width
const WEIGHTS = ["reefer", "pills", "cocaine", "opiates"];
const SEAT_FILL = ["#0b5cad", "#a4161a", "#1b6b2c", "#7b2d8e", "#8a5a00", "#00606b"];
const ZONE_FILL = ["#f4e3b5", "#d9ead3", "#f3d6c9", "#dfd7ee", "#d2e4ef", "#efe0d0", "#e8e8c8", "#d6ece8"];

export function drawDruglord({ view, data, doc, moves, pick, picked }) {
  if (!data) return h("p", { class: "error" }, "The board's data could not be loaded.");
  const byId = Object.fromEntries(data.regions.map((r) => [r.id, r]));
  const xs = data.regions.map((r) => r.x), ys = data.regions.map((r) => r.y);
  const west = Math.min(...xs) - MARGIN, north = Math.max(...ys) + MARGIN;
  const scale = W / (Math.max(...xs) + MARGIN - west);
  const H = Math.round((north - Math.min(...ys) + MARGIN) * scale);
  const X = (lon) => (lon - west) * scale, Y = (lat) => (north - lat) * scale;
  const zones = Object.keys(data.zones);
  const svg = h("svg:svg", { class: "map", viewBox: `0 0 ${W} ${H}`, role: "group", "aria-label": "The Drugboard: every Region" });
  svg.append(h("svg:title", {}, "The Drugboard"));
  const drawn = new Set();
  for (const region of data.regions) {
    for (const other of region.borders || []) {
      const key = [region.id, other].sort().join("-");
      if (drawn.has(key) || !byId[other]) continue;
      drawn.add(key);
      svg.append(h("svg:line", { class: "border", x1: X(region.x), y1: Y(region.y), x2: X(byId[other].x), y2: Y(byId[other].y) }));
    }
  }
  for (const region of data.regions) {
    const held = view.regions?.[region.id];
    const weight = held ? WEIGHTS.reduce((n, w) => n + (held.weight?.[w] || 0), 0) : 0;
    const pickable = moves.some(({ move }) => mentions(move, region.id));
    const x = X(region.x), y = Y(region.y);
    const g = h("svg:g", {
      class: `region${pickable ? " pickable" : ""}`, dataset: { region: region.id, owner: held?.owner ?? "" },
      tabindex: pickable ? 0 : undefined, role: pickable ? "button" : "img",
      "aria-pressed": pickable ? String(picked === region.id) : undefined,
      "aria-label": `${region.name} (${region.id}, ${region.zone_name})${held ? `, seat ${held.owner}'s, weight ${weight}` : ""}`,
    });
    g.append(h("svg:title", {}, `${region.name} — ${region.zone_name}\nDemand: ${WEIGHTS.map((w) => `${w} ${region.demand[w]}`).join(", ")}` +
      `${region.ports?.length ? `\nPorts: ${region.ports.join(", ")}` : ""}${held ? `\n${who(doc, held.owner)}: ${WEIGHTS.map((w) => `${w} ${held.weight[w]}`).join(", ")}` : ""}`));
    g.append(h("svg:circle", { cx: x, cy: y, r: 7, fill: ZONE_FILL[zones.indexOf(region.zone) % ZONE_FILL.length],
      stroke: picked === region.id ? "#000" : "#6b6b70", "stroke-width": picked === region.id ? 3 : 0.8 }));
    if (held) {
      g.append(h("svg:rect", { class: "marker", x: x - 4, y: y - 4, width: 8, height: 8, fill: SEAT_FILL[held.owner % 6] }));
      if (weight) g.append(h("svg:text", { x: x + 8, y: y + 3, "font-weight": "bold" }, String(weight)));
    }
    g.append(h("svg:text", { x: x - 7, y: y - 9 }, region.id));
    if (pickable) {
      g.addEventListener("click", () => pick(region.id));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(region.id); } });
    }
    svg.append(g);
  }
  return h("div", { class: "druglord" },
    h("div", { class: "row" }, h("span", {}, `Turn ${view.turn}`),
      h("span", { class: "badge" }, `${view.phase}${view.phase_name ? `: ${view.phase_name}` : ""}`),
      view.actor !== undefined && view.actor !== null ? h("span", {}, `acting: seat ${view.actor}`) : null,
      view.last_roll ? h("span", { class: "muted" }, `last roll: ${JSON.stringify(view.last_roll.totals || view.last_roll.naturals || {})}`) : null),
    svg,
    h("div", { class: "legend" }, view.players.map((p) => h("span", {}, h("b", { class: `seat${p.seat % 6}` }, "■ "),
      `${who(doc, p.seat)} (${p.markers})${p.seat === view.you ? " — you" : ""}`))),
    racetrack(view, doc),
    traphouses(view, doc));
}

function racetrack(view, doc) {
  return h("div", { class: "racetrack" }, h("h2", {}, `Racetrack (game to ${view.game_to})`),
    h("table", {}, h("thead", {}, h("tr", {}, ["Seat", "Score", "Laps", "Regions", "Cases", "Hand"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, view.players.map((p) => h("tr", { dataset: { seat: p.seat } },
        h("td", { class: `seat${p.seat % 6}` }, `${who(doc, p.seat)}`), h("td", { class: "score" }, p.score), h("td", {}, p.laps),
        h("td", { class: "holdings" }, p.regions.join(" ")), h("td", {}, `${p.case_total} / ${view.trial_at}`),
        h("td", {}, p.hand?.length ? p.hand.map((c) => c.name || c.id || c).join(", ") : p.hand_count))))));
}

function traphouses(view, doc) {
  return h("div", { class: "traphouses" }, h("h2", {}, "Traphouses"),
    h("table", {}, h("thead", {}, h("tr", {}, ["Seat", ...WEIGHTS].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, view.players.map((p) => h("tr", {}, h("td", {}, `${who(doc, p.seat)}`),
        WEIGHTS.map((w) => h("td", {}, `${p.traphouse[w]}${p.traphouse_locked?.[w] ? ` (${p.traphouse_locked[w]} locked)` : ""}`)))))));
}
