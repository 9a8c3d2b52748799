// The people at the table (issue 38 item 9), on the table's life API (docs/api.md "A table's life",
// "Chat and presence"): a name when taking a seat, an invitation link to copy, resign and abort behind a
// question, a rematch after the end (followed to the new game once every player asked), the chat, and
// who is here now.  Every label names people by name or colour (boards/pick.js `who`), never by seat number.
import { api, seats, describeError, sentInvitations } from "./api.js";
import { h, replace, timeAgo } from "./dom.js";
import { who } from "./boards/pick.js";
import { player } from "./player.js";

// ---- taking a seat: with a name -------------------------------------------------------------

// "Take the Blue seat" for each open seat, under one name field (optional: a name is made up otherwise).  This
// browser's first seat at a table is its player's (player.js claimAs), under the player's name once there is one.
export function claimForm(doc, open, claim) {
  const me = player.get();
  const asPlayer = me && !Object.keys(seats.get(doc.id)).length;
  const name = h("input", { name: "claim-name", maxlength: 64, size: 16, autocomplete: "nickname", placeholder: "optional",
    "aria-label": "Your name at the table" });
  const buttons = open.map((seat) => h("button", { type: "submit", class: "take-seat", value: String(seat), dataset: { seat } },
    `Take the ${who(doc, seat)} seat`));
  const form = h("form", { class: "claim-form row" },
    asPlayer ? h("p", { class: "playing-as" }, "You play as ", h("b", {}, me.name), ".") : h("label", {}, "Your name", name), buttons);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const seat = Number((event.submitter || buttons[0]).value);
    buttons.forEach((b) => { b.disabled = true; });
    claim(seat, name.value.trim()).finally(() => buttons.forEach((b) => { b.disabled = false; }));
  });
  return form;
}

// ---- the game menu: invite, resign, abort, leave ----------------------------------------------

// The game's own address: what a friend opens to watch, or to take an open seat with a name.
export const inviteLink = (gameId) => `${location.origin}${location.pathname}#/games/${encodeURIComponent(gameId)}`;

// A started game is one whose seats are all taken and whose contribution window has closed.
const notStarted = (doc) => doc.status === "open";
const isPlaying = (doc, seat) => seat !== null && doc.status === "active" && doc.seats[seat]?.kind === "human";

// An unlisted or private table's invitation to one seat, as a link to this page: opened, the page holds
// it (app.js) and the friend reads the table and takes that seat.
export const seatInviteLink = (gameId, invitation) => `${inviteLink(gameId)}?invitation=${encodeURIComponent(invitation)}`;

// A link in a read-only field with a Copy button (the clipboard, else the field selected for the player).
function linkRow(link, label, extra = "") {
  const field = h("input", { class: `invite-link ${extra}`, readonly: true, value: link, "aria-label": label });
  const copied = h("span", { class: "muted copied", role: "status" });
  const copy = h("button", { type: "button", class: "secondary copy-invite", onclick: async () => {
    field.select();
    try {
      await navigator.clipboard.writeText(link);
      copied.textContent = "Copied.";
    } catch {  // no clipboard (a page not served over https): the link is selected, for the player to copy
      copied.textContent = "Selected: copy it with your device's Copy.";
    }
  } }, "Copy link");
  return h("div", { class: "row invite-row" }, field, copy, copied);
}

// A public table's invitation is its address; an unlisted or private one's is a link per open seat, made by
// the service (the creation gave one per open seat; a player at the table makes a fresh one, `invite(seat)`).
function invitePart(doc, seat, gameId, invite) {
  const openSeats = doc.open_seats || [];
  if ((doc.visibility || "public") === "public") {
    const names = openSeats.map((s) => who(doc, s));
    return [h("p", { class: "menu-title" }, "Invite a friend"),
      h("p", { class: "muted menu-help" }, names.length
        ? `Whoever opens this link can take the open ${names.join(" or ")} seat, with a name, or watch.`
        : "Whoever opens this link watches the game."),
      linkRow(inviteLink(gameId), "Invitation link")];
  }
  const hidden = doc.visibility === "private" ? "This table is private: only the people you invite can see it."
    : "This table is unlisted: it is not in the lobby.";
  if (!openSeats.length) return [h("p", { class: "menu-title" }, "Invite a friend"), h("p", { class: "muted menu-help" }, hidden)];
  const sent = sentInvitations.get(gameId);
  return [h("p", { class: "menu-title" }, "Invite a friend"),
    h("p", { class: "muted menu-help" }, `${hidden} Send each friend the link for one seat: it works once, for a week.`),
    ...openSeats.map((s) => h("div", { class: "seat-invite", dataset: { seat: s } },
      h("p", { class: "invite-for" }, `For the ${who(doc, s)} seat`),
      sent[s] ? linkRow(seatInviteLink(gameId, sent[s]), `Invitation link for the ${who(doc, s)} seat`) : null,
      seat !== null ? h("button", { type: "button", class: "secondary make-invite", onclick: () => invite(s),
        title: sent[s] ? "The link above stops working" : "" }, sent[s] ? "New link" : "Make an invitation link") : null))];
}

// `act(kind)` posts the seat action; `invite(seat)` makes an invitation to an open seat; `open` says whether
// the menu was open before the redraw.
export function gameMenu({ doc, seat, gameId, act, invite, open }) {
  const items = invitePart(doc, seat, gameId, invite);
  if (isPlaying(doc, seat)) {
    items.push(asking("resign", "Resign…", "Resign this game? A bot plays your seat from now on; you cannot take it back.",
      "Yes, resign", act));
  }
  if (seat !== null && notStarted(doc)) {
    items.push(asking("abort", "Abort the table…", "End this table before it starts? Nobody wins, and nobody can join it any more.",
      "Yes, abort it", act),
    asking("leave", "Leave my seat…", "Give up your seat? It is open again for anyone to take.", "Yes, leave", act));
  }
  items.push(h("p", { class: "menu-mine" }, h("a", { href: "#/mine", class: "mine-link" }, "My games")));
  return h("details", { class: "game-menu", open }, h("summary", { "aria-label": "Game menu: invite, resign, my games" }, "☰ Game"),
    h("div", { class: "menu-body" }, items));
}

// A button that asks first, inline (as ending a turn does: a window.confirm would block the page).
function asking(kind, text, question, yes, act) {
  const box = h("div", { class: `ask-${kind}` });
  const ask = () => replace(box, h("div", { class: "confirm-end confirm-table", role: "alertdialog", "aria-label": question },
    h("p", {}, question),
    h("div", { class: "row" },
      h("button", { type: "button", class: `danger confirm-${kind}`, onclick: (e) => { e.target.disabled = true; act(kind); } }, yes),
      h("button", { type: "button", class: "secondary", onclick: () => { reset(); box.querySelector("button")?.focus(); } }, "No"))));
  const reset = () => replace(box, h("button", { type: "button", class: `secondary table-${kind}`, onclick: () => {
    ask();
    box.querySelector(`.confirm-${kind}`).focus();
  } }, text));
  reset();
  return box;
}

// ---- the rematch, in the result panel ---------------------------------------------------------

// The seats a person played (a human seat, or one a resignation handed to a bot): those a rematch waits for.
function persons(doc) {
  const resigned = doc.outcome?.resigned || [];
  return doc.seats.map((s, i) => i).filter((i) => doc.seats[i].kind === "human" || resigned.includes(i));
}

// After the end: "Rematch", who asked, and (once every player asked) the way to the new game.
export function rematchPart({ doc, seat, act }) {
  if (doc.status !== "finished" || doc.outcome?.reason === "aborted") return null;
  const rematch = doc.rematch || { asked: [], game_id: null };
  const asked = rematch.asked || [];
  if (rematch.game_id) {
    return h("div", { class: "rematch" }, h("p", {}, "The rematch is ready. ",
      h("a", { class: "rematch-link", href: `#/games/${encodeURIComponent(rematch.game_id)}` }, "Go to the rematch")));
  }
  const others = persons(doc).filter((s) => s !== seat && !asked.includes(s)).map((s) => who(doc, s));
  const wanting = asked.filter((s) => s !== seat).map((s) => who(doc, s));
  const lines = [];
  if (wanting.length) lines.push(h("p", {}, `${wanting.join(" and ")} ${wanting.length > 1 ? "want" : "wants"} a rematch.`));
  if (seat !== null && asked.includes(seat)) {
    lines.push(h("p", { class: "rematch-waiting" }, `You asked for a rematch: waiting for ${others.length ? others.join(" and ") : "the table"} to accept.`));
  } else if (seat !== null) {
    lines.push(h("button", { type: "button", class: "ask-rematch", onclick: (e) => { e.target.disabled = true; act("rematch"); } },
      wanting.length ? "Accept the rematch" : "Rematch: play again"));
  }
  return lines.length ? h("div", { class: "rematch" }, lines) : null;
}

// Once the rematch exists, this browser's seats of the old game are its seats in the new one (the same
// tokens: docs/api.md), and the page goes there.
export function followRematch(oldId, newId) {
  for (const [seat, token] of Object.entries(seats.get(oldId))) seats.add(newId, seat, token);
  location.hash = `#/games/${encodeURIComponent(newId)}`;
}

// ---- chat and presence -----------------------------------------------------------------------

// The section below the log: who is here (a live follower now), the messages, and a line to say something.
export function chatSection() {
  const list = h("ol", { class: "chat-log", "aria-live": "polite", "aria-label": "Chat messages", tabindex: 0 });
  const here = h("p", { class: "presence" });
  const text = h("input", { name: "chat-text", maxlength: 500, autocomplete: "off", "aria-label": "Message", placeholder: "Say something" });
  const name = h("input", { name: "chat-name", maxlength: 64, size: 10, autocomplete: "nickname", "aria-label": "Your name", placeholder: "Your name" });
  const note = h("p", { class: "chat-note muted", role: "status" });
  const form = h("form", { class: "chat-form row" }, name, text, h("button", { type: "submit", class: "chat-send" }, "Send"));
  const section = h("section", { class: "chat-section", "aria-labelledby": "chat-h" },
    h("h2", { id: "chat-h" }, "Chat"), here, list, form, note);
  return { section, list, here, form, text, name, note };
}

const lastId = (chat) => chat.seen.at(-1);

// The chat of one page: its messages by id (the stream's and the pages' read after a reconnect meet
// without a repeat), sent with the seat's token (the seats' channel) or as a spectator with a name.
export function chatOf(gameId) {
  return { gameId, ui: chatSection(), seen: [], byId: new Set(), doc: null, polling: null };
}

export function chatMessage(chat, message) {
  if (chat.byId.has(message.id)) return;
  chat.byId.add(message.id);
  chat.seen.push(message.id);
  const { list } = chat.ui;
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const doc = chat.doc;
  const speaker = message.seat !== null && message.seat !== undefined ? who(doc, message.seat)
    : (message.name || "spectator").replace(/^spectator$/, "Spectator");
  const mine = message.seat !== null && message.seat !== undefined && message.seat === chat.seat;
  list.append(h("li", { class: `chat-line${message.channel === "spectators" ? " spectator" : ""}`, dataset: { id: message.id } },
    h("b", { class: message.seat !== null && message.seat !== undefined ? `seat${message.seat % 6}` : "" }, mine ? "You" : speaker),
    message.channel === "spectators" && chat.seat !== null ? h("span", { class: "muted" }, " (watching)") : null,
    ": ", message.text,
    h("span", { class: "muted chat-at", title: new Date(message.at).toLocaleString() }, ` ${timeAgo(message.at)}`)));
  while (list.children.length > 200) list.firstChild.remove();
  if (atBottom) list.scrollTop = list.scrollHeight;
}

// What was said that this page has not shown: after its last id, in pages; both channels once the game ended.
export async function readChat(chat, token, ended) {
  const channels = ended ? ["seats", "spectators"] : [null];
  for (const channel of channels) {
    let after = channel ? chat[`after-${channel}`] || "" : lastId(chat) || "";
    for (let i = 0; i < 10; i++) {
      const query = new URLSearchParams({ limit: 100 });
      if (after) query.set("after", after);
      if (channel) query.set("channel", channel);
      const page = await api(`/v1/games/${chat.gameId}/chat?${query}`, { token });
      page.messages.forEach((m) => chatMessage(chat, m));
      after = page.next_after || after;
      if (channel) chat[`after-${channel}`] = after;
      if (!page.has_more) break;
    }
  }
}

export function wireChat(chat, { token, spectator }) {
  const { form, text, name, note } = chat.ui;
  name.hidden = !spectator;
  form.onsubmit = async (event) => {
    event.preventDefault();
    const said = text.value.trim();
    if (!said) return;
    const button = form.querySelector("button");
    button.disabled = true;
    try {
      const body = { text: said };
      if (spectator && name.value.trim()) body.name = name.value.trim();
      chatMessage(chat, await api(`/v1/games/${chat.gameId}/chat`, { method: "POST", token: token(), body }));
      text.value = "";
      replace(note);
    } catch (error) {
      replace(note, describeError(error));
    } finally {
      button.disabled = false;
    }
  };
}

// Who is at the table now: a person following the game live is here; a bot is always here.
export function renderPresence(chat, doc, you) {
  chat.doc = doc;
  chat.seat = you;
  const present = new Set(doc.present || []);
  const over = doc.status !== "open" && doc.status !== "active"; // nobody follows a game that has ended
  replace(chat.ui.here, over ? "Played by: " : "At the table: ", doc.seats.map((s, i) => {
    const bot = s.kind === "bot", open = s.kind === "open";
    const state = open ? "open seat" : bot ? "bot" : over ? "player" : present.has(i) || i === you ? "here" : "away";
    return h("span", { class: `person ${state.replace(" ", "-")}`, dataset: { seat: i } },
      h("span", { class: "dot", "aria-hidden": "true" }), h("b", { class: `seat${i % 6}` }, i === you ? "You" : who(doc, i)),
      ` (${state})`);
  }));
}
