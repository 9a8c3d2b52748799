// Server-Sent Events read with fetch, for a stream that needs the Authorization header: a browser's
// EventSource cannot send one.  A game's stream has tickets for that (POST /v1/games/{id}/tickets); a
// player's stream (GET /v1/players/me/stream) has none, so the page reads it as a fetch body and parses the
// messages itself (the format: html.spec.whatwg.org "server-sent events").  Like an EventSource it
// reconnects, sending Last-Event-ID, after the server ends the stream (SSE_MAX_SECONDS) or the network drops.

// One message per blank line: `event`, `data` (lines joined), `id`; a line starting with ':' is a comment
// (the server's heartbeat).  Returns the messages complete in `text` and what is left of it.
export function parseEvents(text) {
  const messages = [];
  const blocks = text.replace(/\r\n?/g, "\n").split("\n\n");
  const rest = blocks.pop();
  for (const block of blocks) {
    const message = { event: "message", data: [], id: null, retry: null };
    for (const line of block.split("\n")) {
      if (!line || line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") message.event = value;
      else if (field === "data") message.data.push(value);
      else if (field === "id") message.id = value;
      else if (field === "retry" && /^\d+$/.test(value)) message.retry = Number(value);
    }
    messages.push({ ...message, data: message.data.join("\n") });
  }
  return { messages, rest };
}

// Follow `url` until stop() is called.  `headers()` is asked at each connection (a rotated key), `lastId()`
// for where to resume; `onMessage({event, data, id})` for each message with data; `onState("live" |
// "reconnecting" | "refused", error?)` as the connection changes.  A 4xx answer other than 429 stops the
// follow (the credential is wrong: retrying would only repeat it).
export function followStream(url, { headers, lastId, onMessage, onState = () => {} }) {
  let stopped = false, controller = null, delay = 2000;
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  async function connect() {
    while (!stopped) {
      controller = new AbortController();
      const last = lastId();
      try {
        const response = await fetch(url, { headers: { Accept: "text/event-stream", ...headers(), ...(last ? { "Last-Event-ID": last } : {}) },
          signal: controller.signal, cache: "no-store" });
        if (!response.ok) {
          if (response.status >= 400 && response.status < 500 && response.status !== 429) {
            onState("refused", response.status);
            return;
          }
          throw new Error(`HTTP ${response.status}`);
        }
        onState("live");
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const { messages, rest } = parseEvents(buffer + value);
          buffer = rest;
          for (const message of messages) {
            if (message.retry !== null) delay = message.retry;
            if (message.data) onMessage(message);
          }
        }
      } catch (error) {
        if (stopped) return;
      }
      if (stopped) return;
      onState("reconnecting");
      await wait(delay);
    }
  }

  connect();
  return { stop() { stopped = true; controller?.abort(); } };
}
