// Any game: its view (the part this seat may see) as a readable tree, and every board-like value
// that a legal move names as a pickable chip, so moves can still be chosen "on the board".
import { h } from "../dom.js";
import { mentions } from "../moves.js";

export function drawGeneric({ view, moves, pick, picked }) {
  const pickable = new Set();
  for (const { move } of moves) {
    for (const [k, v] of Object.entries(move)) if (k !== "type" && typeof v === "string") pickable.add(v);
  }
  const chips = [...pickable].sort().slice(0, 60).map((value) =>
    h("button", { class: picked === value ? "" : "secondary", "aria-pressed": String(picked === value),
      onclick: () => pick(value), title: `${moves.filter(({ move }) => mentions(move, value)).length} moves` }, value));
  return h("div", {},
    h("h2", {}, "The table as you see it"),
    chips.length ? h("div", { class: "row", "aria-label": "Things your moves name" }, chips) : null,
    tree(view));
}

function tree(value, depth = 0) {
  if (value === null || typeof value !== "object") return h("code", {}, JSON.stringify(value));
  const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  if (!entries.length) return h("code", {}, Array.isArray(value) ? "[]" : "{}");
  if (entries.every(([, v]) => v === null || typeof v !== "object") && entries.length <= 8) {
    return h("code", {}, JSON.stringify(value));
  }
  return h("ul", { class: "tree" }, entries.map(([k, v]) =>
    v !== null && typeof v === "object" && depth >= 1
      ? h("li", {}, h("details", { open: depth < 1 }, h("summary", {}, String(k)), tree(v, depth + 1)))
      : h("li", {}, h("b", {}, `${k}: `), tree(v, depth + 1))));
}
