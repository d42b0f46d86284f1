// The action buttons beside the hand: what a pointer or a finger can do now, each button named
// by its verb. A button sends exactly what its key sends: it calls the game's `perform` with the
// key's action name (keys.js), so there is one way to do each thing. Which buttons show is read
// from the view the server sent and the page's own selection; the server still judges.

import { BURRITO_NORMAL, FIGHT_OF, KITTEN_CATS } from "./cards.js";
import { _, fmt } from "./i18n.js";
import { el } from "./ui.js";

const FIGHT_NAMES = { brawl: () => _("Brawl"), war: () => _("War"), duel: () => _("Duel") };

// [{action, label, cls}] for the kittens table, from `m` (see `buttonsFor`).
function kittensButtons(m) {
  const v = m.view;
  const out = [];
  const hand = v.hand || [];
  const mine = v.turn === m.you;
  if (m.reorder) {
    const card = m.cards[m.cursor];
    if (card) {
      out.push({ action: "move_up", label: fmt(_("Move {card} up"), { card: m.cardName(card) }), disabled: m.cursor === 0 });
      out.push({ action: "move_down", label: fmt(_("Move {card} down"), { card: m.cardName(card) }), disabled: m.cursor >= m.cards.length - 1 });
    }
    out.push({ action: "play_enter", label: _("Confirm the order"), cls: "go" });
    return out;
  }
  const choosing = v.phase === "choosing" && v.choosing && v.choosing.player === m.you ? v.choosing.kind : null;
  if (choosing === "give") {
    const card = m.cards[m.cursor];
    if (card) out.push({ action: "give", label: fmt(_("Give {card}"), { card: m.cardName(card) }), cls: "go" });
    return out;
  }
  if (choosing === "insert") {
    out.push({ action: "play", label: _("Put back at…"), cls: "go" });
    return out;
  }
  if (v.phase === "defusing" && mine) {
    if (hand.includes("defuse")) out.push({ action: "defuse", label: _("Defuse and put the kitten back at…"), cls: "go" });
    return out;
  }
  if (v.phase === "nope_window" && v.window && v.window.last !== m.you && (v.alive || [])[m.you]) {
    if (hand.includes("nope")) out.push({ action: "nope", label: m.cardName("nope"), cls: "go" });
    if (!(v.window.passed || []).includes(m.you)) out.push({ action: "no_nope", label: _("No Nope") });
  }
  if (v.phase === "turn" && mine) {
    const chosen = m.selected.length ? m.selected.map((i) => m.cards[i]) : [m.cards[m.cursor]].filter(Boolean);
    const playable = chosen.length && !(chosen.length === 1 && (KITTEN_CATS.includes(chosen[0]) || ["exploding_kitten", "defuse", "nope"].includes(chosen[0])));
    if (playable && [1, 2, 3, 5].includes(chosen.length)) {
      const label = chosen.length === 1 ? fmt(_("Play {card}"), { card: m.cardName(chosen[0]) }) : fmt(_("Play the {n} selected cards"), { n: chosen.length });
      out.push({ action: "play", label });
    }
    out.push({ action: "draw", label: _("Draw a card"), cls: "go" });
  }
  return out;
}

function burritoButtons(m) {
  const v = m.view;
  const out = [];
  const hand = v.hand || [];
  const f = v.fight;
  if (f) {
    if (!f.fighters.includes(m.you)) return out;
    const go = f.go_at === null || m.now >= f.go_at;
    const holding = f.holding && f.holding[m.you];
    const incoming = f.flights.filter((x) => x.target === m.you && !x.dodged && m.now < x.lands_at);
    if (incoming.some((x) => m.now >= x.catch_from)) out.push({ action: "catch", label: _("Catch!"), cls: "go urgent" });
    if (incoming.length) out.push({ action: "dodge", label: _("Dodge"), cls: "urgent" });
    if (go && !holding && f.free > 0) out.push({ action: "grab", label: _("Grab a burrito"), cls: "go" });
    if (go && holding) {
      for (const seat of f.fighters) {
        if (seat !== m.you) out.push({ action: `throw_${seat + 1}`, label: fmt(_("Throw at {name}"), { name: m.seatName(seat) }), cls: "go" });
      }
    }
    return out;
  }
  if (v.phase !== "play" || m.you === null) return out;
  const card = m.cards[m.cursor];
  if (card) {
    const count = hand.filter((c) => c === card).length;
    if (count >= 3 && FIGHT_OF[card]) out.push({ action: "call", label: fmt(_("Call a fight: {fight}"), { fight: FIGHT_NAMES[FIGHT_OF[card]]() }), cls: "go" });
    if (count >= 3 && BURRITO_NORMAL.includes(card)) out.push({ action: "set", label: fmt(_("Score three {card}"), { card: m.cardName(card) }), cls: "go" });
    out.push({ action: "pass", label: fmt(_("Pass {card} left"), { card: m.cardName(card) }) });
  }
  if (hand.length < 5) {
    if (v.pile_sizes[m.you] > 0) out.push({ action: "draw", label: _("Draw from your own pile") });
    if (v.community_sizes[0] > 0) out.push({ action: "draw_community", label: _("Draw from community pile 1") });
    if (v.community_sizes[1] > 0) out.push({ action: "draw_community_2", label: _("Draw from community pile 2") });
  }
  return out;
}

// The buttons for model `m`: {game, view, you, cards, cursor, selected, reorder, now,
// cardName, seatName}. None for a spectator or before the game.
export function buttonsFor(m) {
  if (!m.view || m.you === null || m.you === undefined) return [];
  if (m.view.phase === "game_over") return [];
  return m.game === "kittens" ? kittensButtons(m) : burritoButtons(m);
}

// Draw the buttons of `m` into `box`, only when they changed (a button under a finger stays put).
export function renderActions(box, m, perform) {
  const buttons = buttonsFor(m);
  const key = JSON.stringify(buttons);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.replaceChildren(
    ...buttons.map((b) =>
      el("button", {
        type: "button",
        class: `act ${b.cls || ""}`.trim(),
        "data-action": b.action,
        disabled: b.disabled || null,
        onclick: () => perform(b.action),
      }, b.label),
    ),
  );
}
