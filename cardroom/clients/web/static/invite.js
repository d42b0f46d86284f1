// Invitations (issue 23): every table has its own address, /t/<id>; a private table's link
// carries its code after a # (a fragment never reaches the server, nor its logs). The page
// shows the link with Copy and Share buttons and its QR code; opened, the link brings a friend
// straight to the table, after a nickname.

import { _, fmt } from "./i18n.js";
import { qrSvg } from "./qr.js";
import { $, announce } from "./ui.js";

const PATH = /^\/t\/([A-Za-z0-9_.:-]{1,32})$/;

// The table the page's address names, with the code of its fragment: {table, code} or null.
export function linkedTable() {
  const found = PATH.exec(location.pathname);
  if (!found) return null;
  const code = decodeURIComponent(location.hash.slice(1)).trim();
  return { table: found[1], code: code || null };
}

export function inviteLink(room) {
  const code = room.private && room.code ? `#${encodeURIComponent(room.code)}` : "";
  return `${location.origin}/t/${encodeURIComponent(room.id)}${code}`;
}

// The address bar says where the page is: the table's link there, "/" in the lobby.
export function showAddress(room) {
  const path = room ? inviteLink(room).slice(location.origin.length) : "/";
  if (location.pathname + location.hash !== path) history.replaceState(null, "", path);
}

let drawn = null;

// The invitation box of the table shown, before its game starts (friends take seats then; during
// the game the felt has the room), never a private table's for anyone without its code.
export function renderInvite(room) {
  const box = $("invite");
  const usable = room && room.state === "waiting" && (!room.private || room.code);
  box.hidden = !usable;
  if (!usable) return;
  const link = inviteLink(room);
  if (drawn === link) return;
  drawn = link;
  $("invite-link").textContent = link;
  $("invite-link").href = link;
  $("share-link").hidden = typeof navigator.share !== "function";
  $("invite-qr").replaceChildren(qrSvg(link, fmt(_("QR code of the link to this table: {link}"), { link })));
}

export function initInvite() {
  $("copy-link").addEventListener("click", async () => {
    const link = $("invite-link").href;
    try {
      await navigator.clipboard.writeText(link);
      announce(_("The link is copied: send it to your friends."));
    } catch (error) {
      const range = document.createRange();
      range.selectNodeContents($("invite-link"));
      getSelection().removeAllRanges();
      getSelection().addRange(range);
      announce(_("Copying is not allowed here: the link is selected, copy it yourself."));
    }
  });
  $("share-link").addEventListener("click", () => {
    navigator.share({ title: _("cardroom"), text: _("Come and play cards with me"), url: $("invite-link").href }).catch(() => undefined);
  });
}
