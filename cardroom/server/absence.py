"""Seats whose person is away mid-game: held for the table's `seat_grace_ms`, then played by a
stand-in (cardroom/bots/stand_in.py), and, when the person is back, one sentence of what
happened to them meanwhile.

A dropped connection on a phone is usually back within seconds: a stand-in that took the seat
at once played turns and spent cards the person would have kept. During the grace period the
seat is played by nobody, and its timers run as for anyone (a turn timer's forced draw is the
rules' own). The lobby's grace period (`Lobby.grace_s`) is another thing: how long a person may
stay away before their seat is the bot's for good and they are forgotten.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from cardroom.i18n import _, ngettext, use_language
from cardroom.protocol import JSON

SEAT_GRACE_MS = 30_000
"""The grace period of a table that does not set `seat_grace_ms` (the games' own default)."""


def seat_grace_ms(options: JSON) -> int:
    """The table's grace period for an absent person's seat, in ms of play time."""
    value = options.get("seat_grace_ms", SEAT_GRACE_MS)
    return value if isinstance(value, int) and not isinstance(value, bool) else SEAT_GRACE_MS


@dataclass(slots=True)
class Away:
    """One seat's absence: when the stand-in is due, and what the person had when they left."""

    stand_in_at: int
    hand: Counter[str] = field(default_factory=Counter)
    moves: int = 0
    """How many moves the table had logged when they left (theirs after that are the stand-in's)."""
    standing_in: bool = False


class Absences:
    """The seats held for people who are away, by seat."""

    def __init__(self) -> None:
        self.away: dict[int, Away] = {}

    def left(self, seat: int, now_ms: int, grace_ms: int, hand: Sequence[str], moves: int) -> None:
        """`seat`'s person went away at `now_ms`: a stand-in is due `grace_ms` later. A seat
        already away keeps its first departure (what they left with, when its grace ends)."""
        if seat not in self.away:
            self.away[seat] = Away(now_ms + grace_ms, Counter(hand), moves)

    def next_due(self) -> int | None:
        """The next moment a stand-in is due, in play time."""
        due = [a.stand_in_at for a in self.away.values() if not a.standing_in]
        return min(due) if due else None

    def due(self, now_ms: int) -> list[int]:
        """The seats whose stand-in is due by `now_ms`, marked as stood in."""
        seats = [s for s, a in self.away.items() if not a.standing_in and a.stand_in_at <= now_ms]
        for seat in seats:
            self.away[seat].standing_in = True
        return seats

    def back(self, seat: int) -> Away | None:
        """`seat`'s person is back (or gone for good): their absence, forgotten here."""
        return self.away.pop(seat, None)

    def clear(self) -> None:
        self.away.clear()


def while_away(
    away: Away, hand: Sequence[str], moves_for_them: int, winner: str | None, you_won: bool, lang: str
) -> str:
    """One sentence in `lang` of what happened to a person while they were away: the moves
    made for them, the cards they gained and lost, and who won if the game ended."""
    now = Counter(hand)
    gained = sum((now - away.hand).values())
    lost = sum((away.hand - now).values())
    with use_language(lang):
        parts = []
        if moves_for_them:
            parts.append(
                ngettext(
                    "a stand-in made {n} move for you", "a stand-in made {n} moves for you", moves_for_them
                ).format(n=moves_for_them)
            )
        if gained:
            parts.append(ngettext("you gained {n} card", "you gained {n} cards", gained).format(n=gained))
        if lost:
            parts.append(ngettext("you lost {n} card", "you lost {n} cards", lost).format(n=lost))
        if you_won:
            parts.append(_("you won the game"))
        elif winner is not None:
            parts.append(_("{name} won the game").format(name=winner))
        if not parts:
            return _("While you were away, nothing happened to your seat.")
        # Translators: {what} lists what happened, e.g. "you gained 2 cards; you lost 1 card".
        return _("While you were away: {what}.").format(what=_("; ").join(parts))
