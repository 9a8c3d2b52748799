// The page's router: #/ (lobby), #/games/<id> (play or watch), #/replay[/<id>] (replay and verify),
// #/rules/<ruleset> (a game's rules and rulings), #/mine (my games).  On every page: the player's stream,
// told as notices (notices.js).
import { $, replace, h } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showGame } from "./game.js";
import { showReplay } from "./replay.js";
import { showRules } from "./rules.js";
import { prefs, invitations } from "./api.js";
import { installTips } from "./tips.js";
import { showMine } from "./mine.js";
import { startNotices } from "./notices.js";

let leave = null; // the current page's cleanup (closes its event stream, stops its timers)

async function route() {
  if (leave) { leave(); leave = null; }
  const main = $("#main");
  const [, page, rest = ""] = (location.hash || "#/").slice(1).split("/");
  const [id, query = ""] = rest.split("?");
  // an invitation link (#/games/<id>?invitation=...): the tab holds it, and the address bar loses it, so a
  // link copied from here later (or a screenshot) does not pass on a seat meant for this player
  const invitation = new URLSearchParams(query).get("invitation");
  if (page === "games" && id && invitation) {
    invitations.hold(decodeURIComponent(id), invitation);
    history.replaceState(null, "", `#/games/${id}`);
  }
  try {
    if (page === "games" && id) leave = await showGame(main, decodeURIComponent(id));
    else if (page === "replay") leave = await showReplay(main, id ? decodeURIComponent(id) : null);
    else if (page === "rules" && id) leave = await showRules(main, decodeURIComponent(id));
    else if (page === "mine") leave = await showMine(main);
    else leave = await showLobby(main);
  } catch (error) {
    replace(main, h("h1", {}, "Something went wrong"), h("p", { class: "error" }, error.message),
      h("p", {}, h("a", { href: "#/" }, "Back to the lobby")));
  }
}

let toastTimer;
export function toast(message) {
  const el = $("#toast");
  el.textContent = message;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.textContent = ""; }, 5000);
}

// Developer details (versions, seeds, raw events, editing a command) stay out of a player's way
// until asked for: one toggle in the header, remembered by this browser.
function developerToggle() {
  const box = $("#developer");
  if (!box) return;
  box.checked = prefs.get("developer");
  document.body.classList.toggle("dev", box.checked);
  box.addEventListener("change", () => { prefs.set("developer", box.checked); document.body.classList.toggle("dev", box.checked); });
}

developerToggle();
installTips();
startNotices();
window.addEventListener("hashchange", route);
route();
