// Kingpin's table: each player's bankroll and cards (Hits on Trucks and Dealers, Junkies' cash),
// Jail, the dice, and the card stacks.  A card or stack a legal move names is picked by clicking it.
import { who } from "./pick.js";
import { h, words } from "../dom.js";
import { mentions } from "../moves.js";

const FACES = ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"];
const money = (n) => `$${Number(n).toLocaleString("en-US")}`;
// what each face does (rulebook, Roll Outcomes: Single Die), for the dice's tooltips
const FACE_TIPS = {
  1: "Shipment: fill one of your empty Supply Trucks with as many Hits as its number.",
  2: "Distribute: move all the Hits of one Supply Truck onto your Dealers (up to each one's maximum).",
  3: "Purchase Hits: one of your Junkies buys Hits from one of your Dealers.",
  4: "Payday: each of your Junkies adds its Payday to its cash.",
  5: "Steal a Deal: sell Hits from your Dealer to another player's Junkie.",
  6: "Chloroform: pay $200 to exhaust another player's Special card.",
};
const DOUBLES = "Two alike: activate a Special card or take $200; three: a Payday for every Junkie and a free Basic card; four: a free Special card.";
// what each card does (rulebook, Special Cards and Basic Cards)
const SPECIAL_TIPS = {
  cop: "Cop: pay $200 to send another player's Junkie, Dealer or Special card to Jail (its owner may pay a bribe instead). Exhausted after use.",
  hitman: "Hit Man: remove another player's card for the bounty; its owner may double the bounty to turn it on your card. Exhausted after use.",
  immunity: "Immunity: blocks one Special card's effect against you (not Chloroform). Exhausted after use.",
  regulator: "Regulator: placed on another player, it stops one of their Shipments each turn until bribed away.",
};

function cardTip(c) {
  if (c.type === "truck") return `${c.name}: a Shipment fills it with ${c.max_hits ?? c.size} Hits; a Distribute moves them to your Dealers. Cannot be jailed.`;
  if (c.type === "dealer") return `${c.name}: holds up to ${c.max_hits ?? c.size} Hits to sell to Junkies.`;
  if (c.type === "junkie") {
    return `${c.name}: cash ${money(c.cash ?? 0)}, Payday ${money(c.payday ?? 0)}, pays at most ${money(c.max_pay ?? 0)} a Hit; ` +
      `more Hits than its OD value (${c.od}) at once risks an overdose.`;
  }
  return SPECIAL_TIPS[c.special] || SPECIAL_TIPS[c.kind] || SPECIAL_TIPS[String(c.kind || c.id).replace(/[-\d]+$/, "")] || c.name;
}

export function drawKingpin({ view, doc, moves, pick, picked }) {
  const named = (value) => moves.some(({ move }) => mentions(move, value));
  const chip = (value, content, extra = "", label = "", tip = "") => {
    const pickable = named(value);
    return h(pickable ? "button" : "div", {
      class: `card ${extra} ${pickable ? "pickable secondary" : ""}`.trim(), dataset: { card: value, ...(tip ? { tip } : {}) },
      "aria-pressed": pickable ? String(picked === value) : undefined, "aria-label": label || undefined,
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
      `kind-${c.type}${c.exhausted || c.state === "exhausted" ? " exhausted" : ""}`,
      `${mine ? "Your" : `${who(doc, p.seat)}'s`} ${c.name}, ${cardDetail(c)}`, cardTip(c)))),
    p.jailed?.length ? h("p", {}, "In Jail: ", p.jailed.map((c) => chip(c.id ?? c, c.name ?? "a card", "", `${c.name ?? "A card"} in Jail`))) : null);
  };
  // your cards first and apart; the opponents' after, in seat order
  const yours = view.players.filter((p) => p.seat === view.you);
  const others = view.players.filter((p) => p.seat !== view.you);

  const stacks = Object.entries(view.stacks || {}).map(([kind, s]) =>
    chip(kind, [h("b", {}, s.name), `${money(s.price)} · ${s.remaining} left`], `kind-${s.type}${s.remaining ? "" : " exhausted"}`,
      `${s.name} for ${money(s.price)}, ${s.remaining} left`, cardTip({ ...s, kind, cash: s.cash_on_hand ?? s.cash })));
  return h("div", { class: "kingpin" },
    h("div", { class: "row" },
      h("span", {}, `Turn ${view.turn}`), h("span", { class: "badge" }, words(view.phase)),
      view.dice?.length ? h("span", { class: "dice", "aria-label": "The dice" }, "Dice: ", view.dice.map((d) =>
        h("span", { class: `die${d.used ? " used" : ""}`, dataset: { tip: `${FACE_TIPS[d.face] || d.action}${d.used ? " (used)" : ""}\n${DOUBLES}` } },
          h("span", { class: "pips", "aria-hidden": "true" }, FACES[d.face - 1] || d.face),
          h("span", { class: "die-what" }, `${d.face} ${d.action}${d.used ? " (used)" : ""}`)))) : null),
    view.window ? h("p", { class: "notice" }, describeWindow(view.window, view, doc)) : null,
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

// An answer awaited, in words: who attacks whom with what (the card by its name, never its id).
function describeWindow(window, view, doc) {
  const card = (id) => [...view.players.flatMap((p) => p.cards.map((c) => ({ ...c, seat: p.seat })))].find((c) => c.id === id);
  const target = card(window.card ?? window.target);
  const what = { cop: "a Cop", hitman: "a Hit Man", regulator: "a Regulator" }[window.kind] || "a Special card";
  const on = target ? ` on ${target.seat === view.you ? "your" : `${who(doc, target.seat)}'s`} ${target.name}` : "";
  return `Waiting for ${window.responder === view.you ? "your" : `${who(doc, window.responder)}'s`} answer: ${who(doc, window.attacker)} sends ${what}${on}.`;
}
