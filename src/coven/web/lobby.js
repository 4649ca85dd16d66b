// The lobby: the games with their rules, a form to create a table, the links it hands out, the tables
// this browser holds a seat at ("Your tables") and the server's recent tables.
import { api, ApiError } from "./api.js";
import { h, clear, button, listing, PACE_DEFAULT_SECONDS, LAST_SECONDS } from "./util.js";
import { keptSeats, forgetSeat, markEnded, seatUrl, spectatorUrl } from "./seats.js";
import { deckBrowser } from "./deck.js";
import { customCardsField } from "./games/commandments_cards.js";
import { t as tr, textOr, errorText, lang, gameTitle, seatName, seatNames, botLevel } from "./i18n.js";

/** A variant worth naming beside a table's game (The 3 Commandments' expert variant). */
function variantText(t) {
  const o = t.options || {};
  if (t.game !== "commandments") return "";
  const parts = [];
  if (o.expert) parts.push(tr("lobby.variant.expert"));
  if (o.judge === "priestess") parts.push(tr("lobby.variant.priestess"));
  return parts.length ? ` · ${parts.join(", ")}` : "";
}

/** A table's status in words. */
function statusWord(status) {
  return { waiting: tr("status.waiting"), playing: tr("status.playing"), over: tr("status.over") }[status] || status;
}

/** A game's summary: the catalogue's own where it has one (the server's text is English), else the server's. */
function gameSummary(g) {
  const own = { commandments: tr("game.commandments.summary"), brujas: tr("game.brujas.summary"),
    namaste: tr("game.namaste.summary"), amulets: tr("game.amulets.summary") }[g.id];
  return own && !own.startsWith("⟦") && lang !== "en" ? own : g.summary;
}

/** An option's name in the page's language (its key where the catalogue has none: a game of a server's own). */
function optionName(opt) {
  return textOr(`optname.${opt.key}`, opt.key);
}

/** One of a choice option's values in words (the value itself where the catalogue has none). */
function choiceText(opt, value) {
  return textOr(`optchoice.${opt.key}.${value}`, value);
}

/** An option's description, said after its name: the catalogue's (in either language: the server's English
 * may repeat the name, "Expert variant — expert variant: …"), else the server's own. */
function optionText(opt) {
  return textOr(`opt.${opt.key}`, opt.description);
}

/** What a bot level plays like, in the page's language (every level the games offer; another name gets a
 * plain line). */
export function botText(bot) {
  return {
    random: tr("bot.desc.random"),
    beginner: tr("bot.desc.beginner"),
    casual: tr("bot.desc.casual"),
    greedy: tr("bot.desc.greedy"),
    best: tr("bot.desc.best"),
    reference: tr("bot.desc.reference"),
    search: tr("bot.desc.search"),
  }[bot] || tr("bot.desc.other", { bot });
}

/** The Commandments deck, browsable in the lobby (loaded when opened). */
function deckDetails() {
  const details = h("details", { class: "rules deck-details", id: "deck-commandments" },
    h("summary", {}, tr("lobby.deck.summary")));
  details.addEventListener("toggle", () => {
    if (!details.open || details.querySelector(".deck-browser")) return;
    details.append(deckBrowser({ prefix: "lobby-deck" }),
      h("p", {}, h("a", { href: "/deck.html", class: "deck-page-link" }, tr("lobby.deck.page"))));
  });
  return details;
}

export async function mountLobby(root) {
  document.title = tr("lobby.doctitle");
  const gamesBox = h("section", { class: "games", "aria-labelledby": "games-h" },
    h("h1", { id: "games-h" }, tr("lobby.games")));
  const createBox = h("section", { class: "create panel", "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, tr("lobby.new_table")));
  const linksBox = h("section", { class: "links", id: "links", "aria-live": "polite" });
  const yoursBox = h("section", { class: "yours panel", id: "your-tables", "aria-labelledby": "yours-h" });
  const recentBox = h("section", { class: "recent panel", "aria-labelledby": "recent-h" },
    h("h2", { id: "recent-h" }, tr("lobby.recent")));
  // "Your tables" first (on a phone it is what a returning person looks for), the games beside it on a
  // wide screen.
  root.append(h("div", { class: "lobby" }, yoursBox, gamesBox, h("div", { class: "side" }, createBox, linksBox, recentBox)));
  const titles = new Map();
  loadYours(yoursBox, titles);

  let games;
  try {
    games = (await api.games()).map((g) => ({ ...g, title: gameTitle(g.id, g.title) }));
  } catch (err) {
    gamesBox.append(h("p", { class: "error", role: "alert" }, tr("lobby.games_failed", { message: errorText(err.code, err.message) })));
    return;
  }
  for (const g of games) titles.set(g.id, g.title);
  for (const g of games) gamesBox.append(gameCard(g));
  createBox.append(createForm(games, linksBox, () => { loadRecent(recentBox, titles); }));
  if (games.some((g) => g.id === new URLSearchParams(location.search).get("game"))) {
    // come from a finished table's "new table": the form is what the person came for
    createBox.scrollIntoView({ block: "start" });
    document.getElementById("new-game").focus({ preventScroll: true });
  }
  loadRecent(recentBox, titles);
}

/** The rules as the server renders them (GET /rules/{game}?lang=…, in the interface's language when the
 * game has a rulebook in it, else in English): the page's article, headings and all. */
async function loadRules(gameId) {
  let res;
  try {
    res = await fetch(`/rules/${encodeURIComponent(gameId)}?lang=${encodeURIComponent(lang)}`, { headers: { Accept: "text/html" } });
  } catch (err) {
    throw new ApiError(0, "network", tr("lobby.unreachable", { message: err.message }));
  }
  const page = new DOMParser().parseFromString(await res.text(), "text/html");
  if (!res.ok) {
    const why = page.querySelector(".error");
    throw new ApiError(res.status, String(res.status), why ? why.textContent : `${res.status} ${res.statusText}`);
  }
  const article = page.querySelector("article.rulebook");
  if (!article) throw new ApiError(res.status, "bad_page", tr("lobby.rules_empty"));
  return document.adoptNode(article);
}

function gameCard(g) {
  const rulesBody = h("div", { class: "rules-text" }, tr("lobby.rules_loading"));
  const details = h("details", { class: "rules", id: `rules-${g.id}` },
    h("summary", {}, tr("lobby.rules_of", { title: g.title })), rulesBody);
  let loaded = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || loaded) return;
    loaded = true;
    try {
      const article = await loadRules(g.id);
      article.classList.remove("panel");
      article.removeAttribute("id");
      const written = article.getAttribute("lang") || "en"; // the server says which language it sent
      article.lang = written;
      const page = `/rules/${encodeURIComponent(g.id)}${written === "en" ? "" : `?lang=${encodeURIComponent(written)}`}`;
      clear(rulesBody).append(written === lang ? "" : h("p", { class: "muted rules-language" }, tr("rules.in_english")), article,
        h("p", {}, h("a", { href: page, class: "rules-page-link" }, tr("lobby.rules_page", { title: g.title }))));
    } catch (err) {
      loaded = false; // let a later toggle try again
      clear(rulesBody).append(h("p", { class: "error" }, tr("lobby.rules_failed", { message: err.message })));
    }
  });
  const facts = [tr("lobby.facts.players", { min: g.min_players, max: g.max_players })];
  if (g.hidden_information) facts.push(tr("lobby.facts.hidden"));
  if (g.simultaneous) facts.push(tr("lobby.facts.simultaneous"));
  return h("article", { class: "game-card panel", id: `game-${g.id}`, dataset: { game: g.id } },
    h("h2", {}, g.title),
    h("p", { class: "summary" }, gameSummary(g)),
    h("p", { class: "facts" }, facts.join(" · ")),
    g.has_rules === false ? h("p", { class: "muted" }, tr("lobby.no_rulebook")) : details,
    g.id === "commandments" ? deckDetails() : null);
}

function optionField(opt, idPrefix) {
  const id = `${idPrefix}-${opt.key}`;
  let input;
  if (opt.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: opt.key, checked: opt.default === true });
    return h("div", { class: "field check" }, input,
      h("label", { for: id }, h("strong", {}, optionName(opt)), " — ", optionText(opt)));
  }
  if (opt.kind === "int") {
    input = h("input", { type: "number", id, name: opt.key, value: opt.default, step: 1,
      min: opt.minimum ?? undefined, max: opt.maximum ?? undefined });
  } else if (opt.kind === "choice") {
    input = h("select", { id, name: opt.key },
      opt.choices.map((c) => h("option", { value: c, selected: c === opt.default }, choiceText(opt, c))));
  } else {
    input = h("input", { type: "text", id, name: opt.key, value: opt.default ?? "" });
  }
  return h("div", { class: "field" },
    h("label", { for: id }, h("strong", {}, optionName(opt)), " — ", optionText(opt)), input);
}

function readOption(opt, form) {
  const el = form.elements.namedItem(opt.key);
  if (!el) return opt.default;
  if (opt.kind === "bool") return el.checked;
  if (opt.kind === "int") return Number.parseInt(el.value, 10);
  return el.value;
}

function createForm(games, linksBox, onCreated) {
  const form = h("form", { class: "create-form", novalidate: true });
  const gameSel = h("select", { id: "new-game", name: "game" },
    games.map((g) => h("option", { value: g.id }, g.title)));
  const playersSel = h("select", { id: "new-players", name: "players" });
  const optionsBox = h("fieldset", { class: "options" });
  const seatsBox = h("fieldset", { class: "seats" });
  const paceSel = h("select", { id: "new-pace", name: "pace" },
    h("option", { value: "none" }, tr("lobby.pace.none")),
    h("option", { value: "move" }, tr("lobby.pace.move")),
    h("option", { value: "clock" }, tr("lobby.pace.clock")));
  const paceSeconds = h("input", { type: "number", id: "new-pace-seconds", name: "pace_seconds", "aria-label": tr("lobby.pace.seconds_label"), min: 5, max: 86400, step: 1,
    placeholder: tr("lobby.pace.seconds_placeholder"), "aria-describedby": "new-pace-hint" });
  // Which seconds an empty field means, and what a clock allows, said for the pace chosen.
  const paceHint = h("p", { class: "muted field-hint", id: "new-pace-hint" });
  const sayPace = () => {
    const kind = paceSel.value;
    const n = PACE_DEFAULT_SECONDS[kind];
    paceSeconds.placeholder = n ? tr("lobby.pace.default", { n }) : tr("lobby.pace.seconds_placeholder");
    paceHint.textContent = kind === "move" ? tr("lobby.pace.hint_move", { n })
      : kind === "clock" ? tr("lobby.pace.hint_clock", { n, last: LAST_SECONDS }) : tr("lobby.pace.seconds_hint");
  };
  paceSel.addEventListener("change", sayPace);
  sayPace();
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "primary", id: "create-table" }, tr("lobby.create"));

  const current = () => games.find((g) => g.id === gameSel.value);

  function renderPlayers() {
    const g = current();
    const keep = Number(playersSel.value) || g.min_players;
    clear(playersSel);
    for (let n = g.min_players; n <= g.max_players; n++) {
      playersSel.append(h("option", { value: n, selected: n === Math.min(Math.max(keep, g.min_players), g.max_players) }, String(n)));
    }
  }
  function renderOptions() {
    const g = current();
    clear(optionsBox).append(h("legend", {}, g.options.length ? tr("lobby.options") : tr("lobby.no_options")));
    for (const opt of g.options) {
      optionsBox.append(g.id === "commandments" && opt.key === "custom_cards" ? customCardsField(opt, "opt") : optionField(opt, "opt"));
    }
  }
  function renderSeats() {
    const g = current();
    const n = Number(playersSel.value);
    const before = [...seatsBox.querySelectorAll(".seat-row")].map((row) => ({
      kind: row.querySelector("select").value, name: row.querySelector("input").value }));
    clear(seatsBox).append(h("legend", {}, tr("lobby.seats")),
      h("details", { class: "bot-levels", id: "bot-levels" }, h("summary", {}, tr("lobby.bot_levels")),
        h("dl", {}, g.bots.map((b) => [h("dt", {}, botLevel(b)), h("dd", { dataset: { bot: b } }, botText(b))]))));
    for (let i = 0; i < n; i++) {
      const old = before[i];
      const defaultKind = i === 0 ? "human" : `bot:${g.bots.includes("greedy") ? "greedy" : g.bots[0] || "random"}`;
      const kind = old && (old.kind === "human" || g.bots.includes(old.kind.slice(4))) ? old.kind : defaultKind;
      const sel = h("select", { id: `seat-${i}-kind`, "aria-label": tr("lobby.seat_who", { n: i + 1 }) },
        h("option", { value: "human", selected: kind === "human" }, tr("lobby.a_person")),
        g.bots.map((b) => h("option", { value: `bot:${b}`, selected: kind === `bot:${b}`, title: botText(b) }, tr("lobby.bot", { bot: botLevel(b) }))));
      // What the chosen bot plays like, under the seat (and read with the select by screen readers).
      const desc = h("p", { class: "bot-desc muted", id: `seat-${i}-desc` });
      const describe = () => {
        desc.textContent = sel.value.startsWith("bot:") ? botText(sel.value.slice(4)) : tr("lobby.person_desc");
      };
      sel.setAttribute("aria-describedby", desc.id);
      sel.addEventListener("change", describe);
      describe();
      const name = h("input", { type: "text", id: `seat-${i}-name`, maxlength: 40,
        "aria-label": tr("lobby.seat_name", { n: i + 1 }), placeholder: i === 0 ? tr("lobby.your_name") : tr("lobby.name_optional"),
        value: old ? old.name : "" });
      seatsBox.append(h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, tr("lobby.seat_n", { n: i + 1 })), sel, name, desc));
    }
  }

  gameSel.addEventListener("change", () => { renderPlayers(); renderOptions(); renderSeats(); });
  playersSel.addEventListener("change", renderSeats);
  // A finished table's "new table" link (/?game=…&players=…) opens the form on the same game and count.
  const asked = new URLSearchParams(location.search);
  if (games.some((g) => g.id === asked.get("game"))) gameSel.value = asked.get("game");
  renderPlayers();
  const count = Number(asked.get("players"));
  if (Number.isInteger(count) && count >= current().min_players && count <= current().max_players) playersSel.value = String(count);
  renderOptions(); renderSeats();

  // One table per request: the button is disabled and a flag refuses a second submission while one is
  // on its way (a double click, Enter pressed twice). Once the table exists, the button stays disabled
  // until the person changes the form or asks for another table, so a slow double click cannot make
  // a second one.
  let submitting = false;
  let created = false;
  const again = h("button", { type: "button", id: "create-another", hidden: true,
    onclick: () => ready(tr("lobby.create")) }, tr("lobby.create_another"));
  function ready(label) {
    created = false;
    again.hidden = true;
    submit.disabled = false;
    submit.textContent = label;
  }
  form.addEventListener("input", () => { if (created) ready(tr("lobby.create")); });
  form.addEventListener("change", () => { if (created) ready(tr("lobby.create")); });

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (submitting || created) return;
    errorBox.hidden = true;
    const g = current();
    const options = {};
    for (const opt of g.options) options[opt.key] = readOption(opt, form);
    const seats = [...seatsBox.querySelectorAll(".seat-row")].map((row) => {
      const kind = row.querySelector("select").value;
      const name = row.querySelector("input").value.trim() || null;
      return kind === "human" ? { kind: "human", name } : { kind: "bot", bot: kind.slice(4), name };
    });
    const body = { game: g.id, players: Number(playersSel.value), options, seats, pace: paceSel.value };
    if (paceSel.value !== "none" && paceSeconds.value !== "") {
      // the server's bounds, said in the page's words before anything is sent
      const seconds = Number(paceSeconds.value);
      const [min, max] = [Number(paceSeconds.min), Number(paceSeconds.max)];
      if (!Number.isInteger(seconds) || seconds < min || seconds > max) {
        errorBox.textContent = tr("lobby.create_failed", { message: tr("lobby.pace.bad_seconds", { min, max }) });
        errorBox.hidden = false;
        paceSeconds.focus();
        return;
      }
      body.pace_seconds = seconds;
    }
    submitting = true;
    submit.disabled = true;
    submit.textContent = tr("lobby.creating");
    form.setAttribute("aria-busy", "true");
    try {
      const made = await api.createTable(body);
      created = true;
      submit.textContent = tr("lobby.created");
      again.hidden = false;
      showLinks(linksBox, made, g.title);
      if (onCreated) onCreated(made);
    } catch (err) {
      // too many tables from this address: say what happened and when another can be made, in the page's words
      const message = err.status === 429 && err.retryAfter !== null
        ? tr("lobby.too_many_tables", { seconds: err.retryAfter })
        : errorText(err.code, err.message, null, err.reason);
      errorBox.textContent = tr("lobby.create_failed", { message });
      errorBox.hidden = false;
      ready(tr("lobby.create"));
    } finally {
      submitting = false;
      form.removeAttribute("aria-busy");
    }
  });

  form.append(
    h("div", { class: "field" }, h("label", { for: "new-game" }, tr("lobby.game")), gameSel),
    h("div", { class: "field" }, h("label", { for: "new-players" }, tr("lobby.players")), playersSel),
    optionsBox, seatsBox,
    h("div", { class: "field" }, h("label", { for: "new-pace" }, tr("lobby.pace")),
      paceSel, paceSeconds, paceHint),
    h("p", { class: "muted" }, tr("lobby.deal_note")),
    errorBox, h("div", { class: "actions-row" }, submit, again));
  return form;
}

function copyButton(text) {
  return button(tr("common.copy"), async (ev) => {
    try {
      await navigator.clipboard.writeText(text);
      ev.target.textContent = tr("common.copied");
    } catch {
      ev.target.textContent = tr("common.select_copy");
    }
  }, { class: "small" });
}

function showLinks(box, created, title) {
  clear(box).classList.add("panel");
  const t = created.table;
  box.append(h("h2", {}, tr("lobby.ready")),
    h("p", {}, tr("lobby.ready_note")));
  const list = h("ul", { class: "invites" });
  for (const inv of created.invites) {
    list.append(h("li", { class: "invite", dataset: { seat: inv.seat } },
      h("span", {}, tr("lobby.invite_for", { n: inv.seat + 1, name: seatName({ kind: "human", name: inv.name }, inv.seat) })),
      h("a", { href: inv.url, class: "invite-link", target: "_blank", rel: "noopener" }, tr("lobby.open_seat")),
      " ", h("code", { class: "url" }, inv.url), " ", copyButton(inv.url)));
  }
  box.append(list);
  box.append(h("p", { class: "spectate" }, tr("lobby.spectator_link"),
    h("a", { href: created.spectator_url, class: "spectator-link" }, tr("lobby.watch")), " ",
    h("code", { class: "url" }, created.spectator_url), " ", copyButton(created.spectator_url)));
  if (created.invites.length) {
    box.append(h("p", {}, h("a", { class: "primary button play-link", href: created.invites[0].url },
      tr("lobby.play_here", { n: created.invites[0].seat + 1 }))));
  } else {
    box.append(h("p", {}, h("a", { class: "primary button", href: created.spectator_url }, tr("lobby.watch_bots"))));
  }
  box.append(h("p", { class: "muted" }, tr("lobby.table_line", { id: t.id, game: title || t.game, variant: variantText(t), players: t.players })));
}

function statusText(t, entry, names) {
  if (t.status === "waiting") {
    const open = t.seats.filter((x) => x.kind === "human" && !x.claimed).map((x) => names[x.seat]);
    return open.length ? tr("lobby.st.waiting_for", { names: listing(open) }) : tr("lobby.st.waiting");
  }
  if (t.status === "playing") {
    const turn = t.to_act || [];
    // out of time, a bot plays the seat until the person is back: returning takes it back
    const mine = t.seats.find((x) => x.seat === entry.seat);
    if (mine && mine.stand_in) return tr("lobby.st.stood_in", { n: t.number });
    if (turn.includes(entry.seat)) return tr("lobby.st.your_turn", { n: t.number });
    return turn.length ? tr("lobby.st.to_play", { names: listing(turn.map((s) => names[s])), n: t.number }) : tr("lobby.st.playing", { n: t.number });
  }
  if (t.status === "over") {
    const winners = t.result ? t.result.winners : [];
    if (winners.includes(entry.seat)) return winners.length > 1 ? tr("lobby.st.you_share") : tr("lobby.st.you_won");
    return winners.length ? tr("lobby.st.won", { names: listing(winners.map((w) => names[w])) }) : tr("lobby.st.over");
  }
  return statusWord(t.status);
}

/** "Your tables": the seats this browser keeps, each with its table's state from the server. */
async function loadYours(box, titles) {
  const entries = keptSeats();
  clear(box).append(h("h2", { id: "yours-h" }, tr("lobby.yours")));
  if (!entries.length) {
    box.append(h("p", { class: "muted" }, tr("lobby.yours_none")));
    return;
  }
  const ul = h("ul", { class: "your-list" });
  box.append(ul);
  // Every seat kept: those at tables still in play (never dropped: the way back to them) first, then the
  // newest ended ones (seats.js keeps ENDED_KEPT of them).
  const rows = entries.map((entry) => {
    const status = h("span", { class: "your-status" }, "…");
    const actions = h("span", { class: "your-actions" });
    const li = h("li", { class: "your-table", dataset: { table: entry.table, seat: entry.seat } },
      h("span", { class: "your-title" }, h("strong", {}, titles.get(entry.game) || entry.title || entry.game), h("span", { class: "variant" }, ""),
        tr("lobby.yours_seat", { n: entry.seat + 1, name: seatName({ kind: "human", name: entry.name }, entry.seat) })),
      " · ", status, actions);
    ul.append(li);
    return { entry, li, status, actions };
  });
  await inTurns(rows, 6, async ({ entry, li, status, actions }) => {
    const back = h("a", { class: "button small primary return-link", href: seatUrl(entry) }, tr("lobby.return"));
    const watch = h("a", { class: "button small watch-link", href: spectatorUrl(entry.table) }, tr("lobby.spectator"));
    const remove = button(tr("lobby.remove"), () => {
      forgetSeat(entry.table);
      li.remove();
      if (!ul.children.length) loadYours(box, titles);
    }, { class: "small forget", "aria-label": tr("lobby.remove_label", { id: entry.table }) });
    try {
      const t = await api.table(entry.table);
      const names = seatNames(t.seats);
      li.dataset.status = t.status;
      li.querySelector(".variant").textContent = variantText(t);
      status.textContent = statusText(t, entry, names);
      actions.append(" ", back, " ", watch);
      if (t.status === "over") {
        actions.append(" ", remove);
        markEnded(entry.table);
      }
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        li.dataset.status = "gone";
        status.textContent = tr("lobby.gone");
        actions.append(" ", remove);
        markEnded(entry.table);
      } else {
        li.dataset.status = "unknown";
        status.textContent = tr("lobby.unknown", { message: err.message });
        actions.append(" ", back);
      }
    }
  });
  box.dataset.ready = "yes";
}

/** `work` on each of `items`, at most `atOnce` at a time (the server counts each address's requests). */
async function inTurns(items, atOnce, work) {
  let next = 0;
  const runner = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, runner));
}

async function loadRecent(box, titles) {
  delete box.dataset.ready;
  clear(box).append(h("h2", { id: "recent-h" }, tr("lobby.recent")));
  try {
    const tables = await api.tables();
    if (!tables.length) { box.append(h("p", { class: "muted" }, tr("lobby.no_tables"))); return; }
    const mine = new Map(keptSeats().map((e) => [e.table, e]));
    const ul = h("ul", { class: "recent-list" });
    for (const t of tables.slice(0, 12)) {
      const who = seatNames(t.seats).join(", ");
      const entry = mine.get(t.id);
      // A table where this browser holds a seat opens in that seat; any other one opens to watch.
      const link = entry
        ? h("a", { href: seatUrl(entry), class: "recent-seat" }, tr("lobby.recent_seat", { title: titles.get(t.game) || t.game }))
        : h("a", { href: `/t/${encodeURIComponent(t.id)}`, class: "recent-watch" }, tr("lobby.recent_watch", { title: titles.get(t.game) || t.game }));
      ul.append(h("li", {}, link, `${variantText(t)} · ${statusWord(t.status)} · ${who}`));
    }
    box.append(ul);
  } catch (err) {
    box.append(h("p", { class: "muted" }, tr("lobby.no_list", { message: err.message })));
  } finally {
    box.dataset.ready = "yes";  // (the browser tests wait for it)
  }
}
