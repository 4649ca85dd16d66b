// The end of a game: final scores, the chart of the scores over the game, and the replay — first from
// this seat's own view, then revealed in full.
import { api } from "./api.js";
import { scoreChart } from "./chart.js";
import { generic } from "./games/index.js";
import { h, clear, button, listing, fmtScore } from "./util.js";

export async function showResult(table, box) {
  const names = table.names();
  const result = table.result;
  box.hidden = false;
  clear(box).classList.add("panel");
  const winners = result.winners.map((i) => names[i]);
  box.append(h("h2", { id: "result-h" }, "Result"),
    h("p", { class: "winners" }, winners.length ? `${listing(winners)} ${winners.length > 1 ? "share the win" : "wins"}!` : "Nobody wins."));
  const order = [...result.scores.keys()].sort((a, b) => result.scores[b] - result.scores[a]);
  box.append(h("ol", { class: "final-scores", id: "final-scores" }, order.map((i) =>
    h("li", { dataset: { seat: i, score: result.scores[i] } }, `${names[i]}: `, h("strong", { class: "final-score" }, fmtScore(result.scores[i])),
      result.winners.includes(i) ? " ★" : ""))));
  const chartBox = h("div", { class: "chart-holder", id: "chart" }, h("p", { class: "muted" }, "Drawing the chart…"));
  const replayBox = h("div", { class: "replay", id: "replay" });
  box.append(chartBox, replayBox);

  let mine = null;
  try {
    mine = await api.replay(table.tableId, { seat: table.seat, token: table.token });
  } catch (err) {
    clear(chartBox).append(h("p", { class: "muted" }, `No replay: ${err.message}`));
  }
  clear(chartBox).append(scoreChart(scoreSeries(table, mine), names));
  if (mine) new Replayer(table, replayBox, mine).mount();
  box.dataset.ready = "yes";
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
      id: "replay-slider", "aria-label": "Replay step", oninput: () => this.go(Number(this.slider.value)) });
    const controls = h("div", { class: "replay-controls", role: "group", "aria-label": "Replay controls" },
      button("« First", () => this.go(0), { id: "replay-first" }),
      button("‹ Back", () => this.go(this.index - 1), { id: "replay-prev" }),
      this.slider,
      button("Next ›", () => this.go(this.index + 1), { id: "replay-next" }),
      button("Last »", () => this.go(this.replay.steps.length - 1), { id: "replay-last" }));
    this.revealBtn = this.table.reveals === false
      ? h("p", { class: "muted", id: "replay-secret" }, "This table keeps its secrets for ever: the replay shows only what you saw.")
      : button("Reveal everything", () => this.reveal(), { id: "replay-reveal", class: "primary" });
    clear(this.box).append(h("h3", {}, "Replay"), this.head, controls, this.revealBtn, this.stage,
      h("h4", {}, "At this step"), this.events);
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
      this.revealBtn.textContent = "Revealed in full";
      this.slider.max = Math.max(0, this.replay.steps.length - 1);
      this.go(Math.min(this.index, this.replay.steps.length - 1));
    } catch (err) {
      this.revealBtn.disabled = false;
      this.head.append(h("p", { class: "error" }, `Could not reveal: ${err.message}`));
    }
  }

  go(i) {
    const steps = this.replay.steps;
    if (!steps.length) return;
    this.index = Math.max(0, Math.min(steps.length - 1, i));
    this.slider.value = String(this.index);
    const st = steps[this.index];
    const names = this.table.names();
    const who = this.revealed ? "revealed in full" : this.replay.seat === null ? "as a spectator saw it" : "as you saw it";
    clear(this.head).append(h("p", {}, `Step ${st.number} of ${steps[steps.length - 1].number} — ${who}`,
      st.actor !== null && st.actor !== undefined ? ` — ${names[st.actor]}${st.action ? ` played ${st.action}` : ""}` : ""));
    clear(this.stage);
    const views = this.revealed && Array.isArray(st.views) ? st.views : [st.view];
    views.forEach((view, k) => {
      const holder = h("div", { class: "replay-view" });
      if (views.length > 1) holder.append(h("h4", {}, `Seen by ${names[k]}`));
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
      ev.audience ? h("span", { class: "muted" }, ` (seen by ${ev.audience.map((s) => names[s]).join(", ")})`) : null)));
  }
}
