// The rules of each game in a dialog (GET /help/<game>.json, in the page's language), ending with
// the way into the game's guided game.

import { N_, _, lang } from "./i18n.js";
import { $, el } from "./ui.js";
import { startGuide } from "./guide.js";
import { leaveTable } from "./screens.js";
import { state } from "./session.js";

async function showRules(game) {
  $("rules-game").value = game;
  const body = $("rules-body");
  try {
    const reply = await fetch(`/help/${encodeURIComponent(game)}.json?lang=${encodeURIComponent(lang())}`);
    if (!reply.ok) throw new Error(String(reply.status));
    const page = await reply.json();
    $("rules-title").textContent = page.title;
    const parts = [];
    for (const section of page.sections) {
      parts.push(el("h3", { text: section.title }));
      for (const paragraph of section.paragraphs) parts.push(el("p", { text: paragraph }));
    }
    body.replaceChildren(...parts);
  } catch (error) {
    body.replaceChildren(el("p", { class: "error", text: _("The rules could not be loaded: try again in a moment.") }));
  }
}

function openRules() {
  const game = state.room ? state.room.game : $("create-game").value || "kittens";
  const dialog = $("rules");
  state.rulesBack = document.activeElement;
  if (!dialog.open) dialog.showModal();
  showRules(game).then(() => $("rules-title").focus());
}

export function buildRules() {
  const button = el("button", { type: "button", id: "open-rules", "data-i18n": "", text: "Rules" });
  $("open-settings").before(button);
  button.addEventListener("click", openRules);

  const gameSelect = el("select", { id: "rules-game" },
    el("option", { value: "kittens", "data-i18n": "", text: "Exploding Kittens" }),
    el("option", { value: "burrito", "data-i18n": "", text: "Throw Throw Burrito" }));
  gameSelect.addEventListener("change", () => showRules(gameSelect.value));
  // The rules end with the guided game of the game shown, for who would rather learn by playing.
  const guideButton = el("button", { type: "button", id: "rules-guide", "data-i18n": "", text: "Learn it in a guided game" });
  guideButton.addEventListener("click", () => {
    const game = gameSelect.value;
    $("rules").close();
    if (state.current) leaveTable();
    startGuide(game);
  });
  const dialog = el("dialog", { id: "rules", "aria-labelledby": "rules-title" },
    el("h2", { id: "rules-title", tabindex: "-1", "data-i18n": "", text: "Rules" }),
    el("div", { class: "field" }, el("label", { for: "rules-game", "data-i18n": "", text: "Game" }), gameSelect),
    el("div", { id: "rules-body" }),
    el("p", {}, guideButton),
    el("form", { method: "dialog" }, el("button", { type: "submit", "data-i18n": "", text: "Close" })));
  document.body.append(dialog);
  dialog.addEventListener("close", () => {
    if (state.rulesBack && state.rulesBack.isConnected) state.rulesBack.focus();
  });
}

// The texts of the elements built above, for the extraction (the page reads them as data-i18n).
void [N_("Rules"), N_("Game"), N_("Close"), N_("Learn it in a guided game"), N_("Exploding Kittens"), N_("Throw Throw Burrito")];
