// The action buttons beside the hand: what a pointer or a finger can do now, each button named
// by its verb. A button sends exactly what its key sends: it calls the game's `perform` with the
// key's action name (keys.js), so there is one way to do each thing. Which buttons show is read
// from the view the server sent and the page's own selection; the server still judges.

import { fightOf } from "./cards.js";
import { _, fmt, ngettext } from "./i18n.js";
import { announce, el, onWidthChange } from "./ui.js";

const FIGHT_NAMES = { brawl: () => _("Brawl"), war: () => _("War"), duel: () => _("Duel") };

// Whether `cards` make a play: the seat's own view lists the sets of its cards it may play on
// its turn (the engine's legal moves, each sorted); `fives` is null when a hand of many kinds
// could make too many fives to list: any five different cards are offered, the server judges.
function playable(v, cards) {
  const key = JSON.stringify([...cards].sort());
  if ([...(v.plays || []), ...(v.fives || [])].some((set) => JSON.stringify(set) === key)) return true;
  return cards.length === 5 && v.fives === null && new Set(cards).size === 5;
}

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
    if (playable(v, chosen)) {
      const label = chosen.length === 1 ? fmt(_("Play {card}"), { card: m.cardName(chosen[0]) }) : fmt(ngettext("Play the {n} selected card", "Play the {n} selected cards", chosen.length), { n: chosen.length });
      out.push({ action: "play", label });
    }
    out.push({ action: "draw", label: _("Draw a card"), cls: "go" });
  }
  return out;
}

// During a fight a fighter's controls never move (issue 21: "Dodge" and "Catch!" inserted in
// front of "Throw at Marco" moved it under the finger): Grab, Throw, Dodge and Catch are all
// there from the fight's start to its end, in that order, each disabled (`why` says the reason)
// while it cannot be done. One Throw, whatever the fight: it throws where T does, at the nearest
// fighter (`m.throwAt`, burrito.js), and its name says at whom; a tap on a fighter's seat throws
// there. A Throw for each other fighter made a War at a table of six seven cells, four rows on
// a phone that left the felt 244 pixels high, its seats over one another.
function fightButtons(m, f) {
  const now = m.now;
  const go = f.go_at === null || now >= f.go_at;
  const holding = Boolean(f.holding && f.holding[m.you]);
  const incoming = f.flights.filter((x) => x.target === m.you && !x.dodged && now < x.lands_at);
  const open = incoming.some((x) => now >= x.catch_from);
  const wait = go ? null : _("Not yet: wait for Burrito!");
  const others = f.fighters.filter((seat) => seat !== m.you).length;
  const out = [{
    action: "grab", label: _("Grab a burrito"), cls: "go",
    why: wait || (holding ? _("Your hands are full") : f.free > 0 ? null : _("None is free")),
  }];
  out.push({
    action: `throw_${m.throwAt + 1}`, label: fmt(_("Throw at {name}"), { name: m.seatName(m.throwAt) }), cls: "go",
    why: wait || (holding ? null : _("Grab a burrito first")),
    hint: others > 1 ? _("or tap another fighter's seat") : null,
  });
  const coming = incoming.length ? null : _("Nothing is coming at you");
  out.push({ action: "dodge", label: _("Dodge"), cls: "urgent", why: coming });
  out.push({ action: "catch", label: _("Catch!"), cls: "go urgent", why: coming || (open ? null : _("Not yet: its window opens soon")) });
  return out;
}

function burritoButtons(m) {
  const v = m.view;
  const out = [];
  const hand = v.hand || [];
  const f = v.fight;
  if (f) return f.fighters.includes(m.you) ? fightButtons(m, f) : out;
  if (v.phase !== "play" || m.you === null) return out;
  const card = m.cards[m.cursor];
  if (card) {
    const count = hand.filter((c) => c === card).length;
    if (count >= 3 && fightOf(card)) out.push({ action: "call", label: fmt(_("Call a fight: {fight}"), { fight: FIGHT_NAMES[fightOf(card)]() }), cls: "go" });
    if (count >= 3 && !fightOf(card)) out.push({ action: "set", label: fmt(_("Score three {card}"), { card: m.cardName(card) }), cls: "go" });
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

// Draw the buttons of `m` into `box`. The same buttons in the same order are updated in place
// (a button under a finger or the focus stays put and stays the same element); a button that
// cannot be done now is `aria-disabled`, still focusable, and says why instead of acting.
export function renderActions(box, m, perform) {
  const buttons = buttonsFor(m);
  const key = JSON.stringify(buttons);
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  const fight = buttons.some((b) => "why" in b);
  box.classList.toggle("fight", fight);
  // The Throw button names whoever it throws at now: the same button, its action changed.
  const layout = JSON.stringify(buttons.map((b) => b.action.replace(/^throw_\d+$/, "throw_")));
  if (box.dataset.layout !== layout) {
    box.dataset.layout = layout;
    box.replaceChildren(
      ...buttons.map((b) =>
        el("button", {
          type: "button",
          "data-action": b.action,
          onclick: (event) => {
            const why = event.currentTarget.dataset.why;
            if (why) announce(why);
            else perform(event.currentTarget.dataset.action);
          },
        }),
      ),
    );
  }
  buttons.forEach((b, i) => {
    const node = box.children[i];
    node.className = `act ${b.cls || ""}`.trim();
    node.disabled = Boolean(b.disabled);
    node.dataset.action = b.action;
    if (b.why) {
      node.setAttribute("aria-disabled", "true");
      node.dataset.why = b.why;
    } else {
      node.removeAttribute("aria-disabled");
      delete node.dataset.why;
    }
    const parts = [el("span", { class: "label", text: b.label })];
    // The reason's line is there even when empty: a button keeps its height as it changes.
    // A button that can be done may say how else to do it (`hint`) on that line.
    if (fight) parts.push(el("span", { class: "why", text: b.why || b.hint || "\u00a0" }));
    node.replaceChildren(...parts);
  });
  if (fight) fitLabels(box);
  if (!box.dataset.fits) {
    box.dataset.fits = "1";
    onWidthChange(box, () => box.classList.contains("fight") && fitLabels(box));
  }
}

// A fight control's name too long for its line when it can be done ("Throw at Maximilian
// Wolkenstein" read "Throw at Maxim…" in a phone's cell of 150 pixels) takes the reason's line
// too, and a hint there gives way: the button is as high as ever (style.css, `.long`).
function fitLabels(box) {
  for (const node of box.children) {
    node.classList.remove("long");
    const label = node.querySelector(".label");
    if (!node.dataset.why && label && label.scrollWidth > label.clientWidth + 1) node.classList.add("long");
  }
}
