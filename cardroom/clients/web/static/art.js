// Card faces and backs drawn from our own art: one SVG per card kind, static/art/<card id>.svg,
// with the card's name (in the page's language) printed under the picture, so a card reads by
// its word and its shape as well as by its colour.

import { hyphenate, SOFT } from "./hyphen.js";
import { el } from "./ui.js";

export function artUrl(card) {
  return `/static/art/${encodeURIComponent(card)}.svg`;
}

// A face for `card`: the picture and the name. Decorative for assistive technology: the
// element that holds it carries the card's accessible name.
export function cardFace(game, card, name) {
  return el("span", { class: `face face-${game || "none"}`, "aria-hidden": "true", "data-card": card },
    el("img", { src: artUrl(card), alt: "", draggable: "false", loading: "lazy", decoding: "async" }),
    el("span", { class: "card-name", text: name }));
}

// The back of a card (hands of the other seats, the deck, the piles).
export function cardBack(game, count = null) {
  return el("span", { class: `back back-${game || "none"}`, "aria-hidden": "true" },
    count === null ? null : el("span", { class: "count", text: String(count) }));
}

// Card names wrap between words only (style.css): a word wider than its card makes the name's
// type smaller until it fits, rather than breaking in two ("Defus e"), but never below
// SMALLEST_NAME px, still readable on a phone; a word too long even then ("Disinnesco" in a
// phone's hand) breaks between its syllables with a hyphen, as a printer would set it
// ("Disinne-sco", hyphen.js). One read of every name under `root`, then one write (and for
// names with such a word, one more read and write); names not on screen (no width) stay as
// they are. The card's accessible name is on the element that
// holds its face (aria-hidden), so the soft hyphens are never heard.
const SMALLEST_NAME = 10;

// The same for other short names that must stay whole, in `selector` (table.js: the piles'
// names, "Gemeinschaftsstapel"), down to `smallest` px; `breakWords` false: never hyphenated.
export function fitNames(root, selector = ".card-name", smallest = SMALLEST_NAME, breakWords = true) {
  const names = [...root.querySelectorAll(selector)];
  for (const name of names) {
    Object.assign(name.style, { fontSize: "", overflowWrap: "" });
    if (name.textContent.includes(SOFT)) name.textContent = name.textContent.replaceAll(SOFT, "");
  }
  const sizes = names.map((name) => {
    const style = getComputedStyle(name);
    const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
    return [name.clientWidth, name.scrollWidth, parseFloat(style.fontSize), padding];
  });
  const tooLong = [];
  names.forEach((name, i) => {
    const [width, needed, size, padding] = sizes[i];
    if (!(width > 0 && needed > width)) return;
    const fitted = Math.floor((size * width * 9.5) / needed) / 10;
    name.style.fontSize = `${Math.max(smallest, fitted)}px`;
    if (fitted < smallest) tooLong.push([name, width - padding]);
  });
  if (!tooLong.length) return;
  // At the smallest size (one more layout, for these names only), the words still wider than
  // their line take soft hyphens between their syllables, and only they: a word that fits its
  // line stays whole ("Gatto / selvaggio", not "Gatto sel- / vaggio"). A word with no syllable
  // to break at may still break anywhere rather than be cut.
  const lang = document.documentElement.lang;
  const wide = tooLong.map(([name, room]) => {
    const text = name.firstChild;
    if (!breakWords || !text) return null;
    return [...name.textContent.matchAll(/[^\s-]+/g)].filter((m) => {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      return range.getBoundingClientRect().width > room;
    }).map((m) => m[0]);
  });
  tooLong.forEach(([name], i) => {
    if (wide[i] && wide[i].length) {
      const words = new Set(wide[i]);
      name.textContent = name.textContent.replace(/[^\s-]+/g, (word) => (words.has(word) ? hyphenate(word, lang) : word));
    }
    name.style.overflowWrap = "anywhere";
  });
}
