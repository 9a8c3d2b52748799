// An event's data typed by its type (issue 25: event data per type): narrowing a game's event union on
// `type` gives that event's declared fields, a secret one optional (a reader it is not meant for gets none).
import type { components } from "./api";

type KingpinEvent = components["schemas"]["KingpinEvent"];
type DruglordEvent = components["schemas"]["DruglordEvent"];

export function hitsSold(events: KingpinEvent[]): number {
  let hits = 0;
  for (const event of events) {
    if (event.type === "HitsSold") {
      const sold: number = event.data.hits;
      const junkie: string = event.data.junkie;
      hits += sold + (junkie ? 0 : 0);
    }
  }
  return hits;
}

export function ballerCards(events: DruglordEvent[]): (string | undefined)[] {
  return events.flatMap((event) => (event.type === "BallerDrawn" ? [event.data.secret?.card] : []));
}

// An event as the events endpoint lists it (Event: any game's) read as its game's
export function hitsOf(event: components["schemas"]["Event"]): number {
  const e = event as KingpinEvent;
  return e.type === "HitsSold" ? e.data.hits : 0;
}
