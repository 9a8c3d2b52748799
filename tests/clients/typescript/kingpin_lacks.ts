// Must NOT compile: Kingpin's view has no `regions` (Druglord's has): narrowed on `ruleset`, a game's view is
// its own game's (issue 36 item 5).
import type { components } from "./api";

export function regions(game: components["schemas"]["Game"]): unknown {
  return game.ruleset === "kingpin" && game.view ? game.view.regions : undefined;
}
