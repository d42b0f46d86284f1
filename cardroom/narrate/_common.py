"""What both games' narration shares: seat names as a recipient hears them, durations, marks.

Kept apart so that neither game's narrator imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from cardroom.i18n import _
from cardroom.protocol import Rejected


def N_(message: str) -> str:
    """Mark `message` for translation; it is translated when used, in the reader's language."""
    return message


def seconds(ms: int) -> str:
    """A duration as a person says it: "0.5", "3", "1.2" (seconds)."""
    text = f"{max(ms, 0) / 1000:.1f}"
    return text[:-2] if text.endswith(".0") else text


class Namer:
    """Names of the seats as `seat` hears them: their own seat is "you"."""

    def __init__(self, names: Sequence[str], seat: int | None) -> None:
        self.names = list(names)
        self.seat = seat

    def __call__(self, p: int) -> str:
        if p == self.seat:
            return _("you")
        return self.names[p] if 0 <= p < len(self.names) else _("seat {seat}").format(seat=p)

    def list(self, seats: Sequence[int]) -> str:
        """'you, Anna and Marco': a list of players (the joining words are translated)."""
        who = [self(p) for p in seats]
        if len(who) <= 1:
            return "".join(who)
        return _("{first} and {last}").format(first=_(", ").join(who[:-1]), last=who[-1])


def refusal_from(sentences: Mapping[str, str], rejected: Rejected) -> str:
    """The whole translated sentence for `rejected`'s code; for a code with none yet, the
    engine's English reason, so that nothing is refused in silence."""
    text = sentences.get(rejected.code)
    if text is not None:
        return _(text)
    reason = rejected.reason.strip().rstrip(".")
    return _("Refused: {reason}.").format(reason=reason)
