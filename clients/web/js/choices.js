// What a player chooses, built from the legal moves: one button per move, except where the moves are
// one choice made of parts.  Moves that differ only in an amount ("Load 1/2/3 Opiates from Helmand",
// "Sell 1 Hit for $0 ... 3 Hits for $600") are one button with a stepper, set at the largest amount;
// moves that differ in a set of things ("Keep Helmand, Texas, Panama" out of every 3 of 5) are toggles
// and one confirming button.  Every button still sends a move exactly as the server listed it.
import { h } from "./dom.js";

// the arguments that are amounts: a stepper chooses them, largest first
export const AMOUNTS = ["units", "hits", "cash", "count", "lids", "amount"];
const PICKED_AT_LEAST = 3; // fewer combinations than this read fine as buttons

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const amountArgs = (move) => Object.keys(move).filter((k) => AMOUNTS.includes(k) && typeof move[k] === "number");
const listArg = (move) => {
  const lists = Object.keys(move).filter((k) => Array.isArray(move[k]));
  return lists.length === 1 ? lists[0] : null;
};
// moves with the same key differ only in their amounts
const amountKey = (move, args) => `amount:${JSON.stringify(Object.fromEntries(Object.entries(move).filter(([k]) => !args.includes(k))))}:${args.join(",")}`;
// a canonical key for a list as a multiset: the order a move lists it in does not matter
const bag = (list) => JSON.stringify([...list].map(String).sort());

// Group `entries` ([{move, label}]) into items, in the order their first move is listed:
//   {kind: "move", move, label}
//   {kind: "amount", key, args, entries}     entries differing only in `args` (numbers)
//   {kind: "set", key, arg, multi, entries}  entries differing in one list argument (and maybe scalars)
export function arrange(entries) {
  const byAmount = new Map(), bySet = new Map();
  for (const entry of entries) {
    const args = amountArgs(entry.move);
    if (args.length) {
      const key = amountKey(entry.move, args);
      if (!byAmount.has(key)) byAmount.set(key, { kind: "amount", key, args, entries: [] });
      byAmount.get(key).entries.push(entry);
    }
    const arg = listArg(entry.move);
    if (arg) {
      const key = `set:${entry.move.type}:${arg}`;
      if (!bySet.has(key)) bySet.set(key, { kind: "set", key, arg, entries: [] });
      bySet.get(key).entries.push(entry);
    }
  }
  const items = [], placed = new Set();
  for (const entry of entries) {
    if (placed.has(entry)) continue;
    const args = amountArgs(entry.move), arg = listArg(entry.move);
    let group = null;
    if (args.length) group = byAmount.get(amountKey(entry.move, args));
    if (group && group.entries.length < 2) group = null;
    if (!group && arg) {
      group = bySet.get(`set:${entry.move.type}:${arg}`);
      if (group.entries.length < PICKED_AT_LEAST) group = null;
      else group.multi = group.entries.some(({ move }) => new Set(move[arg].map(String)).size < move[arg].length);
    }
    if (!group) { items.push({ kind: "move", ...entry }); placed.add(entry); continue; }
    group.entries.forEach((e) => placed.add(e));
    items.push(group);
  }
  return items;
}

// ---- an amount: one button, a stepper per amount --------------------------------------------

// The entry chosen when the amounts are `wanted` ({arg: n}): each argument in turn as near to what is
// wanted as the listed moves allow, the largest where nothing is wanted yet.
export function amountChoice(item, wanted = {}) {
  let entries = item.entries;
  for (const arg of item.args) {
    const values = [...new Set(entries.map(({ move }) => move[arg]))].sort((a, b) => a - b);
    const want = wanted[arg];
    const value = want === undefined ? values[values.length - 1]
      : values.reduce((best, v) => (Math.abs(v - want) < Math.abs(best - want) ? v : best), values[0]);
    entries = entries.filter(({ move }) => move[arg] === value);
  }
  return entries[0];
}

// the next listed value of `arg` up (d = 1) or down (d = -1) from the chosen move, the others as near as may be
function stepped(item, chosen, arg, d) {
  const before = item.args.slice(0, item.args.indexOf(arg));
  const values = [...new Set(item.entries.filter(({ move }) => before.every((a) => move[a] === chosen.move[a])).map(({ move }) => move[arg]))]
    .filter((v) => (d > 0 ? v > chosen.move[arg] : v < chosen.move[arg])).sort((a, b) => (d > 0 ? a - b : b - a));
  if (!values.length) return null;
  // the arguments after this one go back to their largest for the new value (a sale: the most cash for those Hits)
  return amountChoice(item, Object.fromEntries([...before.map((a) => [a, chosen.move[a]]), [arg, values[0]]]));
}

const ARG_WORDS = { units: "units", hits: "Hits", cash: "cash", count: "how many", lids: "Lids", amount: "amount" };

// `state` keeps the player's choice across redraws ({key: wanted}); `button(entry, extra)` makes the page's
// move button for an entry (so the end-of-turn question, the popover and the tests treat it as any move).
export function amountControl(item, state, button) {
  const chosen = amountChoice(item, state[item.key]);
  state[item.key] = { ...chosen.move };
  const steppers = item.args.map((arg) => {
    const down = stepped(item, chosen, arg, -1), up = stepped(item, chosen, arg, 1);
    const set = (entry) => { state[item.key] = { ...entry.move }; item.redraw(); };
    return h("span", { class: "stepper", role: "group", "aria-label": `Choose the ${ARG_WORDS[arg] || arg}` },
      h("button", { type: "button", class: "secondary step-down", disabled: !down, "aria-label": `Fewer ${ARG_WORDS[arg] || arg}`,
        dataset: { arg }, onclick: () => down && set(down) }, "−"),
      h("output", { class: "step-value", dataset: { arg } }, arg === "cash" || arg === "amount" ? `$${chosen.move[arg]}` : String(chosen.move[arg])),
      h("button", { type: "button", class: "secondary step-up", disabled: !up, "aria-label": `More ${ARG_WORDS[arg] || arg}`,
        dataset: { arg }, onclick: () => up && set(up) }, "+"));
  });
  return h("div", { class: "move family", role: "listitem", dataset: { family: item.key, options: JSON.stringify(item.entries.map(({ move }) => move)) } },
    button(chosen), h("div", { class: "steppers" }, steppers));
}

// ---- a set: toggles and one confirming button ----------------------------------------------

// the verb a set's moves start with ("Keep", "Store", "Draw"): the confirming button's "Keep these"
const verbOf = (label) => (/^([A-Z][a-z]+)\b/.exec(label) || [, "Choose"])[1];

// `name(value)` is what the page calls a thing (a Region's name, a weight's); `state[key]` the values chosen.
export function setControl(item, state, button, name) {
  const { arg, multi } = item;
  const values = [];
  for (const { move } of item.entries) for (const v of move[arg]) if (!values.some((x) => String(x) === String(v))) values.push(v);
  const scalars = Object.keys(item.entries[0].move).filter((k) => k !== "type" && k !== arg &&
    new Set(item.entries.map(({ move }) => JSON.stringify(move[k]))).size > 1);
  // a set with repeats (draw 2 weights: 10 combinations) starts on its first listed option, to confirm or
  // change; a plain set (keep 3 of 5 Regions) starts empty, unless taking none is one of its options
  const chosen = state[item.key] ||= { list: multi ? [...item.entries[0].move[arg]] : [],
    scalars: Object.fromEntries(scalars.map((k) => [k, item.entries[0].move[k]])) };
  const count = (v) => chosen.list.filter((x) => String(x) === String(v)).length;
  const match = item.entries.find(({ move }) => bag(move[arg]) === bag(chosen.list) && scalars.every((k) => same(move[k], chosen.scalars[k])));
  // how many a listed move takes: the toggles say "choose 3" until the choice is one of them
  const sizes = [...new Set(item.entries.map(({ move }) => move[arg].length))].sort((a, b) => a - b);
  const most = Math.max(...sizes);
  const set = (list) => { chosen.list = list; item.redraw(); };
  const controls = values.map((v) => {
    const n = count(v);
    const possible = (list) => item.entries.some(({ move }) => {
      const have = move[arg].map(String);
      return list.every((x) => { const i = have.indexOf(String(x)); if (i < 0) return false; have.splice(i, 1); return true; });
    });
    if (!multi) {
      return h("button", { type: "button", class: `pick-toggle${n ? " on" : ""}`, "aria-pressed": String(Boolean(n)), dataset: { value: String(v) },
        disabled: !n && !possible([...chosen.list, v]),
        onclick: () => set(n ? chosen.list.filter((x) => String(x) !== String(v)) : [...chosen.list, v]) }, name(v));
    }
    return h("span", { class: "stepper counter", role: "group", "aria-label": name(v), dataset: { value: String(v) } },
      h("span", { class: "counter-name" }, name(v)),
      h("button", { type: "button", class: "secondary step-down", disabled: !n, "aria-label": `One ${name(v)} fewer`,
        onclick: () => { const i = chosen.list.findIndex((x) => String(x) === String(v)); set(chosen.list.filter((_, j) => j !== i)); } }, "−"),
      h("output", { class: "step-value" }, String(n)),
      h("button", { type: "button", class: "secondary step-up", disabled: !possible([...chosen.list, v]), "aria-label": `One ${name(v)} more`,
        onclick: () => set([...chosen.list, v]) }, "+"));
  });
  const selects = scalars.map((k) => {
    const options = [...new Map(item.entries.map(({ move }) => [JSON.stringify(move[k]), move[k]])).values()];
    return h("label", {}, k === "get" ? "for" : k, h("select", { onchange: (e) => { chosen.scalars[k] = JSON.parse(e.target.value); item.redraw(); } },
      options.map((o) => h("option", { value: JSON.stringify(o), selected: same(o, chosen.scalars[k]) }, name(o)))));
  });
  const verb = verbOf(item.entries[0].label);
  const hint = sizes.length === 1 ? `choose ${most}` : `choose up to ${most}`;
  const confirm = match ? button(match, { text: chosen.list.length ? `${verb} these` : match.label, detail: chosen.list.length ? match.label : "" })
    : h("button", { class: "play-move confirm", disabled: true }, `${verb} these (${hint})`);
  return h("div", { class: "move picker", role: "listitem", dataset: { family: item.key, options: JSON.stringify(item.entries.map(({ move }) => move)) } },
    h("div", { class: "pick-row" }, controls), selects.length ? h("div", { class: "row" }, selects) : null, confirm);
}

// Toggle `value` in the set item whose toggles hold it (a tap on the board); whether one did.
export function toggleIn(items, state, value) {
  const item = items.find((i) => i.kind === "set" && !i.multi && i.entries.some(({ move }) => move[i.arg].some((v) => String(v) === String(value))));
  if (!item) return false;
  const chosen = state[item.key] ||= { list: [], scalars: {} };
  const on = chosen.list.some((x) => String(x) === String(value));
  chosen.list = on ? chosen.list.filter((x) => String(x) !== String(value)) : [...chosen.list, value];
  return true;
}
