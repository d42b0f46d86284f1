// cardroom's web client: the connection, the lobby, the table shell, settings and help.
// Every sentence about the game comes from the server's narration (`texts`); the page adds
// only its own labels, all through _().

import { loadCards } from "./cards.js";
import { LANGUAGES, N_, _, fmt, lang, listOf, loadCatalog, ngettext, pgettext, storeLanguage, translatePage, wantedLanguage } from "./i18n.js";
import {
  announceNow, askingRows, cardName, focusHand, initGame, isChoosing, keyRows, keysTable, nopePrompt, onCue, onEvents, renderGame,
  holdClock, renderKeysList, resetGame, syncClock,
} from "./game.js";
import { DEFAULTS, bindings, customKeys, keyLabel, keyName, onKeysChanged, remap, resetKeys, useKeys } from "./keys.js";
import { initAccount, showAccountView } from "./account.js";
import { TOKEN, api } from "./api.js";
import { initRatings, showLeaderboard, showPlayer } from "./ratings.js";
import { initRecords, leaveReplay, replayHelpRows, replayState, showGames } from "./records.js";
import { Heartbeat, retryDelay } from "./net.js";
import * as sound from "./sound.js";
import { $, announce, clearLog, el, logLine, pending, quiet, setSpeech, spoken } from "./ui.js";
import { ALERT_PREFS, askToNotify, configureAlerts, setAlert } from "./alerts.js";
import { initInvite, linkedTable, renderInvite, showAddress } from "./invite.js";
import "./layout.js";
import { browsing, onViewChange, showView } from "./views.js";
import { initGuide, onCoach, renderCoach, startGuide } from "./guide.js";

const PROTOCOL = 2;
const NAME = "cardroom.name";
const PREFS = "cardroom.prefs";
// A readable cookie beside the HttpOnly session: "this browser may be logged in", so a guest's
// page never asks GET /api/me for nothing. It lasts as long as the session cookie.
const HINT = "cardroom_account";
const HINT_AGE_S = 30 * 24 * 3600;

function hinted() {
  return document.cookie.split(";").some((part) => part.trim().startsWith(`${HINT}=`));
}

function setHint(on) {
  document.cookie = on ? `${HINT}=1; max-age=${HINT_AGE_S}; path=/; samesite=strict` : `${HINT}=; max-age=0; path=/; samesite=strict`;
}

const state = {
  ws: null,
  welcomed: false,
  player: null,
  name: null,
  tables: new Map(),
  tablePage: 0, // the table list comes in pages (docs/protocol.md): the last one we have, and how many
  tablePages: 1,
  current: null, // the id of the table shown
  room: null, // its last full state (the `table` message), with `view` kept up to date
  lastV: {}, // table id -> last version seen
  resuming: new Set(),
  held: new Map(), // table id -> the events that came while resuming it, taken in order at `resumed`
  replaying: new Set(), // tables whose missed batches are coming: logged, not said (issue 23)
  away: null, // the server's `away` line, until its table's resync is shown
  needResume: new Set(),
  lobbyChat: [],
  retry: 0,
  lostAt: null, // when the connection was lost (performance.now()), until the next welcome
  triedAt: null, // when the last connection was tried, and when the last welcome came (performance.now())
  welcomedAt: null,
  onlineAt: null, // when the browser last said it is back online
  beat: null, // the heartbeat of the connection in use (net.js)
  retryTimer: 0,
  stop: false,
  ref: 0,
  pendingQuery: null,
  account: null, // {id, name} when logged in (the session is an HttpOnly cookie)
  rewatching: null, // the table we watched, asked to watch again after a reconnect
  ending: false, // the account's sessions are being ended (account.js): the socket's close is expected
  invite: null, // {table, code}: the table the page's address named (invite.js), joined once welcomed
  inviting: null, // that invitation ({table, code}) once sent, until the table's state comes
  burritoUntil: 0, // a burrito's catch window: the alert says it until then (performance.now())
};
window.cardroom = { state, spoken, replayState, played: sound.played, quiet, pending };

// ---- options of the create form ---------------------------------------------------------------
const GAME_NAMES = { kittens: N_("Exploding Kittens"), burrito: N_("Throw Throw Burrito") };
const LEVELS = { kittens: ["random", "easy", "normal", "hard", "expert"], burrito: ["easy", "normal", "hard"] };
const LEVEL_NAMES = { random: N_("random"), easy: N_("easy"), normal: N_("normal"), hard: N_("hard"), expert: N_("expert") };
const SEATS = { kittens: [2, 10], burrito: [2, 12] };
const OPTIONS = {
  kittens: [
    ["nope_window_ms", 3000, N_("Nope window (ms)")],
    ["defuse_ms", 10000, N_("Time to defuse (ms)")],
    ["explode_ms", 2500, N_("Time before a kitten explodes without a Defuse (ms)")],
    ["turn_ms", 60000, N_("Turn timer (ms)")],
    ["choose_ms", 15000, N_("Time to choose (ms)")],
    ["bot_think_ms", 1500, N_("Bots' thinking time (ms)")],
    ["expert_think_ms", 200, N_("Expert bots' thinking time (ms)")],
    ["seat_grace_ms", 30000, N_("Seat held for an absent player (ms)")],
  ],
  burrito: [
    ["bruises", 6, N_("Bruises")],
    ["burritos", 2, N_("Burritos")],
    ["pile_size", 15, N_("Personal pile size")],
    ["countdown_ms", 3000, N_("Countdown (ms)")],
    ["simultaneous_call_ms", 500, N_("Simultaneous calls window (ms)")],
    ["flight_ms", 2000, N_("Flight time (ms)")],
    ["flight_speedup_pct", 15, N_("Speed-up per throw (%)")],
    ["flight_min_ms", 1400, N_("Shortest flight (ms)")],
    ["dodge_cooldown_ms", 1500, N_("Dodge cooldown (ms)")],
    ["catch_window_ms", 600, N_("Catch window (ms)")],
    ["tie_ms", 200, N_("Tie margin (ms)")],
    ["duel_beat_ms", 1000, N_("Duel countdown beat (ms)")],
    ["fight_timeout_ms", 15000, N_("Fight time limit (ms)")],
    ["behind_back_ms", 700, N_("Behind the back delay (ms)")],
    ["between_rounds_ms", 5000, N_("Pause between rounds (ms)")],
    ["idle_round_ms", 60000, N_("Round over when no card moves for (ms)")],
    ["seat_grace_ms", 30000, N_("Seat held for an absent player (ms)")],
  ],
};
const VARIANT_NAMES = { small_room: N_("Small room"), two_decks: N_("Two decks") };
const STATE_NAMES = { waiting: N_("waiting"), playing: N_("playing"), over: N_("over") };

function optionLabel(game, name) {
  const spec = (OPTIONS[game] || []).find((o) => o[0] === name);
  return spec ? _(spec[2]) : name;
}

function describeOptions(game, options) {
  const parts = [];
  for (const [name, value] of Object.entries(options && typeof options === "object" ? options : {})) {
    if (name === "extra_time") continue; // each seat says it
    if (name === "timing") {
      if (value === "relaxed") parts.push(_("relaxed timing"));
    } else if (name === "variants") {
      for (const v of Array.isArray(value) ? value : []) parts.push(_(VARIANT_NAMES[v] || String(v)));
    } else {
      parts.push(fmt(_("{option}: {value}"), { option: optionLabel(game, name), value }));
    }
  }
  return parts.length ? parts.join(_("; ")) : _("defaults");
}

// ---- the connection ----------------------------------------------------------------------------
function connect(name) {
  const token = localStorage.getItem(TOKEN);
  const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
  const ws = new WebSocket(url);
  state.ws = ws;
  state.triedAt = performance.now();
  setStatus(state.lostAt === null ? _("Connecting…") : _("Connection lost: reconnecting now."));
  // With a token the page was here before: a try the network does not answer is given up as a
  // silent connection is. A first entry (a nickname) waits for its welcome as long as it takes.
  if (token) listen(ws);
  ws.addEventListener("open", () => {
    state.needResume = new Set(Object.keys(state.lastV));
    const hello = { type: "hello", protocol: PROTOCOL, lang: lang() };
    if (token) hello.token = token;
    else hello.name = name || "";
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (event) => {
    if (state.ws !== ws) return; // a connection given up: what it still brings is not ours
    if (state.beat) state.beat.heard();
    let frame;
    try {
      frame = JSON.parse(event.data);
    } catch (error) {
      return;
    }
    // One message, or (protocol 2) several in an array, handled in order. A message whose
    // handling fails still reports the error, without losing the messages after it.
    for (const message of Array.isArray(frame) ? frame : [frame]) {
      if (!message || typeof message !== "object") continue;
      try {
        handle(message);
      } catch (error) {
        setTimeout(() => {
          throw error;
        });
      }
    }
  });
  ws.addEventListener("close", (event) => {
    if (state.ws !== ws || state.ending) return;
    state.welcomed = false;
    if (event.code === 4002) {
      localStorage.removeItem(TOKEN);
      showEnter(_("Your session has expired: enter with a nickname again."));
      return;
    }
    if (event.code === 4003) {
      setStatus(_("You connected from another window: this one is closed."));
      announce(_("You connected from another window: this one is closed."), true);
      return;
    }
    if (!localStorage.getItem(TOKEN)) return;
    lost(ws);
  });
}

// The heartbeat of `ws` (net.js): pings once welcomed; nothing heard for a while, it is lost.
function listen(ws) {
  if (state.beat) state.beat.stop();
  state.beat = new Heartbeat(
    () => {
      if (state.ws === ws && state.welcomed && ws.readyState === WebSocket.OPEN) {
        state.ref += 1;
        ws.send(JSON.stringify({ type: "ping", id: state.ref }));
      }
    },
    () => lost(ws),
  );
}

// `ws` closed, or went silent: give it up, say so in the game area, and try again (at once,
// then every second for a minute, net.js); the welcome back resumes every table.
function lost(ws) {
  if (state.ws !== ws) return;
  if (state.beat) state.beat.stop();
  state.beat = null;
  state.ws = null;
  state.welcomed = false;
  if (state.lostAt === null) {
    state.lostAt = performance.now();
    state.retry = 0;
    showConnectionNotice(true);
  }
  ws.close();
  retry();
}

function retry() {
  clearTimeout(state.retryTimer);
  const wait = retryDelay(state.retry, performance.now() - state.lostAt);
  state.retry += 1;
  if (wait) setStatus(fmt(ngettext("Connection lost: reconnecting in {s} second.", "Connection lost: reconnecting in {s} seconds.", Math.ceil(wait / 1000)), { s: Math.ceil(wait / 1000) }));
  state.retryTimer = setTimeout(() => connect(), wait);
}

// Back online (the browser says so): try at once, whatever the wait was.
window.addEventListener("online", () => {
  state.onlineAt = performance.now();
  if (state.lostAt === null || state.welcomed) return;
  const trying = state.ws;
  state.ws = null;
  if (trying) trying.close();
  state.retry = Math.max(state.retry, 1);
  clearTimeout(state.retryTimer);
  connect();
});

// The notice in the game area while the connection is lost (the status line says it too, but
// a player looks at the table): shown and said at once, gone when the page is connected again.
function showConnectionNotice(on) {
  const notice = $("connection-notice");
  if (on === !notice.hidden) return;
  notice.hidden = !on;
  if (on) {
    notice.textContent = _("Connection lost: your moves cannot reach the table. Reconnecting…");
    announce(notice.textContent, true);
  } else {
    notice.textContent = "";
  }
}

function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify(message));
    return true;
  }
  announce(_("Not connected: please wait."));
  return false;
}

function act(action) {
  if (!state.current) return;
  state.ref += 1;
  send({ type: "act", table: state.current, action, ref: state.ref });
}

// A rules question (003: T, E, shift+D); answered by the server, or here when it cannot.
function query(what, card, fallback) {
  if (!state.current) return;
  state.pendingQuery = fallback;
  const message = { type: "query", table: state.current, what };
  if (card) message.card = card;
  send(message);
}

function setStatus(text) {
  $("status").textContent = text;
}

// The speech budget (cardroom/narrate/speech.py says it in full): each line's priority is 0
// (needs your answer now: assertive), 1 (concerns you), 2 (changes the game) or 3 (background).
// Every verbosity says 0 to 2 at once; "verbose" says the background too, "normal" the
// server's short summary of it now and then, "brief" none of it (the recap key asks for it).
// The history keeps every line.
const VERBOSITIES = ["normal", "brief", "verbose"];
const BACKGROUND = 3;

function verbosityOf(value) {
  return VERBOSITIES.includes(value) ? value : "normal";
}

function say(texts, priority, summary = null) {
  texts.forEach((text, i) => {
    const p = typeof priority[i] === "number" ? priority[i] : BACKGROUND;
    if (p < BACKGROUND || prefs.verbosity === "verbose") announce(text, p === 0, "event", p === 1);
    logLine(text, p === 0);
  });
  if (summary && prefs.verbosity === "normal") {
    announce(summary, false, "event");
    logLine(summary, false);
  }
}

function notify(text, urgent = false) {
  announce(text, urgent);
}

// ---- messages from the server ------------------------------------------------------------------
function handle(m) {
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
  state.tables.set(id, { ...m });
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

function timeToReactLines(m) {
  const lines = [];
  if ((m.options || {}).timing === "relaxed") lines.push(_("Relaxed timing: every window to react in is twice as long."));
  const names = m.seats.filter((s) => s.extra_time && s.name).map((s) => s.name);
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

function chatItem(line) {
  return el("li", { text: fmt(_("{name}: {text}"), { name: line.from, text: line.text }) });
}

function onChat(m) {
  const item = chatItem(m);
  if (m.table === null || m.table === undefined) {
    $("lobby-chat-log").append(item);
    $("lobby-chat-log").scrollTop = 1e9;
    if (!$("lobby").hidden) notify(fmt(_("{name} says: {text}"), { name: m.from, text: m.text }));
  } else if (m.table === state.current) {
    $("table-chat-log").append(item);
    $("table-chat-log").scrollTop = 1e9;
    notify(fmt(_("{name} says: {text}"), { name: m.from, text: m.text }));
  }
}

// ---- screens -----------------------------------------------------------------------------------
function showEnter(error = "") {
  showView("enter");
  $("name-error").textContent = error;
  $("nickname").value = localStorage.getItem(NAME) || "";
  // Before any attempt there is nothing to be disconnected from.
  setStatus(error ? _("Not connected.") : _("Enter a nickname to connect."));
}

function leaveTable() {
  send({ type: "leave", table: state.current });
  delete state.lastV[state.current];
  showLobby();
  send({ type: "list_tables" });
}

function showLobby(focus = true) {
  state.current = null;
  state.room = null;
  showAddress(null);
  setAlert(null);
  showView("lobby");
  renderTables();
  if (focus) $("lobby-title").focus();
}

function showTable() {
  showView("table");
  $("table-title").focus();
}

// The Lobby button: the table you are at, else the lobby, else the entry form.
function showPlayArea() {
  if (state.current && state.room) {
    showTable();
  } else if (state.welcomed) {
    showView("lobby");
    renderTables();
    $("lobby-title").focus();
  } else {
    showView("enter");
    $("enter-title").focus();
  }
}

// Re-rendering a list must not lose the focus or what was typed in it.
function keepFocus(container, fallback, render) {
  const active = document.activeElement;
  const id = active && container.contains(active) ? active.id : null;
  const values = {};
  for (const input of container.querySelectorAll("input[id]")) values[input.id] = input.value;
  render();
  for (const [key, value] of Object.entries(values)) {
    const input = document.getElementById(key);
    if (input) input.value = value;
  }
  if (id) {
    const again = document.getElementById(id);
    (again || $(fallback)).focus();
  }
}

function renderTables() {
  keepFocus($("tables-body"), "tables-title", renderTableRows);
}

// A summary the page can draw: any other (from a newer or a faulty server) is left out, so that
// one table never stops the page from listing the others.
function readableSummary(t) {
  return Boolean(t) && typeof t.id === "string" && Array.isArray(t.seats) && Number.isInteger(t.free);
}

function renderTableRows() {
  const body = $("tables-body");
  const rows = [...state.tables.values()];
  $("tables").hidden = rows.length === 0;
  $("no-tables").hidden = rows.length > 0;
  $("more-tables").hidden = !(state.tablePage + 1 < state.tablePages);
  const drawn = [];
  for (const t of rows) {
    try {
      drawn.push(tableRow(t));
    } catch (error) {
      console.warn("a table the page cannot show", t && t.id, error);
    }
  }
  body.replaceChildren(...drawn);
}

function tableRow(t) {
  const taken = t.seats.length - t.free;
  const member = t.id === state.current;
  const actions = el("div", { class: "row-actions" });
  let code = null;
  if (t.private) {
    const codeId = `code-${t.id}`;
    code = el("input", { id: codeId, size: 8, autocomplete: "off" });
    actions.append(el("label", { for: codeId, text: fmt(_("Invitation code for the table of {host}"), { host: t.host || t.id }) }), code);
  }
  const codeValue = () => (code ? code.value.trim() || null : null);
  if (t.state === "waiting" && t.free > 0 && !member) {
    actions.append(el("button", { type: "button", id: `join-${t.id}`, onclick: () => send({ type: "join", table: t.id, code: codeValue() }) }, fmt(_("Join the table of {host}"), { host: t.host || t.id })));
  }
  if (!member) {
    actions.append(el("button", { type: "button", id: `watch-${t.id}`, class: "secondary", onclick: () => send({ type: "spectate", table: t.id, code: codeValue() }) }, fmt(_("Watch the table of {host}"), { host: t.host || t.id })));
  }
  const game = _(GAME_NAMES[t.game] || t.game);
  return el(
    "tr",
    {},
    el("td", { "data-label": _("Game") }, t.private ? fmt(_("{game} (private)"), { game }) : game),
    el("td", { "data-label": _("Options") }, describeOptions(t.game, t.options)),
    el("td", { "data-label": _("Seats") }, fmt(_("{taken} taken, {free} free"), { taken, free: t.free })),
    el("td", { "data-label": _("State") }, _(STATE_NAMES[t.state] || t.state)),
    el("td", { "data-label": _("Spectators") }, String(t.spectators)),
    el("td", { "data-label": _("Actions") }, actions),
  );
}

function renderTable() {
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

function burritoAlert() {
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

// Filled again when the game or the language changes (the labels are in the page's language);
// a level already chosen stays chosen when only the language changed.
function fillLevels(select, game) {
  const levels = LEVELS[game] || [];
  const filled = `${game} ${lang()}`;
  if (select.dataset.filled === filled) return;
  const keep = select.dataset.filled && select.dataset.filled.split(" ")[0] === game ? select.value : "normal";
  select.dataset.filled = filled;
  select.replaceChildren(...levels.map((l) => el("option", { value: l, text: _(LEVEL_NAMES[l]) })));
  select.value = levels.includes(keep) ? keep : "normal";
}

// ---- the create form ---------------------------------------------------------------------------
function renderCreateForm() {
  const game = $("create-game").value;
  const [low, high] = SEATS[game];
  const seats = $("create-seats");
  seats.min = String(low);
  seats.max = String(high);
  $("create-bots").max = String(high - 1);
  fillLevels($("create-level"), game);
  $("variants").hidden = game !== "burrito";
  const box = $("advanced-fields");
  box.replaceChildren(
    ...OPTIONS[game].map(([name, value, label]) => {
      const id = `opt-${name}`;
      return el("div", { class: "field" },
        el("label", { for: id, text: fmt(_("{label}, default {value}"), { label: _(label), value }) }),
        el("input", { id, name, type: "number", min: "0", inputmode: "numeric" }));
    }),
  );
}

function createTable(event) {
  event.preventDefault();
  const game = $("create-game").value;
  const options = {};
  for (const input of $("advanced-fields").querySelectorAll("input")) {
    if (input.value.trim() !== "") options[input.name] = Number(input.value);
  }
  if (game === "burrito") {
    const variants = [...$("variants").querySelectorAll("input:checked")].map((i) => i.value);
    if (variants.length) options.variants = variants;
  }
  if ($("create-timing").value === "relaxed") options.timing = "relaxed";
  $("create-error").textContent = "";
  send({
    type: "create_table",
    game,
    seats: Number($("create-seats").value),
    bots: Number($("create-bots").value),
    bot_level: $("create-level").value,
    private: $("create-private").checked,
    options,
  });
}

// ---- settings and help -------------------------------------------------------------------------
let prefs = { volume: 0.6, muted: false, speech: false, verbosity: "normal", always_pass: false, ...ALERT_PREFS };
try {
  prefs = { ...prefs, ...(JSON.parse(localStorage.getItem(PREFS) || "{}") || {}) };
} catch (error) {
  // keep the defaults
}

function applyPrefs(save = true) {
  sound.configure({ volume: prefs.volume, muted: prefs.muted });
  setSpeech(prefs.speech);
  configureAlerts(alertPrefs(prefs));
  localStorage.setItem(PREFS, JSON.stringify(prefs));
  if (save) saveProfileSoon();
}

// ---- accounts and the profile ------------------------------------------------------------------
// A logged-in player's settings live in their profile (PUT /api/profile, debounced); a guest's
// stay in this browser's localStorage only.
const SAVE_DELAY_MS = 400;
let saveTimer = null;
let saving = Promise.resolve();

function profileNow() {
  return {
    lang: lang(),
    volume: Math.round(Math.max(0, Math.min(1, Number(prefs.volume) || 0)) * 100) / 100,
    muted: Boolean(prefs.muted),
    speech: Boolean(prefs.speech),
    verbosity: verbosityOf(prefs.verbosity),
    keys: customKeys(),
    ...alertPrefs(prefs),
    always_pass: Boolean(prefs.always_pass),
  };
}

// The turn alerts' settings of `source` (prefs or a profile), each on or off.
function alertPrefs(source) {
  const out = {};
  for (const [name, on] of Object.entries(ALERT_PREFS)) out[name] = typeof source[name] === "boolean" ? source[name] : on;
  return out;
}

function saveProfileSoon() {
  if (!state.account) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveProfileNow, SAVE_DELAY_MS);
}

function saveProfileNow() {
  clearTimeout(saveTimer);
  saveTimer = null;
  if (!state.account) return saving;
  const body = profileNow();
  saving = saving.then(async () => {
    const reply = await api("PUT", "/api/profile", body);
    if (!reply.ok) announce(reply.data.message, true);
    window.cardroom.profileSaved = (window.cardroom.profileSaved || 0) + 1;
  });
  return saving;
}

// Leaving the page with a save still waiting: send it anyway (keepalive outlives the page).
function flushProfileOnLeave() {
  if (!state.account || saveTimer === null) return;
  clearTimeout(saveTimer);
  saveTimer = null;
  fetch(`/api/profile?lang=${encodeURIComponent(lang())}`, {
    method: "PUT", credentials: "same-origin", keepalive: true,
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(profileNow()),
  }).catch(() => undefined);
}

// The profile's settings on this page (nothing is saved back: they came from there).
function applyProfile(profile) {
  if (!profile) return;
  prefs = {
    ...prefs,
    volume: typeof profile.volume === "number" ? profile.volume : prefs.volume,
    muted: typeof profile.muted === "boolean" ? profile.muted : prefs.muted,
    speech: typeof profile.speech === "boolean" ? profile.speech : prefs.speech,
    verbosity: verbosityOf(profile.verbosity),
    ...alertPrefs(profile),
    always_pass: typeof profile.always_pass === "boolean" ? profile.always_pass : prefs.always_pass,
  };
  applyPrefs(false);
  useKeys(profile.keys || {});
  if (profile.lang && LANGUAGES.some(([code]) => code === profile.lang)) storeLanguage(profile.lang);
}

function showAccount() {
  const account = state.account;
  $("account-status").hidden = !account;
  $("account-status").textContent = account ? fmt(_("Logged in as {name}"), { name: account.name }) : "";
  $("logout-btn").hidden = !account;
  $("nav-me-item").hidden = !account;
  $("nav-account-item").hidden = !account;
}

function enterMode(mode) {
  $("name-form").hidden = mode !== "guest";
  $("login-form").hidden = mode !== "login";
  $("register-form").hidden = mode !== "register";
}

// Enter the lobby as `name` with a fresh websocket player (no token of an earlier one).
function enterAs(name) {
  localStorage.removeItem(TOKEN);
  if (state.ws) {
    const old = state.ws;
    state.ws = null;
    old.close();
  }
  state.lastV = {};
  state.current = null;
  state.room = null;
  connect(name);
}

async function submitAccount(kind) {
  const prefix = kind === "login" ? "login" : "register";
  const nameInput = $(`${prefix}-name`);
  const passwordInput = $(`${prefix}-password`);
  const error = $(`${prefix}-error`);
  const body = { name: nameInput.value.trim(), password: passwordInput.value };
  if (kind === "register") body.lang = lang();
  error.textContent = "";
  const reply = await api("POST", kind === "login" ? "/api/login" : "/api/register", body);
  if (!reply.ok) {
    error.textContent = reply.data.message;
    announce(reply.data.message, true);
    const code = reply.data.error;
    const field = ["bad_name", "name_taken", "name_reserved"].includes(code) || (code === "bad_request" && !body.name) ? nameInput : passwordInput;
    if (field === passwordInput && code === "wrong_login") passwordInput.select();
    field.focus();
    return;
  }
  passwordInput.value = "";
  state.account = reply.data.account;
  setHint(true);
  if (kind === "login") {
    applyProfile(reply.data.profile);
    if (lang() !== wantedLanguage()) await switchLanguage(wantedLanguage());
  } else {
    // A new account starts with the settings chosen on this page.
    await saveProfileNow();
  }
  showAccount();
  announce(fmt(_("Logged in as {name}"), { name: state.account.name }));
  enterAs(state.account.name);
}

async function logout() {
  clearTimeout(saveTimer);
  await saving;
  await api("POST", "/api/logout");
  loggedOut(_("You are logged out."));
}

// The session ended (a logout here or everywhere, a deleted account): back to the entry form.
function loggedOut(message) {
  clearTimeout(saveTimer);
  saveTimer = null;
  state.account = null;
  setHint(false);
  leaveReplay();
  if (state.ws) {
    const old = state.ws;
    state.ws = null;
    old.close();
  }
  state.welcomed = false;
  state.lastV = {};
  state.current = null;
  state.room = null;
  localStorage.removeItem(TOKEN);
  showAccount();
  showEnter();
  announce(message);
  $("enter-title").focus();
}

let capturing = null;

function renderKeymapEditor() {
  const box = $("keymap-editor");
  box.replaceChildren();
  for (const game of Object.keys(DEFAULTS)) {
    const body = el("tbody");
    for (const b of bindings(game)) {
      const button = el("button", { type: "button", class: "secondary", "aria-label": fmt(_("Change the key for: {what}"), { what: _(b.help) }) }, _("Change"));
      button.addEventListener("click", () => {
        capturing = { game, action: b.action, button };
        button.textContent = _("Press a key…");
        announce(_("Press the new key, or Escape to keep the old one."), true);
      });
      body.append(el("tr", {}, el("td", { text: _(b.help) }), el("td", {}, el("kbd", { text: keyLabel(b.key) })), el("td", {}, button)));
    }
    box.append(el("table", { class: "keys-table" }, el("caption", { text: _(GAME_NAMES[game]) }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: _("Action") }), el("th", { scope: "col", text: _("Key") }), el("th", { scope: "col", text: _("Change") }))), body));
  }
}

function onCaptureKey(event) {
  if (!capturing) return;
  const key = keyName(event);
  if (!key) return;
  event.preventDefault();
  event.stopPropagation();
  const { game, action } = capturing;
  capturing = null;
  if (key !== "escape") {
    remap(game, action, key);
    announce(fmt(_("New key: {key}."), { key: keyLabel(key) }));
  }
  renderKeymapEditor();
  renderKeysList();
}

function openSettings() {
  $("volume").value = String(Math.round(prefs.volume * 100));
  $("mute").checked = prefs.muted;
  $("speech").checked = prefs.speech;
  $(`verbosity-${verbosityOf(prefs.verbosity)}`).checked = true;
  for (const name of Object.keys(ALERT_PREFS)) $(name.replace("_", "-")).checked = Boolean(prefs[name]);
  $("always-pass").checked = Boolean(prefs.always_pass);
  renderKeymapEditor();
  $("settings").showModal();
}

function helpRows(where) {
  const game = state.room ? state.room.game : null;
  if (where === "chat") {
    return [[keyLabel("enter"), _("Send the message")], [keyLabel("tab"), _("Next control")], ["", _("Game keys are off while you type.")]];
  }
  if (where === "chooser") {
    return [[_("Arrows"), _("Choose")], [keyLabel("enter"), _("Confirm")], [keyLabel("escape"), _("Cancel")], ["1-9", _("Jump to an option")], ...(game ? askingRows(game) : [])];
  }
  if (where === "log") {
    return [[keyLabel("pageup"), _("Previous entry of the history")], [keyLabel("pagedown"), _("Next entry of the history")], [keyLabel("escape"), _("Back to your hand")], ...(game ? keyRows(game) : [])];
  }
  if (where === "replay") {
    return replayHelpRows(keyLabel);
  }
  if (where === "game" && game) {
    return [[_("Up and down arrows"), _("Move through your hand")], ...keyRows(game), [keyLabel("escape"), _("Back to your hand")]];
  }
  return [[keyLabel("tab"), _("Next control")], [fmt(_("{shift}+{tab}"), { shift: keyLabel("shift"), tab: keyLabel("tab") }), _("Previous control")], [keyLabel("f1"), _("These keys")], ["", _("The game keys work in the game area, on your hand.")]];
}

function openHelp() {
  const active = document.activeElement;
  let where = "page";
  if (active && active.closest) {
    if (active.closest("#chooser")) where = "chooser";
    else if (active.closest("#log")) where = "log";
    else if (active.closest(".chat-form")) where = "chat";
    else if (active.closest("#game")) where = "game";
    else if (active.closest("#replay")) where = "replay";
  }
  const titles = { page: _("Keys on this page"), game: _("Keys in the game area"), log: _("Keys in the history"), chat: _("Keys in the chat box"), chooser: _("Keys in this choice"), replay: _("Keys in the replay") };
  $("help-title").textContent = titles[where];
  $("help-body").replaceChildren(keysTable(helpRows(where), titles[where]));
  const dialog = $("help");
  dialog.dataset.back = "";
  state.helpBack = active;
  // Not modal: a modal dialog makes the rest of the page inert, the live regions too, and a
  // screen reader then says nothing of the game while the player's clock runs (issue 24). The
  // game keys still stop at the dialog (isTyping), and Escape closes it (keydown below).
  if (!dialog.open) dialog.show();
  $("help-title").focus();
}

// ---- language and rules ------------------------------------------------------------------------
// A language picker in the nickname form and in Settings; the choice is kept in localStorage and
// sent as hello.lang. The server narrates in it; changing it while connected reloads the page,
// which enters again with the same token and the new language.
function languagePicker(id) {
  const select = el("select", { id, name: "lang" },
    ...LANGUAGES.map(([code, name]) => el("option", { value: code, lang: code, text: name })));
  select.value = lang();
  select.addEventListener("change", () => chooseLanguage(select.value));
  return el("div", { class: "field" }, el("label", { for: id, "data-i18n": "", text: "Language" }), select);
}

async function chooseLanguage(code) {
  if (code === lang()) return;
  storeLanguage(code);
  if (state.account) {
    const body = { ...profileNow(), lang: code };
    clearTimeout(saveTimer);
    await saving;
    await api("PUT", "/api/profile", body);
  }
  if (state.ws && state.welcomed) {
    location.reload();
    return;
  }
  await switchLanguage(code);
}

async function switchLanguage(code) {
  await loadCatalog(code);
  await loadCards(lang());
  translatePage();
  renderCreateForm();
  for (const select of document.querySelectorAll("select[name=lang]")) select.value = lang();
}

async function showRules(game) {
  $("rules-game").value = game;
  const body = $("rules-body");
  try {
    const reply = await fetch(`/help/${encodeURIComponent(game)}.json?lang=${encodeURIComponent(lang())}`);
    if (!reply.ok) throw new Error(String(reply.status));
    const page = await reply.json();
    $("rules-title").textContent = page.title;
    const parts = [];
    for (const section of page.sections) {
      parts.push(el("h3", { text: section.title }));
      for (const paragraph of section.paragraphs) parts.push(el("p", { text: paragraph }));
    }
    body.replaceChildren(...parts);
  } catch (error) {
    body.replaceChildren(el("p", { class: "error", text: _("The rules could not be loaded: try again in a moment.") }));
  }
}

function openRules() {
  const game = state.room ? state.room.game : $("create-game").value || "kittens";
  const dialog = $("rules");
  state.rulesBack = document.activeElement;
  if (!dialog.open) dialog.showModal();
  showRules(game).then(() => $("rules-title").focus());
}

function buildLanguageAndRules() {
  $("enter-mode").before(languagePicker("lang-enter"));
  const settings = $("settings-form");
  settings.insertBefore(languagePicker("lang-settings"), settings.querySelector("button[type=submit]"));

  const button = el("button", { type: "button", id: "open-rules", "data-i18n": "", text: "Rules" });
  $("open-settings").before(button);
  button.addEventListener("click", openRules);

  const gameSelect = el("select", { id: "rules-game" },
    el("option", { value: "kittens", "data-i18n": "", text: "Exploding Kittens" }),
    el("option", { value: "burrito", "data-i18n": "", text: "Throw Throw Burrito" }));
  gameSelect.addEventListener("change", () => showRules(gameSelect.value));
  // The rules end with the guided game of the game shown, for who would rather learn by playing.
  const guideButton = el("button", { type: "button", id: "rules-guide", "data-i18n": "", text: "Learn it in a guided game" });
  guideButton.addEventListener("click", () => {
    const game = gameSelect.value;
    $("rules").close();
    if (state.current) leaveTable();
    startGuide(game);
  });
  const dialog = el("dialog", { id: "rules", "aria-labelledby": "rules-title" },
    el("h2", { id: "rules-title", tabindex: "-1", "data-i18n": "", text: "Rules" }),
    el("div", { class: "field" }, el("label", { for: "rules-game", "data-i18n": "", text: "Game" }), gameSelect),
    el("div", { id: "rules-body" }),
    el("p", {}, guideButton),
    el("form", { method: "dialog" }, el("button", { type: "submit", "data-i18n": "", text: "Close" })));
  document.body.append(dialog);
  dialog.addEventListener("close", () => {
    if (state.rulesBack && state.rulesBack.isConnected) state.rulesBack.focus();
  });
}

// The texts of the elements built above, for the extraction (the page reads them as data-i18n).
void [N_("Language"), N_("Rules"), N_("Game"), N_("Close"), N_("Learn it in a guided game"), N_("Exploding Kittens"), N_("Throw Throw Burrito")];

// ---- start -------------------------------------------------------------------------------------
async function main() {
  // Handlers first (a form must never submit itself while the catalog loads), then the texts.
  initGame({ state, send, act, query, openHelp });
  initRecords({ account: () => state.account, openPlayer: (name) => showPlayer(name) });
  initRatings({ account: () => state.account });
  initAccount({ account: () => state.account, ending: (on) => { state.ending = on; }, loggedOut });
  buildLanguageAndRules();
  applyPrefs(false);
  onKeysChanged(saveProfileSoon);
  window.addEventListener("pagehide", flushProfileOnLeave);
  onViewChange((name, before) => {
    if (before === "replay" && name !== "replay") leaveReplay();
  });

  document.addEventListener("keydown", (event) => {
    sound.unlock();
    if (capturing) return onCaptureKey(event);
    if (keyName(event) === "f1") {
      event.preventDefault();
      openHelp();
    }
    return undefined;
  }, true);
  document.addEventListener("pointerdown", () => sound.unlock());
  $("help").addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    event.stopPropagation();
    $("help").close();
  });
  $("help").addEventListener("close", () => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (lost && state.helpBack && state.helpBack.isConnected) state.helpBack.focus();
  });

  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("nickname").value.trim();
    if (!name) {
      $("name-error").textContent = _("Choose a nickname of 1 to 24 printable characters.");
      return;
    }
    $("name-error").textContent = "";
    localStorage.removeItem(TOKEN);
    if (state.ws) {
      const old = state.ws;
      state.ws = null;
      old.close();
    }
    connect(name);
  });
  for (const radio of document.querySelectorAll("input[name=enter-mode]")) {
    radio.addEventListener("change", () => enterMode(radio.value));
  }
  $("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitAccount("login");
  });
  $("register-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitAccount("register");
  });
  $("logout-btn").addEventListener("click", logout);
  $("nav-lobby").addEventListener("click", showPlayArea);
  $("nav-games").addEventListener("click", () => showGames());
  $("nav-leaderboard").addEventListener("click", () => showLeaderboard());
  $("nav-me").addEventListener("click", () => {
    if (state.account) showPlayer(state.account.name);
  });
  $("nav-account").addEventListener("click", () => showAccountView());
  for (const radio of document.querySelectorAll("input[name=verbosity]")) {
    radio.addEventListener("change", () => {
      if (!radio.checked) return;
      prefs.verbosity = verbosityOf(radio.value);
      applyPrefs();
    });
  }
  for (const name of Object.keys(ALERT_PREFS)) {
    const box = $(name.replace("_", "-"));
    box.addEventListener("change", async () => {
      prefs[name] = box.checked;
      if (name === "turn_notify" && box.checked && !(await askToNotify())) {
        announce(_("The browser does not allow notifications for this page: the title and the vibration still say it."), true);
      }
      applyPrefs();
    });
  }
  $("always-pass").addEventListener("change", () => {
    prefs.always_pass = $("always-pass").checked;
    applyPrefs();
    const r = state.room;
    if (r && r.game === "kittens" && r.state === "playing" && r.you !== null) act({ do: "always_pass", on: prefs.always_pass });
  });
  for (const game of Object.keys(GAME_NAMES)) {
    $(`play-now-${game}`).addEventListener("click", () => send({ type: "play_now", game }));
  }
  initInvite();
  $("reclaim-btn").addEventListener("click", () => send({ type: "join", table: state.current }));
  $("rematch-now-btn").addEventListener("click", () => send({ type: "start", table: state.current }));
  $("create-game").addEventListener("change", renderCreateForm);
  $("create-form").addEventListener("submit", createTable);
  $("lobby-chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("lobby-chat-input");
    if (input.value.trim() && send({ type: "chat", text: input.value.trim() })) input.value = "";
  });
  $("table-chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("table-chat-input");
    if (input.value.trim() && state.current && send({ type: "chat", table: state.current, text: input.value.trim() })) input.value = "";
  });
  $("start-btn").addEventListener("click", () => send({ type: "start", table: state.current }));
  $("rematch-btn").addEventListener("click", () => {
    const ready = $("rematch-btn").getAttribute("aria-pressed") !== "true";
    send({ type: "rematch", table: state.current, ready });
  });
  $("leave-btn").addEventListener("click", leaveTable);
  initGuide({ send, leave: leaveTable, current: () => state.room, hold: holdClock });
  $("add-bot-btn").addEventListener("click", () => send({ type: "add_bot", table: state.current, level: $("add-bot-level").value }));
  $("more-tables").addEventListener("click", () => send({ type: "list_tables", page: state.tablePage + 1 }));
  $("open-settings").addEventListener("click", openSettings);
  $("volume").addEventListener("input", () => {
    prefs.volume = Number($("volume").value) / 100;
    applyPrefs();
  });
  $("mute").addEventListener("change", () => {
    prefs.muted = $("mute").checked;
    applyPrefs();
  });
  $("speech").addEventListener("change", () => {
    prefs.speech = $("speech").checked;
    applyPrefs();
  });
  $("reset-keys").addEventListener("click", () => {
    resetKeys();
    renderKeymapEditor();
    renderKeysList();
    announce(_("The default keys are back."));
  });

  state.invite = linkedTable();
  // A logged-in player (the session cookie) enters directly, with the settings of their profile.
  const me = hinted() ? await api("GET", "/api/me") : null;
  if (me && me.ok && me.data.account) {
    state.account = me.data.account;
    setHint(true); // each day of use renews the session: the hint too
    applyProfile(me.data.profile);
  } else if (me) {
    setHint(false);
  }
  await loadCatalog(wantedLanguage());
  await loadCards(lang());
  translatePage();
  for (const select of document.querySelectorAll("select[name=lang]")) select.value = lang();
  renderCreateForm();
  showAccount();
  if (state.account) {
    $("enter").hidden = true;
    connect(state.account.name);
  } else if (localStorage.getItem(TOKEN)) {
    $("enter").hidden = true;
    connect();
  } else if (!state.ws) {
    showEnter();
  }
  window.cardroom.ready = true;
}

// Used by tests and by the card names in messages the page writes itself.
window.cardroom.cardName = cardName;
window.cardroom.isChoosing = isChoosing;

main();
