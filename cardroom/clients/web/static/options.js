// The games as the lobby offers them: their names, the bots' levels, the seats, and each option
// of the create form with the default the table gets (tests/web/test_option_defaults.py checks
// these against the engines), and a table's options in words.

import { N_, _, fmt, lang } from "./i18n.js";
import { el } from "./ui.js";

// ---- options of the create form ---------------------------------------------------------------
export const GAME_NAMES = { kittens: N_("Exploding Kittens"), burrito: N_("Throw Throw Burrito") };
const LEVELS = { kittens: ["random", "easy", "normal", "hard", "expert"], burrito: ["easy", "normal", "hard"] };
export const LEVEL_NAMES = { random: N_("random"), easy: N_("easy"), normal: N_("normal"), hard: N_("hard"), expert: N_("expert") };
export const SEATS = { kittens: [2, 10], burrito: [2, 12] };
export const OPTIONS = {
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
export const STATE_NAMES = { waiting: N_("waiting"), playing: N_("playing"), over: N_("over") };

function optionLabel(game, name) {
  const spec = (OPTIONS[game] || []).find((o) => o[0] === name);
  return spec ? _(spec[2]) : name;
}

export function describeOptions(game, options) {
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

// Filled again when the game or the language changes (the labels are in the page's language);
// a level already chosen stays chosen when only the language changed.
export function fillLevels(select, game) {
  const levels = LEVELS[game] || [];
  const filled = `${game} ${lang()}`;
  if (select.dataset.filled === filled) return;
  const keep = select.dataset.filled && select.dataset.filled.split(" ")[0] === game ? select.value : "normal";
  select.dataset.filled = filled;
  select.replaceChildren(...levels.map((l) => el("option", { value: l, text: _(LEVEL_NAMES[l]) })));
  select.value = levels.includes(keep) ? keep : "normal";
}
