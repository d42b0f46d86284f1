// Card faces and backs drawn from our own art: one SVG per card kind, static/art/<card id>.svg,
// with the card's name (in the page's language) printed under the picture, so a card reads by
// its word and its shape as well as by its colour.

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
// SMALLEST_NAME px, still readable on a phone; a word too long even then ("manipolazione" on
// a pile at phone size) breaks onto a second line, with a hyphen where the browser can. One
// read of every name under `root`, then one write; names not on screen (no width) stay as they are.
const SMALLEST_NAME = 10;

// The same for other short names that must stay whole, in `selector` (table.js: the piles'
// names, "Gemeinschaftsstapel"), down to `smallest` px.
export function fitNames(root, selector = ".card-name", smallest = SMALLEST_NAME) {
  const names = [...root.querySelectorAll(selector)];
  for (const name of names) Object.assign(name.style, { fontSize: "", overflowWrap: "", hyphens: "" });
  const sizes = names.map((name) => [name.clientWidth, name.scrollWidth, parseFloat(getComputedStyle(name).fontSize)]);
  names.forEach((name, i) => {
    const [width, needed, size] = sizes[i];
    if (!(width > 0 && needed > width)) return;
    const fitted = Math.floor((size * width * 9.5) / needed) / 10;
    name.style.fontSize = `${Math.max(smallest, fitted)}px`;
    if (fitted < smallest) Object.assign(name.style, { overflowWrap: "anywhere", hyphens: "auto" });
  });
}
