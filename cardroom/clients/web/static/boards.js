// The board's text (the piles, whose turn, the phase, in words), the cards seen at the top of
// the deck, and what a card does: for the live table and for a replay's step (renderBoardFor).

import { cardText } from "./cards.js";
import { _, fmt, listOf, ngettext, pgettext } from "./i18n.js";
import { $, announce, el } from "./ui.js";
import { drawTable } from "./table.js";
import { cardFace, fitNames } from "./art.js";
import { showCardTip } from "./cardtip.js";
import { cardName, cardNameIn, ctx, game, gameOver, local, me, seatName, setShown, view } from "./gamestate.js";

// The top of the deck as this seat saw it (See or Alter the Future), drawn under the table as
// card faces, top first, for as long as the server's view says it is still so
// (docs/rules/kittens.md#what-players-know): a draw takes the top one away, a shuffle or a card
// put back by another clears it. Only the seer's view holds these cards, so no other page can
// draw them. A picture (the board's text says the same to the ear).
export function renderSeen(v) {
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
export function describeCard(card) {
  if (!card) return announce(_("No card under the cursor."));
  const option = $(`hand-${local.cursor}`);
  if (option) showCardTip(option, cardHelp(card));
  return ctx.query("card", card, () => cardHelp(card));
}

// Draw the board of `fake` ({game, seats, you, view}: a stored table at one step) into `board`.
export function renderBoardFor(fake, board) {
  setShown(fake);
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
        banner: fake.game === "kittens" ? kittensPhaseText(fake.view) : burritoFeltText(fake.view),
        choosingSeats: null,
        cardName: (card) => cardNameIn(fake.game, card),
        seatName,
      }, { now: () => fake.view.now });
    }
  } finally {
    setShown(null);
  }
}

function pile(label, value, extra = null) {
  return el("div", { class: "pile" }, el("span", { text: label }), el("strong", { text: value }), extra);
}

export function renderKittensBoard(board, v) {
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

export function kittensPhaseText(v) {
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

export function renderBurritoBoard(board, v) {
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

// The felt's banner (a picture: the board's text above says everything to the ear). In a fight
// the fighters' seats are marked on the felt (dashed) and the free burritos are a pile of their
// own: the banner says the fight and your hands only. With the fighters named, a War at a table
// of six took three lines of a phone's felt and lay over the seats above and below it.
export function burritoFeltText(v) {
  const f = v.fight;
  if (!f) return burritoPhaseText(v);
  const values = { kind: fightName(f.kind) };
  if (!f.fighters.includes(me())) return fmt(_("Fight: {kind}."), values);
  if (f.holding && f.holding[me()]) return fmt(_("Fight: {kind}. You hold a burrito."), values);
  return fmt(_("Fight: {kind}. Your hands are empty."), values);
}

function fightName(kind) {
  return { brawl: _("Brawl"), war: _("War"), duel: _("Duel") }[kind] || kind;
}
