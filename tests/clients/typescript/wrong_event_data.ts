// Must NOT compile: a Kingpin DiceRolled has no `hits` (only a HitsSold, HitsPlaced... does).
import type { components } from "./api";

export function hits(event: components["schemas"]["KingpinEvent"]): number {
  return event.type === "DiceRolled" ? event.data.hits : 0;
}
