// The rules page (GET /rules/{game}[?lang=fr], written by the server in the language asked for, English by
// default): its frame in the page's language, the EN/FR switch, and the rulebook in the interface's language
// when the game has one in it. The article says which language it is in (lang) and which exist
// (data-langs). Without an explicit ?lang= the page follows the interface (the switch's stored choice, else
// the browser's language); the switch drops ?lang= so that its choice shows. A rulebook that does not exist
// in the interface's language stays in English, with a note saying so.
import { t, lang, langSwitch } from "./i18n.js";
import { h } from "./util.js";

const article = document.querySelector("article.rulebook");
const missing = document.querySelector("main p.error[lang]");
const written = (article || missing)?.getAttribute("lang") || "en";
// (a page saying there are no rules exists in every language of the interface)
const exists = article ? (article.dataset.langs || "en").split(/\s+/) : ["en", "fr"];
const url = new URL(location.href);
if (!url.searchParams.has("lang") && written !== lang && exists.includes(lang)) {
  url.searchParams.set("lang", lang);
  location.replace(url.href);
}

const tagline = document.querySelector("header.site .tagline");
if (tagline) tagline.textContent = t("frame.tagline");
const brand = document.querySelector("header.site .brand");
if (brand) brand.setAttribute("aria-label", t("frame.brand"));
const header = document.querySelector("header.site");
if (header && !header.querySelector(".lang-switch")) {
  const choice = langSwitch(h);
  // Capture phase: before the switch reloads the page, forget the ?lang= this page was opened with.
  choice.addEventListener("click", () => {
    const here = new URL(location.href);
    if (!here.searchParams.has("lang")) return;
    here.searchParams.delete("lang");
    history.replaceState(history.state, "", here.href);
  }, true);
  header.append(choice);
}
for (const back of document.querySelectorAll("main a.button[href='/']")) back.textContent = t("rules.back");
if (article) {
  article.lang = written;
  if (written === "en" && lang !== "en") article.before(h("p", { class: "muted rules-language", id: "rules-language" }, t("rules.in_english")));
  document.title = document.title.replace(/ — [^—·]+ · Coven$/, ` — ${t("rules.title")} · Coven`);
} else {
  document.title = `${t("rules.none")} · Coven`;
}
