// Page-wide helpers: the two live regions, the history log, optional speech, small DOM helpers.

import { _ } from "./i18n.js";

export const $ = (id) => document.getElementById(id);

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    // Through the CSSOM: the Content-Security-Policy refuses style attributes (docs/security.md).
    else if (key === "style") node.style.cssText = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const speech = { on: false };

// `fit(box)` each time `box` changes width (a phone turned, a window resized): what is fitted
// to the width is fitted again. Without ResizeObserver, only when the page draws it.
export function onWidthChange(box, fit) {
  if (!window.ResizeObserver) return;
  let width = 0;
  new ResizeObserver((entries) => {
    const now = Math.round(entries[0].contentRect.width);
    if (now !== width) {
      width = now;
      fit(box);
    }
  }).observe(box);
}

export function setSpeech(on) {
  speech.on = Boolean(on);
  if (!speech.on && window.speechSynthesis) window.speechSynthesis.cancel();
}

function speak(text, urgent) {
  if (!speech.on || !window.speechSynthesis || typeof SpeechSynthesisUtterance === "undefined") return;
  if (urgent) window.speechSynthesis.cancel();
  const utterance = new SpeechSynthesisUtterance(text);
  utterance.lang = document.documentElement.lang || "en";
  window.speechSynthesis.speak(utterance);
}

const KEEP = 8;

// Everything the page said, in order: {text, urgent, kind} ("event" for the server's narration).
export const spoken = [];

// A screen reader's pace, about 200 words a minute: how long an assertive line holds the rest.
const WORD_MS = 300;
const waiting = []; // polite lines held back while an assertive one is being said
let holdUntil = 0;
let timer = null;

// A screen reader drops the lines it has not yet begun when a key is pressed (Orca 43 flushes
// its live-region queue on every key: the round's start and a fight's lines were lost, issue
// 24), and it hears the key late on a busy machine. So no line lands within KEY_MS of a key:
// lines wait until the key has reached the screen reader, urgent ones too (a short wait
// against a line never said).
const KEY_MS = 250;
let keyAt = -Infinity;
// ...but keys pressed faster than that (a player passing cards as fast as they can) would hold
// every line until it went stale: "Round 1 is over." was never placed (tests/web/test_play.py).
// A line that has waited KEY_WAIT_MS for keys lands all the same.
const KEY_WAIT_MS = 1000;

function keyHeard(now, item) {
  return now >= keyAt + KEY_MS || (item !== undefined && now - item.at >= KEY_WAIT_MS);
}
// (keyAt is set by the one listener of the player's keys and touches, below.)

// Orca 43 drops a live line whose text is that of the last one it took, however long ago ("Event
// is believed to be duplicate message"): the second of two "Catch!" 0.4 s apart, two burritos at
// you, was never said. A line the same as the one before ends in a no-break space, which
// nothing says, so that the two differ (the page's tests read the lines trimmed).
let lastPlaced = "";

function place(item) {
  spoken.push(item);
  const region = $(item.urgent ? "assertive" : "polite");
  // Whether the line concerns the listener (an answer, their own game, the page's answer to
  // their key): what the screen reader test holds to every line (tests/screenreader).
  const concerns = item.urgent || item.keep || item.kind !== "event";
  const text = item.text === lastPlaced ? `${item.text}\u00a0` : item.text;
  lastPlaced = text;
  // When the page placed it (`data-at`, its own clock): an observer's own time can be a long
  // task late on a busy machine.
  const at = performance.now().toFixed(1);
  region.append(el("p", { text, "data-concerns": concerns ? "1" : "0", "data-at": at }));
  while (region.childElementCount > KEEP) region.firstElementChild.remove();
  speak(item.text, item.urgent);
}

const urgentWaiting = []; // urgent lines held until a key just pressed has been heard, or their pace
let urgentAt = -Infinity;

// An urgent line holds the polite ones from now, not after what was held before it: it is
// about now, and the lines it made wait are about the past (a table of quick bots says "Your
// turn." every half second; chained, the page talked on for half a minute after the game).
// However short, an urgent line holds the polite ones URGENT_HOLD_MS: Orca's queue takes a
// polite line that comes while an assertive one still waits there ahead of it, and on a busy
// machine it began a "Catch!" 0.7 s after the page placed it: "Caught!", placed 0.34 s after a
// second "Catch!", was said before it (issue 24, cc26e).
const URGENT_HOLD_MS = 1200;

function sayUrgent(item) {
  place(item);
  urgentAt = performance.now();
  holdUntil = Math.max(holdUntil, urgentAt + Math.max(URGENT_HOLD_MS, wordsMs(item.text)));
}

// Urgent lines land PACE_MS apart too: two in one tick reached Orca the wrong way round ("Press
// F to defuse." before "DEFUSE NOW! 10 seconds.", issue 24).
function urgentMayLand(now, item = urgentWaiting[0]) {
  return keyHeard(now, item) && now >= urgentAt + PACE_MS;
}

// Lines land one at a time, PACE_MS apart: lines added in one tick reached Orca out of order,
// or as one (issue 24: the game's end was said before the discards, or not at all). Chromium
// hands its accessibility changes over in batches at most every 150 ms, and the events of one
// batch come in no set order: "Scores: ..." was said before "Round 1 is over." placed 160 ms
// before it on a busy machine. So twice that window, and a frame's slack under load. Any line
// of two words or more takes Orca longer than this to say: the pace delays no speech.
const PACE_MS = 400;
let placedAt = -Infinity;

// ...and a polite line waits until the polite line before it has likely been said, at WORD_MS a
// word: Orca hands a live line to speech at once and nothing cuts speech, so every polite line
// placed ahead of a prompt is said before it ("Nope? Press N." came 3.7 s after it was placed,
// its window 3 s, behind lines placed in the seconds before, issue 24). So a prompt finds at most
// one polite line still being said. A key or a touch ends that wait: a screen reader stops
// speaking at a key, and what answers the player's act is what they wait for.
let politeUntil = -Infinity;

// The player's key or touch: when keys were pressed (KEY_MS), and the end of a polite line's wait.
function playerActed(event) {
  if (event.type === "keydown") keyAt = performance.now();
  politeUntil = -Infinity;
  if (waiting.length) flushLater();
}
for (const type of ["keydown", "pointerdown"]) document.addEventListener(type, playerActed, true);

function wordsMs(text) {
  return text.split(/\s+/).filter(Boolean).length * WORD_MS;
}

// A game's line or a hint that has waited STALE_MS (a line about the listener, `keep`:
// KEEP_STALE_MS) with newer lines behind it is about a moment the game has moved past: it is
// dropped, wherever it waits (it is in the history), so that the page never talks on long
// after the game ("You drew a Defuse." came 29 s late on a table of quick bots, issue 24).
// The page's answers to keys and the coach's lines are never dropped for their age, nor is
// the newest line: what is happening now is worth saying. A line whose moment closed (`valid`
// false: a placer's title once the placer is gone) is dropped whatever its age.
const STALE_MS = 6000;
const KEEP_STALE_MS = 12000;

function stale(item, now, newest) {
  if (item.valid && !item.valid()) return true;
  if (newest || now - item.at - item.held < (item.keep ? KEEP_STALE_MS : STALE_MS)) return false;
  return item.kind === "event" || item.kind === "hint";
}

// Stale lines go wherever they wait, and as soon as they are stale (each new line looks, and
// each flush): a page notice at the head, never dropped for its age, must not shelter the
// game's lines behind it (issue 24: "You are in the lobby" held a whole game's lines, said
// one by one at its end).
// (The newest line is the last one announced, urgent ones counted: a polite line behind an
// urgent one is no longer what is happening now.)
let announced = 0;

let agedAt = 0;

function dropStale(now) {
  // A line about the listener held for their fight (below) does not age while it is held.
  const since = now - agedAt;
  agedAt = now;
  for (const item of waiting) if (item.fightHeld) item.held += since;
  for (let i = waiting.length - 1; i >= 0; i -= 1) if (stale(waiting[i], now, waiting[i].n === announced)) waiting.splice(i, 1);
  for (const item of waiting) item.fightHeld = item.keep && item.kind === "event" && fighting(wordsMs(item.text));
}

// While the listener fights, a burrito can come at them at any moment, and Orca cuts no speech:
// a polite line said then holds the "Incoming!" and "Catch!" behind it ("Scores: you: 2 and
// Marco: 2.", placed 0.4 s before a tie-break duel's "Catch!", held it 2.4 s, past its window:
// cc34f). So the game's polite lines wait while `fighting(ms)`, the game's test (burrito.js),
// says a line said for `ms` from now could hide a cue of the listener's fight; a line about the
// listener is said once the fight is decided, however long it lasted (its 12 s to go stale
// do not run while the fight holds it: a round that ends in a tie ends with its tie-break duel
// begun, and a duel longer than 12 s would drop the round's end and scores unsaid); the others
// go stale as they would, and the history has them all. The page's answers to keys,
// hints and the coach are not held: they are about now.
let fighting = () => false;
const FIGHT_POLL_MS = 200; // how often held lines look whether the fight is over

export function holdWhileFighting(test) {
  fighting = test;
}

// The first polite line that may be said now (-1: none).
function nextPolite() {
  return waiting.findIndex((x) => x.kind !== "event" || !fighting(wordsMs(x.text)));
}

function flush() {
  timer = null;
  const now = performance.now();
  dropStale(now);
  if (urgentWaiting.length && urgentMayLand(now)) sayUrgent(urgentWaiting.shift());
  if (keyHeard(now, waiting[0]) && !urgentWaiting.length) {
    const i = now >= holdUntil && now >= politeUntil && now >= placedAt + PACE_MS ? nextPolite() : -1;
    if (i >= 0) {
      const [item] = waiting.splice(i, 1);
      place(item);
      placedAt = now;
      politeUntil = now + wordsMs(item.text);
    }
  }
  if (waiting.length || urgentWaiting.length) flushLater();
}

// One timer, set for the next moment a waiting line may be said.
function flushLater() {
  const first = urgentWaiting.length ? urgentWaiting[0] : waiting[0];
  const afterKey = Math.min(keyAt + KEY_MS, first ? first.at + KEY_WAIT_MS : Infinity);
  let at = urgentWaiting.length ? Math.max(afterKey, urgentAt + PACE_MS) : Math.max(holdUntil, politeUntil, afterKey, placedAt + PACE_MS);
  if (!urgentWaiting.length && waiting.length && nextPolite() < 0) at = Math.max(at, performance.now() + FIGHT_POLL_MS);
  if (timer !== null) clearTimeout(timer);
  timer = setTimeout(flush, Math.max(0, at - performance.now()));
}

// Say `text` once: assertive only for what needs an answer now, at once; polite lines wait
// until the assertive line before them has been said, and never share its tick (a screen
// reader cuts a polite line that lands with an assertive one). A line of the game that needs
// an answer also replaces the game's lines still waiting: they are about the past, are in the
// history, and said after it they would only hold up the next answer (issue 21).
// A hint (kind "hint": which key answers) still waiting when the game's next line comes is
// about a moment that has passed: it is dropped, never said late (issue 24: "Choose the card to
// give" was said after the player had exploded).
// A line that concerns the listener (`keep`: the game's priority 1) is not dropped by this one
// (it goes stale later than the others, and a round's end clears it: closeChapter).
// A line of the page's own the same as one still waiting replaces it (a key pressed again
// while its answer waited was said five times, late): it is said once, in the newer place (the
// game's lines are each said: two players may draw in a row). `valid`, when given, says
// whether the line's moment is still on when its turn comes.
export function announce(text, urgent = false, kind = "notice", keep = false, valid = null) {
  if (!text) return;
  announced += 1;
  const item = { text, urgent, kind, keep, valid, at: performance.now(), n: announced, held: 0, fightHeld: false };
  dropStale(item.at);
  if (kind !== "event") {
    for (let i = waiting.length - 1; i >= 0; i -= 1) if (waiting[i].text === text) waiting.splice(i, 1);
  }
  if (kind === "event") {
    for (let i = waiting.length - 1; i >= 0; i -= 1) if (waiting[i].kind === "hint") waiting.splice(i, 1);
  }
  if (urgent) {
    // A line about you (`keep`) waiting for a key or its pace is said after this one.
    if (kind === "event") {
      for (let i = waiting.length - 1; i >= 0; i -= 1) if (waiting[i].kind === "event" && !waiting[i].keep) waiting.splice(i, 1);
    }
    // Ahead of the polite lines waiting, once a key just pressed has been heard.
    if (urgentWaiting.length || !urgentMayLand(performance.now(), item)) urgentWaiting.push(item);
    else sayUrgent(item);
  } else {
    waiting.push(item);
  }
  flushLater();
}

// A round's or the game's end: the game's lines still waiting are about what came before it,
// and they go (the history has them), so that the end is said now. A listener who acts faster
// than speech (a key every quarter second, each answered by "Passed ..." or "Drew ...") has a
// queue that never drains, and lines about them wait out a fight unaged: "Round 1 is over."
// waited behind thirty such lines, the oldest 17 s old, and was not said 30 s later
// (tests/web/test_play.py). The end's own batch, with the fight that decided it, comes after.
export function closeChapter() {
  for (let i = waiting.length - 1; i >= 0; i -= 1) if (waiting[i].kind === "event" || waiting[i].kind === "hint") waiting.splice(i, 1);
}

// Nothing waits to be said (tests look at the live regions once the page is quiet).
export function quiet() {
  return waiting.length === 0 && urgentWaiting.length === 0;
}

// The lines waiting to be said, with how long each has waited (ms): what a test reports when
// the page is not quiet in time.
export function pending() {
  const now = performance.now();
  return [...urgentWaiting, ...waiting].map((x) => ({ text: x.text, kind: x.kind, keep: x.keep, waited: Math.round(now - x.at) }));
}

// The history: every narrated line of the whole game, newest last (a long game is a few
// thousand short paragraphs: the page keeps them all). It is no live region in any form (no
// role=log, no aria-live, even "off"): Orca 43 counts any of them as live, and dropped the live
// regions' line as a duplicate of the history's (issue 24). The log itself takes the focus (Tab), so that
// the keyboard reaches it as it scrolls.
let logCursor = -1;
let scrollPending = false;

// The lines go into blocks of LINES_PER_BLOCK: a new line lays out its own block, and the blocks
// out of view are neither laid out nor painted (style.css), so that a line costs the same late
// in a long game as at its start (with 8,000 lines in one block, 5 lines and their layout took
// 5 ms). A line is added without reading the page's layout: the history is kept at its newest
// line once a frame, in the frame that draws it (reading the scroll size after each line made
// the browser lay the page out again for every line of a busy fight).
const LINES_PER_BLOCK = 100;

export function logLine(text, urgent = false) {
  const log = $("log");
  let block = log.lastElementChild;
  if (!block || block.childElementCount >= LINES_PER_BLOCK) {
    block = el("div", { class: "log-block" });
    log.append(block);
  }
  block.append(el("p", { tabindex: "-1", class: urgent ? "urgent" : null, text }));
  if (logCursor >= 0 || scrollPending) return;
  scrollPending = true;
  requestAnimationFrame(() => {
    scrollPending = false;
    if (logCursor < 0) log.scrollTop = log.scrollHeight;
  });
}

export function clearLog() {
  $("log").replaceChildren();
  logCursor = -1;
}

// Page Up / Page Down: move focus through the history, one entry at a time; `to` "first" or
// "last" (Home and End in the history) jumps. Past either end the page says so instead of
// saying the same entry again.
export function moveLog(step, to = null) {
  const entries = [...$("log").querySelectorAll("p")];
  if (!entries.length) {
    announce(_("The history is empty."));
    return;
  }
  const current = entries.indexOf(document.activeElement);
  let index = current >= 0 ? current + step : entries.length - 1;
  if (to === "first") index = 0;
  else if (to === "last") index = entries.length - 1;
  if (current >= 0 && to === null && (index < 0 || index >= entries.length)) {
    announce(index < 0 ? _("Start of history.") : _("End of history."));
    return;
  }
  index = Math.max(0, Math.min(entries.length - 1, index));
  unmark();
  const entry = entries[index];
  entry.setAttribute("aria-current", "true");
  logCursor = index;
  entry.focus();
  entry.scrollIntoView({ block: "nearest" });
}

export function leaveLog() {
  logCursor = -1;
  unmark();
}

function unmark() {
  for (const entry of $("log").querySelectorAll("[aria-current]")) entry.removeAttribute("aria-current");
}

export function isTyping(target) {
  if (!target || !target.closest) return false;
  return Boolean(target.closest("input, textarea, select, [contenteditable='true'], button, summary, dialog"));
}

// Home and End while in the history: its first and last entries (elsewhere they move the
// cursor in the hand).
document.addEventListener("keydown", (event) => {
  const log = $("log");
  if (!log || !log.contains(event.target) || event.ctrlKey || event.altKey || event.metaKey) return;
  if (event.key !== "Home" && event.key !== "End") return;
  event.preventDefault();
  event.stopPropagation();
  moveLog(0, event.key === "Home" ? "first" : "last");
}, true);

// Re-rendering a list must not lose the focus or what was typed in it.
export function keepFocus(container, fallback, render) {
  const active = document.activeElement;
  const id = active && container.contains(active) ? active.id : null;
  const values = {};
  for (const input of container.querySelectorAll("input[id]")) values[input.id] = input.value;
  render();
  for (const [key, value] of Object.entries(values)) {
    const input = document.getElementById(key);
    if (input) input.value = value;
  }
  if (id) {
    const again = document.getElementById(id);
    (again || $(fallback)).focus();
  }
}
