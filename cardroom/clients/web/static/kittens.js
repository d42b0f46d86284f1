// What the keys do at an Exploding Kittens table (a tap or a button runs the same): play a card
// or a combo, nope, draw, defuse, give, put the top of the deck in order; and the choices the
// game asks of this seat (startChoice).

import { kittenCards, kittenCat, kittenTargets } from "./cards.js";
import { _, fmt, listOf, ngettext } from "./i18n.js";
import { bindings, keyLabel } from "./keys.js";
import { announce } from "./ui.js";
import { describeCard } from "./boards.js";
import { choose, placeAt, playerChooser } from "./chooser.js";
import { renderHand } from "./gamescreen.js";
import {
  announceHint, cardName, ctx, cursorCard, focusHand, giving, handCards, local, me, seatName, view,
} from "./gamestate.js";

export function startChoice(e) {
  const v = view();
  if (e.kind === "reorder") {
    const cards = (v && v.choosing && v.choosing.cards) || e.cards || [];
    local.reorder = { cards, order: cards.map((_c, i) => i) };
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

export function kittensAction(action) {
  const v = view();
  const card = cursorCard();
  switch (action) {
    case "select": {
      if (local.reorder || !card) return;
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
      if (local.reorder) return confirmReorder();
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
  if (!local.reorder) return announce(_("Nothing to reorder now."));
  const i = local.cursor;
  const j = i + step;
  if (j < 0 || j >= local.reorder.order.length) return announce(step < 0 ? _("Already on top.") : _("Already at the bottom."));
  [local.reorder.order[i], local.reorder.order[j]] = [local.reorder.order[j], local.reorder.order[i]];
  local.cursor = j;
  renderHand(false);
  announce(fmt(_("{card} is now number {n}."), { card: cardName(local.reorder.cards[local.reorder.order[j]]), n: j + 1 }));
}

function confirmReorder() {
  const order = local.reorder.order.slice();
  local.reorder = null;
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
  // The keys were in the hint ("Press F to defuse, then Enter."): the 10 s run meanwhile.
  const position = await placeAt(_("Defuse: where does the kitten go back?"), false);
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
