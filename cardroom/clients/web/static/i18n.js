// Every text the page shows goes through _(): the catalog from /i18n/{lang}.json, falling back
// to the English msgid. Sentences are whole msgids with named placeholders, filled by fmt().

let catalog = {};
let language = "en";

const STORE = "cardroom.lang";

// The languages the server speaks, each by its own name (never translated: a reader looks for
// their own). The same list as cardroom.i18n.LANGUAGE_NAMES.
export const LANGUAGES = [
  ["en", "English"],
  ["it", "Italiano"],
  ["fr", "Français"],
  ["nl", "Nederlands"],
  ["es", "Español"],
  ["de", "Deutsch"],
];

// The language chosen on this browser, else the browser's own when we speak it, else English.
export function wantedLanguage() {
  let stored = null;
  try {
    stored = localStorage.getItem(STORE);
  } catch (error) {
    // storage refused: the browser's language
  }
  const known = LANGUAGES.map(([code]) => code);
  for (const candidate of [stored, ...(navigator.languages || []), navigator.language]) {
    const code = (candidate || "").toLowerCase().split(/[-_]/)[0];
    if (known.includes(code)) return code;
  }
  return "en";
}

// Remember `code` as this browser's language (the next page load and hello use it).
export function storeLanguage(code) {
  try {
    localStorage.setItem(STORE, code);
  } catch (error) {
    // storage refused: the choice lasts for this page only
  }
}

export function _(msgid) {
  const text = catalog[msgid];
  return typeof text === "string" && text !== "" ? text : msgid;
}

// Translate `msgid` in `context` (msgctxt): one English word for different things ("Enter" the
// key, "Enter" the button). The server's catalog keys such a message "context\u0004msgid".
export function pgettext(context, msgid) {
  const text = catalog[`${context}\u0004${msgid}`];
  return typeof text === "string" && text !== "" ? text : msgid;
}

// The form of `singular`/`plural` for `n`: the catalog keeps a plural message's forms under
// "singular\u0000", in gettext's order; every language we speak has two forms, the first for
// what Intl's plural rules call "one" (French counts 0 there too, as gettext's rule does).
export function ngettext(singular, plural, n) {
  const forms = catalog[`${singular}\u0000`];
  const one = new Intl.PluralRules(language).select(n) === "one";
  if (Array.isArray(forms) && forms.length === 2) return forms[one ? 0 : 1];
  return n === 1 ? singular : plural;
}

// Mark a msgid for translation where it is defined; it is translated (with _) where it is used.
export function N_(msgid) {
  return msgid;
}

// Fill {name} placeholders: fmt(_("{name} wins."), {name: "Ann"}).
export function fmt(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : whole,
  );
}

export function lang() {
  return language;
}

// The catalog of `wanted` (else English) in use; the whole answer, whose card names and texts
// cards.js takes (one request for both: a phone's round trip is long).
export async function loadCatalog(wanted) {
  const candidates = [...new Set([wanted.split("-")[0], "en"])];
  for (const code of candidates) {
    try {
      const reply = await fetch(`/i18n/${encodeURIComponent(code)}.json`);
      if (!reply.ok) continue;
      const data = await reply.json();
      catalog = data.messages || {};
      language = data.lang || code;
      document.documentElement.lang = language;
      return data;
    } catch (error) {
      // A missing catalog leaves the English msgids.
    }
  }
  return null;
}

// Static page text: elements marked data-i18n have their English text as msgid, and the value
// of data-i18n, when there is one, as its context (msgctxt).
export function translatePage(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    if (!el.dataset.msgid) el.dataset.msgid = el.textContent.trim();
    el.textContent = el.dataset.i18n ? pgettext(el.dataset.i18n, el.dataset.msgid) : _(el.dataset.msgid);
  }
}

// "a, b and c" the way the page's language writes a list (the browser's CLDR data), never a
// translated comma glued by hand. `unit` lists ("bot, normal") have no "and".
export function listOf(items, kind = "conjunction") {
  return listParts(items, kind).map((p) => p.value).join("");
}

// The same list in parts ({type: "element" | "literal", value}), for a page that lays its
// items out one by one (the scoreboard keeps some of them on one line).
export function listParts(items, kind = "conjunction") {
  try {
    const style = kind === "unit" ? "short" : "long";
    return new Intl.ListFormat(lang(), { style, type: kind }).formatToParts(items);
  } catch {
    return items.flatMap((value, i) => (i ? [{ type: "literal", value: ", " }] : []).concat([{ type: "element", value }]));
  }
}
