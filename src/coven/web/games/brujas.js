// Brujas del Sábado: your hand, the trick with its Lead, the witch column beside the score cards,
// everyone's piles. Playable cards are exactly the legal actions the server sent (R3, xR3, up, down).
import { h, listing } from "../util.js";
import { t } from "../i18n.js";

// Class names (CSS) by colour letter; the shown names come from the catalogue.
const COLOUR = { R: "red", B: "blue", Y: "yellow", G: "green" };
const SHOWN = { R: t("brujas.red"), B: t("brujas.blue"), Y: t("brujas.yellow"), G: t("brujas.green") };
// A witch by her colour, whole, as each language writes it (French: "sorcière bleue", not "sorcière bleu").
const WITCH = { R: t("brujas.witch_red"), B: t("brujas.witch_blue"), Y: t("brujas.witch_yellow"), G: t("brujas.witch_green") };
const THE_WITCH = {
  R: t("brujas.the_witch_red"), B: t("brujas.the_witch_blue"), Y: t("brujas.the_witch_yellow"), G: t("brujas.the_witch_green"),
};
const direction = (d) => (d === "up" ? t("brujas.dir_up") : d === "down" ? t("brujas.dir_down") : d);

function card(name, attrs = {}, extra = "") {
  if (name === "?") return h("span", { class: "bcard down", title: t("brujas.face_down"), ...attrs }, "?");
  const c = COLOUR[name[0]] || "unknown";
  return h(attrs.onclick ? "button" : "span", { type: attrs.onclick ? "button" : undefined, class: `bcard ${c} ${extra}`,
    title: `${SHOWN[name[0]] || c} ${name.slice(1)}`, "aria-label": `${SHOWN[name[0]] || c} ${name.slice(1)}`, ...attrs },
  h("span", { class: "num" }, name.slice(1)), h("span", { class: "col" }, SHOWN[name[0]] || c));
}

function leadText(view) {
  if (!view.trick.length) return "";
  const first = view.trick[0];
  if (view.lead === "colour") return t("brujas.lead_colour", { colour: SHOWN[first[0]] });
  if (view.lead === "number") return t("brujas.lead_number", { number: first.slice(1) });
  if (view.trick.length === 1) return t("brujas.lead_next", { colour: SHOWN[first[0]], number: first.slice(1) });
  return t("brujas.lead_still", { colour: SHOWN[first[0]], number: first.slice(1) });
}

export function turnHint(ctx) {
  const v = ctx.view;
  if (v.phase === "play") return v.trick.length ? t("brujas.hint_play") : t("brujas.hint_lead");
  if (v.phase === "witch") return winningColour(v) ? t("brujas.hint_witch", { witch: THE_WITCH[winningColour(v)] }) : t("brujas.hint_witch_any");
  if (v.phase === "take") {
    const left = [...new Set(cardsLeft(v))].map(cardName);
    return left.length ? t("brujas.hint_take", { cards: listing(left, "or") }) : t("brujas.hint_take_any");
  }
  return "";
}

export function render(el, ctx) {
  const v = ctx.view;
  const legal = new Set(ctx.legal.map((a) => a.notation));
  const names = ctx.names;
  const order = (i) => (v.leader + i) % v.players; // who played the i-th card of the trick

  // The witch column beside the score cards (top = strongest colour).
  const col = h("ol", { class: "witches", "aria-label": t("brujas.column_label") });
  v.witches.forEach((w, i) => {
    const c = COLOUR[w] || w;
    const row = h("li", { class: `witch ${c}`, dataset: { colour: w } },
      h("span", { class: "score-card", title: t("brujas.score_card") }, String(v.score_values[i])),
      h("span", { class: `witch-badge ${c}` }, WITCH[w] || c));
    const movingThis = v.phase === "witch" && v.winner !== null && v.trick.length && winningColour(v) === w;
    if (movingThis) {
      row.classList.add("moving");
      for (const dir of ["up", "down"]) {
        if (legal.has(dir)) {
          row.append(h("button", { type: "button", class: "small primary", dataset: { action: dir, fkey: dir }, disabled: ctx.pending,
            onclick: () => ctx.act(dir) }, dir === "up" ? t("brujas.up") : t("brujas.down")));
        }
      }
    }
    col.append(row);
  });

  // The trick.
  const trick = h("div", { class: "trick", "aria-label": t("brujas.trick") });
  v.trick.forEach((name, i) => {
    const seat = order(i);
    const pick = `x${name}`;
    const won = v.winner !== null && v.phase !== "play" && seat === v.winner;
    const taken = takenIndexes(v).has(i);
    const attrs = legal.has(pick) && !taken
      ? { onclick: () => ctx.act(pick), dataset: { action: pick, fkey: pick }, disabled: ctx.pending }
      : {};
    // The card just played slides in (once, when the step is new).
    const fresh = ctx.animate && v.phase === "play" && i === v.trick.length - 1;
    trick.append(h("figure", { class: `played ${i === 0 ? "first" : ""} ${won ? "won" : ""} ${taken ? "taken" : ""} ${fresh ? "fresh" : ""}` },
      card(name, attrs, legal.has(pick) && !taken ? "lit" : ""),
      h("figcaption", {}, names[seat], i === 0 ? t("brujas.first") : "", won ? t("brujas.wins") : "")));
  });
  if (!v.trick.length) {
    if (v.phase !== "over") trick.append(h("p", { class: "board-note" }, t("brujas.leads_next", { name: names[v.leader] })));
    const last = v.past[v.past.length - 1];
    if (last) {
      trick.append(h("div", { class: "last-trick" }, h("span", { class: "muted" }, t("brujas.last_trick")),
        last.cards.map((c) => card(c, {}, "mini")), h("span", { class: "muted" }, t("brujas.won", { name: names[last.winner] }))));
    }
  }
  const trickBox = h("section", { class: "trick-box" }, h("h3", {}, t("brujas.trick")), h("p", { class: "lead" }, leadText(v)), trick);
  if (v.moved) trickBox.append(h("p", { class: "board-note" }, v.moved === "up" ? t("brujas.moved_up") : v.moved === "down" ? t("brujas.moved_down") : t("brujas.moved", { dir: v.moved })));
  if (v.phase === "take" && v.to_act !== null) {
    const left = cardsLeft(v).map(cardName);
    trickBox.append(h("p", { class: "board-note pick-note" }, left.length ? t("brujas.picks_left", { name: names[v.to_act], cards: left.join(", ") }) : t("brujas.picks", { name: names[v.to_act] })));
  }

  // Cards just taken slide from the trick into the taker's pile.
  const justTaken = new Set(ctx.animate ? (ctx.lastEvents || []).filter((ev) => ev.kind === "take").map((ev) => ev.data && ev.data.card) : []);

  // My hand.
  const hand = h("div", { class: "hand", role: "group", "aria-label": t("brujas.hand") });
  v.hand.forEach((name, i) => {
    const ok = legal.has(name);
    hand.append(card(name, ok
      ? { onclick: () => ctx.act(name), dataset: { action: name, fkey: `hand:${name}` }, disabled: ctx.pending, draggable: "true" }
      : {}, ok ? "lit" : ctx.readOnly ? "" : "dim"));
  });

  // Everyone's piles and hand sizes.
  const piles = h("div", { class: "piles" });
  for (let s = 0; s < v.players; s++) {
    const counts = {};
    for (const c of v.piles[s]) counts[c[0]] = (counts[c[0]] || 0) + 1;
    piles.append(h("div", { class: `pile ${s === ctx.seat ? "me" : ""}`, dataset: { seat: s } },
      h("h4", {}, names[s], h("span", { class: "muted" }, t("brujas.in_hand", { n: v.hand_sizes[s] }))),
      h("p", { class: "pile-counts" }, Object.keys(COLOUR).map((k) => counts[k]
        ? h("span", { class: `count ${COLOUR[k]}` }, `${SHOWN[k]} ${counts[k]}`) : null)),
      h("div", { class: "pile-cards" }, [...v.piles[s]].sort().map((c) => card(c, {}, `mini ${justTaken.has(c) && s === takerOf(ctx) ? "arrived" : ""}`)))));
  }

  el.append(h("div", { class: "brujas" },
    h("div", { class: "brujas-top" }, h("section", { class: "column-box" }, h("h3", {}, t("brujas.column")), col), trickBox),
    ctx.seat !== null && ctx.seat !== undefined ? h("section", { class: "hand-box" }, h("h3", {}, t("brujas.hand")), hand) : null,
    h("section", { class: "piles-box" }, h("h3", {}, t("brujas.piles")), piles),
    pastTricks(v, names)));
  enableDrop(el, ctx, legal);
}

/** The seat that took a card in the latest step. */
function takerOf(ctx) {
  const ev = (ctx.lastEvents || []).find((e) => e.kind === "take");
  return ev && ev.data ? ev.data.seat : null;
}

function winningColour(v) {
  for (let i = 0; i < v.trick.length; i++) {
    if ((v.leader + i) % v.players === v.winner && v.trick[i] !== "?") return v.trick[i][0];
  }
  return null;
}

function cardName(name) {
  return name && name !== "?" ? `${SHOWN[name[0]] || name[0]} ${name.slice(1)}` : t("brujas.a_face_down");
}

/** The cards of the trick nobody has taken yet, in play order. */
function cardsLeft(v) {
  const taken = takenIndexes(v);
  return v.trick.filter((_, i) => !taken.has(i));
}

function takenIndexes(v) {
  // Cards picked so far, matched to trick positions (identical copies: the first not yet matched).
  const used = new Set();
  for (const t of v.taken) {
    const i = v.trick.findIndex((c, k) => c === t && !used.has(k));
    if (i >= 0) used.add(i);
  }
  return used;
}

function pastTricks(v, names) {
  if (!v.past.length) return null;
  return h("details", { class: "past" }, h("summary", {}, t("brujas.earlier", { n: v.past.length })),
    h("ol", {}, v.past.map((p) => h("li", {},
      t("brujas.past", { leader: names[p.leader], cards: p.cards.join(" "), winner: names[p.winner], dir: direction(p.witch), picks: p.picks.join(" ") })))));
}

// Drag a card from the hand onto the trick (a click does the same).
function enableDrop(el, ctx, legal) {
  const target = el.querySelector(".trick-box");
  if (!target || ctx.readOnly) return;
  el.querySelectorAll(".hand .bcard[draggable=true]").forEach((c) => {
    c.addEventListener("dragstart", (ev) => ev.dataTransfer.setData("text/plain", c.dataset.action));
  });
  target.addEventListener("dragover", (ev) => { ev.preventDefault(); target.classList.add("drop-target", "over"); });
  target.addEventListener("dragleave", () => target.classList.remove("over"));
  target.addEventListener("drop", (ev) => {
    ev.preventDefault();
    target.classList.remove("over");
    const a = ev.dataTransfer.getData("text/plain");
    if (legal.has(a)) ctx.act(a);
  });
}

export function describe(ev, ctx) {
  const d = ev.data || {};
  const n = (s) => ctx.names[s] ?? t("table.seat_n", { n: s + 1 });
  const c = (x) => (x && x !== "?" ? `${SHOWN[x[0]]} ${x.slice(1)}` : t("brujas.a_face_down"));
  switch (ev.kind) {
    case "play": return t("brujas.ev.play", { name: n(d.seat), card: c(d.card) });
    case "face_down": return t("brujas.ev.face_down", { card: c(d.card) });
    case "trick": return d.lead ? t("brujas.ev.trick_lead", { name: n(d.winner), card: c(d.card), lead: d.lead === "colour" ? t("brujas.colour") : d.lead === "number" ? t("brujas.number") : d.lead }) : t("brujas.ev.trick", { name: n(d.winner), card: c(d.card) });
    case "witch": return t("brujas.ev.witch", { name: n(d.seat), witch: THE_WITCH[d.colour] || d.colour, dir: direction(d.direction) });
    case "reveal": return t("brujas.ev.reveal", { cards: (d.cards || []).map(c).join(", ") });
    case "take": return t("brujas.ev.take", { name: n(d.seat), card: c(d.card) });
    case "game_over": return t("ev.game_over", { scores: (d.scores || []).map((x, i) => `${n(i)} ${x}`).join(", ") });
    default: return null;
  }
}

export { listing };

/** A few lines for a newcomer (shown above the board). */
export const help = [
  t("brujas.help1"),
  t("brujas.help2"),
  t("brujas.help3"),
  t("brujas.help4"),
];

/** Every player's score now: what their face-up pile is worth (the view carries it; no rule here). */
export function scores(view) {
  return Array.isArray(view.scores) && view.scores.length ? view.scores : null;
}
