"""What the page gave a screen reader to say, against what Orca said (tests/web/orca.py).

A line of the page is one paragraph added to a live region (conftest's COLLECT), with the time
it was added. Orca may say it with words of its own before it, so a line is found in an
utterance, begun after the line appeared, that says its words from the start of one of its
sentences.
"""

from __future__ import annotations

import re
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.web.orca import Utterance


def words(text: str) -> str:
    """The words of `text`, lower case, without punctuation (speech-dispatcher may say or drop it)."""
    return " ".join(re.findall(r"\w+", text.lower()))


def says(utterance: str, want: str) -> bool:
    """Whether `utterance` says the line whose words are `want`: from its start or from the start
    of one of its sentences (after words of Orca's own), never from within a sentence: "Goth
    Sloth.", the card drawn, is not said by "Passed Goth Sloth.", a later line (read so, every
    line after it was out of order, cc28t)."""
    parts = re.split(r"(?<=[.!?])\s+", utterance)
    return any(re.match(rf"{re.escape(want)}\b", words(" ".join(parts[k:]))) for k in range(len(parts)))


def echo(u: Utterance) -> bool:
    """Orca's echo of a key ("d ", "3 ", "return "): one word and a space, never a line of the
    page (the countdown's "3" is no key echo)."""
    return u.text.endswith(" ") and len(u.text.split()) == 1


def focus_reading(u: Utterance) -> bool:
    """Orca's reading of a list item that takes the focus: its name and its place ("Churro
    Bat, 1."), which no line of the page ends with."""
    return re.fullmatch(r"[^,]+, \d+\.?\s*", u.text) is not None


@dataclass(frozen=True)
class Line:
    """A line the page put in a live region: its text, urgent or not, when (wall-clock seconds),
    and the seconds its answer allows (None: no answer awaited)."""

    text: str
    urgent: bool
    at: float
    window_s: float | None = None
    concerns: bool = True


@dataclass
class Hearing:
    """The figures of one game: each list holds the lines concerned."""

    lines: list[Line]
    heard: list[Utterance]
    found: dict[int, int] = field(default_factory=dict)  # line index -> utterance index
    never: list[Line] = field(default_factory=list)
    flushed: list[Line] = field(default_factory=list)
    """Never sent, because the listener's own key came within `REACTION_S` of the line: a key
    decided before the line could reach them (Orca drops what it has not begun when a key
    comes). Reported, not held against the page: placing such a line again doubled a third of
    a fast player's lines (docs/speech.md)."""
    overtaken: list[Line] = field(default_factory=list)
    """Never sent, a line that needs no answer followed within `OVERTAKEN_S` by one that does,
    before Orca could begin it: Orca drops the polite lines it has not begun when an assertive
    one comes ("Passed Salsa Yeti." under "Brawl: you against Marco." 0.2 s later), as the page
    itself does with the game's lines waiting when an answer's line comes (docs/speech.md,
    "Cues that arrive in time"). Reported, not held against the page: the line is about the
    past and in the history; said, it would hold up the answer."""
    merged: list[Line] = field(default_factory=list)
    """Never sent, a line whose very words the page placed again before Orca began them, the
    repeat said within the first line's window: heard once for both. Two burritos 0.54 s apart
    at the listener, two "Catch!": Orca, 0.55 s behind on a busy machine, took the second in
    place of the first and began it 0.55 s after the first (its window 1.2 s), cc29g."""
    cut: list[Line] = field(default_factory=list)
    twice: list[Line] = field(default_factory=list)
    out_of_order: list[Line] = field(default_factory=list)
    late: list[tuple[Line, float]] = field(default_factory=list)
    delays: list[float] = field(default_factory=list)  # from the line appearing to its end said
    delays_by: list[tuple[Line, float]] = field(default_factory=list)
    lag: float = 0.0  # Orca's own delay on this machine, from a key to its echo
    # late: an answer's line begun after its window (seconds from the line to its start)

    def yours(self) -> Hearing:
        """The same figures for the lines that concern the player alone (answers, their own
        game, the page's answers to their keys): the lines the test holds to."""
        mine = [x for x in self.lines if x.concerns]
        keep = {id(x) for x in mine}
        # In order among themselves: a line about you may overtake one that is not ("Your hand:
        # ..." said before "Round 1 begins.", which Orca held behind its own focus words).
        out_of_order, last = [], -1
        for i, x in enumerate(self.lines):
            if x.concerns and i in self.found:
                if self.found[i] < last:
                    out_of_order.append(x)
                last = max(last, self.found[i])
        return Hearing(
            mine,
            self.heard,
            never=[x for x in self.never if id(x) in keep],
            flushed=[x for x in self.flushed if id(x) in keep],
            overtaken=[x for x in self.overtaken if id(x) in keep],
            merged=[x for x in self.merged if id(x) in keep],
            cut=[x for x in self.cut if id(x) in keep],
            twice=[x for x in self.twice if id(x) in keep],
            out_of_order=out_of_order,
            late=[(x, d) for x, d in self.late if id(x) in keep],
            delays=[d for x, d in self.delays_by if id(x) in keep],
            lag=self.lag,
        )

    def problems(self) -> bool:
        return bool(self.never or self.cut or self.twice or self.out_of_order or self.late)

    def figures(self) -> str:
        said_words = sum(len(u.text.split()) for u in self.heard)
        spoken = sum(len(u.text.split()) for u in self.heard if u.end is not None)
        delay = (
            f"delay median {statistics.median(self.delays):.1f} s, max {max(self.delays):.1f} s"
            if self.delays
            else "no delays"
        )
        return (
            f"{len(self.lines)} live lines: {len(self.lines) - len(self.never) - len(self.flushed) - len(self.overtaken) - len(self.merged)} sent to speech, "
            f"{len(self.never)} never sent, {len(self.flushed)} flushed by the player's key at once, "
            f"{len(self.overtaken)} overtaken by an answer, {len(self.merged)} said once with their repeat, "
            f"{len(self.cut)} cut, {len(self.twice)} said twice, "
            f"{len(self.out_of_order)} out of order, {len(self.late)} late; {delay}; Orca's lag {self.lag:.1f} s; "
            f"words sent {said_words}, spoken whole {spoken}"
        )

    def details(self) -> str:
        parts = [self.figures()]
        for name, items in (
            ("never sent", self.never),
            ("flushed by the player's key at once", self.flushed),
            ("overtaken by an answer", self.overtaken),
            ("said once with their repeat", self.merged),
            ("cut", self.cut),
            ("said twice", self.twice),
            ("out of order", self.out_of_order),
        ):
            if items:
                parts.append(f"{name}: " + " | ".join(x.text for x in items))
        if self.late:
            parts.append(
                "late: " + " | ".join(f"{x.text} ({d:.1f} s > {x.window_s} s)" for x, d in self.late)
            )
        wrong = self.never + self.cut + self.twice + self.out_of_order + [x for x, _ in self.late]
        parts.extend(self.around(x) for x in wrong[:3])
        return "\n".join(parts)

    def around(self, line: Line, before_s: float = 6.0, after_s: float = 4.0) -> str:
        """What the page placed and Orca said in the seconds around `line`: a failure in CI
        explains itself (the transcript file stays on the machine that ran it)."""
        rows = [
            (x.at, f"page {'!' if x.urgent else '*' if x.concerns else ' '} {x.text}")
            for x in self.lines
            if line.at - before_s <= x.at <= line.at + after_s
        ]
        rows += [
            (u.start, f"orca {'ok ' if u.end else 'CUT'} {u.text}")
            for u in self.heard
            if line.at - before_s <= u.start <= line.at + after_s
        ]
        body = "\n".join(f"  {at - line.at:+6.2f} {what}" for at, what in sorted(rows, key=lambda r: r[0]))
        return f"around {line.text!r} (seconds from it):\n{body}"


def page_lines(page: Any, windows: Sequence[tuple[str, float]], default_urgent_s: float | None) -> list[Line]:
    """The lines the page has put in its live regions so far, each with its answer window: the
    first of `windows` (a regular expression, seconds) that matches it, else `default_urgent_s`
    for an urgent line."""
    raw, origin = page.evaluate("[window.__said, performance.timeOrigin]")
    lines = []
    for item in raw:
        text = item["text"]
        urgent = item["region"] == "assertive"
        window = next((s for pattern, s in windows if re.search(pattern, text)), None)
        if window is None and urgent:
            window = default_urgent_s
        lines.append(
            Line(text, urgent, (origin + item["t"]) / 1000, window, bool(item.get("concerns", True)))
        )
    return lines


CLOCKS_S = 0.05
"""How far the page's clock (a line's time) and Orca's log (an utterance's start) may disagree:
an utterance begun this long before a line may still be its."""

REACTION_S = 0.3
"""Less than a person's reaction time: a key pressed this soon after a line is no answer to it."""

OVERTAKEN_S = 0.5
"""How soon after a line Orca may not have begun it yet (it begins a live line 0.1 to 0.4 s
after the page places it): an answer's line this soon after overtakes it (`Hearing.overtaken`)."""


KEY_TRAVEL_S = 1.0
"""The longest from the test sending a key to Orca echoing it that is taken for that key's echo."""


def _reached(keys: Sequence[float], heard: list[Utterance]) -> list[float]:
    """When each key reached Orca: its echo's start, else when it was sent. A key sent just
    before the page placed a line can reach Orca after it, and flush it: under load one sent
    before "Brawl: you against Marco." was echoed 0.23 s after the page placed it, and the line
    was never said (a key decided before the line, not an answer to it)."""
    echoes = [u.start for u in heard if echo(u)]
    out = []
    for k in keys:
        out.append(next((at for at in echoes if k <= at <= k + KEY_TRAVEL_S), k))
    return out


def compare(
    lines: list[Line], heard: list[Utterance], lag: float = 0.0, keys: Sequence[float] = ()
) -> Hearing:
    """Find each line in what Orca said, in the order the page said them; `lag` is Orca's own
    delay on this machine (Orca.lag), added to each answer window. `keys`: when the listener
    pressed a key (wall clock): a line Orca had begun when the listener's own key stopped it was
    heard as far as they wanted ("Catch!" answered by Space as it begins), not cut."""
    result = Hearing(lines, heard, lag=lag)
    reached = _reached(keys, heard)
    used: set[int] = set()
    last_index = -1
    for i, line in enumerate(lines):
        want = words(line.text)
        if not want:
            continue
        # The first utterance after the last one found that says it; else any one after it
        # appeared (then out of order). One begun after the page placed the same words again
        # is the later line's ("Hit!" in the next fight), unless Orca said them often enough
        # for both: Orca, busy with a fight's start, said a second burrito's "Incoming!" twice,
        # 0.45 s apart, once the page had placed both.
        later = sum(1 for x in lines[i + 1 :] if words(x.text) == want)
        again = next((x.at for x in lines[i + 1 :] if words(x.text) == want), float("inf"))
        saying = [
            j
            for j, u in enumerate(heard)
            if j not in used and not echo(u) and u.start >= line.at - CLOCKS_S and says(u.text, want)
        ]
        spare = sum(1 for j in saying if heard[j].start >= again - CLOCKS_S) - later
        candidates = [j for j in saying if heard[j].start < again - CLOCKS_S or spare > 0]
        match = next((j for j in candidates if j > last_index), candidates[0] if candidates else None)
        if match is None:
            # A key sent (decided) within a reaction time of the line, that reached Orca after
            # the line: not an answer to it. Its travel to Orca may be longer than that time
            # (cc34b: Space for a first "Catch!" sent as the page placed the second, echoed 0.31 s
            # after it, flushed it).
            at_once = any(
                sent <= line.at + REACTION_S and line.at <= reach
                for sent, reach in zip(keys, reached, strict=True)
            )
            overtaken = not line.urgent and any(
                x.urgent and line.at < x.at <= line.at + OVERTAKEN_S for x in lines[i + 1 :]
            )
            (result.flushed if at_once else result.overtaken if overtaken else result.never).append(line)
            continue
        used.add(match)
        result.found[i] = match
        u = heard[match]
        if match < last_index:
            result.out_of_order.append(line)
        last_index = max(last_index, match)
        if u.end is None and not u.running() and not _stopped_by_a_key(heard, match, reached):
            result.cut.append(line)
        if u.end is not None:
            result.delays.append(u.end - line.at)
            result.delays_by.append((line, u.end - line.at))
        # An answer is in time when the listener hears its line begin within its window (a
        # prompt names what to do first: "Nope? Press N.", "Catch!", "Your turn.").
        if line.window_s is not None and u.start - line.at > line.window_s + lag:
            result.late.append((line, u.start - line.at))
    # A line never sent whose words the page placed again before Orca began them, the repeat
    # said within the first line's window (`Hearing.merged`). "Before" within the clocks'
    # disagreement: an utterance begun 0.01 s before the repeat was placed is matched to the
    # repeat (it may be its), so it also counts as the repeat's here (CI, stop 44).
    for line in list(result.never):
        i = lines.index(line)
        repeat = next((k for k in range(i + 1, len(lines)) if words(lines[k].text) == words(line.text)), None)
        if repeat is None or repeat not in result.found:
            continue
        begun = heard[result.found[repeat]].start
        window = line.window_s if line.window_s is not None else OVERTAKEN_S
        if lines[repeat].at - CLOCKS_S <= begun and begun - line.at <= window + lag:
            result.never.remove(line)
            result.merged.append(line)
    # Said twice: an utterance no line accounts for that repeats a line the page said. Orca's
    # reading of the card the focus is on ("Churro Bat, 1.": its name and place in the hand) is
    # no repeat of the line "Churro Bat." that said the card drawn.
    found_words = {words(lines[i].text): i for i in result.found}
    for j, u in enumerate(heard):
        if j in used or echo(u) or focus_reading(u):
            continue
        for text, i in found_words.items():
            if len(text.split()) > 1 and says(u.text, text) and heard[result.found[i]].start <= u.start:
                result.twice.append(lines[i])
                break
    return result


def _stopped_by_a_key(heard: list[Utterance], index: int, keys: Sequence[float]) -> bool:
    """Whether a key reached Orca while utterance `index` was being said (after it began, before
    Orca began the next one): the listener stopped it. `keys`: when each reached Orca
    (`_reached`): a Space sent for one "Catch!" reached Orca 0.7 s later, under load, as it
    began a second one, and stopped it."""
    u = heard[index]
    after = next((v.start for v in heard[index + 1 :]), u.start + 5.0)
    return any(u.start <= k <= after for k in keys)


def caught_up(lines: list[Line], heard: list[Utterance]) -> bool:
    """Orca has begun the page's last line (or, past 15 s, never will)."""
    if not lines:
        return True
    last = lines[-1]
    if time.time() - last.at > 15:
        return True
    want = words(last.text)
    return any(
        not echo(u) and u.start >= last.at - CLOCKS_S and re.search(rf"\b{re.escape(want)}\b", words(u.text))
        for u in heard
    )
