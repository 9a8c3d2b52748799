// Kingpin's table: each player's bankroll and cards (Hits on Trucks and Dealers, Junkies' cash),
// Jail, the dice, and the card stacks.  A card or stack a legal move names is picked by clicking it.
import { who } from "./pick.js";
import { h } from "../dom.js";
import { mentions } from "../moves.js";

const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const money = (n) => `$${Number(n).toLocaleString("en-US")}`;

export function drawKingpin({ view, doc, moves, pick, picked }) {
  const named = (value) => moves.some(({ move }) => mentions(move, value));
  const chip = (value, content, extra = "") => {
    const pickable = named(value);
    return h(pickable ? "button" : "div", {
      class: `card ${extra} ${pickable ? "pickable secondary" : ""}`.trim(), dataset: { card: value },
      "aria-pressed": pickable ? String(picked === value) : undefined,
      onclick: pickable ? () => pick(value) : undefined,
    }, content);
  };
  const players = view.players.map((p) => h("div", {
    class: `panel player ${p.seat === view.current ? "current" : ""}`, dataset: { seat: p.seat },
  },
  h("h2", { class: `seat${p.seat % 6}` }, `${who(doc, p.seat)}${p.seat === view.you ? " (you)" : ""}`,
    p.seat === view.current ? " — playing" : ""),
  h("p", {}, h("b", { class: "bankroll" }, money(p.bankroll)), ` of ${money(view.target)}`,
    p.regulated_by?.length ? h("span", { class: "badge" }, "regulated") : "",
    p.dice_pool !== undefined ? h("span", { class: "muted" }, ` · ${p.dice_pool} dice`) : ""),
  h("div", { class: "cards" }, p.cards.map((c) => chip(c.id, [h("b", {}, c.name), cardDetail(c)],
    c.exhausted || c.state === "exhausted" ? "exhausted" : ""))),
  p.jailed?.length ? h("p", {}, "In Jail: ", p.jailed.map((c) => chip(c.id ?? c, c.name ?? c))) : null));

  const stacks = Object.entries(view.stacks || {}).map(([kind, s]) =>
    chip(kind, [h("b", {}, s.name), `${money(s.price)} · ${s.remaining} left`]));
  return h("div", { class: "kingpin" },
    h("div", { class: "row" },
      h("span", {}, `Turn ${view.turn}`), h("span", { class: "badge" }, `phase: ${view.phase}`),
      view.dice?.length ? h("span", { class: "dice" }, "Dice: ", view.dice.map((d) =>
        h("span", { class: `die${d.used ? " used" : ""}`, title: `${d.face}: ${d.action}${d.used ? " (used)" : ""}` }, FACES[d.face - 1] || d.face))) : null),
    view.window ? h("p", { class: "notice" }, `Waiting for an answer: ${describeWindow(view.window)}`) : null,
    h("div", { class: "players" }, players),
    h("h2", {}, "Stacks"), h("div", { class: "cards" }, stacks),
    view.jail?.length ? [h("h2", {}, "Jail"), h("div", { class: "cards" }, view.jail.map((c) => chip(c.id ?? c, c.name ?? c)))] : null);
}

function cardDetail(card) {
  if (card.type === "truck" || card.type === "dealer") return `${card.hits}/${card.max_hits ?? card.size} Hits`;
  if (card.type === "junkie") return `cash ${money(card.cash)} · payday ${money(card.payday)} · OD ${card.od}`;
  return card.special ? `${card.active === false ? "exhausted" : "special"}` : "";
}

function describeWindow(window) {
  return Object.entries(window).filter(([, v]) => typeof v !== "object").map(([k, v]) => `${k} ${v}`).join(", ");
}
