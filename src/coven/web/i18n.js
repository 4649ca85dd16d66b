// The page's language: one JSON catalogue per language (i18n/en.json, i18n/fr.json: key → text with
// {placeholders}), chosen from a stored choice (the EN/FR switch, localStorage "coven.lang") or else the
// browser's language (fr* → French). English is the default. Every visible text goes through t(key, params);
// a key missing from the catalogue shows as ⟦key⟧, so that a test can find it.
export const LANGS = ["en", "fr"];
const STORE = "coven.lang";

function stored() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}

export function pickLang(saved, browser) {
  if (LANGS.includes(saved)) return saved;
  return /^fr\b/i.test(browser || "") ? "fr" : "en";
}

export const lang = pickLang(stored(), typeof navigator === "undefined" ? "" : navigator.language);

async function load(code) {
  try {
    const res = await fetch(`/i18n/${code}.json`);
    return res.ok ? await res.json() : {};
  } catch {
    return {};
  }
}

// Top-level await: every module importing t() runs once the catalogues are here.
const [english, chosen] = await Promise.all([load("en"), lang === "en" ? Promise.resolve(null) : load(lang)]);
const catalogue = chosen || english;
document.documentElement.lang = lang;

/** The text of `key` in the page's language, its {placeholders} filled from `params`; ⟦key⟧ if missing. */
export function t(key, params = {}) {
  const text = catalogue[key];
  if (typeof text !== "string") return `⟦${key}⟧`;
  const filled = text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  return lang === "fr" ? contracted(filled) : filled;
}

/** The text of `key` in the page's language, or `fallback` where the catalogue has none (a name looked up
 * by what it names: an option, a choice, a bot level of a game the catalogue does not know). */
export function textOr(key, fallback) {
  return typeof catalogue[key] === "string" ? t(key) : fallback;
}

/** French joins "de", "à" and "que" to a name put in after them, as the language does: "de" and "à" contract
 * with the name's article ("les règles des 3 Commandements", not "de Les 3 Commandements"; "du", "au",
 * "aux" likewise; "de La" stays), and "de" and "que" elide before a vowel ("les règles d'Amulets", "la
 * feuille d'Ana", "on attend qu'Inès rejoigne"). The catalogue's own texts never need it: only what the
 * placeholders bring changes (a name beginning with "h" is left as it is: "h" may or may not elide). */
export function contracted(text) {
  return text
    .replace(/(?<!\p{L})(de|à|De|À) (Les?) /gu, (whole, word, article) => {
      const joined = word.toLowerCase() === "de" ? (article === "Les" ? "des" : "du") : (article === "Les" ? "aux" : "au");
      return `${word[0] === word[0].toUpperCase() ? joined[0].toUpperCase() + joined.slice(1) : joined} `;
    })
    .replace(/(?<!\p{L})(de|De|que|Que) (?=[aeiouàâäéèêëîïôöùûüAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜ])/gu, (whole, word) => `${word.slice(0, -1)}'`);
}

/** A bot level's name in the page's language (its id where the catalogue has no name for it). */
export function botLevel(bot) {
  return textOr(`bot.name.${bot}`, bot);
}

/** A seat's name as shown (`i`: its number from 0): the server names a seat nobody named "<bot> bot" or
 * "Player <n>" (in English); those are said in the page's language, at the table and in the lobby alike. */
export function seatName(seat, i) {
  const name = seat && seat.name;
  if (!name) return t("table.seat_n", { n: i + 1 });
  if (seat.kind === "bot" && seat.bot && name === `${seat.bot} bot`) return t("table.bot_name", { bot: botLevel(seat.bot) });
  if (seat.kind === "human" && name === `Player ${i + 1}`) return t("table.player_n", { n: i + 1 });
  return name;
}

/** Every seat's name as shown, a number after each of names that would be the same ("greedy bot 2",
 * "greedy bot 3"): the table, its result and the lobby all tell seats apart alike. */
export function seatNames(seats, count = seats.length) {
  const base = Array.from({ length: count }, (_, i) => seatName(seats[i], i));
  return base.map((n, i) => (base.filter((m) => m === n).length > 1 ? `${n} ${i + 1}` : n));
}

/** Store the choice and draw the page again in that language. */
export function setLang(code) {
  if (!LANGS.includes(code) || code === lang) return;
  try { localStorage.setItem(STORE, code); } catch { /* storage off: the choice lasts for this load only */ }
  location.reload();
}

/** Whether the count `n` takes a key's ".one" form rather than its ".other" one, by the language's rule
 * (French: 0 and 1 are singular). Each form is looked up by its whole key, so that the catalogue checks
 * find both. */
export function isOne(n) {
  return lang === "fr" ? Math.abs(n) < 2 : n === 1;
}

/** The catalogue's text of `key` filled from `params`, null if the catalogue lacks the key or a key nested in
 * the params (no sentence half in one language, half in another): the messages of the engine
 * (coven.core.texts), an explanation's texts and a refusal's reason alike. A param is a number, a text, a
 * nested message `{key, params}` (said first), a text in each language `{en, fr}` or a list of those
 * (joined with ", "). A key with ".one" and ".other" forms (and no plain one) picks one by its `n` param,
 * by the language's rule (French: 0 and 1 are singular). `seat(i)`, if given, says a param named `seat` (a
 * seat number from 0) as that seat's name. */
export function messageText(key, params = {}, seat = null) {
  const values = {};
  for (const [name, value] of Object.entries(params || {})) {
    const shown = name === "seat" && seat && Number.isInteger(value) ? seat(value) : paramText(value, seat);
    if (shown === null) return null;
    values[name] = shown;
  }
  const plain = t(key, values);
  if (plain !== `⟦${key}⟧`) return plain;
  if (typeof params.n !== "number") return null;
  const form = `${key}.${isOne(params.n) ? "one" : "other"}`;
  const counted = t(form, values);
  return counted === `⟦${form}⟧` ? null : counted;
}

function paramText(value, seat) {
  if (Array.isArray(value)) {
    const parts = value.map((v) => paramText(v, seat));
    return parts.includes(null) ? null : parts.join(", ");
  }
  if (value && typeof value === "object") {
    if (typeof value.key === "string") return messageText(value.key, value.params || {}, seat);
    return value[lang] ?? value.en ?? null; // a text given in each language (a card's own words)
  }
  return String(value);
}

// Server errors come as a code, an English message and, when the rules said why, a reason ({key, params},
// see PROTOCOL.md "Refusals"). In English the server's message is shown as it is (it is the most precise);
// in another language the reason is said from the catalogue, else a known code shows the catalogue's text
// alone: never the server's English.
function knownErrors() {
  return {
    not_your_turn: t("err.not_your_turn"),
    illegal_action: t("err.illegal_action"),
    bad_notation: t("err.bad_notation"),
    stale: t("err.stale"),
    game_over: t("err.game_over"),
    not_started: t("err.not_started"),
    spectator: t("err.spectator"),
    rate_limited: t("err.rate_limited"),
    seed_not_allowed: t("err.seed_not_allowed"),
    secret: t("err.secret"),
    busy: t("err.busy"),
    unavailable: t("err.unavailable"),
    bad_token: t("err.bad_token"),
    offline: t("err.offline"),
    unconfirmed: t("err.unconfirmed"),
    not_played: t("err.not_played"),
    network: t("err.network"),
    unknown_table: t("err.unknown_table"),
    unknown_game: t("err.unknown_game"),
    unknown_bot: t("err.unknown_bot"),
    bad_request: t("err.bad_request"),
    bad_json: t("err.bad_json"),
    bad_message: t("err.bad_message"),
    too_large: t("err.too_large"),
    unsupported_media_type: t("err.unsupported_media_type"),
    hello_required: t("err.hello_required"),
    already_joined: t("err.already_joined"),
    bad_protocol: t("err.bad_protocol"),
    conflict: t("err.conflict"),
    internal: t("err.internal"),
    not_over: t("err.not_over"),
    no_rules: t("err.no_rules"),
    no_explanation: t("err.no_explanation"),
    invalid_option: t("err.invalid_option"),
    invalid_card: t("err.invalid_card"),
    game_error: t("err.game_error"),
  };
}
// What the server's English detail says, in the page's words, where the page knows it: how each game's
// moves are written (for a move that cannot be read), and the fields of a new table the lobby sends.
function notationHint(game) {
  return { brujas: t("brujas.notation"), namaste: t("namaste.notation"), amulets: t("amulets.notation"),
    commandments: t("cmd.notation") }[game] || null;
}
function requestDetail(message) {
  if (/\bpace_seconds\b/.test(message || "")) return t("lobby.pace.bad_seconds", { min: 5, max: 86400 });
  return null;
}

/** The text to show for a server error {code, message, reason} (`game`: the table's game, for a move's
 * notation; `seat(i)`: a seat's name, for a reason that names a seat). In another language than English,
 * the server's English is never shown for a known code: the reason in the page's words when the catalogue
 * knows its keys, else what the page knows of the detail (a move's notation, a request's field), else the
 * catalogue's text for the code. */
export function errorText(code, message, game = null, reason = null, seat = null) {
  const field = code === "bad_request" ? requestDetail(message) : null;
  if (field) return field;
  if (lang === "en") return message || code || "";
  // (a text that is no move at all is answered by the page's own account of how this game's moves are
  // written, fuller than the refusal's examples)
  const nothing = code === "bad_notation" && reason && /\.notation\.unknown$/.test(String(reason.key));
  const said = reason && typeof reason.key === "string" && !nothing ? messageText(reason.key, reason.params || {}, seat) : null;
  if (said) return said;
  const known = knownErrors()[code];
  if (!known) return message || code || "";
  if (code === "bad_notation") return notationHint(game) || known;
  return known;
}

/** The short heading of an error box, by code. */
export function errorTitle(code) {
  return {
    illegal_action: t("errt.illegal_action"),
    not_your_turn: t("errt.not_your_turn"),
    bad_notation: t("errt.bad_notation"),
    stale: t("errt.stale"),
    game_over: t("errt.game_over"),
    not_started: t("errt.not_started"),
    spectator: t("errt.spectator"),
    rate_limited: t("errt.rate_limited"),
    closed: t("errt.closed"),
    offline: t("errt.offline"),
    unconfirmed: t("errt.unconfirmed"),
    not_played: t("errt.not_played"),
  }[code] || t("errt.refused");
}

/** A game's title in the page's language: the server's (English) title, or the catalogue's where the game
 * is published under another name in that language. */
export function gameTitle(id, title) {
  if (lang === "en") return title;
  const own = { commandments: t("game.commandments.title") }[id];
  return own || title;
}

/** The EN/FR switch: two buttons, the current language pressed. */
export function langSwitch(h) {
  return h("span", { class: "lang-switch", role: "group", "aria-label": t("lang.switch") },
    LANGS.map((code) => h("button", { type: "button", class: `small lang-${code}`, lang: code, "aria-pressed": String(code === lang),
      title: code === "fr" ? t("lang.name.fr") : t("lang.name.en"), onclick: () => setLang(code) }, code.toUpperCase())));
}
