// The chats: the lobby's and the table's, each a list of lines and a form to say one; a line
// that comes is said unless its chat is out of sight.

import { _, fmt } from "./i18n.js";
import { $, el } from "./ui.js";
import { notify, send } from "./connection.js";
import { state } from "./session.js";

export function chatItem(line) {
  return el("li", { text: fmt(_("{name}: {text}"), { name: line.from, text: line.text }) });
}

export function onChat(m) {
  const item = chatItem(m);
  if (m.table === null || m.table === undefined) {
    $("lobby-chat-log").append(item);
    $("lobby-chat-log").scrollTop = 1e9;
    if (!$("lobby").hidden) notify(fmt(_("{name} says: {text}"), { name: m.from, text: m.text }));
  } else if (m.table === state.current) {
    $("table-chat-log").append(item);
    $("table-chat-log").scrollTop = 1e9;
    notify(fmt(_("{name} says: {text}"), { name: m.from, text: m.text }));
  }
}

export function initChat() {
  $("lobby-chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("lobby-chat-input");
    if (input.value.trim() && send({ type: "chat", text: input.value.trim() })) input.value = "";
  });
  $("table-chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("table-chat-input");
    if (input.value.trim() && state.current && send({ type: "chat", table: state.current, text: input.value.trim() })) input.value = "";
  });
}
