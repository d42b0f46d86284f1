// What the modules of the game area share: the table shown (the live one, or a replay's step),
// what only this page knows of it, the server's clock, and the way up (ctx) to the modules
// above them, which they cannot import: the imports run one way, app.js on top.

import { cardLabel } from "./cards.js";
import { _, fmt } from "./i18n.js";
import { bindings, keyLabel } from "./keys.js";
import { $, announce, leaveLog } from "./ui.js";

// { state, send, act, query, openHelp } of app.js, with game.js's `run` (a key's action) and
// `redraw` (the felt and the buttons, gamescreen.js): set once by initGame.
export let ctx = null;

export function setContext(context) {
  ctx = context;
}

// What only this page knows: the cursor, the combo selection, a reorder (the chooser: chooser.js).
// `none`: no card under the cursor, as a choice of a card to give starts (issue 24: a quick
// Enter gave a Defuse away); `left`: no card under it since the burrito hand changed under it
// outside plain play (`cards`: the hand last drawn), or since a question that changes the hand
// closed (`focusHandWithoutCard`); the arrows or a tap put the cursor on a card (`placeCursor`).
// `reorder`: { cards: [...], order: [indices] } while the top of the deck is put in order.
export const local = { cursor: 0, none: false, left: false, cards: [], held: false, selected: new Set(), handKey: "", lastThrower: null, openWindows: new Set(), catches: new Map(), reorder: null };

// The replay viewer draws a stored table with the same code: `shown` stands in for the room
// while it does (renderBoardFor).
let shown = null;

export function setShown(fake) {
  shown = fake;
}

export const room = () => shown || ctx.state.room;
export const view = () => (room() ? room().view : null);
export const me = () => (room() ? room().you : null);
export const game = () => (room() ? room().game : null);

export function seatName(seat) {
  const r = room();
  if (seat === me()) return _("you");
  const s = r && r.seats[seat];
  return s && s.name ? s.name : fmt(_("seat {n}"), { n: seat + 1 });
}

export function cardName(card) {
  return cardLabel(game() === "burrito" ? "burrito" : "kittens", card);
}

// ---- the server's clock, estimated from the last view ----------------------------------------
const clock = { now: 0, at: 0, held: null };

export function syncClock(v) {
  if (v && typeof v.now === "number") {
    clock.now = v.now;
    clock.at = performance.now();
    clock.held = null;
  }
}

// A guided game's coach holds the play clock while it waits for the player (docs/guide.md):
// the timers on the table and a burrito in the air stand still with it, until the next batch.
export function holdClock(at) {
  clock.held = at;
}

export function serverNow() {
  return clock.held !== null ? clock.held : clock.now + (performance.now() - clock.at);
}

export const giving = (v) => Boolean(v && v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "give");
export const placing = (v) => Boolean(v && ((v.phase === "defusing" && v.turn === me()) || (v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "insert")));

export function handCards() {
  if (local.reorder) return local.reorder.order.map((i) => local.reorder.cards[i]);
  const v = view();
  if (gameOver()) return []; // the cards are of no more use: the final scores take their place
  return (v && v.hand) || [];
}

export const gameOver = () => Boolean(room() && (room().state === "over" || (view() && view().phase === "game_over")));

export function cursorCard() {
  const cards = handCards();
  return cards.length && !noCursor() ? cards[local.cursor] : null;
}

// Whether no card is under the cursor (the hand's listbox then has no active option).
export function noCursor() {
  return (local.none || local.left) && !local.reorder;
}

// The focus back on the hand with no card under the cursor, after a question that changes the
// hand (a defuse takes its card out): the screen reader says the hand and stops, where it read
// the card under the cursor and then, the hand redrawn, the card that took its place (6 s
// before a Nope window of 3 s, issue 24). The arrows or a tap put the cursor on a card again.
export function focusHandWithoutCard() {
  local.left = true;
  $("hand").removeAttribute("aria-activedescendant");
  focusHand();
}

// The cursor on the card at `index` (the arrows, Home, End, a tap).
export function placeCursor(index) {
  local.none = false;
  local.left = false;
  local.cursor = index;
}

export function announceHint(template, action, urgent = false) {
  const b = bindings(game()).find((x) => x.action === action);
  if (b) announce(fmt(template, { key: keyLabel(b.key) }), urgent, "hint");
}

export function focusHand() {
  leaveLog();
  const hand = $("hand");
  if (local.fresh && view()) {
    // The game has just started: the table (seats, scores) at the top of the screen, the hand
    // below it, rather than the hand scrolled to the bottom with the seats gone above.
    local.fresh = false;
    hand.focus({ preventScroll: true });
    $("felt").scrollIntoView({ block: "start" });
    return;
  }
  hand.focus();
}

// A card's name in the game of a stored table.
export function cardNameIn(gameName, card) {
  return cardLabel(gameName === "burrito" ? "burrito" : "kittens", card);
}
