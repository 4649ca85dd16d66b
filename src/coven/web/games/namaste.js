// Namaste: the roll, the diamond of 25 circles with the circles lit where the current total may go,
// the bad-karma spaces and the symbol spaces; the other players' sheets beside, smaller.
// Every lit circle and button is one of the legal actions the server sent; nothing here decides legality.
import { h, listing } from "../util.js";

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
const TRUTH = { a4: "truth, full", d1: "truth, full", g4: "truth, half", d7: "truth, half" };
// Symbol lines in the view's order: rows b-f, then columns 2-6.
const LINES = [..."bcdef"].map((r) => `row ${r}`).concat([2, 3, 4, 5, 6].map((c) => `column ${c}`));

let chosen = { key: null, value: null }; // the total picked among several, per roll

function dieText(face) {
  return face === 1 ? "1/7" : String(face);
}

function die(face, kind) {
  return h("span", { class: `die ${kind}`, title: `${kind} die: ${dieText(face)}` }, dieText(face));
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
    "aria-label": `${ctx.names[seat]}'s sheet` });
  CELLS.forEach(([r, c, name], i) => {
    const value = cells[i];
    const classes = ["cell"];
    if (PINK.has(name)) classes.push("pink");
    if (TRUTH[name]) classes.push("truth");
    if (just === name) classes.push("just");
    const style = { gridRow: String(r), gridColumn: String(c) };
    const label = `${name}${TRUTH[name] ? ` (${TRUTH[name]})` : PINK.has(name) ? " (pink)" : ""}: ${value || "empty"}`;
    const move = lit.get(name);
    if (move && big) {
      classes.push("lit");
      grid.append(h("button", { type: "button", class: classes.join(" "), style, dataset: { cell: name, action: move, fkey: `cell:${name}` },
        "aria-label": `Write ${move.split("@")[0]} in ${name}`, disabled: ctx.pending, onclick: () => ctx.act(move) },
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
      title: `${line}: ${points[k] ? `${points[k]} points` : view.claimed[k] ? "completed by someone (worth half now)" : "not completed"}` },
    points[k] ? String(points[k]) : view.claimed[k] ? "½" : "◇"));
  });
  const karma = view.karma[seat];
  const karmaRow = h("div", { class: "karma", "aria-label": `${ctx.names[seat]}'s bad karma` },
    h("span", { class: "karma-label" }, "bad karma"),
    [0, 1, 2, 3].map((k) => h("span", { class: `karma-space ${k < karma.length ? "filled" : ""}` }, k < karma.length ? `−${karma[k]}` : "")));
  return h("div", { class: `sheet ${seat === ctx.seat ? "mine" : ""} ${ctx.toAct.includes(seat) ? "deciding" : ""}`, dataset: { seat } },
    h("h3", { class: "seat-tag" }, ctx.names[seat], view.active === seat ? " — rolling" : ""), grid, karmaRow);
}

export function render(el, ctx) {
  const view = ctx.view;
  const me = ctx.seat;
  // The roll.
  const roll = h("div", { class: "roll", "aria-live": "polite" });
  if (view.phase === "decide") {
    // Element.append takes nodes one by one (an array would print as "[object HTMLSpanElement]").
    roll.append(h("span", { class: "roll-who" }, `${ctx.names[view.active]} rolled: `),
      ...view.white.map((f) => die(f, "white")), h("span", { class: "plus" }, "+"), die(view.turquoise, "turquoise"),
      h("span", { class: "board-note" }, " (white dice count for everyone; the turquoise die only for the roller; 1/7 is 1 or 7)"));
  } else if (view.phase === "choose") {
    roll.append(h("span", {}, `${ctx.names[view.active]} is about to roll.`));
  } else {
    roll.append(h("span", {}, "The game is over."));
  }
  el.append(roll);

  // My choices: rolls, the total to write, the lit circles, bad karma, pass.
  const controls = h("div", { class: "actions-row", role: "group", "aria-label": "Your move" });
  const rolls = ctx.legal.filter((a) => a.notation.startsWith("roll "));
  for (const a of rolls) {
    const n = a.notation.slice(5);
    controls.append(h("button", { type: "button", class: "primary", dataset: { action: a.notation, fkey: a.notation },
      disabled: ctx.pending, onclick: () => ctx.act(a.notation) }, `Roll ${n} white ${n === "1" ? "die" : "dice"}`));
  }
  const ws = writes(ctx);
  const values = [...new Set(ws.map((w) => w.value))].sort((a, b) => a - b);
  const key = `${view.turns}:${view.white.join(",")}:${view.turquoise}`;
  if (chosen.key !== key || !values.includes(chosen.value)) chosen = { key, value: values[0] ?? null };
  if (values.length > 1) {
    controls.append(h("span", {}, "Write which total? "));
    for (const v of values) {
      controls.append(h("button", { type: "button", class: `value-chip ${v === chosen.value ? "chosen" : ""}`,
        "aria-pressed": String(v === chosen.value), dataset: { value: v, fkey: `value:${v}` },
        onclick: () => { chosen.value = v; ctx.rerender(); } }, String(v)));
    }
  } else if (values.length === 1) {
    controls.append(h("span", { class: "value-one" }, `Write ${values[0]} in a lit circle`));
  }
  for (const a of ctx.legal) {
    if (a.notation === "karma") {
      controls.append(h("button", { type: "button", dataset: { action: "karma", fkey: "karma" }, disabled: ctx.pending,
        onclick: () => ctx.act("karma") }, "Take bad karma instead"));
    } else if (a.notation === "pass") {
      controls.append(h("button", { type: "button", dataset: { action: "pass", fkey: "pass" }, disabled: ctx.pending,
        onclick: () => ctx.act("pass") }, "Write nothing (pass)"));
    }
  }
  if (controls.childNodes.length) el.append(controls);
  if (view.my_choice) el.append(h("p", { class: "board-note mine-choice" }, `Your choice: ${view.my_choice} — hidden from the others until everyone has decided.`));
  if (view.phase === "decide" && view.to_decide.length) {
    el.append(h("p", { class: "board-note" }, `Still deciding: ${listing(view.to_decide.map((s) => ctx.names[s]))}.`));
  }
  if (view.ending) el.append(h("p", { class: "board-note ending" }, "Someone has filled their sheet or all bad karma: this round is the last."));

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
  if (ctx.view.phase === "choose") return "roll 1, 2 or 3 white dice.";
  const me = ctx.seat;
  return me === ctx.view.active ? "write the sum of all dice in a lit circle, or take bad karma." : "write the white dice's sum in a lit circle, or pass.";
}

export function describe(ev, ctx) {
  const d = ev.data || {};
  const name = (s) => ctx.names[s] ?? `seat ${Number(s) + 1}`;
  switch (ev.kind) {
    case "roll": return `${name(d.seat)} rolled ${d.dice} (white + turquoise)`;
    case "decided": return `You chose ${d.action}`;
    case "waiting": return `${name(d.seat)} has decided; waiting for ${listing((d.still || []).map(name))}`;
    case "entries": return `Written: ${Object.entries(d.entries || {}).map(([s, a]) => `${name(s)} ${a}`).join(", ")}`;
    case "line": return `${name(d.seat)} completed ${d.line}: ${d.points} points${d.first ? " (first!)" : " (half)"}`;
    case "end_triggered": return `${name(d.seat)} filled a whole sheet or all bad karma: this round is the last`;
    case "game_over": return `Game over: ${(d.scores || []).map((x, i) => `${name(i)} ${x}`).join(", ")}`;
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
  "On your turn, roll 1, 2 or 3 white dice; the turquoise die always rolls with them. A 1/7 face counts as 1 or 7, your choice.",
  "The roller writes the sum of all the dice in one circle, or instead takes bad karma (minus the turquoise die). Everyone else may write the sum of the white dice, or pass.",
  "Numbers grow left to right in every row and top to bottom in every column (gaps are fine): the lit circles are where your number may go.",
  "Complete a line (row b-f or column 2-6) to score its pink circle — in full if you are among the first, half later. The four tips score too (top and left in full, bottom and right half).",
  "The game ends after the round in which someone filled every circle or all four bad-karma spaces.",
];
