// Key maps: one per game, remappable, kept in localStorage. A key is named by its modifiers
// and base ("shift+d", "space", "arrowup", "shift+1"); digits by their position (layout-proof).

import { N_, _, pgettext } from "./i18n.js";

const STORE = "cardroom.keys";

export function keyName(event) {
  let base;
  if (/^Digit\d$/.test(event.code || "")) base = event.code.slice(5);
  else if (event.key === " ") base = "space";
  else base = (event.key || "").toLowerCase();
  if (["shift", "control", "alt", "meta"].includes(base)) return null;
  const mods = [];
  if (event.ctrlKey) mods.push("ctrl");
  if (event.altKey) mods.push("alt");
  if (event.metaKey) mods.push("meta");
  if (event.shiftKey) mods.push("shift");
  return [...mods, base].join("+");
}

// The default keys of each game come from the server (`/keys.json`, cardroom/help/keys.py): the
// terminal reads the same table, so a key does the same thing in both clients. Each binding:
// [action, default key, description msgid]; ALSO holds an action's other keys (003's T and E
// answer with or without Shift). Keys only the terminal has are left out.
export const DEFAULTS = {};
const ALSO = {};
try {
  const reply = await fetch("/keys.json");
  const tables = reply.ok ? await reply.json() : {};
  for (const [game, table] of Object.entries(tables)) {
    const mine = table.filter((k) => k.only !== "terminal");
    DEFAULTS[game] = mine.map((k) => [k.action, k.key, k.label]);
    ALSO[game] = Object.fromEntries(mine.map((k) => [k.action, k.also || []]));
  }
} catch (error) {
  // Without the table the page has no game keys; the lobby and the chat still work.
}

let custom = {};
try {
  custom = JSON.parse(localStorage.getItem(STORE) || "{}") || {};
} catch (error) {
  custom = {};
}

const listeners = [];

function save() {
  localStorage.setItem(STORE, JSON.stringify(custom));
  for (const listener of listeners) listener();
}

// Called after every change of the key map (the profile of a logged-in player keeps it).
export function onKeysChanged(listener) {
  listeners.push(listener);
}

// The remapped keys only, per game: {GAME: {ACTION: KEY}} (the profile's `keys`).
export function customKeys() {
  return JSON.parse(JSON.stringify(custom));
}

// Take the key map of a profile; nothing is saved back (it came from there).
export function useKeys(map) {
  custom = {};
  for (const [game, bound] of Object.entries(map || {})) {
    if (!DEFAULTS[game] || !bound || typeof bound !== "object") continue;
    const known = new Set(DEFAULTS[game].map(([action]) => action));
    custom[game] = {};
    for (const [action, key] of Object.entries(bound)) if (known.has(action) && typeof key === "string") custom[game][action] = key;
  }
  localStorage.setItem(STORE, JSON.stringify(custom));
}

// The bindings of `game`: [{action, key, help}] with any remapping applied.
export function bindings(game) {
  const mine = custom[game] || {};
  return (DEFAULTS[game] || []).map(([action, key, help]) => ({
    action,
    key: mine[action] || key,
    help,
  }));
}

export function actionFor(game, key) {
  const bound = bindings(game);
  for (const b of bound) if (b.key === key) return b.action;
  // An action's other keys work while the player has not remapped it.
  const mine = custom[game] || {};
  for (const b of bound) if (!mine[b.action] && ((ALSO[game] || {})[b.action] || []).includes(key)) return b.action;
  return null;
}

export function remap(game, action, key) {
  custom[game] = custom[game] || {};
  // A key does one thing: whatever held it before gets the new one's old key.
  const before = bindings(game);
  const old = before.find((b) => b.action === action);
  const clash = before.find((b) => b.key === key && b.action !== action);
  if (clash && old) custom[game][clash.action] = old.key;
  custom[game][action] = key;
  save();
}

export function resetKeys() {
  custom = {};
  save();
}

// A key name as people read it: "Shift+D", "Space", "Page Up".
export function keyLabel(key) {
  const names = {
    space: N_("Space"), escape: N_("Escape"), pageup: N_("Page Up"),
    pagedown: N_("Page Down"), arrowup: N_("Up arrow"), arrowdown: N_("Down arrow"),
    arrowleft: N_("Left arrow"), arrowright: N_("Right arrow"), home: N_("Home"), end: N_("End"),
    shift: N_("Shift"), ctrl: N_("Ctrl"), alt: N_("Alt"), meta: N_("Meta"), tab: N_("Tab"),
  };
  // "Enter" the key is not "Enter" the lobby's button: a message with its own context.
  const label = (part) => (part === "enter" ? pgettext("key", "Enter") : _(names[part]));
  return key
    .split("+")
    .map((part) => (part === "enter" || names[part] ? label(part) : part.length === 1 ? part.toUpperCase() : part.toUpperCase()))
    .join("+");
}
