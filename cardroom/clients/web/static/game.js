// The game area: the events of the table (their sounds, and what they start), the keys of both
// games, and the modules that draw and ask (gamescreen.js, chooser.js) set going. The server
// judges everything; this only shows and sends.

import { _, fmt, listOf, ngettext } from "./i18n.js";
import { actionFor, bindings, keyLabel, keyName } from "./keys.js";
import { cues, earcon, panFor } from "./sound.js";
import { $, announce, holdWhileFighting, isTyping, logLine, moveLog } from "./ui.js";
import { hideCardTip, initCardTips } from "./cardtip.js";
import { closePlacer } from "./placer.js";
import { ASKING } from "./keyhelp.js";
import {
  announceHint, cardName, ctx, focusHand, game, handCards, local, me, noCursor, placeCursor, room, seatName, serverNow, setContext, view,
} from "./gamestate.js";
import { cardHelp } from "./boards.js";
import { closeChooser, initChooser } from "./chooser.js";
import { keepKeysAfterClick, refitOnResize, renderHand, renderPointer, startDrag, tapCard, wakeFrames } from "./gamescreen.js";
import { kittensAction, startChoice } from "./kittens.js";
import { burritoAction, coversMyFight } from "./burrito.js";

export function initGame(context) {
  // The modules below call up through ctx: what app.js gives, this module's run, and the
  // redraw of the felt (gamescreen.js), none of which they may import.
  setContext({ ...context, run, redraw: renderPointer });
  holdWhileFighting(coversMyFight);
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
    canHold: () => !local.reorder,
  });
  hand.addEventListener("pointerdown", startDrag);
  // The screen turned: the cards have another width, their names another size (fitNames);
  // the seen cards' too.
  refitOnResize(hand);
  refitOnResize($("seen"));
  $("lobby-btn").addEventListener("click", () => $("leave-btn").click());
  document.addEventListener("click", keepKeysAfterClick);
  $("game").addEventListener("keydown", onGameKey);
  initChooser();
  wakeFrames();
}

export function resetGame() {
  local.fresh = true;
  local.cursor = 0;
  local.none = false;
  local.left = false;
  local.cards = [];
  local.selected.clear();
  local.handKey = "";
  local.lastThrower = null;
  local.openWindows.clear();
  dropCatchEarcons(() => true);
  local.reorder = null;
  closeChooser();
  closePlacer();
  hideCardTip();
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
        // "Burrito!" that lets you play (a round's start, play resuming, your duel's throw) has
        // its own sound, on time even while a screen reader is still saying your new hand.
        const yours = kind === "countdown" ? me() !== null : (e.fighters || []).includes(me());
        if (e.beat === "burrito" && yours) cues.go();
        else cues.beat();
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
        if ((view().hand || []).includes("defuse")) announceHint(_("Press {key} to defuse, then Enter."), "defuse", true);
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
    if ((v.hand || []).includes("defuse")) announceHint(_("Press {key} to defuse, then Enter."), "defuse", true);
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

// Whether a batch ends a round or the game (both games' events): what was still waiting to be
// said is past (ui.js closeChapter).
export function endsAChapter(events) {
  return events.some((e) => e.event === "round_over" || e.event === "game_over");
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

// ---- keys --------------------------------------------------------------------------------------
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
  if (noCursor() && absolute === null) {
    // From no card: the first step lands on the first card (or the last, going left).
    placeCursor(step < 0 ? cards.length - 1 : 0);
  } else {
    placeCursor(absolute !== null ? absolute : Math.max(0, Math.min(cards.length - 1, local.cursor + step)));
  }
  renderHand(false);
  if (document.activeElement !== $("hand")) focusHand();
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
