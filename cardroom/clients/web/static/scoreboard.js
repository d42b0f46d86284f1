// The scoreboard beside the felt: an accessible table (not a picture) of each player's score or
// state, which becomes the final scores with the places at the game's end and is kept in view.
// Out of table.js, which draws the picture: this is read, and drawn from the same model.

import { _, fmt, listParts } from "./i18n.js";
import { el } from "./ui.js";

// The final scores shown now, kept in view when the screen turns (a phone turned sideways lays
// the page out again, and what was on screen may not be). Only a change of width counts: a
// phone's address bar coming and going changes the height as the reader scrolls.
let finalBox = null;
let width = window.innerWidth;
window.addEventListener("resize", () => {
  if (window.innerWidth === width) return;
  width = window.innerWidth;
  if (finalBox) bringIntoView(finalBox);
});

// Scrolled to after the frame that laid the page out, with a little room round it, by
// scrolling the page itself, and looked at again a few frames on until it is in view. On a
// desktop the box is in the side column, which sticks while the table is on screen and is
// pushed up by the table's end when scrolled past it: where the browser says a sticky box is
// can lag a frame behind a change (the hand gone at game over, a screen turned), and Chrome's
// scrollIntoView aimed it at where it would be if it did not stick; either left it partly off
// screen. The box is the first thing in that column, whose own scroll goes back up.
const ROOM_PX = 8;
function bringIntoView(box, tries = 6) {
  requestAnimationFrame(() => setTimeout(() => {
    if (!box.isConnected || !box.getClientRects().length) return;
    if (box.parentElement.scrollTop) box.parentElement.scrollTop = 0;
    const r = box.getBoundingClientRect();
    const high = window.innerHeight;
    let by = 0;
    if (r.top < 0 || (r.bottom > high && r.height > high - 2 * ROOM_PX)) by = r.top - ROOM_PX;
    else if (r.bottom > high) by = r.bottom - high + ROOM_PX;
    if (!by) return;
    window.scrollBy(0, by);
    if (tries > 1) bringIntoView(box, tries - 1);
  }));
}

// The page goes on changing its layout for a moment after the game ends (the hand emptied, the
// buttons gone, Rematch shown, the history's last lines): for SETTLE_MS each change of the
// page's size aligns the final scores again, until the person scrolls or presses a key (then
// the page is theirs). A tap or a click scrolls nothing, and is often aimed at the game the
// screen still showed: it hands nothing over (a tap on a card as the game ended left the scores
// half off a phone's screen once the hand was emptied, on a busy machine more than 3 s on, and
// again in a clean run with the end 600 ms of grace). A key within AIMED_MS of the end was
// aimed at the game too.
const SETTLE_MS = 8000;
const AIMED_MS = 600;
let settling = null;
function keepInView(box) {
  if (settling) settling();
  const began = performance.now();
  const until = began + SETTLE_MS;
  const observer = new ResizeObserver(() => {
    if (performance.now() > until) stop();
    else bringIntoView(box, 2);
  });
  const inputs = ["wheel", "touchmove", "keydown"];
  const stop = () => {
    observer.disconnect();
    for (const kind of inputs) window.removeEventListener(kind, handOver, true);
    if (settling === stop) settling = null;
  };
  const handOver = () => {
    if (performance.now() - began >= AIMED_MS) stop();
  };
  for (const kind of inputs) window.addEventListener(kind, handOver, { capture: true, passive: true });
  observer.observe(document.body);
  observer.observe(box);
  settling = stop;
  bringIntoView(box);
}

export function renderScoreboard(box, m) {
  const v = m.view;
  const body = box.querySelector("tbody");
  if (!v) {
    box.hidden = true;
    finalBox = null;
    return;
  }
  box.hidden = false;
  const over = m.state === "over" || v.phase === "game_over";
  finalBox = over ? box : null;
  if (!over && settling) settling();
  box.querySelector("#lobby-btn").hidden = !over;
  // The end of the game: the final scores come into view (the focus stays where it is), again
  // once Rematch shows under them (it comes with the table's next message, and makes the box taller).
  const rematch = box.querySelector("#rematch-btn");
  const seen = over ? `over ${rematch ? rematch.hidden : ""}` : "";
  const show = () => {
    if (box.dataset.seen === seen) return;
    box.dataset.seen = seen;
    if (over) keepInView(box);
  };
  const key = JSON.stringify([over, m.places, m.game === "burrito" ? [v.scores, v.bruises, v.badge] : v.alive, m.seats.map((s) => s.name)]);
  if (box.dataset.key === key) {
    show();
    return;
  }
  box.dataset.key = key;
  box.classList.toggle("final", over);
  const order = m.seats.map((_s, i) => i);
  const places = m.places || null;
  if (places) order.sort((x, y) => places[x] - places[y] || x - y);
  else if (m.game === "burrito") order.sort((x, y) => v.scores[y] - v.scores[x] || x - y);
  box.querySelector(".score-title").textContent = over ? _("Final scores") : _("Scores");
  box.querySelector(".col-place").textContent = _("Place");
  box.querySelector(".col-name").textContent = _("Player");
  box.querySelector(".col-score").textContent = m.game === "burrito" ? _("Points") : _("State");
  body.replaceChildren(...order.map((i) => {
    // Each part whole ("score 2", "bruises 0"), and a line breaks between parts only where the
    // column is too narrow for the row (on one line "holds the badge" ran off a phone's edge,
    // and a long name left "bruises 0" cut in a laptop's side column).
    const burrito = () => {
      const parts = [fmt(_("score {score}"), { score: v.scores[i] }), fmt(_("bruises {n}"), { n: v.bruises[i] })];
      if (v.badge === i) parts.push(_("holds the badge")); // the badge breaks the tie for the game
      return listParts(parts, "unit").map((p) => (p.type === "element" ? el("span", { class: "unit", text: p.value }) : p.value));
    };
    const score = m.game === "burrito" ? burrito() : [v.alive[i] ? (over ? _("survived") : _("in the game")) : _("exploded")];
    return el("tr", { class: places && places[i] === 1 ? "first" : null },
      el("td", { text: places ? String(places[i]) : "–" }),
      el("th", { scope: "row" }, m.seats[i] && m.seats[i].name ? (i === m.you ? fmt(_("{name} (you)"), { name: m.seats[i].name }) : m.seats[i].name) : _("empty seat")),
      el("td", {}, ...score));
  }));
  show();
}
