// The player's settings (sound, speech, verbosity, the turn alerts, always pass): kept in this
// browser, and a logged-in player's in their profile too, saved a moment after each change.
// And what the verbosity lets be said of the game (say).

import { api } from "./api.js";
import { LANGUAGES, lang, storeLanguage } from "./i18n.js";
import { customKeys, useKeys } from "./keys.js";
import * as sound from "./sound.js";
import { announce, logLine, setSpeech } from "./ui.js";
import { ALERT_PREFS, configureAlerts } from "./alerts.js";
import { state } from "./session.js";

const PREFS = "cardroom.prefs";

// The speech budget (cardroom/narrate/speech.py says it in full): each line's priority is 0
// (needs your answer now: assertive), 1 (concerns you), 2 (changes the game) or 3 (background).
// Every verbosity says 0 to 2 at once; "verbose" says the background too, "normal" the
// server's short summary of it now and then, "brief" none of it (the recap key asks for it).
// The history keeps every line.
const VERBOSITIES = ["normal", "brief", "verbose"];
const BACKGROUND = 3;

export function verbosityOf(value) {
  return VERBOSITIES.includes(value) ? value : "normal";
}

export function say(texts, priority, summary = null) {
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

export const prefs = { volume: 0.6, muted: false, speech: false, verbosity: "normal", always_pass: false, ...ALERT_PREFS };
try {
  Object.assign(prefs, JSON.parse(localStorage.getItem(PREFS) || "{}") || {});
} catch (error) {
  // keep the defaults
}

export function applyPrefs(save = true) {
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

export function profileNow() {
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

export function saveProfileSoon() {
  if (!state.account) return;
  clearTimeout(saveTimer);
  saveTimer = setTimeout(saveProfileNow, SAVE_DELAY_MS);
}

export function saveProfileNow() {
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
export function flushProfileOnLeave() {
  if (!state.account || saveTimer === null) return;
  clearTimeout(saveTimer);
  saveTimer = null;
  fetch(`/api/profile?lang=${encodeURIComponent(lang())}`, {
    method: "PUT", credentials: "same-origin", keepalive: true,
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(profileNow()),
  }).catch(() => undefined);
}

// The profile's settings on this page (nothing is saved back: they came from there).
export function applyProfile(profile) {
  if (!profile) return;
  Object.assign(prefs, {
    volume: typeof profile.volume === "number" ? profile.volume : prefs.volume,
    muted: typeof profile.muted === "boolean" ? profile.muted : prefs.muted,
    speech: typeof profile.speech === "boolean" ? profile.speech : prefs.speech,
    verbosity: verbosityOf(profile.verbosity),
    ...alertPrefs(profile),
    always_pass: typeof profile.always_pass === "boolean" ? profile.always_pass : prefs.always_pass,
  });
  applyPrefs(false);
  useKeys(profile.keys || {});
  if (profile.lang && LANGUAGES.some(([code]) => code === profile.lang)) storeLanguage(profile.lang);
}

// A save waiting is not sent (`forget`: nor at the page's leaving); the one being sent is
// returned, to wait for.
export function stopSaving(forget = false) {
  clearTimeout(saveTimer);
  if (forget) saveTimer = null;
  return saving;
}
