// An SVG line chart of the scores over the game: one line per seat.
import { s, h } from "./util.js";
import { t } from "./i18n.js";

const COLORS = ["#6b3fa0", "#d9480f", "#2b8a3e", "#1971c2", "#c2255c", "#866000", "#0c8599"];

export function seatColor(i) {
  return COLORS[i % COLORS.length];
}

/**
 * @param {{number: number, scores: number[]}[]} series ascending by number
 * @param {string[]} names
 */
export function scoreChart(series, names) {
  const pts = series.filter((p) => Array.isArray(p.scores));
  if (!pts.length) return h("p", { class: "muted" }, t("chart.none"));
  const legend = h("ul", { class: "legend" }, names.map((n, i) =>
    h("li", {}, h("span", { class: "swatch", style: { background: seatColor(i) } }), n)));
  const figure = h("figure", { class: "chart-box" }, drawChart(pts, names, 640), h("figcaption", {}, t("chart.caption")), legend);
  // Drawn again at the width it is shown at: a 640-wide drawing scaled down to a phone's width would shrink
  // its labels to 6 px; drawn at that width they keep their 11 px.
  if (typeof ResizeObserver === "function") {
    let drawnAt = 640;
    new ResizeObserver(() => {
      const svg = figure.querySelector("svg.chart");
      const width = svg ? svg.clientWidth : 0; // inside its border
      if (width < 200 || Math.abs(width - drawnAt) < 4) return;
      drawnAt = width;
      svg.replaceWith(drawChart(pts, names, width));
    }).observe(figure);
  }
  return figure;
}

/** The chart as an SVG drawn `W` units wide (shown at W px, its text at its CSS size). */
function drawChart(pts, names, W) {
  const H = Math.round(Math.min(260, Math.max(200, W * 0.6))), L = 44, R = 12, T = 14, B = 30;
  const xs = pts.map((p) => p.number);
  const all = pts.flatMap((p) => p.scores);
  let lo = Math.min(0, ...all), hi = Math.max(1, ...all);
  // Round the axis to a "nice" step (1, 2 or 5 times a power of ten), about four steps.
  const raw = (hi - lo) / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((x) => x >= raw) || raw;
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  if (hi === lo) hi = lo + step;
  const x0 = Math.min(...xs), x1 = Math.max(...xs, x0 + 1);
  const X = (n) => L + ((n - x0) / (x1 - x0)) * (W - L - R);
  const Y = (v) => T + (1 - (v - lo) / (hi - lo)) * (H - T - B);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart", role: "img",
    "aria-label": t("chart.label", { scores: names.map((n, i) => `${n} ${pts[pts.length - 1].scores[i]}`).join(", ") }) });
  // Axes and grid.
  const ticks = Math.round((hi - lo) / step);
  for (let k = 0; k <= ticks; k++) {
    const v = lo + ((hi - lo) * k) / ticks;
    svg.append(s("line", { x1: L, x2: W - R, y1: Y(v), y2: Y(v), class: "grid" }),
      s("text", { x: L - 6, y: Y(v) + 4, "text-anchor": "end", class: "tick" }, String(Math.round(v * 10) / 10)));
  }
  svg.append(s("line", { x1: L, x2: W - R, y1: Y(0), y2: Y(0), class: "axis" }),
    s("text", { x: (L + W - R) / 2, y: H - 6, "text-anchor": "middle", class: "tick" }, t("chart.move_number")),
    s("text", { x: L, y: H - 16, "text-anchor": "start", class: "tick" }, String(x0)),
    s("text", { x: W - R, y: H - 16, "text-anchor": "end", class: "tick" }, String(x1)));
  names.forEach((name, i) => {
    const d = pts.map((p, j) => `${j ? "L" : "M"}${X(p.number).toFixed(1)},${Y(p.scores[i] ?? 0).toFixed(1)}`).join(" ");
    svg.append(s("path", { d, fill: "none", stroke: seatColor(i), "stroke-width": 2.5, class: "series", "data-seat": i },
      s("title", {}, name)));
    const last = pts[pts.length - 1];
    svg.append(s("circle", { cx: X(last.number), cy: Y(last.scores[i] ?? 0), r: 4, fill: seatColor(i) }));
  });
  return svg;
}
