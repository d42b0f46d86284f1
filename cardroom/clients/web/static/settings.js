// The Settings dialog: sound, speech, verbosity, the turn alerts, always pass, and the keys, each
// changed by pressing the new one. Every change is applied and saved at once (prefs.js).

import { _, fmt } from "./i18n.js";
import { DEFAULTS, bindings, keyLabel, keyName, remap, resetKeys } from "./keys.js";
import { $, announce, el } from "./ui.js";
import { ALERT_PREFS, askToNotify } from "./alerts.js";
import { renderKeysList } from "./keyhelp.js";
import { act } from "./connection.js";
import { GAME_NAMES } from "./options.js";
import { applyPrefs, prefs, verbosityOf } from "./prefs.js";
import { state } from "./session.js";

let capturing = null;

// A key is being chosen for an action: the next key pressed is it (onCaptureKey).
export function isCapturing() {
  return capturing !== null;
}

function renderKeymapEditor() {
  const box = $("keymap-editor");
  box.replaceChildren();
  for (const game of Object.keys(DEFAULTS)) {
    const body = el("tbody");
    for (const b of bindings(game)) {
      const button = el("button", { type: "button", class: "secondary", "aria-label": fmt(_("Change the key for: {what}"), { what: _(b.help) }) }, _("Change"));
      button.addEventListener("click", () => {
        capturing = { game, action: b.action, button };
        button.textContent = _("Press a key…");
        announce(_("Press the new key, or Escape to keep the old one."), true);
      });
      body.append(el("tr", {}, el("td", { text: _(b.help) }), el("td", {}, el("kbd", { text: keyLabel(b.key) })), el("td", {}, button)));
    }
    box.append(el("table", { class: "keys-table" }, el("caption", { text: _(GAME_NAMES[game]) }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: _("Action") }), el("th", { scope: "col", text: _("Key") }), el("th", { scope: "col", text: _("Change") }))), body));
  }
}

export function onCaptureKey(event) {
  if (!capturing) return;
  const key = keyName(event);
  if (!key) return;
  event.preventDefault();
  event.stopPropagation();
  const { game, action } = capturing;
  capturing = null;
  if (key !== "escape") {
    remap(game, action, key);
    announce(fmt(_("New key: {key}."), { key: keyLabel(key) }));
  }
  renderKeymapEditor();
  renderKeysList();
}

export function openSettings() {
  $("volume").value = String(Math.round(prefs.volume * 100));
  $("mute").checked = prefs.muted;
  $("speech").checked = prefs.speech;
  $(`verbosity-${verbosityOf(prefs.verbosity)}`).checked = true;
  for (const name of Object.keys(ALERT_PREFS)) $(name.replace("_", "-")).checked = Boolean(prefs[name]);
  $("always-pass").checked = Boolean(prefs.always_pass);
  renderKeymapEditor();
  $("settings").showModal();
}

export function initSettings() {
  for (const radio of document.querySelectorAll("input[name=verbosity]")) {
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      prefs.verbosity = verbosityOf(radio.value);
      applyPrefs();
    });
  }
  for (const name of Object.keys(ALERT_PREFS)) {
    const box = $(name.replace("_", "-"));
    box.addEventListener("change", async () => {
      prefs[name] = box.checked;
      if (name === "turn_notify" && box.checked && !(await askToNotify())) {
        announce(_("The browser does not allow notifications for this page: the title and the vibration still say it."), true);
      }
      applyPrefs();
    });
  }
  $("always-pass").addEventListener("change", () => {
    prefs.always_pass = $("always-pass").checked;
    applyPrefs();
    const r = state.room;
    if (r && r.game === "kittens" && r.state === "playing" && r.you !== null) act({ do: "always_pass", on: prefs.always_pass });
  });
  $("open-settings").addEventListener("click", openSettings);
  $("volume").addEventListener("input", () => {
    prefs.volume = Number($("volume").value) / 100;
    applyPrefs();
  });
  $("mute").addEventListener("change", () => {
    prefs.muted = $("mute").checked;
    applyPrefs();
  });
  $("speech").addEventListener("change", () => {
    prefs.speech = $("speech").checked;
    applyPrefs();
  });
  $("reset-keys").addEventListener("click", () => {
    resetKeys();
    renderKeymapEditor();
    renderKeysList();
    announce(_("The default keys are back."));
  });
}
