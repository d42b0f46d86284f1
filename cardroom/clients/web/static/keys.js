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

// Each binding: [action, default key, description msgid].
const COMMON = [
  ["help", "f1", N_("Show the keys for where the focus is")],
  ["log_back", "pageup", N_("Previous entry of the history")],
  ["log_forward", "pagedown", N_("Next entry of the history")],
  ["cursor_prev", "arrowleft", N_("Previous card")],
  ["cursor_next", "arrowright", N_("Next card")],
  ["cursor_first", "home", N_("First card")],
  ["cursor_last", "end", N_("Last card")],
  ["read_hand", "h", N_("Read your hand")],
  ["status", "shift+s", N_("Read the table: seats, counts and scores")],
  ["recap", "r", N_("What happened since you last asked")],
];

const KITTENS = [
  ["play", "p", N_("Play the card under the cursor, or the selected cards as a combo")],
  ["play_enter", "enter", N_("Play (or confirm the order during Alter the Future)")],
  ["select", "space", N_("Select or unselect the card under the cursor for a combo")],
  ["nope", "n", N_("Play a Nope")],
  ["draw", "d", N_("Draw a card (ends your turn)")],
  ["defuse", "f", N_("Defuse the kitten, then choose where it goes")],
  ["give", "g", N_("Give the card under the cursor (when asked for a card)")],
  ["describe", "shift+d", N_("Describe the card under the cursor")],
  ["turn", "t", N_("Whose turn it is and how many turns are left")],
  ["counts", "e", N_("Cards in each hand, in the deck and in the discard pile")],
  ["future", "shift+f", N_("Read the top cards of the deck you know")],
  ["move_up", "shift+arrowup", N_("Alter the Future: move the card under the cursor up")],
  ["move_down", "shift+arrowdown", N_("Alter the Future: move the card under the cursor down")],
];

const BURRITO = [
  ["draw", "d", N_("Draw from your own pile")],
  ["draw_community", "c", N_("Draw from community pile 1")],
  ["draw_community_2", "shift+c", N_("Draw from community pile 2")],
  ["pass", "p", N_("Pass the card under the cursor to your left neighbour")],
  ["pass_1", "1", N_("Pass the card in slot 1")],
  ["pass_2", "2", N_("Pass the card in slot 2")],
  ["pass_3", "3", N_("Pass the card in slot 3")],
  ["pass_4", "4", N_("Pass the card in slot 4")],
  ["pass_5", "5", N_("Pass the card in slot 5")],
  ["set", "s", N_("Set three of the card under the cursor")],
  ["call", "b", N_("Call the fight of the battle card under the cursor")],
  ["grab", "g", N_("Grab a burrito")],
  ["throw", "t", N_("Throw at the nearest other fighter")],
  ["throw_1", "shift+1", N_("Throw at seat 1")],
  ["throw_2", "shift+2", N_("Throw at seat 2")],
  ["throw_3", "shift+3", N_("Throw at seat 3")],
  ["throw_4", "shift+4", N_("Throw at seat 4")],
  ["throw_5", "shift+5", N_("Throw at seat 5")],
  ["throw_6", "shift+6", N_("Throw at seat 6")],
  ["dodge", "x", N_("Dodge")],
  ["catch", "space", N_("Catch (only in the catch window)")],
];

export const DEFAULTS = {
  kittens: [...COMMON, ...KITTENS],
  burrito: [...COMMON, ...BURRITO],
};

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
  for (const b of bindings(game)) if (b.key === key) return b.action;
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
