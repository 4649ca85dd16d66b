// Brujas del Sábado: your hand, the trick with its Lead, the witch column beside the score cards,
// everyone's piles. Playable cards are exactly the legal actions the server sent (R3, xR3, up, down).
import { h, listing } from "../util.js";

const COLOUR = { R: "red", B: "blue", Y: "yellow", G: "green" };

function card(name, attrs = {}, extra = "") {
  if (name === "?") return h("span", { class: "bcard down", title: "face down", ...attrs }, "?");
  const c = COLOUR[name[0]] || "unknown";
  return h(attrs.onclick ? "button" : "span", { type: attrs.onclick ? "button" : undefined, class: `bcard ${c} ${extra}`,
    title: `${c} ${name.slice(1)}`, "aria-label": `${c} ${name.slice(1)}`, ...attrs },
  h("span", { class: "num" }, name.slice(1)), h("span", { class: "col" }, c));
}

function leadText(view) {
  if (!view.trick.length) return "";
  const first = view.trick[0];
  if (view.lead === "colour") return `Lead: colour — follow ${COLOUR[first[0]]} if you can`;
  if (view.lead === "number") return `Lead: number — follow a ${first.slice(1)} if you can`;
  if (view.trick.length === 1) return `No Lead yet: the next card decides it — match ${COLOUR[first[0]]} (colour) or ${first.slice(1)} (number)`;
  return `No Lead yet — the next player must still match ${COLOUR[first[0]]} or ${first.slice(1)}`;
}

export function turnHint(ctx) {
  const v = ctx.view;
  if (v.phase === "play") return v.trick.length ? "play a lit card from your hand." : "lead a card from your hand.";
  if (v.phase === "witch") return `you won the trick: move the ${COLOUR[winningColour(v)] || "winning colour's"} witch up or down.`;
  if (v.phase === "take") {
    const left = [...new Set(cardsLeft(v))].map(cardName);
    return left.length ? `take one card of the trick: ${listing(left, "or")}.` : "take a card from the trick.";
  }
  return "";
}

export function render(el, ctx) {
  const v = ctx.view;
  const legal = new Set(ctx.legal.map((a) => a.notation));
  const names = ctx.names;
  const order = (i) => (v.leader + i) % v.players; // who played the i-th card of the trick

  // The witch column beside the score cards (top = strongest colour).
  const col = h("ol", { class: "witches", "aria-label": "The witch column, strongest at the top" });
  v.witches.forEach((w, i) => {
    const c = COLOUR[w] || w;
    const row = h("li", { class: `witch ${c}`, dataset: { colour: w } },
      h("span", { class: "score-card", title: "score card" }, String(v.score_values[i])),
      h("span", { class: `witch-badge ${c}` }, `${c} witch`));
    const movingThis = v.phase === "witch" && v.winner !== null && v.trick.length && winningColour(v) === w;
    if (movingThis) {
      row.classList.add("moving");
      for (const dir of ["up", "down"]) {
        if (legal.has(dir)) {
          row.append(h("button", { type: "button", class: "small primary", dataset: { action: dir, fkey: dir }, disabled: ctx.pending,
            onclick: () => ctx.act(dir) }, dir === "up" ? "▲ up" : "▼ down"));
        }
      }
    }
    col.append(row);
  });

  // The trick.
  const trick = h("div", { class: "trick", "aria-label": "The trick" });
  v.trick.forEach((name, i) => {
    const seat = order(i);
    const pick = `x${name}`;
    const won = v.winner !== null && v.phase !== "play" && seat === v.winner;
    const taken = takenIndexes(v).has(i);
    const attrs = legal.has(pick) && !taken
      ? { onclick: () => ctx.act(pick), dataset: { action: pick, fkey: pick }, disabled: ctx.pending }
      : {};
    const fresh = v.phase === "play" && i === v.trick.length - 1;
    trick.append(h("figure", { class: `played ${i === 0 ? "first" : ""} ${won ? "won" : ""} ${taken ? "taken" : ""} ${fresh ? "fresh" : ""}` },
      card(name, attrs, legal.has(pick) && !taken ? "lit" : ""),
      h("figcaption", {}, names[seat], i === 0 ? " · first" : "", won ? " · wins" : "")));
  });
  if (!v.trick.length) {
    trick.append(h("p", { class: "board-note" }, `${names[v.leader]} leads the next trick.`));
    const last = v.past[v.past.length - 1];
    if (last) {
      trick.append(h("div", { class: "last-trick" }, h("span", { class: "muted" }, "Last trick: "),
        last.cards.map((c) => card(c, {}, "mini")), h("span", { class: "muted" }, ` ${names[last.winner]} won`)));
    }
  }
  const trickBox = h("section", { class: "trick-box" }, h("h3", {}, "The trick"), h("p", { class: "lead" }, leadText(v)), trick);
  if (v.moved) trickBox.append(h("p", { class: "board-note" }, `The witch moved ${v.moved}.`));
  if (v.phase === "take" && v.to_act !== null) {
    const left = cardsLeft(v).map(cardName);
    trickBox.append(h("p", { class: "board-note pick-note" }, `${names[v.to_act]} picks a card${left.length ? ` — left in the trick: ${left.join(", ")}` : ""}.`));
  }

  // My hand.
  const hand = h("div", { class: "hand", role: "group", "aria-label": "Your hand" });
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
      h("h4", {}, names[s], h("span", { class: "muted" }, ` · ${v.hand_sizes[s]} in hand`)),
      h("p", { class: "pile-counts" }, Object.keys(COLOUR).map((k) => counts[k]
        ? h("span", { class: `count ${COLOUR[k]}` }, `${COLOUR[k]} ${counts[k]}`) : null)),
      h("div", { class: "pile-cards" }, [...v.piles[s]].sort().map((c) => card(c, {}, "mini")))));
  }

  el.append(h("div", { class: "brujas" },
    h("div", { class: "brujas-top" }, h("section", { class: "column-box" }, h("h3", {}, "Witch column"), col), trickBox),
    ctx.seat !== null && ctx.seat !== undefined ? h("section", { class: "hand-box" }, h("h3", {}, "Your hand"), hand) : null,
    h("section", { class: "piles-box" }, h("h3", {}, "Piles"), piles),
    pastTricks(v, names)));
  enableDrop(el, ctx, legal);
}

function winningColour(v) {
  for (let i = 0; i < v.trick.length; i++) {
    if ((v.leader + i) % v.players === v.winner && v.trick[i] !== "?") return v.trick[i][0];
  }
  return null;
}

function cardName(name) {
  return name && name !== "?" ? `${COLOUR[name[0]] || name[0]} ${name.slice(1)}` : "a face-down card";
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
  return h("details", { class: "past" }, h("summary", {}, `Earlier tricks (${v.past.length})`),
    h("ol", {}, v.past.map((t) => h("li", {},
      `${names[t.leader]} led: ${t.cards.join(" ")} — ${names[t.winner]} won, witch ${t.witch}; picks ${t.picks.join(" ")}`))));
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
  const n = (s) => ctx.names[s] ?? `seat ${s + 1}`;
  const c = (x) => (x && x !== "?" ? `${COLOUR[x[0]]} ${x.slice(1)}` : "a face-down card");
  switch (ev.kind) {
    case "play": return `${n(d.seat)} played ${c(d.card)}`;
    case "face_down": return `You played ${c(d.card)} face down`;
    case "trick": return `${n(d.winner)} wins the trick with ${c(d.card)}${d.lead ? ` (Lead: ${d.lead})` : " (no Lead)"}`;
    case "witch": return `${n(d.seat)} moved the ${COLOUR[d.colour] || d.colour} witch ${d.direction}`;
    case "reveal": return `The trick, face up: ${(d.cards || []).map(c).join(", ")}`;
    case "take": return `${n(d.seat)} took ${c(d.card)}`;
    case "game_over": return `Game over: ${(d.scores || []).map((x, i) => `${n(i)} ${x}`).join(", ")}`;
    default: return null;
  }
}

export { listing };

/** A few lines for a newcomer (shown above the board). */
export const help = [
  "A trick-taking game where the second card decides what leads: matching the first card's colour makes it a colour trick, matching its number a number trick.",
  "After that, follow the Lead if you can; a card that does not follow cannot win. Colour trick: the highest number wins. Number trick: the colour whose witch stands highest wins.",
  "The winner moves the winning colour's witch one step up or down the column, then everyone, from the winner on, takes one card of the trick.",
  "At the end you score the value beside the witch of the colour you collected most of, plus 2 for each number (1 to 5) you collected the most cards of, ties included. Lit cards are the ones you may play.",
];

/** Every player's score now: what their face-up pile is worth (the view carries it; no rule here). */
export function scores(view) {
  return Array.isArray(view.scores) && view.scores.length ? view.scores : null;
}
