"""What a game gives the line-by-line terminal client: keys in, sentences out.

The session (`clients/terminal/session.py`) owns the clock, the bots and the keyboard; a
`GameUI` only turns keys into actions and events into one plain line each, so that a screen
reader can follow the game line by line (no cursor movement, no redraws).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from cardroom.i18n import _
from cardroom.protocol import JSON, Rejected


def seat_list(who: Callable[[int], str], seats: Iterable[int]) -> str:
    """ "1 you, 2 Bea": seats as people count them, from 1 as the lobby and the page do (the
    wire and the engines count from 0; `seat_typed` turns a typed number back)."""
    return _(", ").join(_("{seat} {name}").format(seat=p + 1, name=who(p)) for p in seats)


def seat_typed(number: int) -> int:
    """The seat (from 0) a person means by typing `number` (from 1)."""
    return number - 1


@dataclass(frozen=True, slots=True)
class Say:
    """A line to print for the player alone (help, an answer to a query, a prompt)."""

    text: str


@dataclass(frozen=True, slots=True)
class Ask:
    """A question the view cannot answer, for whoever keeps the table's digests: `what` is
    "recap" (the recap key: what happened since the player last asked), answered by the
    server in `cardroom connect` and by the session in `cardroom play`."""

    what: str


class GameUI(Protocol):
    """Game-specific half of the terminal client, for the human at `seat`.

    Keys arrive as names: a printable character as itself ("d", "D", "3", " "), or one of
    "enter", "escape", "backspace", "tab", "up", "down", "left", "right", "shift+up",
    "shift+down". `?` is handled by the session (it prints `help()`).
    """

    def welcome(self) -> str:
        """The first lines: the game, who sits where, how to get help (the CLI adds the seed)."""
        ...

    def help(self) -> list[str]:
        """One line per key: what it does."""
        ...

    def on_key(self, key: str, view: JSON, now: int) -> Any | Say | Ask | None:
        """An action to send, a line to print, a question for the table's keeper, or None (key
        ignored / part of a sequence)."""
        ...

    def narrate(self, event: JSON, view: JSON, now: int) -> list[str]:
        """The lines this event prints for the player (already filtered for their seat).

        Incoming throws and the catch window (or defuse now) carry a word cue such as
        "INCOMING!" / "CATCH NOW!" at the start of the line.
        """
        ...

    def refused(self, rejection: Rejected) -> str:
        """The line printed when the player's action is refused."""
        ...

    def bar(self, view: JSON) -> str:
        """The status line kept at the bottom of a terminal: the hand, the turn, the piles."""
        ...

    def status(self, view: JSON) -> list[str]:
        """A summary of the table on request (the UI binds it to a key)."""
        ...

    def wakeups(self, view: JSON) -> list[int]:
        """Moments (ms of play time) at which the UI wants `tick` called, asked after every
        batch of events: cues no event marks, such as the catch window opening ("CATCH NOW!")
        or a defuse running out. The answer replaces the previous one."""
        ...

    def tick(self, view: JSON, now: int) -> list[str]:
        """The lines to print at a wake-up moment `now` (may be none)."""
        ...
