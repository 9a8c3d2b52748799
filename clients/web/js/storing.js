// Druglord: storing a lone unit (Rule 5.A), a per-game preference.
// 5.A: "If a Region only produces 1 of a type of Weight for which there is local demand, the weight may be
// stored locally and combined with weight from subsequent turns".  From rules version 4 the question comes at
// the end of every action phase where such a unit is left: up to four a turn, one tap each.  Storing it is
// what the clock answers when nobody does and what the bots choose, so the page answers so by default and
// says it did; "ask me" brings the question back, "never" sends the units to the Traphouse.
export const STORE_ASK = { store: "Store it (as the clock would)", ask: "Ask me each time", never: "Never: to my Traphouse" };
export const STORE_DEFAULT = "store";
export const STORE_HELP = "At a phase's end, a Region that got only 1 unit of the phase's weight this turn may keep it " +
  "for a later Domestic Trade (Rule 5.A); otherwise it goes to your Traphouse, for Sway and exports.";

// The StoreLocally move to send for the preference (null: ask).  The first listed stores on every Region
// offered; [] stores none.
export function storeAnswer(preference, moves) {
  const chosen = preference in STORE_ASK ? preference : STORE_DEFAULT;
  if (chosen === "ask") return null;
  const all = moves.reduce((best, e) => (e.move.regions.length > best.move.regions.length ? e : best), moves[0]);
  return chosen === "store" ? all : moves.find(({ move }) => !move.regions.length) || null;
}
