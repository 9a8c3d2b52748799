// Narcos' table as responsive HTML, from GET /v1/rulesets/narcos/data (the card catalogue, the starting
// network, the Plantation, the cities) and the seat's view: each player's network (Plantation crops,
// Laboratory, Transport and Storage with their merchandise), money and people; the rack of cards turned
// this turn with the sirens and guns counted; the Dealers by city; the supply; the advanced mode's city
// tokens, employees and Police Warehouse.  A card a legal move names (a Dealer to deliver to, a card to
// buy, a Cartel card to play or spend) is picked by clicking it.
import { h } from "../dom.js";
import { pickable, who } from "./pick.js";

const KIND_NAME = { laboratory: "Laboratory", transport: "Transport", storage: "Storage", dealer: "Dealer", police: "Police",
  military: "Military", press: "Press", snitch: "Snitch", dea: "DEA agent" };
const millions = (n) => `${n} M`;
const plural = (n, word) => `${word}${n === 1 ? "" : "s"}`;

export function drawNarcos(args) {
  const { view, data } = args;
  if (!data?.deck) return h("p", { class: "error" }, "The card data could not be loaded.");
  const cards = Object.fromEntries([...data.deck, ...Object.values(data.starting || {})].map((c) => [c.id, c]));
  const cartel = Object.fromEntries((data.cartel || []).map((c) => [c.id, c]));
  const turn = view.turn || { table: [] };
  return h("div", { class: "narcos" },
    h("div", { class: "row" },
      h("span", { class: "badge" }, `Round ${view.round} · ${view.mode} mode`),
      h("span", {}, h("b", { class: `seat${turn.seat % 6}` }, `${who(args.doc, turn.seat)}`), turn.seat === view.you ? " (you)" : "", ` — ${turn.phase}`),
      turn.phase === "manage" || turn.actions ? h("span", { class: "badge" }, `${turn.actions} action${turn.actions === 1 ? "" : "s"} left · ${turn.performed} done`) : null,
      view.window ? h("span", { class: "notice" }, `${who(args.doc, view.window.attacker)} plays ${cartel[view.window.card]?.english || "a Cartel card"}; waiting for ${view.window.waiting.map((s) => (s === view.you ? "you" : who(args.doc, s))).join(", ")}`) : null),
    rack(view, turn, cards, args),
    // your network right under the rack (what you can sell and carry is what the rack is about), the
    // opponents' after the cities
    h("div", { class: "players narcos-players" },
      view.players.filter((p) => p.seat === view.you).map((p) => network(p, view, data, cards, cartel, args)),
      view.players.filter((p) => p.seat !== view.you).map((p) => network(p, view, data, cards, cartel, args))),
    cities(view, data, turn, cards, args),
    supply(view, data, args.doc));
}

// what a card of the Narcos deck does (the rulebook, 6.1 and 6.2), for its tooltip
const KIND_TIP = {
  laboratory: "Laboratory (gun): buy it in phase 3 to produce more merchandise per action.",
  transport: "Transport (gun): buy it in phase 3 to ship more merchandise per action.",
  storage: "Storage (gun): buy it in phase 3 to hold more merchandise in the United States.",
  dealer: "Dealer (gun): sell your whole Storage to it, 1 million a unit, once a turn each.",
  police: "Police (siren): at 2 sirens it takes 1 merchandise (or 1 million); 1 sicario removes it as it appears.",
  military: "Military (siren, Round 2): at 2 sirens it takes 1 million; 2 sicarios remove it as it appears.",
  press: "Press (siren): you must turn another card, unless 1 sicario removes it.",
  snitch: "Snitch (siren): look at the next card and put it on the rack or leave it.",
  dea: "DEA agent (siren): pursues a player who takes 5 or more actions, or (Round 2) the richest: a siren at the start of their turns.",
};

function cardFace(card, id, extra = "") {
  const entry = card || { name: "a card", kind: "?" };
  const detail = entry.kind === "laboratory" ? `makes ${entry.table?.join("/")} for 1–4 crops`
    : entry.kind === "transport" ? `carries ${entry.capacity}` : entry.kind === "storage" ? `holds ${entry.capacity}`
      : entry.kind === "dealer" ? entry.city : entry.kind === "dea" ? `pursues ${entry.agent}` : "";
  return [h("b", {}, entry.name), h("span", { class: "muted" }, [KIND_NAME[entry.kind] || entry.kind, detail, entry.price ? `price ${entry.price} M` : "", extra].filter(Boolean).join(" · "))];
}

function rack(view, turn, cards, args) {
  const table = turn.table || [];
  const sirens = table.filter((t) => cards[t.card]?.side === "siren" && t.status !== "eliminated").length;
  return h("section", { class: "rack", "aria-label": "The rack" },
    h("h2", {}, "The rack ", h("span", { class: "muted" }, `(${table.length} turned · `),
      h("span", { class: `sirens${(turn.sirens ?? sirens) >= 2 ? " bad" : ""}`, dataset: { sirens: turn.sirens ?? sirens } }, `${turn.sirens ?? sirens} siren(s)`),
      h("span", { class: "muted" }, ` · ${turn.guns ?? 0} gun(s))`)),
    table.length ? h("div", { class: "cards" }, table.map((t) => {
      const card = cards[t.card];
      const used = (turn.used_dealers || []).includes(t.card);
      return pickable(h("div", { class: `card narcos-card side-${card?.side || "unknown"} status-${t.status}${used ? " used" : ""}`,
        dataset: { card: t.card, tip: KIND_TIP[card?.kind] || "" } },
        cardFace(card, t.card, [t.status !== "on" ? t.status : "", used ? "sold to" : "", turn.bought?.includes(t.card) ? "bought" : ""].filter(Boolean).join(", "))),
      t.card, args);
    })) : h("p", { class: "muted" }, "No card turned yet this turn."),
    turn.peeked ? h("p", { class: "notice" }, "You looked at the next card: ", cardFace(cards[turn.peeked], turn.peeked)) : null,
    turn.agents?.length ? h("p", {}, `DEA agents on this turn: ${turn.agents.join(", ")}`) : null);
}

function cities(view, data, turn, cards, args) {
  const onRack = (turn.table || []).map((t) => t.card).filter((id) => cards[id]?.kind === "dealer");
  return h("section", { class: "cities", "aria-label": "The cities" }, h("h2", {}, "Dealers in the cities"),
    h("div", { class: "city-grid" }, (data.cities || []).map((city) => {
      const dealers = onRack.filter((id) => cards[id].city === city);
      const permanent = view.permanent_dealer && cards[view.permanent_dealer]?.city === city ? view.permanent_dealer : null;
      const employees = view.cities?.[city] || [];
      return h("div", { class: "city panel", dataset: { city } },
        h("h3", {}, city, view.tokens?.[city] ? h("span", { class: "badge" }, ` token ${view.tokens[city]}`) : null),
        permanent ? h("p", { class: "muted" }, `Permanent Dealer (−2): ${cards[permanent].name}`) : null,
        dealers.length ? h("div", { class: "cards" }, dealers.map((id) =>
          pickable(h("div", { class: `card dealer${(turn.used_dealers || []).includes(id) ? " used" : ""}`, dataset: { card: id, tip: KIND_TIP.dealer } },
            h("b", {}, cards[id].name), (turn.used_dealers || []).includes(id) ? "sold to" : "free"), id, args)))
          : h("p", { class: "muted" }, "No Dealer on the rack"),
        employees.some(Boolean) ? h("p", {}, "Employees: ", employees.map((n, seat) => n ? h("span", { class: `seat${seat % 6}` }, `${who(args.doc, seat)} ${n} `) : null)) : null);
    })));
}

function supply(view, data, doc) {
  const dea = Object.entries(view.dea || {}).map(([agent, where]) => `${agent}: ${where === null ? "not out" : typeof where === "number" ? `on ${who(doc, where)}` : where}`);
  return h("section", { class: "supply", "aria-label": "The supply" }, h("h2", {}, "Supply"),
    h("ul", { class: "facts" },
      h("li", {}, `Merchandise (white) ${view.supply?.merchandise ?? "?"} of ${data.box?.merchandise ?? "?"}`),
      h("li", {}, `Crops (brown) ${view.supply?.crops ?? "?"} of ${data.box?.crops ?? "?"}`),
      h("li", {}, `Sicarios ${view.sicario_supply} of ${data.box?.sicarios ?? "?"}`),
      h("li", {}, `Narcos deck ${view.deck_count}${view.round === 1 ? ` (Round 2 reserve ${view.reserve_count})` : ""}`),
      h("li", {}, `Cartel deck ${view.cartel_deck_count}`),
      h("li", {}, `DEA — ${dea.join(", ")}`),
      view.mode === "advanced" ? h("li", {}, `Police Warehouse: ${view.warehouse.goods} merchandise, ${millions(view.warehouse.money)}`) : null));
}

function network(p, view, data, cards, cartel, args) {
  const slots = data.plantation?.slots ?? 4;
  const prices = data.plantation?.crop_prices || [];
  const lab = cards[p.laboratory], transport = cards[p.transport], storage = cards[p.storage];
  const current = view.turn?.seat === p.seat;
  const mine = p.seat === view.you;
  return h("section", { class: `panel player${mine ? " mine" : ""}${current ? " current" : ""}`, dataset: { seat: p.seat },
    "aria-label": mine ? "Your network" : `${who(args.doc, p.seat)}'s network` },
    h("h3", { class: `seat${p.seat % 6}` }, mine ? `Your network (${who(args.doc, p.seat)})` : who(args.doc, p.seat),
      current ? h("span", { class: "badge turn-badge" }, "playing") : ""),
    // the counts first: money, people, goods; the cards that hold them below
    h("ul", { class: "tally" },
      h("li", {}, h("b", { class: "money" }, millions(p.money)), h("span", { class: "muted" }, ` (${p.cubes.gold} gold, ${p.cubes.green} green)`),
        p.uncollected ? ` + ${p.uncollected} to collect` : ""),
      h("li", {}, h("b", {}, p.workers), plural(p.workers, " worker")), h("li", {}, h("b", {}, p.sicarios), plural(p.sicarios, " sicario")),
      h("li", {}, h("b", {}, p.crops), plural(p.crops, " crop")), h("li", {}, h("b", {}, p.lab), " made"), h("li", {}, h("b", {}, p.stored), " stored"),
      p.hand ? null : h("li", {}, h("b", {}, p.hand_count), plural(p.hand_count, " Cartel card"))),
    h("div", { class: "network" },
      h("div", { class: "slot plantation", "aria-label": `Plantation: ${p.crops} of ${slots} crops` }, h("b", {}, "Plantation"),
        h("span", { class: "crops", "aria-hidden": "true" }, Array.from({ length: slots }, (_, i) =>
          h("span", { class: i < p.crops ? "crop" : "crop empty", title: i < p.crops ? "a crop" : `plant for ${prices[i] ?? "?"} M` }, i < p.crops ? "■" : "□"))),
        h("span", { class: "muted" }, `${p.crops} crop(s)`)),
      h("div", { class: "slot" }, cardFace(lab, p.laboratory), h("span", { class: "goods", dataset: { goods: p.lab } }, `merchandise ${p.lab}`)),
      h("div", { class: "slot" }, cardFace(transport, p.transport)),
      h("div", { class: "slot" }, cardFace(storage, p.storage), h("span", { class: "goods", dataset: { goods: p.stored } }, `stored ${p.stored}/${storage?.capacity ?? "?"}`))),
    p.hand ? h("div", {}, h("span", { class: "muted" }, "Cartel cards: "), p.hand.length ? h("div", { class: "cards" }, p.hand.map((id) =>
      pickable(h("div", { class: "card cartel", tabindex: 0, dataset: { card: id, tip: cartel[id] ? `${cartel[id].english}: ${cartel[id].text}` : "" } }, h("b", {}, cartel[id]?.english || "a Cartel card"),
        cartel[id]?.name || ""), id, args))) : "none")
      : h("p", { class: "muted" }, `${p.hand_count} Cartel card(s) in hand · ${p.backs_spent} spent face down`));
}
