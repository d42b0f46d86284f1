// Which of the play area's screens shows: the entry form, the lobby or the table; and leaving
// a table for the lobby.

import { _ } from "./i18n.js";
import { $ } from "./ui.js";
import { setAlert } from "./alerts.js";
import { showAddress } from "./invite.js";
import { showView } from "./views.js";
import { send, setStatus } from "./connection.js";
import { renderTables } from "./lobby.js";
import { NAME, state } from "./session.js";

export function showEnter(error = "") {
  showView("enter");
  $("name-error").textContent = error;
  // The last nickname, unless the player typed one while the page loaded.
  if (!$("nickname").value.trim()) $("nickname").value = localStorage.getItem(NAME) || "";
  // Before any attempt there is nothing to be disconnected from.
  setStatus(error ? _("Not connected.") : _("Enter a nickname to connect."));
}

export function leaveTable() {
  send({ type: "leave", table: state.current });
  delete state.lastV[state.current];
  showLobby();
  send({ type: "list_tables" });
}

export function showLobby(focus = true) {
  state.current = null;
  state.room = null;
  showAddress(null);
  setAlert(null);
  showView("lobby");
  renderTables();
  if (focus) $("lobby-title").focus();
}

export function showTable() {
  showView("table");
  $("table-title").focus();
}

// The Lobby button: the table you are at, else the lobby, else the entry form.
export function showPlayArea() {
  if (state.current && state.room) {
    showTable();
  } else if (state.welcomed) {
    showView("lobby");
    renderTables();
    $("lobby-title").focus();
  } else {
    showView("enter");
    $("enter-title").focus();
  }
}
