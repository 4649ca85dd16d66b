// The lobby's HTTP API (see src/coven/server/PROTOCOL.md).

export class ApiError extends Error {
  // `retryAfter`: the seconds a refused request (429) says to wait before asking again, if it says;
  // `reason`: why the rules refused, {key, params}, if they said (PROTOCOL.md "Refusals").
  constructor(status, code, message, retryAfter = null, reason = null) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
    this.reason = reason;
  }
}

async function request(method, url, body, token = null) {
  const init = { method, headers: { Accept: "application/json" } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (err) {
    throw new ApiError(0, "network", `The server cannot be reached (${err.message}).`);
  }
  const type = res.headers.get("Content-Type") || "";
  const data = type.includes("json") ? await res.json().catch(() => null) : await res.text();
  if (!res.ok) {
    const e = data && data.error ? data.error : { code: String(res.status), message: res.statusText };
    const wait = Number.parseInt(res.headers.get("Retry-After") || "", 10);
    throw new ApiError(res.status, e.code, e.message || `${res.status} ${res.statusText}`, Number.isFinite(wait) ? wait : null, e.reason || null);
  }
  return data;
}

export const api = {
  games: () => request("GET", "/api/games"),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  rules: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/rules`),
  tables: () => request("GET", "/api/tables"),
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  createTable: (body) => request("POST", "/api/tables", body),
  record: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}/record`),
  // `token`: the seat's own secret, needed for a seat's replay at a table that never reveals its secrets.
  // A server busy making other replays says so (503 `busy`) and when to ask again: asked again, 5 times at most.
  replay: async (id, { seat = null, reveal = false, token = null } = {}) => {
    const q = new URLSearchParams();
    if (seat !== null && seat !== undefined) q.set("seat", String(seat));
    if (reveal) q.set("reveal", "true");
    const qs = q.toString();
    for (let tries = 1; ; tries += 1) {
      try {
        return await request("GET", `/api/tables/${encodeURIComponent(id)}/replay${qs ? `?${qs}` : ""}`, undefined, token);
      } catch (err) {
        if (err.code !== "busy" || tries >= 5) throw err;
        await new Promise((ok) => { setTimeout(ok, 1000 * (err.retryAfter || 1)); });
      }
    }
  },
};
