// Amulets: the altar (5 x 5 fields A1-E5) where a question or a spell is built by dragging the five
// amulets onto fields (or: pick an amulet, then a field — works by keyboard and on phones), the spell
// book with every answer, and — when the table enables it — the deduction assistant.
// The server validates every placement; the page only builds it.
import { h, listing } from "../util.js";
import { t, isOne } from "../i18n.js";

const LETTERS = "ABCDE";
const CODES = "RYGBK"; // the notation's letters (the server reads them)
// The letters shown on the pieces, each language's initials of the colours (French: R J V B N); the
// notation keeps CODES.
const SHOWN = [...t("amulets.letters")].length === 5 ? [...t("amulets.letters")] : [...CODES];
const NAMES = [t("amulets.red"), t("amulets.yellow"), t("amulets.green"), t("amulets.blue"), t("amulets.black")];
// An amulet by its colour, whole, as each language writes it (French: "amulette verte", not "amulette vert").
const AMULET = [t("amulets.amulet_red"), t("amulets.amulet_yellow"), t("amulets.amulet_green"), t("amulets.amulet_blue"),
  t("amulets.amulet_black")];
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const ANSWER_TEXT = {
  "*": t("amulets.ans.star"),
  o: t("amulets.ans.o"),
  "+": t("amulets.ans.plus"),
  "-": t("amulets.ans.minus"),
  y: t("amulets.ans.yes"),
  n: t("amulets.ans.no"),
  ".": "",
};

const fieldName = (f) => `${LETTERS[Math.floor(f / 5)]}${(f % 5) + 1}`;

let work = { key: null, fields: [null, null, null, null, null], picked: null };

function token(a, attrs = {}) {
  return h("span", { class: `amulet a-${CODES[a]}`, title: capital(AMULET[a]), ...attrs }, SHOWN[a]);
}

function placementText(fields) {
  return fields.map((f, a) => `${CODES[a]}${fieldName(f)}`).join(" ");
}

/** A placement as shown: the colours' letters in the page's language ("RD4 JC3 VA2 BB3 NA3" in French). */
function placementShown(fields) {
  return fields.map((f, a) => `${SHOWN[a]}${fieldName(f)}`).join(" ");
}

/** An explanation's parameters as this page shows them: a placement ("RA5 YA4 GA1 BA2 KE1", the engine's
 * notation) in the page's letters, as the spell book beside it writes it ("RA5 JA4 VA1 BA2 NE1" in French). */
export function explainedParams(params) {
  const fields = typeof params.where === "string" ? fieldsOf(params.where) : null;
  return fields ? { ...params, where: placementShown(fields) } : params;
}

/** A placement in words: "Red D4, Yellow C3, …". */
function placementWords(fields) {
  return fields.map((f, a) => t("amulets.placed", { colour: NAMES[a].toLowerCase(), field: fieldName(f) })).join(", ");
}

/** A placement's notation ("RD4 YC3 GA2 BB3 KA3", as the server writes it) read back into fields. */
function fieldsOf(placement) {
  const fields = [null, null, null, null, null];
  for (const part of String(placement || "").trim().split(/\s+/)) {
    const m = /^([RYGBK])([A-E])([1-5])$/.exec(part);
    if (!m) return null;
    fields[CODES.indexOf(m[1])] = LETTERS.indexOf(m[2]) * 5 + Number(m[3]) - 1;
  }
  return fields.every((f) => f !== null) ? fields : null;
}

/** An answer or a check in words ("*" → "my amulet is on my field", "y" → "yes"). */
const answerWords = (ch) => ANSWER_TEXT[ch] || ch;

function miniAltar(fields, highlight = null) {
  const grid = h("div", { class: "mini-altar", "aria-label": placementWords(fields) });
  for (let f = 0; f < 25; f++) {
    const a = fields.indexOf(f);
    grid.append(h("span", { class: `mf ${a >= 0 ? `a-${CODES[a]}` : ""} ${highlight === f ? "hl" : ""}` }, a >= 0 ? SHOWN[a] : ""));
  }
  return grid;
}

export function turnHint(ctx) {
  return t("amulets.hint");
}

export function render(el, ctx) {
  const v = ctx.view;
  const me = ctx.seat;
  const key = `${me}:${v.book.length}`;
  if (work.key !== key) work = { key, fields: [null, null, null, null, null], picked: null };
  const canAsk = ctx.legal.some((a) => a.notation.startsWith("ask "));
  const canCast = ctx.legal.some((a) => a.notation.startsWith("cast ")) || (ctx.freeForm && !v.out[me] && !v.over);
  const building = !ctx.readOnly && (canAsk || canCast);

  const secret = me !== null && me !== undefined && v.field >= 0
    ? h("p", { class: "secret" }, t("amulets.secret_field"), h("strong", {}, fieldName(v.field)), t("amulets.secret_amulet"),
      token(v.amulet), ` ${NAMES[v.amulet]}`)
    : null;
  const status = h("p", { class: "board-note" },
    // once the game is over nobody asks next: only how many questions were asked
    v.over ? t("amulets.status_over", { n: v.questions })
      : v.options.question_cap ? t("amulets.status_cap", { name: ctx.names[v.turn], n: v.questions, cap: v.options.question_cap })
      : t("amulets.status", { name: ctx.names[v.turn], n: v.questions }),
    v.out.some((x) => x) ? t("amulets.status_out", { names: listing(v.out.map((x, i) => (x ? ctx.names[i] : null)).filter(Boolean)) }) : "");

  el.append(h("div", { class: "amulets" }, secret, status,
    building ? builder(ctx, canAsk, canCast) : null,
    spellBook(v, ctx),
    v.options.assistant ? assistant(v, ctx) : null));
}

function builder(ctx, canAsk, canCast) {
  const rerender = () => ctx.rerender();
  const place = (a, f) => {
    const other = work.fields.indexOf(f);
    if (other >= 0 && other !== a) work.fields[other] = work.fields[a]; // swap (or back to the tray)
    work.fields[a] = f;
    work.picked = null;
    rerender();
  };
  // The tray: amulets not yet on the altar (and the picked one).
  const tray = h("div", { class: "tray", role: "group", "aria-label": t("amulets.tray") });
  for (let a = 0; a < 5; a++) {
    const onAltar = work.fields[a] !== null;
    tray.append(h("button", { type: "button", class: `amulet-btn ${work.picked === a ? "picked" : ""} ${onAltar ? "placed" : ""}`,
      draggable: "true", dataset: { amulet: CODES[a], fkey: `amulet:${a}` }, "aria-pressed": String(work.picked === a),
      "aria-label": onAltar ? t("amulets.pick_on", { amulet: capital(AMULET[a]), field: fieldName(work.fields[a]) }) : t("amulets.pick", { amulet: capital(AMULET[a]) }),
      onclick: () => { work.picked = work.picked === a ? null : a; rerender(); },
      ondragstart: (ev) => ev.dataTransfer.setData("text/plain", String(a)) },
    token(a), onAltar ? ` ${fieldName(work.fields[a])}` : ""));
  }
  // The altar.
  const altar = h("div", { class: "altar", role: "group", "aria-label": t("amulets.altar") });
  altar.append(h("span", { class: "corner" }));
  for (let c = 1; c <= 5; c++) altar.append(h("span", { class: "axis" }, String(c)));
  for (let r = 0; r < 5; r++) {
    altar.append(h("span", { class: "axis" }, LETTERS[r]));
    for (let c = 0; c < 5; c++) {
      const f = r * 5 + c;
      const a = work.fields.indexOf(f);
      const cell = h("button", { type: "button", class: `field ${a >= 0 ? "occupied" : ""}`, dataset: { field: fieldName(f), fkey: `field:${f}` },
        "aria-label": a >= 0 ? t("amulets.field_with", { field: fieldName(f), amulet: AMULET[a] }) : t("amulets.field", { field: fieldName(f) }),
        onclick: () => {
          if (work.picked !== null) place(work.picked, f);
          else if (a >= 0) { work.picked = a; rerender(); }
        },
        ondragover: (ev) => { ev.preventDefault(); cell.classList.add("over"); },
        ondragleave: () => cell.classList.remove("over"),
        ondrop: (ev) => { ev.preventDefault(); const x = Number(ev.dataTransfer.getData("text/plain")); if (x >= 0 && x < 5) place(x, f); } },
      h("span", { class: "fname" }, fieldName(f)), a >= 0 ? token(a, { draggable: "true", ondragstart: (ev) => ev.dataTransfer.setData("text/plain", String(a)) }) : null);
      altar.append(cell);
    }
  }
  const full = work.fields.every((f) => f !== null);
  const send = (kind) => { if (full) ctx.act(`${kind} ${placementText(work.fields)}`); };
  const buttons = h("div", { class: "actions-row" },
    canAsk ? h("button", { type: "button", class: "primary", id: "amulets-ask", disabled: !full || ctx.pending, onclick: () => send("ask") }, t("amulets.ask")) : null,
    canCast ? h("button", { type: "button", id: "amulets-cast", disabled: !full || ctx.pending, onclick: () => send("cast") }, t("amulets.cast")) : null,
    h("button", { type: "button", class: "small", onclick: () => { work.fields = [null, null, null, null, null]; work.picked = null; rerender(); } }, t("amulets.clear")),
    h("span", { class: "board-note" }, full ? h("span", { title: placementText(work.fields) }, placementWords(work.fields)) : t("amulets.drag")));
  return h("section", { class: "builder" }, h("h3", {}, canAsk ? t("amulets.build_ask") : t("amulets.build_cast")), tray, altar, buttons,
    !canAsk && canCast ? h("p", { class: "board-note" }, t("amulets.may_cast")) : null);
}

function spellBook(v, ctx) {
  const head = h("tr", {}, h("th", {}, "#"), h("th", {}, t("amulets.who")), h("th", {}, t("amulets.placement")),
    Array.from({ length: v.players }, (_, s) => h("th", {}, ctx.names[s])));
  const rows = v.book.map((e, i) => h("tr", { class: `entry ${e.kind} ${i === v.book.length - 1 && ctx.animate ? "fresh" : ""}` },
    h("td", {}, String(i + 1)),
    h("td", {}, e.kind === "ask" ? t("amulets.asked", { name: ctx.names[e.seat] }) : t("amulets.casted", { name: ctx.names[e.seat] })),
    h("td", {}, miniAltar(e.fields), h("span", { class: "ptext", title: placementText(e.fields) }, placementShown(e.fields))),
    // a spirit's check of a spell is said as a word (yes/no, oui/non); a question's answers keep their marks
    [...e.answers].map((ch) => h("td", { class: `ans ans-${ch === "*" ? "star" : ch === "." ? "none" : ch === "+" ? "plus" : ch === "-" ? "minus" : ch}`, title: ANSWER_TEXT[ch] || "" },
      ch === "." ? "" : ch === "y" || ch === "n" ? ANSWER_TEXT[ch] : ch))));
  return h("section", { class: "book" }, h("h3", {}, t("amulets.book")),
    h("p", { class: "legend board-note" }, t("amulets.legend")),
    v.book.length ? h("div", { class: "book-scroll" }, h("table", { class: "spell-book" }, h("thead", {}, head), h("tbody", {}, rows)))
      : h("p", { class: "board-note" }, t("amulets.no_question")));
}

// The deduction assistant: the server's exact deduction engine (coven.games.amulets.deduction) sends,
// with each view, every (field, amulet) pair still possible for each other wizard and in how many of
// the remaining joint worlds it holds. The page only draws it.
function assistant(v, ctx) {
  const box = h("section", { class: "assistant" }, h("h3", {}, t("amulets.assistant")));
  const found = v.assistant;
  if (!found) { // the server gave up working it out for this move (its deriver's budget): say so
    box.append(h("p", { class: "board-note assistant-late" }, t("amulets.assistant_late")));
    return box;
  }
  box.append(h("p", { class: "board-note" }, isOne(found.worlds) ? t("amulets.worlds.one", { n: found.worlds }) : t("amulets.worlds.other", { n: found.worlds })));
  for (const wizard of found.wizards) {
    const fields = new Map();
    for (const p of wizard.possible) fields.set(p.field, [...(fields.get(p.field) || []), p]);
    const grid = h("div", { class: "mini-altar assist" });
    for (let f = 0; f < 25; f++) {
      const ps = fields.get(f) || [];
      const weight = ps.reduce((sum, p) => sum + p.worlds, 0);
      const share = found.worlds ? Math.round((100 * weight) / found.worlds) : 0;
      grid.append(h("span", {
        class: `mf ${ps.length ? "maybe" : "no"}`,
        title: ps.length ? t("amulets.maybe", { field: fieldName(f), colours: ps.map((p) => NAMES[p.amulet]).join(", "), share }) : t("amulets.impossible", { field: fieldName(f) }),
      }, ps.length === 1 ? SHOWN[ps[0].amulet] : ps.length ? String(ps.length) : ""));
    }
    const amulets = [...new Set(wizard.possible.map((p) => p.amulet))].sort();
    box.append(h("div", { class: "assist-wizard" }, h("h4", {}, ctx.names[wizard.seat]), grid,
      h("p", { class: "board-note" }, pairsText(wizard.possible.length, amulets.map((a) => NAMES[a]).join(", ") || "—"))));
  }
  return box;
}

/** A placement's notation in words (as it is, if it cannot be read). */
function placed(placement) {
  const fields = fieldsOf(placement);
  return fields ? placementWords(fields) : placement;
}

function inWords(text, notation) {
  return h("span", { title: notation }, text);
}

function pairsText(n, colours) {
  return isOne(n) ? t("amulets.pairs.one", { n, colours }) : t("amulets.pairs.other", { n, colours });
}

export function describe(ev, ctx) {
  const d = ev.data || {};
  const n = (s) => ctx.names[s] ?? t("table.seat_n", { n: s + 1 });
  switch (ev.kind) {
    // in words, the notation in the line's tooltip: "Ana asked Red D4, …: Bea: none of these; …"
    case "question": return inWords(t("amulets.ev.question", { name: n(d.seat), placement: placed(d.placement),
      answers: (d.answers || []).map(([s, c]) => t("amulets.answer_by", { name: n(s), answer: answerWords(c) })).join(t("amulets.answer_sep")) }),
    `${d.placement}: ${(d.answers || []).map(([s, c]) => `${n(s)} ${c}`).join(", ")}`);
    case "cast": {
      const said = { name: n(d.seat), placement: placed(d.placement),
        checks: (d.checks || []).map(([s, c]) => t("amulets.answer_by", { name: n(s), answer: answerWords(c) })).join(t("amulets.answer_sep")) };
      return inWords(d.success ? t("amulets.ev.cast_ok", said) : t("amulets.ev.cast_failed", said), d.placement);
    }
    case "turn": return t("amulets.ev.turn", { name: n(d.seat) });
    case "win": return t("amulets.ev.win", { name: n(d.seat) });
    case "all_failed": return t("amulets.ev.all_failed");
    default: return null;
  }
}

/** A few lines for a newcomer (shown above the board). */
export const help = [
  t("amulets.help1"),
  t("amulets.help2"),
  t("amulets.help3"),
  t("amulets.help4"),
];
