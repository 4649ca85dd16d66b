// The generic board: the view as readable panels and the legal actions as buttons. Every game is
// playable with it, before (or instead of) its own board.
import { h, show } from "../util.js";
import { t } from "../i18n.js";

export const name = "generic";

function panel(key, value, ctx) {
  if (Array.isArray(value) && value.length && value.length === ctx.players && value.every((v) => typeof v !== "object" || v === null || Array.isArray(v))) {
    // One entry per seat.
    return h("div", { class: "kv" }, h("h4", {}, key),
      h("ul", {}, value.map((v, i) => h("li", { class: i === ctx.seat ? "me" : "" },
        h("strong", {}, t("generic.who", { name: ctx.names[i] ?? t("table.seat_n", { n: i + 1 }) })), show(v)))));
  }
  if (value && typeof value === "object" && !Array.isArray(value)) {
    return h("div", { class: "kv" }, h("h4", {}, key),
      h("dl", {}, Object.entries(value).map(([k, v]) => [h("dt", {}, k), h("dd", {}, show(v))])));
  }
  return h("div", { class: "kv" }, h("h4", {}, key), h("p", {}, show(value)));
}

export function render(el, ctx) {
  const view = ctx.view || {};
  const panels = h("div", { class: "generic-view" },
    Object.entries(view).filter(([k]) => k !== "options").map(([k, v]) => panel(k, v, ctx)));
  el.append(panels);
  if (!ctx.readOnly && ctx.legal.length) {
    el.append(h("div", { class: "generic-actions", role: "group", "aria-label": t("generic.moves") },
      h("h4", {}, t("generic.moves")),
      ctx.legal.map((a) => h("button", { type: "button", class: "move", dataset: { action: a.notation, fkey: `move:${a.notation}` },
        onclick: () => ctx.act(a.notation) }, a.notation))));
  }
}

export function describe(ev) {
  const parts = Object.entries(ev.data || {}).map(([k, v]) => `${k} ${show(v)}`);
  return `${ev.kind.replaceAll("_", " ")}${parts.length ? `: ${parts.join(", ")}` : ""}`;
}
