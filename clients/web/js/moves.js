// A generic command form driven by the ruleset's command schemas (GET /v1/rulesets/{name}/schema):
// works for any game, including commands whose arguments a legal-move list cannot enumerate
// (an offer's terms, a bet).  The listed legal moves stay the usual way to play.
import { h, replace } from "./dom.js";

// Does a legal move name this value (a region, a card id) among its arguments?  A board whose game
// numbers different things alike (Lords of Cannabis: intersection 4, path 4, brick 4) picks under one
// argument only, as "name=value" ("at=4"): then only that argument counts.
export function mentions(move, value) {
  const qualified = typeof value === "string" && /^([a-z_]+)=(.+)$/.exec(value);
  if (qualified) {
    const [, arg, wanted] = qualified;
    return [].concat(move[arg] ?? []).some((v) => String(v) === wanted);
  }
  return Object.entries(move).some(([k, v]) => k !== "type" && (v === value || (Array.isArray(v) && v.includes(value))));
}

export function moveForm(commandsSchema, submit) {
  const defs = commandsSchema.$defs || {};
  const types = Object.keys(defs);
  const select = h("select", { name: "type", "aria-label": "Command" }, types.map((t) => h("option", { value: t }, t)));
  const fields = h("div");
  const describe = h("p", { class: "muted" });
  const element = h("details", { class: "compose" }, h("summary", {}, "Compose a command"));
  const form = h("form", {}, h("div", { class: "row" }, h("label", {}, "Command", select)), describe, fields,
    h("button", { type: "submit" }, "Send"));
  element.append(form);

  function show(type, values = {}) {
    select.value = type;
    const schema = defs[type] || { properties: {} };
    describe.textContent = schema.description || "";
    replace(fields, Object.entries(schema.properties || {}).filter(([name]) => name !== "type")
      .map(([name, prop]) => field(name, prop, values[name])));
  }
  select.addEventListener("change", () => show(select.value));
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const command = { type: select.value };
    try {
      for (const input of fields.querySelectorAll("[data-arg]")) command[input.dataset.arg] = read(input);
    } catch (error) {
      describe.textContent = `Not valid JSON in ${error.arg}: ${error.message}`;
      return;
    }
    submit(command);
  });
  if (types.length) show(types[0]);
  return { element, load: (move) => show(move.type, move) };
}

function kind(prop) {
  const types = [].concat(prop.type || []);
  if (prop.enum) return "enum";
  if (types.length === 1 && ["integer", "number", "string", "boolean"].includes(types[0])) return types[0];
  return "json";
}

function field(name, prop, value) {
  const k = kind(prop);
  let input;
  if (k === "boolean") input = h("input", { type: "checkbox", checked: Boolean(value) });
  else if (k === "enum") input = h("select", {}, prop.enum.map((v) => h("option", { value: JSON.stringify(v), selected: v === value }, String(v))));
  else if (k === "integer" || k === "number") input = h("input", { type: "number", step: k === "integer" ? 1 : "any", value: value ?? "" });
  else if (k === "string") input = h("input", { value: value ?? "", size: 24 });
  else input = h("textarea", { rows: 3, cols: 30 }, value === undefined ? "" : JSON.stringify(value));
  input.dataset.arg = name;
  input.dataset.kind = k;
  return h("div", { class: "row" }, h("label", {}, name, input), h("span", { class: "muted" }, prop.description || ""));
}

function read(input) {
  switch (input.dataset.kind) {
    case "boolean": return input.checked;
    case "enum": return JSON.parse(input.value);
    case "integer": case "number": return input.value === "" ? null : Number(input.value);
    case "string": return input.value;
    default:
      try { return input.value.trim() === "" ? null : JSON.parse(input.value); } catch (error) {
        error.arg = input.dataset.arg;
        throw error;
      }
  }
}
