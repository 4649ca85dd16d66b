// "Your tables": the seats this browser holds. An invite link's token is the seat; the page keeps it in
// localStorage (keyed by table id, with the seat, the game and the name) once the server has accepted
// it, so the lobby can put the person back in their seat. Nothing here is ever sent but the token itself,
// to its own table, exactly as the invite link would.

const KEY = "coven.seats.v1";

function readAll() {
  try {
    const raw = JSON.parse(localStorage.getItem(KEY) || "{}");
    return raw && typeof raw === "object" && !Array.isArray(raw) ? raw : {};
  } catch {
    return {}; // storage disabled or a damaged entry: the list is simply empty
  }
}

function writeAll(all) {
  try {
    localStorage.setItem(KEY, JSON.stringify(all));
    return true;
  } catch {
    return false; // private mode or a full storage: the seat is not remembered, the page still works
  }
}

/** Every seat kept here, newest first: [{table, seat, game, title, name, token, saved}]. */
export function keptSeats() {
  return Object.values(readAll())
    .filter((e) => e && typeof e.table === "string" && typeof e.token === "string" && Number.isInteger(e.seat))
    .sort((a, b) => (b.saved || 0) - (a.saved || 0));
}

/** The seat kept for `table`, or null. */
export function keptSeat(table) {
  return keptSeats().find((e) => e.table === table) || null;
}

/** Remember a seat (one per table: the newest wins). False if the browser refuses to store it. */
export function keepSeat({ table, seat, game, title, name, token }) {
  const all = readAll();
  all[table] = { table, seat, game, title: title || game, name: name || `Seat ${seat + 1}`, token, saved: Date.now() };
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
