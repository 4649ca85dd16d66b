// The live socket of one table (PROTOCOL.md, "The live socket"): hello, reconnects with the last number.
// A socket can also die in silence (the network gone, the socket still open, nothing arriving): after
// TIMEOUTS.quiet ms without a message from the server the page sends a ping, and if nothing at all comes
// back within TIMEOUTS.answer ms it drops the socket and connects again (hello with its last number: the
// sync that follows says where the table is).

import { t, lang } from "./i18n.js";

/** The close code of a hello whose token no seat of the table has (a mistyped or another table's link). */
export const BAD_LINK = 4001;

const FATAL = new Map([
  [BAD_LINK, () => t("conn.fatal.token")],
  [4002, () => t("conn.fatal.protocol")],
  [4004, () => t("conn.fatal.no_table")],
  [4029, () => t("conn.fatal.too_many")],
  [4030, () => t("conn.fatal.too_many_sockets")],
  [4031, () => t("conn.fatal.too_many_spectators")],
]);

// In milliseconds. A test may set window.covenTimeouts = {quiet, answer, ack} before the page loads.
export const TIMEOUTS = {
  quiet: 15000, // nothing heard for this long: ask the server for a sign of life
  answer: 5000, // ...which must come within this: otherwise the connection is dead, make it again
  ack: 8000, // a move or a chat line not acknowledged within this: the table says so and checks the connection (table.js)
  ...(globalThis.covenTimeouts || {}),
};

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {string|null} token the seat's secret (null: spectator)
   * @param {{onMessage: Function, onStatus: Function, last: () => number|null}} hooks
   */
  constructor(tableId, token, hooks) {
    this.tableId = tableId;
    this.token = token;
    this.hooks = hooks;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.queue = [];
    this.heard = 0; // when the server last said anything (Date.now())
    this.asked = null; // when the page's ping went out, until anything is heard
    this.pings = 0;
    this.timer = null; // the next attempt to connect
    const tick = Math.max(100, Math.min(1000, TIMEOUTS.answer / 2));
    this.watchdog = setInterval(() => this.check(), tick);
    // The browser knows the network is back: try at once rather than at the end of the back-off.
    addEventListener("online", () => {
      if (this.timer !== null && !this.closed) { clearTimeout(this.timer); this.timer = null; this.open(); }
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    this.timer = null;
    this.hooks.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    this.heard = Date.now();
    this.asked = null;
    let answered = false;
    ws.addEventListener("open", () => {
      if (this.ws !== ws) { ws.close(); return; } // given up for dead while it was connecting
      this.heard = Date.now();
      ws.send(JSON.stringify({ type: "hello", protocol: 1, token: this.token, last: this.hooks.last() }));
    });
    ws.addEventListener("message", (ev) => {
      if (this.ws !== ws) return; // a socket given up for dead
      this.heard = Date.now();
      this.asked = null;
      if (!answered) {
        // connected once the server has said something (an open socket on a dead network says nothing)
        answered = true;
        this.retry = 0;
        this.hooks.onStatus("connected");
      }
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && msg.type === "ping") {
        this.send({ type: "ping", id: null });
        return;
      }
      if (msg && msg.type === "pong") return; // a sign of life, nothing more
      this.hooks.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      const fatal = FATAL.has(ev.code) ? FATAL.get(ev.code)() : null;
      if (fatal) {
        this.closed = true;
        this.hooks.onStatus("closed", fatal, ev.code);
        return;
      }
      this.again();
    });
  }

  /** Connect again after a back-off (the page says when). */
  again() {
    const delay = Math.min(4000, 250 * 2 ** this.retry);
    this.retry += 1;
    const seconds = new Intl.NumberFormat(lang, { maximumFractionDigits: 1 }).format(delay / 1000); // 0,3 in French
    this.hooks.onStatus("reconnecting", t("conn.lost", { seconds }));
    clearTimeout(this.timer);
    this.timer = setTimeout(() => { if (!this.closed) this.open(); }, delay);
  }

  /** The watchdog: a ping after a quiet spell, a new connection when the ping gets no answer (or the
   * socket never opens). */
  check() {
    const ws = this.ws;
    if (!ws || this.closed) return;
    const now = Date.now();
    if (ws.readyState === WebSocket.CONNECTING) {
      if (now - this.heard > TIMEOUTS.quiet + TIMEOUTS.answer) this.drop(ws);
    } else if (ws.readyState === WebSocket.OPEN) {
      if (this.asked !== null) {
        if (now - this.asked >= TIMEOUTS.answer) this.drop(ws);
      } else if (now - this.heard >= TIMEOUTS.quiet) this.probe();
    }
  }

  /** Ask the server for a sign of life now (the watchdog drops the socket if none comes in time). */
  probe() {
    if (this.asked !== null || !this.send({ type: "ping", id: `p${++this.pings}` })) return;
    this.asked = Date.now();
  }

  /** Give up a socket that says nothing (its close may never come while the network is gone). */
  drop(ws) {
    if (this.ws !== ws) return;
    this.ws = null;
    try { ws.close(); } catch { /* already closing */ }
    this.again();
  }

  /** Connect again at once, with a new hello (the server takes a person's hello as their return: a bot
   * that stood in for them gives the seat back). */
  renew() {
    if (this.closed) return;
    const ws = this.ws;
    this.ws = null;
    clearTimeout(this.timer);
    this.retry = 0;
    if (ws) {
      try { ws.close(1000); } catch { /* already closing */ }
    }
    this.open();
  }

  /** Send a message if connected; false otherwise. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    clearInterval(this.watchdog);
    if (this.ws) this.ws.close(1000);
  }
}
