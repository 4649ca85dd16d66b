// The 3 Commandments' custom cards, made in a form in the lobby: text (English, French), value (1-9 or
// ?), type (artefact or action) and the condition in the card language, with a live preview in which the
// server checks the card (as it checks the custom_cards option) and judges it on a sample board
// (POST /api/games/commandments/cards/preview). The cards made feed the custom_cards option's JSON.
import { h, clear } from "../util.js";
import { loadDeck } from "../deck.js";
import { t, lang, errorText } from "../i18n.js";

const VALUES = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "?"];

function readCards(text) {
  if (!text.trim()) return [];
  try {
    const raw = JSON.parse(text);
    return Array.isArray(raw) ? raw : null;
  } catch {
    return null;
  }
}

async function askPreview(card) {
  let res;
  try {
    res = await fetch("/api/games/commandments/cards/preview", {
      method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify({ card }) });
  } catch (err) {
    return { error: t("cc.unreachable", { message: err.message }) };
  }
  const data = await res.json().catch(() => null);
  if (!res.ok) return { error: data && data.error ? errorText(data.error.code, data.error.message, null, data.error.reason) : `${res.status} ${res.statusText}` };
  return { preview: data };
}

/** The custom_cards option as a card maker (the raw JSON stays editable beneath it). */
export function customCardsField(opt, idPrefix) {
  const rawId = `${idPrefix}-${opt.key}`;
  const raw = h("textarea", { id: rawId, name: opt.key, rows: 3, class: "custom-json", spellcheck: "false" });
  raw.value = opt.default ?? "";
  const cid = h("input", { type: "text", id: "cc-id", maxlength: 16, value: "MY1", autocomplete: "off" });
  const ctype = h("select", { id: "cc-type" }, h("option", { value: "action" }, t("cc.type_action")),
    h("option", { value: "artefact" }, t("cc.type_artefact")));
  const cvalue = h("select", { id: "cc-value" }, VALUES.map((v) => h("option", { value: v, selected: v === "2" }, v === "?" ? t("cc.value_unit") : t("cmd.karma_n", { n: v }))));
  const cen = h("input", { type: "text", id: "cc-en", maxlength: 200, placeholder: t("cc.en_placeholder"), autocomplete: "off" });
  const cfr = h("input", { type: "text", id: "cc-fr", maxlength: 200, placeholder: "Si vous vous inclinez", autocomplete: "off" });
  const cexpr = h("textarea", { id: "cc-expr", rows: 2, maxlength: 400, placeholder: 'did("bow")', spellcheck: "false" });
  const start = h("select", { id: "cc-from", "aria-label": t("cc.from_label") }, h("option", { value: "" }, t("cc.from")));
  const preview = h("div", { class: "cc-preview", id: "cc-preview", "aria-live": "polite" },
    h("p", { class: "muted" }, t("cc.write")));
  const add = h("button", { type: "button", id: "cc-add", class: "small", disabled: true }, t("cc.add"));
  const list = h("ul", { class: "cc-list", id: "cc-list" });
  const words = h("div", { class: "cc-words muted" });

  const card = () => ({ id: cid.value.trim(), type: ctype.value, value: cvalue.value === "?" ? "?" : Number(cvalue.value),
    en: cen.value.trim(), fr: cfr.value.trim() || cen.value.trim(), expr: cexpr.value });

  function renderList() {
    const cards = readCards(raw.value);
    clear(list);
    if (cards === null) {
      list.append(h("li", { class: "error" }, t("cc.bad_json")));
      return;
    }
    cards.forEach((c, k) => list.append(h("li", { class: `cc-item ${c && c.type === "artefact" ? "artefact" : "action"}` },
      h("strong", {}, String(c && c.id)), ` · ${c && c.type} · ${c && c.value} · ${c && c.en}`, " ",
      h("button", { type: "button", class: "small", "aria-label": t("cc.remove_label", { id: c && c.id }), onclick: () => {
        const now = readCards(raw.value) || [];
        now.splice(k, 1);
        raw.value = now.length ? JSON.stringify(now) : "";
        raw.dispatchEvent(new Event("input", { bubbles: true }));
      } }, t("cc.remove")))));
  }

  let asked = 0;
  let timer = null;
  let lastOk = null;
  async function check() {
    const mine = ++asked;
    const c = card();
    if (!c.en || !c.expr.trim()) {
      add.disabled = true;
      clear(preview).append(h("p", { class: "muted" }, t("cc.need")));
      return;
    }
    clear(preview).append(h("p", { class: "muted" }, t("cc.checking")));
    const { error, preview: out } = await askPreview(c);
    if (mine !== asked) return; // a newer question is on its way
    if (error) {
      lastOk = null;
      add.disabled = true;
      clear(preview).append(h("p", { class: "error", id: "cc-error" }, t("cc.invalid", { error })));
      return;
    }
    lastOk = c;
    const taken = (readCards(raw.value) || []).some((x) => x && x.id === c.id);
    add.disabled = taken;
    const hits = out.sample.filter((s) => s.marked).length;
    clear(preview).append(
      h("p", { class: "cc-ok" }, t("cc.valid", { id: out.card.id, type: out.card.type === "artefact" ? t("cmd.artefact") : t("cmd.action"),
        value: out.card.value === "?" ? "?" : t("cmd.karma_n", { n: out.card.value }) }),
        t("cc.matches", { k: hits, n: out.sample.length, cost: out.cost, max: out.max_cost }),
        taken ? h("strong", { class: "error" }, t("cc.taken", { id: c.id })) : null),
      h("table", { class: "cc-sample", id: "cc-sample" },
        h("thead", {}, h("tr", {}, h("th", {}, t("cc.sample_move")), h("th", {}, t("cc.from_col")), h("th", {}, t("cc.karma")))),
        h("tbody", {}, out.sample.map((s) => h("tr", { class: s.marked ? "marked" : "" },
          h("td", {}, h("code", {}, s.move)), h("td", {}, s.start), h("td", { class: "cc-karma" }, s.marked ? String(s.karma) : "—"))))),
      h("p", { class: "muted" }, t("cc.sample_board", { board: out.board.join(" ") })));
  }
  const later = () => { clearTimeout(timer); timer = setTimeout(check, 250); };
  for (const el of [cid, ctype, cvalue, cen, cfr, cexpr]) {
    el.addEventListener("input", later);
    el.addEventListener("change", later);
    // Enter in the card maker never submits the table's form.
    el.addEventListener("keydown", (ev) => { if (ev.key === "Enter" && el.tagName !== "TEXTAREA") ev.preventDefault(); });
  }
  add.addEventListener("click", () => {
    if (!lastOk) return;
    const cards = readCards(raw.value) || [];
    cards.push(lastOk);
    raw.value = JSON.stringify(cards);
    const m = /^(.*?)(\d+)$/.exec(lastOk.id);
    cid.value = m ? `${m[1]}${Number(m[2]) + 1}` : `${lastOk.id}2`;
    raw.dispatchEvent(new Event("input", { bubbles: true }));
    later();
  });
  raw.addEventListener("input", renderList);

  loadDeck().then((deck) => {
    start.append(...deck.cards.map((c) => h("option", { value: c.id }, `${c.id} · ${lang === "fr" ? c.fr || c.en : c.en}`)));
    start.addEventListener("change", () => {
      const c = deck.cards.find((x) => x.id === start.value);
      if (!c) return;
      ctype.value = c.type; cvalue.value = c.value; cen.value = c.en; cfr.value = c.fr; cexpr.value = c.expr;
      later();
    });
    const L = deck.language;
    words.append(
      h("p", {}, h("strong", {}, t("cc.artefact_cards")), t("cc.board_words", { words: L.board_words.join(", "), areas: L.areas.join(" "), colours: L.colours.join(", "), kinds: L.kinds.join(", ") })),
      h("p", {}, h("strong", {}, t("cc.action_cards")), t("cc.performance_words", { words: L.performance_words.join(", "), gestures: L.gestures.join(", "), touches: L.touches.join(", "), sayings: L.sayings.join(", ") })),
      h("p", {}, t("cc.lang_a"), h("code", {}, 'did("bow") and silent'), t("cc.lang_b"), h("code", {}, "min(words, 3)"), t("cc.lang_c", { n: L.max_text })));
  }).catch(() => { words.append(h("p", {}, t("cc.no_words"))); });
  renderList();

  return h("fieldset", { class: "field custom-cards" },
    h("legend", {}, h("strong", {}, t("optname.custom_cards")), t("cc.legend")),
    h("div", { class: "cc-grid" },
      h("div", { class: "field" }, h("label", { for: "cc-from" }, t("cc.example")), start),
      h("div", { class: "field" }, h("label", { for: "cc-id" }, t("cc.id")), cid),
      h("div", { class: "field" }, h("label", { for: "cc-type" }, t("deck.type")), ctype),
      h("div", { class: "field" }, h("label", { for: "cc-value" }, t("deck.value")), cvalue),
      h("div", { class: "field" }, h("label", { for: "cc-en" }, t("cc.text_en")), cen),
      h("div", { class: "field" }, h("label", { for: "cc-fr" }, t("cc.text_fr")), cfr)),
    h("div", { class: "field" }, h("label", { for: "cc-expr" }, t("cc.condition")), cexpr),
    h("details", { class: "cc-help" }, h("summary", {}, t("cc.language")), words),
    preview, h("div", { class: "actions-row" }, add), list,
    h("div", { class: "field" }, h("label", { for: rawId }, t("cc.json")), raw));
}
