// Tooltips on the board's cards, dice faces, Regions and squares: what a thing is and does, in the
// rulebook's words.  Any element with a data-tip shows it on hover (mouse), on focus (keyboard), on a
// long press (a finger: the press does not then pick the thing) or on a tap when the thing is not
// pickable.  One bubble for the page, described to assistive technology by aria-describedby.
const LONG_PRESS_MS = 450, HOVER_MS = 300, MOVE_PX = 8;

let bubble = null, shownFor = null, hoverTimer = 0, press = null;

function ensureBubble() {
  if (bubble) return bubble;
  bubble = document.createElement("div");
  bubble.id = "tip";
  bubble.setAttribute("role", "tooltip");
  bubble.hidden = true;
  document.body.append(bubble);
  return bubble;
}

export function showTip(el) {
  const text = el?.dataset?.tip;
  if (!text) return;
  const tip = ensureBubble();
  tip.textContent = text;
  tip.hidden = false;
  if (shownFor && shownFor !== el) shownFor.removeAttribute("aria-describedby");
  shownFor = el;
  el.setAttribute("aria-describedby", "tip");
  const at = el.getBoundingClientRect(), size = tip.getBoundingClientRect();
  const left = Math.max(4, Math.min(window.innerWidth - size.width - 4, at.left + at.width / 2 - size.width / 2));
  const above = at.top - size.height - 8;
  const top = above > 4 ? above : Math.min(window.innerHeight - size.height - 4, at.bottom + 8);
  // through the CSSOM: the page's Content-Security-Policy refuses inline style attributes
  Object.assign(tip.style, { left: `${left}px`, top: `${top}px` });
}

export function hideTip() {
  if (bubble) bubble.hidden = true;
  if (shownFor) shownFor.removeAttribute("aria-describedby");
  shownFor = null;
}

const tipped = (target) => (target instanceof Element ? target.closest("[data-tip]") : null);

// Once per page: delegated listeners on the document, so every board redraw is covered.
export function installTips() {
  document.addEventListener("pointerover", (e) => {
    const el = tipped(e.target);
    if (e.pointerType !== "mouse" || !el || el === shownFor) return;
    clearTimeout(hoverTimer);
    hoverTimer = setTimeout(() => showTip(el), HOVER_MS);
  });
  document.addEventListener("pointerout", (e) => {
    if (e.pointerType !== "mouse") return;
    const el = tipped(e.target);
    if (el && el.contains(e.relatedTarget)) return;
    clearTimeout(hoverTimer);
    if (el && el === shownFor) hideTip();
  });
  document.addEventListener("focusin", (e) => { const el = tipped(e.target); if (el) showTip(el); });
  document.addEventListener("focusout", (e) => { if (tipped(e.target) === shownFor) hideTip(); });
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") hideTip(); });
  document.addEventListener("pointerdown", (e) => {
    const el = tipped(e.target);
    if (shownFor && el !== shownFor && !(e.target instanceof Element && e.target.closest("#tip"))) hideTip();
    if (!el || e.pointerType === "mouse") return;
    press = { el, x: e.clientX, y: e.clientY, long: false,
      timer: setTimeout(() => { press.long = true; showTip(el); }, LONG_PRESS_MS) };
  });
  const release = (e) => {
    if (press && (e.type !== "pointermove" || Math.hypot(e.clientX - press.x, e.clientY - press.y) > MOVE_PX)) {
      clearTimeout(press.timer);
      if (!press.long) press = null;
    }
  };
  document.addEventListener("pointermove", release);
  document.addEventListener("pointercancel", release);
  document.addEventListener("pointerup", (e) => { if (press) clearTimeout(press.timer); if (press && !press.long) press = null; release(e); });
  // a long press shows the tip and is not also a pick; a tap on a thing nothing picks shows its tip
  document.addEventListener("click", (e) => {
    if (press?.long) { e.stopPropagation(); e.preventDefault(); press = null; return; }
    const el = tipped(e.target);
    if (el && !el.closest(".pickable, button, a, [role=button]")) {
      if (el === shownFor) hideTip(); else showTip(el);
    }
  }, true);
  window.addEventListener("scroll", () => { if (shownFor && !shownFor.matches(":focus")) hideTip(); }, { passive: true });
}
