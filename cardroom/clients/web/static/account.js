// The account view (docs/api.md, "Your account"): change the password, log out everywhere,
// download one's data, delete the account. Every control is a labelled field or button in the
// page's order; a result is said in the polite live region and shown under the title, a refusal
// is said at once (assertive), shown beside its form, and the field to fix takes the focus.

import { api } from "./api.js";
import { _ } from "./i18n.js";
import { $, announce } from "./ui.js";
import { showView } from "./views.js";

// { account: () => account or null, ending: (on) => void, loggedOut: (message) => void }
let ctx = null;

export function initAccount(context) {
  ctx = context;
  $("password-form").addEventListener("submit", (event) => {
    event.preventDefault();
    changePassword();
  });
  $("logout-all-btn").addEventListener("click", logoutEverywhere);
  $("delete-form").addEventListener("submit", (event) => {
    event.preventDefault();
    deleteAccount();
  });
}

export function showAccountView(focus = true) {
  if (!ctx.account()) return;
  showView("account");
  $("account-result").textContent = "";
  for (const id of ["password-error", "delete-error"]) $(id).textContent = "";
  if (focus) $("account-title").focus();
}

function refused(reply, field, error) {
  error.textContent = reply.data.message;
  announce(reply.data.message, true);
  field.select();
  field.focus();
}

async function changePassword() {
  const old = $("password-old");
  const fresh = $("password-new");
  const error = $("password-error");
  error.textContent = "";
  const reply = await api("POST", "/api/password", { old: old.value, new: fresh.value });
  if (!reply.ok) {
    refused(reply, reply.data.error === "bad_password" ? fresh : old, error);
    return;
  }
  old.value = "";
  fresh.value = "";
  const text = _("Your password is changed, and your other sessions have ended.");
  $("account-result").textContent = text;
  announce(text);
  $("account-title").focus();
}

// The server closes this page's websocket as it ends the session: that close is expected.
async function ending(request) {
  ctx.ending(true);
  try {
    return await request();
  } finally {
    ctx.ending(false);
  }
}

async function logoutEverywhere() {
  const reply = await ending(() => api("POST", "/api/logout-all"));
  if (!reply.ok) {
    $("account-result").textContent = reply.data.message;
    announce(reply.data.message, true);
    return;
  }
  ctx.loggedOut(_("You are logged out everywhere, on this page too."));
}

async function deleteAccount() {
  const password = $("delete-password");
  const error = $("delete-error");
  error.textContent = "";
  const reply = await ending(() => api("DELETE", "/api/me", { password: password.value }));
  password.value = "";
  if (!reply.ok) {
    refused(reply, password, error);
    return;
  }
  ctx.loggedOut(_("Your account is deleted. Goodbye!"));
}
