// The end of a game: final scores, why each player scored what they scored (with links to the replay at
// the steps that made the difference), the chart of the scores over the game, and the replay — first from
// this seat's own view, then revealed in full.
import { api } from "./api.js";
import { scoreChart } from "./chart.js";
import { generic } from "./games/index.js";
import { h, clear, button, listing, fmtScore } from "./util.js";
import { t, errorText, messageText } from "./i18n.js";

export async function showResult(table, box) {
  const names = table.names();
  const result = table.result;
  box.hidden = false;
  clear(box).classList.add("panel");
  const winners = result.winners.map((i) => names[i]);
  box.append(h("h2", { id: "result-h" }, t("result.title")),
    h("p", { class: "winners" }, winners.length ? (winners.length > 1 ? t("result.share", { names: listing(winners) }) : t("result.wins", { name: winners[0] })) : t("result.nobody")));
  // What next: another table of this game for as many players, from the lobby's form (the top's lobby
  // link is a whole page up on a phone)
  const again = `/?game=${encodeURIComponent(table.game)}&players=${encodeURIComponent(table.players)}`;
  box.append(h("p", { class: "next" }, h("a", { href: again, class: "button small primary new-table", id: "new-table" },
    t("result.new_table", { game: table.info ? table.info.title : table.game }))));
  const order = [...result.scores.keys()].sort((a, b) => result.scores[b] - result.scores[a]);
  box.append(h("ol", { class: "final-scores", id: "final-scores" }, order.map((i) =>
    h("li", { dataset: { seat: i, score: result.scores[i] } }, t("chat.who", { name: names[i] }), h("strong", { class: "final-score" }, fmtScore(result.scores[i])),
      result.winners.includes(i) ? " ★" : ""))));
  const whyBox = h("section", { class: "explanation", id: "explanation", "aria-labelledby": "explanation-h" },
    h("h3", { id: "explanation-h" }, t("result.why")), h("p", { class: "muted" }, t("result.explaining")));
  const chartBox = h("div", { class: "chart-holder", id: "chart" }, h("p", { class: "muted" }, t("result.drawing")));
  const replayBox = h("div", { class: "replay", id: "replay" });
  box.append(whyBox, chartBox, replayBox);
  explanationStyle();

  const [mine, why] = await Promise.all([
    api.replay(table.tableId, { seat: table.seat, token: table.token }).catch((err) => err),
    fetchExplanation(table).catch((err) => err),
  ]);
  const replay = mine instanceof Error ? null : mine;
  if (!replay) clear(chartBox).append(h("p", { class: "muted" }, t("result.no_replay", { message: errorText(mine.code, mine.message) })));
  const replayer = replay ? new Replayer(table, replayBox, replay) : null;
  if (why instanceof Error) {
    whyBox.lastChild.textContent = t("result.no_explanation", { message: errorText(why.code, why.message) });
  } else {
    shownParams = table.board && table.board.explainedParams ? table.board.explainedParams : (params) => params;
    showExplanation(whyBox, why, names, result, replayer);
  }
  if (replay) clear(chartBox).append(scoreChart(scoreSeries(table, replay), names));
  if (replayer) replayer.mount();
  box.dataset.ready = "yes";
}

// GET /api/tables/{id}/explanation?seat= (with the seat's token: a table that keeps its secrets asks for it).
async function fetchExplanation(table) {
  const q = table.seat !== null && table.seat !== undefined ? `?seat=${table.seat}` : "";
  const headers = { Accept: "application/json" };
  if (table.token) headers.Authorization = `Bearer ${table.token}`;
  const res = await fetch(`/api/tables/${encodeURIComponent(table.tableId)}/explanation${q}`, { headers });
  const data = await res.json().catch(() => null);
  if (!res.ok) {
    const err = new Error(data && data.error ? data.error.message : `${res.status} ${res.statusText}`);
    err.code = data && data.error ? data.error.code : undefined;
    throw err;
  }
  return data;
}

/** The explanation's texts name seats as {s2}: put the players' names there. */
function fillNames(text, names) {
  return text.replace(/\{s(\d{1,2})\}/g, (_, k) => names[Number(k)] ?? t("result.seat_k", { k }));
}

// Each text of an explanation comes in English with its message key and params (see coven.core.explain):
// shown through the catalogue in the page's language, or as the English text when the catalogue lacks a key.
// The table's board may show some of the parameters its own way (Amulets: a placement in the page's letters).
let shownParams = (params) => params;

function said(text, key, params) {
  if (!key) return text;
  const out = messageText(key, shownParams(params || {}));
  return out === null ? text : out;
}

function noteTexts(notes, keys) {
  return notes.map((text, i) => said(text, keys && keys[i] ? keys[i].key : "", keys && keys[i] ? keys[i].params : {}));
}

function pointsText(x) {
  if (!x) return "0";
  return `${x > 0 ? "+" : "−"}${fmtScore(Math.abs(x))}`;
}

function showExplanation(box, why, names, result, replayer) {
  const stepLinks = (steps) => {
    if (!steps.length || !replayer) return null;
    const shown = steps.slice(0, 8);
    return h("span", { class: "step-links" }, shown.map((st) => button(t("result.step", { n: st }), () => replayer.goTo(st),
      { class: "step-link link", dataset: { step: st }, title: t("result.step_title", { n: st }) })),
    steps.length > shown.length ? h("span", { class: "muted" }, ` +${steps.length - shown.length}`) : null);
  };
  const order = [...why.seats].sort((a, b) => b.score - a.score || a.seat - b.seat);
  clear(box).append(h("h3", { id: "explanation-h" }, t("result.why")),
    h("p", { class: "why-summary", id: "why-summary" }, fillNames(said(why.summary, why.summary_key, why.summary_params), names)));
  for (const seat of order) {
    const won = result.winners.includes(seat.seat);
    box.append(h("div", { class: `why-seat${won ? " why-winner" : ""}`, dataset: { seat: seat.seat, total: seat.score } },
      h("h4", {}, t("chat.who", { name: names[seat.seat] }), h("strong", {}, fmtScore(seat.score)), won ? " ★" : ""),
      seat.lines.length
        ? h("table", { class: "why-lines" }, h("tbody", {}, seat.lines.map((line) =>
          h("tr", { class: "why-line", dataset: { points: line.points } },
            h("td", { class: "why-points" }, pointsText(line.points)),
            h("td", { class: "why-label" }, fillNames(said(line.label, line.key, line.params), names), " ", stepLinks(line.steps))))))
        : h("p", { class: "muted" }, t("result.nothing")),
      seat.notes.length ? h("ul", { class: "why-notes muted" }, noteTexts(seat.notes, seat.note_keys).map((n) => h("li", {}, fillNames(n, names)))) : null));
  }
  if (why.notes.length) {
    box.append(h("ul", { class: "why-table-notes" }, noteTexts(why.notes, why.note_keys).map((n) => h("li", {}, fillNames(n, names)))));
  }
}

function explanationStyle() {
  if (document.getElementById("explanation-style")) return;
  document.head.append(h("style", { id: "explanation-style" }, `
.explanation { margin: 10px 0 14px; }
.why-summary { font-weight: 600; }
.why-seat { margin: 8px 0; padding: 6px 10px; border-left: 4px solid var(--line, #ccc); }
.why-seat.why-winner { border-left-color: #c9a400; }
.why-seat h4 { margin: 0 0 4px; }
.why-lines { border-collapse: collapse; width: 100%; }
.why-lines td { padding: 2px 6px; vertical-align: top; overflow-wrap: anywhere; }
.why-points { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; width: 3.5em; font-weight: 600; }
.step-links { display: inline-flex; flex-wrap: wrap; gap: 4px; }
.step-link { font-size: 0.8rem; padding: 0 6px; min-height: 0; line-height: 1.6; }
.why-notes, .why-table-notes { margin: 4px 0; padding-left: 1.2em; font-size: 0.9rem; }
`));
}

function scoreSeries(table, replay) {
  let series = [];
  if (replay && replay.steps.every((st) => Array.isArray(st.scores))) {
    series = replay.steps.map((st) => ({ number: st.number, scores: st.scores }));
  } else if (replay && table.board.scores) {
    try {
      series = replay.steps.map((st) => ({ number: st.number, scores: table.board.scores(st.view) }));
    } catch {
      series = [];
    }
  }
  if (!series.length) series = [...table.scoreHistory];
  if (!series.length || series[0].number > 0) series.unshift({ number: 0, scores: table.result.scores.map(() => 0) });
  const final = { number: series[series.length - 1].number, scores: table.result.scores };
  series[series.length - 1] = final;
  return series;
}

class Replayer {
  constructor(table, box, replay) {
    this.table = table;
    this.box = box;
    this.replay = replay;
    this.index = 0;
    this.revealed = false;
  }

  mount() {
    this.head = h("div", { class: "replay-head" });
    this.stage = h("div", { class: "replay-stage board" });
    this.events = h("ul", { class: "replay-events" });
    this.slider = h("input", { type: "range", min: 0, max: Math.max(0, this.replay.steps.length - 1), value: 0,
      id: "replay-slider", "aria-label": t("replay.step_label"), oninput: () => this.go(Number(this.slider.value)) });
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": t("replay.controls") },
      button(t("replay.first"), () => this.go(0), { id: "replay-first" }),
      button(t("replay.back"), () => this.go(this.index - 1), { id: "replay-prev" }),
      this.slider,
      button(t("replay.next"), () => this.go(this.index + 1), { id: "replay-next" }),
      button(t("replay.last"), () => this.go(this.replay.steps.length - 1), { id: "replay-last" }));
    this.revealBtn = this.table.reveals === false
      ? h("p", { class: "muted", id: "replay-secret" }, t("replay.secret"))
      : button(t("replay.reveal"), () => this.reveal(), { id: "replay-reveal", class: "primary" });
    clear(this.box).append(h("h3", {}, t("replay.title")), this.head, controls, this.revealBtn, this.stage,
      h("h4", {}, t("replay.at_step")), this.events);
    this.box.addEventListener("keydown", (ev) => {
      if (ev.target === this.slider) return;
      if (ev.key === "ArrowRight") { this.go(this.index + 1); ev.preventDefault(); }
      if (ev.key === "ArrowLeft") { this.go(this.index - 1); ev.preventDefault(); }
    });
    this.go(0);
  }

  async reveal() {
    this.revealBtn.disabled = true;
    try {
      const full = await api.replay(this.table.tableId, { reveal: true });
      // Every seat's own view, step by step (all public once the game is over), so that "in full"
      // shows each hand, not only what a spectator saw.
      if (!full.steps.every((st) => Array.isArray(st.views))) {
        const seats = await Promise.all(this.table.result.scores.map((_, k) => api.replay(this.table.tableId, { seat: k })));
        full.steps.forEach((st, i) => { st.views = seats.map((r) => (r.steps[i] ? r.steps[i].view : st.view)); });
      }
      this.replay = full;
      this.revealed = true;
      this.revealBtn.textContent = t("replay.revealed");
      this.slider.max = Math.max(0, this.replay.steps.length - 1);
      this.go(Math.min(this.index, this.replay.steps.length - 1));
    } catch (err) {
      this.revealBtn.disabled = false;
      this.head.append(h("p", { class: "error" }, t("replay.reveal_failed", { message: errorText(err.code, err.message) })));
    }
  }

  /** Move the replay to the step numbered `number` (an explanation's link) and bring it into view. */
  goTo(number) {
    const i = this.replay.steps.findIndex((st) => st.number === number);
    this.go(i >= 0 ? i : number);
    this.box.scrollIntoView({ block: "start", behavior: "smooth" });
    this.slider.focus({ preventScroll: true });
  }

  go(i) {
    const steps = this.replay.steps;
    if (!steps.length) return;
    this.index = Math.max(0, Math.min(steps.length - 1, i));
    this.slider.value = String(this.index);
    const st = steps[this.index];
    const names = this.table.names();
    const who = this.revealed ? t("replay.who_full") : this.replay.seat === null ? t("replay.who_spectator") : t("replay.who_you");
    // Who acted, and (revealed in full) what they did as the log says it rather than in the action's
    // notation: the step's first public event about the actor (else its first public event).
    const open = st.action ? st.events.filter((ev) => !ev.audience) : [];
    const about = open.find((ev) => ev.data && ev.data.seat === st.actor) || open[0];
    // (a board may say a line in words with its notation in a tooltip: the caption takes the words)
    const line = about ? this.table.describe(about) : null;
    const did = line instanceof Node ? line.textContent : line;
    clear(this.head).append(h("p", { id: "replay-caption" }, t("replay.step_of", { n: st.number, last: steps[steps.length - 1].number, who }),
      st.actor !== null && st.actor !== undefined ? (did ? t("replay.did", { event: did }) : ` — ${names[st.actor]}`) : ""));
    clear(this.stage);
    const views = this.revealed && Array.isArray(st.views) ? st.views : [st.view];
    views.forEach((view, k) => {
      const holder = h("div", { class: "replay-view" });
      if (views.length > 1) holder.append(h("h4", {}, t("replay.seen_by", { name: names[k] })));
      const ctx = this.table.ctx({ view, legal: null, readOnly: true, events: st.events });
      if (views.length > 1) ctx.seat = k;
      try {
        this.table.board.render(holder, ctx);
      } catch {
        clear(holder);
        generic.render(holder, ctx);
      }
      this.stage.append(holder);
    });
    clear(this.events).append(...st.events.map((ev) => h("li", {}, this.table.describe(ev),
      ev.audience ? h("span", { class: "muted" }, t("replay.audience", { names: ev.audience.map((s) => names[s]).join(", ") })) : null)),
      ...(this.replay.chat || []).filter((c) => c.number === st.number).map((c) =>
        h("li", { class: "replay-chat" }, t("replay.said", { name: names[c.seat] }), h("q", {}, c.text))));
  }
}
