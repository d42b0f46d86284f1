// Where a card goes back in the deck (the defused kitten, a sneak-drawn card): one stepper, not
// a button per place. A slider holds the place, counted as cards above it (0 is the top); Top,
// one up, one down and Bottom move it by touch, the arrows, Page Up/Down, Home and End by keys
// (the slider's own), Enter or Confirm puts the card there, Escape or Cancel backs out. The
// place is said in words ("3 cards from the top") on screen and to the screen reader
// (aria-valuetext), so it fits a phone whatever the deck's size (issue 24).

import { _, fmt, ngettext } from "./i18n.js";
import { $, announce, el } from "./ui.js";

let open = null; // {resolve, back, size, slider, value}

// The place `k` of a deck of `size` cards, in words.
export function placeLabel(k, size) {
  if (k === 0) return _("On top");
  if (k === size) return fmt(ngettext("At the bottom ({n} card above)", "At the bottom ({n} cards above)", k), { n: k });
  return fmt(ngettext("{n} card from the top", "{n} cards from the top", k), { n: k });
}

export function isPlacing() {
  return Boolean(open);
}

// Ask where the card goes in a deck of `size`: a promise of the place, or null when cancelled.
// `back`: where the focus goes when the stepper closes; `other`: keys the stepper does not
// use (the game's questions, T and E, answer here too); `keys`: say the stepper's keys (a
// defuse said them before, in its hint: its timer runs).
export function placeCard(title, size, back, other = null, keys = true) {
  closePlacer();
  return new Promise((resolve) => {
    const box = $("placer-box");
    const slider = el("input", {
      type: "range", id: "placer-slider", min: "0", max: String(size), step: "1", value: "0",
      "aria-label": _("Back in the deck"), // short: the focus says it while a defuse timer runs
    });
    const value = el("p", { id: "placer-value", class: "placer-value", "aria-hidden": "true" });
    const button = (id, text, onclick, cls = "") => el("button", { type: "button", id, class: cls || null, onclick }, text);
    const step = (by) => () => set(Number(slider.value) + by);
    open = { resolve, back, size, slider, value };
    box.replaceChildren(
      el("p", { id: "placer-title", class: "chooser-title", text: title }),
      value,
      slider,
      el("div", { class: "placer-steps" },
        button("placer-top", _("Top"), () => set(0)),
        button("placer-up", _("One up"), step(-1)),
        button("placer-down", _("One down"), step(1)),
        button("placer-bottom", _("Bottom"), () => set(size))),
      el("div", { class: "placer-go" },
        button("placer-confirm", _("Put it here"), () => finish(Number(slider.value)), "go"),
        button("placer-cancel", _("Cancel"), () => cancel(), "secondary")),
    );
    slider.addEventListener("input", () => show());
    slider.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        event.stopPropagation();
        finish(Number(slider.value));
      } else if (event.key === "Escape") {
        event.preventDefault();
        event.stopPropagation();
        cancel();
      } else if (other && event.key.length === 1) {
        other(event);
      }
    });
    box.hidden = false;
    show();
    slider.focus();
    const mine = open;
    // What the focus says and this line are all a listener hears before Enter: said with the
    // question three times (the box, the slider, the line), they took 11 s of a 10 s defuse.
    if (keys) announce(_("The arrows move it, Enter puts it there."), false, "notice", false, () => open === mine);
  });
}

function set(k) {
  if (!open) return;
  open.slider.value = String(Math.max(0, Math.min(open.size, k)));
  show();
  open.slider.focus({ preventScroll: true }); // the keys go on working after a tap
}

function show() {
  const k = Number(open.slider.value);
  const text = placeLabel(k, open.size);
  open.value.textContent = text;
  open.slider.setAttribute("aria-valuetext", text);
  for (const [id, off] of [["placer-top", k === 0], ["placer-up", k === 0], ["placer-down", k === open.size], ["placer-bottom", k === open.size]]) {
    $(id).disabled = off;
  }
}

function finish(k) {
  if (!open) return;
  const { resolve, back } = open;
  open = null;
  closePlacer();
  if (back) back();
  resolve(k);
}

function cancel() {
  announce(_("Cancelled."));
  finish(null);
}

// Close without an answer (the moment passed: the kitten went off, the choice timed out).
export function closePlacer() {
  const box = $("placer-box");
  const had = Boolean(box && box.contains(document.activeElement));
  if (box) {
    box.hidden = true;
    box.replaceChildren();
  }
  if (open) {
    const { resolve, back } = open;
    open = null;
    if (had && back) back(); // the focus was in it: back where the keys work, not nowhere
    resolve(null);
  }
}
