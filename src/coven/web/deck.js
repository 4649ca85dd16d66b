// The deck of The 3 Commandments, browsable: every card with its English and French text, its value and
// whether it is an artefact (red) or an action (green) card, with a text filter and a type filter. The
// cards come from the server (GET /api/games/commandments/deck); a table's custom cards can be added.
import { h, clear } from "./util.js";

let deckPromise = null;

/** The deck from the server, fetched once per page ({cards, language}). */
export function loadDeck() {
  if (!deckPromise) {
    deckPromise = fetch("/api/games/commandments/deck", { headers: { Accept: "application/json" } })
      .then(async (res) => {
        const data = await res.json().catch(() => null);
        if (!res.ok) throw new Error(data && data.error ? data.error.message : `${res.status} ${res.statusText}`);
        return data;
      })
      .catch((err) => { deckPromise = null; throw err; });
  }
  return deckPromise;
}

const fold = (text) => String(text).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();

/** Custom cards from a table's `custom_cards` option (a JSON list), as deck entries; [] if unreadable. */
export function customCards(option) {
  if (!option || !String(option).trim()) return [];
  try {
    const raw = JSON.parse(option);
    if (!Array.isArray(raw)) return [];
    return raw.filter((c) => c && typeof c === "object").map((c) => ({
      id: String(c.id ?? "?"), type: c.type === "artefact" ? "artefact" : "action", value: String(c.value ?? "?"),
      en: String(c.en ?? ""), fr: String(c.fr ?? c.en ?? ""), expr: String(c.expr ?? ""), custom: true }));
  } catch {
    return [];
  }
}

export function typeName(type) {
  return type === "artefact" ? "artefact card (red)" : "action card (green)";
}

export function valueText(value) {
  return value === "?" ? "? · one karma per unit" : `${value} karma`;
}

/** One card as a small tile. */
export function cardTile(c, attrs = {}) {
  return h("li", { class: `deck-card ${c.type}`, dataset: { id: c.id, type: c.type }, ...attrs },
    h("div", { class: "deck-card-head" },
      h("strong", { class: "deck-id" }, c.id),
      h("span", { class: `deck-type ${c.type}` }, c.type === "artefact" ? "artefact" : "action"),
      h("span", { class: "deck-value", title: valueText(c.value) }, c.value === "?" ? "?" : `${c.value} karma`),
      c.custom ? h("span", { class: "deck-custom" }, "custom") : null),
    h("p", { class: "deck-en", lang: "en" }, c.en),
    h("p", { class: "deck-fr", lang: "fr" }, c.fr),
    c.expr ? h("code", { class: "deck-expr", title: "the condition in the card language" }, c.expr) : null);
}

/** The browser: filters and the list. `extra`: more cards (a table's custom cards). `prefix`: ids. */
export function deckBrowser({ extra = [], prefix = "deck" } = {}) {
  const text = h("input", { type: "search", id: `${prefix}-filter`, placeholder: "words in English or French, an id (P12), a condition…", autocomplete: "off" });
  const type = h("select", { id: `${prefix}-type` },
    h("option", { value: "" }, "every card"),
    h("option", { value: "artefact" }, "artefact cards (red)"),
    h("option", { value: "action" }, "action cards (green)"));
  const value = h("select", { id: `${prefix}-value` },
    h("option", { value: "" }, "any value"),
    h("option", { value: "?" }, "? (counting)"),
    ["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((v) => h("option", { value: v }, `${v} karma`)));
  const count = h("p", { class: "deck-count", id: `${prefix}-count`, "aria-live": "polite" }, "Loading the deck…");
  const list = h("ul", { class: "deck-list", id: `${prefix}-list` });
  const box = h("section", { class: "deck-browser", "aria-label": "The deck" },
    h("div", { class: "deck-filters" },
      h("div", { class: "field" }, h("label", { for: text.id }, "Search"), text),
      h("div", { class: "field" }, h("label", { for: type.id }, "Type"), type),
      h("div", { class: "field" }, h("label", { for: value.id }, "Value"), value)),
    count, list);
  let cards = [];
  function show() {
    const words = fold(text.value).split(/\s+/).filter(Boolean);
    const shown = cards.filter((c) => (!type.value || c.type === type.value) && (!value.value || c.value === value.value)
      && words.every((w) => fold(`${c.id} ${c.en} ${c.fr} ${c.expr}`).includes(w)));
    clear(list).append(...shown.map((c) => cardTile(c)));
    const artefacts = cards.filter((c) => c.type === "artefact").length;
    count.textContent = shown.length === cards.length
      ? `${cards.length} cards: ${artefacts} artefact cards, ${cards.length - artefacts} action cards.`
      : `${shown.length} of ${cards.length} cards match.`;
    if (!shown.length) list.append(h("li", { class: "muted deck-none" }, "No card matches: clear the search or choose another type."));
  }
  for (const el of [text, type, value]) el.addEventListener("input", show);
  loadDeck().then((deck) => {
    cards = [...deck.cards, ...extra];
    box.dataset.ready = "yes";
    show();
  }).catch((err) => {
    count.textContent = `The deck could not be loaded: ${err.message}`;
    count.classList.add("error");
  });
  return box;
}

/** The deck as a page of its own (/deck.html). */
export function mountDeckPage(root) {
  document.title = "Coven — the deck of The 3 Commandments";
  clear(root).append(h("article", { class: "deck-page panel" },
    h("h1", {}, "The deck of The 3 Commandments"),
    h("p", {}, "The High Priestess draws two artefact cards (red backs: judged on the board) and two action cards (green backs: judged on the novice's performance). ",
      "A card with a value gives that karma when its condition holds; a “?” card gives one karma per unit it counts. ",
      "Every card is shown in English and French."),
    h("p", {}, h("a", { href: "/" }, "Back to the lobby"), " · ", h("a", { href: "/rules/commandments" }, "The rules")),
    deckBrowser({ prefix: "deck" })));
}
