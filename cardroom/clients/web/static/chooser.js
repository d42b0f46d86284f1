// The questions the page asks in the game area: the chooser, a listbox of options (a target,
// a card's name, a seat), and where a card goes back in the deck (placer.js). Each answers a
// promise: the value chosen, or null when cancelled.

import { _ } from "./i18n.js";
import { actionFor, keyName } from "./keys.js";
import { $, announce, el } from "./ui.js";
import { closePlacer, isPlacing, placeCard } from "./placer.js";
import { ASKING } from "./keyhelp.js";
import { ctx, focusHand, focusHandWithoutCard, game, me, room, seatName, view } from "./gamestate.js";

let chooser = null; // { title, options: [{label, value}], index, resolve, back }

export function initChooser() {
  $("chooser").addEventListener("keydown", onChooserKey);
  $("chooser").addEventListener("click", (event) => {
    const option = event.target.closest("[role=option]");
    if (!option || !chooser) return;
    chooser.index = Number(option.dataset.index);
    finishChooser(chooser.options[chooser.index].value);
  });
}

// The chooser open now (null when none): a tap on a seat answers it, the felt rings its seats.
export function currentChooser() {
  return chooser;
}

// ---- the chooser: a listbox of options for targets, positions, names -------------------------
export function choose(title, options, start = 0, seats = false, about = null) {
  closeChooser();
  closePlacer();
  return new Promise((resolve) => {
    chooser = { title, options, index: Math.min(start, options.length - 1), resolve, back: document.activeElement, seats, about };
    $("chooser-title").textContent = title;
    const list = $("chooser");
    list.replaceChildren(
      ...options.map((o, i) =>
        el("li", { role: "option", id: `choice-${i}`, "data-index": i, "aria-selected": "false", text: o.label }),
      ),
    );
    $("chooser-box").hidden = false;
    markChooser();
    ctx.redraw();
    list.focus();
    announce(_("Arrows choose, Enter confirms, Escape cancels.")); // the list says the title as it takes the focus
  });
}

function markChooser() {
  const list = $("chooser");
  for (const option of list.children) {
    const on = Number(option.dataset.index) === chooser.index;
    option.setAttribute("aria-selected", on ? "true" : "false");
    option.classList.toggle("cursor", on);
  }
  list.setAttribute("aria-activedescendant", `choice-${chooser.index}`);
}

export function finishChooser(value) {
  if (!chooser) return;
  const { resolve, back } = chooser;
  closeChooser();
  if (back && back.isConnected && back !== document.body) back.focus();
  else focusHand();
  resolve(value);
}

export function closeChooser() {
  const was = Boolean(chooser);
  $("chooser-box").hidden = true;
  $("chooser").replaceChildren();
  chooser = null;
  if (was) ctx.redraw();
}

function onChooserKey(event) {
  if (!chooser) return;
  const key = keyName(event);
  const count = chooser.options.length;
  const moves = { arrowdown: 1, arrowright: 1, arrowup: -1, arrowleft: -1 };
  if (key in moves) chooser.index = (chooser.index + moves[key] + count) % count;
  else if (key === "home") chooser.index = 0;
  else if (key === "end") chooser.index = count - 1;
  else if (key === "enter" || key === "space") {
    event.preventDefault();
    event.stopPropagation();
    finishChooser(chooser.options[chooser.index].value);
    return;
  } else if (key === "escape") {
    event.preventDefault();
    event.stopPropagation();
    announce(_("Cancelled."));
    finishChooser(null);
    return;
  } else if (/^\d$/.test(key) && Number(key) >= 1 && Number(key) <= count) {
    chooser.index = Number(key) - 1;
  } else {
    return; // other keys (F1) go on
  }
  event.preventDefault();
  event.stopPropagation();
  markChooser();
}

export function playerChooser(title, exclude = []) {
  const v = view();
  const seats = room().seats.map((_s, i) => i);
  const alive = v && v.alive ? v.alive : seats.map(() => true);
  const options = seats
    .filter((i) => i !== me() && alive[i] && !exclude.includes(i))
    .map((i) => ({ label: seatName(i), value: i }));
  return choose(title, options, 0, true);
}

// Where a card goes back (the defused kitten, a sneak-drawn card): a stepper with Top, Bottom
// and a number rather than one button per place (24 buttons for a 23-card deck); placer.js.
export function placeAt(title, keys = true) {
  closeChooser();
  const v = view();
  const other = (event) => {
    const action = actionFor(game(), keyName(event));
    if (!ASKING.has(action)) return;
    event.preventDefault();
    ctx.run(action);
  };
  return placeCard(title, v ? v.deck_size : 0, focusHandWithoutCard, other, keys);
}

export function isChoosing() {
  return Boolean(chooser) || isPlacing();
}
