// The connection to the server: one websocket, its heartbeat (net.js), and the reconnection when
// it is lost (at once, then every second for a minute); what the page sends goes through here.
// What comes is handled by messages.js, given by app.js (ctx), which imports this module.

import { TOKEN } from "./api.js";
import { _, fmt, lang, ngettext } from "./i18n.js";
import { Heartbeat, retryDelay } from "./net.js";
import { $, announce } from "./ui.js";
import { state } from "./session.js";

const PROTOCOL = 2;

let ctx = null; // { handle: (message) => void, showEnter: (error) => void }

export function initConnection(context) {
  ctx = context;
}

// ---- the connection ----------------------------------------------------------------------------
const SITE = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}`;

export function connect(name) {
  const token = localStorage.getItem(TOKEN);
  const ws = new WebSocket(`${SITE}/ws`);
  state.ws = ws;
  state.triedAt = performance.now();
  setStatus(state.lostAt === null ? _("Connecting…") : _("Connection lost: reconnecting now."));
  // With a token the page was here before: a try the network does not answer is given up as a
  // silent connection is. A first entry (a nickname) waits for its welcome as long as it takes.
  if (token) listen(ws);
  ws.addEventListener("open", () => {
    state.needResume = new Set(Object.keys(state.lastV));
    ws.send(JSON.stringify(hello(token, name)));
  });
  ws.addEventListener("message", (event) => deliver(ws, framed(event.data)));
  ws.addEventListener("close", (event) => closed(ws, event));
}

// `ws` closed: nothing to do for a connection given up or closed on purpose (a move closes the
// one it left once the new one is welcome); else why it closed decides.
function closed(ws, event) {
  if (state.ws !== ws || state.ending || state.moving) return;
  state.welcomed = false;
  if (event.code === 4002) {
    localStorage.removeItem(TOKEN);
    ctx.showEnter(_("Your session has expired: enter with a nickname again."));
    return;
  }
  if (event.code === 4003) {
    setStatus(_("You connected from another window: this one is closed."));
    announce(_("You connected from another window: this one is closed."), true);
    return;
  }
  if (!localStorage.getItem(TOKEN)) return;
  lost(ws);
}

// The page says it follows a `move`: a cluster's node sends a player at one table only of
// another node there (docs/deploy.md, "Players at their table's node").
function hello(token, name) {
  const out = { type: "hello", protocol: PROTOCOL, lang: lang(), moves: true };
  if (token) out.token = token;
  else out.name = name || "";
  return out;
}

// One frame's messages: one message, or (protocol 2) several in an array.
function framed(data) {
  let frame;
  try {
    frame = JSON.parse(data);
  } catch (error) {
    return [];
  }
  return (Array.isArray(frame) ? frame : [frame]).filter((m) => m && typeof m === "object");
}

// What `ws` brought, handled in order if it is the page's connection (a connection given up,
// or one a move has not yet switched to, brings nothing that is ours): a message whose handling
// fails still reports the error, without losing the messages after it.
function deliver(ws, messages) {
  if (state.ws !== ws) return;
  if (state.beat) state.beat.heard();
  for (const message of messages) {
    try {
      ctx.handle(message);
    } catch (error) {
      setTimeout(() => {
        throw error;
      });
    }
  }
}

// Where a `move` may send the page: a path of this site (the proxy routes it to the node), or
// a websocket address of this very site (the page opens no websocket elsewhere: its
// Content-Security-Policy would refuse it, docs/security.md).
function moveTarget(url) {
  if (typeof url !== "string") return null;
  if (url.startsWith("/") && !url.startsWith("//")) return `${SITE}${url}`;
  try {
    const target = new URL(url);
    return target.protocol === new URL(SITE).protocol && target.host === location.host ? target.href : null;
  } catch (error) {
    return null;
  }
}

// A `move`: the page connects to its table's node with its token, without a word to the player;
// the connection here goes on carrying the game until the new one is welcome (the node left
// then closes it, as when anyone connects twice). A move that does not come through within
// MOVE_MS is given up: the page plays on through the relay.
const MOVE_MS = 10000;

export function follow(m) {
  const url = moveTarget(m.url);
  const token = localStorage.getItem(TOKEN);
  if (!url || !token || !state.welcomed || state.moving) return;
  const ws = new WebSocket(url);
  const from = state.ws;
  state.moving = ws;
  const giveUp = setTimeout(() => ws.close(), MOVE_MS);
  ws.addEventListener("open", () => ws.send(JSON.stringify(hello(token, ""))));
  ws.addEventListener("message", (event) => {
    const messages = framed(event.data);
    if (state.moving === ws) {
      // Until its welcome the new connection says nothing the old one does not.
      if (!messages.some((m) => m.type === "welcome")) return;
      clearTimeout(giveUp);
      state.moving = null;
      state.ws = ws;
      state.needResume = new Set(Object.keys(state.lastV));
      listen(ws);
      if (from) from.close();
    }
    deliver(ws, messages);
  });
  ws.addEventListener("close", (event) => {
    if (state.moving !== ws) return closed(ws, event);
    clearTimeout(giveUp);
    state.moving = null;
    // The node left may have closed the old connection meanwhile: reconnect as after any loss.
    if (from && from.readyState !== WebSocket.OPEN && state.ws === from) lost(from);
  });
}

// The heartbeat of `ws` (net.js): pings once welcomed; nothing heard for a while, it is lost.
export function listen(ws) {
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
  // While the browser says it has no network, a try can only fail (and Chromium logs each as
  // an error): wait on, and the "online" event below tries at once.
  state.retryTimer = setTimeout(() => (navigator.onLine === false ? retry() : connect()), wait);
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
export function showConnectionNotice(on) {
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

export function send(message) {
  if (state.ws && state.ws.readyState === WebSocket.OPEN) {
    state.ws.send(JSON.stringify(message));
    return true;
  }
  announce(_("Not connected: please wait."));
  return false;
}

export function act(action) {
  if (!state.current) return;
  state.ref += 1;
  send({ type: "act", table: state.current, action, ref: state.ref });
}

// A rules question (003: T, E, shift+D); answered by the server, or here when it cannot.
export function query(what, card, fallback) {
  if (!state.current) return;
  state.pendingQuery = fallback;
  const message = { type: "query", table: state.current, what };
  if (card) message.card = card;
  send(message);
}

export function setStatus(text) {
  $("status").textContent = text;
}

export function notify(text, urgent = false) {
  announce(text, urgent);
}
