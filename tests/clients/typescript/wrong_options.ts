// Must NOT compile: a Kingpin table's target is $3,000, $5,000 or $10,000: a creation body's options are the
// options of the ruleset it names (issue 36 item 5).
import type { components } from "./api";

export const table: components["schemas"]["CreateGame"] = {
  ruleset: "kingpin", options: { target: 4000 }, seats: [{ kind: "human" }, { kind: "bot" }],
};
