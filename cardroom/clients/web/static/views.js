// The page's views, one shown at a time: the entry form, the lobby, a table, the Games list,
// the replay viewer, the leaderboard, a player's page and one's account. The nav marks where you are.

import { $ } from "./ui.js";

const VIEWS = ["enter", "lobby", "table", "games", "replay", "leaderboard", "player", "account"];
const NAV = { enter: "nav-lobby", lobby: "nav-lobby", table: "nav-lobby", games: "nav-games", replay: "nav-games", leaderboard: "nav-leaderboard", player: "nav-leaderboard", account: "nav-account" };

let current = "enter";
let own = false; // the player's page shown is the reader's own

export function showView(name, ownPage = false) {
  const before = current;
  current = name;
  own = ownPage;
  for (const view of VIEWS) $(view).hidden = view !== name;
  const active = name === "player" && own ? "nav-me" : NAV[name];
  for (const button of document.querySelectorAll(".nav-btn")) {
    if (button.id === active) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  for (const listener of listeners) listener(name, before);
}

export function currentView() {
  return current;
}

// The views that are not the play area: a table or the lobby does not take over from them.
export function browsing() {
  return ["games", "replay", "leaderboard", "player", "account"].includes(current);
}

const listeners = [];

export function onViewChange(listener) {
  listeners.push(listener);
}
