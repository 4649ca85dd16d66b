// The rules page (GET /rules/{game}, written by the server; the rulebooks are in English): its frame in
// the page's language, the EN/FR switch, and — in another language — a note that the rules are in English
// (the article is marked lang="en" so that a screen reader reads it as English).
import { t, lang, langSwitch } from "./i18n.js";
import { h } from "./util.js";

const tagline = document.querySelector("header.site .tagline");
if (tagline) tagline.textContent = t("frame.tagline");
const brand = document.querySelector("header.site .brand");
if (brand) brand.setAttribute("aria-label", t("frame.brand"));
const header = document.querySelector("header.site");
if (header && !header.querySelector(".lang-switch")) header.append(langSwitch(h));
for (const back of document.querySelectorAll("main a.button[href='/']")) back.textContent = t("rules.back");
const article = document.querySelector("article.rulebook");
if (article) {
  article.lang = "en";
  if (lang !== "en") article.before(h("p", { class: "muted rules-language", id: "rules-language" }, t("rules.in_english")));
  document.title = document.title.replace(/ — rules · Coven$/, ` — ${t("rules.title")} · Coven`);
} else {
  document.title = `${t("rules.none")} · Coven`;
}
