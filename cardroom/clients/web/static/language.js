// The page's language: its pickers, and the switch to another language (the catalog, the cards'
// names and the page's own texts in it).

import { setCards } from "./cards.js";
import { LANGUAGES, N_, lang, loadCatalog, storeLanguage, translatePage } from "./i18n.js";
import { $, el } from "./ui.js";
import { api } from "./api.js";
import { profileNow, stopSaving } from "./prefs.js";
import { renderCreateForm } from "./lobby.js";
import { state } from "./session.js";

// A language picker in the nickname form and in Settings; the choice is kept in localStorage and
// sent as hello.lang. The server narrates in it; changing it while connected reloads the page,
// which enters again with the same token and the new language.
function languagePicker(id) {
  const select = el("select", { id, name: "lang" },
    ...LANGUAGES.map(([code, name]) => el("option", { value: code, lang: code, text: name })));
  select.value = lang();
  select.addEventListener("change", () => chooseLanguage(select.value));
  return el("div", { class: "field" }, el("label", { for: id, "data-i18n": "", text: "Language" }), select);
}

async function chooseLanguage(code) {
  if (code === lang()) return;
  storeLanguage(code);
  if (state.account) {
    const body = { ...profileNow(), lang: code };
    await stopSaving();
    await api("PUT", "/api/profile", body);
  }
  if (state.ws && state.welcomed) {
    location.reload();
    return;
  }
  await switchLanguage(code);
}

export async function switchLanguage(code) {
  setCards(await loadCatalog(code));
  translatePage();
  renderCreateForm();
  for (const select of document.querySelectorAll("select[name=lang]")) select.value = lang();
}

export function buildLanguagePickers() {
  $("enter-mode").before(languagePicker("lang-enter"));
  const settings = $("settings-form");
  settings.insertBefore(languagePicker("lang-settings"), settings.querySelector("button[type=submit]"));
}

// The label of the picker, for the extraction (the page reads it as data-i18n).
void [N_("Language")];
