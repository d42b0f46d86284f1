// The Games view (finished games, GET /api/records) and the replay viewer
// (GET /api/records/ID/frames, a page at a time): step by step with the keyboard, every
// step's sentences said in the polite live region and kept in the viewer's own history.

import { api } from "./api.js";
import { renderBoardFor } from "./boards.js";
import { cardNameIn } from "./gamestate.js";
import { N_, _, fmt, lang, listOf, ngettext } from "./i18n.js";
import { $, announce, el } from "./ui.js";
import { showView } from "./views.js";

const GAME_NAMES = { kittens: N_("Exploding Kittens"), burrito: N_("Throw Throw Burrito") };
const SPEEDS = [1, 2, 4, 8];
const LONGEST_WAIT_MS = 3000;

let ctx = null; // { account: () => account or null, openPlayer: (name) => void }

export function gameName(game) {
  return GAME_NAMES[game] ? _(GAME_NAMES[game]) : game;
}

export function when(ms) {
  if (!ms) return "";
  try {
    return new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(new Date(ms));
  } catch (error) {
    return new Date(ms).toISOString();
  }
}

function winnerName(record) {
  if (record.winner === null || record.winner === undefined) return _("nobody");
  const seat = (record.seats || [])[record.winner];
  return seat ? seat.name : fmt(_("seat {n}"), { n: record.winner + 1 });
}

function playersText(record) {
  return listOf((record.seats || []).map((s) => (s.bot ? fmt(_("{name} (bot)"), { name: s.name }) : s.name)));
}

// ---- the Games view ------------------------------------------------------------------------
let listed = [];

export async function showGames(focus = true) {
  showView("games");
  const account = ctx.account();
  $("games-mine-box").hidden = !account;
  if (!account) $("games-mine").checked = false;
  if (focus) $("games-title").focus();
  await loadGames();
}

async function loadGames() {
  const mine = $("games-mine").checked && ctx.account();
  const reply = await api("GET", mine ? "/api/records?mine=1" : "/api/records");
  $("games-error").textContent = reply.ok ? "" : reply.data.message;
  if (!reply.ok) announce(reply.data.message, true);
  listed = reply.ok ? reply.data.records || [] : [];
  $("games-caption").textContent = mine ? _("My games, newest first") : _("Recent games, newest first");
  renderGameRows($("games-body"), listed, "games");
  $("games-table").hidden = listed.length === 0;
  $("games-empty").hidden = listed.length > 0 || !reply.ok;
}

// The rows of a list of games (the Games view and a player's page), each with its replay button.
export function renderGameRows(body, records, from) {
  body.replaceChildren(
    ...records.map((r) => {
      const label = fmt(_("Replay the game of {game} finished {when}"), { game: gameName(r.game), when: when(r.finished_ms) });
      const button = el("button", { type: "button", class: "secondary", "data-record": r.id, "aria-label": label, onclick: () => openReplay(r, from) }, _("Replay"));
      return el(
        "tr",
        {},
        el("td", { "data-label": _("Game") }, gameName(r.game)),
        el("td", { "data-label": _("Finished") }, when(r.finished_ms)),
        el("td", { "data-label": _("Players") }, playersText(r)),
        el("td", { "data-label": _("Winner") }, winnerName(r)),
        el("td", { "data-label": _("Replay") }, button),
      );
    }),
  );
}

// ---- the replay viewer ---------------------------------------------------------------------
// A replay comes in pages (`page_size` frames each, docs/api.md): the viewer keeps a few pages
// and asks for another as the steps reach it, so a long game never sits whole in the page.
const KEEP_PAGES = 6;
const LOG_LINES = 500; // the viewer's history keeps this many sentences, the newest
const replay = {
  record: null, from: "games", pages: new Map(), fetching: new Map(), pageSize: 1, count: 0,
  index: 0, playing: false, timer: null, loading: 0, moving: 0,
};

export function replayState() {
  return { id: replay.record ? replay.record.id : null, index: replay.index, count: replay.count, playing: replay.playing };
}

export async function openReplay(record, from = "games") {
  stop(false);
  replay.record = record;
  replay.from = from;
  replay.pages = new Map();
  replay.count = 0;
  replay.index = 0;
  const seats = record.seats || [];
  $("replay-title").textContent = fmt(_("Replay: {game}"), { game: gameName(record.game) });
  $("replay-summary").textContent = fmt(_("Finished {when}. Players: {players}. Winner: {winner}."), {
    when: when(record.finished_ms), players: playersText(record), winner: winnerName(record),
  });
  const picker = $("replay-seat");
  picker.replaceChildren(
    el("option", { value: "all", text: _("Everyone: every hand shown") }),
    ...seats.map((s, i) => el("option", { value: String(i), text: fmt(_("As seat {n} saw it: {name}"), { n: i + 1, name: s.name }) })),
  );
  picker.value = "all";
  const download = $("replay-download");
  download.href = `/api/records/${encodeURIComponent(record.id)}/scenario`;
  download.setAttribute("download", `cardroom-${record.game}-${record.id}.json`);
  $("replay-log").replaceChildren();
  $("replay-board").replaceChildren();
  $("replay-hands").replaceChildren();
  showView("replay");
  $("replay-title").focus();
  await loadFrames();
}

function pagePath(page) {
  const seat = encodeURIComponent($("replay-seat").value);
  return `/api/records/${encodeURIComponent(replay.record.id)}/frames?seat=${seat}&page=${page}`;
}

function failed(reply) {
  $("replay-error").textContent = reply.data.message;
  announce(reply.data.message, true);
}

// The first page says how many steps there are; the others come when needed.
async function loadFrames() {
  stop(false);
  const token = ++replay.loading;
  replay.pages = new Map();
  replay.fetching = new Map();
  replay.count = 0;
  const reply = await api("GET", pagePath(0));
  if (token !== replay.loading) return; // another seat was chosen meanwhile
  $("replay-error").textContent = reply.ok ? "" : reply.data.message;
  if (!reply.ok) {
    announce(reply.data.message, true);
    return;
  }
  const frames = reply.data.frames || [];
  replay.pageSize = reply.data.page_size || Math.max(1, frames.length);
  replay.count = reply.data.count === undefined ? frames.length : reply.data.count;
  replay.pages.set(0, frames);
  const slider = $("replay-step");
  slider.max = String(Math.max(1, replay.count));
  replay.index = -1;
  go(0);
}

function seatMode() {
  const value = $("replay-seat").value;
  return value === "all" ? null : Number(value);
}

// The stored table as game.js draws a live one: {game, seats, you, view}.
function shownTable(frame) {
  const seat = seatMode();
  const everything = seat === null;
  const view = everything ? frame.view && frame.view.table : frame.view;
  return { game: replay.record.game, seats: replay.record.seats || [], you: seat, view, state: "over" };
}

function pageOf(index) {
  return Math.floor(index / replay.pageSize);
}

function frameAt(index) {
  const page = replay.pages.get(pageOf(index));
  return page ? page[index - pageOf(index) * replay.pageSize] : undefined;
}

// Page `page` of the replay in the viewer's pages (true), or false when it could not come.
function fetchPage(page) {
  if (replay.pages.has(page)) return Promise.resolve(true);
  if (replay.fetching.has(page)) return replay.fetching.get(page);
  const token = replay.loading;
  const promise = api("GET", pagePath(page)).then((reply) => {
    if (token !== replay.loading) return false;
    replay.fetching.delete(page);
    if (!reply.ok) {
      failed(reply);
      return false;
    }
    replay.pages.set(page, reply.data.frames || []);
    const shown = pageOf(Math.max(0, replay.index));
    for (const kept of replay.pages.keys()) {
      if (replay.pages.size <= KEEP_PAGES) break;
      if (kept !== shown && kept !== shown - 1 && kept !== page) replay.pages.delete(kept);
    }
    return true;
  });
  replay.fetching.set(page, promise);
  return promise;
}

// The pages step `next` needs: its own, and the one before when the history is drawn again.
function pagesFor(next, stepping) {
  const page = pageOf(next);
  return stepping || page === 0 ? [page] : [page - 1, page];
}

function go(index, speak = true) {
  const count = replay.count;
  if (!count) return;
  const before = replay.index;
  const next = Math.max(0, Math.min(count - 1, index));
  if (next === before) {
    if (speak) announce(next === 0 ? _("This is the first step.") : _("This is the last step."));
    return;
  }
  const stepping = next === before + 1;
  const missing = pagesFor(next, stepping).filter((page) => !replay.pages.has(page));
  const token = ++replay.moving;
  if (!missing.length) {
    show(next, stepping, speak);
    return;
  }
  Promise.all(missing.map(fetchPage)).then((came) => {
    if (token === replay.moving && came.every(Boolean)) show(next, stepping && replay.index === before, speak);
  });
}

function show(next, stepping, speak) {
  replay.index = next;
  const frame = frameAt(next);
  // The history: what was said up to this step (from the page before this step's).
  const log = $("replay-log");
  if (stepping) {
    for (const text of frame.texts || []) log.append(el("p", { text }));
    while (log.childElementCount > LOG_LINES) log.firstElementChild.remove();
  } else {
    const lines = [];
    const from = pagesFor(next, false)[0] * replay.pageSize;
    for (let i = from; i <= next; i++) for (const text of frameAt(i).texts || []) lines.push(el("p", { text }));
    log.replaceChildren(...lines.slice(-LOG_LINES));
  }
  log.scrollTop = log.scrollHeight;
  renderStep(frame);
  const slider = $("replay-step");
  slider.value = String(next + 1);
  const position = fmt(_("Step {n} of {m}"), { n: next + 1, m: replay.count });
  slider.setAttribute("aria-valuetext", position);
  $("replay-position").textContent = position;
  if (speak) {
    const texts = frame.texts || [];
    if (texts.length) for (const text of texts) announce(text, false, "replay");
    else announce(fmt(_("{position}: nothing was said."), { position }), false, "replay");
  }
  // The next page is asked for before the steps reach it.
  const ahead = pageOf(next) + 1;
  if (next + replay.pageSize / 5 >= ahead * replay.pageSize && ahead * replay.pageSize < replay.count) fetchPage(ahead);
}

function renderStep(frame) {
  const table = shownTable(frame);
  if (table.view) renderBoardFor(table, $("replay-board"));
  else $("replay-board").replaceChildren();
  const seat = table.you;
  const views = seat === null ? (frame.view && frame.view.seats) || [] : null;
  const sizes = (table.view && table.view.hand_sizes) || [];
  const items = table.seats.map((s, i) => {
    const title = seat === i ? fmt(_("Seat {n}: {name} (seen as this seat)"), { n: i + 1, name: s.name }) : fmt(_("Seat {n}: {name}"), { n: i + 1, name: s.name });
    let hand = null;
    if (views && views[i]) hand = views[i].hand || [];
    else if (seat === i && table.view) hand = table.view.hand || [];
    let text;
    if (hand) text = hand.length ? fmt(_("Hand: {cards}."), { cards: listOf(hand.map((c) => cardNameIn(table.game, c))) }) : _("No cards in hand.");
    else text = fmt(ngettext("{n} card in hand", "{n} cards in hand", sizes[i] ?? 2), { n: sizes[i] ?? "?" }); // "?": not known
    const alive = table.view && table.view.alive;
    const extra = alive && alive[i] === false ? el("p", { class: "seat-info", text: _("exploded") }) : null;
    return el("li", { class: seat === i ? "seat me" : "seat", "data-seat": i },
      el("span", { class: "seat-name", text: title }),
      el("p", { class: "seat-info hand-cards", text }),
      extra);
  });
  $("replay-hands").replaceChildren(el("ul", { class: "seats", "aria-label": _("Seats and hands") }, ...items));
}

function speed() {
  const value = Number($("replay-speed").value);
  return SPEEDS.includes(value) ? value : 1;
}

async function schedule() {
  clearTimeout(replay.timer);
  if (!replay.playing) return;
  const at = replay.index;
  if (at >= replay.count - 1) {
    stop(false);
    announce(_("The end of the game."));
    return;
  }
  if (!(await fetchPage(pageOf(at + 1))) || !replay.playing || replay.index !== at) return;
  const wait = Math.min(LONGEST_WAIT_MS, Math.max(0, (frameAt(at + 1).at - frameAt(at).at) / speed()));
  clearTimeout(replay.timer);
  replay.timer = setTimeout(() => {
    go(at + 1);
    schedule();
  }, wait);
}

function play() {
  if (!replay.count) return;
  if (replay.index >= replay.count - 1) go(0, false);
  replay.playing = true;
  $("replay-play").textContent = _("Pause");
  announce(fmt(_("Playing at speed ×{speed}."), { speed: speed() }));
  schedule();
}

function stop(say = true) {
  clearTimeout(replay.timer);
  replay.timer = null;
  const was = replay.playing;
  replay.playing = false;
  $("replay-play").textContent = _("Play");
  if (say && was) announce(_("Paused."));
}

function toggle() {
  if (replay.playing) stop();
  else play();
}

function reread() {
  const frame = frameAt(replay.index);
  if (!frame) return;
  const position = fmt(_("Step {n} of {m}"), { n: replay.index + 1, m: replay.count });
  const texts = frame.texts || [];
  announce(texts.length ? fmt(_("{position}: {texts}"), { position, texts: texts.join(" ") }) : fmt(_("{position}: nothing was said."), { position }), false, "replay");
}

// A person who moves by hand takes over from the player.
function step(to) {
  stop(false);
  go(to);
}

function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey) return;
  // Buttons and links take Enter and Space only, and the step slider its arrows: every other
  // key of the viewer works on them; fields and lists keep all their keys.
  const target = event.target;
  const moves = ["ArrowLeft", "ArrowRight", "Home", "End"].includes(event.key);
  if (target.closest && target.closest("#replay-step") && moves) return;
  if (target.closest && target.closest("select, textarea, input:not([type=range]), [contenteditable='true']")) return;
  let handled = true;
  switch (event.key) {
    case "ArrowLeft":
      step(replay.index - 1);
      break;
    case "ArrowRight":
      step(replay.index + 1);
      break;
    case "Home":
      step(0);
      break;
    case "End":
      step(replay.count - 1);
      break;
    case "p":
    case "P":
      toggle();
      break;
    case "r":
    case "R":
      reread();
      break;
    default:
      handled = false;
  }
  if (handled) event.preventDefault();
}

export function replayHelpRows(keyLabel) {
  return [
    [keyLabel("arrowleft"), _("Previous step")],
    [keyLabel("arrowright"), _("Next step")],
    [keyLabel("home"), _("First step")],
    [keyLabel("end"), _("Last step")],
    ["P", _("Play or pause")],
    ["R", _("Read the step again")],
    [keyLabel("tab"), _("Next control: who it is seen by, the step slider, the speed")],
  ];
}

export function leaveReplay() {
  stop(false);
}

export function initRecords(context) {
  ctx = context;
  $("games-mine").addEventListener("change", loadGames);
  $("replay").addEventListener("keydown", onKey);
  $("replay-seat").addEventListener("change", () => loadFrames());
  $("replay-step").addEventListener("input", () => step(Number($("replay-step").value) - 1));
  $("replay-first").addEventListener("click", () => step(0));
  $("replay-prev").addEventListener("click", () => step(replay.index - 1));
  $("replay-next").addEventListener("click", () => step(replay.index + 1));
  $("replay-last").addEventListener("click", () => step(replay.count - 1));
  $("replay-play").addEventListener("click", toggle);
  $("replay-speed").addEventListener("change", () => {
    announce(fmt(_("Speed ×{speed}."), { speed: speed() }));
    if (replay.playing) schedule();
  });
  $("replay-back").addEventListener("click", () => {
    stop(false);
    if (replay.from && replay.from.startsWith("player:")) ctx.openPlayer(replay.from.slice(7));
    else showGames();
  });
}
