// One drawing per game that has a board; a game without one shows its public view as a tree.
import { drawDruglord } from "./druglord.js";
import { drawKingpin } from "./kingpin.js";
import { drawLordsOfCannabis } from "./lords_of_cannabis.js";
import { drawNarcos } from "./narcos.js";
import { drawTrafficking } from "./trafficking.js";
import { drawGeneric } from "./generic.js";

const BOARDS = {
  druglord: drawDruglord, kingpin: drawKingpin, lords_of_cannabis: drawLordsOfCannabis,
  trafficking: drawTrafficking, narcos: drawNarcos,
};

export function boardFor(ruleset) {
  return BOARDS[ruleset] || drawGeneric;
}
