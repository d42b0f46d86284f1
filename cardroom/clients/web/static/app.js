// cardroom's web client: every module of the page set going, in order, and the page entered.
// Each module says what it holds; the imports run one way, app.js on top (tests/test_layers.py).
// Every sentence about the game comes from the server's narration (`texts`); the page adds only
// its own labels, all through _().

import { setCards } from "./cards.js";
import { N_, lang, loadCatalog, translatePage, wantedLanguage } from "./i18n.js";
import { initGame } from "./game.js";
import { cardName, holdClock } from "./gamestate.js";
import { isChoosing } from "./chooser.js";
import { keyName, onKeysChanged } from "./keys.js";
import { initAccount, showAccountView } from "./account.js";
import { TOKEN, api } from "./api.js";
import { initRatings, showLeaderboard, showPlayer } from "./ratings.js";
import { initRecords, leaveReplay, replayState, showGames } from "./records.js";
import * as sound from "./sound.js";
import { $, pending, quiet, spoken } from "./ui.js";
import { initInvite, linkedTable } from "./invite.js";
import "./layout.js";
import { onViewChange } from "./views.js";
import { initGuide } from "./guide.js";
import { state } from "./session.js";
import { act, connect, initConnection, query, send } from "./connection.js";
import { applyPrefs, applyProfile, flushProfileOnLeave, saveProfileSoon } from "./prefs.js";
import { initChat } from "./chat.js";
import { createTable, renderCreateForm } from "./lobby.js";
import { GAME_NAMES } from "./options.js";
import { handle } from "./messages.js";
import { leaveTable, showEnter, showPlayArea } from "./screens.js";
import { hinted, initEntry, loggedOut, setHint, showAccount } from "./entry.js";
import { buildLanguagePickers } from "./language.js";
import { buildRules } from "./rules.js";
import { initSettings, isCapturing, onCaptureKey } from "./settings.js";
import { initHelp, openHelp } from "./help.js";

window.cardroom = { state, spoken, replayState, played: sound.played, quiet, pending };

// ---- start -------------------------------------------------------------------------------------
async function main() {
  // Handlers first (a form must never submit itself while the catalog loads), then the texts.
  initConnection({ handle, showEnter });
  initGame({ state, send, act, query, openHelp });
  initRecords({ account: () => state.account, openPlayer: (name) => showPlayer(name) });
  initRatings({ account: () => state.account });
  initAccount({ account: () => state.account, ending: (on) => { state.ending = on; }, loggedOut });
  buildLanguagePickers();
  buildRules();
  applyPrefs(false);
  onKeysChanged(saveProfileSoon);
  window.addEventListener("pagehide", flushProfileOnLeave);
  onViewChange((name, before) => {
    if (before === "replay" && name !== "replay") leaveReplay();
  });

  document.addEventListener("keydown", (event) => {
    sound.unlock();
    if (isCapturing()) return onCaptureKey(event);
    if (keyName(event) === "f1") {
      event.preventDefault();
      openHelp();
    }
    return undefined;
  }, true);
  document.addEventListener("pointerdown", () => sound.unlock());
  initHelp();

  initEntry();
  $("nav-lobby").addEventListener("click", showPlayArea);
  $("nav-games").addEventListener("click", () => showGames());
  $("nav-leaderboard").addEventListener("click", () => showLeaderboard());
  $("nav-me").addEventListener("click", () => {
    if (state.account) showPlayer(state.account.name);
  });
  $("nav-account").addEventListener("click", () => showAccountView());
  initSettings();
  for (const game of Object.keys(GAME_NAMES)) {
    $(`play-now-${game}`).addEventListener("click", () => send({ type: "play_now", game }));
  }
  initInvite();
  $("reclaim-btn").addEventListener("click", () => send({ type: "join", table: state.current }));
  $("rematch-now-btn").addEventListener("click", () => send({ type: "start", table: state.current }));
  $("create-game").addEventListener("change", renderCreateForm);
  $("create-form").addEventListener("submit", createTable);
  initChat();
  $("start-btn").addEventListener("click", () => send({ type: "start", table: state.current }));
  $("rematch-btn").addEventListener("click", () => {
    const ready = $("rematch-btn").getAttribute("aria-pressed") !== "true";
    send({ type: "rematch", table: state.current, ready });
  });
  $("leave-btn").addEventListener("click", leaveTable);
  initGuide({ send, leave: leaveTable, current: () => state.room, hold: holdClock });
  $("add-bot-btn").addEventListener("click", () => send({ type: "add_bot", table: state.current, level: $("add-bot-level").value }));
  $("more-tables").addEventListener("click", () => send({ type: "list_tables", page: state.tablePage + 1 }));

  state.invite = linkedTable();
  // A friend who has only a link reads at the door where it leads, not "Enter the lobby".
  if (state.invite) {
    const title = N_("Join a table");
    $("enter-title").dataset.msgid = title; // translated with the page, once its catalog is in
    $("enter-title").textContent = title;
    $("enter-invited").hidden = false;
  }
  // A logged-in player (the session cookie) enters directly, with the settings of their profile.
  const me = hinted() ? await api("GET", "/api/me") : null;
  if (me && me.ok && me.data.account) {
    state.account = me.data.account;
    setHint(true); // each day of use renews the session: the hint too
    applyProfile(me.data.profile);
  } else if (me) {
    setHint(false);
  }
  setCards(await loadCatalog(wantedLanguage()));
  translatePage();
  for (const select of document.querySelectorAll("select[name=lang]")) select.value = lang();
  renderCreateForm();
  showAccount();
  if (state.ws) {
    // The player entered with a nickname while the texts loaded (a slow phone): that connection
    // stands. Connecting again (with the token its welcome left) would replace it, and a join
    // it had sent, an invitation's, could be lost with it.
  } else if (state.account) {
    $("enter").hidden = true;
    connect(state.account.name);
  } else if (localStorage.getItem(TOKEN)) {
    $("enter").hidden = true;
    connect();
  } else {
    showEnter();
  }
  window.cardroom.ready = true;
}

// Used by tests and by the card names in messages the page writes itself.
window.cardroom.cardName = cardName;
window.cardroom.isChoosing = isChoosing;

main();
