"""Text from the network made plain before a terminal prints it.

A name, a chat line, a table's name or an error message comes from the server, and through it
from other people: an escape sequence in it would clear the screen, move the cursor over
earlier lines, retitle the window or recolour what follows, and a bidirectional override would
make a line read backwards. Every line the terminal clients print goes through `plain`: escape
sequences go whole (with their parameters and, for a title or other string, their text), then
every other control character (C0 but the newline and the tab, DEL, C1) and the bidirectional
formatting characters.
"""

from __future__ import annotations

import re

_SEQUENCES = re.compile(
    r"(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]).*?(?:\x07|\x1b\\|\x9c|$)"  # OSC, DCS, SOS, PM, APC strings
    r"|(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]"  # CSI: cursor moves, erasing, colours
    r"|\x1b[ -/]*[0-~]",  # the other escapes (a reset, a character set, a saved cursor)
    re.DOTALL,
)
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> str:
    """`text` without escape sequences, control characters (but newlines and tabs) and
    bidirectional formatting characters."""
    return _CONTROLS.sub("", _SEQUENCES.sub("", text))
