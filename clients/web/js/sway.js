// Druglord's Sway (Rule 7): "Sway is the act of modifying any die roll either positively or negatively
// ... Sway costs 1 unit of weight per modifier ... a 1 always fails ... Opposing players may contribute
// to or counter-Sway any die roll with their Traphouse weight."  Every roll opens a window where each
// seat with Traphouse weight (or a Baller card) is asked; a table of three answers most rolls twice.
// So the page asks only when the player wants it (a per-game preference: never, only when their Sway
// can change the result, always) and then says whose roll it is, what it needs and what is at stake,
// with one stepper per die and Done.  The decision is the page's own, from the roll in the seat's view
// and the Sway amounts its legal moves list; the server is asked nothing it would not be asked anyway.
import { h } from "./dom.js";
import { who } from "./boards/pick.js";

export const SWAY_ASK = { never: "Never", change: "Only when my Sway can change the result", always: "Always" };
// what "change the result" means, for the setting's help (docs/clients.md says the same)
export const SWAY_HELP = "Asked when the roll is yours or aimed at you (your Trade, Trial or roll-off, a war you fight), " +
  "or when another player's Trade would end the game, and your Traphouse's Sway can turn its likely result (a coin " +
  "flip, a likely failure into a likely success, or the other way). Other players' rolls that do not touch you are " +
  "let be; a roll-off is read from your side (whether you come first). A Baller card that fits the roll always asks. " +
  "Your own Trade or Attack takes its Sway from the \"Sway on your roll\" stepper beside it (none unless you step " +
  "it), and is not asked again (\"Always\" asks it).";
export const SWAY_DEFAULT = "change";
// an earlier page's "only my rolls and rolls against me" is what "change" means now
const SWAY_PREFERENCE = { mine: "change" };
export const swayPreference = (stored) => SWAY_PREFERENCE[stored] || (stored in SWAY_ASK ? stored : SWAY_DEFAULT);

const FACES = [1, 2, 3, 4, 5, 9]; // the Classy Die (rules/druglord/data.py CLASSY_DIE)
const WEIGHT_NAMES = { reefer: "Reefer", pills: "Pills", cocaine: "Coca", opiates: "Opiates" };
const TRIAL = ["", "Local Boss Executed", "Crackdown", "Setback", "Mass Raids", "Asset Seizure", "Local Busts", "Nothing: walks"];

// A Sway window: the seat may only Sway, play a fitting Baller card, or say it is done.
export function isSwayWindow(moves) {
  return moves.some(({ move }) => move.type === "EndSway") &&
    moves.every(({ move }) => ["Sway", "EndSway", "PlayCard"].includes(move.type));
}

// What the listed Sway moves allow: per die the most up and down, per die and weight the most each way.
export function reach(moves) {
  const dice = {};
  for (const { move } of moves) {
    if (move.type !== "Sway") continue;
    const d = dice[move.die] ||= { weights: {} };
    const w = d.weights[move.weight] ||= { up: 0, down: 0 };
    if (move.units > 0) w.up = Math.max(w.up, move.units); else w.down = Math.max(w.down, -move.units);
  }
  for (const d of Object.values(dice)) {
    d.up = Object.values(d.weights).reduce((n, w) => n + w.up, 0);
    d.down = Object.values(d.weights).reduce((n, w) => n + w.down, 0);
  }
  return dice;
}

// the modifiers already on each die (Sway declared so far and cards played)
export function modifiers(roll) {
  const out = Object.fromEntries(roll.dice.map((d) => [d, 0]));
  for (const [, die, , units] of roll.sway || []) out[die] += units;
  for (const [, , die, amount] of roll.mods || []) out[die] += amount;
  return out;
}

const total = (face, mod) => (face === 1 ? 1 : face + mod);

// The result of a roll for natural faces {die: face} and modifiers {die: n}, as something comparable:
// the rules' own outcomes (rules/druglord/trade.py, violence.py, trial.py, rolls.py), or null when the
// page does not know how this kind of roll is read (then every change of a total may matter).  A roll-off
// is read from the side of `you` when you are a contender: whether you come first (the action order: the
// rest follows clockwise from the first), or how many stand above you (a full ranking); the order of the
// others among themselves is theirs.
function result(roll, faces, mods, you = null) {
  const t = Object.fromEntries(roll.dice.map((d) => [d, total(faces[d], mods[d])]));
  switch (roll.kind) {
    case "trade": return faces.trade !== 1 && t.trade >= roll.context.target;
    case "war": {
      if (t.attack > t.defence) return "attacker";
      return roll.context.round !== "counter" && t.defence - t.attack >= 5 ? "counter" : "defender";
    }
    case "trial": return Math.max(1, Math.min(t.trial, 7));
    case "rolloff": {
      const mine = roll.dice.find((d) => roll.owners?.[d] === you);
      if (mine !== undefined) {
        const above = roll.dice.filter((d) => t[d] > t[mine]).length, tied = roll.dice.some((d) => d !== mine && t[d] === t[mine]);
        if (roll.context.first_only) return above ? "not first" : tied ? "tied first" : "first";
        return `${above}${tied ? " tied" : ""}`;
      }
      // the order of the totals (ties roll again): who stands where
      const order = [...roll.dice].sort((a, b) => t[b] - t[a]);
      return roll.context.first_only ? order.filter((d) => t[d] === t[order[0]]).join(",")
        : order.map((d) => `${d}:${order.filter((e) => t[e] > t[d]).length}`).join(",");
    }
    default: return JSON.stringify(t);
  }
}

// every combination of natural faces of the roll's dice
function* faceSets(dice) {
  if (!dice.length) { yield {}; return; }
  const [first, ...rest] = dice;
  for (const face of FACES) for (const others of faceSets(rest)) yield { [first]: face, ...others };
}

// The result a roll is likely to give: the one its natural faces give most often (two dice: of the 36
// pairs); a tie between results is itself the likely result ("either", as a coin flip).
function likely(roll, mods, you = null) {
  const counts = new Map();
  for (const faces of faceSets(roll.dice.slice(0, 4))) {
    const r = JSON.stringify(result(roll, faces, mods, you));
    counts.set(r, (counts.get(r) || 0) + 1);
  }
  const most = Math.max(...counts.values());
  return [...counts].filter(([, n]) => n === most).map(([r]) => r).sort().join("|");
}

// Whether some Sway the seat may still declare (any amount its moves allow, on any die) changes the
// roll's result.  A roll is not cast yet, so its result is the likely one: a Sway that only shaves a
// face off a roll that succeeds five times in six changes nothing a player would sway for; one that
// turns a coin flip, or a likely failure into a likely success, does.  A Baller card the seat may play
// counts as a change (the page does not read the cards' effects).
export function canChange(roll, moves, you = null) {
  if (!roll) return true;
  if (moves.some(({ move }) => move.type === "PlayCard")) return true;
  const dice = reach(moves);
  if (!Object.keys(dice).length) return false;
  const mods = modifiers(roll);
  const now = likely(roll, mods, you);
  for (const [die, { up, down }] of Object.entries(dice)) {
    for (let s = -down; s <= up; s++) {
      if (s && likely(roll, { ...mods, [die]: mods[die] + s }, you) !== now) return true;
    }
  }
  return false;
}

// Whether a roll is the seat's own or aimed at it: its roller, the owner of one of its dice (a roll-off's
// contender, a war's defender), the war's attacker or defender.
export function involves(roll, you) {
  if (!roll) return true;
  const ctx = roll.context || {};
  return roll.roller === you || Object.values(roll.owners || {}).includes(you) || ctx.attacker === you || ctx.defender === you;
}

// Whether another seat's Trade would end the game if it succeeds: its stacks take the roller to the game's
// score (Rule 12, "the first to 20 stacks ends the game at the end of that turn") while nobody has yet.
export function endsGame(roll, view) {
  if (roll?.kind !== "trade" || !view || view.endgame_triggered_by != null) return false;
  const score = view.players?.[roll.roller]?.score ?? 0;
  return view.game_to != null && score < view.game_to && score + (roll.context?.units || 0) >= view.game_to;
}

// Whether a roll's result matters to the seat: its own or aimed at it, or another's Trade that would end
// the game.  Another seat's Trade, Trial or bonus roll otherwise changes only that seat's lot: the rules let
// anyone counter-Sway it, and "always" asks about it, but a player deciding each of them spends the game
// answering questions about the others (32 of 43 in one game were the bots' Trades).
export const matters = (roll, view, you) => involves(roll, you) || endsGame(roll, view);

// Whether to ask the seat, by its preference for this game: "change" asks when the roll matters to the seat
// and some Sway it may declare turns the roll's likely result.
export function shouldAsk(preference, roll, moves, you = null, view = null) {
  const chosen = swayPreference(preference);
  if (chosen === "always") return true;
  if (moves.some(({ move }) => move.type === "PlayCard")) return true;
  if (chosen === "never") return false;
  return matters(roll, view, you) && canChange(roll, moves, you);
}

// ---- what the roll is, in words -------------------------------------------------------------

const ROUTES = { domestic: "Domestic", land: "Land", extended: "Extended Land", sea: "Sea", hybrid: "Hybrid", air: "Air", export: "Traphouse export" };
const routeName = (route) => ROUTES[String(route).split(":")[0]] || route;

function placeName(data, id) {
  if (id === "traphouse") return "the Traphouse";
  return data?.regions?.find((r) => r.id === id)?.name || "a Region";
}

function cardName(data, id) {
  return data?.baller?.cards?.find((c) => c.id === id)?.name || "a Baller card";
}

const dieName = (roll, doc, die) => (roll.kind === "rolloff" ? `${who(doc, roll.owners[die])}'s die` : `the ${die} die`);
const signed = (n) => (n > 0 ? `+${n}` : String(n));
const chance = (n, of) => `${n} of ${of}`;

// The roll as the panel tells it: whose, what it needs, what is at stake; and how it stands with `extra`
// Sway ({die: n}) added to what is already declared.
export function story(roll, view, doc, data, you, extra = {}) {
  const mods = modifiers(roll), ctx = roll.context || {};
  const withExtra = Object.fromEntries(roll.dice.map((d) => [d, mods[d] + (extra[d] || 0)]));
  const roller = who(doc, roll.roller), yours = roll.roller === you;
  const whose = yours ? "Your" : `${roller}'s`;
  const lines = [];
  const outcomes = (pred) => [...faceSets(roll.dice.slice(0, 4))].filter((faces) => pred(result(roll, faces, withExtra))).length;
  const all = FACES.length ** Math.min(roll.dice.length, 4);
  if (roll.kind === "trade") {
    const need = ctx.target - withExtra.trade;
    lines.push(`${whose} ${routeName(ctx.route)} Trade: ${ctx.units} ${WEIGHT_NAMES[ctx.weight] || ctx.weight} from ${placeName(data, ctx.from)} to ${placeName(data, ctx.to)}.`);
    lines.push(`Needs ${ctx.target} or more on the Classy Die (faces 1, 2, 3, 4, 5, 9; a 1 always fails)${withExtra.trade ? `, with Sway ${signed(withExtra.trade)}: ${Math.max(2, need)} or more on the die` : ""}.`);
    lines.push(`At stake: ${ctx.units} stack${ctx.units === 1 ? "" : "s"} on the racetrack for ${yours ? "you" : roller}, or ${ctx.held} Case${ctx.held === 1 ? "" : "s"} if it fails` +
      (endsGame(roll, view) ? `; it would take ${yours ? "you" : roller} to ${view.game_to} and end the game at the end of this turn.` : "."));
    lines.push(`It succeeds on ${chance(outcomes((r) => r === true), all)} faces.`);
  } else if (roll.kind === "war") {
    const attacker = who(doc, ctx.attacker), defender = who(doc, ctx.defender);
    lines.push(`${ctx.round === "counter" ? "Counterattack" : ctx.round === "press" ? "Pressed attack" : "Attack"}: ${attacker} from ${placeName(data, ctx.from)} on ${defender}'s ${placeName(data, ctx.target)}.`);
    lines.push("Each rolls a Classy Die; the higher total wins, a tie goes to the defender" + (ctx.round === "counter" ? "." : "; winning by 5 or more, the defender may counterattack."));
    lines.push(`At stake: the weight on ${placeName(data, ctx.target)}, and the Region itself if it holds none.`);
    lines.push(`${attacker} wins on ${chance(outcomes((r) => r === "attacker"), all)} rolls of the two dice.`);
  } else if (roll.kind === "trial") {
    lines.push(`${yours ? "You go" : `${roller} goes`} on Trial (${Object.values(ctx.cases || {}).reduce((a, b) => a + b, 0)} Cases).`);
    lines.push(`The Trial die: ${TRIAL.slice(1).map((t, i) => `${i + 1 === 7 ? "7+" : i + 1} ${t}`).join(", ")}.`);
    const spread = {};
    for (const faces of faceSets(roll.dice)) { const r = result(roll, faces, withExtra); spread[r] = (spread[r] || 0) + 1; }
    lines.push(`Now: ${Object.entries(spread).map(([r, n]) => `${TRIAL[r]} ${chance(n, all)}`).join(", ")}.`);
  } else if (roll.kind === "rolloff") {
    const contenders = roll.dice.map((d) => who(doc, roll.owners[d]));
    lines.push(`Roll-off for the ${ctx.for === "action" ? "action order" : ctx.for === "draft" ? "draft order" : ctx.for || "order"}: ${contenders.join(", ")}. The highest total goes first; ties roll again.`);
  } else if (roll.kind === "bonus") {
    lines.push(`${whose} bonus roll for ${cardName(data, ctx.card)} on ${placeName(data, ctx.region)}: more ${WEIGHT_NAMES[ctx.weight] || ctx.weight} on a higher roll.`);
  } else {
    lines.push(`${whose} roll.`);
  }
  const declared = (roll.sway || []).filter(([, , , n]) => n);
  if (declared.length) {
    lines.push(`Sway so far: ${declared.map(([s, die, , n]) => `${who(doc, s)} ${signed(n)} on ${dieName(roll, doc, die)}`).join(", ")}.`);
  }
  return lines;
}

// ---- the panel ------------------------------------------------------------------------------

// The Sway commands that put `amounts` ({die: n}) on the dice, paid from the weights with the most to
// spare first (one command per die and weight, as the rules take them).
export function swayCommands(moves, amounts) {
  const dice = reach(moves);
  const spent = {};
  const out = [];
  for (const [die, n] of Object.entries(amounts)) {
    if (!n) continue;
    let left = Math.abs(n);
    const weights = Object.entries(dice[die]?.weights || {}).map(([weight, w]) => [weight, (n > 0 ? w.up : w.down) - (spent[weight] || 0)])
      .filter(([, most]) => most > 0).sort((a, b) => b[1] - a[1]);
    for (const [weight, most] of weights) {
      if (!left) break;
      const units = Math.min(left, most);
      out.push({ type: "Sway", die, weight, units: n > 0 ? units : -units });
      spent[weight] = (spent[weight] || 0) + units;
      left -= units;
    }
  }
  return out;
}

// One stepper per die (its range what the moves allow, the weight shared between the dice), the
// roll's story as it would stand, a Baller card's own button, and Done: the Sway commands, then EndSway.
export function swayPanel({ roll, view, doc, data, you, moves, state, send, label }) {
  const dice = reach(moves);
  const amounts = state.amounts ||= {};
  const spare = spareWeight(view, you);
  const used = () => Object.values(amounts).reduce((n, a) => n + Math.abs(a), 0);
  const steppers = Object.entries(dice).map(([die, { up, down }]) => {
    const n = amounts[die] || 0;
    const set = (next) => { amounts[die] = next; state.redraw(); };
    const room = Math.max(0, spare - used());
    return h("span", { class: "stepper", role: "group", dataset: { die }, "aria-label": `Sway on ${dieName(roll, doc, die)}` },
      h("span", { class: "counter-name" }, dieName(roll, doc, die).replace(/^the /, "").replace(/^./, (c) => c.toUpperCase())),
      h("button", { type: "button", class: "secondary step-down", disabled: n <= -down || (n <= 0 && !room), "aria-label": "Sway down one", onclick: () => set(n - 1) }, "−"),
      h("output", { class: "step-value" }, signed(n)),
      h("button", { type: "button", class: "secondary step-up", disabled: n >= up || (n >= 0 && !room), "aria-label": "Sway up one", onclick: () => set(n + 1) }, "+"));
  });
  const cards = moves.filter(({ move }) => move.type === "PlayCard");
  const commands = [...swayCommands(moves, amounts), { type: "EndSway" }];
  const text = used() ? `Sway ${Object.entries(amounts).filter(([, n]) => n).map(([d, n]) => `${signed(n)} on ${dieName(roll, doc, d)}`).join(", ")} and done` : "Done: no Sway";
  return h("div", { class: "sway-panel", role: "group", "aria-labelledby": "sway-h" },
    h("h3", { id: "sway-h" }, roll.roller === you ? "Sway your roll?" : `Sway ${who(doc, roll.roller)}'s roll?`),
    story(roll, view, doc, data, you, amounts).map((line) => h("p", {}, line)),
    h("p", { class: "muted" }, `You have ${spare} unit${spare === 1 ? "" : "s"} of weight to spare in your Traphouse; each unit is ±1.`),
    Object.keys(dice).length ? h("div", { class: "steppers" }, steppers) : null,
    cards.map(({ move, label: l }) => label(move, l)),
    h("button", { class: "play-move sway-done", dataset: { move: JSON.stringify(commands[commands.length - 1]), commands: JSON.stringify(commands) },
      onclick: () => send(commands) }, text));
}

// ---- Sway on your own roll, chosen with the move that makes it -------------------------------

// The moves that start a roll of your own (rules/druglord: a Trade's or a re-roll's trade die, an attack's,
// a pressed attack's or a counterattack's attack die).  The roller declares first, before anyone answers
// (rolls.py: "Its roller first declares Sway"), so an amount chosen beside the move is the same choice the
// declaration would ask, made a click earlier, with nothing more known by then.
const ROLLS_YOURS = new Set(["Trade", "ReRoll", "Attack", "PressAttack", "Counterattack"]);
export const rollsYours = (move) => ROLLS_YOURS.has(move.type);

// Your Traphouse weight free to Sway with (what is not locked), from your view.
export function spareWeight(view, you) {
  const me = view?.players?.[you];
  if (!me) return 0;
  return Object.entries(me.traphouse || {}).reduce((n, [w, units]) => n + Math.max(0, units - (me.traphouse_locked?.[w] || 0)), 0);
}

// The die a roll of yours gives you to Sway (a trade's trade die, a war's attack die when you roll it).
export const yourDie = (roll, you) => roll.dice.find((d) => roll.owners?.[d] === you);

// The stepper beside the moves that roll your dice: "Sway on your roll: − +0 +", 0 by default.  `state.amount`
// is kept across redraws (the popover on the board and the moves panel show the same one).
export function ownSwayControl({ state, spare, redraw }) {
  const n = Math.min(state.amount || 0, spare);
  const set = (next) => { state.amount = next; redraw(); };
  return h("div", { class: "own-sway", role: "group", "aria-label": "Sway on your roll" },
    h("span", { class: "stepper", dataset: { die: "yours" } },
      h("span", { class: "counter-name" }, "Sway on your roll"),
      h("button", { type: "button", class: "secondary step-down", disabled: n <= 0, "aria-label": "Sway down one", onclick: () => set(n - 1) }, "−"),
      h("output", { class: "step-value" }, signed(n)),
      h("button", { type: "button", class: "secondary step-up", disabled: n >= spare, "aria-label": "Sway up one", onclick: () => set(n + 1) }, "+")),
    h("span", { class: "muted own-sway-help" }, n ? `+${n} on the die of the Trade or Attack you choose, ${n} of your ${spare} Traphouse unit${spare === 1 ? "" : "s"}`
      : `Added to your die when you Trade or Attack (1 Traphouse unit each, ${spare} to spare); none by default`));
}

// Your roll's declaration, answered with the amount chosen beside its move (`declared`: {amount, at}, `at` the
// version the move's answer left, where the roll waits for your declaration and nothing else can happen
// first): the Sway commands and EndSway, or null when the page asks instead (a Baller card fits the roll:
// cards are always asked; "always" asks, its stepper set at that amount).
export function declaredAnswer(preference, roll, moves, you, declared, version) {
  if (!declaredFor(roll, you, declared, version)) return null;
  if (swayPreference(preference) === "always" || moves.some(({ move }) => move.type === "PlayCard")) return null;
  const die = yourDie(roll, you);
  return [...swayCommands(moves, die && declared.amount ? { [die]: declared.amount } : {}), { type: "EndSway" }];
}

// Whether the roll waiting now is the one a move of yours just started, with an amount chosen beside it (`at`
// null: the move's answer is still on its way, and the roll waiting for your declaration can only be its own).
export const declaredFor = (roll, you, declared, version) =>
  Boolean(declared && roll && roll.stage === "declare" && roll.roller === you && (declared.at === null || declared.at === version));
