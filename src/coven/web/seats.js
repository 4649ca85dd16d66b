// "Your tables": the seats this browser holds. An invite link's token is the seat; the page keeps it in
// localStorage (keyed by table id, with the seat, the game and the name) once the server has accepted
// it, so the lobby can put the person back in their seat. Nothing here is ever sent but the token itself,
// to its own table, exactly as the invite link would.

const KEY = "coven.seats.v1";

/** Seats of finished (or vanished) tables kept, the newest; a seat at a table still in play is never
 * dropped, however many there are, so the lobby can always put the person back in it. */
export const ENDED_KEPT = 20;

function readAll() {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) || "{}");
    return raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {};
  } catch {
    return {}; // storage disabled or a damaged entry: the list is simply empty
  }
}

/** `all` without the seats of ended tables past the newest ENDED_KEPT. */
function pruned(all) {
  const ended = Object.values(all)
    .filter((e) => e && e.ended)
    .sort((a, b) => (b.saved || 0) - (a.saved || 0));
  for (const e of ended.slice(ENDED_KEPT)) delete all[e.table];
  return all;
}

function writeAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(pruned(all)));
    return true;
  } catch {
    return false; // private mode or a full storage: the seat is not remembered, the page still works
  }
}

/** Every seat kept here, those of tables still in play first, each part newest first:
 * [{table, seat, game, title, name, token, saved, ended}]. */
export function keptSeats() {
  return Object.values(readAll())
    .filter((e) => e && typeof e.table === "string" && typeof e.token === "string" && Number.isInteger(e.seat))
    .sort((a, b) => (a.ended ? 1 : 0) - (b.ended ? 1 : 0) || (b.saved || 0) - (a.saved || 0));
}

/** The table of a kept seat is over, or gone from the server: its seat is one of the ended ones kept
 * (the oldest of which go). Nothing if the seat is not kept. */
export function markEnded(table) {
  const all = readAll();
  if (!all[table] || all[table].ended) return false;
  all[table].ended = true;
  return writeAll(all);
}

/** The seat kept for `table`, or null. */
export function keptSeat(table) {
  return keptSeats().find((e) => e.table === table) || null;
}

/** Remember a seat (one per table: the newest wins). False if the browser refuses to store it. */
export function keepSeat({ table, seat, game, title, name, token }) {
  const all = readAll();
  const ended = Boolean(all[table] && all[table].ended && all[table].seat === seat);
  all[table] = { table, seat, game, title: title || game, name: name || `Seat ${seat + 1}`, token, saved: Date.now(), ended };
  return writeAll(all);
}

export function forgetSeat(table) {
  const all = readAll();
  delete all[table];
  return writeAll(all);
}

/** The invite link of a kept seat (the token in the fragment, as the server made it). */
export function seatUrl(entry) {
  return `${location.origin}/t/${encodeURIComponent(entry.table)}#token=${encodeURIComponent(entry.token)}`;
}

export function spectatorUrl(table) {
  return `${location.origin}/t/${encodeURIComponent(table)}`;
}
