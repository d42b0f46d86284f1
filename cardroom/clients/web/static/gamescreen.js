// The game area drawn from the view: the board's text, the hand listbox, the buttons of what can
// be done now, the felt and the scores, the burritos in flight; and the taps and clicks on
// them, which run what the keys run (ctx.run), one way to do each thing.

import { _, fmt } from "./i18n.js";
import { $, el, onWidthChange } from "./ui.js";
import { renderActions } from "./actions.js";
import { throwTarget } from "./burrito.js";
import { drawTable, stillView, tickTable } from "./table.js";
import { renderScoreboard } from "./scoreboard.js";
import { cardFace, fitNames } from "./art.js";
import { closePlacer, isPlacing } from "./placer.js";
import {
  burritoFeltText, kittensPhaseText, renderBurritoBoard, renderKittensBoard, renderSeen,
} from "./boards.js";
import { currentChooser, finishChooser } from "./chooser.js";
import {
  cardName, ctx, game, gameOver, giving, handCards, local, me, noCursor, placeCursor, placing, room, seatName, serverNow, view,
} from "./gamestate.js";

export function refitOnResize(box) {
  onWidthChange(box, fitNames);
}

// ---- rendering ---------------------------------------------------------------------------------
export function renderGame() {
  const r = room();
  const v = view();
  const board = $("board");
  if (!r || !v) {
    board.dataset.key = "";
    board.replaceChildren(el("p", { text: r && r.state === "waiting" ? _("The game has not started yet.") : _("No game is being played.") }));
    renderHand(false);
    $("flights").replaceChildren();
    renderPointer();
    renderSeen(null);
    return;
  }
  // The board's text is written again only when it would read differently.
  const key = JSON.stringify([document.documentElement.lang, r.game, r.you, r.seats.map((s) => s.name), stillView(v)]);
  if (board.dataset.key !== key) {
    board.dataset.key = key;
    board.replaceChildren();
    if (r.game === "kittens") renderKittensBoard(board, v);
    else renderBurritoBoard(board, v);
  }
  if (local.reorder && !(v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "reorder")) {
    local.reorder = null;
  }
  // A question of the page's own about a moment now past (the choice timed out, the kitten
  // went off) closes with it.
  if (!giving(v)) {
    local.none = false;
    const chooser = currentChooser();
    if (chooser && chooser.about === "give") finishChooser(null);
  }
  if (isPlacing() && !placing(v)) closePlacer();
  renderHand(false);
  renderPointer();
  renderSeen(v);
}

export function renderHand(force) {
  const list = $("hand");
  const cards = handCards();
  const over = gameOver();
  const key = JSON.stringify([cards, [...local.selected], Boolean(local.reorder), over]);
  // A burrito hand that changes under the cursor outside plain play (a call took its three
  // cards, a new round dealt a new hand) takes the cursor away: the listbox's active option
  // would move to another card, which a screen reader reads at once, ahead of the fight the call
  // began (Orca said "Brawl B, 3.", "Guac Gator, 2." before "Brawl: you against Marco.", 2.4 s
  // late; issue 24). The next arrow, Home or tap puts it back. A pass in plain play keeps it.
  // An Exploding Kittens hand that changes under the cursor (a card played, given, taken) does
  // the same: the card that slid under it was read, "Skip, 2. not selected.", 2 s ahead of a
  // Nope prompt of 3 s. A draw adds a card at the end and keeps it. So does a set in plain play,
  // three cards gone at once: Orca read the card that slid under the cursor, then another, ahead
  // of "Brawl: you against Marco.", 4.5 s late (cc28b).
  const before = local.cards || [];
  const v = view();
  const calm = v && v.phase === "play" && !v.fight && cards.length >= before.length - 1;
  const moved = before.length && !local.left && cards[local.cursor] !== before[local.cursor];
  if (moved && (game() === "kittens" || !calm)) local.left = true;
  local.cards = cards.slice();
  local.cursor = Math.max(0, Math.min(local.cursor, cards.length - 1));
  if (!cards.length) local.cursor = 0;
  const none = noCursor();
  $("hand-title").textContent = local.reorder ? _("Top of the deck: reorder, then press Enter") : _("Your hand");
  list.setAttribute("aria-multiselectable", game() === "kittens" && !local.reorder ? "true" : "false");
  list.classList.toggle("reordering", Boolean(local.reorder)); // a finger drags cards instead of scrolling
  list.classList.toggle("over", over);
  if (force || key !== local.handKey) {
    local.handKey = key;
    if (!cards.length) {
      list.replaceChildren();
      list.removeAttribute("aria-activedescendant");
      list.append(el("li", { role: "option", id: "hand-empty", "aria-selected": "false", "aria-disabled": "true", text: over ? _("The game is over.") : _("No cards") }));
    } else {
      // A slot keeps its element while its card stays (only the count changes, in
      // aria-setsize): a screen reader re-reads the card under the cursor only when that card
      // changed, not on every draw (Orca re-read it before each line of the game, issue 24).
      if (force) list.replaceChildren();
      list.querySelector("#hand-empty")?.remove();
      const options = [...list.querySelectorAll("[role=option]")];
      cards.forEach((card, i) => {
        const label = fmt(_("{card}, {n}"), { card: cardName(card), n: i + 1 });
        const selected = game() === "kittens" && !local.reorder ? local.selected.has(i) : i === local.cursor;
        const old = options[i];
        if (old && old.getAttribute("aria-label") === label) {
          old.setAttribute("aria-setsize", String(cards.length));
          old.setAttribute("aria-selected", selected ? "true" : "false");
          return;
        }
        const option = el(
          "li",
          {
            role: "option", id: `hand-${i}`, "data-index": i, "aria-selected": selected ? "true" : "false",
            "aria-label": label, "aria-posinset": i + 1, "aria-setsize": cards.length,
          },
          el("span", { class: "slot", "aria-hidden": "true", text: String(i + 1) }),
          cardFace(game(), card, cardName(card)),
        );
        if (old) old.replaceWith(option);
        else list.append(option);
      });
      for (const extra of options.slice(cards.length)) extra.remove();
    }
    fitNames(list);
  }
  for (const option of list.querySelectorAll("[role=option]")) {
    const i = Number(option.dataset.index);
    option.classList.toggle("cursor", !none && i === local.cursor);
    if (!(game() === "kittens" && !local.reorder)) option.setAttribute("aria-selected", !none && i === local.cursor ? "true" : "false");
  }
  if (cards.length && !none) list.setAttribute("aria-activedescendant", `hand-${local.cursor}`);
  else list.removeAttribute("aria-activedescendant");
  renderActions($("actions"), pointerModel(), perform);
}

// ---- pointer and touch -------------------------------------------------------------------------
// Buttons and taps do what the keys do: `perform` runs the key's action (one way to do each
// thing). After a pointer's action the focus goes back to the hand, so the keys keep working.
function perform(action) {
  const done = ctx.run(action);
  if (!currentChooser()) $("hand").focus({ preventScroll: true });
  return done;
}

// A tap on a card: in Exploding Kittens on your turn it selects or unselects it (Space), else
// it moves the cursor there.
export function tapCard(index) {
  placeCursor(index);
  const v = view();
  if (game() === "kittens" && !local.reorder && v && v.phase === "turn" && v.turn === me()) {
    perform("select");
    return;
  }
  renderHand(true);
  $("hand").focus({ preventScroll: true });
}

// A tap on a seat of the table: the answer to an open "whom?" choice, else (a burrito in hand
// during a fight) a throw at that seat.
function tapSeat(seat) {
  const chooser = currentChooser();
  if (chooser && chooser.seats) {
    if (chooser.options.some((o) => o.value === seat)) finishChooser(seat);
    return;
  }
  const v = view();
  const f = v && v.fight;
  if (game() === "burrito" && f && f.holding[me()] && f.fighters.includes(seat) && seat !== me()) perform(`throw_${seat + 1}`);
}

// Alter the Future by dragging: a card dropped on another takes its place (moved one step at
// a time, as Shift and the arrows move it, so the page says each move the same way).
export function startDrag(event) {
  if (!local.reorder) return;
  const option = event.target.closest("[role=option]");
  if (!option) return;
  const from = Number(option.dataset.index);
  const drop = (up) => {
    document.removeEventListener("pointerup", drop);
    const under = document.elementFromPoint(up.clientX, up.clientY);
    const target = under && under.closest ? under.closest("#hand [role=option]") : null;
    if (!target || !local.reorder) return;
    const to = Number(target.dataset.index);
    if (to === from) return;
    local.cursor = from;
    for (let k = from; k !== to; k += to > from ? 1 : -1) ctx.run(to > from ? "move_down" : "move_up");
    renderPointer();
  };
  document.addEventListener("pointerup", drop);
}

// A click that leaves the focus nowhere (on <main>, the page, a picture) gives it to the hand
// while a game is on screen, so the game keys keep working whatever was clicked.
// A button clicked or tapped at the table (not typed into: forms and the chat keep theirs)
// hands the focus back too once it has done its work.
export function keepKeysAfterClick(event) {
  const active = document.activeElement;
  if (!view() || $("table").hidden || currentChooser()) return;
  const nowhere = !active || active === document.body || active === $("main") || active.closest("#felt")
    || (active.getAttribute("tabindex") === "-1" && !active.closest("#game")); // a heading
  const pressed = event.detail > 0 && active && active.closest("#table") && active.matches("button, summary") && !active.closest("form");
  if (nowhere || pressed) $("hand").focus({ preventScroll: true });
}

function pointerModel() {
  const cards = handCards();
  return {
    game: game(),
    view: view(),
    you: me(),
    cards,
    cursor: noCursor() ? -1 : local.cursor,
    selected: [...local.selected].sort((a, b) => a - b),
    reorder: Boolean(local.reorder),
    now: serverNow(),
    throwAt: game() === "burrito" && view() && view().fight ? throwTarget() : null,
    cardName,
    seatName,
  };
}

export function renderPointer() {
  const r = room();
  const chooser = currentChooser();
  renderActions($("actions"), pointerModel(), perform);
  const model = {
    game: r ? r.game : null,
    state: r ? r.state : null,
    seats: r ? r.seats : [],
    you: r ? r.you : null,
    view: view(),
    places: r ? r.places || null : null,
    banner: view() ? (r.game === "kittens" ? kittensPhaseText(view()) : burritoFeltText(view())) : "",
    // The seats the open "whom?" question offers (yours too, for a Duel), ringed on the felt.
    choosingSeats: chooser && chooser.seats ? chooser.options.map((o) => o.value) : null,
    cardName,
    seatName,
  };
  drawTable($("felt"), model, { onSeat: tapSeat, onPile: tapPile, now: serverNow });
  renderScoreboard($("scoreboard"), model);
  wakeFrames();
}

// A tap on a pile of the table draws from it, as the pile's key does.
function tapPile(id) {
  const actions = { deck: "draw", own: "draw", "community-0": "draw_community", "community-1": "draw_community_2" };
  if (actions[id] && me() !== null && view()) perform(actions[id]);
}

// The page draws frame by frame only while a fight is on (burritos fly, bars run); a running
// clock asks for it once a second (tickTable); a page in the lobby, a waiting room or a finished
// game draws nothing of its own (a phone's battery: Chromium at a phone page in the lobby used
// 6.3 % of a core, now 2.5 %; at its own kittens turn 9.9 %, now 7.6 %). A new view wakes it
// again (renderPointer).
let ticking = false;
let nextTick = null;

export function wakeFrames() {
  clearTimeout(nextTick);
  nextTick = null;
  if (ticking) return;
  ticking = true;
  requestAnimationFrame(tick);
}

function playing() {
  const r = room();
  return Boolean(r && r.state === "playing" && view());
}

// Burritos in flight, each with its catch window drawn at the end of its bar.
function tick() {
  const wait = tickTable($("felt"), serverNow());
  const v = view();
  const f = v && v.fight;
  if (f) renderActions($("actions"), pointerModel(), perform);
  const box = $("flights");
  const flights = (f && f.flights) || [];
  if (!flights.length) {
    if (box.childElementCount) box.replaceChildren();
  } else {
    const now = serverNow();
    const ids = flights.map((x) => String(x.id)).join(",");
    if (box.dataset.ids !== ids) {
      box.dataset.ids = ids;
      box.replaceChildren(
        ...flights.map((x) => {
          const atMe = x.target === me();
          const names = { thrower: seatName(x.thrower), target: seatName(x.target) };
          // The reader's own seat has sentences of its own ("to you" needs another "you" in most languages).
          const label = x.thrower === me() ? fmt(_("Burrito from you to {target}"), names)
            : atMe ? fmt(_("Burrito from {thrower} to you"), names)
            : fmt(_("Burrito from {thrower} to {target}"), names);
          return el(
            "div",
            { class: atMe ? "flight at-me" : "flight", "data-flight": x.id },
            el("span", { text: label }),
            el("div", { class: "flight-bar", role: "img", "aria-label": fmt(_("{label}: flight and catch window"), { label }) },
              el("div", { class: "done" }), el("div", { class: "window" })),
          );
        }),
      );
    }
    for (const x of flights) {
      const node = box.querySelector(`[data-flight="${x.id}"]`);
      if (!node) continue;
      // The view gives each flight its whole timing, so a page that resyncs mid-flight draws it right.
      const total = Math.max(1, x.flight_ms);
      const start = x.lands_at - total;
      const done = Math.max(0, Math.min(1, (now - start) / total));
      const windowPart = Math.max(0, Math.min(1, (x.lands_at - x.catch_from) / total));
      // A transform, not a width: the bar moves every frame without laying the page out again.
      const fill = node.querySelector(".done");
      const scale = `scaleX(${done.toFixed(3)})`;
      if (fill.style.transform !== scale) fill.style.transform = scale;
      const catchPart = node.querySelector(".window");
      const width = `${(windowPart * 100).toFixed(2)}%`;
      if (catchPart.style.width !== width) catchPart.style.width = width;
      node.querySelector(".flight-bar").classList.toggle("open", now >= x.catch_from && now < x.lands_at);
    }
  }
  // A fight's burritos, buttons and bars follow its moments (its start, each catch window):
  // every frame. Else a running clock's next second, or nothing until a new view.
  ticking = playing() && Boolean(f);
  if (ticking) requestAnimationFrame(tick);
  else if (playing() && wait !== Infinity) nextTick = setTimeout(wakeFrames, wait);
}
