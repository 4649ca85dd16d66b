// Entry point: "/" is the lobby, "/t/{table}" a table (the seat's token, if any, in the fragment), and
// anything else the server has no page for (it answers with this same page, as a 404) says so.
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { h, clear, problemPage, watchScrollers } from "./util.js";
import { t, langSwitch } from "./i18n.js";

/** The fixed texts of index.html, in the page's language, and the EN/FR switch in the header. */
function frame() {
  const skip = document.querySelector("a.skip");
  if (skip) skip.textContent = t("frame.skip");
  const brand = document.querySelector("header.site .brand");
  if (brand) brand.setAttribute("aria-label", t("frame.brand"));
  const tagline = document.querySelector("header.site .tagline");
  if (tagline) tagline.textContent = t("frame.tagline");
  const header = document.querySelector("header.site");
  if (header && !header.querySelector(".lang-switch")) header.append(langSwitch(h));
}

function route() {
  const root = document.getElementById("app");
  clear(root);
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (m) {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    mountTable(root, decodeURIComponent(m[1]), params.get("token"));
  } else if (/^\/(index\.html)?$/.test(location.pathname)) {
    mountLobby(root);
  } else {
    notFound(root); // the server answers an address it has no file for with this page (a 404): say so
  }
}

function notFound(root) {
  problemPage(root, "not-found", t("notfound.title"), t("notfound.text", { path: decodeURI(location.pathname) }));
}

window.addEventListener("hashchange", () => location.reload());
try {
  frame();
  route();
  watchScrollers();
} catch (err) {
  const root = document.getElementById("app");
  clear(root).append(h("p", { class: "error", role: "alert" }, t("frame.failed", { message: err.message })));
  throw err;
}
