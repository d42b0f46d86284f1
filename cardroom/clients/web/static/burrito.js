// What the keys do at a Throw Throw Burrito table (a tap or a button runs the same): draw, pass,
// set three alike, call a fight, grab, throw, dodge and catch.

import { burritoBattle, burritoNormal, fightOf } from "./cards.js";
import { _, fmt } from "./i18n.js";
import { announce } from "./ui.js";
import { describeCard } from "./boards.js";
import { choose } from "./chooser.js";
import { ctx, cursorCard, local, me, room, seatName, serverNow, view } from "./gamestate.js";

// Whether a line said from now for `ms` could hide what the listener must hear in their fight
// (ui.js holds the game's polite lines then): from its "Burrito!" (a brawl's start) until it is
// decided, a throw at them can come at any moment, and a line of more than two words would hold
// its "Incoming!" and so its "Catch!" (the fastest flight opens its window 0.8 s after the
// throw); while a burrito flies at them, any line that would still be said when its window opens.
const SHORT_MS = 600; // two words: "Grabbed.", "Thrown.", "Marco dodges."

export function coversMyFight(ms) {
  const v = view();
  const f = v && v.fight;
  const mine = me();
  if (!f || f.decided || !f.fighters.includes(mine)) return false;
  const now = serverNow();
  if (f.go_at !== null && now + ms <= f.go_at) return false;
  if (ms > SHORT_MS) return true;
  return f.flights.some((fl) => fl.target === mine && !fl.dodged && now < fl.lands_at && now + ms > fl.catch_from);
}

export function burritoAction(action) {
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

// The nearest other fighter: whoever last threw at you, else the first clockwise on your left
// (T throws there, and the Throw button names them: actions.js).
export function throwTarget() {
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
