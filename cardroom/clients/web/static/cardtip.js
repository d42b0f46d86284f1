// What a card does, shown beside it: on a mouse's hover, after a finger's long press, and with
// Shift+D on the card under the cursor (issue 24). The words are the game's own (`textOf`, the
// same sentence Shift+D says), never a copy kept here. The tip sits above the card (below it
// when there is no room above), so it never covers the card being chosen; it is a picture for
// the eye (aria-hidden): Shift+D says the same words to the ear.

import { $ } from "./ui.js";

const HOLD_MS = 500; // a press this long is a long press, not a tap
const SLOP_PX = 10; // a finger that moves further is scrolling the hand, not holding a card
const GAP_PX = 6;

let hooks = null; // {cardOf, textOf, held, canHold}
let hold = null; // {timer, x, y}

export function initCardTips(area, given) {
  hooks = given;
  area.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const host = hostOf(event.target);
    if (host) showFor(host);
  });
  area.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const host = hostOf(event.target);
    if (host && !(event.relatedTarget && host.contains(event.relatedTarget))) hideCardTip();
  });
  area.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    hideCardTip();
    const host = hostOf(event.target);
    if (!host || !hooks.canHold()) return;
    hold = {
      x: event.clientX,
      y: event.clientY,
      timer: setTimeout(() => {
        hold = null;
        if (showFor(host)) hooks.held();
      }, HOLD_MS),
    };
  });
  const drop = () => {
    if (hold) clearTimeout(hold.timer);
    hold = null;
  };
  area.addEventListener("pointerup", drop);
  area.addEventListener("pointercancel", drop);
  area.addEventListener("pointermove", (event) => {
    if (hold && Math.hypot(event.clientX - hold.x, event.clientY - hold.y) > SLOP_PX) drop();
  });
  // A long press on a card is ours: no menu of the system's over it.
  area.addEventListener("contextmenu", (event) => {
    if (hostOf(event.target)) event.preventDefault();
  });
  // The page scrolled (the person, or the page bringing something into view as the table
  // changes): the tip follows its card, and goes with it when the card is gone or off screen.
  // Hiding it on every scroll took it away from under a finger still holding the card.
  window.addEventListener("scroll", followCard, { passive: true });
}

let shownFor = null; // the card the tip is beside

function followCard() {
  const tip = $("card-tip");
  if (!tip || tip.hidden) return;
  const r = shownFor && shownFor.isConnected ? shownFor.getBoundingClientRect() : null;
  if (!r || r.bottom < 0 || r.top > window.innerHeight) hideCardTip();
  else showCardTip(shownFor, tip.textContent);
}

// The element that stands for a card under `node`: a card of the hand, or a face on the table.
function hostOf(node) {
  if (!hooks || !node || !node.closest) return null;
  const host = node.closest("#hand [role=option][data-index], .seen-card, .face[data-card]");
  return host && hooks.cardOf(host) ? host : null;
}

function showFor(host) {
  const text = hooks.textOf(hooks.cardOf(host));
  if (!text) return false;
  showCardTip(host, text);
  return true;
}

// Show `text` beside `host`, above it where there is room, else below; inside the window.
export function showCardTip(host, text) {
  const tip = $("card-tip");
  if (!tip || !text) return;
  shownFor = host;
  tip.textContent = text;
  tip.hidden = false;
  const r = host.getBoundingClientRect();
  const w = tip.offsetWidth;
  const h = tip.offsetHeight;
  const left = Math.max(GAP_PX, Math.min(window.innerWidth - w - GAP_PX, r.left + r.width / 2 - w / 2));
  const above = r.top - h - GAP_PX;
  const top = above >= 0 ? above : Math.min(window.innerHeight - h, r.bottom + GAP_PX);
  tip.style.left = `${Math.round(left)}px`;
  tip.style.top = `${Math.round(top)}px`;
}

export function hideCardTip() {
  shownFor = null;
  const tip = $("card-tip");
  if (tip && !tip.hidden) tip.hidden = true;
}
