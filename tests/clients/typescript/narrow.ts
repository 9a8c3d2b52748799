// A game document narrowed on `ruleset` (issue 36 item 5): after `game.ruleset === "kingpin"` its view is
// Kingpin's, its legal moves Kingpin's commands, its outcome Kingpin's (or the table's) and its options
// Kingpin's; a turn message narrows alike, and a creation body is typed by the ruleset it names.
import type { components } from "./api";

type Schemas = components["schemas"];

export function kingpinTarget(game: Schemas["Game"]): number | undefined {
  if (game.ruleset !== "kingpin") return undefined;
  const view: Schemas["KingpinView"] | null = game.view;
  const moves: Schemas["KingpinCommand"][] = game.legal_moves;
  const target: 3000 | 5000 | 10000 | undefined = game.options?.target;
  const stacks: unknown = view?.stacks;
  return moves.length + (stacks === undefined ? 0 : 1) + (target ?? view?.target ?? 0);
}

export function bankrolls(game: Schemas["Game"]): number[] {
  // the rules' outcome has the game's own fields; the table's (abandoned) has idle_seconds instead
  if (game.ruleset === "kingpin" && game.outcome && "bankrolls" in game.outcome) return game.outcome.bankrolls;
  if (game.ruleset === "druglord" && game.outcome && "scores" in game.outcome) return game.outcome.scores;
  return [];
}

export function phaseOf(game: Schemas["Game"]): string | null {
  switch (game.ruleset) {
    case "druglord":
      return game.view?.phase_name ?? null;
    case "narcos":
      return game.view ? String(game.view.round) : null;
    default:
      return null;
  }
}

export function turnMoves(turn: Schemas["TurnState"]): number {
  return turn.ruleset === "trafficking" ? turn.legal_moves.filter((move) => move.type === "Roll").length : 0;
}

export const table: Schemas["CreateGame"] = {
  ruleset: "narcos", options: { mode: "advanced" }, seats: [{ kind: "human" }, { kind: "bot", level: "greedy" }],
};
