// The HTTP API (docs/api.md): accounts, profiles, records, replays, leaderboards. The session is
// the HttpOnly cookie the API sets; this page never sees the token. Every refusal carries a
// sentence in the page's language (`?lang=`), shown as it comes. The websocket's player token
// goes along (`X-Cardroom-Player`): a guest sees the records of the private games they played,
// as long as the server knows them (an account's player token counts for nothing there).

import { _, lang } from "./i18n.js";

// Where the page keeps its websocket player token (`welcome.token`).
export const TOKEN = "cardroom.token";

// {ok, status, data}: `data` is the JSON body, or {error, message} when the request failed.
export async function api(method, path, body = undefined) {
  const url = `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang())}`;
  const init = { method, credentials: "same-origin", headers: { Accept: "application/json" } };
  const player = localStorage.getItem(TOKEN);
  if (player) init.headers["X-Cardroom-Player"] = player;
  if (body !== undefined || method !== "GET") {
    // Every change is JSON, even one without a body (the server refuses any other kind).
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body === undefined ? {} : body);
  }
  try {
    const reply = await fetch(url, init);
    let data = null;
    try {
      data = await reply.json();
    } catch (error) {
      data = null;
    }
    if (!reply.ok) {
      const message = data && typeof data.message === "string" ? data.message : _("The server could not answer: try again in a moment.");
      return { ok: false, status: reply.status, data: { error: (data && data.error) || "failed", message } };
    }
    return { ok: true, status: reply.status, data: data || {} };
  } catch (error) {
    return { ok: false, status: 0, data: { error: "offline", message: _("The server could not be reached: try again in a moment.") } };
  }
}
