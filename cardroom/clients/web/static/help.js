// F1: the keys of where the focus is (the page, the game area, the history, the chat, a choice,
// the replay), in a dialog that leaves the page alive.

import { _, fmt } from "./i18n.js";
import { keyLabel } from "./keys.js";
import { $ } from "./ui.js";
import { replayHelpRows } from "./records.js";
import { askingRows, keyRows, keysTable } from "./keyhelp.js";
import { state } from "./session.js";

function helpRows(where) {
  const game = state.room ? state.room.game : null;
  if (where === "chat") {
    return [[keyLabel("enter"), _("Send the message")], [keyLabel("tab"), _("Next control")], ["", _("Game keys are off while you type.")]];
  }
  if (where === "chooser") {
    return [[_("Arrows"), _("Choose")], [keyLabel("enter"), _("Confirm")], [keyLabel("escape"), _("Cancel")], ["1-9", _("Jump to an option")], ...(game ? askingRows(game) : [])];
  }
  if (where === "log") {
    return [[keyLabel("pageup"), _("Previous entry of the history")], [keyLabel("pagedown"), _("Next entry of the history")], [keyLabel("escape"), _("Back to your hand")], ...(game ? keyRows(game) : [])];
  }
  if (where === "replay") {
    return replayHelpRows(keyLabel);
  }
  if (where === "game" && game) {
    return [[_("Up and down arrows"), _("Move through your hand")], ...keyRows(game), [keyLabel("escape"), _("Back to your hand")]];
  }
  return [[keyLabel("tab"), _("Next control")], [fmt(_("{shift}+{tab}"), { shift: keyLabel("shift"), tab: keyLabel("tab") }), _("Previous control")], [keyLabel("f1"), _("These keys")], ["", _("The game keys work in the game area, on your hand.")]];
}

export function openHelp() {
  const active = document.activeElement;
  let where = "page";
  if (active && active.closest) {
    if (active.closest("#chooser")) where = "chooser";
    else if (active.closest("#log")) where = "log";
    else if (active.closest(".chat-form")) where = "chat";
    else if (active.closest("#game")) where = "game";
    else if (active.closest("#replay")) where = "replay";
  }
  const titles = { page: _("Keys on this page"), game: _("Keys in the game area"), log: _("Keys in the history"), chat: _("Keys in the chat box"), chooser: _("Keys in this choice"), replay: _("Keys in the replay") };
  $("help-title").textContent = titles[where];
  $("help-body").replaceChildren(keysTable(helpRows(where), titles[where]));
  const dialog = $("help");
  dialog.dataset.back = "";
  state.helpBack = active;
  // Not modal: a modal dialog makes the rest of the page inert, the live regions too, and a
  // screen reader then says nothing of the game while the player's clock runs (issue 24). The
  // game keys still stop at the dialog (isTyping), and Escape closes it (keydown below).
  if (!dialog.open) dialog.show();
  $("help-title").focus();
}

export function initHelp() {
  $("help").addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    $("help").close();
  });
  $("help").addEventListener("close", () => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && state.helpBack && state.helpBack.isConnected) state.helpBack.focus();
  });
}
