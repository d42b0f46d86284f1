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
// ("Disinne-sco", hyphen.js). One read of every name under `root`, then one write; names not
// on screen (no width) stay as they are. The card's accessible name is on the element that
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
  const sizes = names.map((name) => [name.clientWidth, name.scrollWidth, parseFloat(getComputedStyle(name).fontSize)]);
  const lang = document.documentElement.lang;
  names.forEach((name, i) => {
    const [width, needed, size] = sizes[i];
    if (!(width > 0 && needed > width)) return;
    const fitted = Math.floor((size * width * 9.5) / needed) / 10;
    name.style.fontSize = `${Math.max(smallest, fitted)}px`;
    if (fitted >= smallest) return;
    // The longest word is what overflowed: at the smallest size it is `needed * smallest / size`
    // wide, the others by their share of its letters. Those still too wide take soft hyphens;
    // a word with no syllable to break at may still break anywhere rather than be cut.
    const text = name.textContent;
    const longest = Math.max(...text.split(/[\s-]+/).map((w) => Array.from(w).length));
    const wide = (word) => (needed * smallest * Array.from(word).length) / (size * longest) > width;
    if (breakWords) name.textContent = text.replace(/[^\s-]+/g, (word) => (wide(word) ? hyphenate(word, lang) : word));
    name.style.overflowWrap = "anywhere";
  });
}
