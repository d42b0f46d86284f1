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
