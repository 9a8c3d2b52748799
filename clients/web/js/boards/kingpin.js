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
  const seatPanel = (p) => {
    const mine = p.seat === view.you;
    const trucks = p.cards.filter((c) => c.type === "truck"), dealers = p.cards.filter((c) => c.type === "dealer");
    const junkies = p.cards.filter((c) => c.type === "junkie");
    return h("section", {
      class: `panel player${mine ? " mine" : ""}${p.seat === view.current ? " current" : ""}`, dataset: { seat: p.seat },
      "aria-label": mine ? "Your cards" : `${who(doc, p.seat)}'s cards`,
    },
    h("h2", { class: `seat${p.seat % 6}` }, mine ? `Your cards (${who(doc, p.seat)})` : who(doc, p.seat),
      p.seat === view.current ? h("span", { class: "badge turn-badge" }, "playing") : ""),
    // the counts a player looks for first, before reading any card
    h("ul", { class: "tally" },
      h("li", { class: "bankroll-line" }, h("b", { class: "bankroll" }, money(p.bankroll)), h("span", { class: "muted" }, ` of ${money(view.target)}`)),
      p.dice_pool !== undefined ? h("li", {}, h("b", {}, p.dice_pool), " dice") : null,
      h("li", {}, h("b", {}, hits(trucks)), " Hits on ", plural(trucks.length, "Truck")),
      h("li", {}, h("b", {}, hits(dealers)), " Hits on ", plural(dealers.length, "Dealer")),
      h("li", {}, h("b", {}, money(junkies.reduce((n, c) => n + (c.cash || 0), 0))), " cash on ", plural(junkies.length, "Junkie")),
      p.regulated_by?.length ? h("li", { class: "badge" }, "regulated") : null),
    h("div", { class: "cards" }, p.cards.map((c) => chip(c.id, [h("b", {}, c.name), cardDetail(c)],
      `kind-${c.type}${c.exhausted || c.state === "exhausted" ? " exhausted" : ""}`))),
    p.jailed?.length ? h("p", {}, "In Jail: ", p.jailed.map((c) => chip(c.id ?? c, c.name ?? c))) : null);
  };
  // your cards first and apart; the opponents' after, in seat order
  const yours = view.players.filter((p) => p.seat === view.you);
  const others = view.players.filter((p) => p.seat !== view.you);

  const stacks = Object.entries(view.stacks || {}).map(([kind, s]) =>
    chip(kind, [h("b", {}, s.name), `${money(s.price)} · ${s.remaining} left`], `kind-${s.type}${s.remaining ? "" : " exhausted"}`));
  return h("div", { class: "kingpin" },
    h("div", { class: "row" },
      h("span", {}, `Turn ${view.turn}`), h("span", { class: "badge" }, `phase: ${view.phase}`),
      view.dice?.length ? h("span", { class: "dice", "aria-label": "The dice" }, "Dice: ", view.dice.map((d) =>
        h("span", { class: `die${d.used ? " used" : ""}`, title: `${d.face}: ${d.action}${d.used ? " (used)" : ""}` },
          h("span", { class: "pips", "aria-hidden": "true" }, FACES[d.face - 1] || d.face),
          h("span", { class: "die-what" }, `${d.face} ${d.action}${d.used ? " (used)" : ""}`)))) : null),
    view.window ? h("p", { class: "notice" }, `Waiting for an answer: ${describeWindow(view.window)}`) : null,
    yours.map(seatPanel),
    h("div", { class: "players" }, others.map(seatPanel)),
    h("h2", {}, "Stacks to buy from"), h("div", { class: "cards" }, stacks),
    view.jail?.length ? [h("h2", {}, "Jail"), h("div", { class: "cards" }, view.jail.map((c) => chip(c.id ?? c, c.name ?? c)))] : null);
}

const hits = (cards) => `${cards.reduce((n, c) => n + (c.hits || 0), 0)}/${cards.reduce((n, c) => n + (c.max_hits ?? c.size ?? 0), 0)}`;
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

function cardDetail(card) {
  if (card.type === "truck" || card.type === "dealer") return `${card.hits}/${card.max_hits ?? card.size} Hits`;
  if (card.type === "junkie") return `cash ${money(card.cash)} · payday ${money(card.payday)} · OD ${card.od}`;
  return card.special ? `${card.active === false ? "exhausted" : "special"}` : "";
}

function describeWindow(window) {
  return Object.entries(window).filter(([, v]) => typeof v !== "object").map(([k, v]) => `${k} ${v}`).join(", ");
}
