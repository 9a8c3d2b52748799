// Must NOT compile: "plutonium" is not a Druglord weight type (the spec's enum: reefer, pills, cocaine, opiates).
import type { components } from "./api";

export const sway: components["schemas"]["Command"] = { type: "Sway", die: "trade", weight: "plutonium", units: 1 };
