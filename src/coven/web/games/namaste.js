// Namaste: the roll, the diamond of 25 circles with the circles lit where the current total may go,
// the bad-karma spaces and the symbol spaces; the other players' sheets beside, smaller.
// Every lit circle and button is one of the legal actions the server sent; nothing here decides legality.
import { h, listing } from "../util.js";
import { t } from "../i18n.js";

const ROWS = "abcdefg";
/** Cells in reading order: [row 1-7, column 1-7, name]. Geometry of the printed sheet. */
export const CELLS = [];
for (let r = 1; r <= 7; r++) {
  for (let c = 1; c <= 7; c++) {
    if (Math.abs(r - 4) + Math.abs(c - 4) <= 3) CELLS.push([r, c, `${ROWS[r - 1]}${c}`]);
  }
}
const INDEX = new Map(CELLS.map(([r, c], i) => [`${r},${c}`, i]));
const NAME_INDEX = new Map(CELLS.map(([, , n], i) => [n, i]));
// Printed colours: the pink middles of the symbol lines (rows b-f, columns 2-6), the truth tips.
const PINK = new Set(["b4", "c4", "d4", "e4", "f4", "d2", "d3", "d5", "d6"]);
const TRUTH = { a4: t("namaste.truth_full"), d1: t("namaste.truth_full"), g4: t("namaste.truth_half"), d7: t("namaste.truth_half") };
// Symbol lines in the view's order: rows b-f, then columns 2-6.
const LINES = [..."bcdef"].map((r) => t("namaste.row", { r })).concat([2, 3, 4, 5, 6].map((c) => t("namaste.column", { c })));

let chosen = { key: null, value: null }; // the total picked among several, per roll

function dieText(face) {
  return face === 1 ? "1/7" : String(face);
}

function die(face, kind, rolling = false) {
  return h("span", { class: `die ${kind} ${rolling ? "rolling" : ""}`, title: kind === "white" ? t("namaste.white_die", { face: dieText(face) }) : t("namaste.turquoise_die", { face: dieText(face) }) }, dieText(face));
}

function writes(ctx) {
  const out = [];
  for (const a of ctx.legal) {
    const m = /^(\d+)@([a-g]\d)$/.exec(a.notation);
    if (m) out.push({ value: Number(m[1]), cell: m[2], notation: a.notation });
  }
  return out;
}

function justWritten(ctx) {
  // Circles filled by the latest entries, per seat, to highlight them.
  const map = new Map();
  for (const ev of ctx.lastEvents || []) {
    if (ev.kind !== "entries") continue;
    for (const [seat, act] of Object.entries(ev.data.entries || {})) {
      const m = /^(\d+)@([a-g]\d)$/.exec(act);
      if (m) map.set(Number(seat), m[2]);
    }
  }
  return map;
}

function sheet(view, seat, ctx, { big, lit = new Map(), just = null }) {
  const cells = view.sheets[seat];
  const grid = h("div", { class: `diamond ${big ? "big" : "small"}`, role: big ? "group" : "img",
    "aria-label": t("namaste.sheet_of", { name: ctx.names[seat] }) });
  CELLS.forEach(([r, c, name], i) => {
    const value = cells[i];
    const classes = ["cell"];
    if (PINK.has(name)) classes.push("pink");
    if (TRUTH[name]) classes.push("truth");
    if (just === name) classes.push(ctx.animate ? "just arrived" : "just");
    const style = { gridRow: String(r), gridColumn: String(c) };
    const label = `${name}${TRUTH[name] ? ` (${TRUTH[name]})` : PINK.has(name) ? t("namaste.pink") : ""}: ${value || t("namaste.empty")}`;
    const move = lit.get(name);
    if (move && big) {
      classes.push("lit");
      grid.append(h("button", { type: "button", class: classes.join(" "), style, dataset: { cell: name, action: move, fkey: `cell:${name}` },
        "aria-label": t("namaste.write_in", { value: move.split("@")[0], cell: name }), disabled: ctx.pending, onclick: () => ctx.act(move) },
        h("span", { class: "ghost" }, move.split("@")[0])));
    } else {
      grid.append(h("div", { class: classes.join(" "), style, dataset: { cell: name }, title: label, "aria-label": label },
        value ? String(value) : ""));
    }
  });
  // Symbol spaces: rows b-f on the right, columns 2-6 below.
  const points = view.line_points[seat];
  LINES.forEach((line, k) => {
    const style = k < 5 ? { gridRow: String(k + 2), gridColumn: "8" } : { gridRow: "8", gridColumn: String(k - 3) };
    grid.append(h("div", { class: `symbol ${points[k] ? "done" : ""} ${view.claimed[k] ? "claimed" : ""}`, style,
      title: `${line}: ${points[k] ? t("namaste.points", { n: points[k] }) : view.claimed[k] ? t("namaste.claimed") : t("namaste.not_completed")}` },
    points[k] ? String(points[k]) : view.claimed[k] ? "½" : "◇"));
  });
  const karma = view.karma[seat];
  const karmaRow = h("div", { class: "karma", "aria-label": t("namaste.karma_of", { name: ctx.names[seat] }) },
    h("span", { class: "karma-label" }, t("namaste.bad_karma")),
    [0, 1, 2, 3].map((k) => h("span", { class: `karma-space ${k < karma.length ? "filled" : ""}` }, k < karma.length ? `−${karma[k]}` : "")));
  const deciding = ctx.toAct.includes(seat);
  return h("div", { class: `sheet ${seat === ctx.seat ? "mine" : ""} ${deciding ? "deciding" : ""}`, dataset: { seat } },
    h("h3", { class: "seat-tag" }, ctx.names[seat], view.active === seat && view.phase !== "over" ? t("namaste.rolling") : "",
      deciding ? h("span", { class: "deciding-tag" }, ` · ${t("namaste.deciding")}`) : ""), grid, karmaRow);
}

export function render(el, ctx) {
  const view = ctx.view;
  const me = ctx.seat;
  // The roll.
  const roll = h("div", { class: "roll", "aria-live": "polite" });
  // The dice roll on screen when they were just rolled (once, when the step is new).
  const rolled = Boolean(ctx.animate && (ctx.lastEvents || []).some((ev) => ev.kind === "roll"));
  if (view.phase === "decide") {
    // Element.append takes nodes one by one (an array would print as "[object HTMLSpanElement]").
    roll.append(h("span", { class: "roll-who" }, t("namaste.rolled", { name: ctx.names[view.active] })),
      ...view.white.map((f) => die(f, "white", rolled)), h("span", { class: "plus" }, "+"), die(view.turquoise, "turquoise", rolled),
      h("span", { class: "board-note" }, t("namaste.roll_note")));
  } else if (view.phase === "choose") {
    roll.append(h("span", {}, t("namaste.about_to_roll", { name: ctx.names[view.active] })));
  } else {
    roll.append(h("span", {}, t("err.game_over")));
  }
  el.append(roll);

  // My choices: rolls, the total to write, the lit circles, bad karma, pass.
  const controls = h("div", { class: "actions-row", role: "group", "aria-label": t("namaste.your_move") });
  const rolls = ctx.legal.filter((a) => a.notation.startsWith("roll "));
  for (const a of rolls) {
    const n = a.notation.slice(5);
    controls.append(h("button", { type: "button", class: "primary", dataset: { action: a.notation, fkey: a.notation },
      disabled: ctx.pending, onclick: () => ctx.act(a.notation) }, n === "1" ? t("namaste.roll_one") : t("namaste.roll_n", { n })));
  }
  const ws = writes(ctx);
  const values = [...new Set(ws.map((w) => w.value))].sort((a, b) => a - b);
  const key = `${view.turns}:${view.white.join(",")}:${view.turquoise}`;
  if (chosen.key !== key || !values.includes(chosen.value)) chosen = { key, value: values[0] ?? null };
  if (values.length > 1) {
    controls.append(h("span", {}, t("namaste.which_total")));
    for (const v of values) {
      controls.append(h("button", { type: "button", class: `value-chip ${v === chosen.value ? "chosen" : ""}`,
        "aria-pressed": String(v === chosen.value), dataset: { value: v, fkey: `value:${v}` },
        onclick: () => { chosen.value = v; ctx.rerender(); } }, String(v)));
    }
  } else if (values.length === 1) {
    controls.append(h("span", { class: "value-one" }, t("namaste.write_lit", { value: values[0] })));
  }
  for (const a of ctx.legal) {
    if (a.notation === "karma") {
      controls.append(h("button", { type: "button", dataset: { action: "karma", fkey: "karma" }, disabled: ctx.pending,
        onclick: () => ctx.act("karma") }, t("namaste.take_karma")));
    } else if (a.notation === "pass") {
      controls.append(h("button", { type: "button", dataset: { action: "pass", fkey: "pass" }, disabled: ctx.pending,
        onclick: () => ctx.act("pass") }, t("namaste.pass")));
    }
  }
  if (controls.childNodes.length) el.append(controls);
  if (view.my_choice) el.append(h("p", { class: "board-note mine-choice", title: view.my_choice }, t("namaste.my_choice", { choice: actionText(view.my_choice) })));
  if (view.phase === "decide" && view.to_decide.length) {
    el.append(h("p", { class: "board-note" }, t("namaste.still_deciding", { names: listing(view.to_decide.map((s) => ctx.names[s])) })));
  }
  if (view.ending && view.phase !== "over") el.append(h("p", { class: "board-note ending" }, t("namaste.ending")));

  const lit = new Map(ws.filter((w) => w.value === chosen.value).map((w) => [w.cell, w.notation]));
  const just = justWritten(ctx);
  const sheets = h("div", { class: "sheets" });
  const order = me === null || me === undefined ? [...view.sheets.keys()] : [me, ...[...view.sheets.keys()].filter((s) => s !== me)];
  const spectator = me === null || me === undefined;
  for (const s of order) {
    sheets.append(sheet(view, s, ctx, { big: spectator || s === me, lit: s === me ? lit : new Map(), just: just.get(s) || null }));
  }
  el.append(sheets);
}

export function turnHint(ctx) {
  if (ctx.view.phase === "choose") return t("namaste.hint_roll");
  const me = ctx.seat;
  return me === ctx.view.active ? t("namaste.hint_active") : t("namaste.hint_other");
}

/** A symbol line as the server names it ("row b", "column 6"), in the page's words. */
function lineText(line) {
  const m = /^(row|column) (\w)$/.exec(String(line || ""));
  if (!m) return line;
  return m[1] === "row" ? t("namaste.row", { r: m[2] }) : t("namaste.column", { c: m[2] });
}

/** A decision in words ("8@a4": write 8 in a4; "karma"; "pass"); other text as it is. */
function actionText(action) {
  const m = /^(\d+)@([a-g]\d)$/.exec(String(action || ""));
  if (m) return t("namaste.act.write", { value: m[1], cell: m[2] });
  if (action === "karma") return t("namaste.act.karma");
  if (action === "pass") return t("namaste.act.pass");
  return action;
}

/** A log line in words, its notation in its tooltip. */
function said(text, notation) {
  return h("span", { title: notation }, text);
}

export function describe(ev, ctx) {
  const d = ev.data || {};
  const name = (s) => ctx.names[s] ?? t("table.seat_n", { n: Number(s) + 1 });
  switch (ev.kind) {
    case "roll": return t("namaste.ev.roll", { name: name(d.seat), dice: d.dice });
    case "decided": return said(t("namaste.ev.decided", { action: actionText(d.action) }), d.action);
    case "waiting": return t("namaste.ev.waiting", { name: name(d.seat), names: listing((d.still || []).map(name)) });
    case "entries": {
      const entries = Object.entries(d.entries || {});
      return said(t("namaste.ev.entries", { entries: entries.map(([s, a]) => t("namaste.entry", { name: name(s), action: actionText(a) })).join(t("namaste.entry_sep")) }),
        entries.map(([s, a]) => `${name(s)} ${a}`).join(", "));
    }
    case "line": {
      const line = lineText(d.line);
      return d.first ? t("namaste.ev.line_first", { name: name(d.seat), line, points: d.points }) : t("namaste.ev.line_half", { name: name(d.seat), line, points: d.points });
    }
    case "end_triggered": return t("namaste.ev.end", { name: name(d.seat) });
    case "game_over": return t("ev.game_over", { scores: (d.scores || []).map((x, i) => `${name(i)} ${x}`).join(", ") });
    default: return null;
  }
}

/** Scores as printed on the sheet: symbol spaces + truth circles (top/left full, bottom/right half) − karma. */
export function scores(view) {
  const half = (n) => Math.floor((n + 1) / 2);
  const at = (sheet, name) => sheet[NAME_INDEX.get(name)] || 0;
  return view.sheets.map((sheet, s) =>
    view.line_points[s].reduce((a, b) => a + b, 0)
    + at(sheet, "a4") + at(sheet, "d1") + half(at(sheet, "g4")) + half(at(sheet, "d7"))
    - view.karma[s].reduce((a, b) => a + b, 0));
}

export { INDEX };

/** A few lines for a newcomer (shown above the board). */
export const help = [
  t("namaste.help1"),
  t("namaste.help2"),
  t("namaste.help3"),
  t("namaste.help4"),
  t("namaste.help5"),
];
