// A table: the live socket, whose turn it is, the scores, the log, the board, the result and replay.
import { api } from "./api.js";
import { TableSocket, TIMEOUTS, BAD_LINK } from "./conn.js";
import { boardFor, generic } from "./games/index.js";
import { h, clear, button, listing, fmtScore, problemPage, LAST_SECONDS } from "./util.js";
import { showResult } from "./result.js";
import { keepSeat, spectatorUrl } from "./seats.js";
import { t, errorText, errorTitle, gameTitle, seatNames, botLevel } from "./i18n.js";

let nextId = 1;

export async function mountTable(root, tableId, token) {
  const t = new TableClient(root, tableId, token);
  window.coven = t; // for the curious (and for tests): the page's state, never more than the seat sees
  await t.start();
}

class TableClient {
  constructor(root, tableId, token) {
    this.root = root;
    this.tableId = tableId;
    this.token = token;
    this.pace = null;
    // with a pace, the turn line counts the mover's time down once a second
    this.paceTimer = setInterval(() => { if (this.timeLeft() !== null) this.renderTurn(); }, 1000);
    this.seat = null;
    this.role = null;
    this.game = null;
    this.info = null;
    this.board = generic;
    this.players = 0;
    this.seats = [];
    this.status = "connecting";
    this.number = null;
    this.view = null;
    this.legal = null;
    this.toAct = [];
    this.mayAct = [];
    this.result = null;
    this.scores = null;
    this.scoreHistory = []; // [{number, scores}] seen live
    this.steps = []; // [{number, actor, events}]
    this.pending = null; // id of an act awaiting its ack
    this.lost = null; // {number}: a move sent at this number got no ack; the next sync tells whether it was played
    this.lastStep = 0; // number of the newest step, for highlights
    this.error = null;
    this.conn = null;
    this.connStatus = "connecting";
    this.connNote = "";
    this.resultShown = false;
    // Animations: a new step is drawn once with its move animated (cards slide, dice roll, artefacts travel);
    // the time the page spent animating before the person could act goes with the next act (animation_ms),
    // so that a timed move (The 3 Commandments) is not charged for it.
    this.freshPending = false;
    this.changedAt = performance.now();
    this.animEnds = this.changedAt;
    this.announced = null;
  }

  async start() {
    this.el = {
      top: h("div", { class: "topbar" }),
      turn: h("p", { class: "turn", id: "turn" }, t("table.connecting")),
      // Whose turn it is, for screen readers: said once per step (the visible line also counts a clock down).
      live: h("p", { class: "sr-only", id: "turn-live", role: "status", "aria-live": "polite", "aria-atomic": "true" }),
      error: h("div", { class: "error-box", id: "move-error", role: "alert", hidden: true }),
      board: h("section", { class: "board", id: "board", "aria-label": t("table.board_label"), tabindex: "-1" }),
      share: h("p", { class: "share", id: "share" }),
      moves: h("section", { class: "moves", id: "moves" }),
      scores: h("section", { class: "scores panel", id: "scores", "aria-labelledby": "scores-h" }),
      log: h("ol", { class: "log", id: "log", "aria-live": "polite" }),
      result: h("section", { class: "result", id: "result", hidden: true, tabindex: "-1" }),
      chat: h("section", { class: "chat-panel panel", id: "chat", "aria-labelledby": "chat-h" }),
      chatLines: h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite" }),
    };
    this.chatLines = [];
    // A line said is pending until the server acknowledges it (the chat that shows it carries its id); the
    // note under the input says why one was not said, and survives the chat being drawn again.
    this.chatPending = null; // {id, text, after, timer}: the line awaiting its acknowledgement
    this.chatUnsure = null; // {id, text, after}: a line whose acknowledgement did not come in time
    this.chatDraft = "";
    this.chatNote = null; // {kind, text}
    this.el.chatNote = h("p", { class: "chat-note error", id: "chat-note", role: "status", hidden: true });
    const logPanel = h("section", { class: "log-panel panel", "aria-labelledby": "log-h" },
      h("h2", { id: "log-h" }, t("table.log")), this.el.log);
    // The table's panels are laid out once the table is known: a wrong link gets a page of its own.
    this.root.append(this.el.turn);
    try {
      const info = await api.table(this.tableId);
      this.game = info.game;
      this.seats = info.seats;
      this.players = info.players;
      this.status = info.status;
      this.reveals = info.reveals;
      this.info = await api.game(info.game).catch(() => null);
      if (this.info) this.info = { ...this.info, title: gameTitle(info.game, this.info.title) };
      // "?board=generic" draws any game with the generic board (the view as panels, moves as buttons).
      const forced = new URLSearchParams(location.search).get("board");
      this.board = forced === "generic" ? generic : await boardFor(info.game);
    } catch (err) {
      this.showMissing(err);
      return;
    }
    this.root.append(h("div", { class: "table-page" },
      this.el.top, this.el.share, this.el.turn, this.el.live, this.el.error,
      h("div", { class: "table-layout" },
        h("div", { class: "main-col" }, this.el.board, this.el.moves),
        h("aside", { class: "side-col" }, this.el.scores, this.el.chat, logPanel)),
      this.el.result));
    document.title = `Coven — ${this.info ? this.info.title : this.game}`;
    this.renderTop();
    this.conn = new TableSocket(this.tableId, this.token, {
      onMessage: (m) => this.onMessage(m),
      onStatus: (status, note, code) => {
        this.connStatus = status;
        this.connNote = note || "";
        if (status === "closed" && code === BAD_LINK && this.token && this.number === null) {
          this.showBadLink(); // refused at once: nothing of the table to show, but it can be watched
          return;
        }
        this.renderTop();
        if (status === "closed") {
          // said once, where the page says what happens now (the pill just says "closed"; an error box
          // to dismiss would only say it again)
          const why = note || t("table.closed");
          this.el.turn.textContent = why;
          this.el.turn.className = "turn error";
          this.clearError();
          this.el.live.textContent = why;
        }
      },
      last: () => this.number,
    });
    this.conn.open();
  }

  /** A table that cannot be opened: what went wrong and the way back to the lobby, no empty panels. */
  showMissing(err) {
    const missing = err && (err.code === "unknown_table" || err.status === 404);
    problemPage(this.root, "table-missing", missing ? t("table.missing_title") : t("table.cannot_open_title"),
      missing ? t("table.missing_text", { id: this.tableId }) : errorText(err && err.code, err && err.message));
  }

  /** An invite link the table refuses (mistyped, or another table's): say so, and offer what the page can
   * do instead, watch the table (its spectator link is public) or go back to the lobby, no empty panels. */
  showBadLink() {
    problemPage(this.root, "bad-link", t("table.bad_link_title"), [t("conn.fatal.token"), " ", t("table.bad_link_text")],
      [[spectatorUrl(this.tableId), t("table.watch_instead"), "watch-instead"]]);
  }

  names() {
    return seatNames(this.seats, this.players).map((name, i) => (i === this.seat ? t("table.you", { name }) : name));
  }

  // ------------------------------------------------------------------------------ messages
  onMessage(m) {
    switch (m.type) {
      case "chat_log":
        this.chatLines = m.lines;
        this.settleChat();
        this.renderChat();
        break;
      case "chat":
        // "id" is in our own line's copy only: its acknowledgement
        this.addChatLine(m.line, m.id !== undefined ? m.id : undefined);
        break;
      case "welcome":
        // A move in flight when the connection dropped: the sync that follows tells what happened.
        if (this.pending !== null) this.lost = { number: this.number };
        this.pending = null;
        this.retry = null;
        // A line in flight: its acknowledgement went with the old socket (the chat log may show it said).
        if (this.chatPending) this.chatUnanswered(this.chatPending.id, false);
        // Back online: "not sent" no longer holds (the person can play again).
        if (this.error && this.error.code === "offline") this.clearError();
        if (this.chatNote && this.chatNote.kind === "offline") this.chatNote = null;
        this.seat = m.seat;
        this.role = m.role;
        this.players = m.players;
        this.seats = m.seats;
        this.status = m.status;
        this.options = m.options;
        this.renderChat();
        if (m.role === "player" && this.token) {
          // The server accepted the invite link: this browser keeps the seat ("Your tables" in the lobby).
          const mine = m.seats.find((x) => x.seat === m.seat);
          this.kept = keepSeat({ table: this.tableId, seat: m.seat, game: m.game,
            title: this.info ? this.info.title : m.game, name: mine ? mine.name : null, token: this.token });
        }
        this.renderShare(m.role);
        break;
      case "sync":
        if (m.full) this.steps = [];
        else this.steps = this.steps.filter((s) => s.number <= m.since);
        for (const st of m.steps) this.steps.push(st);
        this.lastStep = m.steps.length ? m.steps[m.steps.length - 1].number : this.lastStep;
        // Only a step or two caught up is animated; a full history is drawn as it stands.
        this.freshPending = !m.full && m.steps.length > 0 && m.steps.length <= 2;
        this.applyState(m);
        if (m.full || m.steps.length) this.renderLog(true);
        if (this.lost) this.settleLost();
        if (this.retry) this.resend();
        break;
      case "update":
        // The update that our own action made carries its acknowledgement.
        if (m.ack && this.pending === m.ack.id) {
          this.pending = null;
          this.typed = "";
          this.clearError();
        }
        if (this.number !== null && m.number !== this.number + 1) {
          // A gap: ask for what was missed (the sync brings the current view too).
          this.conn.send({ type: "sync", last: this.number });
          return;
        }
        // A step of our seat while a bot stands in for us: the log says the bot took it, not "you".
        this.steps.push({ number: m.number, actor: m.actor, events: m.events, stoodIn: m.actor === this.seat && this.standsIn() });
        if (m.actor === this.seat) this.pending = null;
        this.lastStep = m.number;
        this.freshPending = true;
        this.applyState(m);
        this.renderLog(false);
        if (this.retry) this.resend();
        break;
      case "ack": // an action acknowledged on its own (the connection was not yet listening)
        if (this.pending === m.id) this.pending = null;
        this.typed = "";
        this.clearError();
        break;
      case "table":
        this.status = m.status;
        this.seats = m.seats;
        // A bot standing in for a person, or stepping aside, changes whose time runs: the frame has the
        // pace as it is now (else the countdown was the move's old one until the next move). One of
        // another number is left to the update or sync on its way, which has its own.
        if (m.pace && m.number === this.number) this.applyPace(m);
        break;
      case "error":
        if (typeof m.id === "string" && m.id.startsWith("c")) { // a chat line's: said under the chat
          this.chatRefused(m);
          return;
        }
        if (m.id !== undefined && m.id !== null && this.pending === m.id) {
          this.pending = null;
          if (m.code === "stale" && this.playedSince(this.sent)) {
            // the same move, sent earlier on a connection given up for dead, was played after all
            this.conn.send({ type: "sync", last: this.number });
            break;
          }
          if (m.code === "stale" && this.sent && !this.sent.retried) {
            // Another seat's action landed first (e.g. a simultaneous decision): once we have the new
            // position, send the same move again if it is still offered. No error unless that fails.
            this.retry = this.sent;
            if (this.number !== null && this.number >= m.number) this.resend();
            else this.conn.send({ type: "sync", last: this.number });
            break;
          }
        }
        if (m.code === "stale") this.conn.send({ type: "sync", last: this.number });
        this.showError(m);
        break;
      default:
        return;
    }
    this.render();
  }

  applyState(m) {
    this.number = m.number;
    this.status = m.status;
    this.view = m.view;
    this.changedAt = performance.now();
    this.animEnds = this.changedAt;
    this.legal = m.legal;
    this.toAct = m.to_act || [];
    this.mayAct = m.may_act || [];
    this.applyPace(m);
    this.result = m.result || null;
    let scores = Array.isArray(m.scores) ? m.scores : null;
    if (!scores && this.board.scores && this.view) {
      try { scores = this.board.scores(this.view); } catch { scores = null; }
    }
    if (!scores && this.result) scores = this.result.scores;
    this.scores = scores;
    if (scores) {
      const last = this.scoreHistory[this.scoreHistory.length - 1];
      if (!last || last.number !== m.number) this.scoreHistory.push({ number: m.number, scores: [...scores] });
    }
    // A new view supersedes any earlier rejection: it was about an older position.
    if (this.error && this.error.number !== undefined && this.error.number < m.number && !this.pending) this.clearError();
  }

  /** The pace of the move under way, from an update, a sync or a table frame. Its limits count from the
   * moment the move began: a sync or a table frame says how long ago that was (a reload or a return in the
   * middle of a move counts down what is left, as the server does); an update is that moment. */
  applyPace(m) {
    this.pace = m.pace || null;
    this.paceSince = Date.now() - (typeof m.elapsed === "number" && m.elapsed > 0 ? m.elapsed * 1000 : 0);
  }

  /** After a move that got no ack: say whether the table took it (never send it again on our own: the
   * person decides on the position as it is now). */
  settleLost() {
    const lost = this.lost;
    this.lost = null;
    if (this.playedSince(lost)) {
      if (this.error && this.error.code === "unconfirmed") this.clearError();
    } else {
      this.showError({ code: "not_played", message: t("err.not_played"), number: this.number });
    }
  }

  /** A move whose ack did not come in time: stop saying "Sending…", say so, and check the connection (a
   * dead one is made again; either way a sync says whether the move was played). */
  unanswered(id) {
    if (this.pending !== id) return;
    this.pending = null;
    this.retry = null;
    this.lost = { number: this.number };
    this.showError({ code: "unconfirmed", message: t("err.unconfirmed"), number: this.number });
    this.conn.probe();
    this.conn.send({ type: "sync", last: this.number });
    this.render();
  }

  /** Whether this seat has acted since the position `sent.number` (a move sent then has been played). */
  playedSince(sent) {
    return Boolean(sent) && typeof sent.number === "number" && this.steps.some((st) => st.number > sent.number && st.actor === this.seat);
  }

  resend() {
    const again = this.retry;
    this.retry = null;
    if (!again || !this.legal || this.playedSince(again)) return; // never the same move twice
    const offered = this.legal.free_form || this.legal.actions.some((a) => a.notation === again.text);
    if (offered) this.act(again.action, true);
    else this.showError({ code: "stale", message: t("table.stale_retry") });
  }

  // ---------------------------------------------------------------------------------- acting
  /** Play an action: a notation string, or {json: actionJson}. */
  act(action, retried = false) {
    if (this.pending !== null) return false;
    if (!this.legal) {
      this.showError({ code: "not_your_turn", message: t("err.not_your_turn") });
      return false;
    }
    const id = `m${nextId++}`;
    const msg = { type: "act", number: this.number, id, animation_ms: this.animationMs() };
    if (typeof action === "string") msg.action = action;
    else msg.action_json = action.json;
    if (!this.conn.send(msg)) {
      this.showError({ code: "offline", message: t("err.offline") });
      return false;
    }
    this.pending = id;
    this.sent = { action, text: typeof action === "string" ? action : null, retried, number: this.number };
    setTimeout(() => this.unanswered(id), TIMEOUTS.ack);
    this.clearError();
    this.render();
    return true;
  }

  /** How long the page animated the current position before this moment (0-5000 ms, the server's bound). */
  animationMs() {
    const spent = Math.min(this.animEnds, performance.now()) - this.changedAt;
    return Math.max(0, Math.min(5000, Math.round(spent)));
  }

  showError(m) {
    const title = errorTitle(m.code);
    const text = errorText(m.code, m.message, this.game, m.reason, (i) => seatNames(this.seats, this.players)[i]) || m.code;
    // a text that only says the heading again is not said twice
    const same = (x) => x.replace(/[\s.!:]+$/u, "").toLowerCase();
    this.error = m;
    this.el.error.hidden = false;
    clear(this.el.error).append(...(same(text) === same(title) ? [h("strong", {}, text)] : [h("strong", {}, t("table.error_head", { title })), text]),
      button(t("table.dismiss"), () => this.clearError(), { class: "small dismiss" }));
  }

  clearError() {
    this.error = null;
    this.el.error.hidden = true;
    clear(this.el.error);
  }

  // --------------------------------------------------------------------------------- drawing
  ctx({ view = this.view, legal = this.legal, readOnly = false, events = null, fresh = false } = {}) {
    const mine = !readOnly && legal && this.seat !== null;
    return {
      game: this.game,
      info: this.info,
      view,
      seat: this.seat,
      players: this.players,
      names: this.names(),
      legal: mine ? legal.actions : [],
      required: mine ? legal.required : false,
      freeForm: mine ? legal.free_form : false,
      pending: this.pending !== null,
      toAct: readOnly ? [] : this.toAct,
      mayAct: readOnly ? [] : this.mayAct,
      status: this.status,
      readOnly,
      // Draw the latest move in motion (only on the first drawing of a new step, and never when the person
      // asked for reduced motion).
      animate: fresh && !readOnly && !reducedMotion(),
      lastEvents: events ?? (this.steps.length ? this.steps[this.steps.length - 1].events : []),
      act: (a) => this.act(a),
      rerender: () => this.render(),
      error: (message) => this.showError({ code: "illegal_action", message }),
    };
  }

  render() {
    // Plain facts on the root for assistive tech and tests: the number, the status, whether we must move.
    const d = this.root.dataset;
    d.number = String(this.number ?? "");
    d.status = this.status;
    d.myturn = this.legal && this.legal.required && this.pending === null && this.status === "playing" ? "yes" : "no";
    d.mayact = this.legal && !this.legal.required && this.pending === null && this.status === "playing" ? "yes" : "no";
    const restore = this.noteFocus();
    const fresh = this.freshPending;
    this.freshPending = false;
    this.renderTop();
    this.renderTurn();
    this.announceTurn();
    this.renderScores();
    this.renderBoard(fresh);
    this.renderMoves();
    if (restore) this.restoreFocus();
    if (this.status === "over" && this.result && !this.resultShown) {
      this.resultShown = true;
      showResult(this, this.el.result);
    }
  }

  // Keyboard focus survives re-rendering: the control the person used gets it back (the same data-fkey
  // or id); while that control is disabled (a move on its way) or gone (the card was played), the board
  // holds it, and the control gets it back when it returns. Focus outside the table is left alone.
  noteFocus() {
    const active = document.activeElement;
    if (active && active !== document.body && !this.root.contains(active)) {
      this.hadFocus = false;
      this.wantFocus = null;
      return false;
    }
    if (active && active !== document.body && active !== this.el.board) {
      this.hadFocus = true;
      this.wantFocus = (active.dataset && active.dataset.fkey) ? `k:${active.dataset.fkey}` : active.id ? `#${active.id}` : null;
    }
    return Boolean(this.hadFocus);
  }

  restoreFocus() {
    const key = this.wantFocus;
    let again = null;
    if (key && key.startsWith("k:")) again = this.root.querySelector(`[data-fkey="${CSS.escape(key.slice(2))}"]`);
    else if (key && key.startsWith("#")) again = document.getElementById(key.slice(1));
    if (again && !again.disabled && this.root.contains(again)) {
      if (document.activeElement !== again) again.focus({ preventScroll: true });
    } else if (document.activeElement !== this.el.board) {
      this.el.board.focus({ preventScroll: true });
    }
  }

  /** The links of this table, kept apart: the spectator link to share; a player's own seat stays private. */
  renderShare(role) {
    const watch = spectatorUrl(this.tableId);
    const copy = button(t("common.copy"), async (ev) => {
      try { await navigator.clipboard.writeText(watch); ev.target.textContent = t("common.copied"); } catch { ev.target.textContent = t("common.select_copy"); }
    }, { class: "small", dataset: { fkey: "copy-watch" } });
    clear(this.el.share).append(h("span", {}, t("table.spectator_link")), h("code", { class: "url", id: "watch-url" }, watch), " ", copy);
    if (role === "player") {
      this.el.share.append(h("span", { class: "muted" }, this.kept === false
        ? t("table.not_kept")
        : t("table.kept")));
    }
  }

  renderTop() {
    const title = this.info ? this.info.title : this.game || t("table.table");
    const who = this.role === "player" ? t("table.you_are", { n: this.seat + 1 }) : this.role === "spectator" ? t("table.watching") : "";
    clear(this.el.top).append(
      h("h1", {}, title),
      h("span", { class: "who", id: "who" }, who),
      h("span", { class: `conn ${this.connStatus}`, id: "conn", title: this.connNote },
        this.connStatus === "closed" ? connWord("closed") : this.connNote || connWord(this.connStatus)),
      h("a", { href: "/", class: "small" }, t("table.lobby")));
  }

  renderTurn() {
    const names = this.names();
    const el = this.el.turn;
    el.className = "turn";
    let text;
    if (this.status === "waiting") {
      const open = this.seats.filter((s) => s.kind === "human" && !s.claimed).map((s) => names[s.seat]);
      // a spectator has no invite links to send: only the players' page asks for them
      const watching = this.role ? this.role !== "player" : !this.token;
      text = watching ? t("turn.waiting_people_watch", { names: listing(open) }) : t("turn.waiting_people", { names: listing(open) });
    } else if (this.status === "over") {
      const winners = this.result ? this.result.winners.map((i) => names[i]) : [];
      text = winners.length ? (winners.length > 1 ? t("turn.over_share", { names: listing(winners) }) : t("turn.over_wins", { name: winners[0] })) : t("turn.over_nobody");
      el.classList.add("over");
    } else if (this.standsIn()) {
      // Out of time: a bot plays this person's seat until they move again (any move takes it back).
      text = t("turn.stood_in");
      el.classList.add("mine", "away");
    } else if (this.pending !== null) {
      text = t("turn.sending");
    } else if (this.legal && this.legal.required) {
      const hint = this.board.turnHint ? this.board.turnHint(this.ctx()) : "";
      text = hint ? t("turn.yours_hint", { hint }) : t("turn.yours");
      el.classList.add("mine");
    } else {
      const waiting = this.toAct.map((i) => names[i]);
      const opt = this.legal && !this.legal.required ? t("turn.may_act") : "";
      text = waiting.length ? t("turn.waiting_for", { names: listing(waiting), opt }) : `…${opt}`;
      if (opt) el.classList.add("mine");
    }
    const left = this.standsIn() ? null : this.timeLeft();
    if (left !== null) text += t("turn.left", { time: fmtClock(left) });
    this.turnText = text;
    el.textContent = text;
    if (this.standsIn()) {
      // The bot answers each of the seat's turns within a second: too quick to "make any move" first. A
      // new hello is the person's return (PROTOCOL.md, Pace): the seat is theirs again at once.
      // (one button for good: the line is drawn again at every move, and a click must not be lost then)
      this.el.takeBack ??= h("button", { type: "button", class: "small take-back", id: "take-back",
        onclick: () => this.conn.renew() }, t("turn.take_back"));
      el.append(" ", this.el.takeBack);
    }
    if (this.status === "over" && this.result) {
      // the result is far down a phone's page (below the board, the scores, the chat and the log): a way to it
      el.append(" ", h("a", { href: "#result", class: "button small jump-result", id: "to-result",
        onclick: (ev) => {
          ev.preventDefault();
          this.el.result.scrollIntoView({ behavior: reducedMotion() ? "auto" : "smooth", block: "start" });
          this.el.result.focus({ preventScroll: true });
        } }, t("turn.see_result")));
    }
    document.title = `${this.legal && this.legal.required && this.status === "playing" ? "● " : ""}Coven — ${this.info ? this.info.title : this.game}`;
  }

  /** When the move animations just started on the board end (CSS animations and the boards' own named
   * "move-…"; endless ones such as a pulsing hint do not count). */
  noteAnimations(el) {
    if (typeof el.getAnimations !== "function") return;
    let longest = 0;
    for (const a of el.getAnimations({ subtree: true })) {
      const name = a.animationName || a.id || "";
      if (!name.startsWith("move-")) continue;
      const timing = a.effect ? a.effect.getComputedTiming() : null;
      if (!timing || !Number.isFinite(timing.endTime)) continue;
      longest = Math.max(longest, timing.endTime - (timing.localTime || 0));
    }
    if (longest > 0) this.animEnds = Math.max(this.animEnds, performance.now() + longest);
    // For tests and assistive tech: "yes" while the move is being shown.
    this.root.dataset.animating = longest > 0 ? "yes" : "no";
    clearTimeout(this.animTimer);
    if (longest > 0) this.animTimer = setTimeout(() => { this.root.dataset.animating = "no"; }, longest);
  }

  /** The turn in words for screen readers: said again at every step, without the clock's countdown. */
  announceTurn() {
    if (this.status === "connecting" || this.number === null) return;
    const names = this.names();
    let text;
    if (this.status === "over" || this.status === "waiting") text = this.turnText ?? this.el.turn.textContent;
    else if (this.legal && this.legal.required) {
      const hint = this.board.turnHint ? this.board.turnHint(this.ctx()) : "";
      text = hint ? t("turn.yours_hint", { hint }) : t("turn.yours");
    } else if (this.toAct.length) text = t("turn.live_others", { names: listing(this.toAct.map((i) => names[i])) });
    else return;
    if (this.pending !== null) return;
    const key = `${this.number}|${text}`;
    if (key === this.announced) return;
    this.announced = key;
    this.el.live.textContent = t("turn.live", { n: this.number, text });
    this.root.dataset.announced = String(this.number);
  }

  /** Whether a bot plays this person's own seat now (their time ran out; their next move takes it back). */
  standsIn() {
    if (this.role !== "player" || this.status !== "playing" || !this.seats) return false;
    const mine = this.seats.find((s) => s.seat === this.seat);
    return Boolean(mine && mine.stand_in);
  }

  /** Seconds left for the move under way (the first seat the game waits for), or null without a pace. */
  timeLeft() {
    if (this.status !== "playing" || !this.pace || !this.pace.limits) return null;
    const limits = this.toAct.map((i) => this.pace.limits[String(i)]).filter((x) => typeof x === "number");
    if (!limits.length) return null;
    return Math.max(0, Math.min(...limits) - (Date.now() - this.paceSince) / 1000);
  }

  /** The chat: what seated players said (text only, never markup); spectators read it. A line sent shows as
   * "sending…" until the server acknowledges it; refused, or unanswered in time, its text goes back in the
   * input with the reason under it (it is never sent again on its own). */
  renderChat() {
    const box = this.el.chat;
    clear(this.el.chatLines).append(...this.chatLines.map((c) => this.chatLine(c)));
    if (this.chatPending) this.el.chatLines.append(this.pendingLine(this.chatPending.text));
    clear(box).append(h("h2", { id: "chat-h" }, t("chat.title")));
    if (this.options && this.options.silent) {
      box.append(h("p", { class: "muted", id: "chat-silent" },
        t("chat.silent")));
    }
    box.append(this.el.chatLines);
    this.el.chatLines.scrollTop = this.el.chatLines.scrollHeight;
    if (this.seat === null) {
      box.append(h("p", { class: "muted" }, t("chat.spectators")));
      return;
    }
    // What is typed survives the chat being drawn again (a reconnection, the log of lines), focus included.
    const typing = document.activeElement && document.activeElement.id === "chat-input";
    const input = h("input", { type: "text", id: "chat-input", maxlength: 500, "aria-label": t("chat.label"), placeholder: t("chat.placeholder"),
      value: this.chatDraft || "", oninput: (ev) => { this.chatDraft = ev.target.value; } });
    // one line at a time: the next waits for the last one's answer (a moment, unless the connection is lost)
    const send = h("button", { type: "submit", class: "small", id: "chat-send", disabled: this.chatPending !== null }, t("chat.send"));
    const form = h("form", { class: "chat-form" }, input, send);
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      this.say(input.value.trim());
    });
    box.append(form, this.el.chatNote);
    this.renderChatNote();
    if (typing) {
      input.focus({ preventScroll: true });
      input.setSelectionRange(input.value.length, input.value.length);
    }
  }

  chatLine(c) {
    const names = this.names();
    return h("li", { dataset: { seat: c.seat, number: c.number, line: c.id } },
      h("strong", {}, t("chat.who", { name: names[c.seat] || t("table.seat_n", { n: c.seat + 1 }) })), h("span", { class: "chat-text" }, c.text));
  }

  pendingLine(text) {
    const li = this.chatLine({ seat: this.seat, text });
    li.classList.add("chat-pending");
    li.id = "chat-pending";
    for (const key of ["number", "line"]) delete li.dataset[key];
    li.append(h("span", { class: "muted chat-sending" }, " ", t("chat.sending")));
    return li;
  }

  /** Say `text`: shown as pending until its acknowledgement (or its refusal) comes back with its id. */
  say(text) {
    if (!text || this.chatPending || this.seat === null) return;
    const id = `c${nextId++}`;
    if (!this.conn.send({ type: "chat", text, id })) {
      // no connection: nothing was said; the text stays to be sent again
      this.chatNote = { kind: "offline", text: t("chat.not_sent") };
      this.renderChatNote();
      return;
    }
    const after = this.chatLines.reduce((most, c) => Math.max(most, c.id), 0);
    this.chatPending = { id, text, after, timer: setTimeout(() => this.chatUnanswered(id), TIMEOUTS.ack) };
    this.chatUnsure = null; // sent again (or another line): the person has decided
    this.chatDraft = "";
    this.chatNote = null;
    this.renderChat();
  }

  /** A line said at the table; `id` (our own line's acknowledgement) turns the pending line into it. */
  addChatLine(line, id) {
    this.chatLines.push(line);
    const list = this.el.chatLines;
    const pending = this.chatPending;
    if (id !== undefined && pending && pending.id === id) {
      clearTimeout(pending.timer);
      this.chatPending = null;
      const shown = list.querySelector("#chat-pending");
      if (shown) { // said: the same item (a screen reader already read it out), no longer "sending…"
        shown.removeAttribute("id");
        shown.classList.remove("chat-pending");
        shown.querySelector(".chat-sending").remove();
        Object.assign(shown.dataset, { number: line.number, line: line.id });
        const said = shown.querySelector(".chat-text");
        if (said.textContent !== line.text) said.textContent = line.text; // as the server cleaned it
      } else list.append(this.chatLine(line));
      const send = document.getElementById("chat-send");
      if (send) send.disabled = false;
    } else {
      if (id !== undefined && this.chatUnsure && this.chatUnsure.id === id) this.chatSaidAfterAll();
      list.insertBefore(this.chatLine(line), list.querySelector("#chat-pending"));
    }
    list.scrollTop = list.scrollHeight;
  }

  /** The pending line's acknowledgement did not come in time (or its socket is gone): say it was not sent
   * and give its text back; check the connection (a dead one is made again). */
  chatUnanswered(id, probe = true) {
    const pending = this.chatPending;
    if (!pending || pending.id !== id) return;
    clearTimeout(pending.timer);
    this.chatPending = null;
    this.chatUnsure = { id, text: pending.text, after: pending.after };
    this.giveBack(pending.text, { kind: "unanswered", text: t("chat.unanswered") });
    if (probe) this.conn.probe();
  }

  /** An error about one of our lines: the pending one goes back into the input with the reason. */
  chatRefused(m) {
    const why = { kind: "refused", text: chatRefusal(m, this.game) };
    if (this.chatPending && this.chatPending.id === m.id) {
      clearTimeout(this.chatPending.timer);
      const { text } = this.chatPending;
      this.chatPending = null;
      this.giveBack(text, why);
    } else if (this.chatUnsure && this.chatUnsure.id === m.id) {
      this.chatUnsure = null; // refused after all: its text is already back in the input
      this.chatNote = why;
      this.renderChatNote();
    }
  }

  /** Put `text` back in the input (before anything typed since) and say why. */
  giveBack(text, note) {
    const typed = (this.chatDraft || "").trim();
    this.chatDraft = typed ? `${text} ${typed}` : text;
    this.chatNote = note;
    this.renderChat();
  }

  /** After a reconnection: a line whose acknowledgement never came is in the chat log if it was said. */
  settleChat() {
    const unsure = this.chatUnsure;
    if (!unsure) return;
    const text = cleanChat(unsure.text);
    if (this.chatLines.some((c) => c.id > unsure.after && c.seat === this.seat && c.text === text)) this.chatSaidAfterAll();
  }

  /** A line said "not sent" was said after all: its text leaves the input (unless it has been changed). */
  chatSaidAfterAll() {
    const { text } = this.chatUnsure;
    this.chatUnsure = null;
    const draft = this.chatDraft || "";
    if (draft === text) this.chatDraft = "";
    else if (draft.startsWith(`${text} `)) this.chatDraft = draft.slice(text.length + 1);
    const input = document.getElementById("chat-input");
    if (input && input.value !== this.chatDraft) input.value = this.chatDraft;
    if (this.chatNote && this.chatNote.kind === "unanswered") this.chatNote = null;
    this.renderChatNote();
  }

  renderChatNote() {
    const note = this.el.chatNote;
    note.hidden = !this.chatNote;
    note.textContent = this.chatNote ? this.chatNote.text : "";
  }

  renderScores() {
    const names = this.names();
    const box = clear(this.el.scores);
    box.append(h("h2", { id: "scores-h" }, t("scores.title")));
    const rows = h("tbody", {});
    for (let i = 0; i < this.players; i++) {
      const s = this.seats[i] || {};
      const turn = this.toAct.includes(i) ? t("scores.to_play") : this.mayAct.includes(i) ? t("scores.may_act") : "";
      const won = this.result && this.result.winners.includes(i);
      rows.append(h("tr", { class: [i === this.seat ? "me" : "", turn ? "active" : "", won ? "winner" : ""].join(" "), dataset: { seat: i } },
        h("th", { scope: "row" }, names[i], s.kind === "bot" ? h("span", { class: "muted" }, t("scores.bot", { bot: botLevel(s.bot) })) : null,
          s.kind === "human" && !s.claimed ? h("span", { class: "muted" }, t("scores.not_joined")) : null,
          // "a bot plays until they return": true only while the game is played
          s.stand_in && this.status === "playing" ? h("span", { class: "muted stand-in" }, t("scores.stand_in")) : null),
        h("td", { class: "score", dataset: { seat: i } }, fmtScore(this.scores ? this.scores[i] : null)),
        h("td", { class: "turn-mark" }, won ? t("scores.winner") : turn)));
    }
    const pace = this.pace && this.pace.kind !== "none"
      ? (this.pace.kind === "move" ? t("pace.move", { time: fmtClock(this.pace.seconds) })
        // the turn line may count down more than the clock holds: a move always has LAST_SECONDS
        : t("pace.clock", { time: fmtClock(this.pace.seconds), last: fmtClock(LAST_SECONDS) }))
      : null;
    if (pace) box.append(h("p", { class: "muted", id: "pace" }, t("pace.line", { pace })));
    box.append(h("table", { class: "score-table", id: "score-table" },
      h("thead", {}, h("tr", {}, h("th", { scope: "col" }, t("scores.player")), h("th", { scope: "col" }, t("scores.score")), h("th", { scope: "col" }, ""))),
      rows));
  }

  renderBoard(fresh = false) {
    const el = clear(this.el.board);
    el.dataset.game = this.game || "";
    if (!this.view) return;
    if (this.board.help) {
      el.append(h("details", { class: "how", open: this.helpOpen ? true : undefined, ontoggle: (ev) => { this.helpOpen = ev.target.open; } },
        h("summary", {}, t("table.how")), h("ul", {}, this.board.help.map((line) => h("li", {}, line)))));
    }
    try {
      this.board.render(el, this.ctx({ fresh }));
      if (fresh) this.noteAnimations(el);
    } catch (err) {
      console.error(err);
      clear(el).append(h("p", { class: "error" }, t("table.board_failed", { message: err.message })));
      generic.render(el, this.ctx());
    }
  }

  renderMoves() {
    const el = clear(this.el.moves);
    const ctx = this.ctx();
    if (ctx.readOnly || this.seat === null || !this.legal) return;
    const list = h("div", { class: "move-list", role: "group", "aria-label": t("moves.every") },
      ctx.legal.map((a) => h("button", { type: "button", class: "move small", dataset: { action: a.notation, fkey: `all:${a.notation}` },
        disabled: ctx.pending, onclick: () => this.act(a.notation) }, a.notation)));
    const input = h("input", { type: "text", id: "notation", "aria-label": t("moves.notation_label"), placeholder: t("moves.placeholder"), autocomplete: "off",
      value: this.typed || "", dataset: { fkey: "notation" }, oninput: (ev) => { this.typed = ev.target.value; } });
    const form = h("form", { class: "free-form", onsubmit: (ev) => { ev.preventDefault(); if (input.value.trim()) this.act(input.value.trim()); } },
      h("label", { for: "notation" }, t("moves.type")), input, h("button", { type: "submit", id: "notation-play" }, t("moves.play")),
      this.board.typingHint ? h("p", { class: "muted typing-hint", id: "typing-hint" }, this.board.typingHint(ctx)) : null);
    const open = this.movesOpen ?? this.board === generic;
    const det = h("details", { class: "all-moves", id: "all-moves", open: open ? true : undefined,
      ontoggle: (ev) => { this.movesOpen = ev.target.open; } },
      h("summary", {}, this.legal.truncated ? t("moves.summary_more", { n: ctx.legal.length }) : t("moves.summary", { n: ctx.legal.length })),
      this.board === generic ? null : list, form);
    el.append(det);
  }

  describe(ev) {
    let text = null;
    if (this.board.describe) {
      try { text = this.board.describe(ev, this.ctx()); } catch { text = null; }
    }
    return text ?? generic.describe(ev);
  }

  renderLog(full) {
    const log = this.el.log;
    const names = this.names();
    if (full) clear(log);
    const start = full ? 0 : this.steps.length - 1;
    for (const li of log.querySelectorAll(".fresh")) li.classList.remove("fresh");
    for (const st of this.steps.slice(start)) {
      const lines = st.events.map((ev) => h("li", { class: `event ${ev.audience ? "private" : ""}`, dataset: { kind: ev.kind } },
        this.describe(ev), ev.audience ? h("span", { class: "muted" }, t("log.only_you")) : null));
      log.append(h("li", { class: `step ${st.number === this.lastStep ? "fresh" : ""}`, dataset: { number: st.number } },
        h("span", { class: "step-no" }, `${st.number}. `),
        h("span", { class: "actor" }, st.actor === null || st.actor === undefined ? "" : names[st.actor],
          st.stoodIn ? h("span", { class: "muted stood-in" }, t("log.stood_in")) : null),
        h("ul", {}, lines)));
    }
    log.scrollTop = log.scrollHeight;
  }
}

/** A chat line as the server keeps it: characters that do not print become spaces, spaces squeezed. */
function cleanChat(text) {
  return text.replace(/[\p{C}\p{Z}\s]+/gu, " ").trim();
}

/** Why the server refused a chat line, in the page's words. */
function chatRefusal(m, game) {
  const own = {
    rate_limited: t("chat.refused.rate_limited"),
    bad_message: t("chat.refused.bad_message"),
    spectator: t("chat.refused.spectator"),
  }[m.code];
  return own || t("chat.refused", { reason: errorText(m.code, m.message, game) || m.code });
}

function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function connWord(status) {
  return { connecting: t("conn.connecting"), connected: t("conn.open"), reconnecting: t("conn.reconnecting"), closed: t("conn.closed") }[status] || status;
}

function fmtClock(seconds) {
  const whole = Math.ceil(seconds);
  const m = Math.floor(whole / 60);
  const sec = whole % 60;
  return m ? `${m}:${String(sec).padStart(2, "0")}` : t("time.seconds", { n: sec });
}
