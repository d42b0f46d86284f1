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
export function connect(name) {
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
        ctx.handle(message);
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
