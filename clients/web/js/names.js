// What the players call the things a move names: a Region's name, not "AG1"; "Junkie ($400)", not
// "junkie400"; "Red's Dealer (3)", not "dealer3-2".  Built from the ruleset's served data and the view,
// for the text the page writes itself (a picker's toggles, a popover's title); the server's labels are
// the server's.
import { who } from "./boards/pick.js";

const WEIGHTS = { reefer: "Reefer", pills: "Pills", cocaine: "Coca", opiates: "Opiates", traphouse: "the Traphouse" };

function kingpinNames(data, view, doc) {
  const names = {};
  for (const [kind, s] of Object.entries(view?.stacks || {})) names[kind] = s.name;
  for (const k of data?.catalog?.kinds || []) names[k.kind] ??= k.name;
  for (const p of view?.players || []) {
    for (const c of p.cards || []) names[c.id] = p.seat === view.you ? `your ${c.name}` : `${who(doc, p.seat)}'s ${c.name}`;
  }
  for (const c of view?.jail || []) if (c.id) names[c.id] = `${c.name} (in Jail)`;
  return names;
}

function druglordNames(data) {
  return { ...WEIGHTS, ...Object.fromEntries((data?.regions || []).map((r) => [r.id, r.name])) };
}

function narcosNames(data) {
  return Object.fromEntries([...(data?.deck || []), ...Object.values(data?.starting || {})].map((c) => [c.id, c.name])
    .concat((data?.cartel || []).map((c) => [c.id, c.english || c.name])));
}

function traffickingNames(data) {
  return Object.fromEntries([...(data?.board?.squares || []).map((s) => [s.id, s.name]),
    ...(data?.board?.dealers || []).map((d) => [d.id, d.name])]);
}

function cannabisName(data, doc, value) {
  const [, arg, id] = /^([a-z_]+)=(.+)$/.exec(String(value)) || [];
  const board = data?.board;
  const brick = (b) => `${b.resource} ${b.chip ?? ""}`.trim();
  if (arg === "victim") return who(doc, Number(id));
  if (arg === "brick") { const b = board?.bricks?.find((x) => String(x.id) === id); return b ? `the ${b.resource} brick` : "a brick"; }
  if (arg === "at") {
    const bricks = (board?.bricks || []).filter((b) => b.corners?.map(String).includes(id));
    return bricks.length ? `the corner of ${bricks.map(brick).join(", ")}` : "a corner";
  }
  if (arg === "path") return "a path";
  return null;
}

// name(value) for this game: the thing's name, or the value itself when the page knows no better
export function namer(ruleset, data, view, doc) {
  const table = ruleset === "kingpin" ? kingpinNames(data, view, doc) : ruleset === "druglord" ? druglordNames(data)
    : ruleset === "narcos" ? narcosNames(data) : ruleset === "trafficking" ? traffickingNames(data) : {};
  return (value) => {
    if (ruleset === "lords_of_cannabis") { const n = cannabisName(data, doc, value); if (n) return n; }
    return table[value] ?? (typeof value === "string" ? value.replace(/[_-]/g, " ") : String(value));
  };
}
