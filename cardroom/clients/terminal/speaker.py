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
"""

from __future__ import annotations

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

    def __init__(self, out: TextIO, verbosity: str = DEFAULT_VERBOSITY, bell: bool | None = None) -> None:
        """`bell`: ring it; by default when `out` is a terminal (a pipe or a file gets no BEL)."""
        if verbosity not in VERBOSITIES:
            raise ValueError(f"verbosity must be one of {', '.join(VERBOSITIES)}, not {verbosity!r}")
        self.out = out
        self.verbosity = verbosity
        self.bell = _is_terminal(out) if bell is None else bell

    def say(self, text: str) -> None:
        """A line always said (help, an answer, a prompt), one printed line per line of `text`,
        made plain: much of it came from the network (plain.py)."""
        for part in plain(text).split("\n"):
            self.out.write(part + "\n")
        self.out.flush()

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
