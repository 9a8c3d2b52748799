// What every board shares: a thing a legal move names becomes pickable (clicked, or Enter/Space when
// focused), so the moves panel shows only the moves naming it; the picked thing is marked pressed.
import { mentions } from "../moves.js";

export function named(moves, value) {
  return moves.some(({ move }) => mentions(move, value));
}

// Make `el` (HTML or SVG) pick `value` if a legal move names it; returns el.  `label` is what a screen
// reader hears either way.
export function pickable(el, value, { moves, pick, picked }, label) {
  if (label) el.setAttribute("aria-label", label);
  if (!named(moves, value)) {
    if (el.namespaceURI !== "http://www.w3.org/1999/xhtml" && label) el.setAttribute("role", "img");
    return el;
  }
  el.classList.add("pickable");
  if (picked === value) el.classList.add("picked");
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-pressed", String(picked === value));
  el.dataset.pick = value;
  el.addEventListener("click", () => pick(value));
  el.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") { event.preventDefault(); pick(value); }
  });
  return el;
}

export const SEAT_FILL = ["#0b5cad", "#a4161a", "#1b6b2c", "#7b2d8e", "#8a5a00", "#00606b", "#3d3d3f", "#b0306a", "#4a4ab0"];
export const SEAT_COLOUR = ["Blue", "Red", "Green", "Purple", "Amber", "Teal", "Grey", "Pink", "Indigo"];
export const seatFill = (seat) => SEAT_FILL[seat % SEAT_FILL.length];

// A seat as the players know it: the name its player chose, "Bot 2" for a bot without one (as the
// server's narration says), else the seat's colour ("Blue"): a player reads names, never seat numbers.
export function who(doc, seat) {
  const info = doc?.seats?.[seat] || {};
  return info.name || (info.kind === "bot" ? `Bot ${seat}` : SEAT_COLOUR[seat % SEAT_COLOUR.length] ?? `Player ${Number(seat) + 1}`);
}

// A name's initials for a token: "Reefer T. Johnstone III" -> "RJ", "Bot 2" -> "B2", "Blue" -> "B".
export function initials(name) {
  const words = String(name).replace(/["(].*?[")]/g, " ").split(/\s+/).filter((w) => /^[A-Za-z0-9]/.test(w) && !/^(I{1,3}|IV|Jr\.?|The)$/.test(w));
  if (!words.length) return "?";
  if (words.length === 1) return words[0][0].toUpperCase();
  return (words[0][0] + words[words.length - 1][0]).toUpperCase();
}

// Server text that names a seat by number ("seat 2's offer", "seats 1, 2 discard") in the players' names.
export function seatWords(text, doc) {
  return String(text).replace(/\bseats ((?:\d+, )*\d+)/gi, (_, list) => list.split(", ").map((n) => who(doc, Number(n))).join(", "))
    .replace(/\bseat (\d+)/gi, (_, n) => who(doc, Number(n)));
}

// "Seat 2" is the server's name for a seat whose player gave none (rules/narration.py Names): the page's
// name for it instead, in a narrated sentence.
export function namedSeats(text, doc) {
  return String(text).replace(/\bSeat (\d+)\b/g, (said, n) => {
    const info = doc?.seats?.[n];
    return info && !info.name && info.kind !== "bot" ? who(doc, Number(n)) : said;
  });
}
