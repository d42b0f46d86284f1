// The guided first game (docs/guide.md): the server's coach says one line at a time, when it
// waits for the player's move (its clock stands still meanwhile, so nothing is lost). The page
// shows the line in the coach's panel above the table, says it in the live region as a game
// line is said, and keeps it in the history; Skip leaves the guide at any step, and its end
// offers a real game with bots.

import { _, fmt } from "./i18n.js";
import { $, announce, logLine } from "./ui.js";

let page = null;
let heard = { table: null, step: -2 };

// `context`: send(message), leave() (the table, back to the lobby), current() (the room shown),
// hold(at) (the table's clock stands still at play time `at` until the next batch).
export function initGuide(context) {
  page = context;
  for (const game of ["kittens", "burrito"]) {
    $(`guide-${game}`).addEventListener("click", () => startGuide(game));
  }
  $("coach-skip").addEventListener("click", () => {
    page.leave();
    announce(_("You left the guided game. Play now starts a real game with bots."));
  });
  $("coach-play").addEventListener("click", () => {
    const room = page.current();
    const game = room ? room.game : "kittens";
    page.leave();
    page.send({ type: "play_now", game });
  });
  $("coach-lobby").addEventListener("click", () => page.leave());
}

export function startGuide(game) {
  page.send({ type: "guide", game }); // not connected, the page says so
}

// A line from the coach: shown, said once, kept in the history.
export function onCoach(m) {
  const room = page.current();
  if (!room || m.table !== room.id) return;
  room.coach = m;
  if (typeof m.held === "number") page.hold(m.held);
  renderCoach(room);
  if (heard.table === m.table && heard.step >= m.step) return; // a resync says it again: once is enough
  heard = { table: m.table, step: m.step };
  // A line not yet said once the player has moved on (or left) is about a step done: dropped.
  const onStep = () => {
    const now = page.current();
    return Boolean(now && now.id === m.table && now.coach && now.coach.step === m.step);
  };
  for (const line of [...(m.intro || []), m.text]) {
    announce(line, false, "coach", false, onStep);
    logLine(line, false);
  }
}

// The coach's panel of the table shown (hidden at any other table).
export function renderCoach(room) {
  const m = room && room.coach;
  $("coach").hidden = !m;
  if (!m) return;
  $("coach-progress").textContent = m.done ? _("Guided game: done") : fmt(_("Guided game: {progress}"), { progress: m.progress });
  $("coach-line").textContent = m.text;
  $("coach-skip").hidden = Boolean(m.done);
  $("coach-end").hidden = !m.done;
}
