// The keys of the game, as tables: the game's keys beside the table, and the rows F1 shows
// (app.js's help). `ASKING`: the keys that only ask, which answer inside a choice too.

import { _ } from "./i18n.js";
import { bindings, keyLabel } from "./keys.js";
import { $, el } from "./ui.js";
import { game } from "./gamestate.js";

// The keys that only ask (003's T and E, the hand, the table): they answer in a choice too.
export const ASKING = new Set(["turn", "counts", "read_hand", "status", "future"]);

export function keyRows(gameName, only = null) {
  return bindings(gameName).filter((b) => !only || only.has(b.action)).map((b) => [keyLabel(b.key), _(b.help)]);
}

// The keys that answer in a choice too, for F1 there.
export function askingRows(gameName) {
  return keyRows(gameName, ASKING);
}

export function renderKeysList() {
  const box = $("keys-list");
  const g = game();
  const rows = g ? keyRows(g) : [];
  // Drawn again only when the keys or their language changed, not for every move of the game.
  const key = JSON.stringify([g, document.documentElement.lang, rows]);
  if (box.dataset.key === key) return undefined;
  box.dataset.key = key;
  if (!g) return box.replaceChildren();
  return box.replaceChildren(keysTable(rows, _("Keys for this game")));
}

export function keysTable(rows, caption) {
  const body = el("tbody");
  for (const [key, what] of rows) body.append(el("tr", {}, el("th", { scope: "row" }, el("kbd", { text: key })), el("td", { text: what })));
  return el("table", { class: "keys-table" }, el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: _("Key") }), el("th", { scope: "col", text: _("What it does") }))), body);
}
