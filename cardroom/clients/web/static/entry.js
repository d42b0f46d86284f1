// Entering: as a guest with a nickname, or logged in (a new account or an old one), and leaving
// (log out, or a session ended elsewhere). A logged-in player's settings come from their profile.

import { TOKEN, api } from "./api.js";
import { _, fmt, lang, wantedLanguage } from "./i18n.js";
import { $, announce } from "./ui.js";
import { leaveReplay } from "./records.js";
import { connect } from "./connection.js";
import { applyProfile, saveProfileNow, stopSaving } from "./prefs.js";
import { switchLanguage } from "./language.js";
import { showEnter } from "./screens.js";
import { state } from "./session.js";

// A readable cookie beside the HttpOnly session: "this browser may be logged in", so a guest's
// page never asks GET /api/me for nothing. It lasts as long as the session cookie.
const HINT = "cardroom_account";
const HINT_AGE_S = 30 * 24 * 3600;

export function hinted() {
  return document.cookie.split(";").some((part) => part.trim().startsWith(`${HINT}=`));
}

export function setHint(on) {
  document.cookie = on ? `${HINT}=1; max-age=${HINT_AGE_S}; path=/; samesite=strict` : `${HINT}=; max-age=0; path=/; samesite=strict`;
}

export function showAccount() {
  const account = state.account;
  $("account-status").hidden = !account;
  $("account-status").textContent = account ? fmt(_("Logged in as {name}"), { name: account.name }) : "";
  $("logout-btn").hidden = !account;
  $("nav-me-item").hidden = !account;
  $("nav-account-item").hidden = !account;
}

function enterMode(mode) {
  $("name-form").hidden = mode !== "guest";
  $("login-form").hidden = mode !== "login";
  $("register-form").hidden = mode !== "register";
}

// Enter the lobby as `name` with a fresh websocket player (no token of an earlier one).
function enterAs(name) {
  localStorage.removeItem(TOKEN);
  if (state.ws) {
    const old = state.ws;
    state.ws = null;
    old.close();
  }
  state.lastV = {};
  state.current = null;
  state.room = null;
  connect(name);
}

async function submitAccount(kind) {
  const prefix = kind === "login" ? "login" : "register";
  const nameInput = $(`${prefix}-name`);
  const passwordInput = $(`${prefix}-password`);
  const error = $(`${prefix}-error`);
  const body = { name: nameInput.value.trim(), password: passwordInput.value };
  if (kind === "register") body.lang = lang();
  error.textContent = "";
  const reply = await api("POST", kind === "login" ? "/api/login" : "/api/register", body);
  if (!reply.ok) {
    error.textContent = reply.data.message;
    announce(reply.data.message, true);
    const code = reply.data.error;
    const field = ["bad_name", "name_taken", "name_reserved"].includes(code) || (code === "bad_request" && !body.name) ? nameInput : passwordInput;
    if (field === passwordInput && code === "wrong_login") passwordInput.select();
    field.focus();
    return;
  }
  passwordInput.value = "";
  state.account = reply.data.account;
  setHint(true);
  if (kind === "login") {
    applyProfile(reply.data.profile);
    if (lang() !== wantedLanguage()) await switchLanguage(wantedLanguage());
  } else {
    // A new account starts with the settings chosen on this page.
    await saveProfileNow();
  }
  showAccount();
  announce(fmt(_("Logged in as {name}"), { name: state.account.name }));
  enterAs(state.account.name);
}

async function logout() {
  await stopSaving();
  await api("POST", "/api/logout");
  loggedOut(_("You are logged out."));
}

// The session ended (a logout here or everywhere, a deleted account): back to the entry form.
export function loggedOut(message) {
  stopSaving(true);
  state.account = null;
  setHint(false);
  leaveReplay();
  if (state.ws) {
    const old = state.ws;
    state.ws = null;
    old.close();
  }
  state.welcomed = false;
  state.lastV = {};
  state.current = null;
  state.room = null;
  localStorage.removeItem(TOKEN);
  showAccount();
  showEnter();
  announce(message);
  $("enter-title").focus();
}

export function initEntry() {
  $("name-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = $("nickname").value.trim();
    if (!name) {
      $("name-error").textContent = _("Choose a nickname of 1 to 24 printable characters.");
      return;
    }
    $("name-error").textContent = "";
    localStorage.removeItem(TOKEN);
    if (state.ws) {
      const old = state.ws;
      state.ws = null;
      old.close();
    }
    connect(name);
  });
  // The button comes disabled in the page's HTML: a tap before this handler existed (the page's
  // modules still loading on a slow phone) submitted the form the browser's way, reloading the
  // page without an invitation's code.
  $("name-form").querySelector("button[type=submit]").disabled = false;
  for (const radio of document.querySelectorAll("input[name=enter-mode]")) {
    radio.addEventListener("change", () => enterMode(radio.value));
  }
  $("login-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitAccount("login");
  });
  $("register-form").addEventListener("submit", (event) => {
    event.preventDefault();
    submitAccount("register");
  });
  $("logout-btn").addEventListener("click", logout);
}
