"""Turn the bytes a terminal sends into key names ("d", "D", "enter", "shift+up", ...), and those
into the names of the keys table both clients read (`canonical`: "shift+d", "shift+arrowup")."""

from __future__ import annotations

from cardroom.help.keys import TERMINAL, action_for, help_rows, key_label, key_of
from cardroom.i18n import _

_SEQUENCES = {
    "\x1b[A": "up",
    "\x1b[B": "down",
    "\x1b[C": "right",
    "\x1b[D": "left",
    "\x1bOA": "up",
    "\x1bOB": "down",
    "\x1bOC": "right",
    "\x1bOD": "left",
    "\x1b[1;2A": "shift+up",
    "\x1b[1;2B": "shift+down",
    "\x1b[1;2C": "shift+right",
    "\x1b[1;2D": "shift+left",
    "\x1b[a": "shift+up",
    "\x1b[b": "shift+down",
    "\x1b[5~": "pageup",
    "\x1b[6~": "pagedown",
    "\x1b[H": "home",
    "\x1b[F": "end",
    "\x1bOH": "home",
    "\x1bOF": "end",
    "\x1b[1~": "home",
    "\x1b[4~": "end",
    "\x1b[7~": "home",
    "\x1b[8~": "end",
    "\x1bOP": "f1",
    "\x1b[11~": "f1",
}
_SINGLE = {
    "\r": "enter",
    "\n": "enter",
    "\t": "tab",
    "\x7f": "backspace",
    "\x08": "backspace",
    "\x1b": "escape",
    "\x07": "ctrl+g",
}


class KeyReader:
    """Splits a stream of characters into key names, keeping an unfinished escape sequence."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, text: str) -> list[str]:
        """The keys completed by `text`."""
        data = self._pending + text
        self._pending = ""
        keys: list[str] = []
        i = 0
        while i < len(data):
            ch = data[i]
            if ch == "\x1b" and i + 1 < len(data) and data[i + 1] in "[O":
                end = i + 2
                while end < len(data) and not (data[end].isalpha() or data[end] == "~"):
                    end += 1
                if end >= len(data):
                    self._pending = data[i:]
                    break
                seq = data[i : end + 1]
                keys.append(_SEQUENCES.get(seq, "unknown"))
                i = end + 1
                continue
            if ch == "\r" and i + 1 < len(data) and data[i + 1] == "\n":
                i += 1
            keys.append(_SINGLE.get(ch, ch))
            i += 1
        return [k for k in keys if k != "unknown" and (len(k) > 1 or k.isprintable())]

    def flush(self) -> list[str]:
        """At end of input, a lone escape is the Escape key."""
        pending, self._pending = self._pending, ""
        return ["escape"] if pending else []


_ARROWS = {"up", "down", "left", "right"}


def canonical(key: str) -> str:
    """The name the keys table (`cardroom.help.keys`) and the web page give `key`: a capital
    letter is Shift and the letter ("D" is "shift+d"), " " is "space", "up" is "arrowup"."""
    if len(key) == 1:
        if key == " ":
            return "space"
        if key.isalpha() and key != key.lower():
            return "shift+" + key.lower()
        return key
    shift, _, base = key.rpartition("+")
    if base in _ARROWS:
        base = "arrow" + base
    return f"{shift}+{base}" if shift else base


def action_of(game: str, key: str) -> str | None:
    """The action `key` (as the terminal names it) does in `game`: the table's, as on the page."""
    return action_for(game, canonical(key), TERMINAL)


def help_lines(game: str) -> list[str]:
    """`?` in a game: the table's keys for the terminal, one "key: what it does" line each."""
    return [_("{key}: {what}").format(key=key, what=what) for key, what in help_rows(game, TERMINAL)]


def label(game: str, action: str) -> str:
    """The key of `action` as people read it ("X", "Space"), for hints in the narration."""
    return key_label(key_of(game, action))
