// Turn alerts (issue 23): a player who looks at another tab or app learns that the game waits
// for them. The tab's title and favicon say it; a notification, when the page is hidden and
// the player allowed it; a short vibration on phones. Each is a setting kept in the profile.

import { _, fmt } from "./i18n.js";

export const ALERT_PREFS = { turn_title: true, turn_notify: false, turn_vibrate: true };

let prefs = { ...ALERT_PREFS };
let shown = null; // the alert the title says now: "turn", "burrito" or null
let plainIcon = null;
const DOT = "#d2042d";

export function configureAlerts(settings) {
  prefs = { ...ALERT_PREFS, ...settings };
  if (!prefs.turn_title) draw(null);
  else draw(shown);
}

function sentence(kind) {
  return kind === "turn" ? _("Your turn") : _("A burrito is coming at you");
}

// The favicon with a red dot, drawn on a canvas (no picture fetched).
function dotIcon() {
  const canvas = document.createElement("canvas");
  canvas.width = 32;
  canvas.height = 32;
  const g = canvas.getContext("2d");
  if (!g) return null;
  g.fillStyle = "#1b5e20";
  g.fillRect(2, 6, 20, 24);
  g.fillStyle = DOT;
  g.beginPath();
  g.arc(22, 10, 9, 0, 2 * Math.PI);
  g.fill();
  return canvas.toDataURL("image/png");
}

function draw(kind) {
  const icon = document.querySelector("link[rel=icon]");
  if (icon && plainIcon === null) plainIcon = icon.getAttribute("href");
  const base = _("cardroom");
  if (kind && prefs.turn_title) {
    document.title = fmt(_("● {alert} — {site}"), { alert: sentence(kind), site: base });
    const url = dotIcon();
    if (icon && url) icon.setAttribute("href", url);
  } else {
    document.title = base;
    if (icon && plainIcon !== null) icon.setAttribute("href", plainIcon);
  }
}

// What the game asks of this player now (`kind`: "turn", "burrito" or null). A new alert
// also vibrates, and notifies when the page is hidden.
export function setAlert(kind) {
  if (kind === shown) return;
  const fresh = kind !== null;
  shown = kind;
  draw(kind);
  if (!fresh) return;
  if (prefs.turn_vibrate && typeof navigator.vibrate === "function") {
    try {
      navigator.vibrate(200);
    } catch (error) {
      // a browser that refuses it without a gesture: the title still says it
    }
  }
  if (prefs.turn_notify && document.hidden && typeof Notification !== "undefined" && Notification.permission === "granted") {
    try {
      new Notification(_("cardroom"), { body: sentence(kind), tag: "cardroom-turn" }); // eslint-disable-line no-new
    } catch (error) {
      // some phones only notify from a service worker: the title and the vibration remain
    }
  }
}

// The player turned notifications on: the browser asks them once.
export async function askToNotify() {
  if (typeof Notification === "undefined") return false;
  if (Notification.permission === "default") await Notification.requestPermission();
  return Notification.permission === "granted";
}
