// A tiny DOM builder: h("button", {class: "x", onclick: f}, "text", child...).  No framework:
// the page is a reference for third-party frontends, so it should read as plain browser code.

export function h(tag, attrs = {}, ...children) {
  const svg = tag.startsWith("svg:");
  const el = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag.slice(4))
                 : document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (!svg && key in el && key !== "list" && typeof value !== "string") el[key] = value;
    else el.setAttribute(key === "className" ? "class" : key, value === true ? "" : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

export const $ = (selector, root = document) => root.querySelector(selector);

export function timeAgo(ms) {
  const seconds = Math.round((Date.now() - ms) / 1000);
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)} h ago`;
  return new Date(ms).toLocaleDateString();
}

export function countdown(deadline) {
  const left = Math.max(0, Math.round((deadline - Date.now()) / 1000));
  const m = Math.floor(left / 60), s = left % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}

// A compact one-line rendering of an event's or a move's arguments.
export function brief(data) {
  return Object.entries(data || {})
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`)
    .join(" ");
}

// Names in a sentence: "Bo", "Bo and Cy", "Bo, Cy and Di".
export const andList = (names) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0] ?? "");

// A data key in words: "turn_limit" -> "Turn limit".
export const words = (key) => String(key).replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());

// A box that scrolls (a wide table on a phone, the log) must be reachable by keyboard, or its hidden
// part is unreadable without a mouse (axe-core's scrollable-region-focusable): each `.scroll` under
// `root` that does not already hold something focusable gets tabindex 0 and a name.
export function focusableScrolls(root, label = "Table, scrolls sideways") {
  for (const box of root.querySelectorAll(".scroll")) {
    if (box.hasAttribute("tabindex")) continue;
    box.tabIndex = 0;
    box.setAttribute("role", "region");
    if (!box.hasAttribute("aria-label")) box.setAttribute("aria-label", box.querySelector("caption, h2, h3")?.textContent || label);
  }
  return root;
}

// A players' table reads as one card per player on a phone (style.css): each cell names its column, the
// table's header row being hidden there (a 9-column header once ran off the screen's edge).
export function labelCells(root) {
  for (const table of root.querySelectorAll("table.players-table")) {
    const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
    for (const row of table.querySelectorAll("tbody tr")) {
      [...row.children].forEach((cell, i) => { if (heads[i] && !cell.dataset.label) cell.dataset.label = heads[i]; });
    }
  }
  return root;
}
