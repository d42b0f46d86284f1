// What the server says, handled in order: the welcome, the tables, a table's state and its
// events (held while the table is resumed after a reconnect, then taken in order of version),
// cues, answers, notices and errors. Every sentence about the game comes from the server's
// narration (`texts`); the page adds only its own labels, all through _().

import { TOKEN } from "./api.js";
import { _, fmt, listOf } from "./i18n.js";
import { $, announce, clearLog, closeChapter, logLine } from "./ui.js";
import { showAddress } from "./invite.js";
import { browsing } from "./views.js";
import { onCoach } from "./guide.js";
import { announceNow, endsAChapter, nopePrompt, onCue, onEvents, resetGame } from "./game.js";
import { focusHand, syncClock } from "./gamestate.js";
import { follow, listen, notify, send, setStatus, showConnectionNotice } from "./connection.js";
import { GAME_NAMES } from "./options.js";
import { say } from "./prefs.js";
import { chatItem, onChat } from "./chat.js";
import { readableSummary, renderTables } from "./lobby.js";
import { burritoAlert, renderTable } from "./tableview.js";
import { showLobby, showTable } from "./screens.js";
import { NAME, state } from "./session.js";

export function handle(m) {
  switch (m.type) {
    case "welcome":
      return onWelcome(m);
    case "tables": {
      // One page of the list: the first replaces what we had, the next ones add to it.
      const listed = (Array.isArray(m.tables) ? m.tables : []).filter(readableSummary);
      if (!m.page) state.tables = new Map();
      for (const t of listed) state.tables.set(t.id, t);
      state.tablePage = Number.isInteger(m.page) ? m.page : 0;
      state.tablePages = Number.isInteger(m.pages) ? m.pages : 1;
      return renderTables();
    }
    case "table_update":
      if (readableSummary(m.table)) state.tables.set(m.table.id, m.table);
      return renderTables();
    case "table_closed":
      state.tables.delete(m.table);
      delete state.lastV[m.table];
      renderTables();
      if (state.current === m.table) {
        notify(_("The table was closed."));
        if (browsing()) {
          state.current = null;
          state.room = null;
        } else {
          showLobby();
        }
      }
      return undefined;
    case "table":
      return onTable(m);
    case "events":
      return onEventsMessage(m);
    case "cue":
      if (m.table !== state.current) return undefined;
      burritoAlert();
      return onCue(m);
    case "resumed":
      return onResumed(m);
    case "away": // before the table's resync: said once the table is shown
      state.away = m;
      return undefined;
    case "ack":
      return undefined;
    case "coach":
      return onCoach(m);
    case "move": // to the node that owns our one table (connection.js)
      return follow(m);
    case "rejected":
      return notify(m.message);
    case "kicked":
      if (m.table === state.current) notify(_("The host removed you from your seat: you are now watching."), true);
      return undefined;
    case "chat":
      return onChat(m);
    case "lobby_chat":
      state.lobbyChat = m.chat || [];
      $("lobby-chat-log").replaceChildren(...state.lobbyChat.map(chatItem));
      return undefined;
    case "ping":
      send({ type: "pong", id: m.id });
      return undefined;
    case "lag":
      state.lag = m.ms;
      return setStatus(fmt(_("Connected as {name}. Lag {ms} ms."), { name: state.name, ms: m.ms }));
    case "answer": {
      state.pendingQuery = null;
      return notify(m.text);
    }
    case "notice": // the table paused (the server cannot save), goes on, or closed: said at once
      if (state.room && m.table === state.room.id && ["table_paused", "table_resumed"].includes(m.code)) {
        state.room.paused = m.code === "table_paused"; // a resync saying the same is not said again
      }
      return notify(m.message, true);
    case "error":
      return onError(m);
    default:
      return undefined;
  }
}

function onWelcome(m) {
  state.welcomed = true;
  state.welcomedAt = performance.now();
  state.retry = 0;
  state.lostAt = null;
  clearTimeout(state.retryTimer);
  if (!state.beat) listen(state.ws);
  showConnectionNotice(false);
  state.player = m.player;
  state.name = m.name;
  localStorage.setItem(TOKEN, m.token);
  localStorage.setItem(NAME, m.name);
  setStatus(fmt(_("Connected as {name}."), { name: m.name }));
  // Tables we are no longer at are forgotten; the others are resumed when their state comes.
  const at = m.tables || [];
  const watched = state.current && state.room && state.room.you === null && !at.includes(state.current) ? state.current : null;
  for (const id of Object.keys(state.lastV)) {
    if (!at.includes(id) && id !== watched) {
      delete state.lastV[id];
      state.needResume.delete(id);
    }
  }
  if (watched) {
    // The server lets a watcher go with their connection: watch the table again (with its
    // code, if private), then hear what was missed (`resume` from the last version seen).
    state.rewatching = watched;
    send({ type: "spectate", table: watched, code: state.room.code || null });
  } else if (state.current && !at.includes(state.current)) {
    // Our seat is no longer ours (away too long, or the table closed meanwhile).
    leaveGoneTable(_("You are no longer at that table."));
  }
  const first = $("enter").hidden === false;
  if (state.invite) {
    // Opened from a table's link: straight to that table (a seat, else watching it).
    const { table, code } = state.invite;
    state.inviting = state.invite;
    state.invite = null;
    send({ type: "join", table, code });
  }
  if (!state.current && !browsing()) {
    showLobby(first);
    // The heading takes the focus, which a screen reader in its browse mode may not say: the
    // entry into the lobby is said in words (issue 24: Orca said nothing).
    if (first) announce(fmt(_("You are in the lobby, {name}."), { name: m.name }));
  }
}

// The table shown is no longer ours: say so, and go back to the lobby (or, while reading the
// games or the leaderboard, forget it: the Lobby button then leads to the lobby).
function leaveGoneTable(text) {
  delete state.lastV[state.current];
  state.needResume.delete(state.current);
  notify(text, true);
  if (browsing()) {
    state.current = null;
    state.room = null;
  } else {
    showLobby();
  }
}

function onTable(m) {
  const id = m.id;
  if (state.inviting && state.inviting.table === id) state.inviting = null;
  if (state.rewatching === id) {
    state.rewatching = null;
    notify(_("Connected again: you are watching the table again."));
  }
  const previous = state.current === id ? state.room : null;
  // The answer to our resume was the whole table (not a seat's change sent meanwhile).
  const resynced = state.replaying.has(id) && m.resync === true;
  if (state.needResume.has(id)) {
    // Back after a reconnect: ask for the batches we missed (or a full resync).
    state.needResume.delete(id);
    state.resuming.add(id);
    state.replaying.add(id);
    send({ type: "resume", table: id, since: state.lastV[id] });
  } else if (resynced) {
    // The whole table is the answer to our resume: what came meanwhile is in it already.
    state.lastV[id] = m.v;
    state.held.delete(id);
  } else if (!state.resuming.has(id)) {
    state.lastV[id] = Math.max(state.lastV[id] || 0, m.v);
  }
  const opening = state.current !== id;
  state.current = id;
  state.room = { ...m };
  syncClock(state.room.view);
  if (opening) {
    resetGame();
    clearLog();
    $("away-summary").hidden = true; // said of another table
    $("table-chat-log").replaceChildren(...(m.chat || []).map(chatItem));
    // Back at a table after a reconnect while reading the games or the leaderboard: the
    // table waits behind the Lobby button.
    if (!browsing()) showTable();
  }
  renderTable();
  if (state.away && state.away.table === id) sayAway();
  if (resynced) replayed(id);
  announcePaused(previous, m);
  if (previous) announceExtraTime(previous, m);
  if (previous && previous.state !== "playing" && m.state === "playing") gameStarted(m);
  else if (opening && m.state === "playing" && !state.resuming.has(id)) {
    notify(fmt(_("You are at a {game} table; the game is under way."), { game: _(GAME_NAMES[m.game]) }));
  }
}

// A table is paused while the server cannot save its game (docs/security.md). The notice says
// so when it happens; a player who comes back (a reconnect, a reload, a watcher arriving) learns
// it from the resync, so the resync says it too, and says when play went on meanwhile.
function announcePaused(previous, m) {
  const was = Boolean(previous && previous.paused);
  if (Boolean(m.paused) === was || m.state !== "playing") return;
  if (m.paused) notify(_("The server cannot save the game right now: the table is paused until it can."), true);
  else notify(_("The game is saved again: play goes on."), true);
}

// Extra time and relaxed timing are public: everyone at the table hears when they change, and
// again when the game starts (docs/rules/<game>.md#time-to-react).
function announceExtraTime(previous, m) {
  m.seats.forEach((s, i) => {
    const before = (previous.seats || [])[i] || {};
    if (!s.name || before.name !== s.name || Boolean(before.extra_time) === Boolean(s.extra_time)) return;
    notify(s.extra_time
      ? fmt(_("{name} has extra time: the windows that ask them to react are twice as long."), { name: s.name })
      : fmt(_("{name} no longer has extra time."), { name: s.name }));
  });
}

// A player's own extra time is left out: they heard it when it was granted, and a game's start
// is when a listener has the most to hear (through Orca the line took 5 s of a 6 s countdown).
function timeToReactLines(m) {
  const lines = [];
  if ((m.options || {}).timing === "relaxed") lines.push(_("Relaxed timing: every window to react in is twice as long."));
  const names = m.seats.filter((s, i) => s.extra_time && s.name && i !== m.you).map((s) => s.name);
  if (names.length) lines.push(fmt(_("Extra time for {names}: the windows that ask them to react are twice as long."), { names: listOf(names) }));
  return lines;
}

// The start is narrated by the server (burrito: round_start, kittens: deal and the first turn).
function gameStarted(m) {
  resetGame();
  clearLog();
  $("away-summary").hidden = true; // of the game before
  for (const line of timeToReactLines(m)) notify(line);
  const active = document.activeElement;
  if (!active || active === document.body || (active.closest("#table") && !active.closest("form"))) focusHand();
}

// Caught up with a table: the batches that came meanwhile (live ones can overtake the missed
// ones, and come again among them) are taken in order of version, each once (docs/protocol.md).
function onResumed(m) {
  state.resuming.delete(m.table);
  const held = (state.held.get(m.table) || []).sort((a, b) => a.v - b.v);
  state.held.delete(m.table);
  for (const batch of held) onEventsMessage(batch);
  state.lastV[m.table] = Math.max(state.lastV[m.table] || 0, m.v);
  replayed(m.table);
}

function onEventsMessage(m) {
  if (state.resuming.has(m.table)) {
    if (!state.held.has(m.table)) state.held.set(m.table, []);
    state.held.get(m.table).push(m);
    return;
  }
  if (m.table !== state.current || !state.room) return;
  if (m.v <= (state.lastV[m.table] || 0)) return; // already heard
  state.lastV[m.table] = m.v;
  state.room.view = m.view;
  syncClock(m.view);
  const priority = Array.isArray(m.priority) ? m.priority : [];
  if (state.replaying.has(m.table)) {
    // Missed while away: into the history, never said or rung now (their moment has passed).
    for (const text of m.texts || []) logLine(text, false);
  } else {
    if (endsAChapter(m.events || [])) closeChapter();
    say(nopePrompt(m.events || [], m.texts || [], priority), priority, m.summary || null);
    onEvents(m.events || [], priority.some((p) => p === 0));
  }
  renderTable();
}

// What happened to us while away (the server's `away` line): shown in the game area, said once.
function sayAway() {
  const text = state.away.text;
  state.away = null;
  $("away-summary").textContent = text;
  $("away-summary").hidden = false;
  logLine(text, false);
  notify(text);
}

// The missed batches of `table` are in: say what the table asks of us now, once.
function replayed(table) {
  if (!state.replaying.delete(table) || table !== state.current) return;
  announceNow();
}

function onError(m) {
  if (state.inviting) {
    const { table, code } = state.inviting;
    state.inviting = null;
    if (["already_started", "table_full", "seat_taken"].includes(m.code)) {
      notify(m.message);
      send({ type: "spectate", table, code });
      return undefined;
    }
    showAddress(null);
    return notify(fmt(_("The invitation did not work: {reason}"), { reason: m.message }), true);
  }
  if (state.rewatching && state.rewatching === state.current && ["no_such_table", "bad_code"].includes(m.code)) {
    state.rewatching = null;
    return leaveGoneTable(fmt(_("You are no longer watching that table: {reason}"), { reason: m.message }));
  }
  if ((m.code === "bad_query" || m.code === "not_playing") && state.pendingQuery) {
    const fallback = state.pendingQuery;
    state.pendingQuery = null;
    if (m.code === "bad_query") return notify(fallback());
  }
  if (!state.welcomed) {
    $("name-error").textContent = m.message;
    $("enter").hidden = false;
    $("nickname").focus();
    return undefined;
  }
  if (!$("lobby").hidden && ["bad_options", "bad_seats", "bad_bots", "bad_level", "bad_game"].includes(m.code)) {
    $("create-error").textContent = m.message;
  }
  return notify(m.message);
}
