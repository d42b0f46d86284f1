"""Events into the sentences each recipient hears, with what needs an answer now marked urgent.

The server narrates once per recipient so that every client (the web page, the network
terminal client) announces the same words; the narration modules are the terminal's own.
Each recipient hears their own language: every method renders inside `use_language(lang)`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from cardroom.i18n import _, use_language
from cardroom.narrate import burrito, kittens
from cardroom.protocol import JSON, Rejected

NarrateFn = Callable[[JSON, int | None, Sequence[str], JSON], list[str]]
RefusalFn = Callable[[Rejected], str]


def _urgent_burrito(event: JSON, seat: int | None) -> bool:
    kind = event["event"]
    if kind in ("fight_start", "call"):
        return True
    return kind == "throw" and seat is not None and event.get("target") == seat


def _urgent_kittens(event: JSON, seat: int | None) -> bool:
    kind = event["event"]
    if seat is None or event.get("player") != seat:
        return kind == "played" and seat is not None and event.get("target") == seat
    return kind in ("turn", "defusing", "choosing")


def card_catalog(lang: str) -> JSON:
    """Each game's card names (and, for kittens, what each card does) in `lang`, from the
    narration modules: the web page shows cards with the words the narration says."""
    with use_language(lang):
        return {"burrito": burrito.card_names(), "kittens": kittens.card_catalog()}


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


class Narrator:
    """Narration for one game."""

    def __init__(self, game: str) -> None:
        self.game = game
        module = importlib.import_module(f"cardroom.narrate.{game}")
        self._module: Any = module
        self._narrate: NarrateFn = module.narrate
        self._refusal: RefusalFn = module.refusal
        self._urgent = _urgent_burrito if game == "burrito" else _urgent_kittens

    def lines(
        self, events: list[JSON], seat: int | None, names: Sequence[str], view: JSON | None, lang: str
    ) -> tuple[list[str], list[bool]]:
        """The lines to announce, and for each whether it needs an answer now (assertive)."""
        texts, urgent, _mine = self.marked_lines(events, seat, names, view, lang)
        return texts, urgent

    def marked_lines(
        self, events: list[JSON], seat: int | None, names: Sequence[str], view: JSON | None, lang: str
    ) -> tuple[list[str], list[bool], list[bool]]:
        """`lines`, and for each line whether it concerns `seat` (the "brief" verbosity keeps those)."""
        texts: list[str] = []
        urgent: list[bool] = []
        mine: list[bool] = []
        with use_language(lang):
            for event in events:
                lines = self._narrate(event, seat, names, view or {})
                texts.extend(lines)
                urgent.extend([self._urgent(event, seat)] * len(lines))
                mine.extend([concerns(event, seat)] * len(lines))
        return texts, urgent, mine

    def rejection(self, rejected: Rejected, lang: str) -> str:
        """The refusal as the game's narration says it (the same sentence as the terminal's)."""
        with use_language(lang):
            return self._refusal(rejected)

    def cue(self, cue: str, lang: str) -> str:
        if cue == "catch_window":
            with use_language(lang):
                return _("Catch now!")
        return cue

    def query(
        self,
        what: str,
        card: str | None,
        view: JSON | None,
        names: Sequence[str],
        seat: int | None,
        lang: str,
    ) -> JSON:
        """Answer a rules query (kittens: T, E, D) as data and a sentence."""
        with use_language(lang):
            return self._query(what, card, view, names, seat)

    def _query(
        self, what: str, card: str | None, view: JSON | None, names: Sequence[str], seat: int | None
    ) -> JSON:
        if view is None:
            return {
                "type": "error",
                "code": "not_playing",
                "message": _("No game is being played at this table."),
            }
        answer = getattr(self._module, "answer_query", None)
        if answer is None:
            return {"type": "error", "code": "bad_query", "message": _("This game has no such question.")}
        try:
            text = answer(what, card, view, names, seat)
        except (KeyError, ValueError) as exc:
            return {"type": "error", "code": "bad_query", "message": str(exc)}
        return {"type": "answer", "what": what, "text": text}
