// The table fitted to the screen it is on (issue 23). During a game the table's column is one
// screen high (style.css): the felt takes what the bar under it (the hand and the buttons of
// what can be done now) leaves. This module does what CSS cannot: it brings that column back to
// the top of the screen when the screen turns, says how many cards the hand holds and on which
// side more of them are scrolled out of sight, and counts the table chat's messages that came
// while it was out of sight.

import { fmt, ngettext } from "./i18n.js";
import { $ } from "./ui.js";

const playing = () => !$("table").hidden && $("felt").classList.contains("playing");

// The body says whether a game is on screen (style.css lays the page out for it): a class
// kept here rather than a :has() rule high in the page, which the browser would check again at
// every change under it.
// A game coming on screen lays the page out anew: the table's column at the top of the screen
// then (the page scrolled to the felt before that, which then moved).
const anchor = () => requestAnimationFrame(() => document.querySelector(".stage-main").scrollIntoView({ block: "start" }));
const mark = () => {
  const on = playing();
  if (on === document.body.classList.contains("in-game")) return;
  document.body.classList.toggle("in-game", on);
  if (on && !document.querySelector("#scoreboard.final")) anchor();
};
const marker = new MutationObserver(mark);
marker.observe($("felt"), { attributes: true, attributeFilter: ["class"] });
marker.observe($("table"), { attributes: true, attributeFilter: ["hidden"] });
mark();

// The screen turned (only a change of width counts: a phone's address bar coming and going
// changes the height as the reader scrolls): the table's column at the top again, as at the
// start of the game; at game over table.js brings the final scores into view instead.
let width = window.innerWidth;
window.addEventListener("resize", () => {
  if (window.innerWidth === width) return;
  width = window.innerWidth;
  if (!playing() || document.querySelector("#scoreboard.final")) return;
  anchor();
});

// ---- the hand: its count, and an arrow on each side where cards are scrolled out of sight ----
const hand = $("hand");
const before = document.querySelector(".hand-more.before");
const after = document.querySelector(".hand-more.after");

function showMore() {
  const cards = hand.querySelectorAll("[role=option][data-index]").length;
  const count = cards ? fmt(ngettext("{n} card", "{n} cards", cards), { n: cards }) : "";
  const shown = $("hand-count");
  if (shown.textContent !== count) shown.textContent = count;
  // An arrow only where a card is cut off by a quarter of its width or more: a hand a few pixels
  // wider than its row (five cards to reorder on a phone) scrolls by those pixels, and an arrow
  // there would cover the first card's middle, where a finger takes it, for a sliver of card.
  const options = hand.querySelectorAll("[role=option]");
  const box = hand.getBoundingClientRect();
  const cut = (rect, hidden) => hidden > rect.width / 4;
  const first = options.length ? options[0].getBoundingClientRect() : null;
  const last = options.length ? options[options.length - 1].getBoundingClientRect() : null;
  const left = first !== null && cut(first, box.left - first.left);
  const right = last !== null && cut(last, last.right - box.right);
  if (before.hidden === left) before.hidden = !left;
  if (after.hidden === right) after.hidden = !right;
}

// A new hand starts at its first card (often the Defuse), never scrolled past it.
new MutationObserver(() => {
  showMore();
}).observe(hand, { childList: true });
hand.addEventListener("scroll", showMore, { passive: true });
if (window.ResizeObserver) new ResizeObserver(showMore).observe(hand); // the screen turned
// A tap on an arrow scrolls the hand by most of its width.
for (const [node, sign] of [[before, -1], [after, 1]]) {
  node.addEventListener("click", () => hand.scrollBy({ left: sign * hand.clientWidth * 0.8, behavior: "smooth" }));
}

// ---- the table chat: how many messages came while it was out of sight ------------------------
const chat = $("table-chat-log");
const jump = $("chat-jump");
let unread = 0;
let chatSeen = true;

function showUnread() {
  jump.hidden = unread === 0;
  const text = unread ? fmt(ngettext("Table chat: {n} new message", "Table chat: {n} new messages", unread), { n: unread }) : "";
  if (jump.textContent !== text) jump.textContent = text;
}

if (window.IntersectionObserver) {
  new IntersectionObserver((entries) => {
    chatSeen = entries[entries.length - 1].isIntersecting;
    if (chatSeen && !document.hidden && unread) {
      unread = 0;
      showUnread();
    }
  }).observe(chat);
}
new MutationObserver((records) => {
  // One line appended is a message; the log drawn afresh is another table's chat, all read.
  const drawn = records.some((r) => r.removedNodes.length || r.addedNodes.length !== 1);
  if (drawn) unread = 0;
  else if (!chatSeen || document.hidden) unread += records.length;
  showUnread();
}).observe(chat, { childList: true });
document.addEventListener("visibilitychange", () => {
  if (!document.hidden && chatSeen && unread) {
    unread = 0;
    showUnread();
  }
});
jump.addEventListener("click", () => {
  $("table-chat").scrollIntoView({ block: "nearest" });
  $("table-chat-input").focus({ preventScroll: true });
});
