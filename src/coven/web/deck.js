// The deck of The 3 Commandments, browsable: every card with its English and French text, its value and
// whether it is an artefact (red) or an action (green) card, with a text filter and a type filter. The
// cards come from the server (GET /api/games/commandments/deck); a table's custom cards can be added.
import { h, clear } from "./util.js";
import { t, lang, langSwitch } from "./i18n.js";

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
  return type === "artefact" ? t("deck.type_artefact") : t("deck.type_action");
}

export function valueText(value) {
  return value === "?" ? t("deck.value_unit") : t("cmd.karma_n", { n: value });
}

/** One card as a small tile. */
export function cardTile(c, attrs = {}) {
  return h("li", { class: `deck-card ${c.type}`, dataset: { id: c.id, type: c.type }, ...attrs },
    h("div", { class: "deck-card-head" },
      h("strong", { class: "deck-id" }, c.id),
      h("span", { class: `deck-type ${c.type}` }, c.type === "artefact" ? t("cmd.artefact") : t("cmd.action")),
      h("span", { class: "deck-value", title: valueText(c.value) }, c.value === "?" ? "?" : t("cmd.karma_n", { n: c.value })),
      c.custom ? h("span", { class: "deck-custom" }, t("deck.custom")) : null),
    // Both texts are the card's own (it is printed in both languages); the page's language comes first.
    lang === "fr" ? h("p", { class: "deck-fr", lang: "fr" }, c.fr) : h("p", { class: "deck-en", lang: "en" }, c.en),
    lang === "fr" ? h("p", { class: "deck-en", lang: "en" }, c.en) : h("p", { class: "deck-fr", lang: "fr" }, c.fr),
    c.expr ? h("code", { class: "deck-expr", title: t("deck.expr") }, c.expr) : null);
}

/** The browser: filters and the list. `extra`: more cards (a table's custom cards). `prefix`: ids. */
export function deckBrowser({ extra = [], prefix = "deck" } = {}) {
  const text = h("input", { type: "search", id: `${prefix}-filter`, placeholder: t("deck.search_placeholder"), autocomplete: "off" });
  const type = h("select", { id: `${prefix}-type` },
    h("option", { value: "" }, t("deck.every")),
    h("option", { value: "artefact" }, t("deck.artefacts")),
    h("option", { value: "action" }, t("deck.actions")));
  const value = h("select", { id: `${prefix}-value` },
    h("option", { value: "" }, t("deck.any_value")),
    h("option", { value: "?" }, t("deck.counting")),
    ["1", "2", "3", "4", "5", "6", "7", "8", "9"].map((v) => h("option", { value: v }, t("cmd.karma_n", { n: v }))));
  const count = h("p", { class: "deck-count", id: `${prefix}-count`, "aria-live": "polite" }, t("deck.loading"));
  const list = h("ul", { class: "deck-list", id: `${prefix}-list` });
  const box = h("section", { class: "deck-browser", "aria-label": t("deck.label") },
    h("div", { class: "deck-filters" },
      h("div", { class: "field" }, h("label", { for: text.id }, t("deck.search")), text),
      h("div", { class: "field" }, h("label", { for: type.id }, t("deck.type")), type),
      h("div", { class: "field" }, h("label", { for: value.id }, t("deck.value")), value)),
    count, list);
  let cards = [];
  function show() {
    const words = fold(text.value).split(/\s+/).filter(Boolean);
    const shown = cards.filter((c) => (!type.value || c.type === type.value) && (!value.value || c.value === value.value)
      && words.every((w) => fold(`${c.id} ${c.en} ${c.fr} ${c.expr}`).includes(w)));
    clear(list).append(...shown.map((c) => cardTile(c)));
    const artefacts = cards.filter((c) => c.type === "artefact").length;
    count.textContent = shown.length === cards.length
      ? t("deck.count", { n: cards.length, artefacts, actions: cards.length - artefacts })
      : t("deck.match", { k: shown.length, n: cards.length });
    if (!shown.length) list.append(h("li", { class: "muted deck-none" }, t("deck.none")));
  }
  for (const el of [text, type, value]) el.addEventListener("input", show);
  loadDeck().then((deck) => {
    cards = [...deck.cards, ...extra];
    box.dataset.ready = "yes";
    show();
  }).catch((err) => {
    count.textContent = t("deck.failed", { message: err.message });
    count.classList.add("error");
  });
  return box;
}

/** The deck as a page of its own (/deck.html). */
export function mountDeckPage(root) {
  document.title = t("deck.title");
  // The page's frame (written in English in deck.html) in the page's language, with the EN/FR switch.
  const skip = document.querySelector(".skip");
  if (skip) skip.textContent = t("frame.skip");
  const brand = document.querySelector("header.site .brand");
  if (brand) brand.setAttribute("aria-label", t("frame.brand"));
  const tagline = document.querySelector("header.site .tagline");
  if (tagline) tagline.textContent = t("frame.tagline");
  const header = document.querySelector("header.site");
  if (header && !header.querySelector(".lang-switch")) header.append(langSwitch(h));
  clear(root).append(h("article", { class: "deck-page panel" },
    h("h1", {}, t("deck.heading")),
    h("p", {}, t("deck.intro")),
    h("p", {}, h("a", { href: "/" }, t("deck.back")), " · ", h("a", { href: "/rules/commandments" }, t("deck.rules"))),
    deckBrowser({ prefix: "deck" })));
}
