// The 3 Commandments: the Holy Circle with the fifteen artefacts. A novice drags an artefact: every
// area it is carried over is the performance's path (out of the circle counts as X), the area where
// it is dropped is its destination; gestures, touches and the words said are picked beside (a move
// costs at most 10 beats; the server measures its time). (No mouse? Pick an artefact, then the areas in order.) The High Priestess ordains her cards
// and places the artefacts by dragging them. The server judges everything; the page only builds moves.
import { h, s, listing } from "../util.js";
import { deckBrowser, customCards } from "../deck.js";
import { t, lang, isOne } from "../i18n.js";

/** A card's text: French alone when the page is in French, else the English with the French beside it. */
function cardWords(c) {
  if (lang === "fr") return [h("span", { lang: "fr" }, c.fr || c.en)];
  return [h("span", { lang: "en" }, c.en), h("span", { class: "fr", lang: "fr" }, c.fr)];
}

const AREAS = ["C", "H1", "H2", "H3", "H4", "H5", "T1", "T2", "T3", "T4", "T5", "R"];
const PATH = [...AREAS, "X"];
const CODES = ["wh", "bk", "br"];
const COLOUR_NAMES = ["white", "black", "brown"];
const ART = Array.from({ length: 15 }, (_, i) => `${CODES[Math.floor(i / 5)]}${(i % 5) + 1}`);
// The fixed vocabularies of a performance (the game's notation, coven.games.commandments.lang).
const GESTURES = ["stand", "dance", "sing", "bow", "kneel", "clap", "macho", "pray", "laugh", "whistle", "close_eyes", "wave", "jump", "hum", "stretch", "stamp", "smile"];
const BUDGET = 10; // beats a move may cost: 2 a gesture or touch, 1 a word or an area carried over
const TOUCHES = { hp: t("cmd.touch.hp"), hp_art: t("cmd.touch.hp_art"), novice: t("cmd.touch.novice"), artefact: t("cmd.touch.artefact") };
// The gestures' names as shown (the notation keeps the game's own words).
const GESTURE_TEXT = {
  stand: t("cmd.g.stand"), dance: t("cmd.g.dance"), sing: t("cmd.g.sing"), bow: t("cmd.g.bow"), kneel: t("cmd.g.kneel"),
  clap: t("cmd.g.clap"), macho: t("cmd.g.macho"), pray: t("cmd.g.pray"), laugh: t("cmd.g.laugh"), whistle: t("cmd.g.whistle"),
  close_eyes: t("cmd.g.close_eyes"), wave: t("cmd.g.wave"), jump: t("cmd.g.jump"), hum: t("cmd.g.hum"), stretch: t("cmd.g.stretch"),
  stamp: t("cmd.g.stamp"), smile: t("cmd.g.smile"),
};
const gestureText = (g) => GESTURE_TEXT[g] || g.replace("_", " ");
const SHOWN_COLOURS = [t("cmd.white"), t("cmd.black"), t("cmd.brown")];
const karmaText = (value) => (value === "?" ? t("cmd.per_unit") : t("cmd.karma_n", { n: value }));

// ---------------------------------------------------------------------------------- geometry
const RAD = Math.PI / 180;
const HIT_R = 19; // an artefact's touch target's radius: 38 of the circle's 540 units, 24 px on a 390 px phone
const polar = (r, deg) => [r * Math.cos(deg * RAD), r * Math.sin(deg * RAD)];
const HEX_ANGLE = (i) => -90 + 72 * i;
const TRIANGLE_ANGLE = (area) => HEX_ANGLE(Number(area.slice(1)) - 1) + 36; // a triangle's axis, outwards
const CENTRES = {};
CENTRES.C = [0, 0];
for (let i = 0; i < 5; i++) {
  CENTRES[`H${i + 1}`] = polar(100, HEX_ANGLE(i));
  CENTRES[`T${i + 1}`] = polar(158, HEX_ANGLE(i) + 36);
}
function shapeOf(area) {
  if (area === "C") return s("circle", { cx: 0, cy: 0, r: 44 });
  if (area === "R") return s("path", { d: "M0,-252A252,252 0 1,1 0,252A252,252 0 1,1 0,-252ZM0,-196A196,196 0 1,0 0,196A196,196 0 1,0 0,-196Z", "fill-rule": "evenodd" });
  const [cx, cy] = CENTRES[area];
  if (area[0] === "H") {
    const pts = Array.from({ length: 6 }, (_, k) => polar(46, 30 + 60 * k).map((v, j) => v + (j ? cy : cx)));
    return s("polygon", { points: pts.map((p) => p.join(",")).join(" ") });
  }
  const a = TRIANGLE_ANGLE(area);
  const pts = [polar(112, a), polar(194, a - 17), polar(194, a + 17)];
  return s("polygon", { points: pts.map((p) => p.join(",")).join(" ") });
}
// Where the artefacts of an area stand. Up to what the area can hold spaced out (the centre 5, a hexagon 4,
// a triangle 4, the ring all 15) they stand 2 * HIT_R apart and inside the area's outline, so that no
// artefact's touch target covers another's; beyond that they close up in a grid, and their targets shrink
// with the gap between them (see hitRadii).
const SPACED = 2 * HIT_R + 0.6; // (a little more, so that neighbours' targets do not touch)
// A triangle's spots in its own frame: [across, from the apex outwards]. It is 73.5 deep and 113.4 wide at
// its base, its inscribed circle's centre 45.6 from the apex; four fit at the corners of the triangle
// 9.5 inside its outline and at that triangle's circumcentre, 38.7 apart.
const TRIANGLE_SPOTS = [null, [[0, 45.6]], [[-19.5, 52], [19.5, 52]], [[-19.5, 60], [19.5, 60], [0, 26]],
  [[0, 15.6], [-37.4, 64], [37.4, 64], [0, 54.2]]];
function tokenSpots(area, n) {
  if (area === "R") return Array.from({ length: n }, (_, k) => polar(224, -90 + 12 + (360 / Math.max(n, 15)) * k));
  const [cx, cy] = CENTRES[area];
  if (area[0] === "T" && n < TRIANGLE_SPOTS.length) {
    const [ux, uy] = polar(1, TRIANGLE_ANGLE(area));
    return TRIANGLE_SPOTS[n].map(([x, d]) => [(112 + d) * ux - x * uy, (112 + d) * uy + x * ux]);
  }
  if (area[0] !== "T" && n <= (area === "C" ? 5 : 4)) {
    if (n === 1) return [[cx, cy]];
    // a regular polygon of side SPACED, a corner down (clear of the area's name above the middle)
    const r = SPACED / 2 / Math.sin(Math.PI / n);
    const start = n === 2 ? 0 : n === 4 ? 45 : 90;
    return Array.from({ length: n }, (_, k) => polar(r, start + (360 / n) * k)).map(([x, y]) => [cx + x, cy + y]);
  }
  const cols = n <= 4 ? 2 : n <= 9 ? 3 : 4;
  const gap = area[0] === "T" ? 17 : 21;
  return Array.from({ length: n }, (_, k) => {
    const row = Math.floor(k / cols), col = k % cols;
    const rows = Math.ceil(n / cols);
    return [cx + (col - (Math.min(cols, n) - 1) / 2) * gap, cy + (row - (rows - 1) / 2) * gap];
  });
}

/** Each artefact's touch target's radius: HIT_R, or less than half the way to the nearest other artefact,
 * so that no two targets overlap (`spots`: where they stand). */
function hitRadii(spots) {
  return spots.map(([x, y], i) => {
    const near = Math.min(...spots.map(([u, v], j) => (i === j ? Infinity : Math.hypot(u - x, v - y))));
    return Math.min(HIT_R, near / 2 - 0.25);
  });
}

// --------------------------------------------------------------------------------- page state
let work = { key: null, sel: null, route: [], move: null, perf: newPerf(), placement: null };
function newPerf() {
  return { gestures: new Set(), touches: new Set(), words: "" };
}

/** A move of this ritual's list in words, its notation in the tooltip. */
function moveText(m, start) {
  if (!m) return t("cmd.pad_forfeit");
  const chain = [ART[m.artefact], ...m.path.map((a) => PATH[a]), PATH[m.to]].join(">");
  const from = typeof start === "number" ? AREAS[start] : null;
  return h("span", { title: chain }, performedText(chainWords(chain, from), m.gestures, m.touches, m.words, m.seconds));
}

/** An artefact's way in words: "white 5 from H1 over C to H2" ("wh5>C>H2"; `from`: where it stood); the
 * chain as it is if it cannot be read or where it stood is not known. */
function chainWords(chain, from) {
  const parts = String(chain).split(">");
  const a = ART.indexOf(parts[0]);
  if (a < 0 || parts.length < 2) return chain;
  const area = (x) => (x === "X" ? t("cmd.seen.out") : x);
  const artefact = t("cmd.artefact_named", { colour: SHOWN_COLOURS[Math.floor(a / 5)], n: (a % 5) + 1 });
  const to = area(parts[parts.length - 1]);
  const path = parts.slice(1, -1).map(area).join(" → ");
  if (!from) return parts.join(" → ");
  return path ? t("cmd.chain_over", { artefact, from, path, to }) : t("cmd.chain", { artefact, from, to });
}

/** A move as the page names it: the artefact's way (C, H1…, as on the circle), then the performance in the
 * performance panel's words and the time it took: "wh5>H2 (bow, “thank you”; 4 s)". */
function performedText(chain, gestures, touches, words, seconds) {
  const done = [...gestures.map(gestureText), ...touches.map((x) => TOUCHES[x] || x), ...(words ? [`“${words}”`] : [])];
  const time = seconds === null || seconds === undefined ? null : t("time.seconds", { n: seconds });
  const details = done.length && time ? t("cmd.performed", { performance: done.join(", "), time }) : done.join(", ") || time;
  return details ? t("cmd.move_text", { chain, details }) : chain;
}

/** The same from a move's notation ("wh5>H2 +bow \"thank you\" 4s", the log's events), in words (`from`: where
 * the artefact stood); other text as it is. */
function notationText(text, from = null) {
  const m = /^(\S+)((?:\s+[+@][\w-]+)*)(?:\s+"([^"]*)")?(?:\s+(\d+)s)?$/.exec(String(text || "").trim());
  if (!m || !m[1].includes(">")) return text;
  const marks = m[2].trim() ? m[2].trim().split(/\s+/) : [];
  return performedText(chainWords(m[1], from), marks.filter((x) => x[0] === "+").map((x) => x.slice(1)),
    marks.filter((x) => x[0] === "@").map((x) => x.slice(1)), m[3] || "", m[4] === undefined ? null : Number(m[4]));
}

function notation(move, perf) {
  const chain = [ART[move.artefact], ...move.path, move.to].join(">");
  const parts = [chain, ...[...perf.gestures].map((g) => `+${g}`), ...[...perf.touches].map((t) => `@${t}`)];
  const words = perf.words.replaceAll('"', "").trim();
  if (words) parts.push(`"${words}"`);
  return parts.join(" "); // no seconds: the time is the server's to measure
}

function beats(move, perf) {
  const words = (perf.words.normalize("NFKD").match(/[\p{L}\p{N}]+/gu) || []).length;
  return 2 * perf.gestures.size + 2 * perf.touches.size + words + (move ? move.path.length : 0);
}

function parsePlace(text) {
  // "place wh=C,C,.. bk=.. br=.." -> 15 area names
  const out = [];
  for (const code of CODES) {
    const m = new RegExp(`${code}=([^ ]+)`).exec(text);
    out.push(...(m ? m[1].split(",") : ["C", "C", "C", "C", "C"]));
  }
  return out;
}

// ------------------------------------------------------------------------------------- board
export function turnHint(ctx) {
  const v = ctx.view;
  if (v.phase === "ordain") return t("cmd.hint_ordain");
  if (v.phase === "place") return t("cmd.hint_place");
  if (v.phase === "judge") return t("cmd.hint_judge");
  return t("cmd.hint_move");
}

/** Said under the box where a move is typed: the seconds in a move's notation are measured, not chosen. */
export function typingHint() {
  return t("cmd.typing_hint");
}

export function render(el, ctx) {
  const v = ctx.view;
  const ritual = v.rituals[v.rituals.length - 1];
  const key = `${ctx.seat}:${v.rituals.length}:${v.phase}:${ritual ? ritual.moves.length : 0}`;
  if (work.key !== key) work = { key, sel: null, route: [], move: null, perf: newPerf(), placement: null, verdict: [] };
  const legal = ctx.legal.map((a) => a.notation);
  const novice = !ctx.readOnly && v.phase === "move" && legal.some((a) => a !== "forfeit");
  const placing = !ctx.readOnly && v.phase === "place" && legal.some((a) => a.startsWith("place "));
  if (placing && !work.placement) work.placement = parsePlace(legal.find((a) => a.startsWith("place ")));

  const board = placing ? work.placement.map((a) => AREAS.indexOf(a)) : v.board;
  el.append(h("div", { class: "commandments" },
    h("div", { class: "circle-col" }, variantLine(v, ctx), circle(v, ctx, board, { novice, placing }), novice ? routeNote(ctx) : null),
    h("div", { class: "cmd-side" },
      ctx.readOnly ? null : forfeitBar(ctx, legal),
      // What the seat acts on comes first (she reads her cards above them before she ordains them).
      v.phase === "ordain" ? ritualPanel(v, ctx, ritual) : null,
      !ctx.readOnly && v.phase === "ordain" ? ordainPanel(v, ctx, ritual, legal) : null,
      placing ? placePanel(ctx, legal) : null,
      !ctx.readOnly && v.phase === "judge" ? judgePanel(v, ctx, ritual, legal) : null,
      novice ? performancePanel(ctx, legal) : null,
      v.phase === "ordain" ? null : ritualPanel(v, ctx, ritual)),
    h("div", { class: "cmd-pad" }, karmaPad(v, ctx), movesPanel(v, ctx, ritual), deckPanel(v))));
  if (ctx.animate) travel(el, v, ctx);
}

/** The artefact just moved travels its path on the circle: from its start, over every area it was carried
 * over (out of the circle for X), to where it now stands. Once, when the step is new. */
function travel(el, v, ctx) {
  if (!(ctx.lastEvents || []).some((ev) => ev.kind === "move")) return;
  const last = (v.rituals[v.rituals.length - 1]?.moves || []).slice(-1)[0];
  const m = v.phase === "judge" && v.pending ? { ...v.pending, start: v.pending_start }
    : last && last.move ? { ...last.move, start: last.start } : null;
  if (!m || typeof m.start !== "number") return;
  const token = el.querySelector(`.holy-circle .token[data-artefact="${ART[m.artefact]}"]`);
  if (!token || typeof token.animate !== "function") return;
  const end = /translate\(([-\d.e]+),([-\d.e]+)\)/.exec(token.getAttribute("transform") || "");
  if (!end) return;
  const centre = (area) => (area === "R" ? polar(224, -90) : CENTRES[area]);
  const points = [centre(AREAS[m.start])];
  for (const a of m.path) {
    const name = PATH[a];
    if (name === "X") {
      const [x, y] = points[points.length - 1];
      const r = Math.hypot(x, y) || 1;
      points.push([(x / r) * 262, (y / r) * 262 || -262]);
    } else {
      points.push(centre(name));
    }
  }
  points.push([Number(end[1]), Number(end[2])]);
  const frames = points.map(([x, y]) => ({ transform: `translate(${x}px, ${y}px)` }));
  token.animate(frames, { duration: Math.min(2400, 380 * (points.length - 1)), easing: "ease-in-out", id: "move-travel" });
}

/** The table's variant, named: expert or standard, who judges, when the cards are shown. */
function variantLine(v, ctx) {
  const o = v.options || {};
  return h("p", { class: "cmd-variant", id: liveId(ctx, "cmd-variant") },
    o.expert
      ? h("span", { class: "badge expert" }, t("cmd.variant.expert"))
      : h("span", { class: "badge" }, t("cmd.variant.standard")),
    h("span", { class: "badge" }, o.judge === "priestess" ? t("cmd.variant.priestess") : t("cmd.variant.engine")),
    h("span", { class: "badge" }, o.reveal === "never" ? t("cmd.variant.never") : t("cmd.variant.revealed")),
    customCards(o.custom_cards).length ? h("span", { class: "badge" }, customText(customCards(o.custom_cards).length)) : null);
}

function customText(n) {
  return isOne(n) ? t("cmd.variant.custom.one", { n }) : t("cmd.variant.custom.other", { n });
}

function circle(v, ctx, board, { novice, placing }) {
  const draggable = novice || placing;
  // Carrying a picked artefact (a novice clicks the areas of its way), the areas are what a click or a tap
  // means: the artefacts standing on them let it through to them (style.css .carrying).
  const carrying = novice && work.sel !== null;
  const svg = s("svg", { viewBox: "-270 -270 540 540", class: `holy-circle ${carrying ? "carrying" : ""}`, role: "group", "aria-label": t("cmd.circle") });
  svg.append(s("rect", { x: -270, y: -270, width: 540, height: 540, class: "outside", "data-area": "X" }));
  const lastMove = (v.rituals[v.rituals.length - 1]?.moves || []).slice(-1)[0];
  // The move the High Priestess is judging: its start, path and destination are drawn on the circle.
  const p = v.phase === "judge" ? v.pending : null;
  const judged = p ? [...p.path.map((a) => PATH[a]), PATH[p.to]] : [];
  const judgedFrom = p ? AREAS[v.pending_start] : null;
  for (const area of ["R", "C", "H1", "H2", "H3", "H4", "H5", "T1", "T2", "T3", "T4", "T5"]) {
    const shape = shapeOf(area);
    const inRoute = work.route.includes(area);
    const cls = `area ${area[0]} ${inRoute || judged.includes(area) ? "in-route" : ""} ${judgedFrom === area ? "judged-from" : ""} ${(p ? PATH[p.to] === area : lastMove && lastMove.move && PATH[lastMove.move.to] === area) ? "last-to" : ""}`;
    const attrs = { class: cls, "data-area": area };
    if (novice && work.sel !== null) Object.assign(attrs, { tabindex: 0, role: "button", "aria-label": t("cmd.carry", { area }) });
    for (const [k, val] of Object.entries(attrs)) shape.setAttribute(k, val);
    shape.addEventListener("click", () => {
      if (!novice || work.sel === null) return;
      work.route.push(area);
      work.move = { artefact: work.sel, path: work.route.slice(0, -1), to: area };
      ctx.rerender();
    });
    shape.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); shape.dispatchEvent(new MouseEvent("click")); } });
    svg.append(shape);
    // a name above the middle of the centre and of a hexagon, on the ring's top edge, and in the gap before
    // a triangle's tip (its artefacts may fill its corners)
    const [lx, ly] = area === "R" ? polar(262, -90) : area[0] === "T" ? polar(99, TRIANGLE_ANGLE(area)) : CENTRES[area];
    svg.append(s("text", { x: lx, y: area === "R" || area[0] === "T" ? ly + 4 : ly - 30, class: "area-label" }, area));
  }
  // Tokens.
  const byArea = new Map();
  board.forEach((area, a) => { const name = AREAS[area]; byArea.set(name, [...(byArea.get(name) || []), a]); });
  const moved = p ? p.artefact : lastMove && lastMove.move ? lastMove.move.artefact : null;
  const tokens = [...byArea].flatMap(([area, arts]) => {
    const spots = tokenSpots(area, arts.length);
    return arts.map((a, k) => ({ a, area, at: spots[k] }));
  });
  const radii = hitRadii(tokens.map((tk) => tk.at));
  tokens.forEach(({ a, area, at: [x, y] }, i) => {
    const colour = Math.floor(a / 5);
    const g = s("g", { class: `token ${COLOUR_NAMES[colour]} ${work.sel === a || (work.move && work.move.artefact === a) ? "selected" : ""} ${moved === a ? "moved" : ""} ${draggable ? "draggable" : ""}`,
      transform: `translate(${x},${y})`, "data-artefact": ART[a], "data-area": area,
      tabindex: draggable ? 0 : undefined, role: draggable ? "button" : undefined,
      "aria-label": t("cmd.token", { colour: SHOWN_COLOURS[colour], n: (a % 5) + 1, area }) },
    // a finger's target round the drawn artefact, invisible: 24 px and more on a phone unless its area is
    // crowded, never over another artefact's
    draggable ? s("circle", { r: radii[i], class: "hit", style: { fill: "transparent", stroke: "none" } }) : null,
    s("circle", { r: 10 }), s("text", { y: 4 }, String((a % 5) + 1)));
    if (draggable) attachDrag(g, svg, a, area, ctx, { placing });
    svg.append(g);
  });
  return svg;
}

function svgPoint(svg, ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

function areaAt(ev, svg) {
  // Beyond the outer ring is outside the circle (X); the thin gaps between areas count as nothing. The
  // area under the pointer is read under the artefacts (the dragged one and those standing there).
  const p = svgPoint(svg, ev);
  if (Math.hypot(p.x, p.y) > 252) return "X";
  const hit = document.elementsFromPoint(ev.clientX, ev.clientY).find((el) => el.matches(".holy-circle .area[data-area]"));
  return hit ? hit.dataset.area : null;
}

function attachDrag(g, svg, a, start, ctx, { placing }) {
  let drag = null;
  // A touch that starts on an artefact the person may move drags it; anywhere else the page scrolls as
  // usual (the circle itself never stops a swipe; see style.css .token.draggable).
  g.addEventListener("touchstart", (ev) => { if (ev.cancelable) ev.preventDefault(); }, { passive: false });
  g.addEventListener("pointerdown", (ev) => {
    if (ev.button !== 0) return;
    ev.preventDefault();
    g.setPointerCapture(ev.pointerId);
    drag = { seq: [start], moved: false, x0: ev.clientX, y0: ev.clientY };
    g.classList.add("dragging");
  });
  g.addEventListener("pointermove", (ev) => {
    if (!drag) return;
    if (Math.abs(ev.clientX - drag.x0) + Math.abs(ev.clientY - drag.y0) > 4) drag.moved = true;
    const p = svgPoint(svg, ev);
    g.setAttribute("transform", `translate(${p.x},${p.y})`);
    const area = areaAt(ev, svg);
    if (area && area !== drag.seq[drag.seq.length - 1]) drag.seq.push(area);
    svg.querySelectorAll(".area").forEach((el) => el.classList.toggle("in-route", drag.seq.slice(1).includes(el.dataset.area)));
  });
  const finish = (ev) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    g.classList.remove("dragging");
    if (!d.moved) { select(a, ctx); return; }
    const area = areaAt(ev, svg);
    if (area && area !== d.seq[d.seq.length - 1]) d.seq.push(area);
    const to = d.seq[d.seq.length - 1];
    if (placing) {
      if (to !== "X") work.placement[a] = to;
      ctx.rerender();
      return;
    }
    if (to === "X") {
      ctx.error(t("cmd.inside"));
      work.move = null; work.route = []; work.sel = null;
      ctx.rerender();
      return;
    }
    work.sel = a;
    work.route = d.seq.slice(1);
    work.move = { artefact: a, path: d.seq.slice(1, -1), to };
    ctx.rerender();
  };
  g.addEventListener("pointerup", finish);
  g.addEventListener("pointercancel", () => { drag = null; ctx.rerender(); });
  g.addEventListener("keydown", (ev) => { if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); select(a, ctx); } });
}

function select(a, ctx) {
  work.sel = work.sel === a ? null : a;
  work.route = [];
  work.move = null;
  ctx.rerender();
}

/** Under the circle, beside the way being built: put the artefact down, to pick or drag another (the
 * artefacts take no click while one is carried). */
function putDown(ctx) {
  return h("button", { type: "button", class: "small", id: "put-down", dataset: { fkey: "put-down" },
    onclick: () => { work.move = null; work.sel = null; work.route = []; ctx.rerender(); } }, t("cmd.put_down", { artefact: ART[work.sel] }));
}

function routeNote(ctx) {
  if (work.move) {
    const m = work.move;
    return h("p", { class: "route", id: "route" }, m.path.length
      ? t("cmd.route_over", { artefact: ART[m.artefact], path: m.path.join(" → "), to: m.to })
      : t("cmd.route", { artefact: ART[m.artefact], to: m.to }), " ", putDown(ctx));
  }
  if (work.sel !== null) {
    return h("p", { class: "route board-note", id: "route" }, t("cmd.picked", { artefact: ART[work.sel] }), " ", putDown(ctx));
  }
  return h("p", { class: "board-note", id: "route" }, t("cmd.drag"));
}

// --------------------------------------------------------------------------------- panels
/** An element's id on the live board only: the result's replay draws the board again (once or twice, read
 * only), and an id is the page's once. */
const liveId = (ctx, id) => (ctx.readOnly ? undefined : id);
const ROLE = (i) => (i === 0 ? t("cmd.taboo") : t("cmd.commandment", { n: i }));
const cardOf = (v, id) => (v.cards || []).find((c) => c.id === id) || null;

function forfeitBar(ctx, legal) {
  if (!legal.includes("forfeit")) return null;
  return h("div", { class: "forfeit-bar" },
    h("button", { type: "button", class: "danger", id: "forfeit", dataset: { action: "forfeit", fkey: "forfeit" }, disabled: ctx.pending,
      onclick: () => ctx.act("forfeit") }, t("cmd.forfeit")),
    h("span", { class: "muted" }, t("cmd.forfeit_note")));
}

function ritualPanel(v, ctx, ritual) {
  if (!ritual) return null;
  const own = ctx.seat === ritual.priestess;
  return h("section", { class: "ritual-panel" },
    h("h3", {}, t("cmd.ritual_head", { k: v.rituals.length, n: v.players, name: ctx.names[ritual.priestess] })),
    disempoweredBanner(v, ctx),
    slotCards(v, ctx, ritual),
    destinyPanel(v, ctx, ritual),
    own && ritual.hand.length ? h("p", {}, ritual.discard ? t("cmd.hand_discarded", { cards: ritual.hand.join(", "), card: ritual.discard })
      : t("cmd.hand", { cards: ritual.hand.join(", ") })) : null,
    own ? cardTexts(v, ritual.hand) : null);
}

/** The taboo and the two commandments as cards, with the markers the moves put on them. */
function slotCards(v, ctx, ritual) {
  if (!ritual.slots.length) return h("p", { class: "board-note" }, t("cmd.choosing"));
  const hidden = v.options.expert && ctx.seat !== ritual.priestess;
  const marked = ritual.moves.filter((m) => m.marks.length);
  const last = ritual.moves.length ? ritual.moves[ritual.moves.length - 1] : null;
  const lastMarks = last && last.marks.length ? last.marks : null;
  return h("div", {},
    h("ul", { class: "slot-cards", "aria-label": t("cmd.slots") }, ritual.slots.map((sl, i) => {
      const c = sl.card ? cardOf(v, sl.card) : null;
      const on = lastMarks ? lastMarks[i] === 1 : false;
      return h("li", { class: `slot-card ${sl.type} ${on ? "marked" : ""}`, dataset: { slot: i, card: sl.card || "", marked: on ? "yes" : "no" } },
        h("div", { class: "slot-head" }, h("strong", {}, ROLE(i)), h("span", { class: "slot-type" }, sl.type === "artefact" ? t("cmd.artefact_red") : t("cmd.action_green"))),
        c ? h("div", { class: "slot-text" },
          h("span", { class: "slot-id" }, `${c.id} · ${karmaText(c.value)}`),
          ...cardWords(c))
          : h("div", { class: "slot-text secret" }, t("cmd.secret")),
        on ? h("span", { class: "marker", title: t("cmd.marked_by", { name: ctx.names[last.seat] }), "aria-label": t("cmd.marked_by", { name: ctx.names[last.seat] }) }, t("cmd.marked")) : null,
        marked.length ? h("span", { class: "mark-history", "aria-label": t("cmd.marked_on", { k: marked.filter((m) => m.marks[i]).length, n: marked.length }) },
          marked.map((m) => h("span", { class: `dot ${m.marks[i] ? "on" : ""}`, title: m.marks[i] ? t("cmd.dot_on", { name: ctx.names[m.seat] }) : t("cmd.dot_off", { name: ctx.names[m.seat] }) }))) : null);
    })),
    hidden ? h("p", { class: "board-note" }, t("cmd.expert_note"))
      : lastMarks ? h("p", { class: "board-note" }, t("cmd.markers_note", { name: ctx.names[last.seat] })) : null);
}

function destinyPanel(v, ctx, ritual) {
  const n = v.flips;
  return h("div", { class: "destiny-row" },
    h("span", { class: "destiny", id: liveId(ctx, "destiny"), dataset: { flips: n }, role: "img", "aria-label": t("cmd.destiny_label", { n }) },
      [0, 1, 2, 3].map((k) => h("span", { class: `destiny-card ${k < n ? "flipped" : ""}` }, k < n ? "☹" : "☺"))),
    h("span", { class: `destiny-text ${n >= 3 ? "warn" : ""}` },
      ritual.disempowered ? t("cmd.disempowered") : n === 3 && v.phase !== "over" ? t("cmd.destiny_3") : t("cmd.destiny", { n })));
}

function disempoweredBanner(v, ctx) {
  const prev = v.rituals.length >= 2 ? v.rituals[v.rituals.length - 2] : null;
  const cur = v.rituals[v.rituals.length - 1];
  const which = cur.disempowered ? cur : prev && prev.disempowered && !cur.moves.length ? prev : null;
  if (!which) return null;
  const k = v.rituals.indexOf(which) + 1;
  return h("p", { class: "disempowered-banner", role: "status" },
    t("cmd.disempowered_banner", { k, name: ctx.names[which.priestess] }));
}

// The words of the cards in `ids` (her own hand; the view carries them, the page never judges a card).
function cardTexts(v, ids) {
  const cards = ids.map((id) => cardOf(v, id)).filter(Boolean);
  if (!cards.length) return null;
  return h("dl", { class: "card-texts", "aria-label": t("cmd.card_texts") }, cards.flatMap((c) => [
    h("dt", {}, `${c.id} · ${c.type === "artefact" ? t("cmd.artefact") : t("cmd.action")} · ${karmaText(c.value)}`),
    lang === "fr" ? h("dd", { lang: "fr" }, c.fr || c.en) : h("dd", { lang: "en" }, c.en, h("span", { class: "fr", lang: "fr" }, ` / ${c.fr}`)),
  ]));
}

/** The karma pad, as on paper: a row per player, a column per ritual (the High Priestess's cell marked). */
function karmaPad(v, ctx) {
  const seats = Array.from({ length: v.players }, (_, s) => s);
  const head = h("tr", {}, h("th", { scope: "col" }, t("cmd.player")),
    seats.map((k) => h("th", { scope: "col" }, t("cmd.ritual_n", { n: k + 1 }), h("small", {}, v.rituals[k] ? ctx.names[v.rituals[k].priestess] : ctx.names[k]))),
    h("th", { scope: "col" }, t("cmd.total")));
  const rows = seats.map((s) => h("tr", { dataset: { seat: s } },
    h("th", { scope: "row" }, ctx.names[s]),
    seats.map((k) => padCell(v.rituals[k], s, k === v.rituals.length - 1 && v.phase !== "over")),
    h("td", { class: "pad-total", dataset: { seat: s } }, String(v.karma[s]))));
  return h("section", { class: "karma-pad" }, h("h3", {}, t("cmd.pad")),
    h("div", { class: "pad-scroll" }, h("table", { class: "karma-table", id: liveId(ctx, "karma-pad") }, h("thead", {}, head), h("tbody", {}, rows))),
    h("p", { class: "board-note" }, t("cmd.pad_note")));
}

function padCell(r, s, current) {
  if (!r) return h("td", { class: "future" }, "");
  if (r.priestess === s) {
    return h("td", { class: "hp-cell", dataset: { gain: r.gains[s] } }, h("span", { class: "hp-badge" }, t("cmd.hp")), " ",
      r.disempowered ? t("cmd.pad_disempowered") : r.ended ? String(r.gains[s]) : current ? "…" : String(r.gains[s]));
  }
  const mine = r.moves.filter((m) => m.seat === s);
  const bits = mine.map((m) => (m.move === null ? t("cmd.pad_forfeit") : m.total > 0 ? `+${m.total}` : m.total === 0 ? "0" : t("cmd.pad_bad")));
  if (r.disempowered) bits.push("+20");
  return h("td", { class: "novice-cell", dataset: { gain: r.gains[s] } }, String(r.gains[s]),
    bits.length ? h("small", {}, bits.join(" ")) : null);
}

const deckState = { el: null };

/** The deck browser at the table (built once: its filters survive every re-render). */
function deckPanel(v) {
  if (!deckState.el) {
    const details = h("details", { class: "cmd-deck", id: "cmd-deck" }, h("summary", {}, t("cmd.deck")));
    details.addEventListener("toggle", () => {
      if (details.open && !details.querySelector(".deck-browser")) {
        details.append(deckBrowser({ extra: customCards((v.options || {}).custom_cards), prefix: "table-deck" }),
          h("p", {}, h("a", { href: "/deck.html", target: "_blank", rel: "noopener" }, t("cmd.deck_page"))));
      }
    });
    deckState.el = details;
  }
  return deckState.el;
}

function ordainPanel(v, ctx, ritual, legal) {
  const list = legal.filter((a) => a.startsWith("ordain "));
  if (!list.length) return null;
  return h("section", { class: "ordain" }, h("h3", {}, t("cmd.ordain")),
    h("p", { class: "board-note" }, t("cmd.ordain_note")),
    h("div", { class: "actions-row" }, list.map((a) => {
      const m = /discard=(\S+) taboo=(\S+)/.exec(a);
      return h("button", { type: "button", class: "small", dataset: { action: a, fkey: a }, disabled: ctx.pending,
        onclick: () => ctx.act(a) }, m ? t("cmd.ordain_choice", { discard: m[1], taboo: m[2] }) : a);
    })));
}

function placeText() {
  return `place ${CODES.map((c, k) => `${c}=${work.placement.slice(k * 5, k * 5 + 5).join(",")}`).join(" ")}`;
}

function placePanel(ctx, legal) {
  const suggestions = legal.filter((a) => a.startsWith("place ")).slice(0, 6);
  return h("section", { class: "place" }, h("h3", {}, t("cmd.place")),
    h("p", { class: "board-note" }, t("cmd.place_note")),
    h("div", { class: "actions-row" }, suggestions.map((a, k) => h("button", { type: "button", class: "small",
      onclick: () => { work.placement = parsePlace(a); ctx.rerender(); } }, t("cmd.suggestion", { n: k + 1 })))),
    h("p", {}, h("code", {}, placeText())),
    h("button", { type: "button", class: "primary", id: "place-confirm", disabled: ctx.pending, onclick: () => ctx.act(placeText()) }, t("cmd.place_here")));
}

const TOUCH_SEEN = { hp: t("cmd.touched.hp"), hp_art: t("cmd.touched.hp_art"), novice: t("cmd.touched.novice"), artefact: t("cmd.touched.artefact") };

/** What she saw: the move as it happened, then a yes or no for each of her action cards. */
function judgePanel(v, ctx, ritual, legal) {
  const list = legal.filter((a) => a.startsWith("judge"));
  const p = v.pending;
  if (!p) return null;
  const from = AREAS[v.pending_start];
  const seen = h("dl", { class: "performance-seen", id: "performance-seen" },
    h("dt", {}, t("cmd.seen.novice")), h("dd", {}, ctx.names[(ritual.priestess + 1 + (ritual.moves.length % (v.players - 1))) % v.players] ?? ""),
    h("dt", {}, t("cmd.seen.artefact")), h("dd", {}, t("cmd.seen.artefact_from", { colour: SHOWN_COLOURS[Math.floor(p.artefact / 5)], n: (p.artefact % 5) + 1, code: ART[p.artefact], from })),
    h("dt", {}, t("cmd.seen.path")), h("dd", {}, [from, ...p.path.map((a) => (PATH[a] === "X" ? t("cmd.seen.out") : PATH[a])), PATH[p.to]].join(" → ")),
    h("dt", {}, t("cmd.seen.gestures")), h("dd", {}, p.gestures.length ? p.gestures.map(gestureText).join(", ") : t("cmd.seen.none")),
    h("dt", {}, t("cmd.seen.touches")), h("dd", {}, p.touches.length ? p.touches.map((x) => TOUCH_SEEN[x] || x).join(", ") : t("cmd.seen.none")),
    h("dt", {}, t("cmd.seen.words")), h("dd", { class: "words-said" }, p.words ? `“${p.words}”` : t("cmd.seen.silence")),
    h("dt", {}, t("cmd.seen.time")), h("dd", {}, t("cmd.seen.seconds", { n: p.seconds })));
  if (!list.length) {
    return h("section", { class: "judge" }, h("h3", {}, t("cmd.judging")), seen);
  }
  const slots = ritual.slots.map((sl, i) => ({ sl, i })).filter((x) => x.sl.type === "action");
  while (work.verdict.length < slots.length) work.verdict.push(null);
  const cards = slots.map(({ sl, i }, k) => {
    const c = cardOf(v, sl.card);
    const pick = (yes) => { work.verdict[k] = yes; ctx.rerender(); };
    return h("fieldset", { class: "judge-card", dataset: { card: sl.card } },
      h("legend", {}, `${ROLE(i)}: ${sl.card}${c ? ` · ${karmaText(c.value)}` : ""}`),
      c ? h("p", { class: "judge-text" }, ...cardWords(c)) : null,
      h("div", { class: "yesno" },
        ["yes", "no"].map((word) => {
          const id = `verdict-${k}-${word}`;
          return h("label", { for: id, class: `chip ${work.verdict[k] === (word === "yes") ? "on" : ""}` },
            h("input", { type: "radio", id, name: `verdict-${k}`, value: word, dataset: { fkey: id },
              checked: work.verdict[k] === (word === "yes"), onchange: () => pick(word === "yes") }),
            word === "yes" ? t("cmd.yes") : t("cmd.no"));
        })));
  });
  const ready = work.verdict.every((x) => x !== null);
  const notationText = `judge ${work.verdict.map((x) => (x ? "yes" : "no")).join(",")}`;
  return h("section", { class: "judge" }, h("h3", {}, t("cmd.judge")),
    seen,
    h("p", { class: "board-note" }, t("cmd.judge_note")),
    cards,
    h("button", { type: "button", class: "primary", id: "judge-send", dataset: { action: ready ? notationText : "" },
      disabled: !ready || ctx.pending, onclick: () => { if (ready) ctx.act(notationText); } },
    ready ? t("cmd.announce") : t("cmd.answer_each")));
}

function chips(title, entries, set, ctx, group) {
  return h("fieldset", { class: "chips" }, h("legend", {}, title),
    entries.map(([value, label]) => {
      const id = `perf-${group}-${value}`;
      return h("label", { class: `chip ${set.has(value) ? "on" : ""}`, for: id },
        h("input", { type: "checkbox", id, checked: set.has(value), dataset: { fkey: id },
          onchange: (ev) => { if (ev.target.checked) set.add(value); else set.delete(value); ctx.rerender(); } }), label);
    }));
}

function performancePanel(ctx, legal) {
  const p = work.perf;
  const text = work.move ? notation(work.move, p) : "";
  const cost = h("span", { id: "perf-beats" }, t("cmd.beats", { n: beats(work.move, p), max: BUDGET }));
  const words = h("input", { type: "text", id: "perf-words", maxlength: 200, value: p.words, placeholder: t("cmd.words_placeholder"),
    oninput: (ev) => { p.words = ev.target.value; summary.textContent = work.move ? notation(work.move, p) : ""; cost.textContent = t("cmd.beats", { n: beats(work.move, p), max: BUDGET }); } });
  const summary = h("code", { id: "perf-notation" }, text);
  return h("section", { class: "performance" }, h("h3", {}, t("cmd.performance")),
    chips(t("cmd.seen.gestures"), GESTURES.map((g) => [g, gestureText(g)]), p.gestures, ctx, "g"),
    chips(t("cmd.seen.touches"), Object.entries(TOUCHES), p.touches, ctx, "t"),
    h("div", { class: "field" }, h("label", { for: "perf-words" }, t("cmd.free_words")), words),
    h("p", {}, t("cmd.move_label"), summary, " — ", cost),
    h("div", { class: "actions-row" },
      h("button", { type: "button", class: "primary", id: "perform", disabled: !work.move || ctx.pending,
        onclick: () => { if (work.move) ctx.act(notation(work.move, p)); } }, t("cmd.perform")),
      h("button", { type: "button", class: "small", onclick: () => { work.move = null; work.sel = null; work.route = []; ctx.rerender(); } }, t("cmd.start_over"))));
}

function verdict(total) {
  return total > 0 ? t("cmd.karma_plus", { n: total }) : total === 0 ? t("cmd.no_karma") : t("cmd.bad_karma");
}

function markedText(marks, slots) {
  if (!marks || !marks.length) return "";
  const on = marks.map((m, i) => (m ? (slots && slots[i] && slots[i].card ? `${ROLE(i).toLowerCase()} ${slots[i].card}` : ROLE(i).toLowerCase()) : null)).filter(Boolean);
  return on.length ? t("cmd.marked_list", { cards: on.join(", ") }) : t("cmd.none_marked");
}

function movesPanel(v, ctx, ritual) {
  if (!ritual || !ritual.moves.length) return null;
  return h("section", { class: "cmd-moves" }, h("h3", {}, t("cmd.moves")),
    h("ol", {}, ritual.moves.map((m) => h("li", { class: m.total > 0 ? "good" : "bad" },
      ...moveLine(ctx.names[m.seat], moveText(m.move, m.start), verdict(m.total)), m.marks.length ? ` (${markedText(m.marks, ritual.slots)})` : ""))));
}

/** "{name}: {move} — {verdict}" with the move as a node (its notation in its tooltip). */
function moveLine(name, move, said) {
  const marker = "\u0000";
  const [before, after] = t("cmd.move_line", { name, move: marker, verdict: said }).split(marker);
  return after === undefined ? [before] : [before, move, after];
}

export function scores(view) {
  return view.karma;
}

export function describe(ev, ctx) {
  const d = ev.data || {};
  const n = (x) => ctx.names[x] ?? t("table.seat_n", { n: x + 1 });
  switch (ev.kind) {
    case "ritual": return t("cmd.ev.ritual", { n: d.number, name: n(d.priestess) });
    case "hand": return t("cmd.ev.hand", { cards: (d.cards || []).join(", ") });
    case "ordained": return t("cmd.ev.ordained", { name: n(d.priestess), slots: (d.slots || []).join(", ") });
    case "discarded": return t("cmd.ev.discarded", { card: d.card });
    case "placed": return t("cmd.ev.placed", { action: d.action });
    case "forfeit": return t("cmd.ev.forfeit", { name: n(d.seat), bonus: d.bonus });
    case "move": {
      const from = typeof d.start === "number" ? AREAS[d.start] : d.start;
      return h("span", { title: d.action }, t("cmd.ev.move", { name: n(d.seat), action: notationText(d.action, from) }));
    }
    case "karma": return t("cmd.ev.karma", { name: n(d.seat), verdict: `${verdict(d.total)}${d.marks ? ` (${markedText(d.marks, null)})` : ""}`, flips: d.flips });
    case "disempowered": return t("cmd.ev.disempowered", { name: n(d.priestess), bonus: d.bonus });
    case "ritual_end": return t("cmd.ev.ritual_end", { name: n(d.priestess), gain: d.gain });
    case "revealed": return t("cmd.ev.revealed", { cards: (d.cards || []).join(", ") });
    case "game_over": return t("ev.game_over", { scores: (d.karma || []).map((k, i) => `${n(i)} ${k}`).join(", ") });
    default: return null;
  }
}

export { listing };

/** A few lines for a newcomer (shown above the board). */
export const help = [
  t("cmd.help1"),
  t("cmd.help2"),
  t("cmd.help3"),
  t("cmd.help4"),
];
