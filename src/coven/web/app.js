// Entry point: "/" is the lobby, "/t/{table}" a table (the seat's token, if any, in the fragment).
import { mountLobby } from "./lobby.js";
import { mountTable } from "./table.js";
import { h, clear } from "./util.js";

function route() {
  const root = document.getElementById("app");
  clear(root);
  const m = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  if (m) {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    mountTable(root, decodeURIComponent(m[1]), params.get("token"));
  } else {
    mountLobby(root);
  }
}

window.addEventListener("hashchange", () => location.reload());
try {
  route();
} catch (err) {
  const root = document.getElementById("app");
  clear(root).append(h("p", { class: "error", role: "alert" }, `The page failed to start: ${err.message}`));
  throw err;
}
