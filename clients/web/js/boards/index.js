// One drawing per game that has a board; the others show their public view as a tree.
import { drawDruglord } from "./druglord.js";
import { drawKingpin } from "./kingpin.js";
import { drawGeneric } from "./generic.js";

const BOARDS = { druglord: drawDruglord, kingpin: drawKingpin };

export function boardFor(ruleset) {
  return BOARDS[ruleset] || drawGeneric;
}
