// A Kingpin seat written from openapi.yaml alone: the types come from openapi-typescript (api.ts, generated
// by tests/clients/test_typescript_client.py), the requests are plain fetch.  It creates a game against a
// bot, reads it, and sends what legal_moves lists (and a command written as a literal) until the game ends.
import type { components, paths } from "./api";

declare const process: { argv: string[]; exitCode?: number };

type CreateGame = paths["/v1/games"]["post"]["requestBody"]["content"]["application/json"];
type CreatedGame = paths["/v1/games"]["post"]["responses"][201]["content"]["application/json"];
type Game = components["schemas"]["Game"];
type Command = components["schemas"]["Command"];
type CommandResult = paths["/v1/games/{game_id}/commands"]["post"]["responses"][200]["content"]["application/json"];

// A command written by hand: the spec's union accepts it as a Kingpin command.
const roll: components["schemas"]["KingpinCommand"] = { type: "RollDice" };

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${init.method ?? "GET"} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

async function main(base: string): Promise<void> {
  const table: CreateGame = {
    ruleset: "kingpin", seed: "typescript-client", options: { target: 3000, turn_limit: 25 },
    seats: [{ kind: "human", name: "typescript" }, { kind: "bot", level: "random" }],
  };
  const created = await call<CreatedGame>(`${base}/v1/games`, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(table),
  });
  const token: string | undefined = created.seats[0].token;
  const auth = { Authorization: `Bearer ${token}` };
  let sent = 0;
  let literal = 0;
  for (let reads = 0; reads < 5000; reads++) {
    const game = await call<Game>(`${base}/v1/games/${created.id}`, { headers: auth });
    if (game.status === "finished") {
      const winners: unknown = game.outcome?.winners;
      console.log(JSON.stringify({ status: game.status, sent, literal, winners, you: game.you }));
      return;
    }
    const moves: components["schemas"]["Move"][] = game.legal_moves;  // required: no `?? []`
    if (moves.length === 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));  // the bot's turn
      continue;
    }
    // the first time, a move with arguments as listed; a roll as the literal; else the last listed move
    const listed: Command = sent === 0 && Object.keys(moves[0]).length > 1 ? moves[0] : moves[moves.length - 1];
    const command: Command = listed.type === "RollDice" ? roll : listed;
    if (command === roll) literal++;
    const result = await call<CommandResult>(`${base}/v1/games/${created.id}/commands`, {
      method: "POST", body: JSON.stringify(command),
      headers: { ...auth, "Content-Type": "application/json", "If-Match": `"${game.version}"` },
    });
    if (result.version <= game.version) throw new Error(`the version did not advance: ${JSON.stringify(result)}`);
    sent++;
  }
  throw new Error("the game did not end");
}

main(process.argv[2]).catch((error) => { console.error(error); process.exitCode = 1; });
