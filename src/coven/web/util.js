// Small DOM helpers shared by every module of the page. No framework, no build step.
import { t } from "./i18n.js";

/** Create an element: h("button", {class: "x", onclick: fn}, "text", child, ...). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** The server's pace rules, said to people (coven.server): a table's seconds when the lobby leaves them
 * empty (app.py, by pace), and the least a move has on a player's clock however little is left on it
 * (table.py LAST_SECONDS). The server applies them; the page only says them. */
export const PACE_DEFAULT_SECONDS = { move: 120, clock: 600 };
export const LAST_SECONDS = 15;

/** The same for SVG elements. */
export function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value);
    } else if (key === "dataset") {
      Object.assign(el.dataset, value);
    } else if (key === "style" && typeof value === "object") {
      Object.assign(el.style, value);
    } else {
      el.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

export function append(el, children) {
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

export function clear(el) {
  while (el.firstChild) el.removeChild(el.firstChild);
  return el;
}

/** The page in place of what cannot be shown (a table that is not there, a refused invite link, an address
 * with no page): its title, the window's too, what went wrong, and the ways on in one alert panel, with no
 * empty panels beside it. `ways`: links [href, label, id] offered before the lobby's (the first is the main
 * one). */
export function problemPage(root, id, title, text, ways = []) {
  document.title = `Coven — ${title}`;
  const links = [...ways, ["/", t("table.back_to_lobby"), "back-to-lobby"]];
  clear(root).append(h("section", { class: "panel table-missing", id, role: "alert" }, h("h1", {}, title), h("p", {}, text),
    h("p", {}, links.map(([href, label, linkId], i) => [i ? " " : null,
      h("a", { href, class: `button${i ? "" : " primary"}`, id: linkId }, label)]))));
}

/** A button that acts on click, Enter and Space (native buttons already do). */
export function button(label, onclick, attrs = {}) {
  return h("button", { type: "button", ...attrs, onclick }, label);
}

/** Plain text of a JSON value for panels. */
export function show(value) {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value || "—";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value) && value.every((x) => x === null || typeof x !== "object")) {
    return value.length ? value.map((x) => (x === null ? "—" : String(x))).join(" ") : t("util.none");
  }
  return JSON.stringify(value);
}

/** "a, b and c" (or "a, b or c" with `word` "or"), in the page's language. */
export function listing(items, word = "and") {
  const xs = [...items];
  word = word === "or" ? t("util.or") : t("util.and");
  if (xs.length <= 1) return xs.join("");
  return `${xs.slice(0, -1).join(", ")} ${word} ${xs[xs.length - 1]}`;
}

export function fmtScore(x) {
  if (x === null || x === undefined) return "—";
  return Number.isInteger(x) ? String(x) : x.toFixed(1);
}

/** Boxes that scroll sideways when what they hold is wider than the screen (a board, a score pad). */
const SCROLLERS = ".board, .pad-scroll";

/** Mark each sideways scroller under `root` whose content goes on past its right edge
 * (data-scrolls="more": the style sheet fades that edge, so a phone shows there is more to see); unmarked
 * once scrolled to the end, or when everything fits. */
export function markScrollers(root = document) {
  for (const el of root.querySelectorAll(SCROLLERS)) markScroller(el);
}

function markScroller(el) {
  const more = el.scrollWidth - el.clientWidth > 1 && el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
  if (more) el.dataset.scrolls = "more";
  else delete el.dataset.scrolls;
}

/** Keep the marks true as the page is drawn again, resized or scrolled (once per page). */
export function watchScrollers() {
  let queued = false;
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => { queued = false; markScrollers(); });
  };
  new MutationObserver(later).observe(document.body, { childList: true, subtree: true });
  window.addEventListener("resize", later);
  document.addEventListener("scroll", (ev) => {
    const el = ev.target;
    if (el instanceof Element && el.matches(SCROLLERS)) markScroller(el);
  }, { capture: true, passive: true });
  later();
}
