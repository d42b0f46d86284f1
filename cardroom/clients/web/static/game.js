// The game area: the table as seen (seats, piles, burritos in flight), the hand listbox, the
// choosers, and the keys of both games. The server judges everything; this only shows and sends.

import {
  burritoBattle, burritoNormal, cardLabel, cardText, fightOf, kittenCards, kittenCat, kittenTargets,
} from "./cards.js";
import { _, fmt, listOf, ngettext, pgettext } from "./i18n.js";
import { actionFor, bindings, keyLabel, keyName } from "./keys.js";
import { cues, earcon, panFor } from "./sound.js";
import { $, announce, el, isTyping, leaveLog, logLine, moveLog } from "./ui.js";
import { renderActions } from "./actions.js";
import { drawTable, renderScoreboard, stillView, tickTable } from "./table.js";
import { cardFace, fitNames } from "./art.js";
import { hideCardTip, initCardTips, showCardTip } from "./cardtip.js";
import { closePlacer, isPlacing, placeCard } from "./placer.js";

let ctx = null; // { state, send, act, query, openHelp }

export function initGame(context) {
  ctx = context;
  const hand = $("hand");
  hand.addEventListener("click", (event) => {
    const option = event.target.closest("[role=option]");
    if (!option || option.id === "hand-empty") return;
    if (local.held) {
      // The end of a long press: it showed what the card does, and does nothing else.
      local.held = false;
      return;
    }
    tapCard(Number(option.dataset.index));
  });
  initCardTips($("game"), {
    cardOf: (node) => {
      const option = node.closest("#hand [role=option][data-index]");
      if (option) return handCards()[Number(option.dataset.index)] || null;
      const face = node.closest(".face[data-card]");
      return face ? face.dataset.card : null;
    },
    textOf: (card) => cardHelp(card),
    held: () => {
      local.held = true;
    },
    canHold: () => !reorder,
  });
  hand.addEventListener("pointerdown", startDrag);
  // The screen turned: the cards have another width, their names another size (fitNames);
  // the seen cards' too.
  refitOnResize(hand);
  refitOnResize($("seen"));
  $("lobby-btn").addEventListener("click", () => $("leave-btn").click());
  document.addEventListener("click", keepKeysAfterClick);
  $("game").addEventListener("keydown", onGameKey);
  $("chooser").addEventListener("keydown", onChooserKey);
  $("chooser").addEventListener("click", (event) => {
    const option = event.target.closest("[role=option]");
    if (!option || !chooser) return;
    chooser.index = Number(option.dataset.index);
    finishChooser(chooser.options[chooser.index].value);
  });
  requestAnimationFrame(tick);
}

function refitOnResize(box) {
  if (!window.ResizeObserver) return;
  let width = 0;
  new ResizeObserver((entries) => {
    const now = Math.round(entries[0].contentRect.width);
    if (now !== width) {
      width = now;
      fitNames(box);
    }
  }).observe(box);
}

// What only this page knows: the cursor, the combo selection, an open chooser, a reorder.
// `none`: no card under the cursor, as a choice of a card to give starts (issue 24: a quick
// Enter gave a Defuse away); the arrows or a tap put the cursor on a card.
const local = { cursor: 0, none: false, held: false, selected: new Set(), handKey: "", lastThrower: null, openWindows: new Set(), catches: new Map() };
let chooser = null; // { title, options: [{label, value}], index, resolve, back }
let reorder = null; // { cards: [...], order: [indices] }

export function resetGame() {
  local.fresh = true;
  local.cursor = 0;
  local.none = false;
  local.selected.clear();
  local.handKey = "";
  local.lastThrower = null;
  local.openWindows.clear();
  dropCatchEarcons(() => true);
  reorder = null;
  closeChooser();
  closePlacer();
  hideCardTip();
}

// The replay viewer draws a stored table with the same code: `shown` stands in for the room
// while it does (renderBoardFor).
let shown = null;
const room = () => shown || ctx.state.room;
const view = () => (room() ? room().view : null);
const me = () => (room() ? room().you : null);
const game = () => (room() ? room().game : null);

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

function serverNow() {
  return clock.held !== null ? clock.held : clock.now + (performance.now() - clock.at);
}

// ---- events: sounds and local state ------------------------------------------------------------
export function onEvents(events, urgent) {
  const n = room() ? room().seats.length : 0;
  for (const e of events) {
    const kind = e.event;
    if (game() === "burrito") {
      if (kind === "throw") {
        const atMe = e.target === me();
        cues.throw(panFor(e.thrower, me(), n), atMe, e.flight_ms);
        if (atMe) {
          local.lastThrower = e.thrower;
          announceCatch(e);
        }
      } else if (kind === "discard" && (e.to === me() || e.player === me())) {
        cues.pass(panFor(e.player, me(), n));
      } else if (kind === "call" || kind === "fight_start") {
        cues.fight();
      } else if (kind === "hit" || kind === "fumble") {
        cues.hit(panFor(e.player, me(), n));
      } else if (kind === "countdown" || kind === "duel_beat") {
        cues.beat();
      } else if (kind === "round_over" || kind === "game_over") {
        cues.end();
      } else if (kind === "fight_over") {
        local.lastThrower = null;
        local.openWindows.clear();
      }
    } else {
      if (kind === "turn" && e.player === me()) cues.yourTurn();
      else if (kind === "defusing" && e.player === me()) {
        cues.alarm();
        if ((view().hand || []).includes("defuse")) announceHint(_("Press {key} to defuse."), "defuse", true);
      }
      else if (kind === "exploded") cues.hit(panFor(e.player, me(), n));
      else if (kind === "played") {
        cues.pass(panFor(e.player, me(), n));
        const hand = (view() && view().hand) || [];
        if (e.player !== me() && e.target === me() && hand.includes("nope")) cues.nopeWindow();
        // Said with the line of the card, first and in the same breath (nopePrompt): not after it.
      }
      else if (kind === "game_over") cues.end();
      else if (kind === "choosing" && e.player === me()) startChoice(e);
    }
  }
  if (urgent && game() === "kittens") cues.beat();
  if (game() === "burrito") dropCatchEarcons((flight) => !catchable(flight));
}

// A burrito thrown at you: the incoming earcon now, and the catch earcon scheduled for the
// moment its catch window opens by the server's times (`catch_from`, on the clock of the last
// view), so that it sounds as the window opens rather than a message's trip after it; the
// words said at the throw already told when (the server's line, "Catch in 1 second.").
function announceCatch(e) {
  earcon("incoming");
  if (typeof e.catch_from !== "number" || local.catches.has(e.id)) return;
  local.catches.set(e.id, earcon("catchNow", { delay: e.catch_from - serverNow(), flight: e.id }));
}

// Cancel the scheduled catch earcons of the flights `drop` names (dodged, landed, fight over).
function dropCatchEarcons(drop) {
  for (const [flight, handle] of local.catches) {
    if (drop(flight)) {
      handle.cancel();
      local.catches.delete(flight);
    }
  }
}

// The flight `id` at you, still in the air and not dodged, in a fight you are in.
function catchable(id) {
  const f = view() && view().fight;
  const flight = f && f.fighters.includes(me()) && f.flights.find((x) => x.id === id);
  return Boolean(flight && !flight.dodged && flight.target === me() && serverNow() < flight.lands_at);
}

// Back from a reconnect, once the missed batches are in (they went to the history unsaid):
// the one thing the current state asks of you now, said once. A turn, a kitten or a choice
// that resolved while you were away is past, and nothing of it is said again (issue 23).
export function announceNow() {
  resetGame(); // a chooser, a selection, a burrito in flight of before are past too
  const v = view();
  if (!v || game() !== "kittens" || v.phase === "game_over") return;
  const mine = me();
  if (mine === null || mine === undefined) return;
  if (v.phase === "defusing" && v.turn === mine) {
    if ((v.hand || []).includes("defuse")) announceHint(_("Press {key} to defuse."), "defuse", true);
  } else if (v.choosing && v.choosing.player === mine) {
    startChoice({ kind: v.choosing.kind, cards: v.choosing.cards || [] });
  } else if (v.phase === "turn" && v.turn === mine) {
    announce(_("Your turn."), true);
  }
}

// A cue from the server, said and heard only while it matches the table: the catch window of a
// burrito still flying at you, not dodged, in a fight not yet decided. True when it was said.
export function onCue(message) {
  if (message.cue !== "catch_window") return false;
  const f = view() && view().fight;
  const flight = f && !f.decided && f.fighters.includes(me()) && f.flights.find((x) => x.id === message.flight);
  if (!flight || flight.dodged || flight.target !== me()) return false;
  local.openWindows.add(message.flight);
  announce(message.text, true, "event");
  logLine(message.text, true);
  // Its earcon was scheduled at the throw; a page that came back mid-flight, or whose clock runs a
  // little behind the server's, sounds it now: the beep never comes after the words.
  const scheduled = local.catches.get(message.flight);
  if (!scheduled || scheduled.pending()) {
    if (scheduled) scheduled.cancel();
    local.catches.set(message.flight, earcon("catchNow", { flight: message.flight }));
  }
  return true;
}

function startChoice(e) {
  const v = view();
  if (e.kind === "reorder") {
    const cards = (v && v.choosing && v.choosing.cards) || e.cards || [];
    reorder = { cards, order: cards.map((_c, i) => i) };
    local.cursor = 0;
    renderHand(true);
    focusHand();
    const keys = bindings("kittens");
    const key = (action) => keyLabel(keys.find((b) => b.action === action).key);
    announce(fmt(_("{up} and {down} move the card under the cursor; {confirm} confirms."), { up: key("move_up"), down: key("move_down"), confirm: key("play_enter") }));
  } else if (e.kind === "insert") {
    const card = e.card || (v && v.choosing && v.choosing.cards && v.choosing.cards[0]);
    placeAt(fmt(_("Where does {card} go back?"), { card: cardName(card || "") })).then((position) => {
      if (position !== null) ctx.act({ do: "insert", position });
    });
  } else if (e.kind === "give") {
    local.none = true;
    renderHand(true);
    announceHint(_("Choose the card to give with the arrows, then press {key}."), "give");
  }
}

// "Nope? Press N.": put before the line that says a card is played against you (the server
// says that line first in its batch, urgently), so that the prompt is heard at once, not
// after the window it is about (issue 21). The texts as they are when there is nothing to say.
export function nopePrompt(events, texts, priority) {
  if (game() !== "kittens") return texts;
  const v = view();
  // A card of another's is said urgently to you only when it is against you (the server's
  // priority 0, cardroom/narrate/kittens.py).
  const played = events.find((e) => e.event === "played" && e.player !== me());
  const b = bindings("kittens").find((x) => x.action === "nope");
  if (!played || !v || !(v.hand || []).includes("nope") || v.phase !== "nope_window" || !b) return texts;
  const first = priority.indexOf(0);
  if (first < 0) return texts;
  const out = texts.slice();
  const prompt = fmt(_("Nope? Press {key}."), { key: keyLabel(b.key) });
  out[first] = prompt + " " + out[first];
  return out;
}

function announceHint(template, action, urgent = false) {
  const b = bindings(game()).find((x) => x.action === action);
  if (b) announce(fmt(template, { key: keyLabel(b.key) }), urgent, "hint");
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
  if (reorder && !(v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "reorder")) {
    reorder = null;
  }
  // A question of the page's own about a moment now past (the choice timed out, the kitten
  // went off) closes with it.
  if (!giving(v)) {
    local.none = false;
    if (chooser && chooser.about === "give") finishChooser(null);
  }
  if (isPlacing() && !placing(v)) closePlacer();
  renderHand(false);
  renderPointer();
  renderSeen(v);
}

const giving = (v) => Boolean(v && v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "give");
const placing = (v) => Boolean(v && ((v.phase === "defusing" && v.turn === me()) || (v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "insert")));

// The top of the deck as this seat saw it (See or Alter the Future), drawn under the table as
// card faces, top first, for as long as the server's view says it is still so
// (docs/rules/kittens.md#what-players-know): a draw takes the top one away, a shuffle or a card
// put back by another clears it. Only the seer's view holds these cards, so no other page can
// draw them. A picture (the board's text says the same to the ear).
function renderSeen(v) {
  const box = $("seen");
  const cards = v && game() === "kittens" && Array.isArray(v.future) && !gameOver() ? v.future : [];
  const key = JSON.stringify([document.documentElement.lang, cards]);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.hidden = !cards.length;
  if (!cards.length) return box.replaceChildren();
  box.replaceChildren(
    el("p", { class: "seen-title", text: _("The top of the deck as you saw it, top first") }),
    el("ol", { class: "seen-cards" }, ...cards.map((card, i) => el("li", { class: "seen-card", "data-index": i },
      el("span", { class: "slot", text: String(i + 1) }), cardFace("kittens", card, cardName(card))))),
  );
  fitNames(box);
  return undefined;
}

// What a card is and does, short: the same words as Shift+D (the server's card text; a
// burrito battle card has its own words at a table of two).
export function cardHelp(card) {
  const g = game();
  if (!g || !card) return "";
  const v = view();
  const text = cardText(g, card, v ? v.players : null);
  return text ? fmt(_("{card}: {text}"), { card: cardName(card), text }) : "";
}

// Shift+D: the card under the cursor, said by the server (here when it cannot answer) and
// shown beside the card.
function describeCard(card) {
  if (!card) return announce(_("No card under the cursor."));
  const option = $(`hand-${local.cursor}`);
  if (option) showCardTip(option, cardHelp(card));
  return ctx.query("card", card, () => cardHelp(card));
}

// Draw the board of `fake` ({game, seats, you, view}: a stored table at one step) into `board`.
export function renderBoardFor(fake, board) {
  shown = fake;
  try {
    board.replaceChildren();
    if (fake.game === "kittens") renderKittensBoard(board, fake.view);
    else renderBurritoBoard(board, fake.view);
    const felt = board.id === "replay-board" ? $("replay-felt") : null;
    if (felt) {
      const places = fake.seats.map((s) => s.place || null);
      drawTable(felt, {
        game: fake.game,
        state: fake.state,
        seats: fake.seats.map((s) => ({ name: s.name, bot: Boolean(s.bot), recorded: true })),
        you: fake.you,
        view: fake.view,
        places: fake.view.phase === "game_over" && places.every(Boolean) ? places : null,
        banner: fake.game === "kittens" ? kittensPhaseText(fake.view) : burritoPhaseText(fake.view),
        choosingSeats: null,
        cardName: (card) => cardNameIn(fake.game, card),
        seatName,
      }, { now: () => fake.view.now });
    }
  } finally {
    shown = null;
  }
}

// A card's name in the game of a stored table.
export function cardNameIn(gameName, card) {
  return cardLabel(gameName === "burrito" ? "burrito" : "kittens", card);
}

function pile(label, value, extra = null) {
  return el("div", { class: "pile" }, el("span", { text: label }), el("strong", { text: value }), extra);
}

function renderKittensBoard(board, v) {
  const top = v.discard && v.discard.length ? cardName(v.discard[0]) : pgettext("discard pile", "empty");
  let whose;
  if (v.phase === "game_over") whose = _("The game is over.");
  else if (v.turn === me()) whose = v.turns_left > 1 ? fmt(ngettext("Yours, {n} turn left", "Yours, {n} turns left", v.turns_left), { n: v.turns_left }) : _("Yours");
  else whose = fmt(v.turns_left > 1 ? ngettext("{name}, {n} turn left", "{name}, {n} turns left", v.turns_left) : _("{name}"), { name: seatName(v.turn), n: v.turns_left });
  board.append(
    pile(_("Deck"), String(v.deck_size)),
    pile(_("Discard pile"), String(v.discard.length), el("span", { text: fmt(_("Top: {card}"), { card: top }) })),
    pile(_("Turn"), whose),
    pile(_("Exploding Kittens left"), String(v.kittens_left)),
  );
  const phase = kittensPhaseText(v);
  if (phase) board.append(el("p", { class: "pile wide", text: phase }));
  if (v.future && v.future.length) {
    board.append(el("p", { class: "pile wide", text: fmt(_("You know the top of the deck: {cards}."), { cards: listOf(v.future.map(cardName)) }) }));
  }
}

function kittensPhaseText(v) {
  if (v.phase === "nope_window" && v.window) {
    return fmt(_("Nope window: {name} played {cards}. Nopes so far: {n}."), {
      name: seatName(v.window.player), cards: listOf(v.window.cards.map(cardName)), n: v.window.nopes,
    });
  }
  if (v.phase === "defusing") {
    return v.turn === me() ? _("Defuse now!") : fmt(_("{name} must defuse a kitten."), { name: seatName(v.turn) });
  }
  if (v.phase === "choosing" && v.choosing) {
    if (v.choosing.player === me()) {
      if (v.choosing.kind === "give") return fmt(_("Choose a card to give to {name}."), { name: seatName(v.choosing.for) });
      if (v.choosing.kind === "reorder") return _("Reorder the top cards: Shift and the arrows move a card, Enter confirms.");
      return _("Choose where the card goes back in the deck.");
    }
    return fmt(_("{name} is choosing."), { name: seatName(v.choosing.player) });
  }
  if (v.phase === "game_over" && v.winner !== null) return fmt(_("Winner: {name}."), { name: seatName(v.winner) });
  return "";
}

function renderBurritoBoard(board, v) {
  board.append(
    pile(_("Your pile"), v.seat !== null ? String(v.pile_sizes[v.seat]) : "-"),
    pile(_("Community pile 1"), String(v.community_sizes[0])),
    pile(_("Community pile 2"), String(v.community_sizes[1])),
    pile(_("Bruises left"), String(v.bruises_left)),
    pile(_("Round"), String(v.round)),
  );
  const phase = burritoPhaseText(v);
  if (phase) board.append(el("p", { class: "pile wide", text: phase }));
  const scores = el("ul", { class: "score-piles" });
  v.score_piles.forEach((cards, seat) => {
    const text = cards.length ? listOf(cards.map(cardName)) : _("nothing yet");
    scores.append(el("li", { text: fmt(_("{name}: {cards}"), { name: seatName(seat), cards: text }) }));
  });
  board.append(el("div", { class: "pile wide" }, el("span", { text: _("Score piles") }), scores));
}

function burritoPhaseText(v) {
  const f = v.fight;
  if (f) {
    const fighters = listOf(f.fighters.map(seatName));
    const mine = f.fighters.includes(me());
    const holding = f.holding && me() !== null && f.holding[me()];
    const values = { kind: fightName(f.kind), fighters, free: f.free };
    if (!mine) return fmt(_("Fight: {kind}. Fighters: {fighters}. Free burritos: {free}."), values);
    if (holding) return fmt(_("Fight: {kind}. Fighters: {fighters}. Free burritos: {free}. You hold a burrito."), values);
    return fmt(_("Fight: {kind}. Fighters: {fighters}. Free burritos: {free}. Your hands are empty."), values);
  }
  if (v.phase === "countdown") return _("Countdown…");
  if (v.phase === "round_over") return _("The round is over.");
  if (v.phase === "game_over") return v.winner !== null ? fmt(_("Winner: {name}."), { name: seatName(v.winner) }) : _("The game is over.");
  return "";
}

function fightName(kind) {
  return { brawl: _("Brawl"), war: _("War"), duel: _("Duel") }[kind] || kind;
}

function handCards() {
  if (reorder) return reorder.order.map((i) => reorder.cards[i]);
  const v = view();
  if (gameOver()) return []; // the cards are of no more use: the final scores take their place
  return (v && v.hand) || [];
}

const gameOver = () => Boolean(room() && (room().state === "over" || (view() && view().phase === "game_over")));

function renderHand(force) {
  const list = $("hand");
  const cards = handCards();
  const over = gameOver();
  const key = JSON.stringify([cards, [...local.selected], Boolean(reorder), over]);
  local.cursor = Math.max(0, Math.min(local.cursor, cards.length - 1));
  if (!cards.length) local.cursor = 0;
  const none = local.none && !reorder;
  $("hand-title").textContent = reorder ? _("Top of the deck: reorder, then press Enter") : _("Your hand");
  list.setAttribute("aria-multiselectable", game() === "kittens" && !reorder ? "true" : "false");
  list.classList.toggle("reordering", Boolean(reorder)); // a finger drags cards instead of scrolling
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
        const selected = game() === "kittens" && !reorder ? local.selected.has(i) : i === local.cursor;
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
    if (!(game() === "kittens" && !reorder)) option.setAttribute("aria-selected", !none && i === local.cursor ? "true" : "false");
  }
  if (cards.length && !none) list.setAttribute("aria-activedescendant", `hand-${local.cursor}`);
  else list.removeAttribute("aria-activedescendant");
  renderActions($("actions"), pointerModel(), perform);
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

// ---- pointer and touch -------------------------------------------------------------------------
// Buttons and taps do what the keys do: `perform` runs the key's action (one way to do each
// thing). After a pointer's action the focus goes back to the hand, so the keys keep working.
function perform(action) {
  const done = run(action);
  if (!chooser) $("hand").focus({ preventScroll: true });
  return done;
}

// A tap on a card: in Exploding Kittens on your turn it selects or unselects it (Space), else
// it moves the cursor there.
function tapCard(index) {
  local.cursor = index;
  local.none = false;
  const v = view();
  if (game() === "kittens" && !reorder && v && v.phase === "turn" && v.turn === me()) {
    perform("select");
    return;
  }
  renderHand(true);
  $("hand").focus({ preventScroll: true });
}

// A tap on a seat of the table: the answer to an open "whom?" choice, else (a burrito in hand
// during a fight) a throw at that seat.
function tapSeat(seat) {
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
function startDrag(event) {
  if (!reorder) return;
  const option = event.target.closest("[role=option]");
  if (!option) return;
  const from = Number(option.dataset.index);
  const drop = (up) => {
    document.removeEventListener("pointerup", drop);
    const under = document.elementFromPoint(up.clientX, up.clientY);
    const target = under && under.closest ? under.closest("#hand [role=option]") : null;
    if (!target || !reorder) return;
    const to = Number(target.dataset.index);
    if (to === from) return;
    local.cursor = from;
    for (let k = from; k !== to; k += to > from ? 1 : -1) run(to > from ? "move_down" : "move_up");
    renderPointer();
  };
  document.addEventListener("pointerup", drop);
}

// A click that leaves the focus nowhere (on <main>, the page, a picture) gives it to the hand
// while a game is on screen, so the game keys keep working whatever was clicked.
// A button clicked or tapped at the table (not typed into: forms and the chat keep theirs)
// hands the focus back too once it has done its work.
function keepKeysAfterClick(event) {
  const active = document.activeElement;
  if (!view() || $("table").hidden || chooser) return;
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
    cursor: local.none ? -1 : local.cursor,
    selected: [...local.selected].sort((a, b) => a - b),
    reorder: Boolean(reorder),
    now: serverNow(),
    cardName,
    seatName,
  };
}

function renderPointer() {
  const r = room();
  renderActions($("actions"), pointerModel(), perform);
  const model = {
    game: r ? r.game : null,
    state: r ? r.state : null,
    seats: r ? r.seats : [],
    you: r ? r.you : null,
    view: view(),
    places: r ? r.places || null : null,
    banner: view() ? (r.game === "kittens" ? kittensPhaseText(view()) : burritoPhaseText(view())) : "",
    // The seats the open "whom?" question offers (yours too, for a Duel), ringed on the felt.
    choosingSeats: chooser && chooser.seats ? chooser.options.map((o) => o.value) : null,
    cardName,
    seatName,
  };
  drawTable($("felt"), model, { onSeat: tapSeat, onPile: tapPile, now: serverNow });
  renderScoreboard($("scoreboard"), model);
}

// A tap on a pile of the table draws from it, as the pile's key does.
function tapPile(id) {
  const actions = { deck: "draw", own: "draw", "community-0": "draw_community", "community-1": "draw_community_2" };
  if (actions[id] && me() !== null && view()) perform(actions[id]);
}

// Burritos in flight, each with its catch window drawn at the end of its bar.
function tick() {
  tickTable($("felt"), serverNow());
  if (view() && view().fight) renderActions($("actions"), pointerModel(), perform);
  const box = $("flights");
  const v = view();
  const f = v && v.fight;
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
  requestAnimationFrame(tick);
}

// ---- the chooser: a listbox of options for targets, positions, names -------------------------
function choose(title, options, start = 0, seats = false, about = null) {
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
    renderPointer();
    list.focus();
    announce(fmt(_("{title} Arrows choose, Enter confirms, Escape cancels."), { title }));
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

function finishChooser(value) {
  if (!chooser) return;
  const { resolve, back } = chooser;
  closeChooser();
  if (back && back.isConnected && back !== document.body) back.focus();
  else focusHand();
  resolve(value);
}

function closeChooser() {
  const was = Boolean(chooser);
  $("chooser-box").hidden = true;
  $("chooser").replaceChildren();
  chooser = null;
  if (was) renderPointer();
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

function playerChooser(title, exclude = []) {
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
function placeAt(title) {
  closeChooser();
  const v = view();
  return placeCard(title, v ? v.deck_size : 0, focusHand, (event) => {
    const action = actionFor(game(), keyName(event));
    if (!ASKING.has(action)) return;
    event.preventDefault();
    run(action);
  });
}

// ---- keys --------------------------------------------------------------------------------------
// The keys that only ask (003's T and E, the hand, the table): they answer in a choice too.
const ASKING = new Set(["turn", "counts", "read_hand", "status", "future"]);

function onGameKey(event) {
  if (event.defaultPrevented) return;
  if (isTyping(event.target)) return;
  const inChooser = Boolean(event.target.closest && event.target.closest("#chooser"));
  const key = keyName(event);
  if (!key || !room()) return;
  if (key === "escape") {
    event.preventDefault();
    focusHand();
    return;
  }
  const inHand = event.target === $("hand");
  if (inHand && !event.shiftKey && (key === "arrowup" || key === "arrowdown")) {
    event.preventDefault();
    moveCursor(key === "arrowup" ? -1 : 1);
    return;
  }
  const action = actionFor(game(), key);
  if (!action || (inChooser && !ASKING.has(action))) return;
  event.preventDefault();
  run(action);
}

function moveCursor(step, absolute = null) {
  const cards = handCards();
  if (!cards.length) return;
  hideCardTip();
  if (local.none && absolute === null) {
    // From no card: the first step lands on the first card (or the last, going left).
    local.none = false;
    local.cursor = step < 0 ? cards.length - 1 : 0;
  } else {
    local.none = false;
    local.cursor = absolute !== null ? absolute : Math.max(0, Math.min(cards.length - 1, local.cursor + step));
  }
  renderHand(false);
  if (document.activeElement !== $("hand")) focusHand();
}

function cursorCard() {
  const cards = handCards();
  return cards.length && !(local.none && !reorder) ? cards[local.cursor] : null;
}

function run(action) {
  const common = {
    log_back: () => moveLog(-1),
    log_forward: () => moveLog(1),
    cursor_prev: () => moveCursor(-1),
    cursor_next: () => moveCursor(1),
    cursor_first: () => moveCursor(0, 0),
    cursor_last: () => moveCursor(0, handCards().length - 1),
    read_hand: readHand,
    status: readStatus,
    recap: () => ctx.query("recap", null, () => _("No game is being played.")),
  };
  if (common[action]) return common[action]();
  if (!view()) {
    announce(_("The game has not started."));
    return;
  }
  if (me() === null) {
    announce(_("You are watching: spectators cannot play."));
    return;
  }
  return game() === "kittens" ? kittensAction(action) : burritoAction(action);
}

function readHand() {
  const cards = handCards();
  if (!cards.length) return announce(_("Your hand is empty."));
  announce(fmt(_("Your hand: {cards}."), { cards: listOf(cards.map((c, i) => fmt(_("{n}: {card}"), { n: i + 1, card: cardName(c) }))) }));
}

function readStatus() {
  const r = room();
  const v = view();
  const parts = r.seats.map((s, i) => {
    const name = seatName(i);
    if (!v) return name;
    if (r.game === "burrito") {
      return fmt(ngettext("{name}: {cards} card, score {score}, bruises {bruises}", "{name}: {cards} cards, score {score}, bruises {bruises}", v.hand_sizes[i]), { name, cards: v.hand_sizes[i], score: v.scores[i], bruises: v.bruises[i] });
    }
    if (!v.alive[i]) return fmt(_("{name}: exploded"), { name });
    return fmt(ngettext("{name}: {cards} card", "{name}: {cards} cards", v.hand_sizes[i]), { name, cards: v.hand_sizes[i] });
  });
  announce(fmt(_("At the table: {seats}."), { seats: parts.join(_("; ")) }));
}

// ---- Exploding Kittens -------------------------------------------------------------------------
function kittensAction(action) {
  const v = view();
  const card = cursorCard();
  switch (action) {
    case "select": {
      if (reorder || !card) return;
      const i = local.cursor;
      if (local.selected.has(i)) local.selected.delete(i);
      else local.selected.add(i);
      renderHand(false);
      const chosen = [...local.selected].map((k) => cardName(handCards()[k]));
      announce(local.selected.has(i) ? fmt(_("Selected: {cards}."), { cards: listOf(chosen) }) : fmt(_("{card} unselected."), { card: cardName(card) }));
      return;
    }
    case "play":
    case "play_enter":
      if (reorder) return confirmReorder();
      if (v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "give") return give();
      if (v.phase === "choosing" && v.choosing && v.choosing.player === me() && v.choosing.kind === "insert") {
        return startChoice({ kind: "insert" });
      }
      if (v.phase === "defusing" && v.turn === me()) return defuse();
      return playCards();
    case "nope":
      return ctx.act({ do: "nope" });
    case "no_nope":
      return ctx.act({ do: "pass" });
    case "always_no_nope":
      return ctx.act({ do: "always_pass", on: !((view() && view().always_pass) || []).includes(me()) });
    case "draw":
      return ctx.act({ do: "draw" });
    case "defuse":
      return defuse();
    case "give":
      return give();
    case "describe":
      return describeCard(card);
    case "turn":
      return ctx.query("turn", null, () => localTurn(v));
    case "counts":
      return ctx.query("counts", null, () => localCounts(v));
    case "future":
      if (!v.future || !v.future.length) return announce(_("You do not know the top of the deck."));
      return announce(fmt(_("The top of the deck, top first: {cards}."), { cards: listOf(v.future.map((c, i) => fmt(_("{n}: {card}"), { n: i + 1, card: cardName(c) }))) }));
    case "move_up":
    case "move_down":
      return moveInReorder(action === "move_up" ? -1 : 1);
    default:
      return undefined;
  }
}

function localTurn(v) {
  if (v.phase === "game_over") return _("The game is over.");
  if (v.turn === me()) {
    return v.turns_left > 1 ? fmt(ngettext("It is your turn; you must play {n} turn, this one included.", "It is your turn; you must play {n} turns, this one included.", v.turns_left), { n: v.turns_left }) : _("It is your turn (only this one).");
  }
  return v.turns_left > 1
    ? fmt(ngettext("It is {name}'s turn; they must play {n} turn, this one included.", "It is {name}'s turn; they must play {n} turns, this one included.", v.turns_left), { name: seatName(v.turn), n: v.turns_left })
    : fmt(_("It is {name}'s turn (only this one)."), { name: seatName(v.turn) });
}

function localCounts(v) {
  const hands = v.hand_sizes.map((n, i) => (v.alive[i] ? fmt(_("{name} {n}"), { name: seatName(i), n }) : fmt(_("{name} exploded"), { name: seatName(i) })));
  return fmt(_("Cards in hand: {hands}. Deck: {deck}. Discard pile: {discard}."), { hands: listOf(hands), deck: v.deck_size, discard: v.discard.length });
}

function moveInReorder(step) {
  if (!reorder) return announce(_("Nothing to reorder now."));
  const i = local.cursor;
  const j = i + step;
  if (j < 0 || j >= reorder.order.length) return announce(step < 0 ? _("Already on top.") : _("Already at the bottom."));
  [reorder.order[i], reorder.order[j]] = [reorder.order[j], reorder.order[i]];
  local.cursor = j;
  renderHand(false);
  announce(fmt(_("{card} is now number {n}."), { card: cardName(reorder.cards[reorder.order[j]]), n: j + 1 }));
}

function confirmReorder() {
  const order = reorder.order.slice();
  reorder = null;
  local.cursor = 0;
  renderHand(true);
  ctx.act({ do: "reorder", order });
}

async function give() {
  const card = cursorCard();
  if (!card) {
    if (!handCards().length) return announce(_("You have no card to give."));
    return announceHint(_("No card is chosen yet: choose one with the arrows or a tap, then press {key}."), "give");
  }
  if (card === "defuse") {
    // Issue 24: a Defuse given by a slip is a life lost. Keeping it is the answer ready.
    const sure = await choose(_("Give away your Defuse?"), [
      { label: _("No, keep my Defuse"), value: false },
      { label: _("Yes, give my Defuse"), value: true },
    ], 0, false, "give");
    if (!sure || !giving(view())) return undefined;
  }
  return ctx.act({ do: "give", card });
}

async function defuse() {
  const v = view();
  if (!(v.phase === "defusing" && v.turn === me())) return announce(_("There is no kitten to defuse."));
  if (!v.hand.includes("defuse")) return announce(_("You have no Defuse!"));
  const position = await placeAt(_("Defuse: where does the kitten go back?"));
  if (position !== null) ctx.act({ do: "defuse", position });
}

async function playCards() {
  const hand = handCards();
  const indices = local.selected.size ? [...local.selected].sort((a, b) => a - b) : [local.cursor];
  const cards = indices.map((i) => hand[i]).filter(Boolean);
  if (!cards.length) return announce(_("No card under the cursor."));
  if (cards.length === 1 && cards[0] === "nope") return ctx.act({ do: "nope" });
  if (cards.length === 1 && cards[0] === "defuse") return defuse();
  const action = { do: "play", cards };
  if (cards.length === 1 && kittenCat(cards[0])) {
    return announce(_("A cat does nothing alone: select two or more cards with Space for a combo."));
  }
  if ((cards.length === 1 && kittenTargets(cards[0])) || cards.length === 2 || cards.length === 3) {
    const target = await playerChooser(_("Play against whom?"));
    if (target === null) return undefined;
    action.target = target;
  }
  if (cards.length === 3) {
    const names = kittenCards().filter((c) => c !== "exploding_kitten");
    const name = await choose(_("Which card do you ask for?"), names.map((c) => ({ label: cardName(c), value: c })));
    if (name === null) return undefined;
    action.name = name;
  }
  if (cards.length === 5) {
    const pile = [...new Set(view().discard)];
    if (!pile.length) return announce(_("The discard pile is empty."));
    const take = await choose(_("Which card do you take from the discard pile?"), pile.map((c) => ({ label: cardName(c), value: c })));
    if (take === null) return undefined;
    action.take = take;
  }
  local.selected.clear();
  renderHand(true);
  return ctx.act(action);
}

// ---- Throw Throw Burrito -----------------------------------------------------------------------
function burritoAction(action) {
  const v = view();
  const card = cursorCard();
  const slot = /^pass_(\d)$/.exec(action);
  if (slot) {
    const c = (v.hand || [])[Number(slot[1]) - 1];
    return c ? ctx.act({ do: "discard", card: c }) : announce(fmt(_("Slot {n} is empty."), { n: slot[1] }));
  }
  const at = /^throw_(\d+)$/.exec(action);
  if (at) return ctx.act({ do: "throw", target: Number(at[1]) - 1 });
  switch (action) {
    case "draw":
      return ctx.act({ do: "draw" });
    case "draw_community":
      return ctx.act({ do: "draw", from: "community", pile: 0 });
    case "draw_community_2":
      return ctx.act({ do: "draw", from: "community", pile: 1 });
    case "pass":
      return card ? ctx.act({ do: "discard", card }) : announce(_("No card under the cursor."));
    case "set": {
      const three = heldThree(v.hand, card, burritoNormal());
      if (three) return ctx.act({ do: "set", card: three });
      if (heldThree(v.hand, card, burritoBattle())) return announce(_("Battle cards are called, not set: press the call key."));
      return announce(_("You hold no three alike normal cards."));
    }
    case "call":
      return callFight(heldThree(v.hand, card, burritoBattle()));
    case "grab":
      return ctx.act({ do: "grab" });
    case "throw":
      return ctx.act({ do: "throw", target: throwTarget() });
    case "dodge":
      return ctx.act({ do: "dodge" });
    case "catch":
      return ctx.act({ do: "catch" });
    case "describe":
      return describeCard(card);
    default:
      return undefined;
  }
}

// The card under the cursor when the hand holds three of it, else the first of `kinds` held
// three times (the terminal does the same: cardroom/clients/terminal/burrito.py).
function heldThree(hand, card, kinds) {
  const three = (c) => (hand || []).filter((x) => x === c).length >= 3;
  if (card && kinds.includes(card) && three(card)) return card;
  return kinds.find(three) || null;
}

async function callFight(card) {
  if (!card) return announce(_("You hold no three battle cards of one kind: calling now would be a mistake."));
  const fight = fightOf(card);
  const action = { do: "call", fight, card };
  if (fight === "duel") {
    const n = room().seats.length;
    if (n === 2) action.targets = [0, 1];
    else {
      const everyone = room().seats.map((_s, i) => ({ label: seatName(i), value: i }));
      const first = await choose(_("Duel: first duelist?"), everyone, 0, true);
      if (first === null) return undefined;
      const second = await choose(_("Duel: second duelist?"), everyone.filter((o) => o.value !== first), 0, true);
      if (second === null) return undefined;
      action.targets = [first, second];
    }
  }
  return ctx.act(action);
}

// The nearest other fighter: whoever last threw at you, else the first clockwise on your left.
function throwTarget() {
  const v = view();
  const f = v.fight;
  const n = room().seats.length;
  const fighters = f ? f.fighters : [];
  if (local.lastThrower !== null && fighters.includes(local.lastThrower)) return local.lastThrower;
  for (let k = 1; k < n; k += 1) {
    const seat = (me() + k) % n;
    if (fighters.includes(seat)) return seat;
  }
  return (me() + 1) % n;
}

// ---- help --------------------------------------------------------------------------------------
export function keyRows(gameName, only = null) {
  return bindings(gameName).filter((b) => !only || only.has(b.action)).map((b) => [keyLabel(b.key), _(b.help)]);
}

// The keys that answer in a choice too, for F1 there.
export function askingRows(gameName) {
  return keyRows(gameName, ASKING);
}

export function renderKeysList() {
  const box = $("keys-list");
  const g = game();
  const rows = g ? keyRows(g) : [];
  // Drawn again only when the keys or their language changed, not for every move of the game.
  const key = JSON.stringify([g, document.documentElement.lang, rows]);
  if (box.dataset.key === key) return undefined;
  box.dataset.key = key;
  if (!g) return box.replaceChildren();
  return box.replaceChildren(keysTable(rows, _("Keys for this game")));
}

export function keysTable(rows, caption) {
  const body = el("tbody");
  for (const [key, what] of rows) body.append(el("tr", {}, el("th", { scope: "row" }, el("kbd", { text: key })), el("td", { text: what })));
  return el("table", { class: "keys-table" }, el("caption", { text: caption }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: _("Key") }), el("th", { scope: "col", text: _("What it does") }))), body);
}

export function isChoosing() {
  return Boolean(chooser) || isPlacing();
}
