"""What both games' narration shares: seat names as a recipient hears them, durations, marks.

Kept apart so that neither game's narrator imports the other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from babel.lists import format_list

from cardroom.i18n import N_ as N_  # re-exported: the narration marks its words with it
from cardroom.i18n import _, babel_locale, current_language, format_decimal
from cardroom.narrate.speech import Fold
from cardroom.protocol import JSON, Rejected


def seconds(ms: int) -> str:
    """A duration as a person says it, in the current language: "0.5", "3", "1.2" (seconds;
    "0,5" in languages that write a decimal comma)."""
    return format_decimal(max(ms, 0) / 1000, 1)


def plural_n(ms: int) -> int:
    """The count to give `ngettext` for the duration `seconds(ms)` says: gettext's plural
    rules take whole numbers, so a decimal one ("1.5") stands as 1 or 2, by the current
    language's CLDR rule ("1.5 seconds" in English, "1,5 seconde" in French)."""
    value = round(max(ms, 0) / 1000, 1)
    if value == int(value):
        return int(value)
    return 1 if babel_locale(current_language()).plural_form(value) == "one" else 2


class Namer:
    """Names of the seats as `seat` hears them: their own seat is "you"."""

    def __init__(self, names: Sequence[str], seat: int | None) -> None:
        self.names = names
        self.seat = seat

    def __call__(self, p: int) -> str:
        if p == self.seat:
            return _("you")
        return self.names[p] if 0 <= p < len(self.names) else _("seat {seat}").format(seat=p)

    def list(self, seats: Sequence[int]) -> str:
        """'you, Anna and Marco': a list of players, joined as the current language joins lists."""
        return join_list([self(p) for p in seats])


Narrator = Callable[[JSON, Namer, JSON], list[str]]
"""One kind of event's lines: (event, the seats' names as the listener hears them, view)."""


def narrate_by(
    handlers: Mapping[str, Narrator], event: JSON, seat: int | None, names: Sequence[str], view: JSON
) -> list[str]:
    """The lines `event` (as `seat` may see it) prints for `seat`, by the handler its game has
    for the event; [] for an event the game does not narrate."""
    handler = handlers.get(event.get("event", ""))
    if handler is None:
        return []
    return handler(event, Namer(names, seat), view)


def join_list(items: Sequence[str]) -> str:
    """'a, b and c' in the current language (Babel's list patterns), never glued by hand."""
    if not items:
        return ""
    lang = current_language()
    # British English lists have no serial comma, as the English texts were written.
    return format_list(list(items), locale=babel_locale("en_GB" if lang == "en" else lang))


def refusal_from(sentences: Mapping[str, str], rejected: Rejected) -> str:
    """The whole translated sentence for `rejected`'s code; for a code with none yet, the
    engine's English reason, so that nothing is refused in silence."""
    text = sentences.get(rejected.code)
    if text is not None:
        return _(text)
    reason = rejected.reason.strip().rstrip(".")
    return _("Refused: {reason}.").format(reason=reason)


PEOPLE = frozenset(
    {"player", "target", "to", "from", "thrower", "chooser", "receiver", "for", "caller", "winner"}
)
GROUPS = frozenset({"fighters", "targets", "callers", "players"})


def concerns(event: JSON, seat: int | None) -> bool:
    """Whether `seat` takes part in `event`: it acts, is aimed at, receives, fights or wins."""
    if seat is None:
        return False
    for key, value in event.items():
        if key in PEOPLE and value == seat and not isinstance(value, bool):
            return True
        if key in GROUPS and isinstance(value, list) and seat in value:
            return True
    return False


# ---- summaries of the background (cardroom.narrate.speech) --------------------------------------


def tally(counts: Counter[Fold], kind: str) -> tuple[list[int], int]:
    """The seats behind the `kind` folds of a digest, and how many such folds there are."""
    seats = sorted({int(k[1]) for k in counts if k[0] == kind})
    return seats, sum(n for k, n in counts.items() if k[0] == kind)


def meanwhile(parts: Sequence[str]) -> str:
    """The summary sentence of its parts; "" for none."""
    return _("Meanwhile: {summary}.").format(summary=_("; ").join(parts)) if parts else ""
