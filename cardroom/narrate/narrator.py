"""Events into the sentences each recipient hears, each with its priority for that recipient.

The server narrates once per recipient so that every client (the web page, the network
terminal client) announces the same words; the terminal's local game and the replays use the
same narrator, so it lives here, below all of them, not in the server.
Each recipient hears their own language: every method renders inside `use_language(lang)`.
"""

from __future__ import annotations

import importlib
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from cardroom.i18n import _, current_language, elide, use_language
from cardroom.narrate import burrito, kittens
from cardroom.narrate.speech import Fold, Priority, Summariser, answers_first
from cardroom.protocol import JSON, Rejected

NarrateFn = Callable[[JSON, int | None, Sequence[str], JSON], list[str]]
RefusalFn = Callable[[Rejected], str]
Arrange = Callable[[list[tuple[Priority, list[str], JSON]]], list[tuple[Priority, list[str], JSON]]]
Said = dict[tuple[int, str], list[str]]
"""Lines of a batch's events said to a seat they do not name, by event (its id) and language."""


def _names(event: JSON, keys: tuple[str, ...], seat: int | None) -> bool:
    """Whether `event` names `seat` under one of `keys` (a seat number, or a list of them)."""
    if seat is None:
        return False
    for key in keys:
        value = event.get(key)
        if (value == seat and not isinstance(value, bool)) or (isinstance(value, list) and seat in value):
            return True
    return False


def card_catalog(lang: str) -> JSON:
    """Each game's cards in `lang`, each its name and what it does ({name, text}), from the
    narration modules: the web page shows cards with the words the narration says."""
    with use_language(lang):
        return {"burrito": burrito.card_catalog(), "kittens": kittens.card_catalog()}


class Narrator:
    """Narration for one game."""

    def __init__(self, game: str) -> None:
        self.game = game
        module = importlib.import_module(f"cardroom.narrate.{game}")
        self._module: Any = module
        self._narrate: NarrateFn = module.narrate
        self._refusal: RefusalFn = module.refusal
        self._priority: Callable[[JSON, int | None, JSON], Priority] = module.priority
        self._fold: Callable[[JSON, int | None], Fold | None] = module.fold
        self._summary: Summariser = module.summary
        self._closes: frozenset[str] = getattr(module, "CLOSES_DIGEST", frozenset())
        self._holds: Callable[[int | None, JSON | None], bool] | None = getattr(module, "holds_summary", None)
        self._speaks_of: dict[str, tuple[str, ...]] = module.SPEAKS_OF
        self._answers_first: bool = getattr(module, "ANSWERS_FIRST", False)
        self._arrange: Arrange | None = getattr(module, "arrange", None)
        """The game's order for a batch's lines, each event's with its priority (kittens: the
        cause before "Your turn.", a Nope window against you first)."""

    def priorities(self, events: list[JSON], seat: int | None, view: JSON | None) -> list[Priority]:
        """Each event's `Priority` for `seat` (0: needs an answer now, said assertively; 3:
        background, which the default verbosity folds into summaries): what `lines` gives each
        event's lines and `folds` reads. The server asks once per batch and seat for both."""
        seen = view or {}
        return [self._priority(event, seat, seen) for event in events]

    def lines(
        self,
        events: list[JSON],
        seat: int | None,
        names: Sequence[str],
        view: JSON | None,
        lang: str,
        priorities: Sequence[Priority] | None = None,
        said: Said | None = None,
    ) -> tuple[list[str], list[int]]:
        """The lines to announce, and each one's `Priority` for `seat` (`priorities`, the
        events' own, when the caller has them); in a game that says answers first (burrito's
        `ANSWERS_FIRST`) the lines that need an answer come before the rest.

        `said`: what the seats of one batch heard so far (the caller's, one per batch, while
        its events live). An event the game's `SPEAKS_OF` lists sounds the same to every seat
        it does not name, so those seats take its lines from there: said once per language,
        not once per seat."""
        if priorities is None:
            priorities = self.priorities(events, seat, view)
        seen = view or {}
        if current_language() == lang:  # the fan-out enters each language once per batch
            said_now = self._said(events, priorities, seat, names, seen, lang, said)
        else:
            with use_language(lang):
                said_now = self._said(events, priorities, seat, names, seen, lang, said)
        if self._arrange is not None:
            said_now = self._arrange(said_now)
        texts: list[str] = []
        priority: list[int] = []
        for rank, lines, _event in said_now:
            texts.extend(lines)
            priority.extend([int(rank)] * len(lines))
        return answers_first(texts, priority) if self._answers_first else (texts, priority)

    def _said(
        self,
        events: list[JSON],
        priorities: Sequence[Priority],
        seat: int | None,
        names: Sequence[str],
        seen: JSON,
        lang: str,
        said: Said | None,
    ) -> list[tuple[Priority, list[str], JSON]]:
        """Each event's lines for `seat` in the current language (`lines`), with its priority."""
        said_now: list[tuple[Priority, list[str], JSON]] = []
        speaks_of = self._speaks_of
        for event, rank in zip(events, priorities, strict=True):
            named = speaks_of.get(event.get("event", "")) if said is not None else None
            shared = named is not None and not _names(event, named, seat)
            lines = said.get((id(event), lang)) if shared and said is not None else None
            if lines is None:
                lines = [elide(line) for line in self._narrate(event, seat, names, seen)]
                if shared and said is not None:
                    said[(id(event), lang)] = lines
            if lines:
                said_now.append((rank, lines, event))
        return said_now

    def folds(
        self,
        events: list[JSON],
        seat: int | None,
        view: JSON | None,
        priorities: Sequence[Priority] | None = None,
    ) -> list[Fold]:
        """What the background among `events` adds to `seat`'s digest (`speech.Digest`)."""
        if priorities is None:
            priorities = self.priorities(events, seat, view)
        out: list[Fold] = []
        for event, rank in zip(events, priorities, strict=True):
            if rank == Priority.BACKGROUND:
                folded = self._fold(event, seat)
                if folded is not None:
                    out.append(folded)
        return out

    def closes_digest(self, kinds: Iterable[str]) -> bool:
        """Whether a batch with events of these `kinds` ends what the background digests hold
        (burrito: a round's end): each digest starts again and gives no summary with it
        (`speech.Digest.summary_now`). A property of the batch: asked once, not per seat."""
        return not self._closes.isdisjoint(kinds)

    def holds_summary(self, seat: int | None, view: JSON | None) -> bool:
        """Whether a summary due now waits for a later batch: `seat`, in the state of `view`,
        needs its ears for what comes next (burrito: a fight of theirs, a countdown)."""
        return self._holds is not None and self._holds(seat, view)

    def summary(self, counts: Counter[Fold], seat: int | None, names: Sequence[str], lang: str) -> str:
        """The digest `counts` as one sentence for `seat`, in `lang` ("" when there is nothing)."""
        with use_language(lang):
            return elide(self._summary(counts, seat, names))

    def rejection(self, rejected: Rejected, lang: str) -> str:
        """The refusal as the game's narration says it (the same sentence as the terminal's)."""
        with use_language(lang):
            return self._refusal(rejected)

    def cue(self, cue: str, lang: str) -> str:
        if cue == "catch_window":
            with use_language(lang):
                # The catch window is 300 ms long: one word, said in about that time.
                return _("Catch!")
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
        """Answer a rules query (kittens: T, E, Shift+D; burrito: Shift+D) as data and a sentence."""
        with use_language(lang):
            answer = self._query(what, card, view, names, seat)
            if "text" in answer:
                answer["text"] = elide(answer["text"])
            return answer

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
