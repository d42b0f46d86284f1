// The lobby: the list of tables (a page at a time, each row with its Join and Watch buttons)
// and the form that creates a table.

import { _, fmt } from "./i18n.js";
import { $, el, keepFocus } from "./ui.js";
import { send } from "./connection.js";
import { GAME_NAMES, OPTIONS, SEATS, STATE_NAMES, describeOptions, fillLevels } from "./options.js";
import { state } from "./session.js";

export function renderTables() {
  keepFocus($("tables-body"), "tables-title", renderTableRows);
}

// A summary the page can draw: any other (from a newer or a faulty server) is left out, so that
// one table never stops the page from listing the others.
export function readableSummary(t) {
  return Boolean(t) && typeof t.id === "string" && Array.isArray(t.seats) && Number.isInteger(t.free);
}

function renderTableRows() {
  const body = $("tables-body");
  const rows = [...state.tables.values()];
  $("tables").hidden = rows.length === 0;
  $("no-tables").hidden = rows.length > 0;
  $("more-tables").hidden = !(state.tablePage + 1 < state.tablePages);
  const drawn = [];
  for (const t of rows) {
    try {
      drawn.push(tableRow(t));
    } catch (error) {
      console.warn("a table the page cannot show", t && t.id, error);
    }
  }
  body.replaceChildren(...drawn);
}

function tableRow(t) {
  const taken = t.seats.length - t.free;
  const member = t.id === state.current;
  const actions = el("div", { class: "row-actions" });
  let code = null;
  if (t.private) {
    const codeId = `code-${t.id}`;
    code = el("input", { id: codeId, size: 8, autocomplete: "off" });
    actions.append(el("label", { for: codeId, text: fmt(_("Invitation code for the table of {host}"), { host: t.host || t.id }) }), code);
  }
  const codeValue = () => (code ? code.value.trim() || null : null);
  if (t.state === "waiting" && t.free > 0 && !member) {
    actions.append(el("button", { type: "button", id: `join-${t.id}`, onclick: () => send({ type: "join", table: t.id, code: codeValue() }) }, fmt(_("Join the table of {host}"), { host: t.host || t.id })));
  }
  if (!member) {
    actions.append(el("button", { type: "button", id: `watch-${t.id}`, class: "secondary", onclick: () => send({ type: "spectate", table: t.id, code: codeValue() }) }, fmt(_("Watch the table of {host}"), { host: t.host || t.id })));
  }
  const game = _(GAME_NAMES[t.game] || t.game);
  return el(
    "tr",
    {},
    el("td", { "data-label": _("Game") }, t.private ? fmt(_("{game} (private)"), { game }) : game),
    el("td", { "data-label": _("Options") }, describeOptions(t.game, t.options)),
    el("td", { "data-label": _("Seats") }, fmt(_("{taken} taken, {free} free"), { taken, free: t.free })),
    el("td", { "data-label": _("State") }, _(STATE_NAMES[t.state] || t.state)),
    el("td", { "data-label": _("Spectators") }, String(t.spectators)),
    el("td", { "data-label": _("Actions") }, actions),
  );
}

// ---- the create form ---------------------------------------------------------------------------
export function renderCreateForm() {
  const game = $("create-game").value;
  const [low, high] = SEATS[game];
  const seats = $("create-seats");
  seats.min = String(low);
  seats.max = String(high);
  $("create-bots").max = String(high - 1);
  fillLevels($("create-level"), game);
  $("variants").hidden = game !== "burrito";
  const box = $("advanced-fields");
  box.replaceChildren(
    ...OPTIONS[game].map(([name, value, label]) => {
      const id = `opt-${name}`;
      return el("div", { class: "field" },
        el("label", { for: id, text: fmt(_("{label}, default {value}"), { label: _(label), value }) }),
        el("input", { id, name, type: "number", min: "0", inputmode: "numeric" }));
    }),
  );
}

export function createTable(event) {
  event.preventDefault();
  const game = $("create-game").value;
  const options = {};
  for (const input of $("advanced-fields").querySelectorAll("input")) {
    if (input.value.trim() !== "") options[input.name] = Number(input.value);
  }
  if (game === "burrito") {
    const variants = [...$("variants").querySelectorAll("input:checked")].map((i) => i.value);
    if (variants.length) options.variants = variants;
  }
  if ($("create-timing").value === "relaxed") options.timing = "relaxed";
  $("create-error").textContent = "";
  send({
    type: "create_table",
    game,
    seats: Number($("create-seats").value),
    bots: Number($("create-bots").value),
    bot_level: $("create-level").value,
    private: $("create-private").checked,
    options,
  });
}
