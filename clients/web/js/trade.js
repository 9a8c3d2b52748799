// Trades a list cannot enumerate, built by tapping: Lords of Cannabis offers ("You announce which Stash
// Card(s) you would like and those which you are willing to give up in return") and Trafficking's deals
// between Dealers on one square (6f) and loans (17b, the lending option).  The legal moves list one
// example offer per partner (its terms a template); the builder keeps the partners and the kind of offer
// from them and lets the player set the terms, then sends MakeOffer / OfferToAll / CounterOffer with
// those terms, which the server checks as it checks any command.
import { h } from "./dom.js";
import { who } from "./boards/pick.js";

const OFFERS = ["MakeOffer", "OfferToAll", "CounterOffer"];
export const isOffer = (move) => OFFERS.includes(move.type) && move.terms !== undefined;

const money = (n) => `$${Number(n).toLocaleString("en-US")}`;
const side = (cards) => Object.entries(cards).filter(([, n]) => n).map(([r, n]) => `${n} ${r}`).join(" + ");

function stepper(name, value, { min = 0, max = Infinity, step = 1, show = String, set, key }) {
  return h("span", { class: "stepper", role: "group", "aria-label": name, dataset: { key } },
    h("span", { class: "counter-name" }, name),
    h("button", { type: "button", class: "secondary step-down", disabled: value - step < min, "aria-label": `${name}: less`, onclick: () => set(value - step) }, "−"),
    h("output", { class: "step-value" }, show(value)),
    h("button", { type: "button", class: "secondary step-up", disabled: value + step > max, "aria-label": `${name}: more`, onclick: () => set(value + step) }, "+"));
}

// the offer buttons: one per partner the listed templates name, each sending `terms`
function offerButtons(offers, doc, terms, ready) {
  return offers.map(({ move }) => {
    const command = move.type === "CounterOffer" ? { type: "CounterOffer", offer: move.offer, terms }
      : move.type === "OfferToAll" ? { type: "OfferToAll", terms } : { type: "MakeOffer", to: move.to, terms };
    const to = move.type === "OfferToAll" ? "everyone" : move.type === "CounterOffer" ? null : who(doc, move.to);
    const text = move.type === "CounterOffer" ? "Counter-offer this instead" : `Offer to ${to}`;
    return h("button", { class: "play-move offer", disabled: !ready, dataset: { move: JSON.stringify(command) }, "data-offer": String(move.offer ?? "") }, text);
  });
}

// ---- Lords of Cannabis: Stash cards for Stash cards -------------------------------------------

// A card to tap: the tap adds one ("FUEL 2"), the small − beside it takes one back.
function tapCard(name, n, { max, set, key }) {
  return h("span", { class: `stepper tap-card${n ? " on" : ""}`, role: "group", "aria-label": name, dataset: { key } },
    h("button", { type: "button", class: "step-up", disabled: n >= max, "aria-label": `${name}: one more` },
      name, " ", h("output", { class: "step-value" }, String(n))),
    n ? h("button", { type: "button", class: "secondary step-down", "aria-label": `${name}: one less`, onclick: () => set(n - 1) }, "−") : null);
}

function cannabisBuilder({ view, doc, data, offers, state, redraw }) {
  const resources = data?.resources || ["FUEL", "CEMENT", "WATER", "SEEDS", "SOIL"];
  const stash = view.players?.[view.you]?.stash || {};
  const give = state.give ||= {}, get = state.get ||= {};
  const set = (which, other, r) => (n) => {
    which[r] = Math.max(0, n);
    if (which[r]) other[r] = 0; // a resource cannot be on both sides of a trade
    redraw();
  };
  const terms = { give: Object.fromEntries(Object.entries(give).filter(([, n]) => n)), get: Object.fromEntries(Object.entries(get).filter(([, n]) => n)) };
  const ready = Object.keys(terms.give).length > 0 && Object.keys(terms.get).length > 0;
  const row = (title, which, other, list, max) => h("div", { class: "trade-side" }, h("span", { class: "trade-title" }, title),
    h("div", { class: "cards" }, list.map((r) => {
      const chip = tapCard(r, which[r] || 0, { max: max(r), set: set(which, other, r), key: `${title}-${r}` });
      chip.querySelector(".step-up").addEventListener("click", () => set(which, other, r)((which[r] || 0) + 1));
      return chip;
    })));
  const held = resources.filter((r) => stash[r]);
  return [
    row("You give", give, get, held, (r) => stash[r] || 0),
    row("You want", get, give, resources, () => 25),
    h("p", { class: "trade-summary" }, ready ? `Your ${side(terms.give)} for ${side(terms.get)}.` : "Tap what you give and what you want."),
    h("div", { class: "row" }, offerButtons(offers, doc, terms, ready)),
  ];
}

// ---- Trafficking: Lids for cash between Dealers on one square; loans -------------------------

function traffickingBuilder({ view, doc, offers, state, redraw }) {
  const me = view.players?.find((p) => p.seat === view.you) || {};
  const loans = offers.filter(({ move }) => move.terms?.loan !== undefined);
  const deals = offers.filter(({ move }) => move.terms?.loan === undefined);
  const out = [];
  if (deals.length) {
    const partner = view.players?.find((p) => p.seat === (deals[0].move.to ?? view.offers?.find((o) => o.id === deals[0].move.offer)?.from)) || {};
    const deal = state.deal ||= { direction: deals[0].move.terms.direction, lids: 1, price: 100 };
    const sellerLids = deal.direction === "sell" ? me.lids : partner.lids;
    const buyerCash = deal.direction === "sell" ? partner.cash : me.cash;
    deal.lids = Math.max(1, Math.min(deal.lids, sellerLids || 1));
    deal.price = Math.max(0, Math.min(deal.price, Math.floor((buyerCash || 0) / 10) * 10));
    const set = (k) => (v) => { deal[k] = v; redraw(); };
    const terms = { direction: deal.direction, lids: deal.lids, price: deal.price };
    out.push(h("div", { class: "trade-side" }, h("span", { class: "trade-title" }, "A deal on your square"),
      h("div", { class: "row" },
        ["sell", "buy"].map((d) => h("button", { type: "button", class: `pick-toggle${deal.direction === d ? " on" : ""}`, "aria-pressed": String(deal.direction === d),
          onclick: () => { deal.direction = d; redraw(); } }, d === "sell" ? "You sell Lids" : "You buy Lids")),
        stepper("Lids", deal.lids, { min: 1, max: sellerLids || 1, set: set("lids"), key: "lids" }),
        stepper("for", deal.price, { min: 0, max: buyerCash || 0, step: 10, show: money, set: set("price"), key: "price" })),
      h("p", { class: "trade-summary" }, `${deal.direction === "sell" ? "You sell" : "You buy"} ${deal.lids} Lid${deal.lids === 1 ? "" : "s"} for ${money(deal.price)}.`),
      h("div", { class: "row" }, offerButtons(deals, doc, terms, (sellerLids || 0) >= 1))));
  }
  if (loans.length) {
    const loan = state.loan ||= { loan: loans[0].move.terms.loan, amount: 100 };
    const set = (v) => { loan.amount = v; redraw(); };
    out.push(h("div", { class: "trade-side" }, h("span", { class: "trade-title" }, "A loan"),
      h("div", { class: "row" },
        ["lend", "borrow"].map((d) => h("button", { type: "button", class: `pick-toggle${loan.loan === d ? " on" : ""}`, "aria-pressed": String(loan.loan === d),
          onclick: () => { loan.loan = d; redraw(); } }, d === "lend" ? "You lend" : "You borrow")),
        stepper("Amount", loan.amount, { min: 10, max: loan.loan === "lend" ? me.cash || 10 : 100000, step: 10, show: money, set, key: "amount" })),
      h("div", { class: "row" }, offerButtons(loans, doc, { loan: loan.loan, amount: loan.amount }, true))));
  }
  return out;
}

const BUILDERS = { lords_of_cannabis: cannabisBuilder, trafficking: traffickingBuilder };

// The builder for the listed offer templates of this game, or null (a game without one keeps its list).
export function tradeBuilder({ ruleset, view, doc, data, moves, state, redraw }) {
  const offers = moves.filter(({ move }) => isOffer(move));
  const build = BUILDERS[ruleset];
  if (!offers.length || !build) return null;
  // folded until opened (it is the longest thing on the panel); open while an offer is being built
  const counter = offers.every(({ move }) => move.type === "CounterOffer");
  const started = Object.values(state.give || {}).some(Boolean) || Object.values(state.get || {}).some(Boolean) || state.open;
  const box = h("details", { class: "move trade-builder", role: "listitem", open: started || undefined },
    h("summary", {}, counter ? "Counter-offer…" : "Offer a trade…"),
    build({ view, doc, data, offers, state, redraw }));
  box.addEventListener("toggle", () => { state.open = box.open; });
  return box;
}

// The open offers addressed to this seat (to decline them all at once).
export const declines = (moves) => moves.filter(({ move }) => move.type === "DeclineOffer");

// What identifies "this turn" for "decline all offers this turn": the seat whose turn it is.
export function turnKey(view) {
  return JSON.stringify(view?.turn?.seat ?? view?.current ?? null);
}
