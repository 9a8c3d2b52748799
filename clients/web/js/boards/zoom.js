// Pan and zoom for an SVG board, by moving its viewBox (no library): the wheel or a pinch zooms about
// the pointer, a drag pans, and +/−/whole-board buttons do the same for a keyboard or a thumb.  A tap
// that did not move still reaches the thing under it, so picking works at any zoom.  The page redraws
// the board on every event, so the view a player chose is kept per board (by its key) and restored.
import { h } from "../dom.js";

const kept = new Map(); // board key -> { x, y, w, h }, the last view of that board
const STEP = 1.5; // one button press
const DRAG_PX = 6; // a pointer moving less than this is a tap, not a pan
const NARROW_PX = 700; // a screen narrower than this opens a board on what matters (fit)

// `svg` with its full viewBox already set; returns the box to put on the page (the svg inside it).
// `focus` (optional) names the board point the + button brings to the middle (the seat's own pawn).
// `fit` (optional) gives the part of the board a phone should open on: {box: [x0, y0, x1, y1], key} (what
// can be picked, or the seat's own pawn); each new key opens there once, and after that the player's own
// view is kept.  Only on a narrow screen: a desktop shows the whole board.
export function zoomable(svg, key, { max = 6, focus = null, fit = null } = {}) {
  const [fx, fy, fw, fh] = svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
  const full = { x: fx, y: fy, w: fw, h: fh };
  const same = kept.get(key)?.full;
  let view = same && same.w === fw && same.h === fh ? { ...kept.get(key).view } : { ...full };
  // a view the player chose (zoomed, panned) is theirs: the page no longer moves it by itself
  const mine = Boolean(same && kept.get(key)?.user);
  const wanted = fit && !mine && window.innerWidth < NARROW_PX ? fit() : null;
  if (wanted && wanted.key !== kept.get(key)?.fitted) {
    const [x0, y0, x1, y1] = wanted.box;
    const w = Math.max(full.w / max, (x1 - x0) * 1.15, (y1 - y0) * 1.15 * full.w / full.h);
    view = { x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - (w * full.h / full.w) / 2, w };
  } else if (fit && !mine && !wanted && kept.get(key)?.fitted) {
    view = { ...full }; // the page zoomed on a choice that is made: the whole board again
  }

  let user = mine;
  const show = (next, byPlayer = true) => {
    if (byPlayer) user = true;
    const w = Math.min(full.w, Math.max(full.w / max, next.w));
    const hh = w * full.h / full.w;
    // the view stays over the board: it may not drift off into empty space
    const x = Math.min(full.x + full.w - w, Math.max(full.x, next.x));
    const y = Math.min(full.y + full.h - hh, Math.max(full.y, next.y));
    view = { x, y, w, h: hh };
    svg.setAttribute("viewBox", `${x.toFixed(2)} ${y.toFixed(2)} ${w.toFixed(2)} ${hh.toFixed(2)}`);
    const zoomed = w < full.w - 0.01;
    svg.classList.toggle("zoomed", zoomed);
    box.dataset.zoom = (full.w / w).toFixed(2);
    box.dataset.full = `${full.x} ${full.y} ${full.w} ${full.h}`;
    out.disabled = whole.disabled = !zoomed;
    inn.disabled = w <= full.w / max + 0.01;
    kept.set(key, { full, view, fitted: fit ? wanted?.key ?? null : null, user });
  };
  // zoom by `factor` (>1 closer) keeping the board point (px, py) where it is on the screen
  const zoomAt = (factor, px = view.x + view.w / 2, py = view.y + view.h / 2) => {
    const w = Math.min(full.w, Math.max(full.w / max, view.w / factor)), ratio = w / view.w;
    show({ x: px - (px - view.x) * ratio, y: py - (py - view.y) * ratio, w });
  };
  const zoomIn = () => {
    const at = focus?.();
    if (!at) { zoomAt(STEP); return; }
    const w = Math.max(full.w / max, view.w / STEP), hh = w * full.h / full.w;
    show({ x: at[0] - w / 2, y: at[1] - hh / 2, w });
  };
  const toBoard = (clientX, clientY) => {
    const matrix = svg.getScreenCTM();
    if (!matrix) return [view.x + view.w / 2, view.y + view.h / 2];
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return [point.x, point.y];
  };
  const unitsPerPixel = () => view.w / (svg.getBoundingClientRect().width || view.w);

  const inn = h("button", { type: "button", class: "secondary zoom-in", "aria-label": "Zoom in", title: "Zoom in", onclick: () => zoomIn() }, "+");
  const out = h("button", { type: "button", class: "secondary zoom-out", "aria-label": "Zoom out", title: "Zoom out", onclick: () => zoomAt(1 / STEP) }, "−");
  const whole = h("button", { type: "button", class: "secondary zoom-fit", "aria-label": "Show the whole board", title: "Show the whole board",
    onclick: () => show({ ...full }) }, "⤢");
  const box = h("div", { class: "zoom-box" }, h("div", { class: "zoom-controls", role: "group", "aria-label": "Zoom" },
    h("span", { class: "muted" }, "Drag to pan, wheel or pinch to zoom"), inn, out, whole), svg);

  svg.addEventListener("wheel", (event) => {
    const factor = Math.exp(-event.deltaY * (event.deltaMode === 1 ? 0.05 : 0.002));
    // zoomed all the way out, the wheel scrolls the page as usual
    if (factor < 1 && view.w >= full.w - 0.01) return;
    event.preventDefault();
    zoomAt(factor, ...toBoard(event.clientX, event.clientY));
  }, { passive: false });

  // pointers: one drags the view, two pinch it; a pointer that hardly moved is a tap (a pick)
  const down = new Map();
  let dragged = false, pinch = null;
  svg.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    down.set(event.pointerId, { x: event.clientX, y: event.clientY, startX: event.clientX, startY: event.clientY });
    if (down.size === 1) dragged = false;
    if (down.size === 2) pinch = spread(down);
  });
  svg.addEventListener("pointermove", (event) => {
    const p = down.get(event.pointerId);
    if (!p) return;
    if (down.size === 2) {
      p.x = event.clientX; p.y = event.clientY;
      const [a, b] = [...down.values()], now = spread(down);
      if (pinch && pinch.d > 0 && now.d > 0) zoomAt(now.d / pinch.d, ...toBoard((a.x + b.x) / 2, (a.y + b.y) / 2));
      pinch = now;
      dragged = true;
      return;
    }
    if (!dragged && Math.hypot(event.clientX - p.startX, event.clientY - p.startY) < DRAG_PX) return;
    if (!dragged) { dragged = true; svg.setPointerCapture?.(event.pointerId); }
    const k = unitsPerPixel();
    show({ x: view.x - (event.clientX - p.x) * k, y: view.y - (event.clientY - p.y) * k, w: view.w });
    p.x = event.clientX; p.y = event.clientY;
  });
  const up = (event) => {
    down.delete(event.pointerId);
    if (down.size < 2) pinch = null;
  };
  svg.addEventListener("pointerup", up);
  svg.addEventListener("pointercancel", up);
  // the click that ends a drag is not a pick
  svg.addEventListener("click", (event) => {
    if (dragged) { event.stopPropagation(); event.preventDefault(); dragged = false; }
  }, true);

  show(view, false);
  return box;
}

function spread(pointers) {
  const [a, b] = [...pointers.values()];
  return { d: Math.hypot(a.x - b.x, a.y - b.y) };
}
