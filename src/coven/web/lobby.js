// The lobby: the games with their rules, a form to create a table, the links it hands out.
import { api } from "./api.js";
import { h, clear, button } from "./util.js";

export async function mountLobby(root) {
  document.title = "Coven — lobby";
  const gamesBox = h("section", { class: "games", "aria-labelledby": "games-h" },
    h("h1", { id: "games-h" }, "The games"));
  const createBox = h("section", { class: "create panel", "aria-labelledby": "create-h" },
    h("h2", { id: "create-h" }, "New table"));
  const linksBox = h("section", { class: "links", id: "links", "aria-live": "polite" });
  const recentBox = h("section", { class: "recent panel", "aria-labelledby": "recent-h" },
    h("h2", { id: "recent-h" }, "Recent tables"));
  root.append(h("div", { class: "lobby" }, gamesBox, h("div", { class: "side" }, createBox, linksBox, recentBox)));

  let games;
  try {
    games = await api.games();
  } catch (err) {
    gamesBox.append(h("p", { class: "error", role: "alert" }, `Could not load the games: ${err.message}`));
    return;
  }
  for (const g of games) gamesBox.append(gameCard(g));
  createBox.append(createForm(games, linksBox));
  loadRecent(recentBox);
}

function gameCard(g) {
  const rulesBody = h("div", { class: "rules-text" }, "Loading the rules…");
  const details = h("details", { class: "rules" },
    h("summary", {}, `Rules of ${g.title}`), rulesBody);
  let loaded = false;
  details.addEventListener("toggle", async () => {
    if (!details.open || loaded) return;
    loaded = true;
    try {
      const text = await api.rules(g.id);
      clear(rulesBody).append(h("pre", {}, String(text)));
    } catch (err) {
      clear(rulesBody).append(h("p", { class: "error" }, `No rulebook: ${err.message}`));
    }
  });
  const facts = [`${g.min_players}–${g.max_players} players`];
  if (g.hidden_information) facts.push("hidden information");
  if (g.simultaneous) facts.push("simultaneous choices");
  return h("article", { class: "game-card panel", id: `game-${g.id}`, dataset: { game: g.id } },
    h("h2", {}, g.title),
    h("p", { class: "summary" }, g.summary),
    h("p", { class: "facts" }, facts.join(" · ")),
    g.has_rules === false ? h("p", { class: "muted" }, "(This server ships no rulebook for this game.)") : details);
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

function createForm(games, linksBox) {
  const form = h("form", { class: "create-form", novalidate: true });
  const gameSel = h("select", { id: "new-game", name: "game" },
    games.map((g) => h("option", { value: g.id }, g.title)));
  const playersSel = h("select", { id: "new-players", name: "players" });
  const optionsBox = h("fieldset", { class: "options" });
  const seatsBox = h("fieldset", { class: "seats" });
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
    for (const opt of g.options) optionsBox.append(optionField(opt, "opt"));
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

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    errorBox.hidden = true;
    const g = current();
    const options = {};
    for (const opt of g.options) options[opt.key] = readOption(opt, form);
    const seats = [...seatsBox.querySelectorAll(".seat-row")].map((row) => {
      const kind = row.querySelector("select").value;
      const name = row.querySelector("input").value.trim() || null;
      return kind === "human" ? { kind: "human", name } : { kind: "bot", bot: kind.slice(4), name };
    });
    const body = { game: g.id, players: Number(playersSel.value), options, seats };
    submit.disabled = true;
    try {
      const created = await api.createTable(body);
      showLinks(linksBox, created);
      const recent = document.querySelector(".recent");
      if (recent) { clear(recent).append(h("h2", { id: "recent-h" }, "Recent tables")); loadRecent(recent); }
    } catch (err) {
      errorBox.textContent = `The table was not created: ${err.message}`;
      errorBox.hidden = false;
    } finally {
      submit.disabled = false;
    }
  });

  form.append(
    h("div", { class: "field" }, h("label", { for: "new-game" }, "Game"), gameSel),
    h("div", { class: "field" }, h("label", { for: "new-players" }, "Players"), playersSel),
    optionsBox, seatsBox,
    h("p", { class: "muted" }, "The server shuffles and deals: nobody at the table, you included, can know the deal."),
    errorBox, submit);
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
    h("p", {}, "Each person's link is private: it is their seat. It is shown only now — send each one to its person."));
  const list = h("ul", { class: "invites" });
  for (const inv of created.invites) {
    list.append(h("li", { class: "invite", dataset: { seat: inv.seat } },
      h("span", {}, `Seat ${inv.seat + 1} (${inv.name}): `),
      h("a", { href: inv.url, class: "invite-link", target: "_blank", rel: "noopener" }, "invite link"),
      " ", h("code", { class: "url" }, inv.url), " ", copyButton(inv.url)));
  }
  box.append(list);
  box.append(h("p", { class: "spectate" }, "Spectators (read-only): ",
    h("a", { href: created.spectator_url, class: "spectator-link" }, "watch"), " ",
    h("code", { class: "url" }, created.spectator_url), " ", copyButton(created.spectator_url)));
  if (created.invites.length) {
    box.append(h("p", {}, h("a", { class: "primary button play-link", href: created.invites[0].url },
      `Play seat ${created.invites[0].seat + 1} in this window`)));
  } else {
    box.append(h("p", {}, h("a", { class: "primary button", href: created.spectator_url }, "Watch the bots")));
  }
  box.append(h("p", { class: "muted" }, `Table ${t.id} · ${t.game} · ${t.players} players`));
  box.focus?.();
}

async function loadRecent(box) {
  try {
    const tables = await api.tables();
    if (!tables.length) { box.append(h("p", { class: "muted" }, "No tables yet.")); return; }
    const ul = h("ul", { class: "recent-list" });
    for (const t of tables.slice(0, 12)) {
      const who = t.seats.map((x) => x.name).join(", ");
      ul.append(h("li", {}, h("a", { href: `/t/${t.id}` }, `${t.game}`), ` · ${t.status} · ${who}`));
    }
    box.append(ul);
  } catch (err) {
    box.append(h("p", { class: "muted" }, `(no list: ${err.message})`));
  }
}
