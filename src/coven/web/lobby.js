// The lobby: the games with their rules, a form to create a table, the links it hands out, the tables
// this browser holds a seat at ("Your tables") and the server's recent tables.
import { api, ApiError } from "./api.js";
import { h, clear, button, listing } from "./util.js";
import { keptSeats, forgetSeat, seatUrl, spectatorUrl } from "./seats.js";
import { deckBrowser } from "./deck.js";
import { customCardsField } from "./games/commandments_cards.js";

/** A variant worth naming beside a table's game (The 3 Commandments' expert variant). */
function variantText(t) {
  const o = t.options || {};
  if (t.game !== "commandments") return "";
  const parts = [];
  if (o.expert) parts.push("expert variant");
  if (o.judge === "priestess") parts.push("judged by the High Priestess");
  return parts.length ? ` · ${parts.join(", ")}` : "";
}

/** The Commandments deck, browsable in the lobby (loaded when opened). */
function deckDetails() {
  const details = h("details", { class: "rules deck-details", id: "deck-commandments" },
    h("summary", {}, "The deck: every card, in English and French"));
  details.addEventListener("toggle", () => {
    if (!details.open || details.querySelector(".deck-browser")) return;
    details.append(deckBrowser({ prefix: "lobby-deck" }),
      h("p", {}, h("a", { href: "/deck.html", class: "deck-page-link" }, "The deck as a page of its own")));
  });
  return details;
}

export async function mountLobby(root) {
  document.title = "Coven — lobby";
  const gamesBox = h("section", { class: "games", "aria-labelledby": "games-h" },
    h("h1", { id: "games-h" }, "The games"));
  const createBox = h("section", { class: "create panel", "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, "New table"));
  const linksBox = h("section", { class: "links", id: "links", "aria-live": "polite" });
  const yoursBox = h("section", { class: "yours panel", id: "your-tables", "aria-labelledby": "yours-h" });
  const recentBox = h("section", { class: "recent panel", "aria-labelledby": "recent-h" },
    h("h2", { id: "recent-h" }, "Recent tables"));
  // "Your tables" first (on a phone it is what a returning person looks for), the games beside it on a
  // wide screen.
  root.append(h("div", { class: "lobby" }, yoursBox, gamesBox, h("div", { class: "side" }, createBox, linksBox, recentBox)));
  const titles = new Map();
  loadYours(yoursBox, titles);

  let games;
  try {
    games = await api.games();
  } catch (err) {
    gamesBox.append(h("p", { class: "error", role: "alert" }, `Could not load the games: ${err.message}`));
    return;
  }
  for (const g of games) titles.set(g.id, g.title);
  for (const g of games) gamesBox.append(gameCard(g));
  createBox.append(createForm(games, linksBox, () => { loadRecent(recentBox, titles); }));
  loadRecent(recentBox, titles);
}

/** The rules as the server renders them (GET /rules/{game}): the page's article, headings and all. */
async function loadRules(gameId) {
  let res;
  try {
    res = await fetch(`/rules/${encodeURIComponent(gameId)}`, { headers: { Accept: "text/html" } });
  } catch (err) {
    throw new ApiError(0, "network", `the server cannot be reached (${err.message})`);
  }
  const page = new DOMParser().parseFromString(await res.text(), "text/html");
  if (!res.ok) {
    const why = page.querySelector(".error");
    throw new ApiError(res.status, String(res.status), why ? why.textContent : `${res.status} ${res.statusText}`);
  }
  const article = page.querySelector("article.rulebook");
  if (!article) throw new ApiError(res.status, "bad_page", "the rules page has no rules in it");
  return document.adoptNode(article);
}

function gameCard(g) {
  const rulesBody = h("div", { class: "rules-text" }, "Loading the rules…");
  const details = h("details", { class: "rules", id: `rules-${g.id}` },
    h("summary", {}, `Rules of ${g.title}`), rulesBody);
  let loaded = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || loaded) return;
    loaded = true;
    try {
      const article = await loadRules(g.id);
      article.classList.remove("panel");
      article.removeAttribute("id");
      clear(rulesBody).append(article,
        h("p", {}, h("a", { href: `/rules/${encodeURIComponent(g.id)}`, class: "rules-page-link" }, `The rules of ${g.title} as a page of their own`)));
    } catch (err) {
      loaded = false; // let a later toggle try again
      clear(rulesBody).append(h("p", { class: "error" }, `The rules could not be loaded: ${err.message}`));
    }
  });
  const facts = [`${g.min_players}–${g.max_players} players`];
  if (g.hidden_information) facts.push("hidden information");
  if (g.simultaneous) facts.push("simultaneous choices");
  return h("article", { class: "game-card panel", id: `game-${g.id}`, dataset: { game: g.id } },
    h("h2", {}, g.title),
    h("p", { class: "summary" }, g.summary),
    h("p", { class: "facts" }, facts.join(" · ")),
    g.has_rules === false ? h("p", { class: "muted" }, "(This server ships no rulebook for this game.)") : details,
    g.id === "commandments" ? deckDetails() : null);
}

function optionField(opt, idPrefix) {
  const id = `${idPrefix}-${opt.key}`;
  let input;
  if (opt.kind === "bool") {
    input = h("input", { type: "checkbox", id, name: opt.key, checked: opt.default === true });
    return h("div", { class: "field check" }, input,
      h("label", { for: id }, h("strong", {}, opt.key), " — ", opt.description));
  }
  if (opt.kind === "int") {
    input = h("input", { type: "number", id, name: opt.key, value: opt.default, step: 1,
      min: opt.minimum ?? undefined, max: opt.maximum ?? undefined });
  } else if (opt.kind === "choice") {
    input = h("select", { id, name: opt.key },
      opt.choices.map((c) => h("option", { value: c, selected: c === opt.default }, c)));
  } else {
    input = h("input", { type: "text", id, name: opt.key, value: opt.default ?? "" });
  }
  return h("div", { class: "field" },
    h("label", { for: id }, h("strong", {}, opt.key), " — ", opt.description), input);
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
    h("option", { value: "none" }, "no time limit"),
    h("option", { value: "move" }, "a limit for each move"),
    h("option", { value: "clock" }, "a clock for each player"));
  const paceSeconds = h("input", { type: "number", id: "new-pace-seconds", name: "pace_seconds", "aria-label": "Seconds", min: 5, max: 86400, step: 1,
    placeholder: "seconds (120 a move, 600 a clock)" });
  const errorBox = h("p", { class: "error", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "primary", id: "create-table" }, "Create the table");

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
    clear(optionsBox).append(h("legend", {}, g.options.length ? "Options and variants" : "No options"));
    for (const opt of g.options) {
      optionsBox.append(g.id === "commandments" && opt.key === "custom_cards" ? customCardsField(opt, "opt") : optionField(opt, "opt"));
    }
  }
  function renderSeats() {
    const g = current();
    const n = Number(playersSel.value);
    const before = [...seatsBox.querySelectorAll(".seat-row")].map((row) => ({
      kind: row.querySelector("select").value, name: row.querySelector("input").value }));
    clear(seatsBox).append(h("legend", {}, "Seats"));
    for (let i = 0; i < n; i++) {
      const old = before[i];
      const defaultKind = i === 0 ? "human" : `bot:${g.bots.includes("greedy") ? "greedy" : g.bots[0] || "random"}`;
      const kind = old && (old.kind === "human" || g.bots.includes(old.kind.slice(4))) ? old.kind : defaultKind;
      const sel = h("select", { id: `seat-${i}-kind`, "aria-label": `Seat ${i + 1}: who plays` },
        h("option", { value: "human", selected: kind === "human" }, "a person"),
        g.bots.map((b) => h("option", { value: `bot:${b}`, selected: kind === `bot:${b}` }, `bot: ${b}`)));
      const name = h("input", { type: "text", id: `seat-${i}-name`, maxlength: 40,
        "aria-label": `Seat ${i + 1}: name`, placeholder: i === 0 ? "your name" : "name (optional)",
        value: old ? old.name : "" });
      seatsBox.append(h("div", { class: "seat-row" }, h("span", { class: "seat-no" }, `Seat ${i + 1}`), sel, name));
    }
  }

  gameSel.addEventListener("change", () => { renderPlayers(); renderOptions(); renderSeats(); });
  playersSel.addEventListener("change", renderSeats);
  renderPlayers(); renderOptions(); renderSeats();

  // One table per request: the button is disabled and a flag refuses a second submission while one is
  // on its way (a double click, Enter pressed twice). Once the table exists, the button stays disabled
  // until the person changes the form or asks for another table, so a slow double click cannot make
  // a second one.
  let submitting = false;
  let created = false;
  const again = h("button", { type: "button", id: "create-another", hidden: true,
    onclick: () => ready("Create the table") }, "Create another table");
  function ready(label) {
    created = false;
    again.hidden = true;
    submit.disabled = false;
    submit.textContent = label;
  }
  form.addEventListener("input", () => { if (created) ready("Create the table"); });
  form.addEventListener("change", () => { if (created) ready("Create the table"); });

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
    if (paceSel.value !== "none" && paceSeconds.value !== "") body.pace_seconds = Number.parseInt(paceSeconds.value, 10);
    submitting = true;
    submit.disabled = true;
    submit.textContent = "Creating the table…";
    form.setAttribute("aria-busy", "true");
    try {
      const made = await api.createTable(body);
      created = true;
      submit.textContent = "Table created";
      again.hidden = false;
      showLinks(linksBox, made);
      if (onCreated) onCreated(made);
    } catch (err) {
      errorBox.textContent = `The table was not created: ${err.message}`;
      errorBox.hidden = false;
      ready("Create the table");
    } finally {
      submitting = false;
      form.removeAttribute("aria-busy");
    }
  });

  form.append(
    h("div", { class: "field" }, h("label", { for: "new-game" }, "Game"), gameSel),
    h("div", { class: "field" }, h("label", { for: "new-players" }, "Players"), playersSel),
    optionsBox, seatsBox,
    h("div", { class: "field" }, h("label", { for: "new-pace" }, "Pace (a player out of time is replaced by a bot until they return)"),
      paceSel, paceSeconds),
    h("p", { class: "muted" }, "The server shuffles and deals: nobody at the table, you included, can know the deal."),
    errorBox, h("div", { class: "actions-row" }, submit, again));
  return form;
}

function copyButton(text) {
  return button("Copy", async (ev) => {
    try {
      await navigator.clipboard.writeText(text);
      ev.target.textContent = "Copied";
    } catch {
      ev.target.textContent = "Select and copy";
    }
  }, { class: "small" });
}

function showLinks(box, created) {
  clear(box).classList.add("panel");
  const t = created.table;
  box.append(h("h2", {}, "Your table is ready"),
    h("p", {}, "Each person's invite link is private: it is their seat. It is shown only now — send each one to its person. "
      + "A seat opened in this browser is kept under “Your tables”."));
  const list = h("ul", { class: "invites" });
  for (const inv of created.invites) {
    list.append(h("li", { class: "invite", dataset: { seat: inv.seat } },
      h("span", {}, `Seat ${inv.seat + 1} (${inv.name}) — invite link: `),
      h("a", { href: inv.url, class: "invite-link", target: "_blank", rel: "noopener" }, "open the seat"),
      " ", h("code", { class: "url" }, inv.url), " ", copyButton(inv.url)));
  }
  box.append(list);
  box.append(h("p", { class: "spectate" }, "Spectator link (read-only, anyone may watch): ",
    h("a", { href: created.spectator_url, class: "spectator-link" }, "watch"), " ",
    h("code", { class: "url" }, created.spectator_url), " ", copyButton(created.spectator_url)));
  if (created.invites.length) {
    box.append(h("p", {}, h("a", { class: "primary button play-link", href: created.invites[0].url },
      `Play seat ${created.invites[0].seat + 1} in this window`)));
  } else {
    box.append(h("p", {}, h("a", { class: "primary button", href: created.spectator_url }, "Watch the bots")));
  }
  box.append(h("p", { class: "muted" }, `Table ${t.id} · ${t.game}${variantText(t)} · ${t.players} players`));
}

function statusText(t, entry, names) {
  if (t.status === "waiting") {
    const open = t.seats.filter((x) => x.kind === "human" && !x.claimed).map((x) => names[x.seat]);
    return open.length ? `waiting for ${listing(open)} to join` : "waiting to start";
  }
  if (t.status === "playing") {
    const turn = t.to_act || [];
    if (turn.includes(entry.seat)) return `your turn · move ${t.number}`;
    return turn.length ? `${listing(turn.map((s) => names[s]))} to play · move ${t.number}` : `playing · move ${t.number}`;
  }
  if (t.status === "over") {
    const winners = t.result ? t.result.winners : [];
    if (winners.includes(entry.seat)) return winners.length > 1 ? "over · you share the win" : "over · you won";
    return winners.length ? `over · ${listing(winners.map((w) => names[w]))} won` : "over";
  }
  return t.status;
}

/** "Your tables": the seats this browser keeps, each with its table's state from the server. */
async function loadYours(box, titles) {
  const entries = keptSeats();
  clear(box).append(h("h2", { id: "yours-h" }, "Your tables"));
  if (!entries.length) {
    box.append(h("p", { class: "muted" }, "None yet. When you open an invite link, this browser keeps your seat here, so you can come back to it."));
    return;
  }
  const ul = h("ul", { class: "your-list" });
  box.append(ul);
  const rows = entries.slice(0, 30).map((entry) => {
    const status = h("span", { class: "your-status" }, "…");
    const actions = h("span", { class: "your-actions" });
    const li = h("li", { class: "your-table", dataset: { table: entry.table, seat: entry.seat } },
      h("span", { class: "your-title" }, h("strong", {}, titles.get(entry.game) || entry.title || entry.game), h("span", { class: "variant" }, ""),
        ` · seat ${entry.seat + 1} (${entry.name})`),
      " · ", status, actions);
    ul.append(li);
    return { entry, li, status, actions };
  });
  await Promise.all(rows.map(async ({ entry, li, status, actions }) => {
    const back = h("a", { class: "button small primary return-link", href: seatUrl(entry) }, "Return to your seat");
    const watch = h("a", { class: "button small watch-link", href: spectatorUrl(entry.table) }, "Spectator link");
    const remove = button("Remove", () => {
      forgetSeat(entry.table);
      li.remove();
      if (!ul.children.length) loadYours(box, titles);
    }, { class: "small forget", "aria-label": `Remove this table from your list (${entry.table})` });
    try {
      const t = await api.table(entry.table);
      const names = t.seats.map((x) => x.name);
      li.dataset.status = t.status;
      li.querySelector(".variant").textContent = variantText(t);
      status.textContent = statusText(t, entry, names);
      actions.append(" ", back, " ", watch);
      if (t.status === "over") actions.append(" ", remove);
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) {
        li.dataset.status = "gone";
        status.textContent = "this server no longer has this table";
        actions.append(" ", remove);
      } else {
        li.dataset.status = "unknown";
        status.textContent = `state unknown (${err.message})`;
        actions.append(" ", back);
      }
    }
  }));
  box.dataset.ready = "yes";
}

async function loadRecent(box, titles) {
  clear(box).append(h("h2", { id: "recent-h" }, "Recent tables"));
  try {
    const tables = await api.tables();
    if (!tables.length) { box.append(h("p", { class: "muted" }, "No tables yet.")); return; }
    const mine = new Map(keptSeats().map((e) => [e.table, e]));
    const ul = h("ul", { class: "recent-list" });
    for (const t of tables.slice(0, 12)) {
      const who = t.seats.map((x) => x.name).join(", ");
      const entry = mine.get(t.id);
      // A table where this browser holds a seat opens in that seat; any other one opens to watch.
      const link = entry
        ? h("a", { href: seatUrl(entry), class: "recent-seat" }, `${titles.get(t.game) || t.game} (your seat)`)
        : h("a", { href: `/t/${encodeURIComponent(t.id)}`, class: "recent-watch" }, `${titles.get(t.game) || t.game} (watch)`);
      ul.append(h("li", {}, link, `${variantText(t)} · ${t.status} · ${who}`));
    }
    box.append(ul);
  } catch (err) {
    box.append(h("p", { class: "muted" }, `(no list: ${err.message})`));
  }
}
