"""Turn the bytes a terminal sends into key names ("d", "enter", "shift+up", ...)."""

from __future__ import annotations

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
