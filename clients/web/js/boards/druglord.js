// Druglord's Drugboard as a world map in SVG, drawn from GET /v1/rulesets/druglord/data alone: every
// Region near its (reconstructed) place on the globe, named on the map, on its zone's shaded area with
// the zone's name; the oceans named, a port ringed in blue, borders as lines; a held Region carries its
// owner's marker with the Weight on it.  The map pans and zooms (zoom.js).  A Region a legal move names
// is clickable: the moves panel (and a popover beside it) then shows only the moves for it.  The
// players' Traphouses and the racetrack (score) are tables below.
import { who, seatFill } from "./pick.js";
import { h, words as capital } from "../dom.js";
import { mentions } from "../moves.js";
import { zoomable } from "./zoom.js";
import { layoutMap, shortName } from "./druglord_map.js";

const WEIGHTS = ["reefer", "pills", "cocaine", "opiates"];
const WEIGHT_NAMES = { reefer: "Reefer", pills: "Pills", cocaine: "Coca", opiates: "Opiates" };
const weightName = (w) => WEIGHT_NAMES[w] || w;

export function drawDruglord({ view, data, doc, moves, pick, picked }) {
  if (!data) return h("p", { class: "error" }, "The board's data could not be loaded.");
  const map = layoutMap(data);
  const { spots, zoneLabels, seaLabels, box, zoneStyle } = map;
  const svg = h("svg:svg", { class: "map druglord-map", viewBox: `${box.x} ${box.y} ${box.w} ${box.h}`, role: "group",
    "aria-label": "The Drugboard: every Region on the world map" });
  svg.append(h("svg:title", {}, "The Drugboard"));

  // each zone's area: a blob of its Regions and the land borders inside it, drawn opaque in a group
  // made translucent as a whole, so its overlapping parts do not darken
  const areas = h("svg:g", { class: "zones" });
  for (const [zone, ids] of Object.entries(map.members)) {
    const g = h("svg:g", { class: "zone", dataset: { zone }, opacity: 0.6 });
    for (const id of ids) g.append(h("svg:circle", { cx: spots[id].x, cy: spots[id].y + 6, r: 30, fill: zoneStyle[zone].fill }));
    for (const [a, b] of map.inside[zone]) {
      g.append(h("svg:line", { x1: spots[a].x, y1: spots[a].y + 6, x2: spots[b].x, y2: spots[b].y + 6, stroke: zoneStyle[zone].fill,
        "stroke-width": 44, "stroke-linecap": "round" }));
    }
    areas.append(g);
  }
  svg.append(areas);
  svg.append(h("svg:g", { class: "seas" }, seaLabels.map((s) => h("svg:text", { class: "sea", x: s.x, y: s.y, "text-anchor": "middle" }, s.text))));
  svg.append(h("svg:g", { class: "borders" }, map.borders.map(([a, b]) =>
    h("svg:line", { class: "border", x1: spots[a].x, y1: spots[a].y, x2: spots[b].x, y2: spots[b].y }))));
  svg.append(h("svg:g", { class: "zone-names" }, zoneLabels.map((z) =>
    h("svg:text", { class: "zone-name", x: z.x, y: z.y, "text-anchor": "middle", fill: zoneStyle[z.zone].ink }, z.text))));

  const regions = h("svg:g", { class: "regions" });
  for (const region of data.regions) {
    const held = view.regions?.[region.id];
    const weight = held ? WEIGHTS.reduce((n, w) => n + (held.weight?.[w] || 0), 0) : 0;
    const pickable = moves.some(({ move }) => mentions(move, region.id));
    const { x, y } = spots[region.id];
    const g = h("svg:g", {
      class: `region${pickable ? " pickable" : ""}${picked === region.id ? " picked" : ""}`,
      // data-pick too, so the moves panel names a picked Region as the map does
      dataset: { region: region.id, owner: held?.owner ?? "", ...(pickable ? { pick: region.id } : {}) },
      tabindex: pickable ? 0 : undefined, role: pickable ? "button" : "img",
      "aria-pressed": pickable ? String(picked === region.id) : undefined,
      "aria-label": `${region.name} (${region.zone_name})${held ? `, ${who(doc, held.owner)}'s, weight ${weight}` : ""}`,
      // what the Region card says: its tooltip on hover, focus, a long press or (not pickable) a tap
      "data-tip": `${region.name} — ${region.zone_name}\nWeight Value ${region.wv}, Supply Capacity ${region.sc}` +
        `${region.produces?.length ? `\nProduces: ${region.produces.map(weightName).join(", ")}` : ""}` +
        `\nDemand: ${WEIGHTS.map((w) => `${weightName(w)} ${region.demand[w] ?? "–"}`).join(", ")}` +
        `${region.ports?.length ? `\nPort on the ${region.ports.map(words).join(", ")}` : "\nLandlocked"}` +
        `${held ? `\n${who(doc, held.owner)}: ${WEIGHTS.filter((w) => held.weight?.[w]).map((w) => `${held.weight[w]} ${weightName(w)}`).join(", ") || "no weight"}` : ""}`,
    });
    g.append(h("svg:circle", { class: "hit", cx: x, cy: y, r: 22 }));
    if (region.ports?.length) g.append(h("svg:circle", { class: "port", cx: x, cy: y, r: 14 }));
    g.append(h("svg:circle", { class: "spot", cx: x, cy: y, r: 10, fill: zoneStyle[region.zone].spot }));
    if (held) {
      g.append(h("svg:rect", { class: "marker", x: x - 11, y: y - 11, width: 22, height: 22, rx: 4, fill: seatFill(held.owner) }));
      if (weight) g.append(h("svg:text", { class: "weight", x, y: y + 5, "text-anchor": "middle" }, String(weight)));
    }
    g.append(h("svg:text", { class: "name", x, y: y + 31, "text-anchor": "middle" }, shortName(region.name)));
    if (pickable) {
      g.addEventListener("click", () => pick(region.id));
      g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pick(region.id); } });
    }
    regions.append(g);
  }
  svg.append(regions);

  const actor = view.actor !== undefined && view.actor !== null ? view.actor : null;
  return h("div", { class: "druglord" },
    h("div", { class: "row" }, h("span", {}, `Turn ${view.turn}`),
      h("span", { class: "badge" }, `${capital(view.phase)}${view.phase_name ? `: ${view.phase_name}` : ""}`),
      actor !== null ? h("span", {}, "acting: ", h("b", { class: `seat${actor % 6}` }, who(doc, actor))) : null,
      view.last_roll ? h("span", { class: "muted" }, `last roll: ${rollText(view.last_roll, doc)}`) : null),
    // a phone opens on the Regions the seat may pick now (a tap target 24 px or more), the whole map otherwise
    zoomable(svg, "druglord", { max: 8, fit: () => {
      const ids = data.regions.filter((r) => moves.some(({ move }) => mentions(move, r.id))).map((r) => spots[r.id]);
      if (!ids.length) return null;
      const xs = ids.map((p) => p.x), ys = ids.map((p) => p.y);
      return { box: [Math.min(...xs) - 40, Math.min(...ys) - 40, Math.max(...xs) + 40, Math.max(...ys) + 50], key: ids.map((p) => `${p.x},${p.y}`).sort().join(";") };
    } }),
    h("div", { class: "legend" }, view.players.map((p) => h("span", {}, h("b", { class: `seat${p.seat % 6}` }, "■ "),
      `${who(doc, p.seat)} (${p.markers})${p.seat === view.you ? " — you" : ""}`)),
    h("span", { class: "muted" }, "■ with a number: a player's marker and the Weight on it · blue ring: a port")),
    racetrack(view, doc, data),
    traphouses(view, doc));
}

const words = (ocean) => `${ocean[0].toUpperCase()}${ocean.slice(1)}`;

// The last roll in words: "Bot 1's trade die: 4 +1 = 5"; a roll-off's dice by their players' names.
function rollText(roll, doc) {
  const totals = roll.totals || roll.naturals;
  if (!totals || typeof totals !== "object") return "";
  const die = (name) => (/^seat\d+$/.test(name) ? `${who(doc, Number(name.slice(4)))}` : `${name} die`);
  const one = ([name, total]) => {
    const natural = roll.naturals?.[name], mod = roll.modifiers?.[name] || 0;
    return `${die(name)} ${natural !== undefined && mod && natural !== 1 ? `${natural} ${mod > 0 ? "+" : "−"}${Math.abs(mod)} = ` : ""}${total}`;
  };
  const parts = Object.entries(totals).map(one).join(", ");
  return roll.kind === "rolloff" || roll.roller === undefined ? parts : `${who(doc, roll.roller)}'s ${parts}`;
}

function racetrack(view, doc, data) {
  const names = Object.fromEntries(data.regions.map((r) => [r.id, r.name]));
  return h("div", { class: "racetrack" }, h("h2", {}, `Racetrack (game to ${view.game_to})`),
    h("div", { class: "scroll" }, h("table", { class: "players-table" }, h("thead", {}, h("tr", {}, ["Player", "Score", "Laps", "Regions", "Cases", "Hand"].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, view.players.map((p) => h("tr", { dataset: { seat: p.seat } },
        h("th", { scope: "row", class: `seat${p.seat % 6}` }, `${who(doc, p.seat)}`), h("td", { class: "score" }, p.score), h("td", {}, p.laps),
        h("td", { class: "holdings" }, p.regions.map((id) => h("span", { class: "holding", dataset: { region: id } }, names[id] || "a Region"))),
        h("td", {}, `${p.case_total} / ${view.trial_at}`),
        h("td", {}, p.hand?.length ? p.hand.map((c) => {
          const card = data.baller?.cards?.find((b) => b.id === (c.id || c));
          return h("span", { class: "card baller", dataset: { tip: card ? `${card.name}: ${card.text}` : "" }, tabindex: 0 }, card?.name || c.name || "a card");
        }) : p.hand_count)))))));
}

function traphouses(view, doc) {
  return h("div", { class: "traphouses" }, h("h2", {}, "Traphouses"),
    h("div", { class: "scroll" }, h("table", { class: "players-table" }, h("thead", {}, h("tr", {}, ["Player", ...WEIGHTS.map(weightName)].map((t) => h("th", { scope: "col" }, t)))),
      h("tbody", {}, view.players.map((p) => h("tr", { dataset: { seat: p.seat } }, h("th", { scope: "row", class: `seat${p.seat % 6}` }, `${who(doc, p.seat)}`),
        WEIGHTS.map((w) => h("td", {}, `${p.traphouse[w]}${p.traphouse_locked?.[w] ? ` (${p.traphouse_locked[w]} locked)` : ""}`))))))));
}
