// The connection's health as the page can time it (issue 23). A phone's connection often goes
// silent rather than closed (a proxy, a lift, a network switched): the socket still says open
// and no close comes for a minute. So the page sends its own heartbeat (`ping`, answered by the
// server's `pong`, docs/protocol.md) and counts anything heard as a sign of life: nothing for
// SILENT_MS and the connection is given up, said so in the game area, and tried again.

export const HEARTBEAT_MS = 700; // a ping this often while connected
export const SILENT_MS = 2000; // nothing heard for this long (three pings unanswered): the connection is gone
const CHECK_MS = 250;
const FAST_FOR_MS = 60000; // for the first minute after a loss, a try every FAST_MS
const FAST_MS = 1000;
const SLOW_MS = 15000; // then backing off to this

// Watches one socket: `ping()` sends a heartbeat, `silent()` is called once when nothing came.
export class Heartbeat {
  constructor(ping, silent) {
    this.ping = ping;
    this.silent = silent;
    this.heardAt = performance.now();
    this.sentAt = 0;
    this.timer = setInterval(() => this.check(), CHECK_MS);
  }

  heard() {
    this.heardAt = performance.now();
  }

  check() {
    const now = performance.now();
    if (now - this.heardAt > SILENT_MS) {
      this.stop();
      this.silent();
      return;
    }
    if (now - this.sentAt >= HEARTBEAT_MS) {
      this.sentAt = now;
      this.ping();
    }
  }

  stop() {
    clearInterval(this.timer);
  }
}

// How long to wait before try number `attempt` (0: the first after the loss) when the
// connection was lost `sinceMs` ago: at once, then every FAST_MS for a minute, then longer.
// (A try the network does not answer is given up after SILENT_MS, and the next one made then.)
export function retryDelay(attempt, sinceMs) {
  if (attempt === 0) return 0;
  if (sinceMs < FAST_FOR_MS) return FAST_MS;
  const minutes = Math.floor((sinceMs - FAST_FOR_MS) / FAST_FOR_MS) + 1;
  return Math.min(SLOW_MS, FAST_MS * 2 ** (minutes + 1));
}
