// The live socket of one table (PROTOCOL.md, "The live socket"): hello, reconnects with the last number.

import { t } from "./i18n.js";

const FATAL = new Map([
  [4001, () => t("conn.fatal.token")],
  [4002, () => t("conn.fatal.protocol")],
  [4004, () => t("conn.fatal.no_table")],
  [4029, () => t("conn.fatal.too_many")],
  [4030, () => t("conn.fatal.too_many_sockets")],
  [4031, () => t("conn.fatal.too_many_spectators")],
]);

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
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  open() {
    this.hooks.onStatus("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", protocol: 1, token: this.token, last: this.hooks.last() }));
      this.hooks.onStatus("connected");
    });
    ws.addEventListener("message", (ev) => {
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
      this.hooks.onMessage(msg);
    });
    ws.addEventListener("close", (ev) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      const fatal = FATAL.has(ev.code) ? FATAL.get(ev.code)() : null;
      if (fatal) {
        this.closed = true;
        this.hooks.onStatus("closed", fatal);
        return;
      }
      const delay = Math.min(4000, 250 * 2 ** this.retry);
      this.retry += 1;
      this.hooks.onStatus("reconnecting", t("conn.lost", { seconds: Math.round(delay / 100) / 10 }));
      setTimeout(() => { if (!this.closed) this.open(); }, delay);
    });
  }

  /** Send a message if connected; false otherwise. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close(1000);
  }
}
