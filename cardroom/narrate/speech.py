"""What a listener hears, and when: the priority of each narrated line, the three verbosities,
and the digest that folds background lines into one short summary.

A screen reader says 180 to 360 words a minute; a four-player table makes far more narration
than that. So every line gets a priority (`Priority`), and a client says a line at once only
when its verbosity keeps that priority (`said_at_once`):

- ANSWER: needs the listener's answer now (a burrito at them, their turn, a Nope window against
  them). Said assertively, at every verbosity.
- YOU: concerns the listener (their own moves, what is done to them). Said at every verbosity.
- MILESTONE: changes the game (start, countdown, every fight's result, round and game end with
  the scores). Said at every verbosity.
- BACKGROUND: the rest (others' draws, passes, throws in fights the listener is not in).
  "verbose" says each line; "normal" (the default) folds them into a summary now and then
  ("3 passes to you; Hugo scored 1 set", "Hugo and Sanne drew 4 cards"), which the server
  sends as the batch's `summary`; "brief" says none of it. At every verbosity, the recap key asks the server what
  happened since the listener last asked (`Digest` again).

The server narrates (`cardroom.narrate.narrator`) and sends `priority` per line; the web page
and the terminal apply `said_at_once` and `says_summaries` in the same way (`heard` is that
rule over a whole transcript, which the speech-budget test and `make bench` count).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from enum import IntEnum
from typing import Any

from cardroom.protocol import JSON


class Priority(IntEnum):
    ANSWER = 0
    YOU = 1
    MILESTONE = 2
    BACKGROUND = 3


VERBOSITIES = ("brief", "normal", "verbose")
DEFAULT_VERBOSITY = "normal"

WORD_MS = 300
"""How long a screen reader takes to say a word: about 200 words a minute, the page's own
figure (`WORD_MS` in static/ui.js), in the lower part of the 180 to 360 words a minute screen
readers are set to (issue 14). A line that asks for an answer before a moment is of use only
when it has been said by then (issue 21)."""

SUMMARY_EVERY_MS = 60_000
"""Play time between two summaries of the background, at the "normal" verbosity."""

Fold = tuple[Any, ...]
"""What a background event adds to a digest: ("drew", seat), ("passed", seat, to), ..."""


def said_in_ms(text: str) -> int:
    """How long `text` takes to say, at `WORD_MS` a word."""
    return len(text.split()) * WORD_MS


def answers_first(texts: list[str], priority: list[int]) -> tuple[list[str], list[int]]:
    """The lines of one batch with those that need an answer (`Priority.ANSWER`) first, the
    rest in their order: a line about the past never holds up the line that asks for an
    answer ("Incoming, Chloé!" before "Marco dodges.", issue 21)."""
    first_other = next((i for i, p in enumerate(priority) if p != Priority.ANSWER), len(priority))
    if Priority.ANSWER not in priority[first_other:]:
        return texts, priority
    order = sorted(range(len(texts)), key=lambda i: priority[i] != Priority.ANSWER)
    return [texts[i] for i in order], [priority[i] for i in order]


def said_at_once(priority: int, verbosity: str) -> bool:
    """Whether a line of `priority` is said as it comes, at `verbosity`."""
    return verbosity == "verbose" or priority < Priority.BACKGROUND


def says_summaries(verbosity: str) -> bool:
    """Whether the background's periodic summaries are said, at `verbosity`."""
    return verbosity == "normal"


def heard(messages: Iterable[JSON], verbosity: str) -> list[str]:
    """The lines a listener at `verbosity` hears of these server messages (`events` batches
    and `cue`s, in order): the rule every client follows."""
    out: list[str] = []
    for message in messages:
        if message.get("type") == "cue":
            out.append(message["text"])
            continue
        texts: list[str] = message.get("texts", [])
        priority: list[int] = message.get("priority", [])
        out.extend(t for t, p in zip(texts, priority, strict=True) if said_at_once(p, verbosity))
        summary = message.get("summary")
        if summary and says_summaries(verbosity):
            out.append(summary)
    return out


class Digest:
    """Background events since a moment, counted by what they fold into; `take` empties it."""

    def __init__(self, since: int = 0) -> None:
        self.since = since
        self.counts: Counter[Fold] = Counter()

    def add(self, folds: Iterable[Fold]) -> None:
        self.counts.update(folds)

    def due(self, now: int, every: int = SUMMARY_EVERY_MS) -> bool:
        return bool(self.counts) and now - self.since >= every

    def take(self, now: int) -> Counter[Fold]:
        counts, self.counts, self.since = self.counts, Counter(), now
        return counts

    def summary_now(self, now: int, closes: bool, held: bool = False) -> Counter[Fold] | None:
        """What the summary said with a batch at `now` tells (None: no summary now). A batch
        that `closes` the digest (`Narrator.closes_digest`) empties it and says nothing of it;
        one the listener must not be kept from (`held`, `Narrator.holds_summary`) keeps it for
        a later batch."""
        if closes:
            self.take(now)
            return None
        return self.take(now) if self.due(now) and not held else None


Summariser = Callable[[Counter[Fold], int | None, Sequence[str]], str]
"""A game's summary of a digest for `seat`, with the seats' names: one sentence, or ""."""
