"""Events into the sentences each recipient hears, with what needs an answer now marked urgent.

The server narrates once per recipient so that every client (the web page, the network
terminal client) announces the same words; the narration modules are the terminal's own.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from cardroom.i18n import _
from cardroom.protocol import JSON, Rejected

NarrateFn = Callable[[JSON, int | None, Sequence[str], JSON], list[str]]


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


class Narrator:
    """Narration for one game."""

    def __init__(self, game: str) -> None:
        self.game = game
        module = importlib.import_module(f"cardroom.narrate.{game}")
        self._narrate: NarrateFn = module.narrate
        self._urgent = _urgent_burrito if game == "burrito" else _urgent_kittens

    def lines(
        self, events: list[JSON], seat: int | None, names: Sequence[str], view: JSON | None, lang: str
    ) -> tuple[list[str], bool]:
        texts: list[str] = []
        urgent = False
        for event in events:
            texts.extend(self._narrate(event, seat, names, view or {}))
            urgent = urgent or self._urgent(event, seat)
        return texts, urgent

    def rejection(self, rejected: Rejected, lang: str) -> str:
        return rejected.reason

    def cue(self, cue: str, lang: str) -> str:
        if cue == "catch_window":
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
        if view is None:
            return {
                "type": "error",
                "code": "not_playing",
                "message": _("No game is being played at this table."),
            }
        module: Any = importlib.import_module(f"cardroom.narrate.{self.game}")
        answer = getattr(module, "answer_query", None)
        if answer is None:
            return {"type": "error", "code": "bad_query", "message": _("This game has no such question.")}
        try:
            text = answer(what, card, view, names, seat)
        except (KeyError, ValueError) as exc:
            return {"type": "error", "code": "bad_query", "message": str(exc)}
        return {"type": "answer", "what": what, "text": text}
