// The table around the game area: its title and state line (with a Play now table's countdown),
// the host's buttons, the rematch vote, the seats list, the invitation and the turn alerts.

import { _, fmt, listOf, ngettext, pgettext } from "./i18n.js";
import { $, el, keepFocus } from "./ui.js";
import { setAlert } from "./alerts.js";
import { renderInvite, showAddress } from "./invite.js";
import { browsing } from "./views.js";
import { renderCoach } from "./guide.js";
import { renderGame } from "./gamescreen.js";
import { renderKeysList } from "./keyhelp.js";
import { act, notify, send } from "./connection.js";
import { GAME_NAMES, LEVEL_NAMES, fillLevels } from "./options.js";
import { prefs } from "./prefs.js";
import { state } from "./session.js";

export function renderTable() {
  const r = state.room;
  if (!r) return;
  const game = _(GAME_NAMES[r.game] || r.game);
  $("table-title").textContent = fmt(_("{game} table, hosted by {host}"), { game, host: r.host || "" });
  const stateText = {
    waiting: _("Waiting for players. The host starts the game; empty seats get bots."),
    playing: _("The game is under way."),
    over: _("The game is over."),
  }[r.state];
  $("table-state").textContent = r.you === null ? fmt(_("{state} You are watching."), { state: stateText }) : stateText;
  $("table-code").textContent = r.private && r.code ? fmt(_("Invitation code: {code}"), { code: r.code }) : "";
  $("start-btn").hidden = !(r.is_host && r.state === "waiting");
  renderCountdown(r);
  renderRematch(r);
  const mine = r.you !== null ? r.seats[r.you] : null;
  $("reclaim-btn").hidden = !(mine && mine.standing_in && r.state === "playing");
  renderInvite(r);
  if (!browsing()) showAddress(r);
  setAlert(alertOf(r));
  keepStandingChoice(r);
  $("add-bot-box").hidden = !(r.is_host && r.state === "waiting" && r.free > 0);
  fillLevels($("add-bot-level"), r.game);
  $("leave-btn").textContent = r.you === null ? _("Stop watching") : _("Leave the table");
  renderSeats(r);
  renderGame();
  renderKeysList();
  renderCoach(r);
}

// A Play now table starts by itself: the state line counts down to it, once a second.
let countdownTimer = null;

function renderCountdown(r) {
  clearInterval(countdownTimer);
  countdownTimer = null;
  if (r.state !== "waiting" || typeof r.starts_in_ms !== "number") return;
  const at = performance.now() + r.starts_in_ms;
  const tick = () => {
    const s = Math.max(0, Math.ceil((at - performance.now()) / 1000));
    $("table-state").textContent = fmt(ngettext(
      "The game starts by itself in {n} second; bots take the seats nobody takes.",
      "The game starts by itself in {n} seconds; bots take the seats nobody takes.", s), { n: s });
  };
  tick();
  countdownTimer = setInterval(tick, 1000);
}

// A rematch is a vote (docs/protocol.md): each player says ready; the table shows who is.
function renderRematch(r) {
  const ready = Array.isArray(r.ready) ? r.ready : [];
  const over = r.state === "over";
  const mine = r.you !== null && ready.includes(r.you);
  $("rematch-btn").hidden = !(over && r.you !== null);
  $("rematch-btn").setAttribute("aria-pressed", mine ? "true" : "false");
  $("rematch-now-btn").hidden = !(over && r.is_host);
  const people = r.seats.map((s, i) => [s, i]).filter(([s]) => s.name && !s.bot);
  const yes = people.filter(([, i]) => ready.includes(i)).map(([s]) => s.name);
  const waiting = people.filter(([s, i]) => !ready.includes(i) && s.connected).map(([s]) => s.name);
  const parts = [];
  if (over && yes.length) parts.push(fmt(_("Ready for a rematch: {names}."), { names: listOf(yes) }));
  if (over && yes.length && waiting.length) parts.push(fmt(_("Waiting for {names}."), { names: listOf(waiting) }));
  const text = parts.join(" ");
  if ($("rematch-status").textContent !== text) {
    $("rematch-status").textContent = text;
    if (text) notify(text);
  }
}

// The "always pass" setting (issue 21), kept with the account: at each Exploding Kittens game's
// start this seat's standing choice is switched on for it, once; X and Shift+X decide after that.
function keepStandingChoice(r) {
  if (r.state !== "playing") {
    state.standingSetFor = null;
    return;
  }
  if (r.game !== "kittens" || r.you === null || !r.view || state.standingSetFor === r.id) return;
  state.standingSetFor = r.id;
  const on = (r.view.always_pass || []).includes(r.you);
  if (prefs.always_pass && !on && r.view.alive && r.view.alive[r.you]) act({ do: "always_pass", on: true });
}

// What the game waits for from this player now, for the tab's title and icon (alerts.js).
function alertOf(r) {
  if (r.state !== "playing" || r.you === null || !r.view) return null;
  if (performance.now() < state.burritoUntil) return "burrito";
  const v = r.view;
  return r.game === "kittens" && v.turn === r.you && v.phase !== "game_over" ? "turn" : null;
}

const BURRITO_ALERT_MS = 2500;

export function burritoAlert() {
  state.burritoUntil = performance.now() + BURRITO_ALERT_MS;
  setAlert("burrito");
  setTimeout(() => {
    if (state.room) setAlert(alertOf(state.room));
  }, BURRITO_ALERT_MS + 50);
}

// Drawn again only when what the list says changed: a burrito in flight changes nothing in it.
function renderSeats(r) {
  const v = r.view;
  const shown = v && [v.hand_sizes, v.scores, v.bruises, v.badge, v.alive, v.turn, v.turns_left, v.phase, v.fight && [v.fight.fighters, v.fight.holding]];
  const key = JSON.stringify([document.documentElement.lang, r.id, r.game, r.seats, r.you, r.is_host, r.state, shown]);
  if ($("seats").dataset.key === key) return;
  $("seats").dataset.key = key;
  keepFocus($("seats"), "seats-title", () => renderSeatList(r));
}

function renderSeatList(r) {
  const v = r.view;
  const list = $("seats");
  list.replaceChildren(
    ...r.seats.map((s, i) => {
      const classes = ["seat"];
      if (i === r.you) classes.push("me");
      if (v && r.game === "kittens" && v.turn === i && v.phase !== "game_over") classes.push("turn");
      if (v && r.game === "kittens" && !v.alive[i]) classes.push("out");
      const who = [];
      if (!s.name) who.push(_("empty seat"));
      else if (s.bot) who.push(fmt(_("bot, {level}"), { level: s.level ? _(LEVEL_NAMES[s.level] || s.level) : "" }));
      else if (s.standing_in) who.push(_("away: a bot stands in"));
      else who.push(s.connected ? _("connected") : _("disconnected"));
      if (s.lag_ms !== null && s.lag_ms !== undefined && !s.bot) who.push(fmt(_("lag {ms} ms"), { ms: s.lag_ms }));
      if (s.extra_time) who.push(_("extra time: the windows that ask them to react are twice as long"));
      const game = [];
      if (v) {
        game.push(fmt(ngettext("{n} card in hand", "{n} cards in hand", v.hand_sizes[i]), { n: v.hand_sizes[i] }));
        if (r.game === "burrito") {
          game.push(fmt(_("score {score}"), { score: v.scores[i] }));
          game.push(fmt(_("bruises {n}"), { n: v.bruises[i] }));
          if (v.fight && v.fight.fighters.includes(i)) game.push(v.fight.holding && v.fight.holding[i] ? _("fighting, holds a burrito") : _("fighting"));
          if (v.badge === i) game.push(_("holds the badge"));
        } else {
          if (!v.alive[i]) game.push(_("exploded"));
          else if (v.turn === i && v.phase !== "game_over") game.push(v.turns_left > 1 ? fmt(ngettext("playing, {n} turn left", "playing, {n} turns left", v.turns_left), { n: v.turns_left }) : _("playing"));
        }
      }
      const title = i === r.you ? fmt(_("Seat {n}: {name} (you)"), { n: i + 1, name: s.name }) : fmt(_("Seat {n}: {name}"), { n: i + 1, name: s.name || pgettext("seat", "empty") });
      const item = el("li", { class: classes.join(" ") },
        el("span", { class: "seat-name", text: title }),
        el("p", { class: "seat-info", text: listOf(who, "unit") }),
        game.length ? el("p", { class: "seat-info", text: listOf(game, "unit") }) : null);
      if (r.is_host && s.name && i !== r.you && !(s.bot && r.state !== "waiting")) {
        item.append(el("button", { type: "button", id: `kick-${i}`, class: "secondary", onclick: () => send({ type: "kick", table: r.id, seat: i }) }, fmt(_("Remove {name}"), { name: s.name })));
      }
      if (r.is_host && s.name && !s.bot && r.state !== "playing") {
        item.append(el("button", { type: "button", id: `extra-${i}`, class: "secondary", "aria-pressed": s.extra_time ? "true" : "false", onclick: () => send({ type: "extra_time", table: r.id, seat: i, on: !s.extra_time }) }, fmt(_("Extra time for {name}"), { name: s.name })));
      }
      if (r.is_host && !s.name && r.state === "waiting") {
        item.append(el("button", { type: "button", id: `bot-${i}`, class: "secondary", onclick: () => send({ type: "add_bot", table: r.id, seat: i, level: $("add-bot-level").value }) }, fmt(_("Bot in seat {n}"), { n: i + 1 })));
      }
      return item;
    }),
  );
}
