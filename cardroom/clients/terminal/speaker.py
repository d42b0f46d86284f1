"""How a terminal game speaks, in `cardroom play` and `cardroom connect` alike: which lines the
verbosity says, and when the terminal bell rings.

Every line is one plain line on standard output, for a screen reader to read. The lines of the
game's events carry the server's `priority` (issue 14): needs the listener's answer now,
concerns them, changes the game, or background. The verbosity (`--verbosity`, the page's level
names) decides by the rule every client follows (`cardroom.narrate.speech`: `said_at_once`,
`says_summaries`):
- `brief`: the answers, your own lines and the milestones; no background at all;
- `normal` (the default): the same, and the background folded into the short summary the
  server sends now and then (`summary` in an `events` message);
- `verbose`: every line as it comes.
At every verbosity R (the recap key) asks what happened since you last asked. Answers to the
person's own keys and commands (help, the hand, a refusal) are always said.

The bell (BEL) rings when something needs the person now that they may miss while the screen
reader is busy: the catch window of a burrito thrown at them, and in Exploding Kittens their
turn, their defuse, their choice, a card played against them and the last seconds of their own
timers. Ctrl+G (the bell's own control key) turns it off, and on again.

On a terminal (and without `--plain`) lines wrap at word boundaries to the terminal's width,
never inside a word as the terminal itself would, and a game may keep a status line (the hand,
the turn, the piles) on the screen's last row, below a scroll region the lines scroll in. On a
pipe, in a file or with `--plain`, every line is printed whole and no escape sequence is written.
"""

from __future__ import annotations

import shutil
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO

from cardroom.clients.terminal.plain import plain
from cardroom.i18n import _
from cardroom.narrate.speech import DEFAULT_VERBOSITY, VERBOSITIES, Priority, said_at_once, says_summaries

BELL = "\a"
BELL_KEY = "ctrl+g"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the game's narration, with its `Priority` for the listener (narrate/speech.py);
    a line nobody marked counts as the listener's own."""

    text: str
    priority: int = Priority.YOU

    @property
    def urgent(self) -> bool:
        """Whether it needs the listener's answer now."""
        return self.priority == Priority.ANSWER


class Speaker:
    """Where a terminal game's lines go: `out`, filtered by the verbosity, with the bell."""

    def __init__(
        self, out: TextIO, verbosity: str = DEFAULT_VERBOSITY, bell: bool | None = None, plain: bool = False
    ) -> None:
        """`bell`: ring it; by default when `out` is a terminal (a pipe or a file gets no BEL).
        `plain`: whole lines and no escape sequences even on a terminal (`--plain`)."""
        if verbosity not in VERBOSITIES:
            raise ValueError(f"verbosity must be one of {', '.join(VERBOSITIES)}, not {verbosity!r}")
        self.out = out
        self.verbosity = verbosity
        self.bell = _is_terminal(out) if bell is None else bell
        self.screen = not plain and _is_terminal(out)
        """Wrap at word boundaries and keep the status line (a terminal, without `--plain`)."""
        self.status: Callable[[], str] | None = None
        """The status line's text, read after every line said (a game sets it)."""
        self._rows = 0
        """The screen's height when the scroll region was last set (0: not set)."""

    def say(self, text: str) -> None:
        """A line always said (help, an answer, a prompt), one printed line per line of `text`,
        made plain: much of it came from the network (plain.py)."""
        width = shutil.get_terminal_size().columns if self.screen else 0
        for part in plain(text).split("\n"):
            rows = (
                textwrap.wrap(part, width, break_long_words=False, break_on_hyphens=False)
                if width > 1
                else []
            )
            for row in rows or [part]:
                self.out.write(row + "\n")
        self.draw_status()
        self.out.flush()

    def draw_status(self) -> None:
        """The status line on the last row, the lines scrolling above it (a terminal only)."""
        if not self.screen or self.status is None:
            return
        size = shutil.get_terminal_size()
        if size.lines < 3:
            return
        if size.lines != self._rows:  # set (again, after a resize) the region the lines scroll in
            self._rows = size.lines
            self.out.write(f"\n\x1b7\x1b[1;{size.lines - 1}r\x1b8\x1b[1A")
        text = plain(self.status()).replace("\n", " ")
        if len(text) > size.columns:
            text = text[: size.columns - 1] + "…"
        self.out.write(f"\x1b7\x1b[{size.lines};1H\x1b[2K\x1b[7m{text}\x1b[0m\x1b8")
        self.out.flush()

    def close(self) -> None:
        """The whole screen scrolls again and the status line is cleared (the game is over)."""
        if self._rows:
            self.out.write(f"\x1b7\x1b[r\x1b[{self._rows};1H\x1b[2K\x1b8")
            self.out.flush()
            self._rows = 0

    def keeps(self, line: Line) -> bool:
        """Whether the verbosity says this line of the game as it comes."""
        return said_at_once(line.priority, self.verbosity)

    def lines(self, lines: list[Line], ring: bool = False) -> None:
        """The game's lines the verbosity keeps, after the bell when `ring` (and it is on)."""
        kept = [line.text for line in lines if self.keeps(line)]
        if ring:
            self.ring()
        for text in kept:
            self.say(text)

    def summary(self, text: str | None) -> None:
        """The server's periodic summary of the background, if the verbosity says summaries."""
        if text and says_summaries(self.verbosity):
            self.say(text)

    def cue(self, lines: list[str]) -> None:
        """Lines that mark a moment to act no event marks (the catch window, a timer running out),
        after the bell."""
        if lines:
            self.ring()
        for text in lines:
            self.say(text)

    def ring(self) -> None:
        if self.bell:
            self.out.write(BELL)
            self.out.flush()

    def toggle_bell(self) -> None:
        self.bell = not self.bell
        self.say(_("Bell on.") if self.bell else _("Bell off: Ctrl+G turns it on again."))


def _is_terminal(out: TextIO) -> bool:
    try:
        return out.isatty()
    except (AttributeError, ValueError, OSError):
        return False


def rings(game: str, lines: list[Line]) -> bool:
    """Whether these lines of an event batch ring the bell: in Exploding Kittens, a line that
    needs the listener's answer now (burrito rings at its catch window, which is a cue of its
    own, not at the throw)."""
    return game == "kittens" and any(line.urgent for line in lines)


def bell_help() -> str:
    return _("{key}: {what}").format(
        key=_("Ctrl") + "+G", what=_("the bell off or on (it rings when you must act now)")
    )
